"""Dork Tower on the LEDs: the tower ring (day, night, the door), the turn of the tower, and the
seats' experience and level. Views are built by hand with only what the renderer reads; the day and
night of every wedge is worked out here from the tower's walls, independently of the renderer."""

from __future__ import annotations

import pytest
from table_support import GAME, tapped_deal

from companion.games.dorktower import lights as drawer
from companion.games.dorktower.lights import DOOR, MOON, SUN, TOWER_COLOUR, TOWER_SLIDE, TOWER_TURN
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

NAMES = ["Ann", "Ben", "Cid"]
COLOURS = [PALETTE[name] for name in SEAT_COLOURS[:5]]
HALF_BLINK = 1 / (2 * BLINK_HZ)
LAYOUT = Layout()

# The tower: walls clockwise, 4 Sun then 4 Moon (DT-AMB-1's default), the door in wall 6.
WALLS = ["sun"] * 4 + ["moon"] * 4
DOOR_WALL = 6
WEDGES = [
    ("rv", "Ravensteel", "kingdom"),
    ("hw", "Howling Waste", "wild"),
    ("th", "Thunderhawk", "kingdom"),
    ("cd", "Copperdell", "kingdom"),
    ("sm", "Saltmere", "kingdom"),
    ("mf", "Mirefen Wilds", "wild"),
    ("bh", "Brambleholt", "kingdom"),
    ("iv", "Ironvale", "kingdom"),
]

cues_from_events = drawer.cues


def render(*args, **kwargs):
    return render_with(drawer, *args, **kwargs)


def animating(*args):
    return animating_with(drawer, *args)


def days(door_wedge: int) -> list[bool]:
    """Whether each wedge is in day when the door faces ``door_wedge``: the wall facing wedge j
    is the one ``j - door_wedge`` walls clockwise of the door's wall."""
    return [WALLS[(j - door_wedge + DOOR_WALL) % 8] == "sun" for j in range(8)]


def tower(door_wedge: int, step: int, day: list[bool] | None = None) -> dict:
    day = days(door_wedge) if day is None else day
    return {
        "step": step,
        "door_wedge": door_wedge,
        "wedges": [{"id": i, "name": n, "kind": k, "day": d} for (i, n, k), d in zip(WEDGES, day)],
    }


def view(
    door_wedge: int = 1,
    step: int = 0,
    active: str | None = "Ann",
    waiting: list[str] | None = None,
    xp: list[int] | None = None,
    levels: list[str] | None = None,
    finished: bool = False,
    winners: list[str] = (),
    day: list[bool] | None = None,
) -> dict:
    """The parts of Dork Tower's public view that the renderer reads."""
    xp = xp or [0] * len(NAMES)
    levels = levels or ["low"] * len(NAMES)
    return {
        "game": "dorktower",
        "order": list(NAMES),
        "active": None if finished else active,
        "phase": "over" if finished else "move",
        "finished": finished,
        "winners": list(winners),
        "waiting_for": ([] if finished else [active]) if waiting is None else waiting,
        "players": {n: {"xp": xp[i], "level": levels[i], "gold": 60} for i, n in enumerate(NAMES)},
        "tower": tower(door_wedge, step, day),
    }


def frame(
    v: dict | None,
    now: float = 0.0,
    cues: list[Cue] = (),
    layout: Layout = LAYOUT,
    brightness: float = 1.0,
) -> dict:
    return render(v, COLOURS, list(cues), now, layout, brightness)


def expected_ring(door_wedge: int, per: int) -> list:
    """The steady ring worked out from the walls: SUN or MOON per wedge, the door's middle
    pixel DOOR."""
    pixels = []
    for i in range(8 * per):
        wedge, k = divmod(i, per)
        if wedge == door_wedge and k == per // 2:
            pixels.append(DOOR)
        else:
            pixels.append(SUN if days(door_wedge)[wedge] else MOON)
    return pixels


def segment(strips: dict, seat: int) -> list:
    return strips["table"][seat * 7 : seat * 7 + 7]


def luma(p: tuple) -> float:
    r, g, b = p
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def turned(next_player: str, door_wedge: int, step: int, at: float) -> list[Cue]:
    event = {
        "type": "tower_turned",
        "text": "The tower turns.",
        "step": step,
        "next": next_player,
        "door_wedge": door_wedge,
    }
    return cues_from_events([event], NAMES, at)


# -- the ring at rest ------------------------------------------------------------------------------


