"""A draw told by what is printed on it (a table without stickers, the drawer's phone): the
rules take the named card or tile when it is in the pile, else the first one printed alike
that is; none alike in the pile is refused with the pile's rule, and nothing changes."""

from __future__ import annotations

import copy
import random

from tw_support import (
    ANN,
    BOB,
    CID,
    GAME,
    K,
    act,
    arrange,
    battle_cards,
    refused,
    start,
    tile_of,
    tiles_of,
    view,
)

from companion.games.triwizard.rules import Triwizard
from companion.rules import HOST, TABLE, Accepted, Refusal


def _twins_game() -> Triwizard:
    """Corridor K with red-1-2 printed as red-5-3 and o-blue-9-1 as o-red-orange-8-2."""
    data = copy.deepcopy(GAME.datasets[K])
    data["battle"]["red-1-2"].update(colour="red", strength=5, movement=3)
    data["obstacles"]["o-blue-9-1"].update(colours=["orange", "red"], strength=8, reward=2)
    return Triwizard({K: data})


def _dealing(game: Triwizard) -> dict:
    state = game.new([ANN, BOB], {"data_set": K}, seed=3)
    result = game.apply(state, {"type": "placed", "player": ANN})
    assert isinstance(result, Accepted), result
    return result.state


def _apply(game, state, **action):
    result = game.apply(state, action)
    assert isinstance(result, Accepted), f"{action}: {result}"
    return result.state


def test_a_battle_card_named_twice_gives_its_twin_then_is_refused():
    game = _twins_game()
    state = _dealing(game)
    assert game.view(state, ANN)["awaiting"]["kind"] == "card"
    state = _apply(game, state, type="draw_card", player=ANN, card="red-5-3")
    state = _apply(game, state, type="draw_card", player=ANN, card="red-5-3")
    hand = [c["card"] for c in game.view(state, ANN)["players"][ANN]["hand"]]
    assert hand == ["red-5-3", "red-1-2"]  # the twin, by the first id alike in the pile
    before = copy.deepcopy(state)
    third = game.apply(state, {"type": "draw_card", "player": ANN, "card": "red-1-2"})
    assert isinstance(third, Refusal) and third.rule == "TW-BCARD-4", third
    assert "Battle Card" in third.reason
    assert state == before


def test_the_event_tells_the_drawer_the_card_taken():
    game = _twins_game()
    state = _apply(game, _dealing(game), type="draw_card", player=ANN, card="red-5-3")
    result = game.apply(state, {"type": "draw_card", "player": ANN, "card": "red-5-3"})
    assert isinstance(result, Accepted)
    private = [e for e in result.events if e["type"] == "draw_card"]
    assert private and private[0]["private"] == {"card": "red-1-2"}, private


def test_resource_tiles_of_a_kind_are_alike():
    state = _dealing(GAME)
    while GAME.view(state, ANN)["awaiting"]["kind"] == "card":
        state = act(state, **GAME.sample(state))
    assert GAME.view(state, ANN)["awaiting"] == {
        "kind": "tile",
        "why": "deal",
        "player": ANN,
        "left": 2,
    }
    first = tile_of("cloak")
    state = act(state, type="draw_tile", player=ANN, tile=first)
    state = act(state, type="draw_tile", player=ANN, tile=first)
    tiles = [x["tile"] for x in view(state, ANN)["players"][ANN]["tiles"]]
    assert tiles == tiles_of("cloak")[:2]


def test_an_obstacle_laid_out_by_its_print():
    game = _twins_game()
    state = _dealing(game)
    for _ in range(40):
        if game.view(state, ANN)["awaiting"]["kind"] == "obstacle":
            break
        state = _apply(game, state, **game.sample(state))
    state = _apply(game, state, type="reveal_obstacle", card="o-red-orange-8-2")
    state = _apply(game, state, type="reveal_obstacle", card="o-red-orange-8-2")
    shown = [e["card"] for e in game.view(state, TABLE)["lineup"]][:2]
    assert shown == ["o-red-orange-8-2", "o-blue-9-1"]
    third = game.apply(state, {"type": "reveal_obstacle", "card": "o-blue-9-1"})
    assert isinstance(third, Refusal) and third.rule == "TW-OCARD-4"


def test_red_sparks_takes_a_tile_of_the_kind_told_from_the_victim():
    sparks = tile_of("red_sparks")
    victim = [tile_of("cloak", 1), tile_of("reductor", 2)]
    state = start(arrange(3, tiles={CID: [sparks], ANN: victim}, active=CID))
    state = act(state, type="play_tile", player=CID, tile=sparks, target=ANN)
    assert view(state, CID)["awaiting"]["kind"] == "steal"
    refused(state, "TW-RES-SPARK-1", type="steal", player=CID, tile=tile_of("veritaserum"))
    state = act(state, type="steal", player=CID, tile=tile_of("cloak"))  # the first of its kind
    assert [x["tile"] for x in view(state, CID)["players"][CID]["tiles"]] == [tile_of("cloak", 1)]
    assert [x["tile"] for x in view(state, ANN)["players"][ANN]["tiles"]] == [
        tile_of("reductor", 2)
    ]


def _same_for_every_viewer(state, expected: dict) -> None:
    """The awaited draw, with what a phone's picker needs, is public: the same in every view,
    and the same after everything each viewer cannot see is dealt anew."""
    for viewer in (ANN, BOB, CID, TABLE, HOST):
        assert view(state, viewer)["awaiting"] == expected, viewer
        for seed in range(5):
            other = GAME.indistinguishable(state, viewer, random.Random(seed))
            assert view(other, viewer) == view(state, viewer), (viewer, seed)


def test_the_awaited_peek_and_steal_name_the_slot_and_the_victim_to_everyone():
    peek = tile_of("four_point")
    sparks = tile_of("red_sparks")
    state = start(arrange(3, tiles={ANN: [peek, sparks], BOB: [tile_of("cloak")]}))
    state = act(state, type="play_tile", player=ANN, tile=peek, slot="2")
    _same_for_every_viewer(state, {"kind": "peek", "why": None, "player": ANN, "slot": "2"})
    state = act(state, type="peek", player=ANN, slot="2", tile="cup")
    # one tile a turn (TW-RES-4): Red Sparks on the next of Ann's turns is arranged anew
    state = start(arrange(3, tiles={ANN: [sparks], BOB: [tile_of("cloak")]}))
    state = act(state, type="play_tile", player=ANN, tile=sparks, target=BOB)
    _same_for_every_viewer(state, {"kind": "steal", "why": None, "player": ANN, "from": BOB})


def test_the_awaited_refill_counts_the_cards_to_draw_for_everyone():
    state = arrange(3, hands={ANN: battle_cards("red")[:2]})
    _same_for_every_viewer(state, {"kind": "card", "why": "refill", "player": ANN, "left": 2})
