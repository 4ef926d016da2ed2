"""The Triwizard Maze Game on the LEDs: whose turn, who wears the Cloak, the cards and tiles each
player holds (counts only), and a battle's result. Views are built by hand with only the public
keys the drawer reads; the expected pixels are worked out here from the gauges' rule (two cards
or tiles a light, the last one dim for an odd one)."""

from __future__ import annotations

import pytest

from companion.games.triwizard import lights as drawer
from companion.games.triwizard.lights import BATTLE_CUE, CLOAK, DIM, LOST, WON
from companion.lights import (
    BLINK_HZ,
    OFF,
    PALETTE,
    SEAT_COLOURS,
    WHITE,
    Cue,
    Layout,
    legend,
    refusal_cue,
    scale,
)
from companion.lights import animating as animating_with
from companion.lights import render as render_with

NAMES = ["Ann", "Bo", "Cy"]
COLOURS = [PALETTE[name] for name in SEAT_COLOURS[:5]]
LAYOUT = Layout()
SEAT = LAYOUT.seat_pixels
HALF_BLINK = 1 / (2 * BLINK_HZ)


def view(**more) -> dict:
    """A public view of three players, Ann to play; ``players`` entries merge by name."""
    players = {
        "Ann": {"seat": 0, "hand_count": 4, "tile_count": 2, "cloaked": False},
        "Bo": {"seat": 1, "hand_count": 3, "tile_count": 5, "cloaked": True},
        "Cy": {"seat": 2, "hand_count": 0, "tile_count": 0, "cloaked": False},
    }
    for name, values in more.pop("players", {}).items():
        players[name] = players[name] | values
    base = {
        "game": "triwizard",
        "phase": "open",
        "prompt": "",
        "order": list(NAMES),
        "active": "Ann",
        "waiting_for": ["Ann"],
        "finished": False,
        "winners": [],
        "players": players,
        "cloak": "Bo",
    }
    return base | more


def render(v: dict, cues=(), now: float = 0.0, layout: Layout = LAYOUT):
    return render_with(drawer, v, COLOURS, list(cues), now, layout)


def segment(strips, seat: int, layout: Layout = LAYOUT) -> list:
    size = layout.seat_pixels
    return strips["table"][seat * size : (seat + 1) * size]


def test_the_status_light_the_cloak_and_the_gauges():
    """Pixel 0 the status light (Ann's turn: her colour, steady); pixel 1 white for the Cloak's
    wearer (TW-CLOAK-5); pixels 2-3 the Battle Cards (TW-BCARD-2: 4 = two lights, 3 = one and a
    dim one); pixels 4-6 the Resource Tiles (TW-RES-2: 5 = two and a dim one)."""
    frames = render(view())
    ann, bo, cy = (segment(frames, seat) for seat in range(3))
    a, b = COLOURS[0], COLOURS[1]
    assert ann == [a, OFF, a, a, a, OFF, OFF]
    assert bo == [OFF, CLOAK, b, scale(b, DIM), b, b, scale(b, DIM)]
    assert cy == [OFF] * SEAT
    assert all(p == OFF for p in frames["table"][3 * SEAT :])  # empty seats stay dark
    assert all(p == OFF for p in frames["score"] + frames["tower"])


@pytest.mark.parametrize("tiles", range(0, 7))
def test_the_tiles_gauge_counts_every_tile_up_to_the_limit(tiles):
    """TW-RES-2: six tiles at most, three lights; each count looks different."""
    c = COLOURS[2]
    shown = segment(render(view(players={"Cy": {"tile_count": tiles}})), 2)[4:7]
    expected = [
        c if tiles >= 2 * (k + 1) else scale(c, DIM) if tiles == 2 * k + 1 else OFF
        for k in range(3)
    ]
    assert shown == expected
    lit = sum(2 if p == c else 1 if p == scale(c, DIM) else 0 for p in shown)
    assert lit == tiles


def test_the_cloak_follows_the_view_and_nothing_else():
    """The Cloak beside the board (TW-CLOAK-7): no light; on Cy's piece: Cy's pixel 1."""
    aside = render(view(cloak=None, players={"Bo": {"cloaked": False}}))
    assert all(segment(aside, s)[1] == OFF for s in range(3))
    on_cy = render(view(cloak="Cy", players={"Bo": {"cloaked": False}, "Cy": {"cloaked": True}}))
    assert [segment(on_cy, s)[1] for s in range(3)] == [OFF, OFF, CLOAK]


