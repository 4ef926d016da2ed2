"""The pieces of a Dork Tower state: a new hero, an encounter, a chance step waiting in
``state["pending"]``, and small readings of them; plus the deep copy ``apply`` works on."""

from __future__ import annotations

from typing import Any

from companion.rules.api import State

from .constants import SLOTS


def new_hero() -> dict[str, Any]:
    """A hero before his player chose a character (DT-CHAR-2: four empty slots)."""
    return {
        "character": None,
        "level": "low",
        "gold": 0,
        "xp": 0,
        "space": None,
        "home": None,
        "slots": [None] * SLOTS,
        "backpack": [],
        "scrolls": [],
        "dead": False,
    }


def new_encounter(space: str | None, quest: bool = False, wizard: bool = False) -> dict[str, Any]:
    """The encounter on ``space`` (None: Z'Mindrik's, in the tower): tokens drawn, tokens not
    resolved yet, friendly tokens set aside (DT-WIZ-2)."""
    return {
        "space": space,
        "quest": quest,
        "wizard": wizard,
        "drawn": [],
        "unresolved": [],
        "aside": [],
        "summoned": 0,
        "done": False,
    }


def draw_step(kind: str, seat: int, why: str, face: str | None = None) -> dict[str, Any]:
    """A blind draw waiting in ``state["pending"]``: a token, an item card (with the face it is
    gained with, or ``"shop"``) or a scroll card, for ``seat``, because of ``why``."""
    chance_step = {"kind": kind, "player": seat, "why": why}
    if face is not None:
        chance_step["face"] = face
    return chance_step


def fulfilled(state: State) -> None:
    """The awaited chance step happened: the next one is awaited, and ``sample`` moves on."""
    state["pending"].pop(0)
    state["chance_n"] += 1


def fighting(combat: dict) -> list[str]:
    """The monsters still in the fight: a removal scroll takes away one token of its kind."""
    left = list(combat["monsters"])
    for token in combat["removed"]:
        left.remove(token)
    return left


def held_items(hero: dict) -> list[dict]:
    """The item cards a hero holds, in his slots and then his backpack."""
    return [entry for entry in hero["slots"] if entry] + list(hero["backpack"])


def copy_state(value: Any) -> Any:
    """A deep copy of a JSON-like value (``apply`` works on a copy of the state)."""
    if isinstance(value, dict):
        return {key: copy_state(item) for key, item in value.items()}
    if isinstance(value, list):
        return [copy_state(item) for item in value]
    return value
