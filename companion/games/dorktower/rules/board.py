"""The board as the data set describes it: spaces and their types, wedges, day and night as the
tower shows them (DT-TIME), the door (DT-TOWER-2), and who stands where."""

from __future__ import annotations

from typing import Any

from companion.rules.api import State

from .texts import named


def space_name(data: dict[str, Any], space: str) -> str:
    return named(data["spaces"][space]["name"])


def space_type(data: dict[str, Any], space: str) -> dict[str, Any]:
    return data["space_types"][data["spaces"][space]["type"]]


def wedge_by_id(data: dict[str, Any], wedge: str) -> dict[str, Any]:
    return next(entry for entry in data["wedges"] if entry["id"] == wedge)


def draw_count(data: dict[str, Any], state: State, space: str) -> int:
    """Encounter tokens drawn on ``space`` now (DT-ENC-3, §3.1), ignoring monsters and
    quests there."""
    kind = space_type(data, space)
    return kind["night"] if not is_day(data, state, space) else kind["day"]


def is_day(data: dict[str, Any], state: State, space: str) -> bool:
    """DT-TIME-1, DT-TIME-3: the wedge's wall decides; always-night spaces never see day."""
    if space_type(data, space)["always_night"]:
        return False
    wedge = [entry["id"] for entry in data["wedges"]].index(data["spaces"][space]["wedge"])
    return wedge_days(data, state)[wedge]


def wedge_days(data: dict[str, Any], state: State) -> list[bool]:
    """DT-TIME-1, DT-AMB-1: for each wedge (clockwise), whether a sun wall faces it."""
    tower = data["tower"]
    first, step, door = tower["door_wedge"], state["tower_step"], tower["door_wall"]
    return [tower["walls"][(wedge - first - step + door) % 8] == "sun" for wedge in range(8)]


def door_wedge(data: dict[str, Any], state: State) -> int:
    """DT-TIME-2: the door moves one wedge clockwise at every turn of the tower."""
    return (data["tower"]["door_wedge"] + state["tower_step"]) % 8


def door_space(data: dict[str, Any], state: State) -> str:
    """DT-TOWER-2: the shadowland next to the door."""
    return data["shadowlands"][data["wedges"][door_wedge(data, state)]["id"]]


def other_seats(state: State, seat: int) -> list[int]:
    """The other players' seats, clockwise from ``seat``."""
    count = len(state["players"])
    return [(seat + offset) % count for offset in range(1, count)]


def others_here(state: State, seat: int) -> list[int]:
    """The other living heroes on ``seat``'s space."""
    here = state["heroes"][seat]["space"]
    return [
        other
        for other in other_seats(state, seat)
        if state["heroes"][other]["space"] == here and not state["heroes"][other]["dead"]
    ]
