"""The Invisibility Cloak (TW-CLOAK-*, TW-TURN-3/8, TW-AMB-13/14): placing it after a Cloak
roll or a Cloak tile, and the wearer's removal roll (odd numbers only) and its placing after."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.rules.api import State
from companion.rules.common import Refuse, event, seat_of

from .numbers import CLOAK_FACE
from .state import face_value
from .turns import next_turn, no_interrupt, no_pending, own_turn


def put_on(state: State, seat: int | None) -> None:
    """The Cloak goes on ``seat``'s piece (None: beside the board); it clears an uncleared
    obstacle's flag (TW-AMB-10)."""
    state["cloak"] = seat
    if seat is not None and seat in state["uncleared"]:
        state["uncleared"].remove(seat)


def target_piece(state: State, name: Any, rule: str) -> int:
    """TW-CLOAK-5, TW-AMB-13, TW-AMB-27: a piece on the board (a player's), not the wearer."""
    seat = seat_of(state, name)
    if state["cloak"] == seat:
        raise Refuse(
            rule,
            t(
                "{player}'s piece already wears the Cloak: it goes to a different piece.",
                player=name,
            ),
        )
    return seat


def remove_cloak(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    """TW-CLOAK-6, TW-TURN-8: the wearer tries to take it off; the whole turn."""
    seat = own_turn(state, action)
    no_interrupt(state)
    no_pending(state)
    if state["phase"] != "open":
        raise Refuse("TW-CLOAK-6", t("The Cloak is taken off only at the start of the turn."))
    if state["cloak"] != seat:
        raise Refuse("TW-CLOAK-6", t("Your piece does not wear the Cloak."))
    if state["turn_state"]["tile_played"]:
        raise Refuse(
            "TW-CLOAK-6",
            t("Trying to remove the Cloak is the turn's only action: a tile was played."),
        )
    state["pending"].append({"kind": "die", "why": "removal", "player": seat})
    state["phase"] = "removal_roll"
    events.append(
        event(
            "remove_cloak",
            t("{player} tries to take off the Cloak.", player=state["players"][seat]),
        )
    )


def removal_roll(data: dict[str, Any], state: State, face: Any, events: list) -> None:
    """Odd numbers take it off (the Cloak face is not odd); otherwise the turn ends."""
    if face != CLOAK_FACE and face_value(face) % 2 == 1:
        put_on(state, None)
        state["phase"] = "removal_place"
        events.append(
            event(
                "cloak_off",
                t(
                    "The Cloak comes off {player}'s piece.",
                    player=state["players"][state["active"]],
                ),
            )
        )
        return
    next_turn(state, events)


def place_cloak(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    """TW-TURN-3, TW-CLOAK-5 (after a Cloak roll: on a piece other than the wearer, never
    aside) and TW-CLOAK-7 (after a removal: aside, or on another player's piece)."""
    seat = own_turn(state, action)
    no_interrupt(state)
    no_pending(state)
    if "on" not in action:
        from companion.rules.api import MALFORMED

        raise Refuse(MALFORMED, t("Say which piece the Cloak goes on (or none)."))
    on = action["on"]
    phase = state["phase"]
    if phase == "cloak_place":
        if on is None:
            raise Refuse("TW-TURN-3", t("After a Cloak roll the Cloak goes on a piece, not aside."))
        target = target_piece(state, on, "TW-CLOAK-5")
        put_on(state, target)
        state["phase"] = "post"
    elif phase == "removal_place":
        if on is None:
            put_on(state, None)
        else:
            target = seat_of(state, on)
            if target == seat:
                raise Refuse(
                    "TW-CLOAK-7",
                    t("After taking it off, the Cloak goes aside or on another piece."),
                )
            put_on(state, target)
    else:
        raise Refuse("TW-TURN-3", t("The Cloak is not being placed now."))
    if on is None:
        text = t("The Cloak goes beside the board.")
    else:
        text = t("The Cloak goes on {player}'s piece.", player=on)
    events.append(event("place_cloak", text, on=on))
    if phase == "removal_place":
        next_turn(state, events)
