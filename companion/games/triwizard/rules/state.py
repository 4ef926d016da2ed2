"""The pieces of a Triwizard state and small readings of them, plus the cheap deep copy
``apply`` works on."""

from __future__ import annotations

from typing import Any

from companion.rules.api import State

from .numbers import CLOAK_FACE


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON-like value."""
    if isinstance(value, dict):
        return {key: copy_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [copy_json(item) for item in value]
    return value


def copy_state(state: State) -> State:
    """A deep copy of a state, made quickly (``apply`` works on a copy): each part copied as
    deep as it goes; the players' names and the options are never changed, so they are shared."""
    new = dict(state)
    new["pieces"] = state["pieces"][:]
    new["cups"] = state["cups"].copy()
    peeks = state["peeks"]
    new["peeks"] = [peek.copy() for peek in peeks] if peeks else []
    new["hands"] = [hand[:] for hand in state["hands"]]
    new["tiles"] = [tiles[:] for tiles in state["tiles"]]
    pile = state["battle_pile"]
    new["battle_pile"] = {"deck": pile["deck"][:], "discard": pile["discard"][:]}
    pile = state["tile_pile"]
    new["tile_pile"] = {"deck": pile["deck"][:], "discard": pile["discard"][:]}
    pile = state["obstacle_pile"]
    new["obstacle_pile"] = {
        "deck": pile["deck"][:],
        "discard": pile["discard"][:],
        "lineup": [slot.copy() for slot in pile["lineup"]],
    }
    pending = state["pending"]
    new["pending"] = [step.copy() for step in pending] if pending else []
    interrupts = state["interrupts"]
    new["interrupts"] = copy_json(interrupts) if interrupts else []
    turn = state["turn_state"].copy()
    turn["path"] = turn["path"][:]
    new["turn_state"] = turn
    fight = state["fight"]
    if fight is not None:
        fight = fight.copy()
        fight["rolls"] = fight["rolls"][:]
        new["fight"] = fight
    new["uncleared"] = state["uncleared"][:]
    if state["tie"] is not None:
        new["tie"] = copy_json(state["tie"])
    return new


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
