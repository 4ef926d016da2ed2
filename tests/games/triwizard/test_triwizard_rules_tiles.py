"""Triwizard Resource Tiles (spec sections 2.7 and 4.3): TW-RES and the tile effects
TW-RES-DUMB, -DDIE, -4PT, -CLOAK, -SPARK, -REDUCT, -HEDGE, -VERI, with TW-AMB-12, 16..24, 28."""

from __future__ import annotations

import pytest
from tw_support import (
    ANN,
    BOARD,
    BOB,
    CID,
    GAME,
    NAMES,
    act,
    arrange,
    awaiting,
    counts,
    move,
    phase,
    refused,
    roll,
    start,
    tile_count,
    tile_of,
    tiles_of,
    view,
    where,
)

from companion.rules import TABLE, SetupError
from companion.rules.api import UNKNOWN_PLAYER


def kinds(s, name: str, viewer: str | None = None) -> list[str]:
    return sorted(t["kind"] for t in view(s, viewer or name)["players"][name]["tiles"])


def test_tiles_are_private():
    """TW-RES-1: tiles are hidden: the owner sees their kinds, others and the table a count."""
    s = start(arrange(tiles={ANN: [tile_of("cloak"), tile_of("reductor")]}))
    assert kinds(s, ANN) == ["cloak", "reductor"]
    assert view(s, BOB)["players"][ANN]["tiles"] is None
    assert view(s, TABLE)["players"][ANN]["tile_count"] == 2


def test_a_played_tile_is_discarded():
    """TW-RES-4, TW-RES-CLOAK-1, TW-CLOAK-4, TW-CLOAK-5: the Cloak tile puts the Cloak on any
    piece (Bob's); the tile goes to the discard."""
    cloak = tile_of("cloak")
    s = act(start(arrange(tiles={ANN: [cloak]})), type="play_tile", player=ANN, tile=cloak, on=BOB)
    v = view(s)
    assert (v["cloak"], v["piles"]["tiles_discard"], tile_count(s, ANN)) == (BOB, 1, 0)
    assert v["turn_state"]["tile_played"] is True and phase(s) == "open"


def test_cloak_tile_moves_the_cloak_to_a_different_piece():
    """TW-RES-CLOAK-1, TW-CLOAK-5: the Cloak on Bob must move to another piece, Ann's own
    allowed."""
    cloak = tile_of("cloak")
    s = start(arrange(3, cloak=BOB, tiles={ANN: [cloak]}))
    refused(s, ("TW-RES-CLOAK-1", "TW-CLOAK-5"), type="play_tile", player=ANN, tile=cloak, on=BOB)
    s = act(s, type="play_tile", player=ANN, tile=cloak, on=ANN)
    assert view(s)["cloak"] == ANN


def test_spare_pieces_cannot_wear_the_cloak():
    """TW-AMB-27, TW-CLOAK-5: with 2 players, no spare piece is on the board to take the Cloak:
    naming a third piece, by tile or after a Cloak roll, is refused (nobody of that name)."""
    cloak = tile_of("cloak")
    s = start(arrange(tiles={ANN: [cloak]}))
    refused(s, UNKNOWN_PLAYER, type="play_tile", player=ANN, tile=cloak, on=CID)
    s = roll(start(arrange()), "cloak")
    refused(s, UNKNOWN_PLAYER, type="place_cloak", player=ANN, on=CID)


def test_a_tile_not_in_hand_is_refused():
    """TW-RES-4, TW-RES-1: a tile the player does not hold is refused (named by another's id)."""
    mine, theirs = tile_of("cloak", 0), tile_of("cloak", 1)
    s = start(arrange(tiles={ANN: [mine], BOB: [theirs]}))
    refused(s, ("TW-RES-4", "TW-RES-1"), type="play_tile", player=ANN, tile=theirs, on=BOB)
    assert tile_count(s, BOB) == 1


def test_resource_limit_six():
    """TW-RES-2, TW-AMB-28: a seventh tile (Gold Mist) opens the overflow interrupt at once;
    nothing else is accepted until one is discarded."""
    six = [tile_of("cloak", n) for n in range(4)] + tiles_of("reductor")[:2]
    s = move(roll(start(arrange(pieces={ANN: "K6"}, tiles={ANN: six})), 1), ANN, ["K7", "K8"])
    s = act(s, type="draw_tile", player=ANN, tile=tile_of("four_point"))
    v = view(s, ANN)
    assert v["interrupt"]["kind"] == "overflow" and v["players"][ANN]["tile_count"] == 7
    refused(s, ("TW-RES-2", "TW-TURN-6"), type="end_turn", player=ANN)
    s = act(s, type="discard_tile", player=ANN, tile=tile_of("four_point"))
    assert (tile_count(s, ANN), view(s)["interrupt"], phase(s)) == (6, None, "post")


