"""The synthetic dice traces (companion.devices.dice_world): format, physics and determinism.

These tests check the generator without the tracker: that its samples look like an LIS3DH's
(ints, 10 ms apart, a few mg of noise, clipped at 8 g) and that each act has the physical
features it claims (free fall and impacts in a throw, none in a hand's move, stillness at the
end). test_sensing.py checks what the tracker makes of them.
"""

from __future__ import annotations

import math
import random
import statistics

import pytest

from companion.devices import dice_world
from companion.devices.dice_world import (
    CSV_HEADER,
    FULL_SCALE_MG,
    OPPOSITE,
    TAIL_MS,
    DieWorld,
    World,
    neighbours,
    read_trace_csv,
    slot_vector,
    synthetic_trace,
    trace_csv,
)


def magnitude(sample: tuple[int, ...]) -> float:
    x, y, z = sample[-3:]
    return math.sqrt(x * x + y * y + z * z)


def longest_run(samples: list, predicate) -> int:
    """The most consecutive samples for which ``predicate`` holds."""
    best = run = 0
    for sample in samples:
        run = run + 1 if predicate(sample) else 0
        best = max(best, run)
    return best


def clear_up_slots(samples: list) -> list[int]:
    """The clearly-up slot of each sample near 1 g (within 35 degrees of an axis), in order."""
    out = []
    for sample in samples:
        x, y, z = sample[-3:]
        a2 = x * x + y * y + z * z
        if not 600**2 <= a2 <= 1400**2:
            continue
        axis = max(range(3), key=lambda i: abs((x, y, z)[i]))
        m = (x, y, z)[axis]
        if 3 * m * m >= 2 * a2:
            out.append(2 * axis + (1 if m < 0 else 0))
    return out


# --- slot_vector ---


@pytest.mark.parametrize("slot", range(6))
def test_slot_vector_points_the_slot_axis_up(slot: int) -> None:
    """Untilted, the reading is 1000 mg along the slot's axis (slot 4, +z: (0, 0, 1000))."""
    v = slot_vector(slot)
    axis, sign = divmod(slot, 2)
    assert v[axis] == pytest.approx(-1000 if sign else 1000)
    assert sum(abs(c) for c in v) == pytest.approx(1000)
    assert slot_vector(4) == pytest.approx((0, 0, 1000))


@pytest.mark.parametrize("slot", range(6))
def test_slot_vector_tilts_by_the_angle_given(slot: int) -> None:
    """A tilt turns the vector by that angle away from the axis, toward the azimuth; |v| stays g."""
    axis, sign = divmod(slot, 2)
    for tilt in (0, 10, 33.3, 80):
        for azimuth in (0, 90, 123):
            v = slot_vector(slot, tilt, azimuth, 950)
            assert math.sqrt(sum(c * c for c in v)) == pytest.approx(950)
            along = abs(v[axis]) / 950
            assert math.degrees(math.acos(min(1.0, along))) == pytest.approx(tilt, abs=1e-6)
    # azimuth 0 and 90 tilt toward the two other axes in turn
    side0 = slot_vector(4, 30, 0)
    side90 = slot_vector(4, 30, 90)
    assert side0[0] == pytest.approx(500) and side0[1] == pytest.approx(0, abs=1e-9)
    assert side90[1] == pytest.approx(500) and side90[0] == pytest.approx(0, abs=1e-9)


def test_neighbours_and_opposites() -> None:
    """A die rolls over an edge to one of the four faces that are not itself or its opposite."""
    for slot in range(6):
        assert OPPOSITE[OPPOSITE[slot]] == slot
        assert set(neighbours(slot)) == set(range(6)) - {slot, OPPOSITE[slot]}


# --- samples ---


