"""The LED renderer: a pure function from the public view (and recent cues) to every strip."""

from __future__ import annotations

from itertools import combinations

import pytest
from table_support import ANN, BEN, GAME, play, tapped_deal

from companion.games.abracadawhat import lights as drawer
from companion.games.abracadawhat.lights import LOSS_FLASH, SHARE_PERIOD
from companion.lights import (
    BLINK_HZ,
    OFF,
    PALETTE,
    REFUSAL_FLASH,
    SEAT_COLOURS,
    WHITE,
    Cue,
    Layout,
    refusal_cue,
)
from companion.lights import animating as animating_with
from companion.lights import render as render_with
from companion.rules import TABLE

NAMES = ["Ann", "Ben", "Cid", "Dee"]
cues_from_events = drawer.cues


def render(*args, **kwargs):
    return render_with(drawer, *args, **kwargs)


def animating(*args):
    return animating_with(drawer, *args)


COLOURS = [PALETTE[name] for name in SEAT_COLOURS[:5]]
LAYOUT = Layout()
HALF_BLINK = 1 / (2 * BLINK_HZ)


def view(
    phase: str = "declare",
    active: str = "Ann",
    lives: list[int] | None = None,
    scores: list[int] | None = None,
    waiting: list[str] | None = None,
    winners: list[str] | None = None,
    deal_to: str | None = None,
    names: list[str] = NAMES,
) -> dict:
    """The parts of a public game view that the renderer reads."""
    lives = lives or [6] * len(names)
    scores = scores or [0] * len(names)
    return {
        "order": list(names),
        "phase": phase,
        "active": active,
        "players": {n: {"life": lives[i], "score": scores[i]} for i, n in enumerate(names)},
        "waiting_for": [active] if waiting is None else waiting,
        "winners": winners or [],
        "deal": {"player": deal_to} if deal_to else None,
    }


def frame(
    v: dict | None,
    now: float = 0.0,
    cues: list[Cue] = (),
    layout: Layout = LAYOUT,
    brightness: float = 1.0,
) -> dict:
    return render(v, COLOURS, list(cues), now, layout, brightness)


def segment(strips: dict, seat: int, layout: Layout = LAYOUT) -> list:
    """The seat's pixels on the table strip: status light first, then life."""
    start = seat * layout.seat_pixels
    return strips["table"][start : start + layout.seat_pixels]


def status(strips: dict, seat: int) -> tuple:
    return segment(strips, seat)[0]


def life(strips: dict, seat: int) -> list:
    return segment(strips, seat)[1:]


def times(start: float, length: float, steps: int = 90) -> list[float]:
    """Evenly spaced sample times in [start, start + length)."""
    return [start + length * (k + 0.5) / steps for k in range(steps)]


def runs(flags: list[bool]) -> int:
    """How many separate stretches of True there are."""
    return sum(1 for i, f in enumerate(flags) if f and (i == 0 or not flags[i - 1]))


# -- strips and the plain picture ------------------------------------------------------------------


@pytest.mark.parametrize(
    "layout, table, score, tower",
    [
        (Layout(), 35, 8, 16),
        (Layout(seats=3, life_pixels=4, score_pixels=10, tower_pixels=8), 15, 10, 8),
    ],
)
def test_strip_lengths_follow_the_layout(layout, table, score, tower):
    assert layout.strips() == {"table": table, "score": score, "tower": tower}
    strips = frame(view(names=NAMES[:3]), layout=layout)
    assert {name: len(pixels) for name, pixels in strips.items()} == {
        "table": table,
        "score": score,
        "tower": tower,
    }
    assert set(strips["tower"]) == {OFF}  # Abracada...What? has no tower


def test_without_a_game_everything_is_dark_even_during_a_cue():
    strips = frame(None, now=0.1, cues=[refusal_cue(None, 0.0)])
    assert set(strips["table"]) == {OFF} and set(strips["score"]) == {OFF}
    assert len(strips["table"]) == 35 and len(strips["score"]) == 8


