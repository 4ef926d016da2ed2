"""The Triwizard spec's worked examples (section 5, EX-TW-1..13) on the Corridor K data set.

Each test starts from an arranged position (the option ``scenario``) and plays the example
through ``apply``, naming the chance steps (rolls, draws, flips) as the table would report them.
"""

from __future__ import annotations

import pytest
from tw_support import (
    ANN,
    BLUE_2_4,
    BLUE_5_3,
    BOARD,
    BOB,
    CID,
    DATA,
    DEE,
    GAME,
    GREEN_1_5,
    GREEN_4_2,
    O_BLUE_9_1,
    O_ORANGE_6_1,
    O_RED_ORANGE_8_2,
    RED_5_3,
    act,
    arrange,
    awaiting,
    counts,
    cup_slot,
    default_lineup,
    draw_tiles,
    finish_turn,
    hand,
    headstone,
    is_path,
    line,
    lineup,
    move,
    phase,
    refill,
    refused,
    roll,
    route,
    start,
    tile_count,
    tile_of,
    tiles_of,
    view,
    where,
)

from companion.rules import EVERYTHING

A_HAND = [RED_5_3, BLUE_2_4, GREEN_4_2, GREEN_1_5]


def test_ex_tw_1_movement_allowance():
    """EX-TW-1, TW-TURN-2, TW-MOVE-1: a roll of 4 allows 0 to 8 steps; 9 steps are refused."""
    s = start(arrange(pieces={ANN: "K6"}))
    s = roll(s, 4)
    v = view(s, ANN)
    assert (v["phase"], v["turn_state"]["roll"], v["turn_state"]["allowance"]) == ("moving", 4, 8)
    reach = {r["space"]: r["steps"] for r in v["reach"]}
    assert reach["K14"] == 8 and "K15" not in reach
    refused(s, "TW-MOVE-1", type="move", player=ANN, path=line(6, 15))
    after = move(s, ANN, line(6, 14))
    assert where(after, ANN) == "K14" and phase(after) == "post"
    stay = move(s, ANN, [])
    assert where(stay, ANN) == "K6" and phase(stay) == "post"


def test_ex_tw_2_battle_won_on_an_exact_tie():
    """EX-TW-2, TW-MOVE-7, TW-BCARD-5, TW-BATTLE-4, TW-BATTLE-WIN-1, TW-BATTLE-WIN-2,
    TW-OCARD-2, TW-OCARD-3, TW-AMB-9: 5+3 = 8 beats strength 8; A advances 3 to K8, draws the
    reward of 2, then 1 for the Gold Mist; O1 turns face down and O2 is current."""
    four = tile_of("four_point")
    s = start(
        arrange(
            pieces={ANN: "K3"},
            hands={ANN: A_HAND},
            tiles={ANN: [four]},
            lineup=default_lineup(O_RED_ORANGE_8_2),
        )
    )
    s = move(roll(s, 2), ANN, ["K4", "K5"])
    v = view(s)
    assert (v["phase"], where(s, ANN), v["current"]) == ("battle_select", "K5", 1)
    assert v["fight"]["player"] == ANN and v["fight"]["obstacle"]["card"] == O_RED_ORANGE_8_2
    s = act(s, type="play_card", player=ANN, card=RED_5_3)
    assert phase(s) == "battle_roll" and len(hand(s, ANN)) == 3
    s = roll(s, 3)
    v = view(s)
    assert (v["fight"]["total"], v["fight"]["strength"], v["fight"]["result"]) == (8, 8, "won")
    assert v["phase"] == "advance" and v["advance"] == {"max": 3}
    s = act(s, type="advance", player=ANN, path=line(5, 8))
    assert where(s, ANN) == "K8"
    s = draw_tiles(s, ANN, 2)
    assert tile_count(s, ANN) == 3
    assert [up for _, up in lineup(s)] == [False, True, True, True]
    # face down, the card stays in L1 (the views do not name a face-down card)
    assert s["obstacle_pile"]["lineup"][0] == {"card": O_RED_ORANGE_8_2, "up": False}
    assert view(s)["current"] == 2
    assert view(s)["piles"]["battle_discard"] == 1 and RED_5_3 not in hand(s, ANN)
    s = draw_tiles(s, ANN, 1)  # the Gold Mist at the advance's end (TW-AMB-9)
    v = view(s, ANN)
    assert (v["phase"], v["players"][ANN]["tile_count"]) == ("post", 4)
    assert v["turn_state"]["tile_played"] is False and v["turn_state"]["card_played"] is True
    assert any(a["type"] == "play_tile" for a in GAME.legal_actions(s))


