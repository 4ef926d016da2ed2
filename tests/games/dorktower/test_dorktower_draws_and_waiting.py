"""Dork Tower's draws of cards: whose draw it is, who the table waits for, what the events say,
and the undo's words for a draw and a bought scroll (DT-TURN-1, DT-REWARD-3, DT-CITY-5)."""

from __future__ import annotations

from dt_support import (
    DATA,
    GAME,
    act,
    arrange,
    bo,
    draw_tokens,
    fight,
    hero,
    in_city,
    refused,
    roll,
    view,
)

from companion.rules import TABLE


def bought_scroll() -> dict:
    """Ann, in her city with gold, has bought a scroll: its card is still to be drawn."""
    state = in_city()
    state, _ = act(state, type="buy_scroll", player="Ann")
    assert state["pending"][0]["kind"] == "scroll" and state["pending"][0]["player"] == 0
    return state


def test_only_the_buyer_draws_the_bought_scroll():
    """DT-TURN-1: the scroll bought by Ann is drawn by Ann: Bob naming himself is refused."""
    state = bought_scroll()
    refused(state, "DT-TURN-1", type="draw_scroll", player="Bob", scroll="hex")
    state, events = act(state, type="draw_scroll", player="Ann", scroll="hex")
    assert events[0]["type"] == "scroll_drawn" and events[0]["player"] == "Ann"


def test_the_table_waits_for_the_player_who_draws():
    """While a card is to be drawn for a player, the view says the table waits for him."""
    state = bought_scroll()
    assert view(state, TABLE)["waiting_for"] == ["Ann"]
    assert view(state, "Bob")["waiting_for"] == ["Ann"]


def test_a_dungeon_item_names_its_gainer_in_the_event():
    """DT-SPACE-8, DT-REWARD-3: the extra magic item of a dungeon win: the event's sentence
    names the hero and the item's face."""
    state = arrange(
        {"Ann": hero("topdeck", "sm-city", space="sm-grotto", level="high"), "Bo": bo()}
    )
    state, _ = act(state, type="stop", player="Ann")
    state = draw_tokens(state, "giant-rat", "giant-rat", "wolf")
    state, _ = roll(state, 5, 5)
    state, events = act(state, type="draw_item", card="bow")
    gained = next(e for e in events if e["type"] == "item_gained")
    assert gained["text"] is not None
    assert gained["text"].params["player"] == "Ann"
    assert gained["text"].params["item"] == "Elven Bow"


def test_undoing_a_drawn_item_or_a_bought_scroll_names_the_player():
    """The undo's words name whose draw or purchase goes back."""
    state = bought_scroll()
    drawn = GAME.describe(state, {"type": "draw_item", "player": "Ann", "card": "bow"})
    assert drawn.params == {"player": "Ann"} and "Ann" in drawn
    bought = GAME.describe(state, {"type": "buy_scroll", "player": "Ann"})
    assert bought.params == {"player": "Ann"} and "Ann" in bought


def test_a_one_die_roll_may_give_its_die_as_value():
    """DT-REWARD-2: a treasure roll is one die; the world may report it as ``value``."""
    state, _ = roll(fight(["orc"]), 6, 5)
    state, events = act(state, type="roll", value=3)
    assert next(e for e in events if e["type"] == "treasure")["value"] == 3
    assert view(state, "Ann")["players"]["Ann"]["gold"] == 70


def test_a_scroll_bought_when_every_scroll_is_held_draws_nothing():
    """DT-AMB-14: every scroll card is in a hand: the bought scroll has none to draw, and no
    draw is awaited."""
    ids = sorted(DATA["scrolls"])
    half = len(ids) // 2
    state = in_city({"scrolls": ids[:half]}, {"scrolls": ids[half:]})
    state, events = act(state, type="buy_scroll", player="Ann")
    nothing = next(e for e in events if e["type"] == "nothing_to_draw")
    assert nothing["what"] == "scroll" and state["pending"] == []
