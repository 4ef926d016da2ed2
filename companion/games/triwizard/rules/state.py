"""The pieces of a Triwizard state and small readings of them, plus the cheap deep copy
``apply`` works on."""

from __future__ import annotations

from typing import Any

from companion.rules.api import State

from .numbers import CLOAK_FACE


def copy_state(value: Any) -> Any:
    """A deep copy of a JSON-like value (``apply`` works on a copy of the state)."""
    if isinstance(value, dict):
        return {key: copy_state(item) for key, item in value.items()}
    if isinstance(value, list):
        return [copy_state(item) for item in value]
    return value


def fresh_turn(space: str) -> dict[str, Any]:
    """A turn before anything happened in it."""
    return {
        "card_played": False,
        "tile_played": False,
        "roll": None,
        "allowance": 0,
        "from": space,
        "path": [],
    }


def fulfilled(state: State) -> None:
    """The awaited chance step happened: the next one is awaited, and ``sample`` moves on."""
    state["pending"].pop(0)
    state["chance_n"] += 1


def face_value(face: Any) -> int:
    """TW-BATTLE-4, TW-AMB-15, TW-AMB-25: the Cloak symbol counts as 0."""
    return 0 if face == CLOAK_FACE else int(face)


def right_of(state: State, seat: int) -> int:
    """TW-TURN-9: the player to one's right took the turn just before (the previous seat)."""
    return (seat - 1) % len(state["players"])


def occupant(state: State, space: str, besides: int | None = None) -> int | None:
    """The seat whose piece stands on ``space`` (other than ``besides``), if any."""
    for seat, here in enumerate(state["pieces"]):
        if here == space and seat != besides:
            return seat
    return None


def cloaked(state: State, seat: int) -> bool:
    return state["cloak"] == seat


def interrupt(state: State) -> dict[str, Any] | None:
    return state["interrupts"][-1] if state["interrupts"] else None


def unseen_cups(state: State, slot: str | None = None) -> list[str]:
    """The Cup Tile identities nobody has seen face up nor peeked at another slot than
    ``slot`` (TW-AMB-31)."""
    from .numbers import CUP_TILES

    seen = {tile for tile in state["cups"].values() if tile}
    seen |= {peek["tile"] for peek in state["peeks"] if peek["slot"] != slot}
    return [tile for tile in CUP_TILES if tile not in seen]


def peeked(state: State, slot: str) -> str | None:
    """What any Four Point Spell showed of the face-down tile on ``slot``."""
    for peek in state["peeks"]:
        if peek["slot"] == slot:
            return peek["tile"]
    return None
