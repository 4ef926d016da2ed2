"""Trading between characters on the same space (DT-TRADE, DT-AMB-7, DT-AMB-24): an offer, its
acceptance or refusal, and the end of the trade window."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.rules.api import MALFORMED, Action, Event, State
from companion.rules.common import Refuse as _Refuse
from companion.rules.common import event as _event
from companion.rules.common import name_of as _name
from companion.rules.common import player_of as _player
from companion.rules.common import seat_of as _seat

from .board import others_here
from .checks import expect_turn
from .encounters import classify
from .heroes import gain_item, take_item
from .state import held_items


def offer(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-TRADE-1..3, DT-AMB-24: the active player proposes; the other accepts or not."""
    seat = expect_turn(data, state, action, "trade", "offer")
    if state["offer"] is not None:
        raise _Refuse("DT-TRADE-1", t("An offer is already waiting for an answer."))
    partner = _seat(state, action.get("with"))
    if partner not in others_here(state, seat):
        raise _Refuse(
            "DT-TRADE-1",
            t(
                "{partner} is not on {player}'s space.",
                partner=_name(state, partner),
                player=_name(state, seat),
            ),
        )
    give, take = action.get("give") or {}, action.get("take") or {}
    if not isinstance(give, dict) or not isinstance(take, dict):
        raise _Refuse(MALFORMED, t("give and take are objects with gold, items and scrolls."))
    if "xp" in give or "xp" in take:
        raise _Refuse("DT-TRADE-3", t("XP can never be bought or sold."))
    _check_side(state, seat, give, by_id=True)
    _check_side(state, partner, take, by_id=False)
    state["offer"] = {
        "from": seat,
        "to": partner,
        "give": _side(give, by_id=True),
        "take": _side(take, by_id=False),
    }
    events.append(
        _event(
            "offer",
            t(
                "{player} makes {partner} an offer.",
                player=_name(state, seat),
                partner=_name(state, partner),
            ),
            player=_name(state, seat),
            to=_name(state, partner),
        )
    )


def _check_side(state: State, seat: int, side: dict, by_id: bool) -> None:
    """A side of an offer is well formed and its owner has it (the scrolls asked for: a number)."""
    hero = state["heroes"][seat]
    unknown = set(side) - {"gold", "items", "scrolls"}
    if unknown:
        raise _Refuse(
            MALFORMED,
            t(
                "A side of a trade has gold, items and scrolls, not {keys}.",
                keys=", ".join(sorted(unknown)),
            ),
        )
    gold = side.get("gold", 0)
    if not isinstance(gold, int) or isinstance(gold, bool) or gold < 0:
        raise _Refuse(MALFORMED, t("gold is a whole number."))
    if gold > hero["gold"]:
        raise _Refuse(
            "DT-TRADE-1",
            t(
                "{player} has {gold} gold, not {wanted}.",
                player=_name(state, seat),
                gold=hero["gold"],
                wanted=gold,
            ),
        )
    owned = {entry["card"] for entry in held_items(hero)}
    items = side.get("items", [])
    if not isinstance(items, list) or any(card not in owned for card in items):
        raise _Refuse(
            "DT-TRADE-1", t("{player} does not have those items.", player=_name(state, seat))
        )
    scrolls = side.get("scrolls", [] if by_id else 0)
    if by_id:
        if (
            not isinstance(scrolls, list)
            or any(card not in hero["scrolls"] for card in scrolls)
            or len(set(scrolls)) != len(scrolls)
        ):
            raise _Refuse(
                "DT-CARD-6",
                t("Those scrolls are not in {player}'s hand.", player=_name(state, seat)),
            )
    elif (
        not isinstance(scrolls, int)
        or isinstance(scrolls, bool)
        or not 0 <= scrolls <= len(hero["scrolls"])
    ):
        raise _Refuse(
            "DT-TRADE-1",
            t(
                "Ask {player} for a number of scrolls, at most as many as he holds.",
                player=_name(state, seat),
            ),
        )


