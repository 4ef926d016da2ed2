"""Tests that kill surviving mutants of Triwizard's rules core (part b): the exact refusal
reasons, event types and texts, view keys, undo sentences and walking choices the earlier tests
left unchecked."""

from __future__ import annotations

import random

import pytest
from tw_support import (
    ANN,
    BOB,
    CID,
    GAME,
    RED_5_3,
    act,
    arrange,
    default_lineup,
    move,
    phase,
    refused,
    roll,
    start,
    tile_of,
    tiles_of,
    view,
)

from companion.rules import Accepted

A_HAND = [RED_5_3, "blue-2-4", "green-4-2", "green-1-5"]


def events(state, **action):
    result = GAME.apply(state, action)
    assert isinstance(result, Accepted), result
    return result.events


def one(found, kind):
    matching = [e for e in found if e["type"] == kind]
    assert len(matching) == 1, found
    return matching[0]


# -- refusal reasons ---------------------------------------------------------------------------


def test_battle_step_out_of_the_battle_says_why():
    """TW-BATTLE-1: a Battle Card played outside the battle is refused with its reason."""
    s = start(arrange(hands={ANN: A_HAND}))
    r = refused(s, "TW-BATTLE-1", type="play_card", player=ANN, card=RED_5_3)
    assert str(r.reason) == "That is not part of the battle now."


def test_place_cloak_without_on_says_why():
    """TW-TURN-3: placing the Cloak without saying where is malformed, with its reason."""
    s = roll(start(arrange(3)), "cloak")
    r = GAME.apply(s, {"type": "place_cloak", "player": ANN})
    assert r.rule == "INPUT-1" and str(r.reason) == "Say which piece the Cloak goes on (or none)."


def test_cloak_removal_after_the_roll_names_rule_and_reason():
    """TW-CLOAK-6: the Cloak comes off only at the start of the turn."""
    s = roll(start(arrange(cloak=ANN)), 2)
    r = refused(s, "TW-CLOAK-6", type="remove_cloak", player=ANN)
    assert str(r.reason) == "The Cloak is taken off only at the start of the turn."


def test_reductor_of_the_wrong_kind_says_why():
    """TW-RES-REDUCT-1: a move naming a tile that is no Reductor Curse."""
    cloak = tile_of("cloak")
    s = roll(start(arrange(pieces={ANN: "K2"}, tiles={ANN: [cloak]})), 1)
    r = refused(s, "TW-RES-REDUCT-1", type="move", player=ANN, path=["K3"], reductor=cloak)
    assert str(r.reason) == "That tile is not a Reductor Curse."


def test_dumbledore_without_a_cloaked_target_says_why():
    """TW-RES-DUMB-1: the refusal's reason."""
    dumb = tile_of("dumbledore")
    s = start(arrange(tiles={ANN: [dumb]}))
    r = refused(s, "TW-RES-DUMB-1", type="play_tile", player=ANN, tile=dumb, target=BOB)
    assert str(r.reason) == "Albus Dumbledore is played against another player's cloaked piece."


def test_end_turn_before_the_move_says_why():
    """TW-TURN-6: the turn ends only after the move."""
    s = start(arrange())
    r = refused(s, "TW-TURN-6", type="end_turn", player=ANN)
    assert str(r.reason) == "The turn cannot end yet: finish the move first."


# -- events ------------------------------------------------------------------------------------


def test_a_lost_battle_event_is_typed_lost():
    """TW-BATTLE-5, TW-BATTLE-LOSE-1: a short total without a Double Die: the "lost" event."""
    s = start(
        arrange(pieces={ANN: "K4"}, hands={ANN: A_HAND}, lineup=default_lineup("o-red-orange-8-2"))
    )
    s = move(roll(s, 1), ANN, ["K5"])
    assert phase(s) == "battle_select"
    s = roll(act(s, type="play_card", player=ANN, card=RED_5_3), 1)
    lost = one(events(s, type="decline", player=ANN), "lost")
    assert (lost["player"], lost["result"], str(lost["text"])) == (
        ANN,
        "lost",
        "Ann loses the battle.",
    )


def test_cloak_removal_event_names_the_player():
    """TW-CLOAK-6: the removal attempt's event text names the wearer."""
    s = start(arrange(cloak=ANN))
    found = one(events(s, type="remove_cloak", player=ANN), "remove_cloak")
    assert str(found["text"]) == "Ann tries to take off the Cloak."


