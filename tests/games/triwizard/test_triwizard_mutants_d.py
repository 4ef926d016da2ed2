"""Tests that kill surviving mutants of Triwizard's rules core (part d): exact refusal reasons,
event texts, undo sentences, the referee's options, the declared maze's walks, the Reductor's
reach, the data set's default and the loader's error places."""

from __future__ import annotations

import copy
import random

import core_support as cs
import pytest
from tw_data_support import (  # noqa: F401 (mymaze is a fixture)
    edit,
    error,
    mymaze,
)
from tw_support import (
    ANN,
    BOB,
    GAME,
    O_RED_ORANGE_8_2,
    RED_5_3,
    act,
    arrange,
    default_lineup,
    finish_turn,
    move,
    phase,
    refused,
    roll,
    start,
    tile_of,
    view,
)

from companion.games.triwizard.rules import Triwizard
from companion.rules import EVERYTHING, TABLE, Accepted, SetupError

HAND = [RED_5_3, "blue-2-4", "green-4-2", "green-1-5"]


def events(state, **action):
    result = GAME.apply(state, action)
    assert isinstance(result, Accepted), result
    return result.events


def texts(found, kind):
    return [str(e["text"]) for e in found if e["type"] == kind]


# -- walking ----------------------------------------------------------------------------------


def test_dark_hedge_between_two_path_spaces_names_both():
    """TW-MOVE-3: a data set whose K11 and K12 lie side by side with Dark Hedge between them
    (no neighbours): the step is refused, naming both spaces."""
    data = copy.deepcopy(cs.DATA)
    data["board"]["neighbours"]["K11"].remove("K12")
    data["board"]["neighbours"]["K12"].remove("K11")
    game = Triwizard({"corridor": data})
    scenario = {"pieces": {"Ann": "K11"}, "hands": {"Ann": HAND}}
    state = game.new(["Ann", "Ben"], {"data_set": "corridor", "scenario": scenario}, 1)
    state = game.apply(state, {"type": "roll", "value": 1}).state
    r = game.apply(state, {"type": "move", "player": "Ann", "path": ["K12"]})
    assert (r.rule, str(r.reason)) == ("TW-MOVE-3", "Dark Hedge lies between K11 and K12.")


def test_advance_back_the_way_in_says_where():
    """TW-BATTLE-WIN-1, TW-AMB-9: the advance's first step back to K4, where Ann came from, is
    refused with the space named."""
    s = start(
        arrange(3, pieces={ANN: "K4"}, hands={ANN: HAND}, lineup=default_lineup(O_RED_ORANGE_8_2))
    )
    s = move(roll(s, 1), ANN, ["K5"])
    s = roll(act(s, type="play_card", player=ANN, card=RED_5_3), 5)
    assert phase(s) == "advance"
    r = refused(s, "TW-BATTLE-WIN-1", type="advance", player=ANN, path=["K4"])
    assert str(r.reason) == "Moving forward does not start back to K4."


def test_one_reductor_crosses_one_stretch_of_green_hedge():
    """TW-RES-REDUCT-4: with revisits allowed, crossing the hedge under K6 and coming back
    through it is a second crossing: refused, with its reason."""
    reductor = tile_of("reductor")
    s = arrange(pieces={ANN: "K6"}, tiles={ANN: [reductor]}, options={"allow_revisit": True})
    s = roll(start(s), 2)
    r = refused(
        s,
        "TW-RES-REDUCT-4",
        type="move",
        player=ANN,
        path=["6,1", "6,2", "6,1", "K6"],
        reductor=reductor,
    )
    assert str(r.reason) == "One Reductor Curse crosses one straight stretch of Green Hedge."


def test_reach_with_a_reductor_never_offers_the_start():
    """TW-MOVE-1, TW-AMB-8: with a Reductor Curse in hand the reach lists spaces 1 step or more
    away, never the space the piece stands on."""
    s = roll(start(arrange(pieces={ANN: "K11"}, tiles={ANN: [tile_of("reductor")]})), 1)
    reach = view(s)["reach"]
    assert reach and all(entry["steps"] > 0 for entry in reach)
    assert "K11" not in [entry["space"] for entry in reach]


# -- movement and spaces ----------------------------------------------------------------------


def test_move_event_names_the_mover():
    """TW-MOVE-1: the move's event names the player and the end space."""
    s = roll(start(arrange(pieces={ANN: "K11"})), 1)
    found = events(s, type="move", player=ANN, path=["K12", "K13"])
    moved = [e for e in found if e["type"] == "move"]
    assert len(moved) == 1 and moved[0]["player"] == ANN
    assert str(moved[0]["text"]).startswith("Ann moves 2 ")


def test_move_during_the_cloak_removal_says_why():
    """TW-CLOAK-6: trying to remove the Cloak is the turn's only action."""
    s = act(start(arrange(cloak=ANN)), type="remove_cloak", player=ANN)
    r = refused(s, "TW-CLOAK-6", type="move", player=ANN, path=[])
    assert str(r.reason) == "Trying to remove the Cloak is the turn's only action."


def test_portkey_event_names_the_traveller_and_the_partner():
    """TW-PORT-2: ending on K10 sends Ann to its partner K18, told in the event."""
    s = roll(start(arrange(pieces={ANN: "K9"})), 1)
    found = events(s, type="move", player=ANN, path=["K10"])
    assert texts(found, "portkey") == ["Ann travels by Portkey to K18."]


