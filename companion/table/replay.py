"""Replay a recorded game or a scenario: JSON Lines in, the resulting state (as JSON) out.

Line 1 is the header, ``{"game": "<game id>", "players": [...], "options": {...}}`` with an
optional ``"seed"``; every following line is one action, or ``{"type": "undo"}``. A line the rules
refuse changes nothing; it is reported in ``rejections`` with its 1-based line number, and the
replay goes on. The vocabulary is documented in ``docs/replay.md``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ..games import plugin
from ..rules import EVERYTHING, Refusal, SetupError
from ..rules.api import MALFORMED
from .history import History


class ReplayError(ValueError):
    """The file cannot be replayed at all (a missing or invalid header)."""


def replay(lines: Iterable[str], view: str | None = None) -> dict[str, Any]:
    """Replay JSON Lines and return the chosen view of the final state plus the rejections."""
    history: History | None = None
    rejections: list[dict[str, Any]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as exc:
            if history is None:
                raise ReplayError(
                    f"line {number}: the header is not valid JSON ({exc.msg})"
                ) from None
            rejections.append(
                {
                    "line": number,
                    "rule": MALFORMED,
                    "reason": f"The line is not valid JSON ({exc.msg}).",
                }
            )
            continue
        if history is None:
            history = _start(entry, number)
            continue
        result = history.submit(entry)
        if isinstance(result, Refusal):
            rejections.append({"line": number, **result.to_json()})
    if history is None:
        raise ReplayError("the file is empty: line 1 must be the game header")
    viewer = EVERYTHING if view is None else view
    if viewer != EVERYTHING and viewer not in history.state["players"]:
        raise ReplayError(f"--view {view!r}: nobody of that name is playing")
    result = history.game.view(history.state, viewer)
    result["rejections"] = rejections
    return result


def _start(header: Any, number: int) -> History:
    if not isinstance(header, dict) or "game" not in header or "players" not in header:
        raise ReplayError(f'line {number}: the header needs "game" and "players"')
    try:
        found = plugin(header["game"])
        game = found.game
        if found.data is not None:  # the bundled data set, checked when the game needs it
            try:
                found.data.check_default()
            except found.data.error as exc:
                raise ReplayError(f"the {found.title} data set is refused: {exc}") from None
        seed = header.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise SetupError("seed must be an integer")
        options = header.get("options") or {}
        if not isinstance(options, dict):
            raise SetupError("options must be an object")
        return History(game, header["players"], options, seed)
    except SetupError as exc:
        raise ReplayError(f"line {number}: {exc}") from None
