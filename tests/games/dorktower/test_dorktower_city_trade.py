"""Dork Tower: city business, trading, cards in play and hidden information (spec sections
2.1, 2.12, 2.13 and 7.2), with a property test over random games."""

from __future__ import annotations

import json
import random

import pytest
from dt_support import DATA, GAME, act, arrange, draw_tokens, hero, refused, roll, totals, view

from companion.rules import EVERYTHING, HOST, TABLE, Accepted, Refusal
from companion.rules.api import UNKNOWN_ACTION

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


def two(ann: dict | None = None, bob: dict | None = None, **scenario) -> dict:
    """Ann (Topdeck, of Ravensteel Keep) and Bob (Lumpin, of Thunderhawk Eyrie); Ann moves."""
    return arrange(
        {
            "Ann": {**hero("topdeck", "rv-city"), **(ann or {})},
            "Bob": {**hero("lumpin", "th-city"), **(bob or {})},
        },
        **scenario,
    )


def in_city(ann: dict | None = None, bob: dict | None = None, **scenario) -> dict:
    """Ann has stopped in her home city and may shop or work (Bob is elsewhere)."""
    state, _ = act(two(ann, bob, **scenario), type="stop", player="Ann")
    assert state["phase"] == "city"
    return state


def shop(state: dict, *cards: str) -> dict:
    state, _ = act(state, type="shop", player="Ann")
    for card in cards:
        state, _ = act(state, type="draw_item", card=card)
    return state


def together(
    ann: dict | None = None, bob: dict | None = None, space: str = "rv-moor", **scenario
) -> dict:
    """Ann and Bob on one space; Ann has stopped there: the first trade window is open."""
    state = two({"space": space, **(ann or {})}, {"space": space, **(bob or {})}, **scenario)
    state, _ = act(state, type="stop", player="Ann")
    assert state["phase"] == "trade"
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


# -- trading ---------------------------------------------------------------------------------


def test_trade_only_with_characters_on_ones_space():
    """DT-TRADE-1: a hero who ends on a space with other characters may buy or sell items and
    scrolls with them; alone, no trade window opens, and nobody elsewhere can be a partner."""
    alone, _ = act(two({"space": "sm-dunes"}), type="stop", player="Ann")
    assert alone["phase"] == "encounter"
    state = arrange(
        {
            "Ann": hero("topdeck", "rv-city", space="rv-moor"),
            "Bob": hero(
                "lumpin", "th-city", space="rv-moor", items=[{"card": "dagger"}], scrolls=["hex"]
            ),
            "Cid": hero("grimnir", "cd-city"),
        }
    )
    state, _ = act(state, type="stop", player="Ann")
    refused(state, "DT-TRADE-1", type="offer", player="Ann", **{"with": "Cid"}, give={"gold": 5})
    refused(state, "DT-TRADE-1", type="offer", player="Ann", **{"with": "Bob"}, give={"gold": 500})
    refused(
        state, "DT-TRADE-1", type="offer", player="Ann", **{"with": "Bob"}, take={"items": ["bow"]}
    )
    state, _ = act(
        state,
        type="offer",
        player="Ann",
        **{"with": "Bob"},
        give={"gold": 45, "scrolls": []},  # see test_an_offer_without_scrolls...
        take={"items": ["dagger"], "scrolls": 1},
    )
    refused(state, "DT-TRADE-1", type="accept", player="Bob", scrolls=[])
    state, _ = act(state, type="accept", player="Bob", scrolls=["hex"])
    ann, bob = state["heroes"][0], state["heroes"][1]
    assert (ann["gold"], bob["gold"]) == (15, 105)
    assert ann["scrolls"] == ["hex"] and ann["slots"][0]["card"] == "dagger"
    assert bob["scrolls"] == [] and bob["slots"][0] is None