def test_samples_are_int_tuples_every_10_ms_on_one_clock() -> None:
    """Samples are (t_ms, x, y, z) ints, 10 ms apart, and each act continues the die's clock."""
    die = DieWorld(random.Random(1), slot=2, t_ms=1234)
    samples = die.rest(300) + die.throw(0) + die.place(3) + die.bump() + die.throw_crooked()
    samples += die.pick_up_and_set_down()
    assert samples[0][0] == 1234
    assert all(len(s) == 4 and all(type(v) is int for v in s) for s in samples)
    assert [b[0] - a[0] for a, b in zip(samples, samples[1:], strict=False)] == [10] * (
        len(samples) - 1
    )
    assert die.t_ms == samples[-1][0] + 10


def test_rest_noise_is_a_few_mg_in_4_mg_digits() -> None:
    """At rest each axis wobbles by a few mg (LIS3DH noise) in 4 mg steps, around about 1 g."""
    die = DieWorld(random.Random(2), slot=5)
    samples = die.rest(5000)
    for axis in (1, 2, 3):
        values = [s[axis] for s in samples]
        assert all(v % 4 == 0 for v in values)
        assert 1 <= statistics.pstdev(values) <= 6
    assert 940 <= statistics.mean(magnitude(s) for s in samples) <= 1060
    assert statistics.mean(s[3] for s in samples) < -900  # slot 5: -z up


def test_noise_and_digit_size_can_be_raised() -> None:
    """A noisier, coarser sensor can be modelled (for robustness tests)."""
    die = DieWorld(random.Random(3), noise_mg=10, lsb_mg=16)
    values = [s[1] for s in die.rest(5000)]
    assert all(v % 16 == 0 for v in values)
    assert 7 <= statistics.pstdev(values) <= 14


def test_readings_saturate_at_8_g() -> None:
    """No reading exceeds +-8000 mg; hard impacts do reach it."""
    peak = 0
    for seed in range(20):
        die = DieWorld(random.Random(seed))
        for s in die.throw(seed % 6):
            assert all(-FULL_SCALE_MG <= v <= FULL_SCALE_MG for v in s[1:])
            peak = max(peak, *(abs(v) for v in s[1:]))
    assert peak == FULL_SCALE_MG


# --- the acts ---


@pytest.mark.parametrize("seed", range(15))
def test_a_throw_falls_hits_tumbles_and_lands(seed: int) -> None:
    """A throw has a free fall (>= 50 ms under 0.4 g), an impact (> 3 g), passes clearly through
    at least two faces other than the one it lands on, and ends flat on the slot asked."""
    die = DieWorld(random.Random(seed), slot=seed % 6)
    slot = (seed * 7) % 6
    samples = die.throw(slot)
    assert longest_run(samples, lambda s: magnitude(s) < 400) >= 5
    assert max(magnitude(s) for s in samples) > 3000
    faces = clear_up_slots(samples)
    assert len(set(faces) - {slot}) >= 2
    assert faces[-1] == slot
    assert die.slot == slot


@pytest.mark.parametrize("seed", range(15))
def test_a_crooked_throw_ends_leaning(seed: int) -> None:
    """A crooked throw is a real throw that ends tilted 25-45 degrees from every axis."""
    die = DieWorld(random.Random(seed))
    samples = die.throw_crooked()
    assert longest_run(samples, lambda s: magnitude(s) < 400) >= 5
    tail = [s for s in samples if s[0] > die.last_stop_ms]
    mean = [statistics.mean(s[axis] for s in tail) for axis in (1, 2, 3)]
    tilt = math.degrees(math.acos(max(abs(c) for c in mean) / math.sqrt(sum(c * c for c in mean))))
    assert 25 <= tilt <= 45


@pytest.mark.parametrize("seed", range(15))
def test_moves_by_hand_have_no_fall_and_no_impact(seed: int) -> None:
    """Placing by hand and picking up stay between 0.45 and 2 g: no free fall, no impact."""
    die = DieWorld(random.Random(seed), slot=seed % 6)
    target = (seed * 5 + 1) % 6
    for samples in (die.place(target), die.pick_up_and_set_down()):
        assert all(450 <= magnitude(s) <= 2000 for s in samples)
    assert die.slot == target


