"""The tables' files: the Combat Table (``combat_table.json``, DT-AMB-2) and the Quest Location
table (``quest_table.json``, DT-AMB-6)."""

from __future__ import annotations

import json
from typing import Any

from .checks import as_object, field, number, only, top_level, unknown
from .reading import DataFile


def check_combat_table(file: DataFile) -> list[dict[str, Any]]:
    """DT-COMBAT-5, DT-AMB-2: bands of (player total - monster total) and their targets."""
    root = top_level(file)
    only(file, root, "top level", ("rows",))
    rows = field(file, root, "top level", "rows", "list")
    if not rows:
        file.fail("rows", "the table has no rows")
    out: list[dict[str, Any]] = []
    for index, raw in enumerate(rows):
        place = f"rows[{index}]"
        row = as_object(file, place, raw, "each row")
        only(file, row, place, ("min", "max", "target"))
        low = number(file, row, place, "min", null=True)
        high = number(file, row, place, "max", null=True)
        target = number(file, row, place, "target", 2, 12)
        if low is None and index > 0:
            file.fail(
                place,
                'only the first row may have "min": null (no lower end); this row '
                "needs a whole number",
            )
        if high is None and index < len(rows) - 1:
            file.fail(
                place,
                'only the last row may have "max": null (no upper end); this row '
                "needs a whole number",
            )
        if low is not None and high is not None and low > high:
            file.fail(place, f"'min' {low} is above 'max' {high}")
        if out and out[-1]["min"] is not None and low < out[-1]["min"]:
            file.fail(
                "rows",
                f"the rows must go up by difference: rows[{index}] starts at {low}, "
                f"below rows[{index - 1}], which starts at {out[-1]['min']}",
            )
        out.append({"min": low, "max": high, "target": target})
    for index in range(1, len(out)):
        _follows(file, index, out[index - 1], out[index]["min"], out[index]["max"])
    if not any(_covers(row, 0) for row in out):
        file.fail("rows", "no row covers difference 0 (equal totals use row 0, DT-COMBAT-5)")
    return out


def _follows(
    file: DataFile, index: int, before: dict[str, Any], low: int, high: int | None
) -> None:
    """Row ``i`` starts exactly one after the row before it ends: no gap, no overlap."""
    end = before["max"]
    if low == end + 1:
        return
    if low > end + 1:
        span = f"difference {end + 1}" if low == end + 2 else f"differences {end + 1} to {low - 1}"
        file.fail("rows", f"no row covers {span} (between rows[{index - 1}] and rows[{index}])")
    last = end if high is None else min(end, high)
    span = f"difference {low}" if low == last else f"differences {low} to {last}"
    file.fail("rows", f"rows[{index - 1}] and rows[{index}] overlap: both cover {span}")


def _covers(row: dict[str, Any], difference: int) -> bool:
    return (row["min"] is None or row["min"] <= difference) and (
        row["max"] is None or difference <= row["max"]
    )


def check_quest_table(
    file: DataFile, spaces: dict[str, dict[str, Any]], runes: dict[str, str]
) -> dict[str, Any]:
    """DT-QUEST-6, DT-SPACE-3, DT-AMB-6: dice totals -> a rune or a space."""
    root = top_level(file)
    only(file, root, "top level", ("dice", "results"))
    dice = number(file, root, "top level", "dice", 1, 6)
    results = field(file, root, "top level", "results", "object")
    low, high = dice, 6 * dice
    span = f"{dice} {'die rolls' if dice == 1 else 'dice roll'} every total from {low} to {high}"
    for key in results:
        if not key.isdigit() or str(int(key)) != key:
            file.fail(
                "results", f'the key {key!r} is not a dice total (write totals as text, e.g. "7")'
            )
        if not low <= int(key) <= high:
            file.fail("results", f"the total {key} cannot be rolled ({span})")
    missing = [str(value) for value in range(low, high + 1) if str(value) not in results]
    if missing:
        totals = "total" if len(missing) == 1 else "totals"
        file.fail("results", f"no result for {totals} {', '.join(missing)} ({span})")
    out: dict[str, str] = {}
    for total in range(low, high + 1):
        place = f'results["{total}"]'
        entry = as_object(file, place, results[str(total)], "each result")
        if len(entry) != 1 or next(iter(entry)) not in ("rune", "space"):
            file.fail(
                place,
                'a result is {"rune": "..."} or {"space": "..."}, not '
                f"{json.dumps(entry, ensure_ascii=False)}",
            )
        if "rune" in entry:
            rune = field(file, entry, place, "rune", "text")
            if rune not in runes:
                file.fail(
                    place, unknown("rune", rune, runes, "the runes on the map are", "the map")
                )
            out[str(total)] = runes[rune]
        else:
            space = field(file, entry, place, "space", "text")
            if space not in spaces:
                file.fail(
                    place, unknown("space", space, spaces, "map.json's spaces are", "map.json")
                )
            out[str(total)] = space
    return {"dice": dice, "results": out}