def test_empty_tile_deck_reshuffles_the_discard():
    """TW-RES-3, TW-RES-2: Ann (6 tiles) stops on the Gold Mist every other turn and discards
    the seventh; when the draw pile is empty the next draw comes from the shuffled discard."""
    every = sorted(GAME.datasets["corridor-k"]["tiles"])
    s = start(
        arrange(3, pieces={ANN: "K7"}, tiles={ANN: every[:6], BOB: every[6:12], CID: every[12:18]})
    )
    reshuffled = False
    for _ in range(130):
        name = view(s)["active"]
        if name != ANN:
            s = start(act(move(roll(s, 1), name, []), type="end_turn", player=name))
            continue
        goal = "K8" if where(s, ANN) == "K7" else "K7"
        before = view(s)["piles"]
        s = move(roll(s, 1), ANN, [goal])
        if goal == "K8":
            s = act(s, **GAME.sample(s))
            extra = view(s, ANN)["players"][ANN]["tiles"][-1]["tile"]
            s = act(s, type="discard_tile", player=ANN, tile=extra)
            after = view(s)["piles"]
            if before["tiles"] == 0:
                assert before["tiles_discard"] == 18
                assert (after["tiles"], after["tiles_discard"]) == (17, 1)
                reshuffled = True
                break
            assert after["tiles"] == before["tiles"] - 1
        assert counts(s) == (40, 36, 20)
        s = start(act(s, type="end_turn", player=ANN))
    assert reshuffled


def test_dumbledore_needs_another_players_cloak():
    """TW-RES-DUMB-1, TW-AMB-18: Dumbledore is refused when no piece, or only the player's own,
    wears the Cloak."""
    dumb = tile_of("dumbledore")
    s = start(arrange(tiles={ANN: [dumb]}))
    refused(s, "TW-RES-DUMB-1", type="play_tile", player=ANN, tile=dumb, target=BOB)
    s = start(arrange(cloak=ANN, tiles={ANN: [dumb]}))
    refused(s, "TW-RES-DUMB-1", type="play_tile", player=ANN, tile=dumb, target=ANN)


def test_only_the_target_counters_once():
    """TW-RES-DUMB-2, TW-AMB-18, TW-RES-5: only the target may counter, with a Dumbledore it
    holds; Cid's counter is refused; the counter ends the interrupt (no counter to it)."""
    d1, d2, d3 = tiles_of("dumbledore")[:3]
    s = start(arrange(3, cloak=BOB, tiles={ANN: [d1], BOB: [d2], CID: [d3]}))
    s = act(s, type="play_tile", player=ANN, tile=d1, target=BOB)
    refused(s, ("TW-RES-DUMB-2", "TW-RES-5"), type="counter", player=CID, tile=d3)
    refused(s, ("TW-RES-DUMB-2", "TW-RES-4"), type="counter", player=BOB, tile=d3)
    s = act(s, type="counter", player=BOB, tile=d2)
    assert view(s)["interrupt"] is None and view(s)["cloak"] == BOB
    assert view(s)["turn_state"]["tile_played"] is True


def test_dumbledore_window_closes_by_the_table():
    """TW-RES-DUMB-3, TW-CLOAK-8, TW-AMB-18: when the countdown ends the table closes the window:
    the Dumbledore stands."""
    d1, d2 = tiles_of("dumbledore")[:2]
    s = start(arrange(pieces={BOB: "K14"}, cloak=BOB, tiles={ANN: [d1], BOB: [d2]}))
    s = act(s, type="play_tile", player=ANN, tile=d1, target=BOB)
    assert GAME.deadline(s) is not None
    s = act(s, type="close_window")
    assert (view(s)["cloak"], where(s, BOB), tile_count(s, BOB)) == (None, "K12", 1)


def test_four_point_peek_is_private():
    """TW-RES-4PT-1, TW-RES-4PT-2, TW-AMB-31: the caster peeks at one face-down Cup Tile; only the
    caster's view holds it; the tile stays face down."""
    four = tile_of("four_point")
    s = act(start(arrange(tiles={ANN: [four]})), type="play_tile", player=ANN, tile=four, slot="3")
    a = awaiting(s)
    assert (a["kind"], a["player"]) == ("peek", ANN)
    s = act(s, type="peek", player=ANN, slot="3", tile="headstone-1")
    assert view(s, ANN)["cups"][2]["peeked"] == "headstone-1"
    for viewer in (BOB, TABLE):
        assert view(s, viewer)["cups"][2]["peeked"] is None
        assert "headstone-1" not in str(view(s, viewer)["cups"])
    assert all(c["face_up"] is None for c in view(s, ANN)["cups"])