def test_waiting_for_a_player_blinks_and_the_winner_blinks_at_the_end():
    """The Dumbledore window waits for Bo (TW-RES-DUMB-2): his status light blinks white; at the
    end (TW-END-2) the winner's blinks in their colour."""
    waiting = view(waiting_for=["Bo"])
    assert segment(render(waiting, now=0.0), 1)[0] == WHITE
    assert segment(render(waiting, now=HALF_BLINK), 1)[0] == OFF
    assert animating_with(drawer, waiting, [], 0.0)
    assert not animating_with(drawer, view(), [], 0.0)
    over = view(phase="over", finished=True, winners=["Cy"], active=None, waiting_for=[])
    assert segment(render(over, now=0.0), 2)[0] == COLOURS[2]
    assert segment(render(over, now=0.5), 2)[0] == OFF


def test_a_battle_result_is_a_cue_from_the_events():
    """TW-BATTLE-4, TW-BATTLE-2, TW-BATTLE-5: won, lost or no match; a first roll that fell
    short (a Double Die may follow), another event or a stranger start nothing."""
    events = [
        {"type": "won", "player": "Bo", "result": "won"},
        {"type": "no_match", "player": "Ann", "result": "no_match"},
        {"type": "short", "player": "Cy", "result": "lost"},
        {"type": "short", "player": "Cy", "result": "short"},
        {"type": "walk", "player": "Cy"},
        {"type": "won", "player": "Zed", "result": "won"},
    ]
    cues = drawer.cues(events, NAMES, at=5.0)
    assert [(c.kind, c.seat, c.at, c.length) for c in cues] == [
        (WON, 1, 5.0, BATTLE_CUE),
        (LOST, 0, 5.0, BATTLE_CUE),
        (LOST, 2, 5.0, BATTLE_CUE),
    ]


def test_a_win_fills_the_segment_with_white_and_a_loss_empties_it():
    """The win grows from the status light outwards, the loss shrinks from the far end; the
    status light stays the game's; after the cue the steady gauges come back."""
    won, lost = Cue(WON, 10.0, 0, length=BATTLE_CUE), Cue(LOST, 10.0, 1, length=BATTLE_CUE)
    step = BATTLE_CUE / 7
    early = render(view(), [won, lost], now=10.0 + step * 2.5)
    assert segment(early, 0) == [COLOURS[0], WHITE, WHITE, OFF, OFF, OFF, OFF]
    assert segment(early, 1) == [OFF, COLOURS[1], COLOURS[1], COLOURS[1], COLOURS[1], OFF, OFF]
    late = render(view(), [won, lost], now=10.0 + BATTLE_CUE - 0.01)
    assert segment(late, 0)[1:] == [WHITE] * 6 and segment(late, 1)[1:] == [OFF] * 6
    after = render(view(), [won, lost], now=10.0 + BATTLE_CUE)
    assert after == render(view())
    assert animating_with(drawer, view(), [won], 10.5)


def test_a_refusal_blinks_over_the_seat():
    frames = render(view(), [refusal_cue(2, 3.0)], now=3.0)
    assert segment(frames, 2) == [WHITE] * SEAT


@pytest.mark.parametrize(
    "layout", [Layout(), Layout(seats=8, life_pixels=4), Layout(life_pixels=2)]
)
def test_the_legend_names_what_is_drawn(layout):
    """The legend's parts: the status light, the Cloak, the cards' and the tiles' gauges, as many
    as the segment holds; nothing lit outside them."""
    parts = legend(drawer, layout)["table"]["parts"]
    kinds = [(p["first"], p["count"], p["kind"]) for p in parts]
    expected = [(0, 1, "status"), (1, 1, "mark"), (2, min(2, layout.life_pixels - 1), "gauge")]
    if layout.life_pixels >= 4:
        expected.append((4, min(3, layout.life_pixels - 3), "gauge"))
    assert kinds == expected
    assert set(legend(drawer, layout)) == {"table"}
    full = view(players={name: {"hand_count": 4, "tile_count": 6} for name in NAMES})
    frames = render(full, layout=layout)
    covered = max(p["first"] + p["count"] for p in parts)
    for seat in range(3):
        lights = segment(frames, seat, layout)
        assert all(p != OFF for p in lights[2:covered]) and lights[covered:] == []
