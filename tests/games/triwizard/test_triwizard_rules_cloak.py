"""Triwizard's Invisibility Cloak (spec section 2.8, table 4.5): TW-CLOAK-1..9, with TW-AMB-13,
14, 16 and 17 and the Cloak refusals of section 3.3."""

from __future__ import annotations

import pytest
from tw_support import (
    ANN,
    BOB,
    CID,
    act,
    arrange,
    awaiting,
    cup_slot,
    move,
    phase,
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

from companion.rules import TABLE


def test_cloaked_piece_ignores_obstacles():
    """TW-CLOAK-1, TW-OBST-2: a cloaked piece moves through K5 and never battles."""
    s = move(roll(start(arrange(pieces={ANN: "K3"}, cloak=ANN)), 2), ANN, ["K4", "K5", "K6"])
    assert (where(s, ANN), view(s)["fight"], phase(s)) == ("K6", None, "post")


def test_cloaked_piece_travels_by_nothing():
    """TW-CLOAK-2: no Portkey travel and no Headstone transport while cloaked."""
    s = move(roll(start(arrange(pieces={ANN: "K8"}, cloak=ANN)), 1), ANN, ["K9", "K10"])
    assert where(s, ANN) == "K10"
    s = start(arrange(pieces={ANN: "K20"}, cloak=ANN, cups={"1": "headstone-2"}))
    s = move(roll(s, 1), ANN, route("K20", cup_slot(1)))
    assert where(s, ANN) == cup_slot(1)


def test_cloaked_player_collects_no_tiles():
    """TW-CLOAK-3, TW-MIST-2, TW-AMB-17: no Gold Mist tile while cloaked."""
    s = move(roll(start(arrange(pieces={ANN: "K7"}, cloak=ANN)), 1), ANN, ["K8"])
    assert (awaiting(s), tile_count(s, ANN)) == (None, 0)


@pytest.mark.parametrize("how", ["roll", "tile"])
def test_two_ways_to_put_the_cloak_on(how):
    """TW-CLOAK-4, TW-CLOAK-5, TW-TURN-3, TW-RES-CLOAK-1: the Cloak face on the movement roll, or
    the Cloak tile; it goes on any piece on the board, the player's own included."""
    cloak = tile_of("cloak")
    s = start(arrange(3, tiles={ANN: [cloak]}))
    if how == "roll":
        s = act(roll(s, "cloak"), type="place_cloak", player=ANN, on=ANN)
    else:
        s = act(s, type="play_tile", player=ANN, tile=cloak, on=ANN)
    v = view(s, TABLE)
    assert v["cloak"] == ANN and v["players"][ANN]["cloaked"] is True


def test_the_cloak_moves_to_a_different_piece():
    """TW-CLOAK-5, TW-AMB-13: rolling the Cloak while wearing it: it must move off Ann, onto
    Bob or Cid."""
    s = roll(start(arrange(3, cloak=ANN)), "cloak")
    refused(s, "TW-CLOAK-5", type="place_cloak", player=ANN, on=ANN)
    refused(s, "TW-TURN-3", type="place_cloak", player=ANN, on=None)
    s = act(s, type="place_cloak", player=ANN, on=CID)
    assert view(s)["cloak"] == CID


def test_removal_only_by_the_wearer():
    """TW-CLOAK-6, TW-AMB-14: only the wearer's owner may try to remove it; a cloaked piece may
    also simply roll and move."""
    s = start(arrange(cloak=BOB))
    refused(s, "TW-CLOAK-6", type="remove_cloak", player=ANN)
    s = start(arrange(cloak=ANN, pieces={ANN: "K1"}))
    s = move(roll(s, 1), ANN, ["K2"])
    assert (where(s, ANN), view(s)["cloak"]) == ("K2", ANN)


def test_removal_refused_after_a_tile():
    """TW-CLOAK-6: no removal attempt after a Resource Tile was played this turn."""
    hedge = tile_of("summon_hedge")
    s = start(arrange(cloak=ANN, tiles={ANN: [hedge]}))
    s = act(s, type="play_tile", player=ANN, tile=hedge, space="14,3")
    refused(s, "TW-CLOAK-6", type="remove_cloak", player=ANN)
    assert view(s)["cloak"] == ANN


@pytest.mark.parametrize("face, off", [(1, True), (5, True), (2, False), ("cloak", False)])
def test_removal_on_odd_numbers(face, off):
    """TW-CLOAK-6, TW-CLOAK-7: odd removes (then aside or onto another piece); even or the Cloak
    face fails; the turn ends either way."""
    s = act(start(arrange(cloak=ANN)), type="remove_cloak", player=ANN)
    a = awaiting(s)
    assert (a["kind"], a["why"]) == ("die", "removal")
    s = roll(s, face)
    if off:
        assert phase(s) == "removal_place"
        s = act(s, type="place_cloak", player=ANN, on=None)
        assert view(s)["cloak"] is None
    else:
        assert view(s)["cloak"] == ANN
    assert view(s)["active"] == BOB


def test_dumbledore_sends_the_cloak_aside_and_the_piece_to_penalty():
    """TW-CLOAK-8, TW-RES-DUMB-1, TW-RES-DUMB-3, TW-PEN-1: declined: Cloak aside, piece on K12."""
    d1, d2 = tiles_of("dumbledore")[:2]
    s = start(arrange(pieces={BOB: "K16"}, cloak=BOB, tiles={ANN: [d1], BOB: [d2]}))
    s = act(act(s, type="play_tile", player=ANN, tile=d1, target=BOB), type="decline", player=BOB)
    assert (view(s)["cloak"], where(s, BOB)) == (None, "K12")
    assert view(s, TABLE)["players"][BOB]["cloaked"] is False


def test_dumbledore_cancelled_by_the_owner():
    """TW-CLOAK-9, TW-RES-DUMB-2: the owner's own Dumbledore cancels: both discarded, Cloak
    stays, piece stays."""
    d1, d2 = tiles_of("dumbledore")[:2]
    s = start(arrange(pieces={BOB: "K16"}, cloak=BOB, tiles={ANN: [d1], BOB: [d2]}))
    s = act(
        act(s, type="play_tile", player=ANN, tile=d1, target=BOB),
        type="counter",
        player=BOB,
        tile=d2,
    )
    assert (view(s)["cloak"], where(s, BOB), view(s)["piles"]["tiles_discard"]) == (BOB, "K16", 2)


def test_no_second_roll_after_the_removal_roll():
    """TW-CLOAK-6 (section 3.3, T_REMOVAL_*): another die after the removal roll is refused by
    TW-CLOAK-6 ("the only action")."""
    s = roll(act(start(arrange(cloak=ANN)), type="remove_cloak", player=ANN), 3)
    assert phase(s) == "removal_place"
    refused(s, "TW-CLOAK-6", type="roll", value=3)
