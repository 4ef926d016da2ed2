"""The ``declared`` maze: a table playing without the board's data (spec section 7: no space
sensors, no board file). The engine cannot check steps on a grid, so the mover declares each
walk: how many steps it takes and the kind of space it ends on; the rules check the count
against the allowance (or the Movement Rating, or 4) and apply the end space's action.

A piece's place is then a label, not a space id: ``entrance``, ``path``, ``obstacle``,
``gold_mist``, ``penalty``, ``portkey``, ``hedge_home``, ``headstone:1..3`` or ``cup:1..4``.
A walk: ``{"type": "move", "player": P, "steps": 5, "end": "cup", "slot": "2"}`` (``slot`` for a
Cup Tile Space, ``number`` for a Headstone Space; ``reductor`` as on the grid: the tile is spent).
``advance`` and ``push_back`` take ``steps`` and ``end`` the same way.

What cannot be checked is taken on trust: the path itself (hedges, diagonals, the Wandering
Hedge), whether a Portkey's partner is taken (the piece stays a ``portkey`` either way), and the
nearest free or Penalty space. What can is checked: the count, an occupied Cup Tile or Headstone
Space (TW-MOVE-5), the Cloak's effects, the battle on an Obstacle Space."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.rules.api import MALFORMED, State
from companion.rules.common import Refuse

from .state import cloaked

PLAIN = ("path", "obstacle", "gold_mist", "penalty", "portkey", "hedge_home", "entrance")
ENDS = (*PLAIN, "cup", "headstone")


def on(state: State) -> bool:
    return state["options"].get("maze") == "declared"


def kind_of(label: str) -> tuple[str | None, str | None]:
    """A label's feature (as the board's ``feature``) and number (a cup slot, a headstone)."""
    if ":" in label:
        kind, number = label.split(":", 1)
        return ("cup_slot" if kind == "cup" else kind), number
    if label == "path":
        return None, None
    return label, None


def label(action: dict[str, Any]) -> str:
    end = action.get("end")
    if end not in ENDS:
        raise Refuse(
            MALFORMED,
            t("Declare the end space's kind: {kinds}.", kinds=", ".join(ENDS)),
        )
    if end == "cup":
        slot = action.get("slot")
        if slot not in ("1", "2", "3", "4"):
            raise Refuse(MALFORMED, t("A Cup Tile Space is named 1 to 4."))
        return f"cup:{slot}"
    if end == "headstone":
        number = action.get("number")
        if str(number) not in ("1", "2", "3"):
            raise Refuse(MALFORMED, t("A Headstone Space is numbered 1 to 3."))
        return f"headstone:{number}"
    return end


def check(
    data: dict[str, Any], state: State, seat: int, action: dict, limit: int, mode: str
) -> dict[str, Any]:
    """A declared walk, checked as far as it can be; the same answer as ``check_walk``."""
    steps = action.get("steps")
    if not isinstance(steps, int) or isinstance(steps, bool) or steps < 0:
        raise Refuse(MALFORMED, t("Declare the number of steps."))
    end = label(action)
    others = len(state["players"]) - 1
    if steps > limit + others:  # TW-AMB-34: beyond only by the taken spaces skipped
        from .walking import LIMIT_RULES

        raise Refuse(
            LIMIT_RULES[mode], t("The piece may move up to {n} spaces, not {m}.", n=limit, m=steps)
        )
    if steps == 0:
        end = state["pieces"][seat]
    kind, _number = kind_of(end)
    if kind in ("cup_slot", "headstone") and steps:
        if any(place == end for index, place in enumerate(state["pieces"]) if index != seat):
            raise Refuse(
                "TW-MOVE-5", t("Another piece stands there: go on to the next available space.")
            )
    stop = kind == "obstacle" and not cloaked(state, seat) and steps > 0
    return {
        "end": end,
        "battle": stop and mode == "move",
        "uncleared": stop and mode != "move",
        "crossed": bool(action.get("reductor")),
        "jump": None,
        "steps": steps,
    }


def legal_walks(state: State, kind: str, who: str, limit: int) -> list[dict[str, Any]]:
    """A declared walk of each length up to ``limit`` to a plain Path space, and the longest to
    every other kind (a phone asks for the kind and the count separately)."""
    found = [{"type": kind, "player": who, "steps": n, "end": "path"} for n in range(limit + 1)]
    for end in ("obstacle", "gold_mist", "penalty", "portkey"):
        found.append({"type": kind, "player": who, "steps": limit, "end": end})
    if kind == "move":
        taken = {place for place in state["pieces"]}
        for slot in ("1", "2", "3", "4"):
            if f"cup:{slot}" not in taken:
                found.append(
                    {"type": kind, "player": who, "steps": limit, "end": "cup", "slot": slot}
                )
        for number in ("1", "2", "3"):
            if f"headstone:{number}" not in taken:
                found.append(
                    {
                        "type": kind,
                        "player": who,
                        "steps": limit,
                        "end": "headstone",
                        "number": number,
                    }
                )
    return found
