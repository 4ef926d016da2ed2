"""Triwizard's secrets (spec section 7, docs/secrets.md): what each viewer's view may hold, and
``indistinguishable``, which re-deals what a viewer cannot see and must leave their view,
their legal actions and the awaited chance step exactly as they were."""

from __future__ import annotations

import json
import random

import pytest
from tw_support import (
    ANN,
    BLUE_2_4,
    BOB,
    CID,
    GAME,
    GREEN_1_5,
    GREEN_4_2,
    NAMES,
    O_BLUE_9_1,
    O_ORANGE_6_1,
    RED_5_3,
    act,
    arrange,
    counts,
    default_lineup,
    move,
    roll,
    start,
    tile_of,
    tiles_of,
    view,
)

from companion.rules import EVERYTHING, HOST, TABLE

HANDS = {
    ANN: [RED_5_3, BLUE_2_4, GREEN_4_2, GREEN_1_5],
    BOB: ["red-1-2", "red-2-3", "blue-1-3", "orange-1-2"],
    CID: ["green-2-3", "green-3-4", "orange-2-3", "blue-3-5"],
}
TILES = {
    ANN: [tile_of("four_point"), tile_of("reductor")],
    BOB: [tile_of("veritaserum"), tile_of("double_die")],
    CID: [tile_of("summon_hedge"), tile_of("red_sparks")],
}


def planted():
    """Three players with known hands and tiles; Ann has peeked at C3 (Headstone 1)."""
    s = start(arrange(3, hands=HANDS, tiles=TILES))
    s = act(s, type="play_tile", player=ANN, tile=TILES[ANN][0], slot="3")
    return act(s, type="peek", player=ANN, slot="3", tile="headstone-1")


def text(s, viewer: str) -> str:
    return json.dumps(view(s, viewer), sort_keys=True)


@pytest.mark.parametrize("viewer", [ANN, BOB, CID, TABLE, HOST])
def test_views_hold_no_other_players_secrets(viewer):
    """TW-BCARD-2, TW-RES-1, TW-RES-4PT-2, TW-AMB-31: no hand card, tile id, tile kind or peek of
    anyone else in a viewer's view; a player sees their own."""
    s = planted()
    seen = text(s, viewer)
    for name in (ANN, BOB, CID):
        secret = HANDS[name] + [t for t in TILES[name] if t != TILES[ANN][0]]
        for item in secret:
            assert (f'"{item}"' in seen) == (name == viewer), (viewer, name, item)
    assert ('"headstone-1"' in seen) == (viewer == ANN)
    if viewer in (TABLE, HOST):
        v = view(s, viewer)
        assert all(p["hand"] is None and p["tiles"] is None for p in v["players"].values())
        assert all(c["peeked"] is None for c in v["cups"]) and v["reach"] is None


def test_referee_sees_everything():
    """TW-AMB-31: the referee's view (replays, tests) holds every hand, tile and peek."""
    seen = text(planted(), EVERYTHING)
    for name in (ANN, BOB, CID):
        for item in HANDS[name]:
            assert f'"{item}"' in seen
    assert '"headstone-1"' in seen


def _mine(actions, viewer):
    return sorted(
        (json.dumps(a, sort_keys=True) for a in actions if a.get("player") == viewer),
    )


@pytest.mark.parametrize("viewer", [ANN, BOB, CID, TABLE, HOST])
def test_indistinguishable_keeps_the_view_and_changes_secrets(viewer):
    """TW-BCARD-2, TW-RES-1, TW-RES-4PT-2: the re-dealt state shows the viewer the same view,
    the same own legal actions and the same chance step; the others' hands and tiles and the draw
    piles change (the viewer's own stay), and no card or tile is lost."""
    states = [planted()]
    s = states[0]
    s = move(roll(s, 1), ANN, ["K1"])
    states.append(s)
    changed = {"hands": 0, "tiles": 0, "decks": 0}
    for n, state in enumerate(states):
        for k in range(8):
            other = GAME.indistinguishable(state, viewer, random.Random(f"{n}/{k}"))
            assert view(other, viewer) == view(state, viewer)
            if viewer in NAMES:
                assert _mine(GAME.legal_actions(other), viewer) == _mine(
                    GAME.legal_actions(state), viewer
                )
            assert GAME.chance(other) == GAME.chance(state)
            for key in ("hands", "tiles"):
                secret = [h for seat, h in enumerate(state[key]) if NAMES[seat] != viewer]
                moved = [h for seat, h in enumerate(other[key]) if NAMES[seat] != viewer]
                changed[key] += secret != moved
                mine = [h for seat, h in enumerate(state[key]) if NAMES[seat] == viewer]
                assert mine == [h for seat, h in enumerate(other[key]) if NAMES[seat] == viewer]
            changed["decks"] += other["battle_pile"]["deck"] != state["battle_pile"]["deck"]
            assert counts(other) == counts(state) == (40, 36, 20)
    assert all(changed.values()), changed


