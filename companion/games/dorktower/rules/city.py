"""City business (DT-CITY): shopping (two item cards, more for XP), buying an item or a scroll,
selling, or working instead; and leaving the city."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.rules.api import MALFORMED, Action, Event, State
from companion.rules.common import Refuse as _Refuse
from companion.rules.common import event as _event
from companion.rules.common import name_of as _name

from .checks import expect_turn
from .constants import SCROLL_PRICE, SHOP_CARDS, WORK_PAY
from .flow import trade_window
from .heroes import gain_item, repeatable, take_item
from .prompts import prompt
from .state import draw_step
from .texts import named, slot_number


def _city_seat(data: dict[str, Any], state: State, action: Action, what: str) -> int:
    """The active player's seat, in the city with no card left to draw (DT-CITY-2)."""
    seat = expect_turn(data, state, action, "city", what)
    if state["pending"]:
        raise _Refuse("DT-CITY-2", t("Finish drawing first; {prompt}", prompt=prompt(data, state)))
    return seat


def shop(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-CITY-1, DT-CITY-2: draw the top two item cards and show both faces."""
    seat = _city_seat(data, state, action, "shop")
    turn = state["t"]
    if turn["business"] == "work":
        raise _Refuse("DT-CITY-1", t("A hero who works cannot also shop."))
    if state["shop"]["drawn"]:
        raise _Refuse(
            "DT-CITY-2",
            t("The shop's cards are already drawn; buy, draw another for XP, or finish."),
        )
    turn["business"] = "shop"
    state["shop"]["drawn"] = SHOP_CARDS
    state["pending"].extend(
        draw_step("item", seat, "shop", face="shop") for _card in range(SHOP_CARDS)
    )
    events.append(
        _event(
            "shopping",
            t("{player} goes shopping.", player=_name(state, seat)),
            player=_name(state, seat),
        )
    )


def shop_more(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-CITY-3: one more card for 1 XP."""
    seat = _city_seat(data, state, action, "shop_more")
    if state["t"]["business"] != "shop" or not state["shop"]["drawn"]:
        raise _Refuse("DT-CITY-3", t("Shop first; then each extra card costs XP."))
    repeatable(data, state, "extra_shop_card")
    cost = data["xp"]["extra_shop_card"]
    hero = state["heroes"][seat]
    if hero["xp"] < cost:
        raise _Refuse(
            "DT-CITY-3",
            t(
                "Another card costs {cost} XP; {player} has {xp}.",
                cost=cost,
                player=_name(state, seat),
                xp=hero["xp"],
            ),
        )
    hero["xp"] -= cost
    state["t"]["paid"]["extra_shop_card"] = state["t"]["paid"].get("extra_shop_card", 0) + 1
    state["shop"]["drawn"] += 1
    state["pending"].append(draw_step("item", seat, "shop", face="shop"))


def buy(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-CITY-4, DT-CARD-4: one face per card, at its price."""
    seat = _city_seat(data, state, action, "buy")
    card, face = action.get("card"), action.get("face")
    entry = next((drawn for drawn in state["shop"]["cards"] if drawn["card"] == card), None)
    if entry is None:
        raise _Refuse("DT-CITY-4", t("Only a card drawn in this shop can be bought."))
    if entry["bought"] is not None:
        raise _Refuse("DT-CITY-4", t("Only one item per card: this card is sold."))
    if face not in ("equipment", "magic"):
        raise _Refuse(MALFORMED, t("face is equipment (white) or magic (purple)."))
    item = data["items"][card][face]
    hero = state["heroes"][seat]
    if hero["gold"] < item["price"]:
        raise _Refuse(
            "DT-CITY-4",
            t(
                "{item} costs {price} gold; {player} has {gold}.",
                item=named(item["name"]),
                price=item["price"],
                player=_name(state, seat),
                gold=hero["gold"],
            ),
        )
    hero["gold"] -= item["price"]
    entry["bought"] = face
    where = gain_item(data, state, seat, card, face)
    if where == "backpack":
        text = t(
            "{player} buys {item} for {price} gold (backpack).",
            player=_name(state, seat),
            item=named(item["name"]),
            price=item["price"],
        )
    else:
        text = t(
            "{player} buys {item} for {price} gold (slot {slot}).",
            player=_name(state, seat),
            item=named(item["name"]),
            price=item["price"],
            slot=slot_number(where),
        )
    events.append(
        _event("bought", text, player=_name(state, seat), card=card, face=face, where=where)
    )


def buy_scroll(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-CITY-5: one scroll, 50 gold, paid before it is drawn."""
    seat = _city_seat(data, state, action, "buy_scroll")
    turn, hero = state["t"], state["heroes"][seat]
    if turn["business"] == "work":
        raise _Refuse("DT-CITY-1", t("A hero who works cannot also shop."))
    if turn["scroll_bought"]:
        raise _Refuse("DT-CITY-5", t("One scroll per visit to the city."))
    if hero["gold"] < SCROLL_PRICE:
        raise _Refuse(
            "DT-CITY-5",
            t(
                "A scroll costs {price} gold; {player} has {gold}.",
                price=SCROLL_PRICE,
                player=_name(state, seat),
                gold=hero["gold"],
            ),
        )
    hero["gold"] -= SCROLL_PRICE
    turn["scroll_bought"] = True
    turn["business"] = "shop"
    state["pending"].append(draw_step("scroll", seat, "bought"))
    events.append(
        _event(
            "scroll_bought",
            t(
                "{player} pays {price} gold for a scroll.",
                player=_name(state, seat),
                price=SCROLL_PRICE,
            ),
            player=_name(state, seat),
        )
    )


def sell(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-CITY-6: items at their price, scrolls at 50 gold."""
    seat = _city_seat(data, state, action, "sell")
    turn, hero = state["t"], state["heroes"][seat]
    if turn["business"] == "work" and not state["options"]["work_allows_selling"]:
        raise _Refuse("DT-AMB-17", t("A hero who works does not also sell at the market."))
    name = _name(state, seat)
    if action.get("scroll") is not None:
        card = action["scroll"]
        if card not in hero["scrolls"]:
            raise _Refuse("DT-CARD-6", t("That scroll is not in {player}'s hand.", player=name))
        hero["scrolls"].remove(card)
        state["scrolls"]["discard"].append(card)
        hero["gold"] += SCROLL_PRICE
        turn["sold"] = True
        events.append(
            _event(
                "sold",
                t("{player} sells a scroll for {gold} gold.", player=name, gold=SCROLL_PRICE),
                player=name,
                gold=SCROLL_PRICE,
            )
        )
        return
    card = action.get("card")
    held = take_item(state, seat, card)
    price = data["items"][card][held["face"]]["price"]
    hero["gold"] += price
    state["items"]["discard"].append(card)
    turn["sold"] = True
    events.append(
        _event(
            "sold",
            t(
                "{player} sells {item} for {gold} gold.",
                player=name,
                item=named(data["items"][card][held["face"]]["name"]),
                gold=price,
            ),
            player=name,
            card=card,
            gold=price,
        )
    )


def work(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-CITY-1, DT-CITY-7, DT-LVL-3: 60 gold (120 at high level) instead of shopping."""
    seat = _city_seat(data, state, action, "work")
    turn = state["t"]
    if turn["business"] is not None or (
        turn["sold"] and not state["options"]["work_allows_selling"]
    ):
        raise _Refuse("DT-CITY-1", t("Shop or work, not both."))
    hero = state["heroes"][seat]
    pay = WORK_PAY[hero["level"]]
    hero["gold"] += pay
    turn["business"] = "work"
    events.append(
        _event(
            "worked",
            t("{player} works and earns {gold} gold.", player=_name(state, seat), gold=pay),
            player=_name(state, seat),
            gold=pay,
        )
    )


def leave_city(state: State, events: list[Event]) -> None:
    """The city business is done: the trade window after the encounter, or the cleanup."""
    visit = state["shop"]
    if visit:
        for entry in visit["cards"]:
            if entry["bought"] is None:  # DT-CITY-4: a card nothing was bought from
                state["items"]["discard"].append(entry["card"])
    state["shop"] = None
    if trade_window(state, "after"):
        return
    state["phase"] = "cleanup"
