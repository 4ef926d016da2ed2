"""A hero's own actions on his sheet: items into slots or the backpack (DT-CHAR-2..5), discards
(DT-LIMIT, DT-AMB-25) and levelling up (DT-LVL)."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.rules.api import Action, Event, State
from companion.rules.common import Refuse as _Refuse
from companion.rules.common import event as _event
from companion.rules.common import name_of as _name
from companion.rules.common import player_of as _player
from companion.rules.common import seat_of as _seat

from .checks import own_turn
from .constants import SLOTS
from .heroes import fits, level_of, take_item
from .state import held_items
from .texts import either, named


def equip(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-CHAR-2, DT-CHAR-3, DT-CHAR-5: a card into a slot it fits; whatever was there goes
    to the backpack."""
    seat = own_turn(data, state, action, "equip")
    hero = state["heroes"][seat]
    card, index = action.get("card"), action.get("slot")
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < SLOTS:
        raise _Refuse("DT-CHAR-2", t("A character sheet has four slots, 0 to 3."))
    if card in hero["scrolls"]:
        raise _Refuse("DT-CHAR-6", t("A scroll is held in hand, never in a slot or the backpack."))
    held = next((entry for entry in held_items(hero) if entry["card"] == card), None)
    if held is None:
        raise _Refuse(
            "DT-CARD-5", t("{player} does not have that item.", player=_name(state, seat))
        )
    if held is hero["slots"][index]:
        raise _Refuse(
            "DT-CHAR-2",
            t(
                "{item} is already in slot {slot}.",
                item=named(data["items"][card][held["face"]]["name"]),
                slot=index + 1,
            ),
        )
    item = data["items"][card][held["face"]]
    slot = level_of(data, state, seat)["slots"][index]
    if not fits(state, slot, item):
        if item["type"] in slot["types"]:
            raise _Refuse(
                "DT-CHAR-3",
                t(
                    "{item} (+{bonus}) is above this slot's Max +{max}.",
                    item=named(item["name"]),
                    bonus=item["bonus"],
                    max=slot["max"],
                ),
            )
        raise _Refuse(
            "DT-CHAR-2",
            t(
                "Slot {slot} takes {types}, not {type}.",
                slot=index + 1,
                types=either([named(kind) for kind in slot["types"]]),
                type=named(item["type"]),
            ),
        )
    take_item(state, seat, card)
    if hero["slots"][index] is not None:
        hero["backpack"].append(hero["slots"][index])
    hero["slots"][index] = held
    events.append(
        _event(
            "equipped",
            t(
                "{player} puts {item} in slot {slot}.",
                player=_name(state, seat),
                item=named(item["name"]),
                slot=index + 1,
            ),
            player=_name(state, seat),
            card=card,
            slot=index,
        )
    )


def unequip(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-CHAR-4: an item that cannot be used goes into the backpack."""
    seat = own_turn(data, state, action, "unequip")
    hero = state["heroes"][seat]
    index = next(
        (
            position
            for position, entry in enumerate(hero["slots"])
            if entry and entry["card"] == action.get("card")
        ),
        None,
    )
    if index is None:
        raise _Refuse("DT-CARD-5", t("That item is not in a slot."))
    hero["backpack"].append(hero["slots"][index])
    hero["slots"][index] = None
    events.append(
        _event(
            "unequipped",
            t("{player} puts an item in the backpack.", player=_name(state, seat)),
            player=_name(state, seat),
            card=action["card"],
        )
    )


def discard(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-LIMIT-1, DT-LIMIT-2, DT-AMB-25: anyone may discard during a turn's cleanup; the
    active player any time in his turn."""
    seat = _seat(state, _player(action))
    if state["phase"] in ("start_roll", "choose") or (
        seat != state["active"] and state["phase"] != "cleanup"
    ):
        raise _Refuse(
            "DT-TURN-1",
            t(
                "{player} may discard only in his own turn or at the end of a turn.",
                player=_name(state, seat),
            ),
        )
    hero = state["heroes"][seat]
    name = _name(state, seat)
    if action.get("scroll") is not None:
        if action["scroll"] not in hero["scrolls"]:
            raise _Refuse("DT-CARD-6", t("That scroll is not in {player}'s hand.", player=name))
        hero["scrolls"].remove(action["scroll"])
        state["scrolls"]["discard"].append(action["scroll"])
        events.append(
            _event("discarded", t("{player} discards a scroll.", player=name), player=name)
        )
        return
    take_item(state, seat, action.get("card"))
    state["items"]["discard"].append(action["card"])
    events.append(
        _event(
            "discarded",
            t("{player} discards an item.", player=name),
            player=name,
            card=action["card"],
        )
    )


def level_up(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-LVL-1, DT-LVL-3, DT-AMB-15: 10 XP, once, in one's own turn outside a roll."""
    seat = own_turn(data, state, action, "level_up")
    hero = state["heroes"][seat]
    cost = data["xp"]["level_up"]
    if hero["level"] == "high":
        raise _Refuse("DT-LVL-1", t("{player} is already high level.", player=_name(state, seat)))
    if hero["xp"] < cost:
        raise _Refuse(
            "DT-LVL-1",
            t(
                "Levelling up takes {cost} XP; {player} has {xp}.",
                cost=cost,
                player=_name(state, seat),
                xp=hero["xp"],
            ),
        )
    hero["xp"] -= cost
    hero["level"] = "high"
    name = _name(state, seat)
    character = data["characters"][hero["character"]]
    events.append(
        _event(
            "levelled_up",
            t(
                "{player} discards {cost} XP: {character} is high level.",
                player=name,
                cost=cost,
                character=named(character["name"]),
            ),
            player=name,
        )
    )