def test_dumbledore_and_its_counter_events_name_the_players():
    """TW-RES-DUMB-1, TW-RES-DUMB-2: both events name who plays."""
    d1, d2 = tiles_of("dumbledore")[:2]
    s = start(arrange(cloak=BOB, tiles={ANN: [d1], BOB: [d2]}))
    played = one(events(s, type="play_tile", player=ANN, tile=d1, target=BOB), "play_tile")
    assert str(played["text"]) == "Ann plays Albus Dumbledore against Bob."
    s = act(s, type="play_tile", player=ANN, tile=d1, target=BOB)
    countered = one(events(s, type="counter", player=BOB, tile=d2), "counter")
    assert str(countered["text"]) == "Bob cancels Albus Dumbledore with another."


def test_veritaserum_event_is_a_play_tile():
    """TW-RES-VERI-1: giving Veritaserum is a "play_tile" event naming both players."""
    veri = tile_of("veritaserum")
    s = start(arrange(3, tiles={ANN: [veri], BOB: [tile_of("reductor")]}))
    played = one(events(s, type="play_tile", player=ANN, tile=veri, target=BOB), "play_tile")
    assert str(played["text"]) == "Ann gives Veritaserum to Bob."


# -- prompts, legal actions, views -------------------------------------------------------------


def overflowing():
    six = [tile_of("cloak", n) for n in range(4)] + tiles_of("reductor")[:2]
    s = move(roll(start(arrange(pieces={ANN: "K6"}, tiles={ANN: six})), 1), ANN, ["K7", "K8"])
    s = act(s, type="draw_tile", player=ANN, tile=tile_of("four_point"))
    return s, sorted(six + [tile_of("four_point")])


def test_overflow_prompt_and_legal_discards():
    """TW-RES-2: the overflow interrupt's prompt, and one legal discard per tile held."""
    s, held = overflowing()
    assert str(view(s)["prompt"]) == "Ann: discard Resource Tiles down to 6."
    assert GAME.legal_actions(s) == [
        {"type": "discard_tile", "player": ANN, "tile": x} for x in held
    ]


def test_single_card_draw_prompt():
    """TW-TURN-1, TW-BCARD-3: one card to draw: the prompt says "a Battle Card"."""
    s = arrange(hands={ANN: A_HAND[:3]})
    assert phase(s) == "draw"
    assert str(view(s)["prompt"]) == "Ann: draw a Battle Card."


def test_view_players_carry_their_seat():
    """The view's players name their seat (0 first)."""
    v = view(start(arrange(3)))
    assert [v["players"][n]["seat"] for n in (ANN, BOB, CID)] == [0, 1, 2]


def test_veritaserum_interrupt_names_the_target():
    """TW-RES-VERI-2, TW-AMB-21: the interrupt names whose tiles are shown."""
    veri = tile_of("veritaserum")
    s = start(arrange(3, tiles={ANN: [veri], BOB: [tile_of("reductor")]}))
    s = act(s, type="play_tile", player=ANN, tile=veri, target=BOB)
    assert view(s)["interrupt"] == {"kind": "veritaserum", "player": ANN, "target": BOB}


def test_unknown_viewer_is_named_in_the_error():
    """A viewer that is no player, table or host is refused by name."""
    s = start(arrange())
    with pytest.raises(ValueError, match="unknown viewer 'Zed'"):
        GAME.indistinguishable(s, "Zed", random.Random(1))


def test_reach_marks_an_obstacle_stop_with_a_reductor_in_hand():
    """TW-OBST-1, TW-RES-REDUCT-1: with a Reductor in hand the reach still says the move stops
    on the Obstacle Space."""
    s = roll(start(arrange(pieces={ANN: "K3"}, tiles={ANN: [tile_of("reductor")]})), 1)
    k5 = [e for e in view(s, ANN)["reach"] if e["space"] == "K5"]
    assert k5 == [
        {"space": "K5", "steps": 2, "path": ["K4", "K5"], "reductor": None, "stops": "obstacle"}
    ]


# -- undo sentences ----------------------------------------------------------------------------


def test_undo_describes_a_players_roll_swap_and_battle():
    """The table's undo names the action and its player."""
    s = start(arrange())
    assert GAME.describe(s, {"type": "roll", "player": ANN, "value": 4}) == "Ann's roll of 4"
    assert GAME.describe(s, {"type": "swap_hand", "player": ANN}) == "Ann swapping the hand"
    assert GAME.describe(s, {"type": "battle", "player": ANN}) == "Ann battling the obstacle"


def test_undo_put_back_of_a_counter_and_of_an_action_without_player():
    """The undo says who takes the Resource Tile back; without a player, the active one."""
    s = start(arrange())
    back = GAME.put_back(s, {"type": "counter", "player": BOB, "tile": "x"}, s)
    assert back == "Bob takes the Resource Tile back."
    back = GAME.put_back(s, {"type": "play_card", "card": RED_5_3}, s)
    assert back == "Ann takes the Battle Card back into the hand."