def test_four_point_not_on_a_face_up_tile_nor_while_cloaked():
    """TW-RES-4PT-1, TW-CLOAK-3, TW-AMB-16: no peek at a face-up Cup Tile; no Four Point Spell
    while the caster is cloaked."""
    four = tile_of("four_point")
    s = start(arrange(tiles={ANN: [four]}, cups={"2": "headstone-3"}))
    refused(s, "TW-RES-4PT-1", type="play_tile", player=ANN, tile=four, slot="2")
    s = start(arrange(tiles={ANN: [four]}, cloak=ANN))
    refused(s, "TW-CLOAK-3", type="play_tile", player=ANN, tile=four, slot="1")


def test_red_sparks_steals_blind():
    """TW-RES-SPARK-1: the caster draws one of the victim's tiles blind; the victim loses it."""
    sparks, loot = tile_of("red_sparks"), tile_of("veritaserum")
    s = start(arrange(tiles={ANN: [sparks], BOB: [loot, tile_of("cloak")]}))
    s = act(s, type="play_tile", player=ANN, tile=sparks, target=BOB)
    assert awaiting(s)["kind"] == "steal"
    s = act(s, type="steal", player=ANN, tile=loot)
    assert (tile_count(s, ANN), tile_count(s, BOB)) == (1, 1)
    assert kinds(s, ANN) == ["veritaserum"] and kinds(s, BOB) == ["cloak"]


def test_red_sparks_and_veritaserum_need_tiles_and_no_cloak():
    """TW-RES-SPARK-1, TW-RES-VERI-1, TW-AMB-22, TW-AMB-17, TW-CLOAK-3: not against a player
    with 0 tiles; not while the caster is cloaked (cloak_blocks_steal)."""
    sparks, veri = tile_of("red_sparks"), tile_of("veritaserum")
    s = start(arrange(tiles={ANN: [sparks, veri]}))
    refused(
        s, ("TW-RES-SPARK-1", "TW-AMB-22"), type="play_tile", player=ANN, tile=sparks, target=BOB
    )
    refused(s, ("TW-RES-VERI-1", "TW-AMB-22"), type="play_tile", player=ANN, tile=veri, target=BOB)
    s = start(arrange(cloak=ANN, tiles={ANN: [sparks], BOB: [tile_of("cloak")]}))
    refused(s, ("TW-CLOAK-3", "TW-AMB-17"), type="play_tile", player=ANN, tile=sparks, target=BOB)
    free = start(
        arrange(
            cloak=ANN,
            tiles={ANN: [sparks], BOB: [tile_of("cloak")]},
            options={"cloak_blocks_steal": False},
        )
    )
    assert awaiting(act(free, type="play_tile", player=ANN, tile=sparks, target=BOB))


def test_veritaserum_shows_the_caster_only():
    """TW-RES-VERI-1, TW-RES-VERI-2, TW-AMB-21: the victim's tiles are listed in the caster's
    view only; the caster takes one; afterwards nobody's view keeps the list."""
    veri = tile_of("veritaserum")
    bobs = [tile_of("reductor"), tile_of("double_die")]
    s = start(arrange(3, tiles={ANN: [veri], BOB: bobs}))
    s = act(s, type="play_tile", player=ANN, tile=veri, target=BOB)
    assert view(s)["interrupt"]["kind"] == "veritaserum"
    assert sorted(t["tile"] for t in view(s, ANN)["veritaserum"]) == sorted(bobs)
    assert view(s, CID)["veritaserum"] is None and view(s, TABLE)["veritaserum"] is None
    refused(s, ("TW-RES-VERI-1", "TW-TURN-6"), type="take", player=CID, tile=bobs[0])
    s = act(s, type="take", player=ANN, tile=bobs[1])
    assert kinds(s, ANN) == ["double_die"] and tile_count(s, BOB) == 1
    assert view(s, ANN)["veritaserum"] is None and view(s)["interrupt"] is None


def test_reductor_only_after_the_roll():
    """TW-RES-REDUCT-3: the Reductor Curse is refused before the roll and after the move."""
    reductor = tile_of("reductor")
    s = start(arrange(pieces={ANN: "K7"}, tiles={ANN: [reductor]}))
    refused(s, "TW-RES-REDUCT-3", type="play_tile", player=ANN, tile=reductor)
    s = move(roll(s, 1), ANN, [])
    refused(s, "TW-RES-REDUCT-3", type="play_tile", player=ANN, tile=reductor)