def test_indistinguishable_redeals_peeks_consistently():
    """TW-RES-4PT-2, TW-AMB-31: for Bob, Ann's peek is re-dealt among the identities Bob has not
    seen; for Ann, it stays."""
    s = planted()
    seen = set()
    for k in range(20):
        other = GAME.indistinguishable(s, BOB, random.Random(k))
        assert len(other["peeks"]) == 1 and other["peeks"][0]["slot"] == "3"
        seen.add(other["peeks"][0]["tile"])
    assert seen <= {"cup", "headstone-1", "headstone-2", "headstone-3"} and len(seen) > 1
    for k in range(5):
        assert GAME.indistinguishable(s, ANN, random.Random(k))["peeks"] == s["peeks"]


@pytest.mark.parametrize("viewer", [ANN, CID, TABLE, HOST])
def test_dumbledore_window_looks_the_same_whatever_the_target_holds(viewer):
    """TW-RES-DUMB-2, TW-AMB-18, section 7: Ann's Dumbledore against cloaked Bob: everyone but
    Bob sees the same window, countdown and prompt whether or not Bob holds a Dumbledore."""
    d1, d2 = tiles_of("dumbledore")[:2]
    views, deadlines = [], []
    for bobs in ([d2], [tile_of("cloak")]):
        s = start(arrange(3, pieces={BOB: "K14"}, cloak=BOB, tiles={ANN: [d1], BOB: bobs}))
        s = act(s, type="play_tile", player=ANN, tile=d1, target=BOB)
        views.append(view(s, viewer))
        deadlines.append(GAME.deadline(s))
    assert views[0] == views[1]
    assert deadlines[0] == deadlines[1]


def test_the_targets_own_window_does_not_depend_on_the_hand_either():
    """TW-RES-DUMB-2, section 7: the target's window (its interrupt and deadline) is the same
    dialog whether or not the target can counter."""
    d1, d2 = tiles_of("dumbledore")[:2]
    found = []
    for bobs in ([d2], [tile_of("cloak")]):
        s = start(arrange(pieces={BOB: "K14"}, cloak=BOB, tiles={ANN: [d1], BOB: bobs}))
        s = act(s, type="play_tile", player=ANN, tile=d1, target=BOB)
        found.append((view(s, BOB)["interrupt"], GAME.deadline(s), view(s, BOB)["prompt"]))
    assert found[0] == found[1]


@pytest.mark.parametrize("viewer", [BOB, CID, TABLE])
def test_no_match_looks_the_same_whatever_the_hand_holds(viewer):
    """TW-BATTLE-2, TW-AMB-11, section 7: two different hands without blue: after the no-match
    claim, the others' views are identical (only the result is announced)."""
    views = []
    for cards in (
        [RED_5_3, GREEN_4_2, GREEN_1_5, "red-1-2"],
        ["orange-1-2", "red-2-3", "green-2-3", "orange-2-3"],
    ):
        s = start(
            arrange(3, pieces={ANN: "K4"}, hands={ANN: cards}, lineup=default_lineup(O_BLUE_9_1))
        )
        s = act(move(roll(s, 1), ANN, ["K5"]), type="no_match", player=ANN)
        views.append(view(s, viewer))
    assert views[0] == views[1]
    assert O_ORANGE_6_1 not in json.dumps(views[0]["fight"])