def test_each_seat_shows_its_life_in_its_colour():
    """Pixels 1..life of a seat's segment are lit in the seat's colour, the rest dark."""
    strips = frame(view(lives=[6, 3, 0, 1]))
    for seat, n in enumerate([6, 3, 0, 1]):
        assert life(strips, seat) == [COLOURS[seat]] * n + [OFF] * (6 - n)
    assert segment(strips, 4) == [OFF] * 7  # nobody sits at the fifth seat


def test_life_beyond_the_segment_is_clipped():
    strips = frame(view(names=NAMES[:2], lives=[9, 5]), layout=Layout(seats=2, life_pixels=4))
    assert strips["table"][1:5] == [COLOURS[0]] * 4


def test_the_active_seat_shows_its_colour_steadily():
    """The active player's status light is its colour at every moment; the others stay dark."""
    for t in times(0.0, 2.0, steps=16):
        strips = frame(view(active="Cid"), now=t)
        assert status(strips, 2) == COLOURS[2]
        assert [status(strips, s) for s in (0, 1, 3)] == [OFF] * 3


def test_the_remover_blinks_white_while_the_caster_stays_steady():
    """Frames half a blink apart show the remover's light once white and once dark."""
    v = view(phase="remove", active="Ben", waiting=["Ann"])
    for t in (0.05, 0.3, 1.17):
        pair = {status(frame(v, now=t), 0), status(frame(v, now=t + HALF_BLINK), 0)}
        assert pair == {WHITE, OFF}
        assert status(frame(v, now=t), 1) == COLOURS[1]


def test_the_remover_blinks_in_a_real_view_of_the_game():
    """The renderer reads the real public view: Ben removes Ann's stone, his light blinks."""
    state = play(tapped_deal(removal="tap"), {"type": "cast", "player": ANN, "spell": 8})
    v = GAME.view(state, TABLE)
    assert v["waiting_for"] == [BEN]
    assert {status(frame(v, now=0.1), 1), status(frame(v, now=0.1 + HALF_BLINK), 1)} == {WHITE, OFF}
    assert status(frame(v, now=0.1), 0) == COLOURS[0]


def test_every_possible_objector_blinks_white():
    v = view(phase="objection", active="Ben", waiting=["Ann", "Cid", "Dee"])
    for seat in (0, 2, 3):
        assert {status(frame(v, now=0.1), seat), status(frame(v, now=0.1 + HALF_BLINK), seat)} == {
            WHITE,
            OFF,
        }


def test_while_dealing_the_receiving_seat_blinks_its_colour():
    v = view(phase="deal", active="Ann", deal_to="Cid", waiting=[])
    assert {status(frame(v, now=0.1), 2), status(frame(v, now=0.1 + HALF_BLINK), 2)} == {
        COLOURS[2],
        OFF,
    }
    assert status(frame(v, now=0.1), 0) == OFF == status(frame(v, now=0.1 + HALF_BLINK), 0)


def test_at_the_end_the_winners_blink_their_colour_slowly():
    v = view(phase="over", active="Ann", winners=["Ben", "Dee"], waiting=[])
    for seat in (1, 3):
        seen = [status(frame(v, now=t), seat) for t in (0.25, 0.75, 1.25, 1.75)]
        assert seen == [COLOURS[seat], OFF, COLOURS[seat], OFF]
    assert status(frame(v, now=0.25), 0) == OFF


# -- cues ------------------------------------------------------------------------------------------


def test_a_lost_life_flashes_then_goes_dark():
    """Ben falls from 5 to 3: pixels 4 and 5 flash white and his colour for LOSS_FLASH seconds."""
    v = view(lives=[6, 3, 6, 6])
    cue = Cue("life_lost", at=10.0, seat=1, lo=3, hi=5, length=LOSS_FLASH)
    flashing = []
    for t in times(10.0, LOSS_FLASH):
        strips = frame(v, now=t, cues=[cue])
        assert life(strips, 1)[:3] == [COLOURS[1]] * 3 and life(strips, 1)[5] == OFF
        assert life(strips, 1)[3] == life(strips, 1)[4]
        flashing.append(life(strips, 1)[3])
    assert set(flashing) == {WHITE, COLOURS[1]}
    for t in (10.0 + LOSS_FLASH + 0.01, 9.99):
        assert life(frame(v, now=t, cues=[cue]), 1) == [COLOURS[1]] * 3 + [OFF] * 3


