"""Tests that kill surviving mutants of Triwizard's rules core (part b): single draws, declared
Cup Tile Spaces, jumps to the nearest free space and the choices they open, on Corridor K and on
the core tests' corridor with its 2 by 2 corner (K0, K1, H1, H3)."""

from __future__ import annotations

import core_support
from core_support import new, play
from tw_support import (
    ANN,
    BOB,
    CID,
    O_RED_ORANGE_8_2,
    act,
    arrange,
    default_lineup,
    move,
    phase,
    refused,
    roll,
    start,
    view,
    where,
)

from companion.games.triwizard.rules import Triwizard

HAND = ["red-5-3", "blue-2-4", "green-4-2", "green-1-5"]


def test_single_tile_draw_prompt():
    """TW-MIST-1: one Resource Tile to draw: the prompt says "a Resource Tile"."""
    s = move(roll(start(arrange(pieces={ANN: "K6"})), 1), ANN, ["K7", "K8"])
    assert str(view(s)["prompt"]) == "Ann: draw a Resource Tile."


def test_declared_move_onto_an_occupied_cup_tile_space_is_refused():
    """TW-MOVE-5: a declared move may not end on a Cup Tile Space another piece stands on."""
    state = new(
        seed=3, maze="declared", scenario={"hands": {"Ann": HAND}, "pieces": {"Ben": "cup:3"}}
    )
    state = play(state, {"type": "roll", "value": 3})
    onto = {"type": "move", "player": "Ann", "steps": 6, "end": "cup", "slot": "3"}
    assert core_support.refused(state, onto).rule == "TW-MOVE-5"


def test_move_onto_a_taken_space_with_nowhere_further_jumps():
    """TW-MOVE-5, TW-AMB-6: Bob on K4, the Wandering Hedge on K5: Ann's move onto K4 has no
    next available space, so the piece goes to the nearest free Path space, K3."""
    s = start(arrange(3, pieces={ANN: "K2", BOB: "K4"}, hedge="K5"))
    s = move(roll(s, 1), ANN, ["K3", "K4"])
    assert (where(s, ANN), phase(s)) == ("K3", "post")


def test_taken_obstacle_beyond_a_taken_space_is_the_next_available():
    """TW-MOVE-5, TW-OBST-1, TW-AMB-6: Bob on K4, Cid on the Obstacle Space K5: a move ending on
    K4 must go on to K5 (the mover battles there)."""
    s = roll(start(arrange(3, pieces={ANN: "K2", BOB: "K4", CID: "K5"})), 1)
    r = refused(s, "TW-MOVE-5", type="move", player=ANN, path=["K3", "K4"])
    assert str(r.reason) == "Another piece stands on K4: go on to the next available space (K5)."


def test_headstone_carry_onto_a_taken_headstone_asks_where():
    """TW-HEAD-3, TW-AMB-6: carried to Headstone 3 where Ben stands, with Cat on H1, Dan on K1
    and the Wandering Hedge at home: the nearest free spaces are two steps away; each is
    offered once, and Ann (the active player) picks for her own piece."""
    state = core_support.arranged(
        core_support.PLAYERS,
        3,
        hands={name: [] for name in core_support.PLAYERS},
        pieces={"Ann": "K20", "Ben": "H3", "Cat": "H1", "Dan": "K1"},
        cups={"1": "headstone-3"},
    )
    state = core_support.refill(state)
    state = play(
        state, {"type": "roll", "value": 1}, {"type": "move", "player": "Ann", "path": ["C1"]}
    )
    shown = core_support.GAME.view(state, "Ann")["interrupt"]
    assert shown == {
        "kind": "choose",
        "player": "Ann",
        "options": ["K0", "K2", "PB1"],
        "piece": "Ann",
    }


def test_dumbledore_with_two_nearest_penalties_asks_the_caster():
    """TW-CLOAK-8, TW-PEN-1, TW-AMB-5: two empty Penalty Spaces as near (K12 and K14 around
    Ben on K13): Ann, who played Albus Dumbledore, picks one."""
    data = core_support.corridor()
    data["board"]["spaces"]["K14"]["feature"] = "penalty"
    data["board"]["penalties"] = ["K12", "K14"]
    game = Triwizard({"corridor": data})
    dumb = core_support.tile_of("dumbledore")
    state = game.new(
        ["Ann", "Ben"],
        {
            "data_set": "corridor",
            "scenario": {"pieces": {"Ben": "K13"}, "cloak": "Ben", "tiles": {"Ann": [dumb]}},
        },
        3,
    )
    while state["phase"] == "draw":
        state = game.apply(state, game.sample(state)).state
    for action in (
        {"type": "play_tile", "player": "Ann", "tile": dumb, "target": "Ben"},
        {"type": "close_window"},
    ):
        state = game.apply(state, action).state
    shown = game.view(state, "Ann")["interrupt"]
    assert shown == {"kind": "choose", "player": "Ann", "options": ["K12", "K14"], "piece": "Ben"}
    assert game.legal_actions(state)[:2] == [
        {"type": "choose", "player": "Ann", "space": "K12"},
        {"type": "choose", "player": "Ann", "space": "K14"},
    ]


def test_advance_of_nothing_from_a_shared_obstacle_never_offers_the_way_back():
    """TW-BATTLE-WIN-1, TW-AMB-6, TW-AMB-32: Bob stands uncleared on K5; Ann enters from K4 and
    wins; advancing nothing would end on Bob's space, and the next available space is K6 only
    (never back towards K4, where Ann came from)."""
    s = start(
        arrange(
            3,
            pieces={ANN: "K4", BOB: "K5"},
            uncleared=[BOB],
            hands={ANN: HAND},
            lineup=default_lineup(O_RED_ORANGE_8_2),
        )
    )
    s = move(roll(s, 1), ANN, ["K5"])
    s = roll(act(s, type="play_card", player=ANN, card="red-5-3"), 5)
    assert phase(s) == "advance"
    r = refused(s, "TW-MOVE-5", type="advance", player=ANN, path=[])
    assert str(r.reason) == "Another piece stands on K5: go on to the next available space (K6)."


def test_reach_beyond_two_taken_spaces_takes_the_first_by_name():
    """TW-MOVE-5, TW-AMB-6: with a Reductor in hand, Ann on K16 with 2 steps; Ben on M171 and
    Cat on M162 (both 2 steps away): M172 beyond them is reached through M162, the first of the
    two by name."""
    reductor = core_support.tile_of("reductor")
    state = core_support.arranged(
        ["Ann", "Ben", "Cat"],
        3,
        hands={name: [] for name in ("Ann", "Ben", "Cat")},
        pieces={"Ann": "K16", "Ben": "M171", "Cat": "M162"},
        tiles={"Ann": [reductor]},
    )
    state = play(core_support.refill(state), {"type": "roll", "value": 1})
    reach = {e["space"]: e for e in core_support.GAME.view(state, "Ann")["reach"]}
    assert reach["M172"]["path"] == ["M161", "M162", "M172"]
