"""One die's motion and settle logic (companion_dice.sensing), driven by synthetic traces.

The traces come from companion.devices.dice_world (a seeded physical model of a die with an
LIS3DH inside), from small hand-made streams, from hypothesis, and from the CSV files in
tests/firmware/traces/ (synthetic now; recordings of real dice can be dropped in beside them).
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.devices.dice_world import DieWorld, World, read_trace_csv, slot_vector
from companion_dice.sensing import DieTracker, Settings, tilt_deg, up_slot

TRACES = Path(__file__).resolve().parent / "traces"
MOVING, ROLLING, CROOKED = ("moving",), ("rolling",), ("crooked",)

Event = tuple


def timed(
    tracker: DieTracker, samples: Iterable[tuple[int, int, int, int]]
) -> list[tuple[int, Event]]:
    """Feed samples; return ``(t_ms, event)`` for every event, in order."""
    out = []
    for t, x, y, z in samples:
        out += [(t, event) for event in tracker.feed(t, x, y, z)]
    return out


def events(tracker: DieTracker, samples: Iterable[tuple[int, int, int, int]]) -> list[Event]:
    """Feed samples; return the events, in order."""
    return [event for _, event in timed(tracker, samples)]


def settled(seed: int = 0, slot: int = 4, **kw: float) -> tuple[DieWorld, DieTracker]:
    """A die lying on ``slot`` and a tracker that has seen it come to rest."""
    die = DieWorld(random.Random(seed), slot=slot, **kw)
    tracker = DieTracker()
    assert events(tracker, die.rest(500)) == [("rest", slot)]
    return die, tracker


def hold(
    t0: int, vector: tuple[float, float, float], ms: int, rng: random.Random, noise: float = 3.0
):
    """Samples of a constant reading (plus noise) from ``t0`` for ``ms``."""
    return [
        (t0 + i * 10, *(round(v + rng.gauss(0, noise)) for v in vector)) for i in range(ms // 10)
    ]


# --- rest ---


@pytest.mark.parametrize("slot", range(6))
def test_first_rest_reports_the_state_not_a_roll(slot: int) -> None:
    """A new tracker reports ("rest", slot) once, when the die first lies still: a state, not a
    roll."""
    die = DieWorld(random.Random(slot), slot=slot)
    tracker = DieTracker()
    assert tracker.state == "unknown"
    assert tracker.slot is None
    assert events(tracker, die.rest(2000)) == [("rest", slot)]
    assert tracker.state == "rest"
    assert tracker.slot == slot


def test_rest_fires_when_the_still_window_completes() -> None:
    """The rest event fires on the first sample settle_ms after the window's first sample."""
    rng = random.Random(1)
    tracker = DieTracker()
    got = timed(tracker, hold(1000, (0, 0, 1000), 1000, rng))
    assert got == [(1300, ("rest", 4))]
    tracker = DieTracker(Settings(settle_ms=500))
    assert timed(tracker, hold(1000, (0, 0, 1000), 1000, rng)) == [(1500, ("rest", 4))]


def test_rest_vector_is_the_window_mean() -> None:
    """The rest vector is the mean of the still window (noise averaged out)."""
    rng = random.Random(2)
    tracker = DieTracker()
    events(tracker, hold(0, (100, -50, 990), 400, rng))
    x, y, z = tracker.rest_vector
    assert abs(x - 100) <= 3 and abs(y + 50) <= 3 and abs(z - 990) <= 3


def test_a_leaning_or_dead_die_rests_unreadable() -> None:
    """The first rest of a die tilted past crooked_deg, or of a sensor not reading 1 g, has slot
    None."""
    rng = random.Random(3)
    leaning = DieTracker()
    assert events(leaning, hold(0, slot_vector(2, 35, 20), 500, rng)) == [("rest", None)]
    assert leaning.slot is None
    dead = DieTracker()
    assert events(dead, [(t, 0, 0, 0) for t in range(0, 500, 10)]) == [("rest", None)]
    heavy = DieTracker()  # 1.5 g at rest: not gravity alone
    assert events(heavy, hold(0, (0, 0, 1500), 500, rng)) == [("rest", None)]