def test_a_refusal_blinks_the_seats_segment_white_three_times():
    """Within REFUSAL_FLASH the whole segment is white three separate times, else dark; then the
    seat looks as before and the other seats are never touched."""
    v = view(lives=[6, 4, 2, 6])
    plain = frame(v, now=20.5)
    cue = refusal_cue(2, 20.0)
    white = []
    for t in times(20.0, REFUSAL_FLASH):
        strips = frame(v, now=t, cues=[cue])
        assert segment(strips, 2) in ([WHITE] * 7, [OFF] * 7)
        assert [segment(strips, s) for s in (0, 1, 3)] == [segment(plain, s) for s in (0, 1, 3)]
        white.append(segment(strips, 2)[0] == WHITE)
    assert runs(white) == 3
    assert frame(v, now=20.0 + REFUSAL_FLASH + 0.01, cues=[cue]) == frame(v, now=20.91)


def test_a_refusal_without_a_seat_blinks_every_status_light():
    v = view(lives=[6, 4, 2, 6])
    cue = refusal_cue(None, 5.0)
    white = []
    for t in times(5.0, REFUSAL_FLASH):
        strips = frame(v, now=t, cues=[cue])
        lights = {status(strips, s) for s in range(4)}
        assert lights in ({WHITE}, {OFF})
        assert [life(strips, s) for s in range(4)] == [life(frame(v), s) for s in range(4)]
        assert status(strips, 4) == OFF  # the empty fifth seat stays dark
        white.append(lights == {WHITE})
    assert runs(white) == 3


def test_a_life_event_becomes_a_cue_for_the_lost_pixels():
    """cues_from_events reads the rules core's events: Ann's Fireball costs Ben one life."""
    state = tapped_deal()
    result = GAME.apply(state, {"type": "cast", "player": ANN, "spell": 7})
    assert cues_from_events(list(result.events), [ANN, BEN], at=3.0) == [
        Cue("life_lost", 3.0, seat=1, lo=5, hi=6, length=LOSS_FLASH)
    ]


def test_only_losses_of_players_at_the_table_become_cues():
    events = [
        {"type": "life", "player": "Ann", "delta": 1, "life": 6},
        {"type": "life", "player": "Zed", "delta": -1, "life": 2},
        {"type": "life", "player": "Ben", "delta": 0, "life": 0},
        {"type": "declared", "player": "Ann", "spell": 2},
        {"type": "life", "player": "Cid", "delta": -3, "life": 1},
    ]
    assert cues_from_events(events, NAMES, at=1.0) == [
        Cue("life_lost", 1.0, 2, 1, 4, length=LOSS_FLASH)
    ]


def test_a_cue_is_active_only_for_its_duration():
    loss, refusal = Cue("life_lost", 1.0, 0, 0, 1, length=LOSS_FLASH), refusal_cue(0, 1.0)
    assert loss.active(1.0) and loss.active(1.0 + LOSS_FLASH - 0.01)
    assert not loss.active(1.0 + LOSS_FLASH + 0.01) and not loss.active(0.99)
    assert refusal.active(1.0 + REFUSAL_FLASH - 0.01)
    assert not refusal.active(1.0 + REFUSAL_FLASH + 0.01) and not refusal.active(0.99)


# -- the score track -------------------------------------------------------------------------------


