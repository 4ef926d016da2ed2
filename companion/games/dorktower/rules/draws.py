"""The world's answers to chance: dice rolled and tokens and cards drawn blind, each checked
against the awaited step (``state["pending"]``) and handed to the rule that asked for it."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.rules.api import MALFORMED, Action, Event, State
from companion.rules.common import Refuse as _Refuse
from companion.rules.common import event as _event
from companion.rules.common import name_of as _name
from companion.rules.common import seat_of as _seat

from .chance import chance
from .constants import DIE
from .fights import rolled_combat, rolled_quest, rolled_treasure
from .flow import flow
from .heroes import gain_item
from .prompts import prompt
from .setup import rolled_start
from .state import draw_step, fulfilled
from .texts import named, slot_number, takes_an

#: The rules that asked for a roll, by the ``why`` of its chance step.
ROLLED = {
    "start": rolled_start,
    "combat": rolled_combat,
    "treasure": rolled_treasure,
    "quest": rolled_quest,
}


def _expect_chance(
    data: dict[str, Any], state: State, kind: str, action: Action | None = None
) -> dict[str, Any]:
    """The awaited chance step, refused unless it is of ``kind`` (and, when the action names a
    player, his)."""
    if not state["pending"] or state["pending"][0]["kind"] != kind:
        prompt_text = prompt(data, state)
        if kind == "die":
            reason = t("No roll is expected now; {prompt}", prompt=prompt_text)
        elif kind == "token":
            reason = t("No encounter token is expected now; {prompt}", prompt=prompt_text)
        elif kind == "item":
            reason = t("No item card is expected now; {prompt}", prompt=prompt_text)
        else:
            reason = t("No scroll is expected now; {prompt}", prompt=prompt_text)
        raise _Refuse("DT-TURN-2", reason)
    chance_step = state["pending"][0]
    if (
        action is not None
        and action.get("player") is not None
        and chance_step.get("player") is not None
    ):
        if _seat(state, action["player"]) != chance_step["player"]:
            raise _Refuse(
                "DT-TURN-1",
                t(
                    "{player} draws now, not {other}.",
                    player=_name(state, chance_step["player"]),
                    other=action["player"],
                ),
            )
    return chance_step


def roll(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """Dice for the awaited roll: who starts, a fight, a treasure, the Quest Location table."""
    if state["phase"] == "start_roll":
        start = chance(state)
        chance_step = {
            "kind": "die",
            "why": "start",
            "player": _seat(state, start.player),
            "dice": 2,
        }
        state["pending"].insert(0, chance_step)
    if state["phase"] == "resolve" and not state["pending"]:
        raise _Refuse("DT-ENC-4", t("Resolve the tokens that are not monsters before the fight."))
    chance_step = _expect_chance(data, state, "die")
    if "player" in action and action["player"] is not None:
        seat = _seat(state, action["player"])
        if chance_step["player"] is not None and seat != chance_step["player"]:
            raise _Refuse(
                "DT-TURN-1",
                t(
                    "{player} rolls now, not {other}.",
                    player=_name(state, chance_step["player"]),
                    other=action["player"],
                ),
            )
    values = _dice_values(action, chance_step["dice"])
    fulfilled(state)
    ROLLED[chance_step["why"]](data, state, chance_step, values, events)
    flow(data, state, events)


def draw_token(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """An encounter token drawn blind from the bowl (DT-ENC-3, DT-WIZ-2)."""
    if not state["pending"] or state["pending"][0]["kind"] != "token":
        turn = state["t"]
        here = state["heroes"][state["active"]]["space"] if turn else None
        if here and here in state["monsters"] and turn["encountered"]:
            raise _Refuse(
                "DT-ENC-2", t("Monsters are already here: fight them; no token is drawn.")
            )
        if here and state["phase"] == "city":
            raise _Refuse("DT-ENC-1", t("No encounter token is drawn in a city."))
        if (
            turn
            and turn["encountered"]
            and state["phase"]
            in (
                "encounter",
                "resolve",
                "scrolls_own",
                "scrolls_others",
                "pre_roll",
                "scrolls_after",
            )
        ):
            raise _Refuse(
                "DT-ENC-3",
                t("Every token this space asks for is drawn; {prompt}", prompt=prompt(data, state)),
            )
    _expect_chance(data, state, "token", action)
    token = action.get("token")
    if token not in data["tokens"]:
        raise _Refuse(
            "DT-COMP-3",
            t("There is no encounter token {token} in this set.", token=repr(token)),
        )
    if state["bowl"].get(token, 0) <= 0:
        raise _Refuse(
            "DT-SETUP-4",
            t("No {token} token is left in the bowl.", token=named(data["tokens"][token]["name"])),
        )
    fulfilled(state)
    state["bowl"][token] -= 1
    entry = data["tokens"][token]
    encounter = state["encounter"]
    if encounter["wizard"] and entry["friendly"]:  # DT-WIZ-2: ignored and drawn again
        encounter["aside"].append(token)
        state["pending"].insert(0, draw_step("token", state["active"], "wizard"))
        events.append(
            _event(
                "token_drawn",
                t(
                    "{token} is friendly: Z'Mindrik ignores it; draw again.",
                    token=named(entry["name"]),
                ),
                token=token,
                ignored=True,
            )
        )
        return
    encounter["drawn"].append(token)
    if not entry["monster"]:
        encounter["unresolved"].append(token)
    if takes_an(entry["name"]):
        text = t(
            "{player} draws an {token}.",
            player=_name(state, state["active"]),
            token=named(entry["name"]),
        )
    else:
        text = t(
            "{player} draws a {token}.",
            player=_name(state, state["active"]),
            token=named(entry["name"]),
        )
    events.append(_event("token_drawn", text, token=token, monster=entry["monster"]))
    flow(data, state, events)


def draw_item(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """An item card drawn from the deck: for the shop, or gained with the face asked for."""
    chance_step = _expect_chance(data, state, "item", action)
    card = action.get("card")
    if card not in data["items"]:
        raise _Refuse("DT-COMP-1", t("There is no item card {card} in this set.", card=repr(card)))
    _from_deck(state, "items", card, events)
    fulfilled(state)
    seat = chance_step["player"]
    if chance_step["face"] == "shop":  # DT-CITY-2: both faces are shown
        state["shop"]["cards"].append({"card": card, "bought": None})
        faces = data["items"][card]
        events.append(
            _event(
                "shop_card",
                t(
                    "Shop card: {equipment} ({equipment_price} gold) or "
                    "{magic} ({magic_price} gold).",
                    equipment=named(faces["equipment"]["name"]),
                    equipment_price=faces["equipment"]["price"],
                    magic=named(faces["magic"]["name"]),
                    magic_price=faces["magic"]["price"],
                ),
                card=card,
            )
        )
    else:  # DT-REWARD-2, DT-REWARD-3, DT-AMB-22: that face, shown to all
        face = chance_step["face"]
        where = gain_item(data, state, seat, card, face)
        item = named(data["items"][card][face]["name"])
        if where == "backpack":
            text = t("{player} gains {item} (backpack).", player=_name(state, seat), item=item)
        else:
            text = t(
                "{player} gains {item} (slot {slot}).",
                player=_name(state, seat),
                item=item,
                slot=slot_number(where),
            )
        events.append(
            _event(
                "item_gained", text, player=_name(state, seat), card=card, face=face, where=where
            )
        )
    flow(data, state, events)


def draw_scroll(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """A scroll card drawn from the deck into the hand of the hero who draws."""
    chance_step = _expect_chance(data, state, "scroll", action)
    card = action.get("scroll")
    if card not in data["scrolls"]:
        raise _Refuse("DT-COMP-2", t("There is no such scroll card in this set."))
    card = _same_scroll(data, state, card)
    _from_deck(state, "scrolls", card, events)
    fulfilled(state)
    seat = chance_step["player"]
    state["heroes"][seat]["scrolls"].append(card)
    name = _name(state, seat)
    events.append(
        _event(
            "scroll_drawn",
            t("{player} draws a scroll.", player=name),
            player=name,
            private={"scroll": card, "name": named(data["scrolls"][card]["name"])},
            audience=[name],
        )
    )  # DT-CARD-6, DT-CITY-5: only the drawer sees it
    flow(data, state, events)


def _same_scroll(data: dict[str, Any], state: State, card: str) -> str:
    """Scroll cards with the same name are the same card: a drawn "Second Chance" is any
    copy still in the deck (so a phone's list of scrolls need not know who holds which)."""
    scrolls = data["scrolls"]
    pile = state["scrolls"]["deck"] or state["scrolls"]["discard"]
    if card in pile:
        return card
    same = sorted(other for other in pile if scrolls[other]["name"] == scrolls[card]["name"])
    return same[0] if same else card


def _from_deck(state: State, deck: str, card: str, events: list[Event]) -> None:
    """DT-CARD-2: a card comes from its deck; an empty deck is its discard pile reshuffled."""
    pile = state[deck]
    if not pile["deck"] and pile["discard"]:
        pile["deck"], pile["discard"] = sorted(pile["discard"]), []
        if deck == "items":
            text = t("The item discard pile is shuffled into a new deck.")
        else:
            text = t("The scroll discard pile is shuffled into a new deck.")
        events.append(_event("reshuffled", text, deck=deck))
    if card not in pile["deck"]:
        if deck == "items":
            raise _Refuse("DT-CARD-2", t("That item card is not in the deck."))
        raise _Refuse("DT-CARD-2", t("That scroll card is not in the deck."))
    pile["deck"].remove(card)


def _dice_values(action: Action, count: int) -> list[int]:
    """The dice an action reports (``values``, or one ``value``), refused unless ``count``
    faces of a six-sided die."""
    values = action.get("values")
    if values is None and "value" in action:
        values = [action["value"]]
    if not isinstance(values, list) or any(
        not isinstance(value, int) or isinstance(value, bool) for value in values
    ):
        raise _Refuse(MALFORMED, t("A roll gives its dice as values: a list of numbers."))
    if len(values) != count:
        if count == 1:
            raise _Refuse(
                "DT-COMP-9", t("This roll takes one die, not {given}.", given=len(values))
            )
        raise _Refuse(
            "DT-COMP-9", t("This roll takes {n} dice, not {given}.", n=count, given=len(values))
        )
    if any(value not in DIE for value in values):
        raise _Refuse("DT-COMP-9", t("The dice are six-sided: faces 1 to 6."))
    return values