def test_reset_reports_the_next_rest_again() -> None:
    """After reset() the tracker forgets the die and reports its next rest as ("rest", slot)."""
    die, tracker = settled(seed=4, slot=3)
    tracker.reset()
    assert tracker.state == "unknown"
    assert events(tracker, die.rest(500)) == [("rest", 3)]


def test_a_die_that_stays_put_reports_nothing_more() -> None:
    """Once at rest, lying still for a long time produces no event."""
    die, tracker = settled(seed=5)
    assert events(tracker, die.rest(30_000)) == []


# --- throws ---


@pytest.mark.parametrize("start", range(6))
@pytest.mark.parametrize("slot", range(6))
def test_a_throw_reports_moving_rolling_roll(start: int, slot: int) -> None:
    """A real roll from any face onto any face gives exactly moving, rolling, ("roll", slot)."""
    die, tracker = settled(seed=10 * start + slot, slot=start)
    assert events(tracker, die.throw(slot)) == [MOVING, ROLLING, ("roll", slot)]
    assert tracker.state == "rest"
    assert tracker.slot == slot
    assert tracker.freefall and tracker.impact and tracker.tumbles >= 2


@pytest.mark.parametrize("seed", range(12))
def test_a_crooked_throw_reports_crooked(seed: int) -> None:
    """A roll ending tilted 30-40 degrees (against a wall) gives moving, rolling, crooked."""
    die, tracker = settled(seed=seed, slot=seed % 6)
    assert events(tracker, die.throw_crooked()) == [MOVING, ROLLING, CROOKED]
    assert tracker.state == "rest"
    assert tracker.slot is None
    assert tilt_deg(*tracker.rest_vector) > tracker.settings.crooked_deg


def test_a_roll_ending_without_one_g_is_crooked() -> None:
    """A roll that comes to rest reading far from 1 g (here 0.6 g) cannot be read: crooked."""
    die, tracker = settled(seed=20)
    samples = die.throw(2)
    stop = die.last_stop_ms
    rng = random.Random(0)
    samples = [s for s in samples if s[0] <= stop] + hold(stop + 10, (0, 600, 0), 600, rng)
    assert events(tracker, samples) == [MOVING, ROLLING, CROOKED]


def test_rolling_is_reported_while_the_die_is_still_moving() -> None:
    """ "rolling" comes before the die stops, and "roll" only after it has lain still."""
    for seed in range(20):
        die, tracker = settled(seed=seed)
        got = timed(tracker, die.throw(seed % 6))
        (t_moving, _), (t_rolling, _), (t_roll, _) = got
        assert t_moving < t_rolling < die.last_stop_ms < t_roll


@pytest.mark.parametrize("settle_ms", [300, 500])
def test_roll_fires_settle_ms_after_the_die_stops(settle_ms: int) -> None:
    """The roll (or crooked) event fires settle_ms to settle_ms + 50 ms after the die stops."""
    for seed in range(40):
        die = DieWorld(random.Random(seed), slot=seed % 6)
        tracker = DieTracker(Settings(settle_ms=settle_ms))
        events(tracker, die.rest(settle_ms + 200))
        samples = die.throw(seed % 5) if seed % 4 else die.throw_crooked()
        (t_end, _), *_ = [(t, e) for t, e in timed(tracker, samples) if e[0] in ("roll", "crooked")]
        assert settle_ms <= t_end - die.last_stop_ms <= settle_ms + 50, seed


def test_rolling_is_reported_once_per_motion() -> None:
    """However many tumbles, free falls and impacts a throw has, "rolling" comes once."""
    die, tracker = settled(seed=30)
    samples = []
    for slot in (1, 2, 3, 4, 5, 0):
        samples += die.throw(slot)
    got = events(tracker, samples)
    assert got.count(ROLLING) == 6
    assert [e for e in got if e[0] == "roll"] == [("roll", s) for s in (1, 2, 3, 4, 5, 0)]


