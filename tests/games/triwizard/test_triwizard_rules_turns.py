"""Triwizard turn structure and game end (spec sections 2.2, 2.9 and the refusals of 3.3):
TW-TURN, TW-END, with the turn-order and timing proposals TW-AMB-12, 25, 26 and 33."""

from __future__ import annotations

import pytest
from tw_support import (
    ANN,
    BLUE_2_4,
    BOB,
    CID,
    DEE,
    GAME,
    GREEN_1_5,
    GREEN_4_2,
    O_ORANGE_6_1,
    RED_5_3,
    act,
    arrange,
    awaiting,
    cup_slot,
    default_lineup,
    finish_turn,
    hand,
    move,
    phase,
    refill,
    refused,
    roll,
    route,
    start,
    tile_count,
    tile_of,
    view,
    where,
)

from companion.rules.api import UNKNOWN_PLAYER

A_HAND = [RED_5_3, BLUE_2_4, GREEN_4_2, GREEN_1_5]


def test_refill_draws_up_to_four():
    """TW-TURN-1, TW-BCARD-2: a hand of 2 draws 2 at the start of the turn; a hand of 4 draws
    none and the turn opens at once."""
    s = arrange(hands={ANN: A_HAND[:2]})
    assert phase(s) == "draw"
    a = awaiting(s)
    assert (a["kind"], a["why"], a["player"]) == ("card", "refill", ANN)
    s = refill(s, ANN)
    assert phase(s) == "open" and len(hand(s, ANN)) == 4
    full = arrange(hands={ANN: A_HAND})
    assert phase(full) == "open" and awaiting(full)["why"] == "move"


def test_nothing_before_the_refill():
    """TW-TURN-1: before the refill is done, a roll, a tile or a swap is refused."""
    four = tile_of("four_point")
    s = arrange(hands={ANN: A_HAND[:3]}, tiles={ANN: [four]})
    refused(s, "TW-TURN-1", type="roll", player=ANN, value=3)
    refused(s, "TW-TURN-1", type="play_tile", player=ANN, tile=four, slot="1")
    refused(s, "TW-TURN-1", type="swap_hand", player=ANN)


def test_a_fifth_card_is_refused():
    """TW-BCARD-2: a Battle Card draw that would make a hand of 5 is refused."""
    s = start(arrange(hands={ANN: A_HAND}))
    refused(s, "TW-BCARD-2", type="draw_card", player=ANN, card="blue-5-3")


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_allowance_is_twice_the_roll(n):
    """TW-TURN-2, TW-MOVE-1, TW-AMB-29: a roll of n allows any number of steps up to 2n."""
    s = roll(start(arrange(pieces={ANN: "K6"})), n)
    ts = view(s)["turn_state"]
    assert (ts["roll"], ts["allowance"], phase(s)) == (n, 2 * n, "moving")
    reach = {r["space"]: r["steps"] for r in view(s, ANN)["reach"]}
    assert max(reach[f"K{i}"] for i in range(7, 7 + 2 * n) if f"K{i}" in reach) <= 2 * n
    assert f"K{6 + 2 * n}" in reach and f"K{7 + 2 * n}" not in reach


def test_cloak_roll_means_no_move():
    """TW-TURN-3, TW-MOVE-10, TW-AMB-13: the Cloak face: no movement; the Cloak must go onto a
    piece (not aside), and a move is refused."""
    s = roll(start(arrange(pieces={ANN: "K3"})), "cloak")
    assert phase(s) == "cloak_place"
    refused(s, "TW-TURN-3", type="place_cloak", player=ANN, on=None)
    refused(s, "TW-TURN-3", type="move", player=ANN, path=["K4"])
    s = act(s, type="place_cloak", player=ANN, on=BOB)
    assert (view(s)["cloak"], where(s, ANN), phase(s)) == (BOB, "K3", "post")


def test_one_battle_card_and_one_tile_per_turn():
    """TW-TURN-4, TW-RES-5, TW-AMB-12: a tile played in open; a second tile in post is refused;
    after a battle, another Battle Card is refused."""
    four, cloak = tile_of("four_point"), tile_of("cloak")
    s = start(
        arrange(
            pieces={ANN: "K4"},
            hands={ANN: A_HAND},
            tiles={ANN: [four, cloak]},
            lineup=default_lineup("o-red-orange-8-2"),
        )
    )
    s = act(s, type="play_tile", player=ANN, tile=four, slot="2")
    s = act(s, **GAME.sample(s))  # the private peek
    refused(s, ("TW-TURN-4", "TW-RES-5"), type="play_tile", player=ANN, tile=cloak, on=BOB)
    s = move(roll(s, 1), ANN, ["K5"])
    s = roll(act(s, type="play_card", player=ANN, card=RED_5_3), 5)
    s = act(s, type="advance", player=ANN, path=["K6"])
    while awaiting(s) is not None:
        s = act(s, **GAME.sample(s))
    assert phase(s) == "post"
    refused(s, "TW-TURN-4", type="play_card", player=ANN, card=GREEN_4_2)
    refused(s, ("TW-TURN-4", "TW-RES-5"), type="play_tile", player=ANN, tile=cloak, on=BOB)


