"""Triwizard components, player counts and set-up (spec sections 1 and 2.1, TW-COMP, TW-SETUP),
from a new game through the deal and the choice of the first player."""

from __future__ import annotations

from collections import Counter

import pytest
from tw_support import (
    ANN,
    BOARD,
    BOB,
    CID,
    DATA,
    GAME,
    NAMES,
    K,
    act,
    arrange,
    awaiting,
    counts,
    phase,
    refused,
    roll,
    view,
)

from companion.rules import EVERYTHING, TABLE, Refusal, SetupError
from companion.rules.api import UNKNOWN_PLAYER

CUP_TILES = ["cup", "headstone-1", "headstone-2", "headstone-3"]
KINDS = {
    "dumbledore",
    "double_die",
    "four_point",
    "cloak",
    "red_sparks",
    "reductor",
    "summon_hedge",
    "veritaserum",
}


def new(n: int = 2, seed: int = 3):
    return GAME.new(NAMES[:n], {"data_set": K}, seed=seed)


def dealt(n: int = 2, seed: int = 3):
    """A new game confirmed placed and dealt from its own samples: first_player is next."""
    s = act(new(n, seed), type="placed", player=ANN)
    for _ in range(60):
        if phase(s) != "deal":
            break
        s = act(s, **GAME.sample(s))
    return s


def test_components_of_the_data_set():
    """TW-COMP-1, TW-COMP-2, TW-COMP-3, TW-COMP-4, TW-COMP-5, TW-COMP-6, TW-COMP-7, TW-COMP-8,
    TW-COMP-9: a board, 4 Cup Tile Spaces, 40 Battle Cards, 20 Obstacle Cards, 36 Resource
    Tiles of the 8 kinds, a six-faced die with the Cloak, one Cloak and one Wandering Hedge."""
    assert BOARD["entrance"] == "K0" and len(BOARD["cup_slots"]) == 4
    assert (len(DATA["battle"]), len(DATA["obstacles"]), len(DATA["tiles"])) == (40, 20, 36)
    assert {t["kind"] for t in DATA["tiles"].values()} == KINDS
    v = view(new(4), TABLE)
    assert len(v["die"]) == 6 and "cloak" in v["die"]
    assert sorted(p["piece"] for p in v["players"].values()) == [1, 2, 3, 4]
    assert v["cloak"] is None and v["hedge"] == BOARD["hedge_home"]
    assert len(v["cups"]) == 4 and all(c["face_up"] is None for c in v["cups"])
    assert [c["space"] for c in v["cups"]] == [BOARD["cup_slots"][str(n)] for n in range(1, 5)]
    assert counts(new(4)) == (40, 36, 20)


@pytest.mark.parametrize("n", [0, 1, 5])
def test_two_to_four_players(n):
    """TW-COMP-10: 2 to 4 players; 1 or 5 are refused at the start."""
    with pytest.raises(SetupError):
        GAME.new(["Ann", "Bob", "Cid", "Dee", "Eve"][:n], {"data_set": K}, seed=1)


@pytest.mark.parametrize(
    "n, battle, tiles",
    [(2, 32, 32), (3, 28, 30), (4, 24, 28)],
)
def test_deal_counts_per_player_count(n, battle, tiles):
    """TW-COMP-11, TW-SETUP-6, TW-SETUP-8, TW-SETUP-9, TW-RES-1: 4 Battle Cards and 2 Resource
    Tiles each; the piles keep the rest; 16 Obstacle Cards stay after the Lineup of 4."""
    s = dealt(n)
    v = view(s, EVERYTHING)
    assert v["phase"] == "first_player"
    p = v["piles"]
    assert (p["battle"], p["tiles"], p["obstacles"]) == (battle, tiles, 16)
    assert (p["battle_discard"], p["tiles_discard"], p["obstacles_discard"]) == (0, 0, 0)
    for name in NAMES[:n]:
        assert (v["players"][name]["hand_count"], v["players"][name]["tile_count"]) == (4, 2)
    assert [e["position"] for e in v["lineup"]] == [1, 2, 3, 4]
    assert all(e["face_up"] and e["card"] for e in v["lineup"]) and v["current"] == 1
    assert counts(s) == (40, 36, 20)


