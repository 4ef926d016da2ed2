"""Triwizard obstacles and battles (spec sections 2.4 Obstacle Spaces, 2.5 and 2.6): TW-OBST,
TW-BCARD, TW-OCARD, TW-BATTLE, TW-BATTLE-WIN, TW-BATTLE-LOSE, with TW-AMB-9, 10, 11 and 34."""

from __future__ import annotations

from tw_support import (
    ANN,
    BLUE_2_4,
    BLUE_5_3,
    BOB,
    CID,
    GAME,
    GREEN_1_5,
    GREEN_4_2,
    O_ORANGE_6_1,
    O_RED_ORANGE_8_2,
    RED_5_3,
    act,
    arrange,
    awaiting,
    counts,
    default_lineup,
    draw_tiles,
    hand,
    lineup,
    move,
    phase,
    refused,
    roll,
    start,
    tile_count,
    tile_of,
    view,
    where,
)

from companion.rules import TABLE

A_HAND = [RED_5_3, BLUE_2_4, GREEN_4_2, GREEN_1_5]


def fight(first: str = O_RED_ORANGE_8_2, n: int = 2, **more):
    """Ann has just entered K5 from K4 against ``first`` (L1): battle_select."""
    more.setdefault("hands", {ANN: A_HAND})
    pieces = {ANN: "K4", **more.pop("pieces", {})}
    s = start(arrange(n, pieces=pieces, lineup=default_lineup(first), **more))
    s = move(roll(s, 1), ANN, ["K5"])
    assert phase(s) == "battle_select"
    return s


def won(s, card: str = RED_5_3, value: int = 5):
    s = roll(act(s, type="play_card", player=ANN, card=card), value)
    assert phase(s) == "advance"
    return s


def test_battle_card_anatomy_and_privacy():
    """TW-BCARD-1, TW-BCARD-2: each card has a colour, Spell Strength and Movement Rating; the
    owner sees them, the table only the count."""
    s = start(arrange(hands={ANN: A_HAND}))
    mine = {c["card"]: c for c in view(s, ANN)["players"][ANN]["hand"]}
    assert mine[RED_5_3] == {"card": RED_5_3, "colour": "red", "strength": 5, "movement": 3}
    assert view(s, TABLE)["players"][ANN]["hand"] is None
    assert view(s, BOB)["players"][ANN]["hand"] is None
    assert view(s, TABLE)["players"][ANN]["hand_count"] == 4


def test_obstacle_card_anatomy_in_the_lineup():
    """TW-OCARD-1, TW-OCARD-2: a face-up Lineup card shows colours, strength and reward to all;
    the current obstacle is the lowest face-up position."""
    s = start(arrange(lineup=[None] + default_lineup(O_RED_ORANGE_8_2)[:3]))
    v = view(s, TABLE)
    assert v["lineup"][0]["face_up"] is False and v["lineup"][0]["colours"] == []
    assert v["lineup"][0]["strength"] is None and v["lineup"][0]["reward"] is None
    e = v["lineup"][1]
    assert (e["card"], e["colours"], e["strength"], e["reward"]) == (
        O_RED_ORANGE_8_2,
        ["red", "orange"],
        8,
        2,
    )
    assert v["current"] == 2


def test_matching_colour_only():
    """TW-BCARD-5, TW-BATTLE-1: against red/orange a blue or green card is refused; a red one is
    laid face up, in the fight for everyone to see."""
    s = fight()
    refused(s, "TW-BCARD-5", type="play_card", player=ANN, card=BLUE_2_4)
    refused(s, "TW-BCARD-5", type="play_card", player=ANN, card=GREEN_1_5)
    refused(s, ("TW-BATTLE-1", "TW-BCARD-2"), type="play_card", player=ANN, card=BLUE_5_3)
    s = act(s, type="play_card", player=ANN, card=RED_5_3)
    f = view(s, TABLE)["fight"]
    assert f["card"]["card"] == RED_5_3 and f["card"]["strength"] == 5 and f["strength"] == 8


def test_no_match_is_checked_against_the_hand():
    """TW-BATTLE-2, TW-AMB-11: a no-match claim with a matching card in hand is refused; an
    honest one is an automatic loss without a roll."""
    s = fight()
    refused(s, "TW-BATTLE-2", type="no_match", player=ANN)
    s = fight(O_ORANGE_6_1)
    s = act(s, type="no_match", player=ANN)
    v = view(s)
    assert (v["phase"], v["fight"]["result"], v["awaiting"]) == ("push_back", "no_match", None)


