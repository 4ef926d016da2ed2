"""Dork Tower: city business (shopping, selling, work) and items and scrolls in play (spec
sections 2.1, 2.12, 2.13 and 7.2, with ``test_dorktower_trading.py``)."""

from __future__ import annotations

import pytest
from dt_support import DATA, GAME, act, draw_tokens, in_city, refused, roll, totals, two, view

from companion.rules import HOST, TABLE, Refusal
from companion.rules.api import UNKNOWN_ACTION


def shop(state: dict, *cards: str) -> dict:
    state, _ = act(state, type="shop", player="Ann")
    for card in cards:
        state, _ = act(state, type="draw_item", card=card)
    return state


# -- city business ---------------------------------------------------------------------------


def test_shop_or_work_never_both():
    """DT-CITY-1: a hero in a city shops or works, not both; a scroll bought is shopping too."""
    shopped = shop(in_city(), "dagger", "club")
    refused(shopped, "DT-CITY-1", type="work", player="Ann")
    worked, _ = act(in_city(), type="work", player="Ann")
    refused(worked, "DT-CITY-1", type="shop", player="Ann")
    refused(worked, "DT-CITY-1", type="buy_scroll", player="Ann")
    assert {a["type"] for a in GAME.legal_actions(worked)} == {"done", "end_turn"}
    bought, _ = act(in_city(), type="buy_scroll", player="Ann")
    bought, _ = act(bought, type="draw_scroll", scroll="hex")
    refused(bought, "DT-CITY-1", type="work", player="Ann")


def test_shopping_draws_two_cards_and_shows_both_faces():
    """DT-CITY-2: the top two item cards are drawn and both faces of each are shown to
    everyone; shopping twice in one visit is refused."""
    state = in_city()
    state, _ = act(state, type="shop", player="Ann")
    chance = GAME.chance(state)
    assert (chance.kind, chance.rule, chance.player) == ("draw", "DT-CITY-2", "Ann")
    state, events = act(state, type="draw_item", card="spear")
    assert "Dragon Lance" in events[0]["text"] and "Spear" in events[0]["text"]
    state, _ = act(state, type="draw_item", card="bow")
    assert GAME.chance(state) is None
    for viewer in (TABLE, HOST, "Bob"):
        cards = view(state, viewer)["shop"]["cards"]
        assert [c["card"] for c in cards] == ["spear", "bow"]
        assert cards[0]["equipment"]["name"] == "Spear"
        assert cards[0]["magic"]["name"] == "Dragon Lance"
    refused(state, "DT-CITY-2", type="shop", player="Ann")


def test_more_cards_cost_one_xp_each():
    """DT-CITY-3, DT-AMB-3: after the two cards, each further card costs 1 XP (again and again
    while XP lasts); without XP, or before shopping, it is refused."""
    refused(in_city({"xp": 3}), "DT-CITY-3", type="shop_more", player="Ann")
    state = shop(in_city({"xp": 2}), "dagger", "club")
    state, _ = act(state, type="shop_more", player="Ann")
    state, _ = act(state, type="draw_item", card="bow")
    state, _ = act(state, type="shop_more", player="Ann")
    state, _ = act(state, type="draw_item", card="sling")
    assert state["heroes"][0]["xp"] == 0 and len(state["shop"]["cards"]) == 4
    refused(state, "DT-CITY-3", type="shop_more", player="Ann")


def test_one_item_per_card_at_its_price():
    """DT-CITY-4, DT-CARD-4: buy one face of a card at its price; the card goes on the sheet
    with that face up; the other face of the same card, a card not drawn, or an item the hero
    cannot pay are refused; cards nothing was bought from are discarded."""
    state = shop(in_city({"gold": 100}), "dagger", "chain-mail")
    refused(state, "DT-CITY-4", type="buy", player="Ann", card="bow", face="equipment")
    refused(state, "DT-CITY-4", type="buy", player="Ann", card="chain-mail", face="magic")
    state, _ = act(state, type="buy", player="Ann", card="dagger", face="magic")
    assert state["heroes"][0]["gold"] == 20
    assert state["heroes"][0]["slots"][0] == {"card": "dagger", "face": "magic"}
    assert view(state, TABLE)["players"]["Ann"]["slots"][0]["name"] == "Venom Dagger"
    refused(state, "DT-CITY-4", type="buy", player="Ann", card="dagger", face="equipment")
    refused(state, "DT-CITY-4", type="buy", player="Ann", card="chain-mail", face="equipment")
    state, _ = act(state, type="done", player="Ann")
    assert state["items"]["discard"] == ["chain-mail"]


