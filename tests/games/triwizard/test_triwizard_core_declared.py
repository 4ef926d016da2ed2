"""The declared maze (option ``maze: declared``): the mover declares steps and the end space's
kind; the count, the Cloak, battles, Cup Tiles and occupied Cup or Headstone Spaces are checked."""

from __future__ import annotations

from core_support import GAME, new, play, refill, refused

HAND = ["red-5-3", "blue-2-4", "green-4-2", "green-1-5"]


def declared(**scenario):
    return new(seed=3, maze="declared", scenario=scenario)


def test_a_declared_move_is_checked_against_the_allowance():
    state = declared(hands={"Ann": HAND})
    state = play(state, {"type": "roll", "value": 2})
    too_far = {"type": "move", "player": "Ann", "steps": 6, "end": "path"}
    assert refused(state, too_far).rule == "TW-MOVE-1"
    unknown = {"type": "move", "player": "Ann", "steps": 2, "end": "lake"}
    assert refused(state, unknown).rule == "INPUT-1"
    state = play(state, {"type": "move", "player": "Ann", "steps": 4, "end": "gold_mist"})
    assert state["pieces"][0] == "gold_mist" and state["pending"][0]["why"] == "mist"


def test_a_declared_obstacle_starts_the_battle_and_the_push_back_is_declared_too():
    state = declared(hands={"Ann": HAND}, lineup=["o-orange-6-1", "o-blue-9-1", "o04", "o05"])
    state = play(state, {"type": "roll", "value": 1})
    state = play(state, {"type": "move", "player": "Ann", "steps": 2, "end": "obstacle"})
    assert state["phase"] == "battle_select"
    state = play(state, {"type": "no_match", "player": "Ann"})
    push = {"type": "push_back", "player": "Ben", "steps": 6, "end": "path"}  # 4 + 1 piece
    assert refused(state, push).rule == "TW-BATTLE-LOSE-1"
    state = play(state, {**push, "steps": 3})
    assert state["pieces"][0] == "path" and state["phase"] == "post"


def test_declared_cup_tiles_flip_and_headstones_carry():
    state = declared(hands={"Ann": HAND}, pieces={"Ben": "headstone:2"})
    state = play(state, {"type": "roll", "value": 3})
    state = play(state, {"type": "move", "player": "Ann", "steps": 6, "end": "cup", "slot": "3"})
    assert state["phase"] == "flip"
    state = play(state, {"type": "flip_cup", "slot": "3", "tile": "headstone-2"})
    assert state["pieces"][0] == "headstone:2" and state["active"] == 1
    state = refill(state)
    state = play(state, {"type": "roll", "value": 1})
    taken = {"type": "move", "player": "Ben", "steps": 1, "end": "headstone", "number": 2}
    assert refused(state, taken).rule in ("TW-MOVE-5",)
    assert GAME.view(state, "Ben")["cups"][2]["space"] == "cup:3"
