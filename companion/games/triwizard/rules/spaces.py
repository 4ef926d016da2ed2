"""What the space a move ends on does (TW-MOVE-8): Portkeys (TW-PORT-2..4), Gold Mist
(TW-MIST-1/2), Cup Tiles face down (TW-CUP-2, TW-AMB-16) and face up (TW-HEAD-3/4), the flip's
result (TW-END-2, TW-HEAD-1/2); and jumps to a space that may be taken (TW-AMB-6: the nearest
free Path space, chosen when several are as near)."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.rules.api import State
from companion.rules.common import event

from . import declared
from .geometry import feature
from .state import cloaked, occupant
from .walking import free_nearest, taken


def resolve_end(data: dict[str, Any], state: State, seat: int, events: list) -> None:
    """The end space's action for the piece of ``seat``; the turn goes on in ``post``."""
    board = data["board"]
    space = state["pieces"][seat]
    if declared.on(state):
        kind, number = declared.kind_of(space)
    else:
        kind = feature(data, space)
        number = board["spaces"][space].get("number")
    hidden = cloaked(state, seat)
    who = state["players"][seat]
    state["phase"] = "post"
    if kind == "portkey":
        if hidden or declared.on(state):  # TW-PORT-3; declared: the partner is a Portkey too
            return
        partner = board["portkeys"][space]
        if occupant(state, partner, besides=seat) is not None:  # TW-PORT-4
            events.append(
                event(
                    "portkey", t("{player}'s Portkey is blocked: its partner is taken.", player=who)
                )
            )
            return
        state["pieces"][seat] = partner
        events.append(
            event(
                "portkey", t("{player} travels by Portkey to {space}.", player=who, space=partner)
            )
        )
        return
    if kind == "gold_mist":
        if not hidden:  # TW-MIST-2
            state["pending"].append({"kind": "tile", "why": "mist", "player": seat})
        return
    if kind == "cup_slot":
        slot = str(number)
        face = state["cups"][slot]
        if face is None:
            if not hidden:  # TW-CUP-3, TW-AMB-16
                state["pending"].append({"kind": "cup", "slot": slot, "player": seat})
                state["phase"] = "flip"
            return
        if face.startswith("headstone") and not hidden:  # TW-HEAD-3/4
            number = face.split("-")[1]
            events.append(
                event("headstone", t("{player} is carried to Headstone {n}.", player=who, n=number))
            )
            jump_to(
                data, state, seat, headstone(data, state, number), state["active"], "post", events
            )


def flipped(data: dict[str, Any], state: State, slot: str, tile: str, events: list) -> None:
    """TW-END-2: the real Cup wins; TW-HEAD-1/2: a Headstone carries the piece and ends the
    turn."""
    seat = state["active"]
    who = state["players"][seat]
    if tile == "cup":
        state["winner"] = seat
        state["phase"] = "over"
        events.append(
            event("cup", t("{player} flips the Triwizard Cup and wins!", player=who), player=who)
        )
        return
    number = tile.split("-")[1]
    events.append(
        event(
            "flip_cup",
            t("{player} flips a Headstone Tile: {n} headstones.", player=who, n=number),
            slot=slot,
            tile=tile,
        )
    )
    state["phase"] = "post"
    jump_to(data, state, seat, headstone(data, state, number), seat, "end_turn", events)


def headstone(data: dict[str, Any], state: State, number: str) -> str:
    """Headstone Space ``number``: its space, or its label in a declared maze."""
    if declared.on(state):
        return f"headstone:{number}"
    return data["board"]["headstones"][number]


def jump_to(
    data: dict[str, Any],
    state: State,
    seat: int,
    target: str,
    chooser: int,
    then: str,
    events: list,
) -> None:
    """Put the piece of ``seat`` on ``target``, or (taken) on the nearest free Path space; when
    several are as near, ``chooser`` picks (a ``choose`` interrupt), then ``then`` happens."""
    if declared.on(state) or (target != state["hedge"] and not taken(data, state, target, seat)):
        state["pieces"][seat] = target
        after(state, then, events)
        return
    options = free_nearest(data, state, seat, target)
    if len(options) <= 1:
        if options:
            state["pieces"][seat] = options[0]
        after(state, then, events)
        return
    state["interrupts"].append(
        {"kind": "choose", "player": chooser, "seat": seat, "options": options, "then": then}
    )


def after(state: State, then: str, events: list) -> None:
    """What follows a jump: the turn goes on (``post``), ends (``end_turn``), or whatever was
    under way resumes (``resume``)."""
    if then == "post":
        state["phase"] = "post"
    elif then == "end_turn":
        from .turns import next_turn

        next_turn(state, events)