def test_one_scroll_paid_before_it_is_drawn():
    """DT-CITY-5: one scroll per visit, 50 gold, paid before anyone knows which scroll; the
    buyer cannot choose it, and a second one or one he cannot pay is refused."""
    refused(in_city({"gold": 49}), "DT-CITY-5", type="buy_scroll", player="Ann")
    state = in_city()
    state, _ = act(state, type="buy_scroll", player="Ann")
    assert state["heroes"][0]["gold"] == 10 and state["heroes"][0]["scrolls"] == []
    assert GAME.awaited(state) == {"kind": "scroll", "player": "Ann", "why": "bought", "left": 1}
    state, _ = act(state, type="draw_scroll", scroll="aegis")
    assert state["heroes"][0]["scrolls"] == ["aegis"]
    state["heroes"][0]["gold"] = 500
    refused(state, "DT-CITY-5", type="buy_scroll", player="Ann")


def test_selling_items_at_their_price_and_scrolls_at_fifty():
    """DT-CITY-6, DT-TOK-4: items sell at the price of the face held, scrolls for 50 gold; the
    gold comes at once and the cards are discarded."""
    state = in_city(
        {
            "gold": 0,
            "scrolls": ["hex"],
            "items": [{"card": "chain-mail", "face": "magic"}, {"card": "dagger"}],
        }
    )
    state, _ = act(state, type="sell", player="Ann", card="chain-mail")
    assert state["heroes"][0]["gold"] == 200
    state, _ = act(state, type="sell", player="Ann", scroll="hex")
    assert state["heroes"][0]["gold"] == 250 and state["heroes"][0]["scrolls"] == []
    assert state["items"]["discard"] == ["chain-mail"] and state["scrolls"]["discard"] == ["hex"]
    refused(state, "DT-CARD-5", type="sell", player="Ann", card="chain-mail")
    refused(state, "DT-CARD-6", type="sell", player="Ann", scroll="hex")


@pytest.mark.parametrize("level, pay", [("low", 60), ("high", 120)])
def test_work_pays_by_level(level, pay):
    """DT-CITY-7, DT-LVL-3, DT-TOK-4: working earns 60 gold at low level, 120 at high level,
    and is the whole of the city business."""
    state = in_city({"level": level, "gold": 5})
    state, events = act(state, type="work", player="Ann")
    assert state["heroes"][0]["gold"] == 5 + pay and events[0]["gold"] == pay
    refused(state, "DT-CITY-1", type="work", player="Ann")


def test_work_excludes_selling_but_not_trading():
    """DT-AMB-17: a hero who works may not also sell at the market (unless the option allows
    it), and may not work after selling; trading with a character there is still allowed."""
    state = two({"items": [{"card": "dagger"}]}, {"space": "rv-city", "gold": 40})
    state, _ = act(state, type="stop", player="Ann")
    state, _ = act(state, type="done", player="Ann")  # no trade before the business
    worked, _ = act(state, type="work", player="Ann")
    refused(worked, "DT-AMB-17", type="sell", player="Ann", card="dagger")
    sold, _ = act(state, type="sell", player="Ann", card="dagger")
    refused(sold, "DT-CITY-1", type="work", player="Ann")
    worked, _ = act(worked, type="done", player="Ann")
    assert worked["phase"] == "trade"
    # "scrolls": [] works around the crash of test_an_offer_without_scrolls_can_be_accepted
    worked, _ = act(
        worked,
        type="offer",
        player="Ann",
        **{"with": "Bob"},
        give={"items": ["dagger"], "scrolls": []},
        take={"gold": 30},
    )
    worked, _ = act(worked, type="accept", player="Bob")
    assert worked["heroes"][0]["gold"] == 60 + 60 + 30
    assert worked["heroes"][1]["slots"][0]["card"] == "dagger"
    lenient = two({"items": [{"card": "dagger"}]}, options={"work_allows_selling": True})
    lenient, _ = act(lenient, type="stop", player="Ann")
    lenient, _ = act(lenient, type="work", player="Ann")
    lenient, _ = act(lenient, type="sell", player="Ann", card="dagger")
    assert lenient["heroes"][0]["gold"] == 60 + 60 + 10