def test_setup_places_everything_without_scanning_cups():
    """TW-SETUP-1, TW-SETUP-2, TW-SETUP-3, TW-SETUP-4, TW-SETUP-5, TW-AMB-7, TW-AMB-31,
    TW-HEDGE-1: a new game waits in setup; every piece is on the Entrance, the Cloak beside the
    board, the Cup Tiles face down and unknown, the Wandering Hedge on its home; confirming the
    placing starts the deal."""
    s = new(3)
    v = view(s, EVERYTHING)
    assert v["phase"] == "setup" and v["turn"] == 0
    assert {p["space"] for p in v["players"].values()} == {"K0"}
    assert v["cloak"] is None and v["hedge"] == BOARD["hedge_home"]
    assert all(c["face_up"] is None and c["peeked"] is None for c in v["cups"])
    assert s["cups"] == {"1": None, "2": None, "3": None, "4": None} and s["peeks"] == []
    refused(s, UNKNOWN_PLAYER, type="placed", player="Zed")
    s = act(s, type="placed", player=BOB)
    assert phase(s) == "deal" and awaiting(s) is not None


def test_deal_order_battle_cards_tiles_and_lineup():
    """TW-SETUP-6, TW-SETUP-7, TW-SETUP-8, TW-SETUP-9: the deal asks for 4 Battle Cards per seat
    clockwise from seat 0, 2 Resource Tiles per seat and 4 Lineup cards; an Obstacle Card is not
    a Battle Card and the reverse."""
    s = act(new(3), type="placed", player=ANN)
    asked = []
    for _ in range(60):
        if phase(s) != "deal":
            break
        a = awaiting(s)
        asked.append((a["kind"], a.get("player")))
        if a["kind"] == "card":
            obstacle = sorted(DATA["obstacles"])[0]
            assert isinstance(
                GAME.apply(s, {"type": "draw_card", "player": a["player"], "card": obstacle}),
                Refusal,
            )
        if a["kind"] == "obstacle":
            battle = sorted(DATA["battle"])[0]
            assert isinstance(GAME.apply(s, {"type": "reveal_obstacle", "card": battle}), Refusal)
        s = act(s, **GAME.sample(s))
    cards = [p for kind, p in asked if kind == "card"]
    assert cards == [ANN] * 4 + [BOB] * 4 + [CID] * 4
    assert Counter(p for kind, p in asked if kind == "tile") == {ANN: 2, BOB: 2, CID: 2}
    assert sum(kind == "obstacle" for kind, _ in asked) == 4


def test_first_player_named():
    """TW-SETUP-10, TW-AMB-25: the phone names who shouted first; that player starts."""
    s = dealt(3)
    s = act(s, type="first", player=BOB)
    v = view(s)
    assert v["active"] == BOB and v["phase"] in ("draw", "open") and v["turn"] == 1


def test_first_player_tie_roll():
    """TW-SETUP-10, TW-AMB-25: a tie is rolled off; the Cloak counts 0; a tie rolls again; the
    highest starts and play goes clockwise from there."""
    s = dealt(3)
    s = act(s, type="tie", players=[ANN, CID])
    assert (awaiting(s)["kind"], awaiting(s)["why"]) == ("die", "tie")
    s = roll(roll(s, 3), 3)
    assert phase(s) == "first_player" and awaiting(s)["why"] == "tie"
    s = roll(roll(s, 1), "cloak")
    assert view(s)["active"] == ANN
    s2 = roll(roll(act(dealt(3), type="tie", players=[ANN, CID]), 2), 5)
    assert view(s2)["active"] == CID


def test_arranged_start_keeps_the_counts():
    """TW-COMP-4, TW-COMP-6, TW-COMP-8: an arranged position takes its cards from the piles."""
    s = arrange(3)
    assert counts(s) == (40, 36, 20)
    v = view(s)
    assert v["piles"]["obstacles"] == 16 and v["piles"]["battle"] == 40 - 12