def test_two_dice_thrown_together_both_roll() -> None:
    """Two dice thrown at once (overlapping traces), one tracker each: both rolls are reported."""
    for seed in range(10):
        world = World(dice=2, seed=seed)
        starts = [world.die(n).slot for n in range(2)]
        trackers = [DieTracker(), DieTracker()]
        per_die: list[list[Event]] = [[], []]
        for die, t, x, y, z in world.rest(500) + world.throw({0: 1, 1: 5}):
            per_die[die] += trackers[die].feed(t, x, y, z)
        assert per_die[0] == [("rest", starts[0]), MOVING, ROLLING, ("roll", 1)], seed
        assert per_die[1] == [("rest", starts[1]), MOVING, ROLLING, ("roll", 5)], seed


# --- not rolls ---


@pytest.mark.parametrize("slot", range(6))
def test_turning_a_die_by_hand_is_placed(slot: int) -> None:
    """Picked up, turned to any face by hand and set down: moving, ("placed", slot)."""
    for seed in range(4):
        die, tracker = settled(seed=seed, slot=4)
        got = events(tracker, die.place(slot))
        assert got == [MOVING, ("placed", slot)], seed
        assert tracker.slot == slot


def test_pick_up_and_set_down_is_placed() -> None:
    """Lifted and put back on the same face: moving, then placed on that face; never a roll."""
    for seed in range(20):
        die, tracker = settled(seed=seed, slot=seed % 6)
        assert events(tracker, die.pick_up_and_set_down()) == [MOVING, ("placed", seed % 6)]


def test_a_bumped_table_gives_no_event() -> None:
    """A jolt of the table (even 1.5 times the usual strength) is not a motion: no event at all."""
    for seed in range(100):
        die, tracker = settled(seed=seed, slot=seed % 6)
        assert events(tracker, die.bump(strength=1.5)) == [], seed
        assert tracker.state == "rest"
        assert tracker.slot == seed % 6


def test_a_bump_while_dice_rest_in_a_world_gives_no_event() -> None:
    """Every die of a world feels the bump; none reports anything."""
    world = World(dice=2, seed=7)
    trackers = [DieTracker(), DieTracker()]
    for die, t, x, y, z in world.rest(500):
        trackers[die].feed(t, x, y, z)
    for die, t, x, y, z in world.bump() + world.bump():
        assert trackers[die].feed(t, x, y, z) == []


def test_a_short_tilt_is_not_a_motion() -> None:
    """A deviation shorter than move_ms is ignored; the same tilt held is a motion (then placed)."""
    rng = random.Random(8)
    flat, tilted = slot_vector(4), slot_vector(4, 15, 0)
    tracker = DieTracker()
    samples = hold(0, flat, 500, rng) + hold(500, tilted, 60, rng) + hold(560, flat, 600, rng)
    assert events(tracker, samples) == [("rest", 4)]
    tracker = DieTracker()
    samples = hold(0, flat, 500, rng) + hold(500, tilted, 400, rng) + hold(900, flat, 600, rng)
    assert events(tracker, samples) == [("rest", 4), MOVING, ("placed", 4)]


def test_a_drop_without_tumbling_is_placed() -> None:
    """Free fall and an impact without up-axis changes (dropped flat) is not a roll."""
    rng = random.Random(9)
    samples = hold(0, slot_vector(4), 500, rng)
    samples += hold(500, slot_vector(4, 20, 0), 200, rng)  # lifted, a little tilted
    samples += hold(700, (30, 0, 20), 150, rng)  # falls
    samples += [(850, 200, -300, 6000)]  # lands
    samples += hold(860, slot_vector(4), 600, rng)
    tracker = DieTracker()
    assert events(tracker, samples) == [("rest", 4), MOVING, ("placed", 4)]
    assert tracker.freefall and tracker.impact and tracker.tumbles == 0


