"""Tests that kill surviving mutants of Triwizard's rules core (part c): refusal reasons and
rule IDs, event types and texts, legal actions, views and the die's profile the earlier tests
left unchecked."""

from __future__ import annotations

from tw_data_support import edit, error, mymaze  # noqa: F401 (mymaze is a fixture)
from tw_support import (
    ANN,
    BLUE_2_4,
    BOB,
    GAME,
    GREEN_1_5,
    GREEN_4_2,
    NAMES,
    O_ORANGE_6_1,
    O_RED_ORANGE_8_2,
    RED_5_3,
    K,
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

from companion.games.triwizard.rules.chance import chance
from companion.rules import Accepted

A_HAND = [RED_5_3, BLUE_2_4, GREEN_4_2, GREEN_1_5]


def events(state, **action):
    result = GAME.apply(state, action)
    assert isinstance(result, Accepted), result
    return result.events


def one(found, kind):
    matching = [e for e in found if e["type"] == kind]
    assert len(matching) == 1, found
    return matching[0]


def fight(first: str = O_RED_ORANGE_8_2, n: int = 2, **more):
    """Ann has just entered K5 from K4 against ``first`` (L1): battle_select."""
    more.setdefault("hands", {ANN: A_HAND})
    s = start(arrange(n, pieces={ANN: "K4"}, lineup=default_lineup(first), **more))
    s = move(roll(s, 1), ANN, ["K5"])
    assert phase(s) == "battle_select"
    return s


def dealt(n: int = 2, seed: int = 3):
    s = act(GAME.new(NAMES[:n], {"data_set": K}, seed=seed), type="placed", player=ANN)
    for _ in range(60):
        if phase(s) != "deal":
            break
        s = act(s, **GAME.sample(s))
    assert phase(s) == "first_player"
    return s


# -- battles -----------------------------------------------------------------------------------


def test_a_cloaked_battle_refusal_says_why():
    """TW-CLOAK-1: the refusal's reason."""
    s = move(roll(start(arrange(pieces={ANN: "K4"}, cloak=ANN)), 1), ANN, ["K5"])
    r = refused(s, "TW-CLOAK-1", type="battle", player=ANN)
    assert str(r.reason) == "A cloaked piece never battles."


def test_no_match_event_names_the_loser():
    """TW-BATTLE-2, TW-AMB-11: the no-match event's text names the player."""
    found = one(events(fight(O_ORANGE_6_1), type="no_match", player=ANN), "no_match")
    assert str(found["text"]) == "Ann has no matching Battle Card and loses."


def test_play_card_event_names_the_player():
    """TW-BATTLE-1: the played card's event names player, colour and strength."""
    found = one(events(fight(), type="play_card", player=ANN, card=RED_5_3), "play_card")
    assert str(found["text"]) == "Ann plays a red Battle Card, strength 5."


def test_a_card_of_no_matching_colour_says_why():
    """TW-BCARD-5: the refusal's reason."""
    r = refused(fight(), "TW-BCARD-5", type="play_card", player=ANN, card=BLUE_2_4)
    assert str(r.reason) == "That card's colour matches none of the obstacle's colour blocks."


def test_push_back_by_the_wrong_player_names_the_right_one():
    """TW-BATTLE-LOSE-1: the reason names the pusher and the loser."""
    s = act(fight(O_ORANGE_6_1), type="no_match", player=ANN)
    r = refused(s, "TW-BATTLE-LOSE-1", type="push_back", player=ANN, path=["K4"])
    assert str(r.reason) == "Bob, the player to Ann's right, moves the piece back."


# -- setup and turns -----------------------------------------------------------------------------


def test_the_first_player_event():
    """TW-SETUP-10, TW-AMB-25: a "first" event naming who shouted first."""
    found = one(events(dealt(3), type="first", player=BOB), "first")
    assert str(found["text"]) == "Bob shouted first and starts."


def test_the_tie_winner_event():
    """TW-SETUP-10, TW-AMB-25: the winner of the tie roll is named in a "first" event."""
    s = roll(act(dealt(3), type="tie", players=[ANN, BOB]), 2)
    found = one(events(s, type="roll", value=5), "first")
    assert str(found["text"]) == "Bob wins the roll and starts."


def test_the_turn_event_names_the_next_player():
    """TW-TURN-6: the "turn" event names whose turn it is."""
    s = move(roll(start(arrange()), 1), ANN, ["K1"])
    found = one(events(s, type="end_turn", player=ANN), "turn")
    assert str(found["text"]) == "Bob's turn."


def test_swap_before_the_refill_says_why():
    """TW-TURN-1: the hand is swapped only after the refill; the reason says so."""
    s = arrange(hands={ANN: A_HAND[:3]})
    assert phase(s) == "draw"
    r = refused(s, "TW-TURN-1", type="swap_hand", player=ANN)
    assert str(r.reason) == "Draw up to 4 Battle Cards first."


# -- cups, the end, tiles ------------------------------------------------------------------------


def test_a_flipped_cup_tile_drops_its_peeks():
    """TW-CUP-2, TW-RES-4PT-2: once a Cup Tile is face up, no peek at it is kept."""
    four = tile_of("four_point")
    s = start(arrange(pieces={ANN: "K20"}, tiles={ANN: [four]}))
    s = act(s, type="play_tile", player=ANN, tile=four, slot="1")
    s = act(s, type="peek", player=ANN, slot="1", tile="headstone-1")
    assert len(view(s)["peeks"]) == 1
    s = move(roll(s, 1), ANN, ["C1"])
    s = act(s, type="flip_cup", slot="1", tile="headstone-1")
    assert view(s)["peeks"] == []


def test_dumbledore_counter_is_offered():
    """TW-RES-DUMB-2: the target holding another Dumbledore is offered the counter."""
    d1, d2 = tiles_of("dumbledore")[:2]
    s = start(arrange(cloak=BOB, tiles={ANN: [d1], BOB: [d2]}))
    s = act(s, type="play_tile", player=ANN, tile=d1, target=BOB)
    assert {"type": "counter", "player": BOB, "tile": d2} in GAME.legal_actions(s)


def test_a_move_of_zero_spaces_is_offered():
    """TW-MOVE-2: after the roll, staying put (an empty path) is a legal move."""
    s = roll(start(arrange(pieces={ANN: "K2"})), 2)
    assert {"type": "move", "player": ANN, "path": []} in GAME.legal_actions(s)


def test_a_cloaked_thief_is_refused_with_the_reason():
    """TW-CLOAK-3: a cloaked piece steals no tiles; the reason says so."""
    sparks = tile_of("red_sparks")
    s = start(arrange(cloak=ANN, tiles={ANN: [sparks], BOB: [tile_of("veritaserum")]}))
    r = refused(s, "TW-CLOAK-3", type="play_tile", player=ANN, tile=sparks, target=BOB)
    assert str(r.reason) == "While your piece wears the Cloak you collect no tiles."


def test_double_die_out_of_a_battle_is_refused_by_its_rule():
    """TW-RES-DDIE-1: the Double Die outside a short battle roll: its rule and reason."""
    ddie = tile_of("double_die")
    s = start(arrange(tiles={ANN: [ddie]}))
    r = refused(s, "TW-RES-DDIE-1", type="play_tile", player=ANN, tile=ddie)
    assert str(r.reason) == "The Double Die is played only after a battle roll falls short."


def test_the_die_profile_comes_from_the_data_set():
    """TW-AMB-2: a roll's chance step carries the data set's dice-reader profile."""
    s = start(arrange())
    data = GAME.data(s)
    data = {**data, "die": {**data["die"], "profile": "plain-d6"}}
    assert chance(data, s).profile == "plain-d6"


def test_obstacle_without_colours_names_its_place(mymaze):
    """TW-OCARD-1: the error for an obstacle with no colour names the card's place."""
    edit(mymaze, "cards.json", lambda cards: cards["obstacles"][0].update(colours=[]))
    err = error(mymaze)
    assert err.place == "obstacles[0] (id 'o01')"
