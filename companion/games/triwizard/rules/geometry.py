"""The maze's geometry as the moves read it from the loaded data set (pure functions):
neighbours, coordinates, straight runs and the nearest of several spaces; Path distances and the
open spaces a Wandering Hedge may be summoned to are ``maze``'s."""

from __future__ import annotations

from typing import Any

from . import maze
from .maze import distances

__all__ = ["distances", "open_spaces"]

_OPEN: list[Any] = [None, []]  # the last data set asked about and its open spaces


def open_spaces(data: dict[str, Any]) -> list[str]:
    """``maze.open_spaces``, kept for the last data set asked about (a data set never changes
    once loaded)."""
    if _OPEN[0] is not data:
        _OPEN[1] = maze.open_spaces(data)
        _OPEN[0] = data
    return _OPEN[1]


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


def nearest(data: dict[str, Any], origin: str, candidates: list[str]) -> list[str]:
    """The candidates at the least Path distance from ``origin`` (unreachable ones last resort:
    none of them when any is reachable)."""
    far = distances(data, origin)
    reachable = [c for c in candidates if c in far]
    if not reachable:
        return sorted(candidates)
    least = min(far[c] for c in reachable)
    return sorted(c for c in reachable if far[c] == least)
