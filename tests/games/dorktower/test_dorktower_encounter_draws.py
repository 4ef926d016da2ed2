"""Dork Tower: what resolving a token draws and says (DT-ENC-4, DT-COMP-3), and the item the
game's own sample draws for a Merchant (DT-CARD-4)."""

from __future__ import annotations

from dt_support import DATA, GAME, act, draw_tokens, pending_tokens, two


def encounter(*tokens: str) -> dict:
    """Ann stops in Ravenwood (a forest by night: 3 tokens) and draws ``tokens``."""
    state, _ = act(two({"space": "rv-wood"}), type="stop", player="Ann")
    return draw_tokens(state, *tokens)


def test_tombs_and_lairs_say_how_many_more_tokens_they_draw():
    """DT-COMP-3: Tombs draw two more tokens, Lairs one; the resolved event says how many."""
    state = encounter("goblin", "tombs", "lairs")
    state, events = act(state, type="resolve", player="Ann", token="tombs")
    assert pending_tokens(state) == 2
    assert events[0]["type"] == "resolved" and events[0]["token"] == "tombs"
    assert str(events[0]["text"]) == "Ann resolves Tombs: 2 more tokens."
    state = draw_tokens(state, "wolf", "orc")
    state, events = act(state, type="resolve", player="Ann", token="lairs")
    assert pending_tokens(state) == 1
    assert str(events[0]["text"]) == "Ann resolves Lairs: 1 more token."


def test_the_sample_for_a_merchant_draws_an_item_card():
    """DT-CARD-4: the Merchant gives an equipment item; the game's own sample of that draw is a
    card of the item deck, and it is accepted."""
    state = encounter("goblin", "merchant", "wolf")
    state, _ = act(state, type="resolve", player="Ann", token="merchant")
    assert GAME.chance(state) is not None
    action = GAME.sample(state)
    assert action["type"] == "draw_item" and action["card"] in DATA["items"]
    assert action["card"] in state["items"]["deck"]
    state, _ = act(state, **action)
    assert action["card"] not in state["items"]["deck"]


def test_stopping_on_an_empty_forest_by_night_draws_three_tokens():
    """DT-ENC-3: Ann stops in Ravenwood with no monsters there; the encounter event names her and
    the three tokens she draws."""
    state, events = act(two({"space": "rv-wood"}), type="stop", player="Ann")
    found = [e for e in events if e["type"] == "encounter"]
    assert len(found) == 1 and (found[0]["player"], found[0]["count"]) == ("Ann", 3)
    assert str(found[0]["text"]) == "Ann draws 3 encounter tokens on Ravenwood."
    assert pending_tokens(state) == 3
