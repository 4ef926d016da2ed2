"""The board file of a Triwizard data set (``board.json``, TW-AMB-1): the grid, its Path and
Green Hedge cells with their features, checked and turned into the loaded form's ``board``.

Cells not listed are Dark Hedge. A space's id is the cell's own ``id`` if it has one, else
``"x,y"``. See ``docs/triwizard-data.md``.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from .constants import CUP_SLOTS, HEADSTONES, PORTKEY_PAIRS
from .data_checks import CELL_ID, DataFile, expect, field, number, one_of, only, show, top_level

MAX_SIDE = 60  # a grid is at most 60 x 60 cells (bounded)
KINDS = ("path", "green_hedge", "dark_hedge")
#: features written as a word
WORD_FEATURES = ("entrance", "obstacle", "gold_mist", "penalty", "hedge_home")
#: features written as an object of one key, with what the key holds
NUMBERED = {"headstone": HEADSTONES, "cup_slot": CUP_SLOTS}
OBJECT_FEATURES = ("portkey", "headstone", "cup_slot")


def cell_id(x: int, y: int) -> str:
    """The id of a cell that has none of its own: ``"x,y"``."""
    return f"{x},{y}"


def _feature(file: DataFile, place: str, raw: Any) -> dict[str, Any]:
    """A cell's feature as ``{"feature": name, "pair": id}`` / ``{"feature", "number"}``."""
    if raw is None:
        return {"feature": None}
    if isinstance(raw, str):
        return {"feature": one_of(file, place, raw, "'feature'", WORD_FEATURES)}
    if not isinstance(raw, dict) or len(raw) != 1:
        file.fail(
            place,
            f"'feature' must be one of {', '.join(WORD_FEATURES)}, or an object of one key "
            f"(portkey, headstone or cup_slot), not {show(raw)}",
        )
    expect(file, place, raw, "object", "'feature'")
    ((key, value),) = raw.items()
    one_of(file, place, key, "the feature's key", OBJECT_FEATURES)
    if key == "portkey":
        if not isinstance(value, str) or not CELL_ID.fullmatch(value):
            file.fail(
                place, f'a portkey\'s pair must be a short name such as "A", not {show(value)}'
            )
        return {"feature": "portkey", "pair": value}
    number(file, raw, place, key, 1, NUMBERED[key])
    return {"feature": key, "number": value}


def _cells(file: DataFile, root: dict[str, Any], width: int, height: int) -> list[dict[str, Any]]:
    """Every listed Path and Green Hedge cell, checked one by one, with its place."""
    cells = field(file, root, "top level", "cells", "list")
    seen_at: dict[tuple[int, int], int] = {}
    seen_id: dict[str, int] = {}
    out: list[dict[str, Any]] = []
    for index, raw in enumerate(cells):
        place = f"cells[{index}]"
        cell = expect(file, place, raw, "object", "each cell")
        only(file, cell, place, ("x", "y", "kind", "feature", "id"))
        x = number(file, cell, place, "x", 0, width - 1)
        y = number(file, cell, place, "y", 0, height - 1)
        place = f"cells[{index}] (x {x}, y {y})"
        if (x, y) in seen_at:
            file.fail(place, f"this cell is listed twice (also cells[{seen_at[(x, y)]}])")
        seen_at[(x, y)] = index
        kind = one_of(file, place, field(file, cell, place, "kind", "text"), "'kind'", KINDS)
        feature = _feature(file, place, cell.get("feature"))
        if feature["feature"] is not None and kind != "path":
            file.fail(
                place,
                f"a {kind} cell cannot have a feature ({feature['feature']}); features are only "
                "on path cells (TW-AMB-1)",
            )
        if kind == "dark_hedge":
            if "id" in cell:
                file.fail(place, "a dark_hedge cell is no space and has no id")
            continue
        ident = cell_id(x, y)
        if "id" in cell:
            ident = field(file, cell, place, "id", "text")
            if not CELL_ID.fullmatch(ident):
                file.fail(
                    place,
                    f"'id' must be letters, digits, '-' and '_' (no comma), not {ident!r}",
                )
        if ident in seen_id:
            file.fail(place, f"the id {ident!r} is used twice (also cells[{seen_id[ident]}])")
        seen_id[ident] = index
        out.append({"id": ident, "x": x, "y": y, "kind": kind, **feature, "place": place})
    return out


def _places(cells: list[dict[str, Any]]) -> str:
    return ", ".join(cell["place"].split(" ")[0] for cell in cells)


def _exactly_one(file: DataFile, cells: list[dict[str, Any]], what: str, rule: str) -> str:
    """The id of the one cell in ``cells``; none or several fail."""
    if len(cells) != 1:
        found = f"{len(cells)} {what}s ({_places(cells)})" if cells else f"no {what}"
        file.fail("cells", f"the board has {found}; it needs exactly 1 ({rule})")
    return cells[0]["id"]


def _numbered(file: DataFile, cells: list[dict[str, Any]], feature: str, rule: str) -> dict:
    """``{"1": id, ...}``: every number of ``feature`` on exactly one cell."""
    out: dict[str, str] = {}
    for n in range(1, NUMBERED[feature] + 1):
        with_n = [cell for cell in cells if cell["feature"] == feature and cell["number"] == n]
        out[str(n)] = _exactly_one(file, with_n, f"{feature} {n} cell", rule)
    return out


