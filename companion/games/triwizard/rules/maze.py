"""The maze's geometry, pure, on a data set's loaded form (``data["board"]``).

Spaces are named by their ids (``docs/triwizard-data.md``): a cell's own ``id``, else ``"x,y"``.
A name that is no space (Dark Hedge, outside the grid) may still be given as ``"x,y"``: the
functions below answer for it as Dark Hedge or off the board.
"""

from __future__ import annotations

from collections import deque
from typing import Any

MOVE_DIAGONAL = "TW-MOVE-2"  # not orthogonally adjacent
MOVE_OFF_PATH = "TW-MOVE-3"  # Dark Hedge or off the board
MOVE_GREEN = "TW-MOVE-4"  # Green Hedge (only with the Reductor Curse)


def _board(data: dict[str, Any]) -> dict[str, Any]:
    return data["board"]


def coords(data: dict[str, Any], space: Any) -> tuple[int, int] | None:
    """The grid coordinates of ``space`` (a space id, or ``"x,y"`` for any cell, even Dark
    Hedge or outside the grid); None when it names neither."""
    spaces = _board(data)["spaces"]
    if isinstance(space, str) and space in spaces:
        return spaces[space]["x"], spaces[space]["y"]
    if not isinstance(space, str) or space.count(",") != 1:
        return None
    x, y = space.split(",")
    try:
        return int(x), int(y)
    except ValueError:
        return None


def space_at(data: dict[str, Any], x: int, y: int) -> str | None:
    """The id of the Path or Green Hedge space at ``(x, y)``; None for Dark Hedge or outside."""
    return _board(data)["at"].get(f"{x},{y}")


def on_board(data: dict[str, Any], space: Any) -> bool:
    """``space`` is a Path or Green Hedge space of the board."""
    return isinstance(space, str) and space in _board(data)["spaces"]


def is_path(data: dict[str, Any], space: Any) -> bool:
    """``space`` is a Path space (TW-MOVE-3)."""
    return on_board(data, space) and _board(data)["spaces"][space]["kind"] == "path"


def is_green(data: dict[str, Any], space: Any) -> bool:
    """``space`` is a Green Hedge cell (TW-MOVE-4)."""
    return on_board(data, space) and _board(data)["spaces"][space]["kind"] == "green_hedge"


def feature(data: dict[str, Any], space: Any) -> str | None:
    """The space's feature (``"obstacle"``, ``"portkey"``...), None for none or no space."""
    return _board(data)["spaces"][space]["feature"] if on_board(data, space) else None


def neighbours(data: dict[str, Any], space: Any) -> list[str]:
    """The orthogonal neighbours of ``space`` that are Path or Green Hedge (west, east, north,
    south); none for a name that is no space."""
    return list(_board(data)["neighbours"].get(space, [])) if on_board(data, space) else []


def adjacent(data: dict[str, Any], a: Any, b: Any) -> bool:
    """``a`` and ``b`` are orthogonal grid neighbours, whatever their kind (TW-MOVE-2)."""
    first, second = coords(data, a), coords(data, b)
    if first is None or second is None:
        return False
    return abs(first[0] - second[0]) + abs(first[1] - second[1]) == 1


def step_problem(data: dict[str, Any], here: Any, there: Any) -> str | None:
    """Why a step from ``here`` to ``there`` is not a Path step: None if ``there`` is an
    orthogonal neighbour on the Path; ``"TW-MOVE-2"`` if it is not orthogonally adjacent
    (diagonal or farther); ``"TW-MOVE-3"`` if it is Dark Hedge or off the board (or names no
    cell at all); ``"TW-MOVE-4"`` if it is Green Hedge (the caller allows it with the Reductor
    Curse, TW-RES-REDUCT-1..5)."""
    if coords(data, there) is None:
        return MOVE_OFF_PATH
    if not adjacent(data, here, there):
        return MOVE_DIAGONAL
    if is_green(data, there):
        return MOVE_GREEN
    if not is_path(data, there):
        return MOVE_OFF_PATH
    return None


def straight(data: dict[str, Any], a: Any, b: Any, c: Any) -> bool:
    """``a``, ``b``, ``c`` are consecutive cells of one straight row or column, in this order
    (TW-RES-REDUCT-4: a Green Hedge is crossed in a straight line)."""
    points = [coords(data, space) for space in (a, b, c)]
    if any(point is None for point in points):
        return False
    (ax, ay), (bx, by), (cx, cy) = points  # type: ignore[misc]
    return abs(bx - ax) + abs(by - ay) == 1 and (bx - ax, by - ay) == (cx - bx, cy - by)


def distances(data: dict[str, Any], origin: Any) -> dict[str, int]:
    """The fewest orthogonal Path steps from ``origin`` to every Path space reachable from it
    (TW-AMB-5): Green Hedge is not crossed, pieces and the Wandering Hedge are ignored. Empty
    when ``origin`` is no space."""
    if not on_board(data, origin):
        return {}
    out = {origin: 0}
    queue = deque([origin])
    while queue:
        here = queue.popleft()
        for there in neighbours(data, here):
            if there not in out and is_path(data, there):
                out[there] = out[here] + 1
                queue.append(there)
    return out


def nearest(data: dict[str, Any], origin: Any, candidates: Any) -> list[str]:
    """The ``candidates`` at the least Path distance from ``origin`` (ties all listed, in the
    candidates' order); unreachable ones never count, so none reachable gives ``[]``."""
    far = distances(data, origin)
    reachable = [space for space in candidates if space in far]
    if not reachable:
        return []
    least = min(far[space] for space in reachable)
    return [space for space in reachable if far[space] == least]


def open_spaces(data: dict[str, Any]) -> list[str]:
    """Where Summon Hedge may put the Wandering Hedge before pieces are considered (TW-RES-HEDGE-2/3,
    TW-AMB-19): Path spaces with no feature (the hedge home counts as none) whose 4 orthogonal
    neighbours are all Path or Green Hedge (none Dark Hedge or off the board). Row by row; the
    caller removes occupied ones."""
    board = _board(data)
    out = []
    for ident, space in board["spaces"].items():
        if space["kind"] != "path" or space["feature"] not in (None, "hedge_home"):
            continue
        if len(board["neighbours"][ident]) == 4:
            out.append(ident)
    return sorted(out, key=lambda ident: (board["spaces"][ident]["y"], board["spaces"][ident]["x"]))