def test_the_shopping_example():
    """DT-EX-4: 60 gold and 2 XP in a city: Shop draws 2 cards, 1 XP buys a third (1 XP left);
    buying one face of card A at price p leaves 60 - p gold; B and C are discarded; a scroll
    needs 50 gold up front, so with 60 - p < 50 it is refused; Work is refused."""
    state = shop(in_city({"gold": 60, "xp": 2}), "chain-mail", "bow")
    state, _ = act(state, type="shop_more", player="Ann")
    state, _ = act(state, type="draw_item", card="club")
    assert state["heroes"][0]["xp"] == 1
    price = DATA["items"]["chain-mail"]["equipment"]["price"]
    state, _ = act(state, type="buy", player="Ann", card="chain-mail", face="equipment")
    assert state["heroes"][0]["gold"] == 60 - price == 20
    refused(state, "DT-CITY-5", type="buy_scroll", player="Ann")
    refused(state, "DT-CITY-1", type="work", player="Ann")
    state, _ = act(state, type="end_turn", player="Ann")
    assert sorted(state["items"]["discard"]) == ["bow", "club"]
    assert state["heroes"][0]["slots"][1] == {"card": "chain-mail", "face": "equipment"}


def test_gold_comes_from_monsters_selling_and_work_and_is_spent_buying():
    """DT-TOK-4: a monster's treasure gives gold; selling and working give gold (above); buying
    spends it."""
    state = two({"space": "rv-moor", "gold": 0}, monsters={"rv-moor": ["goblin"]})
    state, _ = act(state, type="stop", player="Ann")
    state, _ = roll(state, 6, 6)
    state, _ = roll(state, 4)  # the Goblin's treasure: 10 gold
    assert state["heroes"][0]["gold"] == 10
    state = shop(in_city({"gold": 10}), "club", "dagger")
    state, _ = act(state, type="buy", player="Ann", card="club", face="equipment")
    assert state["heroes"][0]["gold"] == 5


# -- items and scrolls in play ---------------------------------------------------------------


def test_items_are_used_again_and_again_until_sold():
    """DT-CARD-5: an equipped item counts in every fight and stays on the sheet after it; it
    leaves only when sold (or lost)."""
    state = two(
        {"space": "rv-moor", "items": [{"card": "dagger"}]}, monsters={"rv-moor": ["goblin"]}
    )
    state, _ = act(state, type="stop", player="Ann")
    assert totals(state)["items"] == 1
    state, _ = roll(state, 6, 6)
    state, _ = roll(state, 1)
    assert state["heroes"][0]["slots"][0]["card"] == "dagger"
    state = in_city({"items": [{"card": "dagger"}]})
    state, _ = act(state, type="sell", player="Ann", card="dagger")
    assert state["heroes"][0]["slots"][0] is None


def test_items_keep_their_face_and_drawn_items_are_shown_to_all():
    """DT-AMB-22: there is no way to flip an owned item; an "equipment" result gives the white
    face, a "magic" result the purple face, and the card drawn is shown to everyone."""
    assert isinstance(
        GAME.apply(
            two({"items": [{"card": "dagger"}]}),
            {"type": "flip", "player": "Ann", "card": "dagger"},
        ),
        Refusal,
    )
    assert GAME.apply(two(), {"type": "flip", "player": "Ann"}).rule == UNKNOWN_ACTION
    state = two({"space": "sm-dunes"})  # a field by day: one token
    state, _ = act(state, type="stop", player="Ann")
    state = draw_tokens(state, "merchant")
    state, _ = act(state, type="resolve", player="Ann", token="merchant")
    assert GAME.awaited(state)["face"] == "equipment"
    state, events = act(state, type="draw_item", card="spear")
    assert state["heroes"][0]["slots"][0] == {"card": "spear", "face": "equipment"}
    assert "private" not in events[0] and GAME.view_event(events[0], "Bob") == events[0]
    state = two({"space": "rv-moor"}, monsters={"rv-moor": ["orc-shaman"]})
    state, _ = act(state, type="stop", player="Ann")
    state, _ = roll(state, 6, 6)
    state, _ = roll(state, 6)  # the Orc Shaman's treasure: a magic item
    state, events = act(state, type="draw_item", card="spear")
    assert state["heroes"][0]["slots"][0] == {"card": "spear", "face": "magic"}
    assert view(state, "Bob")["players"]["Ann"]["slots"][0]["name"] == "Dragon Lance"


