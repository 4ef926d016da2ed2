"""Dork Tower: the decks and the count of chance steps (DT-CARD-2, DT-SETUP-8): an empty deck is
its discard pile reshuffled, told for the right deck; every chance step resolved counts once (the
seeded sample draws from that count); the quests placed once every hero is chosen are named."""

from __future__ import annotations

from dt_support import GAME, act, in_city


def test_an_empty_scroll_deck_is_its_discard_pile_reshuffled():
    state = in_city({"gold": 100})
    state["scrolls"]["discard"], state["scrolls"]["deck"] = list(state["scrolls"]["deck"]), []
    state, _ = act(state, type="buy_scroll", player="Ann")
    state, events = act(state, type="draw_scroll", scroll="hex")
    assert events[0] == {
        "type": "reshuffled",
        "text": "The scroll discard pile is shuffled into a new deck.",
        "deck": "scrolls",
    }
    assert "hex" not in state["scrolls"]["deck"] and state["scrolls"]["discard"] == []


def test_an_empty_item_deck_is_its_discard_pile_reshuffled_and_draws_count():
    state = in_city({"gold": 100})
    state["items"]["discard"], state["items"]["deck"] = list(state["items"]["deck"]), []
    assert state["chance_n"] == 0
    state, _ = act(state, type="shop", player="Ann")
    state, events = act(state, type="draw_item", card="dagger")
    assert events[0] == {
        "type": "reshuffled",
        "text": "The item discard pile is shuffled into a new deck.",
        "deck": "items",
    }
    assert state["chance_n"] == 1
    state, _ = act(state, type="draw_item", card="club")
    assert state["chance_n"] == 2


def test_the_quests_placed_after_the_last_choice_are_named():
    """DT-SETUP-8: the two quest tokens go on the data set's quest start spaces."""
    state = GAME.new(["Ann", "Bob"], {"start_roll": False}, seed=11)
    state, _ = act(state, type="choose", player="Ann", character="topdeck", city="rv-city")
    state, events = act(state, type="choose", player="Bob", character="lumpin", city="th-city")
    placed = next(e for e in events if e["type"] == "quests_placed")
    assert placed["quests"] == ["hw-flats", "mf-reeds"] == state["quests"]