def test_turning_through_faces_without_fall_or_impact_is_placed() -> None:
    """Turning a die by hand over three edges (three up-axis changes), gently, is not a roll."""
    rng = random.Random(10)
    samples = hold(0, slot_vector(4), 500, rng)
    t = 500
    for a, b in ((4, 0), (0, 5), (5, 1)):
        for i in range(30):  # a quarter turn in 300 ms
            angle = math.radians(90 * (i + 1) / 30)
            va, vb = slot_vector(a), slot_vector(b)
            v = tuple(
                math.cos(angle) * p + math.sin(angle) * q for p, q in zip(va, vb, strict=True)
            )
            samples += hold(t, v, 10, rng)
            t += 10
    samples += hold(t, slot_vector(1), 600, rng)
    tracker = DieTracker()
    assert events(tracker, samples) == [("rest", 4), MOVING, ("placed", 1)]
    assert tracker.tumbles == 3 and not tracker.freefall and not tracker.impact


# --- many seeds ---


def _act(die: DieWorld, rng: random.Random) -> tuple[str, list, list[Event]]:
    """One random act and the events a tracker must report for it."""
    act = rng.choice(("throw", "throw", "crooked", "place", "pickup", "bump", "rest"))
    if act == "throw":
        slot = rng.randrange(6)
        return act, die.throw(slot), [MOVING, ROLLING, ("roll", slot)]
    if act == "crooked":
        return act, die.throw_crooked(), [MOVING, ROLLING, CROOKED]
    if act == "place":
        slot = rng.randrange(6)
        return act, die.place(slot), [MOVING, ("placed", slot)]
    if act == "pickup":
        slot = die.slot
        return act, die.pick_up_and_set_down(), [MOVING, ("placed", slot)]
    if act == "bump":
        return act, die.bump(), []
    return act, die.rest(rng.randrange(10, 3000, 10)), []


def test_200_random_sequences_of_acts() -> None:
    """Over 200 seeded sequences of 6 acts, every throw gives exactly one roll (and crooked
    throws crooked), and no other act ever gives roll or rolling."""
    for seed in range(200):
        rng = random.Random(seed)
        die, tracker = settled(seed=seed, slot=rng.randrange(6))
        for number in range(6):
            act, samples, expected = _act(die, rng)
            assert events(tracker, samples) == expected, (seed, number, act)


@pytest.mark.parametrize(
    ("noise_mg", "lsb_mg", "drop"),
    [(8.0, 16, 0.0), (3.0, 4, 0.1), (6.0, 16, 0.05)],
    ids=["noisy-16mg-digits", "10%-samples-lost", "both"],
)
def test_noise_and_lost_samples(noise_mg: float, lsb_mg: int, drop: float) -> None:
    """A noisier sensor (8 mg noise, 16 mg digits) and lost samples do not change any outcome."""
    for seed in range(60):
        rng = random.Random(seed)
        lose = random.Random(-seed)
        die = DieWorld(random.Random(seed), slot=rng.randrange(6), noise_mg=noise_mg, lsb_mg=lsb_mg)
        tracker = DieTracker()
        kept = [s for s in die.rest(500) if lose.random() >= drop]
        assert events(tracker, kept) == [("rest", die.slot)]
        for number in range(5):
            act, samples, expected = _act(die, rng)
            kept = [s for s in samples if lose.random() >= drop]
            assert events(tracker, kept) == expected, (seed, number, act)


# --- the event grammar, whatever comes in ---

_segment = st.tuples(
    st.sampled_from(["hold", "noise"]),
    st.tuples(*[st.integers(-8000, 8000)] * 3),
    st.integers(1, 60),  # samples
    st.integers(0, 400),  # noise amplitude, mg
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_segment, max_size=25), st.integers(0, 2**16))
def test_events_follow_the_grammar_for_any_input(segments: list, seed: int) -> None:
    """Whatever the samples, events come in order: rest first and once, then moving,
    then optionally rolling, then roll or crooked (after rolling) or placed (without)."""
    rng = random.Random(seed)
    tracker = DieTracker()
    t = 0
    got = []
    for kind, base, count, amp in segments:
        for _ in range(count):
            if kind == "hold":
                v = [b + rng.randint(-3, 3) for b in base]
            else:
                v = [max(-8000, min(8000, b + rng.randint(-amp, amp))) for b in base]
            got += tracker.feed(t, *v)
            t += rng.choice((10, 10, 10, 20))
    previous = None
    for event in got:
        name = event[0]
        if previous is None:
            assert name == "rest"
        elif previous in ("rest", "roll", "crooked", "placed"):
            assert name == "moving"
        elif previous == "moving":
            assert name in ("rolling", "placed")
        elif previous == "rolling":
            assert name in ("roll", "crooked")
        assert name != "rest" or previous is None
        if name in ("roll",):
            assert event[1] in range(6)
        if name in ("rest", "placed"):
            assert event[1] is None or event[1] in range(6)
        previous = name
    if previous in ("moving", "rolling"):
        assert tracker.state == "moving"


