"""Helpers for the Triwizard table tests (inputs, sim): a small maze in the loaded form of the
design, states in the design's keys, and a stand-in for the rules core that answers only what the
input mapping asks of it (the public view, the mover's reach, the legal actions), built from the
state, so a mapping is tested on exactly the view it is given.

The maze (invented for these tests, not the printed board)::

    y=0  K0 K1 K2 K3 K4 K5 K6 K7        K0 entrance, K5 obstacle, K6 gold mist
    y=1           B1    G4              B1 path (a branch), G4 green hedge
    y=2           B2    H4              B2 path, H4 path (the Wandering Hedge's home)
"""

from __future__ import annotations

import copy
from typing import Any

from companion.games.triwizard.rules.stickers import CUP_IDENTITIES, components

NAMES = ["Ann", "Bo", "Cy"]


def _board() -> dict[str, Any]:
    cells = {f"K{x}": (x, 0, "path", None) for x in range(8)}
    cells["K0"] = (0, 0, "path", "entrance")
    cells["K5"] = (5, 0, "path", "obstacle")
    cells["K6"] = (6, 0, "path", "gold_mist")
    cells.update(
        {
            "B1": (2, 1, "path", None),
            "B2": (2, 2, "path", None),
            "G4": (4, 1, "green_hedge", None),
            "H4": (4, 2, "path", "hedge_home"),
        }
    )
    at = {f"{x},{y}": space for space, (x, y, _, _) in cells.items()}
    neighbours = {}
    for space, (x, y, _, _) in cells.items():
        around = [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
        neighbours[space] = [at[f"{a},{b}"] for a, b in around if f"{a},{b}" in at]
    return {
        "width": 8,
        "height": 3,
        "spaces": {
            space: {"id": space, "x": x, "y": y, "kind": kind, "feature": feature}
            for space, (x, y, kind, feature) in cells.items()
        },
        "at": at,
        "entrance": "K0",
        "hedge_home": "H4",
        "neighbours": neighbours,
    }


DATA = {
    "name": "corridor",
    "title": "Test corridor",
    "example": True,
    "board": _board(),
    "battle": {
        "red-5-3": {"id": "red-5-3", "colour": "red", "strength": 5, "movement": 3},
        "b07": {"id": "b07", "colour": "blue", "strength": 2, "movement": 4},
    },
    "obstacles": {"o-red-orange-8-2": {"id": "o-red-orange-8-2", "colours": ["red", "orange"]}},
    "tiles": {
        "r01": {"id": "r01", "kind": "dumbledore"},
        "r02": {"id": "r02", "kind": "red_sparks"},
        "r03": {"id": "r03", "kind": "reductor"},
        "r04": {"id": "r04", "kind": "double_die"},
    },
    "die": {"faces": ["cloak", 1, 2, 3, 4, 5], "profile": "triwizard"},
}


def state(**more: Any) -> dict[str, Any]:
    """A state of three players in the design's keys, Ann to play in ``open``; ``more``
    replaces keys. Keys starting with ``_`` are the stand-in's: ``_reach`` (the mover's),
    ``_legal`` (the legal actions), ``_interrupt``, ``_advance``, ``_push_back`` (public views)."""
    base = {
        "game": "triwizard",
        "data_set": "corridor",
        "players": list(NAMES),
        "phase": "open",
        "active": 0,
        "pieces": ["K3", "K1", "K0"],
        "cloak": None,
        "hedge": "H4",
        "cups": dict.fromkeys("1234"),
        "pending": [],
        "interrupts": [],
        "fight": None,
        "options": {"maze": "grid"},
        "_legal": [],
    }
    base.update(copy.deepcopy(more))
    return base


class StandInGame:
    """The rules core as the input mapping sees it: the public view of the design (the keys the
    mapping reads), the mover's ``reach``, ``legal_actions``, the data sets and the box."""

    id = "triwizard"
    title = "The Triwizard Maze Game"

    def __init__(self) -> None:
        self.datasets = {"corridor": DATA}
        self.components = components(DATA)
        self.views: list[str] = []  # every viewer a view was asked for, in order

    def view(self, state: dict[str, Any], viewer: str) -> dict[str, Any]:
        self.views.append(viewer)
        players = state["players"]
        active = players[state["active"]] if state["active"] is not None else None
        return {
            "game": "triwizard",
            "phase": state["phase"],
            "prompt": f"PROMPT({state['phase']})",
            "order": list(players),
            "active": active,
            "players": {
                name: {
                    "seat": seat,
                    "piece": seat + 1,
                    "space": state["pieces"][seat],
                    "cloaked": state["cloak"] == seat,
                }
                for seat, name in enumerate(players)
            },
            "cloak": players[state["cloak"]] if state["cloak"] is not None else None,
            "hedge": state["hedge"],
            "interrupt": state.get("_interrupt"),
            "advance": state.get("_advance"),
            "push_back": state.get("_push_back"),
            "reach": state.get("_reach") if viewer == active else None,
        }

    def legal_actions(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        return copy.deepcopy(state["_legal"])


CUPS = CUP_IDENTITIES