def test_ex_tw_3_battle_lost_after_double_die():
    """EX-TW-3, TW-BATTLE-4, TW-BATTLE-5, TW-RES-DDIE-1, TW-AMB-15, TW-BATTLE-LOSE-1,
    TW-TURN-9, TW-TURN-4: Blue S5 rolls the Cloak (0) then 2 with Double Die: 7 < 9. D, A's
    right-hand neighbour, pushes A back 3 to K2; O2 stays current; no second tile."""
    ddie, four = tile_of("double_die"), tile_of("four_point")
    s = start(
        arrange(
            4,
            pieces={ANN: "K4"},
            hands={ANN: [BLUE_5_3, RED_5_3, GREEN_4_2, GREEN_1_5]},
            tiles={ANN: [ddie, four]},
            lineup=[{"card": O_RED_ORANGE_8_2, "up": False}, *default_lineup(O_BLUE_9_1)[:3]],
        )
    )
    s = move(roll(s, 1), ANN, ["K5"])
    assert view(s)["current"] == 2 and phase(s) == "battle_select"
    s = act(s, type="play_card", player=ANN, card=BLUE_5_3)
    s = roll(s, "cloak")
    v = view(s)
    assert (v["phase"], v["fight"]["rolls"], v["fight"]["total"]) == ("battle_short", ["cloak"], 5)
    s = act(s, type="play_tile", player=ANN, tile=ddie)
    assert phase(s) == "battle_reroll"
    s = roll(s, 2)
    v = view(s)
    assert (v["fight"]["total"], v["fight"]["result"], v["phase"]) == (7, "lost", "push_back")
    assert v["push_back"] == {"by": DEE, "max": 3, "from": "K5"}
    refused(s, "TW-BATTLE-LOSE-1", type="push_back", player=BOB, path=line(5, 2))
    s = act(s, type="push_back", player=DEE, path=line(5, 2))
    v = view(s)
    assert (where(s, ANN), v["phase"], v["current"]) == ("K2", "post", 2)
    assert lineup(s)[1] == (O_BLUE_9_1, True)
    assert (v["piles"]["battle_discard"], v["piles"]["tiles_discard"]) == (1, 1)
    assert BLUE_5_3 not in hand(s, ANN) and tile_count(s, ANN) == 1
    refused(s, ("TW-TURN-4", "TW-RES-5"), type="play_tile", player=ANN, tile=four, slot="1")


def test_ex_tw_4_automatic_loss():
    """EX-TW-4, TW-BATTLE-2, TW-BATTLE-LOSE-2, TW-AMB-11, TW-COMP-12: no orange card, so no
    roll; the other player (A's right-hand neighbour) pushes A back 4 to K1; no card is
    discarded and the obstacle stays face up."""
    s = start(arrange(pieces={ANN: "K3"}, hands={ANN: A_HAND}, lineup=default_lineup(O_ORANGE_6_1)))
    s = move(roll(s, 1), ANN, ["K4", "K5"])
    s = act(s, type="no_match", player=ANN)
    v = view(s)
    assert (v["phase"], v["awaiting"], v["push_back"]) == (
        "push_back",
        None,
        {"by": BOB, "max": 4, "from": "K5"},
    )
    s = act(s, type="push_back", player=BOB, path=line(5, 1))
    v = view(s)
    assert where(s, ANN) == "K1" and sorted(hand(s, ANN)) == sorted(A_HAND)
    assert v["piles"]["battle_discard"] == 0 and lineup(s)[0] == (O_ORANGE_6_1, True)


def _stock(s, name: str, colours: list[str], strongest: bool = True) -> str | None:
    """The strongest card of the hand matching one of ``colours``."""
    cards = [c for c in hand(s, name) if DATA["battle"][c]["colour"] in colours]
    return max(cards, key=lambda c: DATA["battle"][c]["strength"]) if cards else None


def _reveal_weakest(s):
    """Resolve pending Lineup reveals with the weakest obstacle left in the pile."""
    while awaiting(s) is not None and awaiting(s)["kind"] == "obstacle":
        pile = s["obstacle_pile"]["deck"] or s["obstacle_pile"]["discard"]
        card = min(pile, key=lambda o: (DATA["obstacles"][o]["strength"], o))
        s = act(s, type="reveal_obstacle", card=card)
    return s


