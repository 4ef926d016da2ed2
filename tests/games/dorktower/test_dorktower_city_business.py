"""Dork Tower: a city visit's one business (spec 2.12): working after selling (DT-CITY-1,
DT-CITY-6, DT-AMB-17) and what every screen shows of the shop (``shop`` in the view)."""

from __future__ import annotations

from dt_support import act, in_city, refused, two, view

from companion.rules import TABLE


def test_selling_a_scroll_is_business_too_so_no_work_after_it():
    """DT-CITY-1, DT-CITY-6: a hero who sold a scroll (50 gold) may not then work; the refusal
    changes nothing."""
    state = in_city({"scrolls": ["hex"], "gold": 0})
    state, events = act(state, type="sell", player="Ann", scroll="hex")
    assert (events[0]["type"], events[0]["gold"]) == ("sold", 50)
    assert state["heroes"][0]["gold"] == 50 and state["t"]["sold"] is True
    refused(state, "DT-CITY-1", type="work", player="Ann")


def test_selling_an_item_then_working_only_where_the_option_allows_it():
    """DT-AMB-17: with ``work_allows_selling`` a hero may sell a scroll and then work (60 gold
    more); without it the same work is refused."""
    hand = {"scrolls": ["hex"], "gold": 0}
    lenient = in_city(hand, options={"work_allows_selling": True})
    lenient, _ = act(lenient, type="sell", player="Ann", scroll="hex")
    lenient, events = act(lenient, type="work", player="Ann")
    assert events[0]["gold"] == 60 and lenient["heroes"][0]["gold"] == 110
    assert lenient["t"]["business"] == "work"
    strict = in_city({"items": [{"card": "dagger"}], "gold": 0})
    strict, _ = act(strict, type="sell", player="Ann", card="dagger")
    assert strict["heroes"][0]["gold"] == 10
    refused(strict, "DT-CITY-1", type="work", player="Ann")


def test_the_shop_in_every_view_names_what_was_bought_and_how():
    """DT-CITY-2, DT-CITY-4, DT-CITY-5: the drawn cards with ``bought`` (None, then the face
    bought), the visit's ``business`` and whether a scroll was bought this visit."""
    state = in_city({"gold": 200})
    assert view(state, TABLE)["shop"] == {"cards": [], "business": None, "scroll_bought": False}
    state, _ = act(state, type="shop", player="Ann")
    state, _ = act(state, type="draw_item", card="dagger")
    state, _ = act(state, type="draw_item", card="club")
    shop = view(state, "Bob")["shop"]
    assert [(c["card"], c["bought"]) for c in shop["cards"]] == [("dagger", None), ("club", None)]
    assert (shop["business"], shop["scroll_bought"]) == ("shop", False)
    state, _ = act(state, type="buy", player="Ann", card="club", face="magic")
    state, _ = act(state, type="buy_scroll", player="Ann")
    shop = view(state, TABLE)["shop"]
    assert [c["bought"] for c in shop["cards"]] == [None, "magic"]
    assert shop["scroll_bought"] is True
    state, _ = act(state, type="draw_scroll", scroll="hex")
    state, _ = act(state, type="done", player="Ann")
    assert view(state, TABLE)["shop"] is None


def test_working_shows_in_the_shop_view():
    """DT-CITY-7: work is the whole business, and the view says so; leaving the city closes it."""
    state, _ = act(two(), type="stop", player="Ann")
    state, _ = act(state, type="work", player="Ann")
    assert view(state, TABLE)["shop"] == {"cards": [], "business": "work", "scroll_bought": False}
    state, _ = act(state, type="done", player="Ann")
    assert view(state, TABLE)["shop"] is None


def test_city_business_outside_a_city_names_the_action_refused():
    """DT-CITY-1: on the road, shopping for more and buying a scroll are refused, each naming
    itself and what Ann may do instead."""
    state = two()
    for kind in ("shop_more", "buy_scroll", "shop", "sell", "work"):
        reason = str(refused(state, "DT-CITY-1", type=kind, player="Ann").reason)
        assert reason == f"Not now ({kind}): Ann: move (4 left), stop, or enter the tower."


def test_selling_a_scroll_is_told_to_everyone():
    """DT-CITY-6: the sale's text names the seller and the 50 gold, never the scroll."""
    state = in_city({"scrolls": ["hex"]})
    _, events = act(state, type="sell", player="Ann", scroll="hex")
    assert events == [
        {"type": "sold", "text": "Ann sells a scroll for 50 gold.", "player": "Ann", "gold": 50}
    ]


def test_a_purchase_is_told_with_its_price_and_place():
    """DT-CITY-4: "Ann buys Club for 5 gold (slot 1)."; an end of turn in the city closes the
    shop for the next turn."""
    state, _ = act(in_city({"gold": 100}), type="shop", player="Ann")
    state, _ = act(state, type="draw_item", card="dagger")
    state, _ = act(state, type="draw_item", card="club")
    state, events = act(state, type="buy", player="Ann", card="club", face="equipment")
    assert events[0]["text"] == "Ann buys Club for 5 gold (slot 1)."
    assert (events[0]["where"], state["heroes"][0]["gold"]) == ("slot 1", 95)
    state, _ = act(state, type="end_turn", player="Ann")
    assert state["shop"] is None and view(state, TABLE)["shop"] is None


def test_a_purchase_into_the_backpack_and_a_card_not_in_the_deck():
    """DT-CITY-4, DT-CHAR-5, DT-CARD-2: with slot 1 taken by the Club, the Dagger goes to the
    backpack, and the text says so; a card already drawn is not in the deck."""
    state, _ = act(in_city({"gold": 100}), type="shop", player="Ann")
    state, _ = act(state, type="draw_item", card="dagger")
    reason = refused(state, "DT-CARD-2", type="draw_item", card="dagger").reason
    assert str(reason) == "That item card is not in the deck."
    state, _ = act(state, type="draw_item", card="club")
    state, _ = act(state, type="buy", player="Ann", card="club", face="equipment")
    state, events = act(state, type="buy", player="Ann", card="dagger", face="equipment")
    assert events[0]["text"] == "Ann buys Dagger for 10 gold (backpack)."
    assert events[0]["where"] == "backpack"
