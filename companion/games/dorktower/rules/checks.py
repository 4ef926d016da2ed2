"""Who may act now: the checks a player's action starts with (DT-TURN-1, DT-TURN-2)."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.rules.api import Action, State
from companion.rules.common import Refuse as _Refuse
from companion.rules.common import name_of as _name
from companion.rules.common import player_of as _player
from companion.rules.common import seat_of as _seat

from .prompts import prompt


def expect_turn(
    data: dict[str, Any], state: State, action: Action, phase: str | None, what: str
) -> int:
    """The seat of the player who acts, refused unless it is his turn and the game is in
    ``phase`` (None: any phase of his turn); ``what`` names the action."""
    seat = _seat(state, _player(action))
    turn = state["t"]
    if phase == "move" and seat == state["active"] and turn and state["phase"] != "move":
        stopped = {"monsters": "DT-MOVE-4", "quest": "DT-MOVE-5"}.get(turn["ended"])
        if turn["fled"]:
            stopped = "DT-DEFEAT-4"
        if stopped:
            raise _Refuse(
                stopped,
                t(
                    "{player}'s movement has ended; {prompt}",
                    player=_name(state, seat),
                    prompt=prompt(data, state),
                ),
            )
    if state["phase"] in ("start_roll", "choose") or (state["pending"] and phase is not None):
        raise _Refuse("DT-TURN-2", t("Not now: {prompt}", prompt=prompt(data, state)))
    if seat != state["active"]:  # DT-TURN-1
        raise _Refuse(
            "DT-TURN-1",
            t(
                "It is {player}'s turn, not {other}'s.",
                player=_name(state, state["active"]),
                other=_name(state, seat),
            ),
        )
    if phase is not None and state["phase"] != phase:
        rule = {"defeat": "DT-DEFEAT-1", "city": "DT-CITY-1"}.get(phase, "DT-TURN-2")
        if phase == "move" and state["t"]:
            rule = {"monsters": "DT-MOVE-4", "quest": "DT-MOVE-5"}.get(state["t"]["ended"], rule)
            if state["t"]["fled"]:
                rule = "DT-DEFEAT-4"
        elif phase == "city" and state["t"] and state["t"]["fled"]:
            rule = "DT-DEFEAT-4"
        raise _Refuse(
            rule, t("Not now ({action}): {prompt}", action=what, prompt=prompt(data, state))
        )
    return seat


def own_turn(data: dict[str, Any], state: State, action: Action, what: str) -> int:
    """Level-up and slot changes: any time in one's own turn, but not in a pending roll."""
    seat = _seat(state, _player(action))
    if state["phase"] in ("start_roll", "choose"):
        raise _Refuse("DT-TURN-2", t("Not now: {prompt}", prompt=prompt(data, state)))
    if seat != state["active"]:
        raise _Refuse(
            "DT-TURN-1",
            t(
                "It is {player}'s turn, not {other}'s.",
                player=_name(state, state["active"]),
                other=_name(state, seat),
            ),
        )
    if state["phase"] == "scrolls_after" or (
        state["pending"] and state["pending"][0].get("why") == "combat" and state["combat"]["rolls"]
    ):
        raise _Refuse("DT-AMB-15", t("Not between a roll and its outcome."))
    return seat