@pytest.mark.parametrize("pixels", [8, 16])
@pytest.mark.parametrize("door_wedge", range(8))
def test_the_ring_shows_each_wedges_day_or_night_and_the_door(door_wedge, pixels):
    """DT-TIME-1, DT-TOWER-1: every wedge's pixels show day (SUN) or night (MOON) as the wall
    facing it, the door's wedge is in night, and the middle pixel of the door's wedge is DOOR."""
    layout = Layout(tower_pixels=pixels)
    v = view(door_wedge=door_wedge, step=door_wedge + 8)
    assert not days(door_wedge)[door_wedge]  # the door is on the night side
    ring = frame(v, layout=layout)["tower"]
    assert ring == expected_ring(door_wedge, pixels // 8)
    assert ring.count(DOOR) == 1 and ring.count(SUN) == 4 * pixels // 8
    assert frame(v, now=7.3, layout=layout)["tower"] == ring  # steady


def test_day_and_night_differ_in_brightness_not_only_hue():
    """DT-TIME-1: a colour-blind player tells day from night by brightness; the door is brighter
    than the night around it."""
    assert luma(SUN) > 4 * luma(MOON) > 0
    assert luma(DOOR) > 4 * luma(MOON) and DOOR == WHITE
    assert len({SUN, MOON, DOOR, OFF}) == 4


def test_the_ring_draws_exactly_what_the_view_says():
    """DT-TIME-1: the renderer has no geometry of its own: any day pattern the view gives is
    drawn, wedge by wedge."""
    day = [True, False, True, False, False, True, True, False]
    ring = frame(view(door_wedge=3, day=day))["tower"]
    for wedge, d in enumerate(day):
        pixels = ring[wedge * 2 : wedge * 2 + 2]
        if wedge == 3:
            assert pixels == [MOON, DOOR]
        else:
            assert pixels == [SUN if d else MOON] * 2


@pytest.mark.parametrize("pixels, door_pixel", [(8, 5), (16, 11), (24, 16), (32, 22)])
def test_the_door_is_the_middle_pixel_of_its_wedge(pixels, door_pixel):
    """DT-TOWER-1: one pixel marks the door, the middle one of its wedge (door in wedge 5)."""
    ring = frame(view(door_wedge=5), layout=Layout(tower_pixels=pixels))["tower"]
    assert [i for i, p in enumerate(ring) if p == DOOR] == [door_pixel]


def test_brightness_scales_the_ring():
    full, half = frame(view(), brightness=1.0), frame(view(), brightness=0.5)
    assert half["tower"] == [tuple(round(c * 0.5) for c in p) for p in full["tower"]]


@pytest.mark.parametrize("pixels", [0, 4, 12, 20, -8])
def test_the_ring_needs_a_multiple_of_8_pixels(pixels):
    with pytest.raises(ValueError, match="multiple of 8"):
        Layout(tower_pixels=pixels)


# -- the tower turns -------------------------------------------------------------------------------


def test_a_tower_turned_event_becomes_a_cue_for_the_next_player():
    assert turned("Ben", 5, 12, at=3.0) == [
        Cue("tower_turned", 3.0, 1, lo=4, hi=5, step=12, length=TOWER_TURN)
    ]
    assert turned("Ann", 0, 1, at=1.0) == [
        Cue("tower_turned", 1.0, 0, lo=7, hi=0, step=1, length=TOWER_TURN)
    ]
    assert turned("Zed", 2, 3, at=1.0)[0].seat is None  # not at the table
    assert cues_from_events([{"type": "moved", "player": "Ann"}], NAMES, 1.0) == []


def test_the_turn_animation_lasts_under_a_second():
    """DT-TIME-2: the turn is animated, briefly."""
    assert TOWER_SLIDE + TOWER_COLOUR == TOWER_TURN < 1.0
    cue = turned("Ben", 5, 5, at=10.0)[0]
    assert cue.active(10.0) and cue.active(10.0 + TOWER_TURN - 0.01)
    assert not cue.active(10.0 + TOWER_TURN + 0.01) and not cue.active(9.99)


def test_with_two_pixels_per_wedge_the_pattern_slides_clockwise_pixel_by_pixel():
    """DT-TIME-2: the tower turns one step clockwise: the whole pattern, door included, moves
    from where it was (door in wedge 4) to where it is (wedge 5), one pixel at a time."""
    v, cues = view(door_wedge=5, step=5, active="Ben"), turned("Ben", 5, 5, at=10.0)
    old, new = expected_ring(4, 2), expected_ring(5, 2)
    middle = [new[(i + 1) % 16] for i in range(16)]
    for t, ring in [
        (0.01, old),
        (0.15, old),
        (0.2, middle),
        (0.3, middle),
        (0.36, new),
        (0.49, new),
    ]:
        assert frame(v, now=10.0 + t, cues=cues)["tower"] == ring, t
    doors = [frame(v, now=10.0 + t, cues=cues)["tower"].index(DOOR) for t in (0.1, 0.25, 0.4)]
    assert doors == [9, 10, 11]


def test_with_one_pixel_per_wedge_the_pattern_steps_one_wedge():
    """DT-TIME-2: on an 8-pixel ring the pattern shows the old position, then the new one."""
    layout = Layout(tower_pixels=8)
    v, cues = view(door_wedge=0, step=8), turned("Ann", 0, 8, at=2.0)
    assert frame(v, now=2.1, cues=cues, layout=layout)["tower"] == expected_ring(7, 1)
    assert frame(v, now=2.4, cues=cues, layout=layout)["tower"] == expected_ring(0, 1)


@pytest.mark.parametrize("pixels", [8, 16])
def test_then_the_ring_shows_the_next_players_colour_then_the_steady_ring(pixels):
    """DT-TIME-2: after the slide the ring (the door aside) lights in the colour of the player
    whose turn begins; from TOWER_TURN on it is the steady ring again."""
    layout = Layout(tower_pixels=pixels)
    v, cues = view(door_wedge=2, step=10, active="Cid"), turned("Cid", 2, 10, at=4.0)
    door = 2 * (pixels // 8) + pixels // 16
    for t in (TOWER_SLIDE + 0.01, TOWER_SLIDE + 0.15, TOWER_TURN - 0.01):
        ring = frame(v, now=4.0 + t, cues=cues, layout=layout)["tower"]
        assert ring == [DOOR if i == door else COLOURS[2] for i in range(pixels)], t
    for t in (TOWER_TURN + 0.001, TOWER_TURN + 0.2, 30.0):
        assert frame(v, now=4.0 + t, cues=cues, layout=layout)["tower"] == expected_ring(
            2, pixels // 8
        )


def test_the_steady_ring_needs_no_cue_so_a_restart_shows_it_at_once():
    """DT-TIME-1: the ring at rest depends on the view alone: without cues (after a restart) it
    is the frame the animation ends on, and the seats are untouched by the animation."""
    v, cues = view(door_wedge=6, step=14, active="Ben"), turned("Ben", 6, 14, at=1.0)
    after = frame(v, now=1.0 + TOWER_TURN + 0.05, cues=cues)
    assert frame(v, now=0.0) == frame(v, now=123.4) == after
    assert frame(v, now=1.3, cues=cues)["table"] == after["table"]


def test_a_turn_the_view_no_longer_shows_is_not_animated():
    """An undo within the animation: the view is back at step 4, the cue of step 5 is ignored."""
    v, cues = view(door_wedge=4, step=4), turned("Ben", 5, 5, at=1.0)
    for t in (1.1, 1.3, 1.6):
        assert frame(v, now=t, cues=cues)["tower"] == expected_ring(4, 2)


def test_a_turn_to_a_player_not_seated_slides_without_a_colour():
    v, cues = view(door_wedge=3, step=3), turned("Zed", 3, 3, at=0.0)
    assert frame(v, now=0.1, cues=cues)["tower"] == expected_ring(2, 2)
    assert frame(v, now=TOWER_SLIDE + 0.1, cues=cues)["tower"] == expected_ring(3, 2)


# -- the seats -------------------------------------------------------------------------------------


@pytest.mark.parametrize("xp, lit", [(0, 0), (1, 0), (2, 1), (5, 2), (9, 4), (10, 5), (17, 5)])
def test_the_xp_gauge_lights_one_pixel_per_2_xp_up_to_5(xp, lit):
    """DT-LVL-1: the gauge fills toward the 10 XP a level costs."""
    strips = frame(view(xp=[0, xp, 0]))
    assert segment(strips, 1)[1:6] == [COLOURS[1]] * lit + [OFF] * (5 - lit)


def test_the_last_pixel_of_a_seat_shows_a_high_level_hero():
    """DT-LVL-1: a hero who levelled up lights pixel 6 in the seat's colour."""
    strips = frame(view(levels=["high", "low", "high"], xp=[4, 0, 0]))
    assert [segment(strips, s)[6] for s in range(3)] == [COLOURS[0], OFF, COLOURS[2]]
    assert segment(strips, 0) == [COLOURS[0]] * 3 + [OFF] * 3 + [COLOURS[0]]
    assert segment(strips, 3) == [OFF] * 7  # nobody at the fourth seat


def test_the_active_player_shows_steadily_and_nobody_else_is_lit():
    v = view(active="Ben")
    for t in (0.1, 0.1 + HALF_BLINK, 0.9):
        strips = frame(v, now=t)
        assert [segment(strips, s)[0] for s in range(5)] == [OFF, COLOURS[1], OFF, OFF, OFF]


def test_a_player_the_table_waits_for_blinks_white():
    v = view(active="Ann", waiting=["Ann", "Cid"])
    assert {segment(frame(v, now=0.1), 2)[0], segment(frame(v, now=0.1 + HALF_BLINK), 2)[0]} == {
        WHITE,
        OFF,
    }
    assert segment(frame(v, now=0.1 + HALF_BLINK), 0)[0] == COLOURS[0]


def test_at_the_end_the_winner_blinks_slowly():
    """DT-GAME-1: the winner's status light blinks its colour; nothing else is lit."""
    v = view(finished=True, winners=["Cid"], waiting=["Ann"])
    assert [segment(frame(v, now=t), 2)[0] for t in (0.25, 0.75, 1.25, 1.75)] == [
        COLOURS[2],
        OFF,
        COLOURS[2],
        OFF,
    ]
    assert {segment(frame(v, now=t), s)[0] for t in (0.25, 0.75) for s in (0, 1)} == {OFF}


def test_a_refusal_blinks_the_seats_segment_or_every_status_light():
    v = view(xp=[4, 10, 2], levels=["low", "high", "low"])
    plain = frame(v, now=0.1)
    for t in (20.05, 20.35, 20.65):  # the three white blinks of the seat
        strips = frame(v, now=t, cues=[refusal_cue(1, 20.0)])
        assert segment(strips, 1) == [WHITE] * 7
        assert [segment(strips, s) for s in (0, 2)] == [segment(plain, s) for s in (0, 2)]
    assert segment(frame(v, now=20.2, cues=[refusal_cue(1, 20.0)]), 1) == [OFF] * 7
    strips = frame(v, now=5.05, cues=[refusal_cue(None, 5.0)])
    assert [segment(strips, s)[0] for s in range(4)] == [WHITE, WHITE, WHITE, OFF]
    after = frame(v, now=20.0 + REFUSAL_FLASH + 0.01, cues=[refusal_cue(1, 20.0)])
    assert after == plain


def test_the_score_strip_stays_dark():
    strips = frame(view(xp=[10, 10, 10], levels=["high"] * 3), cues=turned("Ann", 1, 1, 0.0))
    assert set(strips["score"]) == {OFF}


# -- animation -------------------------------------------------------------------------------------


def test_a_table_at_rest_does_not_animate():
    assert not animating(view(), [], 0.0)
    assert not animating(view(finished=True), [], 0.0)  # nobody won: nothing blinks
    assert frame(view(), now=0.1) == frame(view(), now=0.1 + HALF_BLINK)


@pytest.mark.parametrize(
    "v",
    [
        view(waiting=["Ann", "Ben"]),
        view(finished=True, winners=["Ann"]),
        view(active=None, waiting=["Ben"]),
    ],
    ids=["someone else is waited for", "winner", "nobody active"],
)
def test_blinking_animates(v):
    assert animating(v, [], 0.0)


def test_a_turn_animates_only_while_it_lasts():
    """DT-TIME-2."""
    v, cues = view(door_wedge=1, step=1), turned("Ben", 1, 1, at=5.0)
    assert animating(v, cues, 5.0) and animating(v, cues, 5.0 + TOWER_TURN - 0.01)
    assert not animating(v, cues, 5.0 + TOWER_TURN + 0.01)


# -- the other game and the real view --------------------------------------------------------------


def test_abracadawhat_leaves_the_ring_dark():
    """The ring belongs to Dork Tower: the real Abracada...What? view draws nothing on it, even
    with a (stray) turn cue."""
    v = GAME.view(tapped_deal(), TABLE)
    assert v["game"] == "abracadawhat"
    for cues in ([], turned("Ann", 1, 1, 0.0), [refusal_cue(None, 0.0)]):
        strips = frame(v, now=0.1, cues=cues)
        assert len(strips["tower"]) == 16 and set(strips["tower"]) == {OFF}
    assert any(p != OFF for p in frame(v, now=0.1)["table"])


def test_the_real_dork_tower_view_draws_its_tower():
    """DT-TIME-1, DT-TOWER-1 on the rules core's own view, when the core is there."""
    core = pytest.importorskip("companion.games.dorktower.rules")
    game = core.DorkTower()
    v = game.view(game.new(NAMES, {}, seed=3), TABLE)
    t = v["tower"]
    ring = frame(v)["tower"]
    for wedge in range(8):
        colour = SUN if t["wedges"][wedge]["day"] else MOON
        want = [colour, DOOR] if wedge == t["door_wedge"] else [colour] * 2
        assert ring[wedge * 2 : wedge * 2 + 2] == want
    assert not t["wedges"][t["door_wedge"]]["day"]