# --- the maths ---


@pytest.mark.parametrize("slot", range(6))
def test_up_slot_compares_squares_instead_of_angles(slot: int) -> None:
    """up_slot finds the slot and says "flat" exactly when the tilt is within crooked_deg."""
    for tilt in [0, 5, 10, 19.5, 20.5, 25, 35, 44]:
        for azimuth in (0, 30, 45, 90, 200):
            for g in (800, 1000, 1200):
                x, y, z = slot_vector(slot, tilt, azimuth, g)
                assert up_slot(x, y, z) == (slot, tilt < 20), (tilt, azimuth, g)
                assert up_slot(x, y, z, 30) == (slot, tilt < 30)
                assert abs(tilt_deg(x, y, z) - tilt) < 1e-6 or tilt > 35


def test_up_slot_of_nothing() -> None:
    """A zero vector points nowhere."""
    assert up_slot(0, 0, 0) == (None, False)


def test_settings_defaults_and_overrides() -> None:
    """Settings have the documented defaults; a keyword changes one; a typo is an error."""
    s = Settings()
    assert s.as_dict() == {
        "sample_ms": 10,
        "settle_ms": 300,
        "still_mg": 50,
        "move_mg": 150,
        "move_ms": 100,
        "smooth_shift": 2,
        "smooth_clip_mg": 300,
        "freefall_mg": 400,
        "freefall_ms": 40,
        "impact_mg": 3000,
        "orient_tol_mg": 400,
        "tumble_samples": 2,
        "min_tumbles": 2,
        "crooked_deg": 20,
        "gravity_tol_mg": 200,
    }
    assert Settings(settle_ms=500).settle_ms == 500
    assert "settle_ms=500" in repr(Settings(settle_ms=500))
    with pytest.raises(ValueError, match="unknown dice setting 'settle'"):
        Settings(settle=500)


def test_the_tracker_keeps_no_growing_state() -> None:
    """Per-sample cost is O(1): after thousands of samples the tracker holds only scalars."""
    die, tracker = settled(seed=40)
    rng = random.Random(40)
    for _ in range(10):
        events(tracker, _act(die, rng)[1])
    for name, value in vars(tracker).items():
        assert value is None or isinstance(value, (bool, int, float, str, Settings)), name


# --- recorded (or synthetic) trace files ---


def _expected(comment: str) -> list[Event]:
    match = re.search(r"\bexpect\s+(.*)$", comment)
    assert match, f"no 'expect <events>' in the comment line: {comment!r}"
    out: list[Event] = []
    for token in match.group(1).split():
        name, _, arg = token.partition(":")
        if not arg:
            out.append((name,))
        else:
            out.append((name, None if arg == "none" else int(arg)))
    return out


def test_there_are_trace_files() -> None:
    """tests/firmware/traces holds a few traces, each announcing what it is and what to expect."""
    files = sorted(TRACES.glob("*.csv"))
    assert len(files) >= 3
    for path in files:
        first = path.read_text().splitlines()[0]
        assert first.startswith("# "), path.name
        _expected(first)


@pytest.mark.parametrize("path", sorted(TRACES.glob("*.csv")), ids=lambda p: p.name)
def test_trace_file_replays_to_its_expected_events(path: Path) -> None:
    """Each CSV trace, fed through a DieTracker, gives exactly the events its comment line expects.

    The comment is ``# <what happened>, expect <event> <event> ...`` with events written as
    ``rest:4``, ``moving``, ``rolling``, ``roll:2``, ``crooked``, ``placed:none``.
    """
    comments, samples = read_trace_csv(path.read_text())
    assert samples
    assert events(DieTracker(), samples) == _expected(comments[0])