@pytest.mark.parametrize("score, lit", [(0, None), (1, 0), (5, 4), (7, 6), (8, 7), (12, 7)])
def test_a_score_lights_its_space_on_the_track(score, lit):
    """Score 0 is below the track; score k lights pixel k - 1; 8 and above use the last pixel."""
    strips = frame(view(names=["Ann", "Ben"], scores=[0, score]))
    expected = [OFF] * 8
    if lit is not None:
        expected[lit] = COLOURS[1]
    assert strips["score"] == expected


def test_players_on_the_same_space_take_turns():
    """Ann and Cid both on 3: the pixel shows each in turn, one per SHARE_PERIOD; Ben is alone."""
    v = view(scores=[3, 5, 3, 0])
    shown = [frame(v, now=SHARE_PERIOD * (k + 0.5))["score"][2] for k in range(4)]
    assert shown[0] != shown[1] and shown[0] == shown[2] and shown[1] == shown[3]
    assert {shown[0], shown[1]} == {COLOURS[0], COLOURS[2]}
    assert frame(v, now=SHARE_PERIOD * 0.5)["score"][4] == COLOURS[1]


def test_scores_past_the_track_share_the_last_pixel():
    v = view(names=["Ann", "Ben"], scores=[9, 11])
    shown = {frame(v, now=SHARE_PERIOD * (k + 0.5))["score"][7] for k in range(2)}
    assert shown == {COLOURS[0], COLOURS[1]}


# -- brightness and animation ----------------------------------------------------------------------


def test_brightness_scales_every_pixel():
    v = view(lives=[6, 2, 4, 1], scores=[1, 2, 3, 9])
    full, half = frame(v, now=0.1), frame(v, now=0.1, brightness=0.5)
    for name in full:
        assert half[name] == [tuple(round(c * 0.5) for c in p) for p in full[name]]
    assert half["table"][1] == (0, 57, 89)  # Ann's blue at half brightness
    assert frame(v, now=0.1, brightness=1.0) == full


def test_a_steady_table_does_not_animate():
    assert not animating(None, [], 0.0)
    assert not animating(view(scores=[1, 2, 3, 0]), [], 0.0)


@pytest.mark.parametrize(
    "v",
    [
        view(phase="deal", deal_to="Ann", waiting=[]),
        view(phase="over", winners=["Ann"], waiting=[]),
        view(phase="remove", active="Ben", waiting=["Ann"]),
        view(scores=[2, 2, 0, 0]),
        view(scores=[8, 10, 0, 0]),
    ],
    ids=["deal", "over", "remover", "shared space", "shared last pixel"],
)
def test_blinking_or_sharing_animates(v):
    assert animating(v, [], 0.0)


def test_a_cue_animates_only_while_active():
    cue = refusal_cue(1, 2.0)
    assert animating(view(), [cue], 2.1) and animating(None, [cue], 2.1)
    assert not animating(view(), [cue], 2.0 + REFUSAL_FLASH + 0.01)


def test_animating_agrees_with_the_frames():
    """A view said to be still renders the same frame at different times, and vice versa."""
    still, moving = view(scores=[1, 2, 0, 0]), view(scores=[2, 2, 0, 0])
    assert frame(still, now=0.1) == frame(still, now=0.1 + SHARE_PERIOD)
    assert frame(moving, now=0.1) != frame(moving, now=0.1 + SHARE_PERIOD)


# -- the palette -----------------------------------------------------------------------------------


def test_the_seat_colours_are_distinct_and_not_white_or_dark():
    colours = [PALETTE[name] for name in SEAT_COLOURS]
    assert len(set(colours)) == len(colours) >= LAYOUT.seats
    assert WHITE not in colours and OFF not in colours


def test_the_palette_has_no_pure_red_or_pure_green():
    """A pure red and a pure green light look alike to the red-green colour blind."""
    for r, g, b in PALETTE.values():
        assert not (r and not g and not b), (r, g, b)
        assert not (g and not r and not b), (r, g, b)
    for (r1, g1, b1), (r2, g2, b2) in combinations(PALETTE.values(), 2):
        assert (r1, g1, b1) != (g2, r2, b2)  # no pair differing only by swapping red and green