def test_trading_comes_before_the_fight_and_the_partner_stays_out_of_it():
    """DT-TRADE-2, DT-AMB-7: the trade window opens as the movement ends, before any token is
    drawn; the other character takes no part in the fight (his items add nothing)."""
    state = together(bob={"items": [{"card": "war-hammer"}]})
    assert state["pending"] == [] and state["encounter"] is None
    state, _ = act(state, type="done", player="Ann")
    assert GAME.chance(state).rule == "DT-ENC-3"
    state = draw_tokens(state, "goblin", "wolf")
    assert totals(state)["items"] == 0 and totals(state)["player"] == 7


@pytest.mark.parametrize(
    "windows, before, after",
    [("both", True, True), ("before", True, False), ("after", False, True), ("none", False, False)],
)
def test_the_trade_windows_are_configurable(windows, before, after):
    """DT-AMB-7: one window right after the movement, one after the encounter (or the city),
    both, or neither."""
    state = two(bob={"space": "rv-city"}, options={"trade_windows": windows})
    state, _ = act(state, type="stop", player="Ann")
    assert (state["phase"] == "trade") is before
    if before:
        state, _ = act(state, type="done", player="Ann")
    assert state["phase"] == "city"
    state, _ = act(state, type="done", player="Ann")
    assert (state["phase"] == "trade") is after


def test_xp_can_never_be_traded():
    """DT-TRADE-3: XP are neither bought nor sold."""
    state = together({"xp": 5}, {"xp": 5})
    refused(
        state,
        "DT-TRADE-3",
        type="offer",
        player="Ann",
        **{"with": "Bob"},
        give={"xp": 2},
        take={"gold": 10},
    )
    refused(
        state,
        "DT-TRADE-3",
        type="offer",
        player="Ann",
        **{"with": "Bob"},
        give={"gold": 10},
        take={"xp": 1},
    )


def test_trades_are_free_offers_by_the_active_player():
    """DT-AMB-24: prices are free: gold and/or cards, swaps included; only the active player
    proposes; the partner accepts or declines, and either side may call it off."""
    state = together(
        {"items": [{"card": "dagger"}], "scrolls": ["aegis"]},
        {"items": [{"card": "club"}], "scrolls": ["hex"]},
    )
    refused(state, "DT-TURN-1", type="offer", player="Bob", **{"with": "Ann"}, give={"gold": 1})
    swap, _ = act(
        state,
        type="offer",
        player="Ann",
        **{"with": "Bob"},
        give={"items": ["dagger"], "scrolls": ["aegis"]},
        take={"items": ["club"]},
    )
    declined, _ = act(swap, type="decline", player="Bob")
    assert declined["offer"] is None and declined["heroes"] == state["heroes"]
    withdrawn, _ = act(swap, type="decline", player="Ann")
    assert withdrawn["offer"] is None
    done, _ = act(swap, type="accept", player="Bob")
    assert done["heroes"][0]["slots"][0]["card"] == "club"
    assert {"card": "dagger", "face": "equipment"} in done["heroes"][1]["backpack"]
    assert done["heroes"][1]["scrolls"] == ["hex", "aegis"]
    assert done["heroes"][0]["gold"] == done["heroes"][1]["gold"] == 60


def test_an_offer_without_scrolls_can_be_accepted():
    """DT-TRADE-1, DT-AMB-24: gold for an item, with no scrolls named: everyone can view the
    offer and the partner can accept it."""
    state = together(bob={"items": [{"card": "club"}]})
    state, _ = act(
        state,
        type="offer",
        player="Ann",
        **{"with": "Bob"},
        give={"gold": 5},
        take={"items": ["club"]},
    )
    assert view(state, TABLE)["offer"]["give"]["gold"] == 5
    state, _ = act(state, type="accept", player="Bob")
    assert state["heroes"][0]["slots"][0]["card"] == "club"


# -- hidden information ----------------------------------------------------------------------