@pytest.mark.parametrize("start", range(6))
def test_turning_by_hand_changes_the_up_face_once_or_twice(start: int) -> None:
    """A hand turns a die over one edge to a neighbouring face (one change of the clearly-up
    face), flips it over to the opposite face (one or two), or puts it back (none)."""
    for target in range(6):
        for seed in range(5):
            die = DieWorld(random.Random(seed * 36 + start * 6 + target), slot=start)
            faces = clear_up_slots(die.place(target))
            changes = sum(1 for a, b in zip(faces, faces[1:], strict=False) if a != b)
            if target == start:
                assert changes == 0
            elif target == OPPOSITE[start]:
                assert changes in (1, 2)
            else:
                assert changes == 1, (start, target, faces)
            assert faces[-1] == target


def test_pick_up_and_set_down_returns_to_the_same_face() -> None:
    """Picked up and put back: the die shows the same face, and tilted on the way."""
    for seed in range(10):
        die = DieWorld(random.Random(seed), slot=seed % 6)
        samples = die.pick_up_and_set_down()
        assert die.slot == seed % 6
        assert clear_up_slots(samples[-5:]) == [seed % 6] * 5
        flat = slot_vector(seed % 6)
        tilts = [
            math.degrees(
                math.acos(
                    sum(a * b for a, b in zip(s[1:], flat, strict=True)) / magnitude(s) / 1000
                )
            )
            for s in samples
        ]
        assert max(tilts) >= 12


def test_a_bump_is_a_short_spike_and_the_die_stays_put() -> None:
    """A bump is one to three odd samples; before and after, the die reads the same."""
    for seed in range(20):
        die = DieWorld(random.Random(seed), slot=seed % 6)
        before = die.rest(500)
        samples = die.bump()
        quiet = statistics.mean(s[3] for s in before), statistics.mean(s[2] for s in before)
        odd = [s for s in samples if abs(magnitude(s) - magnitude(before[-1])) > 100]
        assert 1 <= len(odd) <= 3
        assert odd[-1][0] - odd[0][0] <= 20
        tail = samples[-50:]
        assert statistics.mean(s[3] for s in tail) == pytest.approx(quiet[0], abs=5)
        assert statistics.mean(s[2] for s in tail) == pytest.approx(quiet[1], abs=5)
        assert die.slot == seed % 6


def test_every_act_ends_with_enough_rest() -> None:
    """After the die stops there are at least TAIL_MS (> settle window) of still samples."""
    die = DieWorld(random.Random(4))
    for act in (
        lambda: die.throw(1),
        die.throw_crooked,
        lambda: die.place(2),
        die.pick_up_and_set_down,
    ):
        samples = act()
        tail = [s for s in samples if s[0] > die.last_stop_ms]
        assert len(tail) * 10 >= TAIL_MS
        for axis in (1, 2, 3):
            values = [s[axis] for s in tail]
            assert max(values) - min(values) <= 40


def test_acts_validate_slots() -> None:
    """Slots are 0..5."""
    die = DieWorld(random.Random(5))
    with pytest.raises(ValueError):
        die.throw(6)
    with pytest.raises(ValueError):
        die.place(-1)
    with pytest.raises(ValueError):
        DieWorld(random.Random(5), slot=7)
    with pytest.raises(ValueError):
        slot_vector(6)


# --- World ---


def _script(world: World) -> list:
    return (
        world.rest(500)
        + world.throw({0: 3, 1: 4})
        + world.place(1, 0)
        + world.bump()
        + world.throw_crooked(0)
        + world.pick_up_and_set_down(1)
        + world.throw({1: 2})
    )


def test_world_is_deterministic() -> None:
    """The same seed and the same calls give identical samples; another seed does not."""
    assert _script(World(dice=2, seed=11)) == _script(World(dice=2, seed=11))
    assert _script(World(dice=2, seed=11)) != _script(World(dice=2, seed=12))


