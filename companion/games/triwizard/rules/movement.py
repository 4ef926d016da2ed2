"""The movement roll (TW-TURN-2/3, TW-MOVE-1, TW-MOVE-10) and the move itself (TW-MOVE-*,
TW-RES-REDUCT-*): a whole path at once, checked step by step (``walking.check_walk``)."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.rules.api import MALFORMED, State
from companion.rules.common import Refuse, event

from . import declared
from .numbers import CLOAK_FACE
from .spaces import resolve_end
from .state import face_value
from .turns import no_interrupt, no_pending, own_turn
from .walking import check_walk


def movement_roll(data: dict[str, Any], state: State, face: Any, events: list) -> None:
    ts = state["turn_state"]
    ts["roll"] = face
    if face == CLOAK_FACE:  # TW-TURN-3, TW-MOVE-10
        state["phase"] = "cloak_place"
        return
    ts["allowance"] = 2 * face_value(face)  # TW-TURN-2, TW-MOVE-1, TW-AMB-29
    state["phase"] = "moving"


def reductor_tile(data: dict[str, Any], state: State, seat: int, tile: Any) -> str | None:
    """The Reductor Curse a move names, checked: the mover's own, and the turn's one tile."""
    if tile is None:
        return None
    if tile not in state["tiles"][seat]:
        raise Refuse("TW-RES-4", t("That Resource Tile is not in your hand."))
    if data["tiles"][tile]["kind"] != "reductor":
        raise Refuse("TW-RES-REDUCT-1", t("That tile is not a Reductor Curse."))
    if state["turn_state"]["tile_played"]:
        raise Refuse("TW-TURN-4", t("Only one Resource Tile may be played in a turn."))
    return tile


def move(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    seat = own_turn(state, action)
    no_interrupt(state)
    phase = state["phase"]
    if phase == "cloak_place":
        raise Refuse("TW-TURN-3", t("The Cloak was rolled: no move this turn; place the Cloak."))
    if phase == "open":
        raise Refuse("TW-TURN-2", t("Roll the die before moving."))
    if phase in ("removal_roll", "removal_place"):
        raise Refuse("TW-CLOAK-6", t("Trying to remove the Cloak is the turn's only action."))
    if phase == "swap":
        raise Refuse("TW-TURN-7", t("A swapped hand ends the turn."))
    if phase != "moving":
        raise Refuse("TW-MOVE-1", t("No move is under way now."))
    no_pending(state)
    tile = reductor_tile(data, state, seat, action.get("reductor"))
    ts = state["turn_state"]
    if declared.on(state):
        walk = declared.check(data, state, seat, action, ts["allowance"], "move")
        path = [walk["end"]] * walk["steps"]
    else:
        if "path" not in action:
            raise Refuse(MALFORMED, t("A move gives its path."))
        walk = check_walk(
            data, state, seat, action["path"], ts["allowance"], "move", reductor=tile is not None
        )
        path = action["path"]
    start = state["pieces"][seat]
    who = state["players"][seat]
    if tile is not None:
        state["tiles"][seat].remove(tile)
        state["tile_pile"]["discard"].append(tile)
        ts["tile_played"] = True
        events.append(
            event("play_tile", t("{player} plays the Reductor Curse.", player=who), tile=tile)
        )
    state["pieces"][seat] = walk["end"]
    ts["path"] = [] if declared.on(state) else list(path)
    events.append(
        event(
            "move",
            t("{player} moves {n} spaces to {space}.", player=who, n=len(path), space=walk["end"]),
            player=who,
            path=list(path),
        )
    )
    if walk["battle"]:
        from .battles import start_fight

        came = path[-2] if len(path) > 1 and not declared.on(state) else start
        start_fight(data, state, seat, None if declared.on(state) else came, events)
        return
    if walk["jump"]:
        from .spaces import jump_to

        jump_to(data, state, seat, walk["end"], seat, "post", events)
        return
    if not path:  # TW-AMB-8: staying put is no move, so the space does nothing
        state["phase"] = "post"
        return
    resolve_end(data, state, seat, events)