def _refill_for(s, name: str, colours: list[str]):
    """Resolve the refill drawing the strongest cards of ``colours`` still in the deck."""
    while phase(s) == "draw":
        deck = s["battle_pile"]["deck"] or s["battle_pile"]["discard"]
        fit = [c for c in deck if DATA["battle"][c]["colour"] in colours] or deck
        card = max(fit, key=lambda c: (DATA["battle"][c]["strength"], c))
        s = act(s, type="draw_card", player=name, card=card)
    return s


def _strongest(colour: str) -> str:
    return max(
        (c for c, card in DATA["battle"].items() if card["colour"] == colour),
        key=lambda c: (DATA["battle"][c]["strength"], c),
    )


def _win_current(s, there: str, back: str):
    """Ann steps from ``there`` onto K5, beats the current obstacle (5s and Double Dice) and
    advances to ``back``; the reward draws are Double Dice while the deck holds them."""
    ob = DATA["obstacles"][view(s)["lineup"][view(s)["current"] - 1]["card"]]
    s = _refill_for(s, ANN, ob["colours"])
    assert where(s, ANN) == there and phase(s) == "open"
    s = move(roll(s, 1), ANN, ["K5"])
    card = _stock(s, ANN, ob["colours"])
    assert card is not None, ("no matching card", ob)
    s = roll(act(s, type="play_card", player=ANN, card=card), 5)
    if phase(s) == "battle_short":
        ddie = next(t for t in s["tiles"][0] if DATA["tiles"][t]["kind"] == "double_die")
        s = roll(act(s, type="play_tile", player=ANN, tile=ddie), 5)
    assert phase(s) == "advance", ("the battle was lost", ob, card)
    s = act(s, type="advance", player=ANN, path=[back])
    for _ in range(20):
        interrupt = view(s)["interrupt"]
        if interrupt and interrupt["kind"] == "overflow":
            spare = [t for t in s["tiles"][0] if DATA["tiles"][t]["kind"] != "double_die"]
            s = act(s, type="discard_tile", player=ANN, tile=(spare or s["tiles"][0])[0])
        elif awaiting(s) is not None and awaiting(s)["kind"] == "obstacle":
            s = _reveal_weakest(s)
        elif awaiting(s) is not None and awaiting(s)["kind"] == "tile":
            deck = s["tile_pile"]["deck"]
            ddice = [t for t in deck if DATA["tiles"][t]["kind"] == "double_die"]
            chosen = (ddice or deck)[0] if deck else GAME.sample(s)["tile"]
            s = act(s, type="draw_tile", player=ANN, tile=chosen)
        else:
            break
    assert phase(s) == "post", (phase(s), awaiting(s), view(s)["interrupt"], view(s)["piles"])
    s = finish_turn(s, ANN)
    return act(move(roll(s, 1), BOB, []), type="end_turn", player=BOB)


@pytest.mark.slow
def test_ex_tw_5_lineup_refresh_and_reshuffle():
    """EX-TW-5, TW-OCARD-3, TW-OCARD-4, TW-AMB-23, TW-COMP-6, TW-COMP-11: the Lineup's cards are
    beaten one by one and turn face down; when L4 falls the 4 go to the discard and 4 new are
    laid out (pile 16, 12, ... 0); when the fifth Lineup is cleared the 20 discarded cards are
    shuffled into a new pile: 16 and 0."""
    ddice = tiles_of("double_die")[:3]
    weakest = sorted(DATA["obstacles"], key=lambda o: (DATA["obstacles"][o]["strength"], o))
    s = refill(
        arrange(
            pieces={ANN: "K4", BOB: "K20"},
            hands={ANN: [_strongest(colour) for colour in ("red", "blue", "orange", "green")]},
            tiles={ANN: ddice},
            lineup=weakest[:4],
        ),
        ANN,
    )
    piles = view(s)["piles"]
    assert (piles["obstacles"], piles["obstacles_discard"]) == (16, 0)
    assert view(s)["current"] == 1 and phase(s) == "open"
    sides = ["K4", "K6"]
    history, lineups = [], []
    for n in range(20):
        s = _win_current(s, sides[n % 2], sides[(n + 1) % 2])
        piles = view(s)["piles"]
        history.append((piles["obstacles"], piles["obstacles_discard"]))
        lineups.append([up for _, up in lineup(s)])
    assert lineups[:4] == [
        [False, True, True, True],
        [False, False, True, True],
        [False, False, False, True],
        [True, True, True, True],
    ]
    assert history[:4] == [(16, 0), (16, 0), (16, 0), (12, 4)]
    assert [history[n] for n in (7, 11, 15)] == [(8, 8), (4, 12), (0, 16)]
    assert history[19] == (16, 0) and lineups[19] == [True] * 4
    assert counts(s) == (40, 36, 20)