def test_total_against_strength_ties_win():
    """TW-BATTLE-3, TW-BATTLE-4: total = strength of the card + roll; 5+3 = 8 ties strength 8
    and wins; 5+2 falls short."""
    s = act(fight(), type="play_card", player=ANN, card=RED_5_3)
    a = awaiting(s)
    assert (a["kind"], a["why"], a["player"]) == ("die", "battle", ANN)
    tie = roll(s, 3)
    assert (view(tie)["fight"]["total"], view(tie)["fight"]["result"]) == (8, "won")
    short = roll(s, 2)
    assert (view(short)["fight"]["total"], phase(short)) == (7, "battle_short")


def test_cloak_face_counts_zero_in_battle():
    """TW-BATTLE-4: the Cloak face adds 0 to the battle total."""
    s = roll(act(fight(), type="play_card", player=ANN, card=RED_5_3), "cloak")
    assert view(s)["fight"]["total"] == 5 and phase(s) == "battle_short"


def test_double_die_only_after_a_short_roll():
    """TW-BATTLE-5, TW-RES-DDIE-1, TW-AMB-15: the Double Die is refused before the first roll;
    after a short roll it adds a second roll (the Cloak counts 0); declining ends in a loss."""
    ddie = tile_of("double_die")
    s = act(fight(tiles={ANN: [ddie]}), type="play_card", player=ANN, card=RED_5_3)
    s = roll(s, 1)
    declined = act(s, type="decline", player=ANN)
    assert phase(declined) == "push_back" and tile_count(declined, ANN) == 1
    s = act(s, type="play_tile", player=ANN, tile=ddie)
    assert awaiting(s)["why"] == "reroll"
    zero = roll(s, "cloak")
    assert (view(zero)["fight"]["total"], phase(zero)) == (6, "push_back")
    s = roll(s, 2)
    assert (view(s)["fight"]["total"], view(s)["fight"]["rolls"], phase(s)) == (
        8,
        [1, 2],
        "advance",
    )


def test_double_die_refused_before_the_first_roll():
    """TW-RES-DDIE-1 (section 3.3, B_ROLL): the Double Die before the first battle roll is
    refused by TW-RES-DDIE-1."""
    ddie = tile_of("double_die")
    s = act(fight(tiles={ANN: [ddie]}), type="play_card", player=ANN, card=RED_5_3)
    refused(s, "TW-RES-DDIE-1", type="play_tile", player=ANN, tile=ddie)


def test_advance_longer_than_the_movement_rating():
    """TW-BATTLE-WIN-1 (section 3.3, B_ADVANCE): a path longer than the card's Movement Rating
    is refused by TW-BATTLE-WIN-1."""
    s = won(fight())
    refused(s, "TW-BATTLE-WIN-1", type="advance", player=ANN, path=["K6", "K7", "K8", "K9"])


def test_push_back_longer_than_k():
    """TW-BATTLE-LOSE-1, TW-BATTLE-LOSE-2 (section 3.3, B_PUSHBACK): longer than the Movement
    Rating, or than 4 after no match, is refused by those rules."""
    s = roll(act(fight(), type="play_card", player=ANN, card=RED_5_3), 1)
    s = act(s, type="decline", player=ANN)
    refused(s, "TW-BATTLE-LOSE-1", type="push_back", player=BOB, path=["K4", "K3", "K2", "K1"])
    s = act(fight(O_ORANGE_6_1), type="no_match", player=ANN)
    refused(
        s, "TW-BATTLE-LOSE-2", type="push_back", player=BOB, path=["K4", "K3", "K2", "K1", "K0"]
    )


def test_double_die_refused_after_another_tile():
    """TW-TURN-4, TW-RES-5, TW-BATTLE-5: with a tile already played this turn, the Double Die
    is refused after a short roll."""
    ddie, four = tile_of("double_die"), tile_of("four_point")
    s = start(
        arrange(
            pieces={ANN: "K4"},
            hands={ANN: A_HAND},
            tiles={ANN: [ddie, four]},
            lineup=default_lineup(O_RED_ORANGE_8_2),
        )
    )
    s = act(s, type="play_tile", player=ANN, tile=four, slot="1")
    s = act(s, **GAME.sample(s))
    s = roll(act(move(roll(s, 1), ANN, ["K5"]), type="play_card", player=ANN, card=RED_5_3), 1)
    refused(s, ("TW-TURN-4", "TW-RES-5"), type="play_tile", player=ANN, tile=ddie)