def test_a_scroll_is_used_once_and_discarded():
    """DT-CARD-6: scrolls come from the face-down deck; one played goes to the discard pile and
    is gone from the hand; a scroll one does not hold cannot be played."""
    state = two({"space": "rv-moor", "scrolls": ["aegis"]}, monsters={"rv-moor": ["troll"]})
    state, _ = act(state, type="stop", player="Ann")
    refused(state, "DT-CARD-6", type="play_scroll", player="Ann", scroll="battle-fury")
    state, _ = act(state, type="play_scroll", player="Ann", scroll="aegis")
    assert state["heroes"][0]["scrolls"] == [] and state["scrolls"]["discard"] == ["aegis"]
    assert totals(state)["scrolls"] == 4
    assert "aegis" not in state["scrolls"]["deck"]


def test_scrolls_act_in_play_order_and_come_back_only_until_another_is_played():
    """DT-CARD-7: scrolls take effect in the order played; a player may take his scroll back
    until someone else plays another one, not after."""
    state = two(
        {"space": "rv-moor", "scrolls": ["war-cry", "blessing"]},
        {"scrolls": ["hex"]},
        monsters={"rv-moor": ["orc"]},
    )
    state, _ = act(state, type="stop", player="Ann")
    state, _ = act(state, type="play_scroll", player="Ann", scroll="war-cry")
    state, _ = act(state, type="take_back", player="Ann")
    assert state["heroes"][0]["scrolls"] == ["blessing", "war-cry"]
    assert totals(state)["scrolls"] == 0
    state, _ = act(state, type="play_scroll", player="Ann", scroll="war-cry")
    state, _ = act(state, type="done", player="Ann")
    state, _ = act(state, type="play_scroll", player="Bob", scroll="hex")
    assert [p["scroll"] for p in view(state, TABLE)["combat"]["played"]] == ["war-cry", "hex"]
    assert (totals(state)["scrolls"], totals(state)["against"]) == (1, 1)
    refused(state, "DT-CARD-7", type="take_back", player="Ann")
    state, _ = act(state, type="take_back", player="Bob")
    assert state["heroes"][1]["scrolls"] == ["hex"]


def test_each_scroll_has_its_window():
    """DT-AMB-27: a scroll is played in the window its card names: the fighter cannot play a
    scroll meant against a rival, a rival cannot play one meant for the fighter, and an
    after-the-roll scroll waits for a failed roll."""
    state = two(
        {"space": "rv-moor", "scrolls": ["hex", "second-chance", "war-cry"]},
        {"scrolls": ["aegis", "curse-of-weakness"]},
        monsters={"rv-moor": ["orc"]},
    )
    state, _ = act(state, type="stop", player="Ann")
    refused(state, "DT-AMB-27", type="play_scroll", player="Ann", scroll="hex")
    refused(state, "DT-COMBAT-8", type="play_scroll", player="Ann", scroll="second-chance")
    plays = {a["scroll"] for a in GAME.legal_actions(state) if a["type"] == "play_scroll"}
    assert plays == {"war-cry"}
    state, _ = act(state, type="done", player="Ann")
    refused(state, "DT-AMB-27", type="play_scroll", player="Bob", scroll="aegis")
    state, _ = act(state, type="play_scroll", player="Bob", scroll="curse-of-weakness")
    assert totals(state)["against"] == 2