def test_ex_tw_6_cloak_roll_and_cloaked_move():
    """EX-TW-6, TW-TURN-3, TW-MOVE-10, TW-CLOAK-5, TW-CLOAK-1, TW-MIST-2: the Cloak face gives
    no move; C already wears the Cloak, so it goes to A; next turn A passes K5 and stops on the
    Gold Mist K8 without drawing."""
    s = start(arrange(3, pieces={ANN: "K2"}, cloak=CID, tiles={ANN: [tile_of("four_point")]}))
    s = roll(s, "cloak")
    v = view(s)
    assert (v["phase"], v["turn_state"]["allowance"], where(s, ANN)) == ("cloak_place", 0, "K2")
    refused(s, "TW-CLOAK-5", type="place_cloak", player=ANN, on=CID)
    s = act(s, type="place_cloak", player=ANN, on=ANN)
    v = view(s)
    assert (v["cloak"], v["phase"]) == (ANN, "post")
    assert v["players"][ANN]["cloaked"] and not v["players"][CID]["cloaked"]
    s = finish_turn(s, ANN)
    for name in (BOB, CID):
        s = finish_turn(move(roll(s, 1), name, []), name)
    s = start(s)
    s = move(roll(s, 5), ANN, line(2, 8))
    v = view(s)
    assert (where(s, ANN), v["phase"], v["awaiting"], v["fight"]) == ("K8", "post", None, None)
    assert tile_count(s, ANN) == 1


@pytest.mark.parametrize("face", [3, 4, "cloak"])
def test_ex_tw_7_removing_the_cloak(face):
    """EX-TW-7, TW-CLOAK-6, TW-CLOAK-7, TW-TURN-8, TW-TURN-1: A refills to 4, tries to remove the
    Cloak; an odd roll (3) removes it and A puts it on B (not A); 4 or the Cloak face leave it
    on A; the turn ends either way, with no move and no tile."""
    s = arrange(pieces={ANN: "K2"}, cloak=ANN, hands={ANN: A_HAND[:3]})
    assert phase(s) == "draw" and awaiting(s)["player"] == ANN
    s = refill(s, ANN, GREEN_1_5 if GREEN_1_5 not in A_HAND[:3] else BLUE_5_3)
    assert phase(s) == "open" and len(hand(s, ANN)) == 4
    s = act(s, type="remove_cloak", player=ANN)
    assert phase(s) == "removal_roll"
    refused(s, None, type="move", player=ANN, path=["K3"])  # strict: the rules tests
    s = roll(s, face)
    if face == 3:
        assert phase(s) == "removal_place"
        refused(s, "TW-CLOAK-7", type="place_cloak", player=ANN, on=ANN)
        aside = act(s, type="place_cloak", player=ANN, on=None)
        assert view(aside)["cloak"] is None
        s = act(s, type="place_cloak", player=ANN, on=BOB)
        assert view(s)["cloak"] == BOB
    else:
        assert view(s)["cloak"] == ANN
    v = view(s)
    assert v["active"] == BOB and where(s, ANN) == "K2"
    assert v["players"][ANN]["hand_count"] == 4


@pytest.mark.parametrize("counter", [True, False])
def test_ex_tw_8_dumbledore_and_its_counter(counter):
    """EX-TW-8, TW-RES-DUMB-1, TW-RES-DUMB-2, TW-RES-DUMB-3, TW-CLOAK-8, TW-CLOAK-9, TW-PEN-1,
    TW-RES-5: B's Dumbledore against cloaked A at K14; A's counter discards both and A keeps
    the Cloak; if A declines, the Cloak goes aside and A moves to the empty Penalty Space K12.
    Either way B has played the turn's tile."""
    dumb_b, dumb_a = tiles_of("dumbledore")[:2]
    four = tile_of("four_point")
    s = start(
        arrange(
            pieces={ANN: "K14"},
            cloak=ANN,
            active=BOB,
            tiles={ANN: [dumb_a], BOB: [dumb_b, four]},
        )
    )
    s = act(s, type="play_tile", player=BOB, tile=dumb_b, target=ANN)
    v = view(s)
    assert v["phase"] == "open" and v["interrupt"]["kind"] == "dumbledore"
    assert v["interrupt"]["player"] == ANN
    if counter:
        s = act(s, type="counter", player=ANN, tile=dumb_a)
        assert (view(s)["cloak"], where(s, ANN)) == (ANN, "K14")
        assert view(s)["piles"]["tiles_discard"] == 2 and tile_count(s, ANN) == 0
    else:
        s = act(s, type="decline", player=ANN)
        assert (view(s)["cloak"], where(s, ANN)) == (None, "K12")
        assert view(s)["piles"]["tiles_discard"] == 1 and tile_count(s, ANN) == 1
    v = view(s)
    assert (v["interrupt"], v["turn_state"]["tile_played"]) == (None, True)
    refused(s, ("TW-TURN-4", "TW-RES-5"), type="play_tile", player=BOB, tile=four, slot="1")