def test_scrolls_in_hand_are_seen_only_by_their_owner():
    """DT-AMB-30, DT-CARD-6: gold, XP and the number of scrolls are public; which scrolls a
    hero holds is seen by him alone (and the referee), never by the table, the host or another
    player."""
    state = play_started(3)
    for i, owner in enumerate(state["players"]):
        hand = state["heroes"][i]["scrolls"]
        assert [s["scroll"] for s in view(state, owner)["players"][owner]["scrolls"]] == hand
        assert [s["scroll"] for s in view(state, EVERYTHING)["players"][owner]["scrolls"]] == hand
        for viewer in [TABLE, HOST] + [p for p in state["players"] if p != owner]:
            seen = view(state, viewer)["players"][owner]
            assert seen["scrolls"] is None and seen["scroll_count"] == len(hand)
            assert (seen["gold"], seen["xp"]) == (60, 0)
            for card in hand:
                assert json.dumps(card) not in json.dumps(view(state, viewer))


def test_a_drawn_scroll_is_told_only_to_its_drawer():
    """DT-CARD-6, DT-CITY-5: the event of a scroll draw names the scroll only for the drawer;
    everyone else learns that he drew one."""
    state = in_city()
    state, _ = act(state, type="buy_scroll", player="Ann")
    state, events = act(state, type="draw_scroll", scroll="fortunes-favour")
    drawn = next(e for e in events if e["type"] == "scroll_drawn")
    assert GAME.view_event(drawn, "Ann")["private"]["scroll"] == "fortunes-favour"
    assert GAME.view_event(drawn, EVERYTHING)["private"]["scroll"] == "fortunes-favour"
    for viewer in ("Bob", TABLE, HOST):
        public = GAME.view_event(drawn, viewer)
        assert "private" not in public and public["player"] == "Ann"
        assert "fortunes-favour" not in json.dumps(public)
        assert "Fortune" not in json.dumps(public)


def test_an_offer_and_a_trade_keep_the_scrolls_between_the_two_players():
    """DT-AMB-30, DT-AMB-24: others see that scrolls change hands, not which."""
    state = arrange(
        {
            "Ann": hero("topdeck", "rv-city", space="rv-moor", scrolls=["aegis"]),
            "Bob": hero("lumpin", "th-city", space="rv-moor", scrolls=["hex"]),
            "Cid": hero("grimnir", "cd-city"),
        }
    )
    state, _ = act(state, type="stop", player="Ann")
    state, _ = act(
        state,
        type="offer",
        player="Ann",
        **{"with": "Bob"},
        give={"scrolls": ["aegis"]},
        take={"scrolls": 1},
    )
    assert view(state, "Bob")["offer"]["give"]["scrolls"] == ["aegis"]
    assert view(state, "Cid")["offer"]["give"]["scrolls"] == 1
    assert view(state, TABLE)["offer"]["give"]["scrolls"] == 1
    state, events = act(state, type="accept", player="Bob", scrolls=["hex"])
    traded = next(e for e in events if e["type"] == "traded")
    assert GAME.view_event(traded, "Bob")["private"]["took"]["scrolls"] == ["hex"]
    for viewer in ("Cid", TABLE, HOST):
        seen = view(state, viewer)
        text = json.dumps(GAME.view_event(traded, viewer)) + json.dumps(seen)
        assert "aegis" not in text and '"hex"' not in text


def test_an_arranged_game_does_not_show_the_arranged_hands():
    """DT-AMB-30: a game started from an arranged position hides the hands it arranged."""
    state = two({"scrolls": ["aegis"]}, {"scrolls": ["hex"]})
    assert "aegis" not in json.dumps(view(state, "Bob"))
    assert '"hex"' not in json.dumps(view(state, TABLE))


# -- random games ----------------------------------------------------------------------------


def play_started(n: int, seed: int = 5) -> dict:
    """A game of ``n`` players after the start roll, the choices and the starting scrolls."""
    state = GAME.new(NAMES[:n], {"start_roll": False}, seed=seed)
    cities = ["rv-city", "th-city", "cd-city", "sm-city", "bh-city", "iv-city"]
    chars = ["topdeck", "lumpin", "laeoretha", "grimnir", "mirella", "brannock"]
    for char, city in zip(chars[:n], cities[:n]):
        state, _ = act(
            state,
            type="choose",
            player=state["players"][state["choosing"]],
            character=char,
            city=city,
        )
    while GAME.chance(state) is not None:
        state, _ = act(state, **GAME.sample(state))
    return state