def test_world_keeps_the_dice_on_one_clock() -> None:
    """After each act every die's clock is the same; samples are in time order, one per die
    per tick."""
    world = World(dice=3, seed=6)
    for act in (
        lambda: world.rest(250),
        lambda: world.throw({0: 1, 2: 3}),
        lambda: world.place(1, 5),
        world.bump,
        lambda: world.throw_crooked(2),
        lambda: world.pick_up_and_set_down(0),
    ):
        start = world.t_ms
        samples = act()
        assert {world.die(n).t_ms for n in range(3)} == {world.t_ms}
        assert [(s[1], s[0]) for s in samples] == sorted((s[1], s[0]) for s in samples)
        ticks = range(start, world.t_ms, 10)
        for n in range(3):
            assert [s[1] for s in samples if s[0] == n] == list(ticks)


def test_dice_thrown_together_overlap_in_time() -> None:
    """In a throw of two dice both are in motion at the same time, and each lands on its slot."""
    for seed in range(10):
        world = World(dice=2, seed=seed)
        world.rest(500)
        samples = world.throw({0: 2, 1: 5})
        spans = []
        for n in range(2):
            moving = [s[1] for s in samples if s[0] == n and abs(magnitude(s) - 1000) > 150]
            spans.append((moving[0], moving[-1]))
        assert spans[0][0] < spans[1][1] and spans[1][0] < spans[0][1]
        assert [world.die(0).slot, world.die(1).slot] == [2, 5]


def test_world_bump_reaches_every_die() -> None:
    """Every die feels a bump of the table."""
    world = World(dice=2, seed=8)
    world.rest(500)
    samples = world.bump()
    for n in range(2):
        assert max(abs(magnitude(s) - 1000) for s in samples if s[0] == n) > 100


def test_world_starting_slots() -> None:
    """Dice start on slots drawn from the seed, or on the slots given."""
    world = World(dice=2, seed=9, slots=[0, 5])
    assert [world.die(0).slot, world.die(1).slot] == [0, 5]
    assert [World(dice=4, seed=9).die(n).slot for n in range(4)] == [
        World(dice=4, seed=9).die(n).slot for n in range(4)
    ]
    with pytest.raises(ValueError):
        World(dice=0)
    with pytest.raises(ValueError):
        World(dice=2, slots=[1])


# --- trace files ---


def test_trace_csv_round_trip() -> None:
    """trace_csv writes a comment line, the header and the samples; read_trace_csv reads them
    back."""
    samples = DieWorld(random.Random(6)).throw(3)
    text = trace_csv(samples, "synthetic: a throw, expect moving rolling roll:3")
    lines = text.splitlines()
    assert lines[0] == "# synthetic: a throw, expect moving rolling roll:3"
    assert lines[1] == CSV_HEADER == "t_ms,x_mg,y_mg,z_mg"
    assert read_trace_csv(text) == (["synthetic: a throw, expect moving rolling roll:3"], samples)


def test_read_trace_csv_rejects_bad_lines() -> None:
    """A line that is not four integers is an error naming its line number."""
    with pytest.raises(ValueError, match="line 3: expected 4 fields"):
        read_trace_csv("# x\nt_ms,x_mg,y_mg,z_mg\n1,2,3\n")
    with pytest.raises(ValueError, match="line 2: not 4 integers"):
        read_trace_csv("# x\n1,2,3,a\n")


def test_synthetic_trace_states_what_to_expect() -> None:
    """Each synthetic act's comment says it is synthetic and lists the events a tracker must
    give."""
    expected = {
        "throw": "expect rest:4 moving rolling roll:2",
        "crooked": "expect rest:4 moving rolling crooked",
        "place": "expect rest:4 moving placed:2",
        "pickup": "expect rest:4 moving placed:4",
        "bump": "expect rest:4",
    }
    for act, tail in expected.items():
        comment, samples = synthetic_trace(act, seed=1, slot=2, start=4)
        assert comment.startswith("synthetic: ")
        assert comment.endswith(tail)
        assert samples[0][0] == 0
    with pytest.raises(ValueError):
        synthetic_trace("juggle")


def test_command_line_prints_a_trace(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m companion.devices.dice_world throw --slot 1`` prints a CSV trace."""
    assert dice_world.main(["throw", "--slot", "1", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    comments, samples = read_trace_csv(out)
    assert comments[0].endswith("roll:1")
    assert len(samples) > 100
