"""A hero's sheet and hand: his level, the items in his slots and backpack, his scrolls, what he
crosses without paying, and the limits on what he may hold at the end of a turn (DT-CHAR,
DT-CARD, DT-LIMIT)."""

from __future__ import annotations

from typing import Any

from companion.i18n import Text, t
from companion.rules.api import Event, State
from companion.rules.common import Refuse as _Refuse
from companion.rules.common import event as _event
from companion.rules.common import name_of as _name

from .constants import BACKPACK_LIMIT, SCROLL_LIMIT
from .texts import named


def level_of(data: dict[str, Any], state: State, seat: int) -> dict[str, Any]:
    """The side of the hero's character sheet he plays: strength, movement, slots, abilities."""
    hero = state["heroes"][seat]
    return data["characters"][hero["character"]][hero["level"]]


def equipped_slots(data: dict[str, Any], state: State, seat: int) -> list[tuple[dict, dict]]:
    """Each filled slot of the hero's sheet with the face of the item in it."""
    items = data["items"]
    slots = level_of(data, state, seat)["slots"]
    return [
        (slots[index], items[entry["card"]][entry["face"]])
        for index, entry in enumerate(state["heroes"][seat]["slots"])
        if entry
    ]


def equipped(data: dict[str, Any], state: State, seat: int) -> list[dict]:
    """The faces of the items in the hero's slots."""
    return [face for _slot, face in equipped_slots(data, state, seat)]


def habitual(data: dict[str, Any], state: State, seat: int, border: str) -> str | None:
    """How a hero crosses a border without paying: his ability or an equipped item
    (DT-BORDER-2 (a), DT-CHAR-1)."""
    if f"cross_{border}" in level_of(data, state, seat)["abilities"]:
        return "ability"
    for face in equipped(data, state, seat):
        if border in face.get("crosses", []):
            return "item"
    return None


def repeatable(data: dict[str, Any], state: State, use: str) -> None:
    """DT-AMB-3: an XP use may be repeated in one turn unless the data set says not."""
    if not data["xp_repeat"].get(use, True) and state["t"]["paid"].get(use):
        if use == "cross_border":
            reason = t("This data set allows cross border for XP once per turn.")
        elif use == "extra_step":
            reason = t("This data set allows extra step for XP once per turn.")
        else:
            reason = t("This data set allows extra shop card for XP once per turn.")
        raise _Refuse("DT-AMB-3", reason)


def fits(state: State, slot: dict, item: dict) -> bool:
    """DT-CHAR-2, DT-CHAR-3, DT-AMB-16."""
    if item["type"] not in slot["types"]:
        return False
    cap = slot.get("max")
    return cap is None or state["options"]["slot_max"] == "cap" or item["bonus"] <= cap


def gain_item(data: dict[str, Any], state: State, seat: int, card: str, face: str) -> str:
    """DT-CARD-4, DT-CHAR-2..4: into the first free slot that takes it, else the
    backpack (the limit is checked at the end of the turn, DT-LIMIT-2)."""
    hero = state["heroes"][seat]
    item = data["items"][card][face]
    for index, slot in enumerate(level_of(data, state, seat)["slots"]):
        if hero["slots"][index] is None and fits(state, slot, item):
            hero["slots"][index] = {"card": card, "face": face}
            return f"slot {index + 1}"
    hero["backpack"].append({"card": card, "face": face})
    return "backpack"


def take_item(state: State, seat: int, card: Any) -> dict:
    """An item card out of the hero's slots or backpack, refused when he does not hold it."""
    hero = state["heroes"][seat]
    for index, slot in enumerate(hero["slots"]):
        if slot and slot["card"] == card:
            hero["slots"][index] = None
            return slot
    for entry in hero["backpack"]:
        if entry["card"] == card:
            hero["backpack"].remove(entry)
            return entry
    raise _Refuse("DT-CARD-5", t("{player} does not have that item.", player=_name(state, seat)))


def use_scroll(
    data: dict[str, Any],
    state: State,
    seat: int,
    card: str,
    events: list[Event],
) -> None:
    """DT-CARD-6: a scroll is used once and discarded; once played it is public."""
    state["heroes"][seat]["scrolls"].remove(card)
    state["scrolls"]["discard"].append(card)
    name = _name(state, seat)
    scroll = data["scrolls"][card]
    events.append(
        _event(
            "scroll_played",
            t(
                "{player} plays {scroll}: {text}",
                player=name,
                scroll=named(scroll["name"]),
                text=named(scroll["text"]),
            ),
            player=name,
            scroll=card,
        )
    )


def check_scroll(data: dict[str, Any], state: State, seat: int, card: Any, use: str) -> None:
    """The hero holds the scroll, and it may be played for ``use`` (DT-CARD-6, DT-AMB-27)."""
    if card not in state["heroes"][seat]["scrolls"]:
        raise _Refuse(
            "DT-CARD-6", t("That scroll is not in {player}'s hand.", player=_name(state, seat))
        )
    scroll = data["scrolls"][card]
    if scroll["when"] not in (use, "any") or scroll["by"] not in ("fighter", "anyone"):
        raise _Refuse("DT-AMB-27", t("That scroll cannot be played while moving."))


def over_limits(data: dict[str, Any], state: State) -> tuple[str, Text, int] | None:
    """DT-LIMIT-1..3, DT-AMB-25: who holds too much to end a turn: (rule, reason, seat)."""
    for seat, hero in enumerate(state["heroes"]):
        level = level_of(data, state, seat) if hero["character"] else None
        if level is None:
            continue
        cap = level.get("scroll_limit")
        cap = SCROLL_LIMIT if cap is None else cap
        if len(hero["scrolls"]) > cap:
            return (
                "DT-LIMIT-3" if level.get("scroll_limit") is not None else "DT-LIMIT-1",
                t(
                    "{player} holds {n} scrolls: play or discard down to {cap} before the "
                    "tower turns.",
                    player=_name(state, seat),
                    n=len(hero["scrolls"]),
                    cap=cap,
                ),
                seat,
            )
        cap = level.get("backpack_limit")
        cap = BACKPACK_LIMIT if cap is None else cap
        if len(hero["backpack"]) > cap:
            return (
                "DT-LIMIT-3" if level.get("backpack_limit") is not None else "DT-LIMIT-2",
                t(
                    "{player} has {n} items in the backpack: discard down to {cap} before "
                    "the tower turns.",
                    player=_name(state, seat),
                    n=len(hero["backpack"]),
                    cap=cap,
                ),
                seat,
            )
    return None


def limits(data: dict[str, Any], state: State, seat: int) -> dict[str, int]:
    """How many scrolls and backpack items the hero may keep (DT-LIMIT-1..3)."""
    level = level_of(data, state, seat)
    return {
        "scrolls": SCROLL_LIMIT if level["scroll_limit"] is None else level["scroll_limit"],
        "backpack": BACKPACK_LIMIT if level["backpack_limit"] is None else level["backpack_limit"],
    }
