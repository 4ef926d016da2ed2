"""The turn's frame: its start (the refill draws, TW-TURN-1), its end and the passing of the die
(TW-TURN-6), the swap of the hand (TW-TURN-7, TW-AMB-33), and what happens by itself once the
pending draws are done (``settle``)."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.rules.api import State
from companion.rules.common import Refuse, event, player_of, seat_of

from .numbers import HAND
from .state import fresh_turn


def start_turn(state: State, seat: int) -> None:
    """TW-TURN-1: the new active player draws Battle Cards up to 4."""
    state["active"] = seat
    state["turn"] += 1
    state["turn_state"] = fresh_turn(state["pieces"][seat])
    state["fight"] = None
    missing = HAND - len(state["hands"][seat])
    state["pending"] = [{"kind": "card", "why": "refill", "player": seat}] * max(0, missing)
    state["pending"] = [dict(step) for step in state["pending"]]
    state["phase"] = "draw" if state["pending"] else "open"


def next_turn(state: State, events: list) -> None:
    """TW-TURN-6: the turn passes clockwise (to the left)."""
    seat = (state["active"] + 1) % len(state["players"])
    start_turn(state, seat)
    events.append(
        event("turn", t("{player}'s turn.", player=state["players"][seat]), turn=state["turn"])
    )


def own_turn(state: State, action: dict[str, Any], rule: str = "TW-TURN-6") -> int:
    """The acting player's seat, refused unless it is the active player."""
    who = player_of(action)
    seat = seat_of(state, who)
    if state["active"] is None:
        from .prompts import prompt

        raise Refuse("TW-SETUP-10", t("No turn has begun: {prompt}", prompt=prompt({}, state)))
    if seat != state["active"]:
        raise Refuse(
            rule,
            t(
                "It is {active}'s turn, not {player}'s.",
                active=state["players"][state["active"]],
                player=who,
            ),
        )
    return seat


def no_interrupt(state: State) -> None:
    if state["interrupts"]:
        from .prompts import prompt

        raise Refuse("TW-TURN-6", t("First: {prompt}", prompt=prompt({}, state)))


def no_pending(state: State) -> None:
    if state["pending"]:
        from .prompts import prompt

        rule = "TW-TURN-1" if state["phase"] == "draw" else "TW-TURN-6"
        raise Refuse(rule, t("First: {prompt}", prompt=prompt({}, state)))


def end_turn(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    """TW-TURN-6: the active player ends the turn after the move."""
    seat = own_turn(state, action)
    no_interrupt(state)
    no_pending(state)
    if state["phase"] != "post":
        raise Refuse("TW-TURN-6", t("The turn cannot end yet: finish the move first."))
    events.append(event("end_turn", t("{player} ends the turn.", player=state["players"][seat])))
    next_turn(state, events)


def swap_hand(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    """TW-TURN-7, TW-AMB-33: give up the turn, discard every Battle Card and draw 4."""
    seat = own_turn(state, action)
    no_interrupt(state)
    if state["phase"] == "draw":
        raise Refuse("TW-TURN-1", t("Draw up to 4 Battle Cards first."))
    ts = state["turn_state"]
    if state["phase"] != "open" or ts["tile_played"] or ts["card_played"]:
        raise Refuse(
            "TW-TURN-7",
            t("The hand is swapped only before moving and before playing a Resource Tile."),
        )
    pile = state["battle_pile"]
    pile["discard"].extend(state["hands"][seat])
    state["hands"][seat] = []
    state["pending"] = [{"kind": "card", "why": "swap", "player": seat} for _c in range(HAND)]
    state["phase"] = "swap"
    events.append(
        event(
            "swap_hand",
            t("{player} swaps the hand and gives up the turn.", player=state["players"][seat]),
        )
    )


def settle(data: dict[str, Any], state: State, events: list) -> None:
    """What happens by itself when the pending draws are done and no interrupt waits."""
    if state["pending"] or state["interrupts"] or state["phase"] == "over":
        return
    phase = state["phase"]
    if phase == "deal":
        state["phase"] = "first_player"
    elif phase == "draw":
        state["phase"] = "open"
    elif phase == "swap":
        next_turn(state, events)
    elif phase == "reward":
        from .spaces import resolve_end

        resolve_end(data, state, state["active"], events)