def test_win_advance_reward_lineup_discard():
    """TW-BATTLE-WIN-1, TW-BATTLE-WIN-2, TW-BATTLE-WIN-3, TW-BATTLE-WIN-4, TW-OCARD-3,
    TW-BCARD-3, TW-OBST-1: up to the card's Movement Rating forward; the reward drawn; the card
    face down in place; the Battle Card discarded."""
    s = won(fight())
    s = act(s, type="advance", player=ANN, path=["K6", "K7"])
    assert awaiting(s)["why"] == "reward"
    s = draw_tiles(s, ANN, 2)
    v = view(s)
    assert (where(s, ANN), v["phase"], tile_count(s, ANN)) == ("K7", "post", 2)
    assert lineup(s)[0] == (None, False) and v["current"] == 2
    assert s["obstacle_pile"]["lineup"][0] == {"card": O_RED_ORANGE_8_2, "up": False}
    assert v["piles"]["battle_discard"] == 1 and RED_5_3 not in hand(s, ANN)
    assert counts(s) == (40, 36, 20)


def test_advance_forward_not_back():
    """TW-AMB-9, TW-BATTLE-WIN-1: the advance's first step may not go back to the space the
    piece entered from."""
    s = won(fight())
    refused(s, ("TW-AMB-9", "TW-BATTLE-WIN-1"), type="advance", player=ANN, path=["K4"])


def test_the_cloak_clears_an_uncleared_obstacle():
    """TW-AMB-10, TW-CLOAK-1, TW-RES-CLOAK-1: a piece on an uncleared obstacle that puts the
    Cloak on itself is no longer uncleared: it may not battle, and it rolls and moves."""
    cloak = tile_of("cloak")
    s = start(
        arrange(
            pieces={ANN: "K5"},
            uncleared=[ANN],
            hands={ANN: A_HAND},
            tiles={ANN: [cloak]},
            lineup=default_lineup(O_RED_ORANGE_8_2),
        )
    )
    s = act(s, type="play_tile", player=ANN, tile=cloak, on=ANN)
    assert view(s)["players"][ANN]["uncleared"] is False
    refused(s, ("TW-CLOAK-1", "TW-OBST-3"), type="battle", player=ANN)
    s = move(roll(s, 1), ANN, ["K6"])
    assert (where(s, ANN), view(s)["fight"]) == ("K6", None)


def test_loss_short_push_back_by_movement_rating():
    """TW-BATTLE-LOSE-1, TW-BATTLE-LOSE-3, TW-BATTLE-LOSE-4, TW-OCARD-5, TW-TURN-9: a short
    total: the right-hand neighbour (Cid's is Bob) moves the piece back up to the Movement
    Rating (3); the obstacle stays face up and current; the card is discarded."""
    s = fight(n=3)
    s = roll(act(s, type="play_card", player=ANN, card=RED_5_3), 1)
    s = act(s, type="decline", player=ANN)
    v = view(s)
    assert v["push_back"] == {"by": CID, "max": 3, "from": "K5"}
    refused(s, "TW-BATTLE-LOSE-1", type="push_back", player=ANN, path=["K4"])
    refused(s, "TW-BATTLE-LOSE-1", type="push_back", player=BOB, path=["K4"])
    refused(s, ("TW-AMB-9", "TW-BATTLE-LOSE-1"), type="push_back", player=CID, path=["K6"])
    s = act(s, type="push_back", player=CID, path=["K4", "K3", "K2"])
    v = view(s)
    assert (where(s, ANN), v["current"], lineup(s)[0]) == ("K2", 1, (O_RED_ORANGE_8_2, True))
    assert v["piles"]["battle_discard"] == 1 and len(hand(s, ANN)) == 3