def accept(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """The partner accepts the offer, choosing the scrolls of his hand it asks for."""
    seat = _seat(state, _player(action))
    proposal = state["offer"]
    if proposal is None or seat != proposal["to"]:
        raise _Refuse("DT-TRADE-1", t("There is no offer for you to accept."))
    chosen = action.get("scrolls", [])
    want = proposal["take"]["scrolls"]
    hero = state["heroes"][seat]
    if (
        not isinstance(chosen, list)
        or len(chosen) != want
        or len(set(chosen)) != want
        or any(card not in hero["scrolls"] for card in chosen)
    ):
        raise _Refuse(
            "DT-TRADE-1",
            t("Choose {n} scroll of your hand to hand over (scrolls).", n=want)
            if want == 1
            else t("Choose {n} scrolls of your hand to hand over (scrolls).", n=want),
        )
    giver, taker = proposal["from"], proposal["to"]
    for card in [] if proposal["give"]["items"] is None else proposal["give"]["items"]:
        _check_still(state, giver, card)
    for card in proposal["take"]["items"]:
        _check_still(state, taker, card)
    hand = list(state["heroes"][giver]["scrolls"])
    for card in proposal["give"]["scrolls"]:  # discarded or sold since the offer was made
        if card not in hand:
            raise _Refuse("DT-TRADE-1", t("A scroll of the offer is no longer there."))
        hand.remove(card)
    _transfer(
        data,
        state,
        giver,
        taker,
        proposal["give"]["gold"],
        proposal["give"]["items"],
        proposal["give"]["scrolls"],
    )
    _transfer(
        data, state, taker, giver, proposal["take"]["gold"], proposal["take"]["items"], chosen
    )
    state["offer"] = None
    giver_name, taker_name = _name(state, giver), _name(state, taker)
    events.append(
        _event(
            "traded",
            t("{player} and {partner} trade.", player=giver_name, partner=taker_name),
            players=[giver_name, taker_name],
            private={"gave": proposal["give"], "took": proposal["take"] | {"scrolls": chosen}},
            audience=[giver_name, taker_name],
        )
    )


def _check_still(state: State, seat: int, card: str) -> None:
    """An item offered is still held when the offer is accepted."""
    if card not in {entry["card"] for entry in held_items(state["heroes"][seat])}:
        raise _Refuse("DT-TRADE-1", t("An item of the offer is no longer there."))


def _transfer(
    data: dict[str, Any],
    state: State,
    from_seat: int,
    to_seat: int,
    gold: int,
    items: list[str],
    scrolls: list[str],
) -> None:
    """One side of an accepted offer changes hands."""
    giver, taker = state["heroes"][from_seat], state["heroes"][to_seat]
    if gold > giver["gold"]:
        raise _Refuse(
            "DT-TRADE-1",
            t("{player} no longer has {gold} gold.", player=_name(state, from_seat), gold=gold),
        )
    giver["gold"] -= gold
    taker["gold"] += gold
    for card in items:
        held = take_item(state, from_seat, card)
        gain_item(data, state, to_seat, card, held["face"])
    for card in scrolls:
        giver["scrolls"].remove(card)
        taker["scrolls"].append(card)


def decline(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """The partner declines the offer, or the active player withdraws it."""
    seat = _seat(state, _player(action))
    proposal = state["offer"]
    if proposal is None or seat not in (proposal["to"], proposal["from"]):
        raise _Refuse("DT-TRADE-1", t("There is no offer for you to decline."))
    state["offer"] = None
    if seat == proposal["to"]:
        text = t("The offer to {player} is declined.", player=_name(state, proposal["to"]))
    else:
        text = t("The offer to {player} is withdrawn.", player=_name(state, proposal["to"]))
    events.append(_event("offer_declined", text, player=_name(state, seat)))


def close_trade(data: dict[str, Any], state: State, events: list[Event]) -> None:
    """The trade window closes: the encounter comes next, or the cleanup."""
    state["offer"] = None
    window = state["t"]["trade_window"]
    state["t"]["trade_window"] = None
    if window == "before":
        classify(data, state, events)
    else:
        state["phase"] = "cleanup"


def _side(side: dict, by_id: bool) -> dict[str, Any]:
    """One side of an offer: the giver's scrolls by card, the scrolls asked for by number."""
    scrolls = side.get("scrolls", [] if by_id else 0)
    return {
        "gold": side.get("gold", 0),
        "items": list(side.get("items", [])),
        "scrolls": list(scrolls) if by_id else scrolls,
    }