# -- the declared maze ------------------------------------------------------------------------


def declared_rolled(value):
    state = cs.new(seed=3, maze="declared", scenario={"hands": {"Ann": HAND}})
    return cs.play(state, {"type": "roll", "value": value})


def test_declared_cup_and_headstone_numbers_say_why():
    """TW-CUP-1, TW-COMP-1: a declared Cup Tile Space or Headstone Space out of range is
    malformed, with its reason."""
    state = declared_rolled(2)
    bad_cup = {"type": "move", "player": "Ann", "steps": 4, "end": "cup", "slot": "5"}
    r = cs.refused(state, bad_cup)
    assert (r.rule, str(r.reason)) == ("INPUT-1", "A Cup Tile Space is named 1 to 4.")
    bad_stone = {"type": "move", "player": "Ann", "steps": 4, "end": "headstone", "number": 4}
    r = cs.refused(state, bad_stone)
    assert (r.rule, str(r.reason)) == ("INPUT-1", "A Headstone Space is numbered 1 to 3.")


def test_declared_legal_moves_offer_every_length_to_a_path_space():
    """TW-MOVE-1: the declared moves to a plain Path space are 0 to 2n steps."""
    state = declared_rolled(2)
    steps = sorted(
        a["steps"]
        for a in cs.GAME.legal_actions(state)
        if a["type"] == "move" and a["end"] == "path"
    )
    assert steps == [0, 1, 2, 3, 4]


# -- data sets and options --------------------------------------------------------------------


def test_the_only_data_set_given_is_the_default():
    """TW-COMP-1: a game given one data set uses it by default."""
    game = Triwizard({"corridor": cs.DATA})
    assert game.default_set == "corridor"
    assert game.new(["Ann", "Ben"], {}, 1)["data_set"] == "corridor"


def test_an_added_data_set_is_kept_by_its_name():
    """TW-COMP-1: add_dataset keeps a set under its name, and as the default when asked."""
    game = Triwizard({"corridor": cs.DATA})
    game.add_dataset({**cs.DATA, "name": "other"}, default=True)
    assert sorted(game.datasets) == ["corridor", "other"] and game.default_set == "other"


def test_a_scenario_that_is_no_object_says_so():
    """The option ``scenario`` must be an object."""
    with pytest.raises(SetupError) as raised:
        GAME.resolve_options({"scenario": [1]})
    assert str(raised.value) == "option 'scenario' must be an object"


def test_the_referee_sees_the_arranged_start_the_table_does_not():
    """TW-AMB-31: the referee's view shows the options with the scenario; the table's without."""
    s = start(arrange(pieces={ANN: "K3"}))
    assert view(s, EVERYTHING)["options"]["scenario"]["pieces"][ANN] == "K3"
    assert "scenario" not in view(s, TABLE)["options"]


def test_a_cell_with_y_outside_the_grid_names_its_place(mymaze):
    """TW-AMB-1: the error for a 'y' outside the grid names the cell's place."""
    edit(
        mymaze, "board.json", lambda board: board["cells"].append({"x": 3, "y": 15, "kind": "path"})
    )
    err = error(mymaze)
    assert err.problem == "'y' must be from 0 to 14, not 15"
    assert err.place.startswith("cells[") and err.place.endswith("]")


# -- undo and secrets -------------------------------------------------------------------------


def test_undo_describes_the_set_up_and_a_push_back():
    """The undo's sentences for confirming the set-up and for moving a piece back."""
    s = start(arrange())
    assert GAME.describe(s, {"type": "placed", "player": ANN}) == "Ann confirming the set-up"
    assert GAME.describe(s, {"type": "push_back", "player": BOB}) == "Bob moving a piece back"


def test_undo_of_a_cup_flip_turns_it_back():
    """TW-CUP-3: undoing a flip puts the Cup Tile face down again."""
    s = start(arrange())
    back = GAME.put_back(s, {"type": "flip_cup", "slot": "3", "tile": "cup"}, s)
    assert str(back) == "Turn Cup Tile 3 face down again."


def test_indistinguishable_keeps_own_peek_and_redeals_the_others():
    """TW-RES-4PT-2, TW-AMB-31: Ann peeked at Cup Tile 3 and Bob at 2; for Ann her own peek
    stays and Bob's is dealt among the identities she has not seen."""
    four_a, four_b = tile_of("four_point", 0), tile_of("four_point", 1)
    s = start(arrange(tiles={ANN: [four_a], BOB: [four_b]}))
    s = act(s, type="play_tile", player=ANN, tile=four_a, slot="3")
    s = act(s, type="peek", player=ANN, slot="3", tile="headstone-1")
    s = finish_turn(move(roll(s, 1), ANN, []), ANN)
    s = act(s, type="play_tile", player=BOB, tile=four_b, slot="2")
    s = act(s, type="peek", player=BOB, slot="2", tile="cup")
    for k in range(5):
        peeks = GAME.indistinguishable(s, ANN, random.Random(k))["peeks"]
        assert {p["slot"]: p["tile"] for p in peeks if p["seat"] == 0} == {"3": "headstone-1"}
        bobs = [p["tile"] for p in peeks if p["seat"] == 1]
        assert len(bobs) == 1 and bobs[0] in ("cup", "headstone-2", "headstone-3")