def _portkeys(file: DataFile, cells: list[dict[str, Any]]) -> dict[str, str]:
    """``{id: partner id}``: 3 pairs, each pair's name on exactly 2 cells (TW-PORT-1)."""
    pairs: dict[str, list[dict[str, Any]]] = {}
    for cell in cells:
        if cell["feature"] == "portkey":
            pairs.setdefault(cell["pair"], []).append(cell)
    for name, ends in pairs.items():
        if len(ends) != 2:
            file.fail(
                ends[-1]["place"],
                f"the portkey pair {name!r} is on {len(ends)} cell(s) ({_places(ends)}); "
                "each pair is on exactly 2 cells (TW-PORT-1)",
            )
    if len(pairs) != PORTKEY_PAIRS:
        names = ", ".join(sorted(pairs)) or "none"
        file.fail(
            "cells",
            f"the board has {len(pairs)} portkey pairs ({names}); it needs exactly "
            f"{PORTKEY_PAIRS} (TW-PORT-1, TW-AMB-1)",
        )
    out: dict[str, str] = {}
    for first, second in pairs.values():
        out[first["id"]] = second["id"]
        out[second["id"]] = first["id"]
    return out


def _at_least_one(file: DataFile, cells: list[dict[str, Any]], feature: str, what: str) -> list:
    ids = [cell["id"] for cell in cells if cell["feature"] == feature]
    if not ids:
        file.fail("cells", f"the board has no {what}; it needs at least 1 (TW-AMB-1)")
    return ids


def _neighbours(spaces: dict[str, dict[str, Any]], at: dict[str, str]) -> dict[str, list[str]]:
    """Each space's orthogonal neighbours that are spaces (Path or Green Hedge): west, east,
    north, south."""
    out: dict[str, list[str]] = {}
    for ident, space in spaces.items():
        x, y = space["x"], space["y"]
        near = [at.get(f"{x + dx},{y + dy}") for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1))]
        out[ident] = [other for other in near if other is not None]
    return out


def _check_reachable(
    file: DataFile, cells: list[dict[str, Any]], spaces: dict, neighbours: dict, entrance: str
) -> None:
    """Every Path cell can be walked to from the Entrance over Path cells (TW-AMB-1)."""
    reached = {entrance}
    queue = deque([entrance])
    while queue:
        here = queue.popleft()
        for there in neighbours[here]:
            if there not in reached and spaces[there]["kind"] == "path":
                reached.add(there)
                queue.append(there)
    for cell in cells:
        if cell["kind"] == "path" and cell["id"] not in reached:
            file.fail(
                f"{cell['place']} (id {cell['id']!r})",
                "this path cell cannot be reached from the entrance over path cells "
                "(TW-AMB-1, TW-MOVE-2/3)",
            )


def check_board(file: DataFile) -> dict[str, Any]:
    """``board.json`` checked (TW-AMB-1): the loaded form's ``board``."""
    root = top_level(file)
    only(file, root, "top level", ("grid", "cells"))
    grid = field(file, root, "top level", "grid", "object")
    only(file, grid, "grid", ("width", "height"))
    width = number(file, grid, "grid", "width", 1, MAX_SIDE)
    height = number(file, grid, "grid", "height", 1, MAX_SIDE)
    cells = _cells(file, root, width, height)
    cells.sort(key=lambda cell: (cell["y"], cell["x"]))

    def having(feature: str) -> list[dict[str, Any]]:
        return [cell for cell in cells if cell["feature"] == feature]

    entrance = _exactly_one(file, having("entrance"), "entrance cell", "TW-SETUP-2, TW-AMB-1")
    hedge_home = _exactly_one(file, having("hedge_home"), "hedge_home cell", "TW-SETUP-5, TW-AMB-1")
    cup_slots = _numbered(file, cells, "cup_slot", "TW-CUP-1, TW-AMB-1")
    headstones = _numbered(file, cells, "headstone", "TW-HEAD-1, TW-AMB-1")
    portkeys = _portkeys(file, cells)
    obstacles = _at_least_one(file, cells, "obstacle", "obstacle cell")
    penalties = _at_least_one(file, cells, "penalty", "penalty cell")
    spaces: dict[str, dict[str, Any]] = {}
    for cell in cells:
        space = {key: cell[key] for key in ("id", "x", "y", "kind", "feature")}
        if cell["feature"] == "portkey":
            space["pair"] = cell["pair"]
        if cell["feature"] in NUMBERED:
            space["number"] = cell["number"]
        spaces[cell["id"]] = space
    at = {cell_id(space["x"], space["y"]): ident for ident, space in spaces.items()}
    neighbours = _neighbours(spaces, at)
    _check_reachable(file, cells, spaces, neighbours, entrance)
    return {
        "width": width,
        "height": height,
        "spaces": spaces,
        "at": at,
        "entrance": entrance,
        "hedge_home": hedge_home,
        "cup_slots": cup_slots,
        "headstones": headstones,
        "portkeys": portkeys,
        "penalties": penalties,
        "obstacles": obstacles,
        "gold_mist": [cell["id"] for cell in having("gold_mist")],
        "neighbours": neighbours,
    }