def test_reductor_crosses_in_a_straight_line_only():
    """TW-RES-REDUCT-1, TW-RES-REDUCT-4, TW-AMB-20: crossing the hedge under K6 costs 1 step,
    straight on (K6, hedge, 6,2); the 4th step ends on the Portkey 7,2, which sends the piece
    to its partner 1,2. (Corridor K's hedge cell has no sideways Path neighbour, so a crooked
    crossing cannot be tried there.)"""
    reductor = tile_of("reductor")
    hedge, below = "6,1", "6,2"
    s = roll(start(arrange(pieces={ANN: "K7"}, tiles={ANN: [reductor]})), 2)
    s2 = move(s, ANN, ["K6", hedge, below, "7,2"], reductor=reductor)
    assert where(s2, ANN) == "1,2" and tile_count(s2, ANN) == 0


def test_reductor_kept_when_the_roll_is_short():
    """TW-RES-REDUCT-5, TW-RES-REDUCT-4: with allowance 2 the crossing would end on the hedge:
    refused, tile kept; the same tile works on a later turn with a roll of 2."""
    reductor = tile_of("reductor")
    s = roll(start(arrange(pieces={ANN: "K7"}, tiles={ANN: [reductor]})), 1)
    refused(s, "TW-RES-REDUCT-4", type="move", player=ANN, path=["K6", "6,1"], reductor=reductor)
    s = move(s, ANN, [])
    assert tile_count(s, ANN) == 1 and view(s)["turn_state"]["tile_played"] is False


def test_summon_hedge_to_an_open_space():
    """TW-RES-HEDGE-1, TW-RES-HEDGE-2, TW-RES-HEDGE-3, TW-AMB-19, TW-HEDGE-1: the Wandering Hedge
    moves to an open Path space (no symbol, no Dark Hedge beside it, empty); a symbol space or
    one beside Dark Hedge is refused."""
    hedge = tile_of("summon_hedge")
    s = start(arrange(pieces={BOB: "14,2"}, tiles={ANN: [hedge]}))
    refused(s, "TW-RES-HEDGE-2", type="play_tile", player=ANN, tile=hedge, space="K3")
    # every symbol space of Corridor K also touches Dark Hedge: either rule names the refusal
    refused(
        s,
        ("TW-RES-HEDGE-3", "TW-RES-HEDGE-2"),
        type="play_tile",
        player=ANN,
        tile=hedge,
        space="K8",
    )
    refused(
        s,
        ("TW-RES-HEDGE-1", "TW-RES-HEDGE-2", "TW-MOVE-5"),
        type="play_tile",
        player=ANN,
        tile=hedge,
        space="14,2",
    )
    s = act(s, type="play_tile", player=ANN, tile=hedge, space="14,3")
    assert view(s)["hedge"] == "14,3" and BOARD["hedge_home"] != "14,3"


def test_tiles_only_in_their_windows():
    """TW-AMB-12, TW-RES-5: a Four Point Spell may be played in open, cloak_place and post, not
    while moving nor in battle."""
    four = tile_of("four_point")
    s = roll(start(arrange(pieces={ANN: "K3"}, tiles={ANN: [four]})), 1)
    refused(s, "TW-AMB-12", type="play_tile", player=ANN, tile=four, slot="1")
    cloak_place = roll(start(arrange(tiles={ANN: [four]})), "cloak")
    assert awaiting(act(cloak_place, type="play_tile", player=ANN, tile=four, slot="1"))


def test_reductor_needs_no_exact_roll():
    """TW-AMB-30, TW-RES-REDUCT-5: any roll that carries the piece past the hedge is enough: with
    allowance 6 the crossing K6, hedge, 6,2 (3 steps) stops short of the allowance, legally."""
    reductor = tile_of("reductor")
    s = roll(start(arrange(pieces={ANN: "K7"}, tiles={ANN: [reductor]})), 3)
    s = move(s, ANN, ["K6", "6,1", "6,2"], reductor=reductor)
    assert where(s, ANN) == "6,2" and tile_count(s, ANN) == 0


def test_tile_piles_never_both_empty():
    """TW-AMB-24, TW-RES-2: four players holding the most tiles (6 each) leave 12 in the piles,
    so the draw pile and its discard can never both be empty with 36 tiles; a seventh tile in an
    arranged hand is refused."""
    every = sorted(GAME.datasets["corridor-k"]["tiles"])
    held = {name: every[6 * n : 6 * n + 6] for n, name in enumerate(NAMES)}
    v = view(start(arrange(4, tiles=held)))
    assert v["piles"]["tiles"] + v["piles"]["tiles_discard"] == 12
    with pytest.raises(SetupError):
        arrange(tiles={ANN: every[:7]})
