"""The end of a window and of a turn: ``done`` closes what the active player controls, and
``end_turn`` turns the tower one step clockwise for the next player (DT-TURN-2, DT-TIME-2)."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.rules.api import Action, Event, State
from companion.rules.common import Refuse as _Refuse
from companion.rules.common import event as _event
from companion.rules.common import name_of as _name
from companion.rules.common import player_of as _player
from companion.rules.common import seat_of as _seat

from .board import door_wedge, wedge_days
from .checks import expect_turn
from .city import leave_city
from .encounters import move_ended
from .fights import skip_empty_windows
from .flow import start_turn
from .heroes import over_limits
from .prompts import prompt
from .texts import named
from .trade import close_trade


def done(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """Close a window the active player controls: own scrolls, a trade window, the city."""
    seat = _seat(state, _player(action))
    phase = state["phase"]
    if phase == "scrolls_own" and seat == state["active"]:
        state["phase"] = "scrolls_others"
        skip_empty_windows(state)
        return
    if phase == "trade" and seat == state["active"] and not state["pending"]:
        close_trade(data, state, events)
        return
    if phase == "city" and seat == state["active"] and not state["pending"]:
        leave_city(state, events)
        return
    raise _Refuse(
        "DT-TURN-2",
        t(
            "Nothing for {player} to finish now; {prompt}",
            player=_name(state, seat),
            prompt=prompt(data, state),
        ),
    )


def end_turn(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-TURN-2 step 6, DT-LIMIT-1..4, DT-TIME-2, DT-AMB-13, DT-AMB-25: the tower turns one
    step clockwise and the next player's turn begins."""
    seat = expect_turn(data, state, action, None, "end_turn")
    steps = action.get("steps", 1)
    if steps != 1:
        raise _Refuse("DT-TIME-2", t("The tower turns exactly one step clockwise."))
    if state["pending"] or state["offer"] is not None:
        raise _Refuse("DT-TURN-2", t("Not yet: {prompt}", prompt=prompt(data, state)))
    phase = state["phase"]
    if phase == "move":
        move_ended(data, state, events)
        phase = state["phase"]
        if state["pending"]:
            raise _Refuse(
                "DT-MOVE-6",
                t(
                    "{player} must have the encounter here first, moved or not.",
                    player=_name(state, seat),
                ),
            )
    if phase == "trade":
        close_trade(data, state, events)
        phase = state["phase"]
    if phase == "city":
        leave_city(state, events)
        if state["phase"] == "trade":
            close_trade(data, state, events)
        phase = state["phase"]
    if phase != "cleanup":
        raise _Refuse(
            "DT-MOVE-6" if phase in ("encounter", "resolve") else "DT-TURN-2",
            t("Not yet: {prompt}", prompt=prompt(data, state)),
        )
    over = over_limits(data, state)
    if over:
        raise _Refuse(over[0], over[1])
    state["tower_step"] = (state["tower_step"] + 1) % 8  # DT-TIME-2, spec 4.2 ROTATE: mod 8
    count = len(state["players"])
    state["active"] = (seat + 1) % count  # DT-TURN-1: clockwise
    state["t"] = None
    door = door_wedge(data, state)
    next_name = _name(state, state["active"])
    events.append(
        _event(
            "tower_turned",
            t(
                "The tower turns: the door faces {wedge}. {player}'s turn.",
                wedge=named(data["wedges"][door]["name"]),
                player=next_name,
            ),
            step=state["tower_step"],
            next=next_name,
            door_wedge=door,
            days=[
                wedge["id"] for wedge, day in zip(data["wedges"], wedge_days(data, state)) if day
            ],
        )
    )
    start_turn(data, state, events)