def test_ex_tw_9_resource_limit():
    """EX-TW-9, TW-RES-2, TW-AMB-28, TW-BATTLE-WIN-2: 5 tiles and a reward of 2 make 7: the
    overflow interrupt asks A to discard one of A's choice, back to 6."""
    five = [tile_of(k) for k in ("four_point", "cloak", "red_sparks", "summon_hedge")]
    five.append(tile_of("veritaserum"))
    s = start(
        arrange(
            pieces={ANN: "K4"},
            hands={ANN: A_HAND},
            tiles={ANN: five},
            lineup=default_lineup(O_RED_ORANGE_8_2),
        )
    )
    s = move(roll(s, 1), ANN, ["K5"])
    s = roll(act(s, type="play_card", player=ANN, card=RED_5_3), 5)
    s = act(s, type="advance", player=ANN, path=["K6"])
    s = draw_tiles(s, ANN, 2)
    v = view(s, ANN)
    assert v["players"][ANN]["tile_count"] == 7
    assert v["interrupt"]["kind"] == "overflow" and v["interrupt"]["player"] == ANN
    refused(s, ("TW-RES-2", "TW-TURN-6"), type="end_turn", player=ANN)
    other = tile_of("dumbledore", 3)
    refused(s, "TW-RES-2", type="discard_tile", player=ANN, tile=other)
    s = act(s, type="discard_tile", player=ANN, tile=five[2])
    v = view(s, ANN)
    assert v["players"][ANN]["tile_count"] == 6 and v["interrupt"] is None
    assert five[2] not in [t["tile"] for t in v["players"][ANN]["tiles"]]
    assert v["piles"]["tiles_discard"] == 1


@pytest.mark.parametrize("variant", ["travel", "partner_taken", "cloaked"])
def test_ex_tw_10_portkeys(variant):
    """EX-TW-10, TW-PORT-1, TW-PORT-2, TW-PORT-3, TW-PORT-4, TW-CLOAK-2: A ends on K10 and
    travels to K18 and stops; not when B stands on K18; not when A is cloaked."""
    assert BOARD["portkeys"]["K10"] == "K18" and BOARD["portkeys"]["K18"] == "K10"
    pieces = {ANN: "K8", BOB: "K18" if variant == "partner_taken" else "K0"}
    s = start(arrange(pieces=pieces, cloak=ANN if variant == "cloaked" else None))
    s = move(roll(s, 1), ANN, ["K9", "K10"])
    assert where(s, ANN) == ("K18" if variant == "travel" else "K10")
    assert phase(s) == "post"


