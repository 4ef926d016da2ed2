"""Loading a data set: every file read and checked in turn, one normalised dict of plain JSON
types with its fingerprint, and the bundled example."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from companion.i18n import DEFAULT, LANGUAGES

from .board import check_encounter_chart, check_manifest, check_map, check_tower
from .languages import check_translation, check_words
from .layout import layout
from .pieces import check_characters, check_items, check_scrolls, check_tokens, check_xp_costs
from .reading import DataError, DataFile, read_file
from .tables import check_combat_table, check_quest_table

FILES = (
    "dataset.json",
    "encounter_chart.json",
    "map.json",
    "tower.json",
    "combat_table.json",
    "quest_table.json",
    "tokens.json",
    "items.json",
    "scrolls.json",
    "characters.json",
    "xp_costs.json",
)


def fingerprint(data: dict[str, Any]) -> str:
    """The first 16 hex digits of the SHA-256 of the canonical JSON of ``data`` (without its
    own ``fingerprint``, the ``layout`` (where the pages draw each space) and the
    ``translations`` (names in other languages), which change no rule: two sets that play alike
    have equal fingerprints, and a game goes on after a drawing or a name's Italian is mended."""
    content = {
        key: value
        for key, value in data.items()
        if key not in ("fingerprint", "layout", "translations")
    }
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def load_dataset(directory: str | Path) -> dict[str, Any]:
    """Read and validate the data set in ``directory``; the normalised dict, or DataError.

    See ``docs/dork-tower-data.md`` for the files and the dict.
    """
    folder = Path(directory)
    label = folder.resolve().name or str(folder)
    if not folder.is_dir():
        raise DataError(
            label, "directory", f"there is no directory {str(directory)!r} holding a data set"
        )
    missing = [name for name in FILES if not (folder / name).is_file()]
    if missing:
        others = f"; also missing: {', '.join(missing[1:])}" if missing[1:] else ""
        raise DataError(
            f"{label}/{missing[0]}",
            "file",
            f"the file is missing (a data set has {len(FILES)} files: {', '.join(FILES)}){others}",
        )

    def read(name: str) -> DataFile:
        return read_file(folder, label, name)

    manifest = check_manifest(read("dataset.json"))
    space_types, tower_draw = check_encounter_chart(read("encounter_chart.json"))
    board = check_map(read("map.json"), space_types)
    wedges, tower = check_tower(read("tower.json"), board["wedges"])
    combat_rows = check_combat_table(read("combat_table.json"))
    quest_table = check_quest_table(read("quest_table.json"), board["spaces"], board["runes"])
    tokens = check_tokens(read("tokens.json"), tower_draw)
    items, item_types = check_items(read("items.json"))
    scrolls = check_scrolls(read("scrolls.json"))
    characters = check_characters(read("characters.json"), item_types)
    xp, xp_repeat = check_xp_costs(read("xp_costs.json"))
    data: dict[str, Any] = {
        **manifest,
        "space_types": space_types,
        "tower_draw": tower_draw,
        "wedges": wedges,
        "spaces": board["spaces"],
        "adjacent": board["adjacent"],
        "shadowlands": board["shadowlands"],
        "quest_starts": board["quest_starts"],
        "tower": tower,
        "combat_rows": combat_rows,
        "quest_table": quest_table,
        "tokens": tokens,
        "items": items,
        "item_types": item_types,
        "scrolls": scrolls,
        "characters": characters,
        "xp": xp,
        "xp_repeat": xp_repeat,
    }
    data["layout"] = layout(
        board["spaces"],
        board["adjacent"],
        board["shadowlands"],
        [wedge["id"] for wedge in wedges],
        board["positions"],
    )
    data["fingerprint"] = fingerprint(data)
    data["translations"] = {}
    for lang in LANGUAGES:
        if lang != DEFAULT and (folder / f"{lang}.json").is_file():
            file = read(f"{lang}.json")
            data["translations"][lang] = check_translation(file, data)
            check_words(file, data, lang)
    return data


def example_directory() -> Path:
    """The bundled data set: an invented example, not the printed game."""
    return Path(__file__).resolve().parents[2] / "data" / "example"


@cache
def example_dataset() -> dict[str, Any]:
    """The bundled example set, loaded once; shared, so treat it as read-only."""
    return load_dataset(example_directory())