def trade_move(state: dict, rng: random.Random) -> dict | None:
    """Offers and acceptances, which legal_actions does not list, now and then."""
    if state["phase"] != "trade" or GAME.chance(state) is not None:
        return None
    active = state["active"]
    o = state["offer"]
    if o is None and rng.random() < 0.6:
        here = state["heroes"][active]["space"]
        partners = [
            i
            for i, h in enumerate(state["heroes"])
            if i != active and h["space"] == here and not h["dead"]
        ]
        partner = rng.choice(partners)
        mine = state["heroes"][active]["scrolls"]
        give = rng.sample(mine, rng.randint(0, len(mine)))
        want = rng.randint(0, min(1, len(state["heroes"][partner]["scrolls"])))
        return {
            "type": "offer",
            "player": state["players"][active],
            "with": state["players"][partner],
            "give": {"scrolls": give},
            "take": {"scrolls": want},
        }
    if o is not None and rng.random() < 0.7:
        hand = state["heroes"][o["to"]]["scrolls"]
        return {
            "type": "accept",
            "player": state["players"][o["to"]],
            "scrolls": hand[: o["take"]["scrolls"]],
        }
    return None


def check_views(state: dict) -> None:
    """Every viewer's view is JSON; nobody but the owner sees a scroll in someone's hand."""
    json.dumps(GAME.view(state, EVERYTHING))
    public = set(state["scrolls"]["discard"])
    if state["combat"]:
        public |= {p["scroll"] for p in state["combat"]["played"]}
    for viewer in state["players"] + [TABLE, HOST]:
        v = GAME.view(state, viewer)
        text = json.dumps(v)
        shown = set()
        o = state["offer"]
        if o is not None and viewer in (state["players"][o["from"]], state["players"][o["to"]]):
            shown = set(o["give"]["scrolls"])
        for i, owner in enumerate(state["players"]):
            hand = state["heroes"][i]["scrolls"]
            seen = v["players"][owner]
            assert seen["scroll_count"] == len(hand)
            if owner == viewer:
                assert [s["scroll"] for s in seen["scrolls"]] == hand
                continue
            assert seen["scrolls"] is None
            for card in set(hand) - public - shown:
                assert json.dumps(card) not in text, (viewer, owner, card)


def check_events(state: dict, events: list[dict]) -> None:
    for event in events:
        audience = event.get("audience", [])
        for viewer in state["players"] + [TABLE, HOST]:
            seen = GAME.view_event(event, viewer)
            json.dumps(seen)
            if viewer not in audience:
                assert "private" not in seen and "audience" not in seen
                if event["type"] == "scroll_drawn":
                    assert json.dumps(event["private"]["scroll"]) not in json.dumps(seen)


@pytest.mark.parametrize("seed", range(30))
def test_random_games_never_break_and_never_leak_a_hand(seed):
    """DT-AMB-30, DT-CARD-6, DT-AMB-20: 30 random games of 2 to 6 players, 400 steps
    each (chance resolved from the seed, choices from legal_actions, trades now and then): no
    legal action is refused or raises; every view of every viewer is JSON; no view of another
    player, the table or the host holds a scroll from someone's hand that has not been played
    or discarded; private event parts reach only their audience."""
    rng = random.Random(seed)
    n = 2 + seed % 5
    state = GAME.new(NAMES[:n], {}, seed=seed)
    for step in range(400):
        if state["phase"] == "over":
            break
        if GAME.chance(state) is not None:
            action = GAME.sample(state)
        else:
            actions = GAME.legal_actions(state)
            assert actions, state["phase"]
            action = trade_move(state, rng) or rng.choice(actions)
        result = GAME.apply(state, action)
        assert isinstance(result, Accepted), (action, result)
        state = result.state
        check_events(state, list(result.events))
        if step % 4 == 0 or action["type"] in (
            "draw_scroll",
            "offer",
            "accept",
            "play_scroll",
            "take_back",
            "discard",
            "sell",
        ):
            check_views(state)
    check_views(state)
    json.dumps(state)