def test_ex_tw_11_cup_tiles():
    """EX-TW-11, TW-CUP-2, TW-HEAD-1, TW-HEAD-2, TW-HEAD-3, TW-AMB-4, TW-AMB-6, TW-END-2,
    TW-END-1, TW-TURN-5: A flips C1 (Headstone 2) and goes to K15, the tile stays face up and
    A's turn ends; B stops on C1 and is sent to K15, which A holds, so B picks the next free
    space; C flips C3, the real Cup, and wins."""
    c1, c3 = cup_slot(1), cup_slot(3)
    assert headstone(2) == "K15"
    s = start(arrange(3, pieces={ANN: "K20", BOB: "K19", CID: "K17"}))
    s = move(roll(s, 1), ANN, route("K20", c1))
    v = view(s)
    assert (v["phase"], v["awaiting"]["kind"]) == ("flip", "cup")
    s = act(s, type="flip_cup", slot="1", tile="headstone-2")
    v = view(s)
    assert where(s, ANN) == "K15" and v["cups"][0]["face_up"] == "headstone-2"
    assert v["cups"][0]["space"] == c1 and v["active"] == BOB
    s = start(s)
    path = route("K19", c1)
    s = move(roll(s, (len(path) + 1) // 2), BOB, path)
    v = view(s)
    assert v["interrupt"]["kind"] == "choose" and v["interrupt"]["player"] == BOB
    offered = set(v["interrupt"]["options"])
    assert offered == {"K14", "K16"}
    s = act(s, type="choose", player=BOB, space="K16")
    assert (where(s, BOB), where(s, ANN), phase(s)) == ("K16", "K15", "post")
    s = start(finish_turn(s, BOB))
    path = route("K17", c3)
    s = move(roll(s, (len(path) + 1) // 2), CID, path)
    s = act(s, type="flip_cup", slot="3", tile="cup")
    v = view(s)
    assert (v["phase"], v["finished"], v["winners"]) == ("over", True, [CID])
    assert v["cups"][2]["face_up"] == "cup"
    refused(s, "TW-END-2", type="end_turn", player=CID)


def test_ex_tw_12_swapping_the_hand():
    """EX-TW-12, TW-TURN-7, TW-TURN-1: A refills to 4, swaps: 4 discarded, 4 drawn, the turn
    ends; a roll meanwhile is refused."""
    s = arrange(hands={ANN: A_HAND[:3]})
    s = refill(s, ANN, BLUE_5_3)
    s = act(s, type="swap_hand", player=ANN)
    v = view(s)
    assert (v["phase"], v["piles"]["battle_discard"], v["players"][ANN]["hand_count"]) == (
        "swap",
        4,
        0,
    )
    assert v["awaiting"]["kind"] == "card" and v["awaiting"]["player"] == ANN
    refused(s, "TW-TURN-7", type="roll", player=ANN, value=3)
    for _ in range(4):
        s = act(s, **GAME.sample(s))
    v = view(s)
    assert v["players"][ANN]["hand_count"] == 4 and v["active"] == BOB
    assert not set(hand(s, ANN)) & set(A_HAND + [BLUE_5_3])


def _hedge_line():
    """P0, P1, H, P2 on Corridor K: a Green Hedge cell H between the Path cells P1 and P2 in a
    straight line, and P0 a Path cell beside P1 (in line when the board has one)."""
    spaces, at = BOARD["spaces"], BOARD["at"]
    for h, cell in sorted(spaces.items()):
        if cell["kind"] != "green_hedge":
            continue
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            p1 = at.get(f"{cell['x'] - dx},{cell['y'] - dy}")
            p2 = at.get(f"{cell['x'] + dx},{cell['y'] + dy}")
            if not (p1 and p2 and is_path(p1) and is_path(p2)):
                continue
            behind = at.get(f"{cell['x'] - 2 * dx},{cell['y'] - 2 * dy}")
            around = [n for n in BOARD["neighbours"][p1] if is_path(n)]
            p0 = (
                behind
                if behind in around
                else next((n for n in around if spaces[n]["feature"] is None), None)
            )
            if p0:
                return p0, p1, h, p2
    raise AssertionError("Corridor K has no Path-Green Hedge-Path line for EX-TW-13")


@pytest.mark.parametrize("value", [1, 2])
def test_ex_tw_13_reductor_curse(value):
    """EX-TW-13, TW-RES-REDUCT-1, TW-RES-REDUCT-4, TW-RES-REDUCT-5, TW-MOVE-4, TW-AMB-20: with
    allowance 2 the crossing would end on the hedge: refused, A keeps the tile; with 4, P1, H,
    P2 in a straight line is legal and the tile is spent."""
    p0, p1, h, p2 = _hedge_line()
    reductor = tile_of("reductor")
    s = start(arrange(pieces={ANN: p0}, tiles={ANN: [reductor]}))
    s = roll(s, value)
    refused(s, "TW-MOVE-4", type="move", player=ANN, path=[p1, h, p2])
    if value == 1:
        refused(s, "TW-RES-REDUCT-4", type="move", player=ANN, path=[p1, h], reductor=reductor)
        refused(s, "TW-MOVE-1", type="move", player=ANN, path=[p1, h, p2], reductor=reductor)
        assert tile_count(s, ANN) == 1 and view(s)["turn_state"]["tile_played"] is False
        return
    s = move(s, ANN, [p1, h, p2], reductor=reductor)
    v = view(s, EVERYTHING)
    assert where(s, ANN) == p2 and v["players"][ANN]["tile_count"] == 0
    assert v["turn_state"]["tile_played"] is True and v["piles"]["tiles_discard"] == 1