def test_turn_passes_clockwise_and_only_the_active_player_acts():
    """TW-TURN-6, TW-TURN-9, TW-AMB-26, TW-RES-5: end_turn passes to the next seat clockwise
    (Ann, Bob, Cid, Dee, Ann); another player's move, end_turn or tile is refused."""
    four = tile_of("four_point")
    s = start(arrange(4, tiles={BOB: [four]}))
    refused(s, "TW-TURN-6", type="swap_hand", player=BOB)
    refused(s, ("TW-RES-5", "TW-TURN-6"), type="play_tile", player=BOB, tile=four, slot="1")
    s = move(roll(s, 1), ANN, [])
    refused(s, "TW-TURN-6", type="end_turn", player=CID)
    refused(s, UNKNOWN_PLAYER, type="end_turn", player="Zed")
    order = []
    for name in (ANN, BOB, CID, DEE):
        if name != ANN:
            s = move(roll(start(s), 1), name, [])
        s = finish_turn(s, name)
        order.append(view(s)["active"])
    assert order == [BOB, CID, DEE, ANN]
    assert view(s)["turn"] == 5


def test_swap_hand_gives_up_the_turn():
    """TW-TURN-7: the swap discards all Battle Cards and draws 4; the turn ends at once."""
    s = start(arrange(hands={ANN: A_HAND}))
    s = act(s, type="swap_hand", player=ANN)
    assert view(s)["piles"]["battle_discard"] == 4
    for _ in range(4):
        assert awaiting(s)["why"] == "swap"
        s = act(s, **GAME.sample(s))
    assert view(s)["active"] == BOB and len(hand(s, ANN)) == 4


def test_nothing_else_during_the_swap():
    """TW-TURN-7 (section 3.3, T_SWAP): a step during the swap is refused by TW-TURN-7."""
    s = act(start(arrange(hands={ANN: A_HAND})), type="swap_hand", player=ANN)
    refused(s, ("TW-TURN-7", "TW-CLOAK-6"), type="move", player=ANN, path=[])


def test_swap_refused_after_a_tile_or_the_roll():
    """TW-TURN-7: no swap after a Resource Tile was played this turn, nor after the roll."""
    four = tile_of("four_point")
    s = start(arrange(tiles={ANN: [four]}))
    rolled = roll(s, 2)
    refused(rolled, "TW-TURN-7", type="swap_hand", player=ANN)
    s = act(s, type="play_tile", player=ANN, tile=four, slot="3")
    s = act(s, **GAME.sample(s))
    refused(s, "TW-TURN-7", type="swap_hand", player=ANN)


def test_swap_on_an_uncleared_obstacle():
    """TW-AMB-33, TW-AMB-10, TW-TURN-7: on an uncleared Obstacle Space the player may swap;
    the turn ends with no battle, and the obstacle stays uncleared."""
    s = start(arrange(pieces={ANN: "K5"}, uncleared=[ANN]))
    assert view(s)["players"][ANN]["uncleared"] is True
    s = act(s, type="swap_hand", player=ANN)
    for _ in range(4):
        s = act(s, **GAME.sample(s))
    v = view(s)
    assert v["active"] == BOB and v["fight"] is None and v["players"][ANN]["uncleared"] is True


def test_cloak_removal_uses_the_whole_turn():
    """TW-TURN-8, TW-CLOAK-6: after the refill the removal roll is the only action; a tile or a
    move during it is refused, and the turn ends after the roll."""
    four = tile_of("four_point")
    s = start(arrange(cloak=ANN, tiles={ANN: [four]}))
    s = act(s, type="remove_cloak", player=ANN)
    refused(s, "TW-CLOAK-6", type="play_tile", player=ANN, tile=four, slot="1")
    refused(s, "TW-CLOAK-6", type="move", player=ANN, path=[])
    refused(s, "TW-CLOAK-6", type="swap_hand", player=ANN)
    s = roll(s, 2)
    assert view(s)["active"] == BOB and view(s)["cloak"] == ANN and tile_count(s, ANN) == 1


def test_flipping_the_cup_wins_and_ends_everything():
    """TW-TURN-5, TW-END-1, TW-END-2, TW-CUP-2: ending on a face-down Cup Tile asks for the flip;
    the real Cup wins at once; after it every action is refused."""
    c2 = cup_slot(2)
    s = start(arrange(pieces={ANN: "K20"}))
    path = route("K20", c2)
    s = move(roll(s, (len(path) + 1) // 2), ANN, path)
    assert (phase(s), awaiting(s)["kind"]) == ("flip", "cup")
    refused(s, ("TW-TURN-5", "TW-TURN-6"), type="end_turn", player=ANN)
    s = act(s, type="flip_cup", slot="2", tile="cup")
    v = view(s)
    assert (v["phase"], v["finished"], v["winners"]) == ("over", True, [ANN])
    assert GAME.outcome(s).winners == (ANN,)
    refused(s, "TW-END-2", type="roll", value=3)
    refused(s, "TW-END-2", type="swap_hand", player=BOB)
    assert GAME.legal_actions(s) == [] and GAME.chance(s) is None


def test_no_other_end():
    """TW-END-3: many turns without a Cup flip: the game goes on, with no score."""
    s = start(arrange(3))
    for _ in range(12):
        name = view(s)["active"]
        s = start(finish_turn(move(roll(s, 1), name, []), name))
    v = view(s)
    assert (v["finished"], v["winners"], v["turn"]) == (False, [], 13)
    assert GAME.outcome(s).scores == {}


def test_turn_owner_and_seats_in_two_player_game():
    """TW-COMP-12, TW-TURN-9: with 2 players the right-hand neighbour is the only opponent: when
    Bob loses, Ann pushes him back."""
    s = start(
        arrange(
            pieces={BOB: "K4"},
            hands={BOB: A_HAND},
            lineup=default_lineup(O_ORANGE_6_1),
            active=BOB,
        )
    )
    s = act(move(roll(s, 1), BOB, ["K5"]), type="no_match", player=BOB)
    assert view(s)["push_back"]["by"] == ANN
    s = act(s, type="push_back", player=ANN, path=["K4"])
    assert where(s, BOB) == "K4"
