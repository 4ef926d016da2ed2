"""The maze's geometry as the rules core reads it from the loaded data set (pure functions):
neighbours, coordinates, straight lines, Path distances and the open spaces a Wandering Hedge
may be summoned to."""

from __future__ import annotations

from collections import deque
from typing import Any


def spaces(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return data["board"]["spaces"]


def neighbours(data: dict[str, Any], space: str) -> list[str]:
    """Orthogonal neighbours that are Path or Green Hedge."""
    return data["board"]["neighbours"].get(space, [])


def is_path(data: dict[str, Any], space: str) -> bool:
    cell = data["board"]["spaces"].get(space)
    return cell is not None and cell["kind"] == "path"


def is_green(data: dict[str, Any], space: str) -> bool:
    cell = data["board"]["spaces"].get(space)
    return cell is not None and cell["kind"] == "green_hedge"


def feature(data: dict[str, Any], space: str) -> str | None:
    cell = data["board"]["spaces"].get(space)
    return cell["feature"] if cell else None


def xy(data: dict[str, Any], space: str) -> tuple[int, int]:
    cell = data["board"]["spaces"][space]
    return cell["x"], cell["y"]


def direction(data: dict[str, Any], a: str, b: str) -> tuple[int, int]:
    (ax, ay), (bx, by) = xy(data, a), xy(data, b)
    return bx - ax, by - ay


def straight(data: dict[str, Any], run: list[str]) -> bool:
    """Whether consecutive spaces ``run`` lie in one straight line, one step apart."""
    if len(run) < 2:
        return True
    step = direction(data, run[0], run[1])
    return all(direction(data, a, b) == step for a, b in zip(run, run[1:]))


def beyond(data: dict[str, Any], space: str, step: tuple[int, int]) -> str | None:
    """The space one step from ``space`` in direction ``step`` (None: dark hedge or off the
    board)."""
    x, y = xy(data, space)
    return data["board"]["at"].get(f"{x + step[0]},{y + step[1]}")


def distances(data: dict[str, Any], origin: str) -> dict[str, int]:
    """TW-AMB-5: the fewest orthogonal Path steps from ``origin`` to every Path space (Green
    Hedge not crossed; pieces and the Wandering Hedge ignored)."""
    seen = {origin: 0}
    queue = deque([origin])
    while queue:
        here = queue.popleft()
        for there in neighbours(data, here):
            if there not in seen and is_path(data, there):
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


def nearest(data: dict[str, Any], origin: str, candidates: list[str]) -> list[str]:
    """The candidates at the least Path distance from ``origin`` (unreachable ones last resort:
    none of them when any is reachable)."""
    far = distances(data, origin)
    reachable = [c for c in candidates if c in far]
    if not reachable:
        return sorted(candidates)
    least = min(far[c] for c in reachable)
    return sorted(c for c in reachable if far[c] == least)


def open_spaces(data: dict[str, Any]) -> list[str]:
    """TW-RES-HEDGE-2/3, TW-AMB-19: Path spaces with no symbol (the hedge's home counts as
    none) and no orthogonal neighbour that is Dark Hedge or off the board."""
    board = data["board"]
    found = []
    for sid, cell in board["spaces"].items():
        if cell["kind"] != "path" or cell["feature"] not in (None, "hedge_home"):
            continue
        x, y = cell["x"], cell["y"]
        if all(
            board["at"].get(f"{x + dx},{y + dy}") is not None
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
        ):
            found.append(sid)
    return sorted(found)