def test_no_match_push_back_up_to_four_keeps_the_hand():
    """TW-BATTLE-LOSE-2, TW-BATTLE-LOSE-4: no card used, nothing discarded, back up to 4."""
    s = act(fight(O_ORANGE_6_1), type="no_match", player=ANN)
    assert view(s)["push_back"]["max"] == 4
    s = act(s, type="push_back", player=BOB, path=["K4", "K3"])
    assert (where(s, ANN), view(s)["piles"]["battle_discard"], len(hand(s, ANN))) == ("K3", 0, 4)


def test_push_back_of_zero_on_the_obstacle_leaves_it_uncleared():
    """TW-OBST-3, TW-AMB-10: a 0-space push-back leaves the piece on K5, uncleared: next turn it
    must battle (no roll) right after the refill."""
    s = act(fight(O_ORANGE_6_1), type="no_match", player=ANN)
    s = act(s, type="push_back", player=BOB, path=[])
    assert where(s, ANN) == "K5" and view(s)["players"][ANN]["uncleared"] is True
    s = act(s, type="end_turn", player=ANN)
    s = start(act(move(roll(start(s), 1), BOB, []), type="end_turn", player=BOB))
    refused(s, ("TW-OBST-3", "TW-AMB-10"), type="roll", player=ANN, value=3)
    s = act(s, type="battle", player=ANN)
    assert phase(s) == "battle_select" and view(s)["fight"]["space"] == "K5"


def test_occupied_obstacle_may_be_entered_but_not_left_shared():
    """TW-AMB-10, TW-AMB-34, TW-MOVE-5: Bob stands on K5; Ann may enter it and battle; a 0-space
    advance on the shared space is refused; one step on is accepted."""
    s = fight(pieces={BOB: "K5"})
    s = won(s)
    refused(s, "TW-MOVE-5", type="advance", player=ANN, path=[])
    s = act(s, type="advance", player=ANN, path=["K6"])
    assert (where(s, ANN), where(s, BOB)) == ("K6", "K5")


def test_push_back_path_may_not_enter_an_occupied_obstacle():
    """TW-AMB-9, TW-AMB-34, TW-MOVE-5: a push-back ending on an occupied space is refused; it
    goes on to the next free space, beyond k only by the spaces skipped."""
    s = act(fight(O_ORANGE_6_1, n=2, pieces={BOB: "K1"}), type="no_match", player=ANN)
    refused(s, "TW-MOVE-5", type="push_back", player=BOB, path=["K4", "K3", "K2", "K1"])
    s = act(s, type="push_back", player=BOB, path=["K4", "K3", "K2", "K1", "K0"])
    assert where(s, ANN) == "K0"


def test_a_cloaked_piece_never_battles():
    """TW-CLOAK-1, TW-OBST-2: a cloaked piece passes K5 and stops on it without a battle."""
    s = start(arrange(pieces={ANN: "K4"}, cloak=ANN))
    through = move(roll(s, 1), ANN, ["K5", "K6"])
    assert (where(through, ANN), view(through)["fight"]) == ("K6", None)
    on = move(roll(s, 1), ANN, ["K5"])
    assert (where(on, ANN), phase(on), view(on)["fight"]) == ("K5", "post", None)
    assert view(on)["players"][ANN]["uncleared"] is False
    refused(on, ("TW-CLOAK-1", "TW-OBST-3"), type="battle", player=ANN)


def test_a_card_not_in_the_hand_is_refused():
    """TW-BATTLE-1, TW-BCARD-2: a Battle Card tapped that is not in the fighter's hand (one of
    Bob's, or one still in the pile) is refused; the hand and the fight are unchanged."""
    s = fight()
    bobs = hand(s, BOB)[0]
    refused(s, "TW-BATTLE-1", type="play_card", player=ANN, card=bobs)
    refused(s, "TW-BATTLE-1", type="play_card", player=ANN, card="red-6-4")
    assert view(s)["fight"]["card"] is None and len(hand(s, ANN)) == 4


def test_battle_by_a_cloaked_piece_is_refused():
    """TW-CLOAK-1 (section 3.3, B_*): a battle started by a cloaked piece is refused by
    TW-CLOAK-1, even on an uncleared Obstacle Space (the Cloak clears it, TW-AMB-10)."""
    s = move(roll(start(arrange(pieces={ANN: "K4"}, cloak=ANN)), 1), ANN, ["K5"])
    refused(s, "TW-CLOAK-1", type="battle", player=ANN)
