"""Triwizard data sets: the maze, the cards, the tiles and the die the rulebook prints
elsewhere (TW-AMB-1/2/3).

A data set is one directory of JSON files (``docs/triwizard-data.md`` has the schema):

``dataset.json``  the manifest: schema, name, title, whether it is an invented example, source
``board.json``    the grid with its Path and Green Hedge cells and their features (TW-AMB-1)
``cards.json``    40 Battle Cards, 20 Obstacle Cards, 36 Resource Tiles (TW-COMP-4/6/8)
``die.json``      the die's 6 faces and the dice reader's profile (TW-COMP-7, TW-AMB-2)
``it.json``       optional: Italian names of the colours, tile kinds, features...

:func:`load_dataset` reads and validates a directory and returns the loaded form the rules read
(plain JSON types). The first mistake found raises :class:`DataError`, naming the file, the
place in it and the problem. ``board.py``-like checks live in ``data_board``, the cards and the
die in ``data_cards``, the shared helpers in ``data_checks``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from companion.i18n import DEFAULT, LANGUAGES

from .data_board import check_board
from .data_cards import check_cards, check_die
from .data_checks import CARD_ID, DataError, DataFile, expect, field, only, read_file, top_level

__all__ = ["FILES", "SCHEMA", "DataError", "fingerprint", "load_dataset", "localised", "words"]

SCHEMA = "triwizard/1"
FILES = ("dataset.json", "board.json", "cards.json", "die.json")

#: the English names of what a translation file may name, by section
ENGLISH: dict[str, dict[str, str]] = {
    "colours": {"red": "Red", "blue": "Blue", "orange": "Orange", "green": "Green"},
    "tile_kinds": {
        "dumbledore": "Albus Dumbledore",
        "double_die": "Double Die",
        "four_point": "Four Point Spell",
        "cloak": "Invisibility Cloak",
        "red_sparks": "Red Sparks",
        "reductor": "Reductor Curse",
        "summon_hedge": "Summon Hedge",
        "veritaserum": "Veritaserum",
    },
    "features": {
        "entrance": "Maze Entrance",
        "obstacle": "Obstacle Space",
        "gold_mist": "Gold Mist Space",
        "penalty": "Penalty Space",
        "hedge_home": "Wandering Hedge Space",
        "portkey": "Portkey Space",
        "headstone": "Headstone Space",
        "cup_slot": "Cup Tile Space",
    },
    "kinds": {"path": "Path", "green_hedge": "Green Hedge", "dark_hedge": "Dark Hedge"},
    "cup_tiles": {
        "cup": "Triwizard Cup",
        "headstone-1": "Headstone Tile 1",
        "headstone-2": "Headstone Tile 2",
        "headstone-3": "Headstone Tile 3",
    },
}


def check_manifest(file: DataFile) -> dict[str, Any]:
    """``dataset.json``: the schema, the set's name, title, whether it is an invented example
    and where it comes from."""
    root = top_level(file)
    only(file, root, "top level", ("schema", "name", "title", "example", "source"))
    schema = field(file, root, "top level", "schema", "text")
    if schema != SCHEMA:
        file.fail("top level", f"'schema' must be {SCHEMA!r}, not {schema!r}")
    name = field(file, root, "top level", "name", "text")
    if not CARD_ID.fullmatch(name):
        file.fail(
            "top level",
            f"'name' must be a short lowercase id (letters a-z, digits, '-' and '_'), not {name!r}",
        )
    return {
        "name": name,
        "title": field(file, root, "top level", "title", "text"),
        "example": field(file, root, "top level", "example", "bool", default=False),
        "source": field(file, root, "top level", "source", "text", default=""),
    }


def check_names(file: DataFile) -> dict[str, Any]:
    """A translation file (``it.json``): ``{"title": text, "colours": {id: name}, "tile_kinds",
    "features", "kinds", "cup_tiles"}``, every part optional; an unknown id or key, or a name
    that is not text, fails."""
    root = top_level(file)
    only(file, root, "top level", ("title", *ENGLISH))
    out: dict[str, Any] = {"title": None}
    if "title" in root:
        out["title"] = field(file, root, "top level", "title", "text").strip()
    for section, known in ENGLISH.items():
        out[section] = {}
        part = expect(file, section, root.get(section, {}), "object", repr(section))
        for ident, name in part.items():
            if ident.startswith("_"):
                continue
            if ident not in known:
                file.fail(
                    f"{section}.{ident}",
                    f"unknown id {ident!r} (the {section} are: {', '.join(known)})",
                )
            out[section][ident] = expect(file, f"{section}.{ident}", name, "text", "a name").strip()
    return out


def fingerprint(data: dict[str, Any]) -> str:
    """The first 16 hex digits of the SHA-256 of the canonical JSON of ``data`` without its own
    ``fingerprint`` and its ``names`` (other languages change no rule), so a game goes on after
    a name's Italian is mended."""
    content = {key: value for key, value in data.items() if key not in ("fingerprint", "names")}
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def load_dataset(directory: str | Path) -> dict[str, Any]:
    """Read and validate the data set in ``directory``: its loaded form, or :class:`DataError`
    naming the file, the place and the problem (``docs/triwizard-data.md``)."""
    folder = Path(directory)
    label = folder.resolve().name or str(folder)
    if not folder.is_dir():
        raise DataError(label, "directory", f"there is no directory {str(directory)!r}")
    for name in FILES:
        if not (folder / name).is_file():
            raise DataError(
                f"{label}/{name}",
                "file",
                f"the file is missing (a data set has {len(FILES)} files: {', '.join(FILES)})",
            )
    manifest = check_manifest(read_file(folder, label, "dataset.json"))
    board = check_board(read_file(folder, label, "board.json"))
    cards = check_cards(read_file(folder, label, "cards.json"))
    die = check_die(read_file(folder, label, "die.json"))
    data: dict[str, Any] = {**manifest, "board": board, **cards, "die": die}
    data["fingerprint"] = fingerprint(data)
    data["names"] = {}
    for lang in LANGUAGES:
        if lang != DEFAULT and (folder / f"{lang}.json").is_file():
            data["names"][lang] = check_names(read_file(folder, label, f"{lang}.json"))
    return data


def labels(data: dict[str, Any], lang: str) -> dict[str, dict[str, str]]:
    """The names of the colours, tile kinds, features, cell kinds and Cup Tiles in ``lang``
    where the set gives them (English otherwise)."""
    given = data.get("names", {}).get(lang) or {}
    return {
        section: {ident: given.get(section, {}).get(ident, name) for ident, name in known.items()}
        for section, known in ENGLISH.items()
    }


def words(data: dict[str, Any], lang: str) -> dict[str, str]:
    """English name -> its ``lang`` name, for every name the set translates."""
    out: dict[str, str] = {}
    given = data.get("names", {}).get(lang) or {}
    if given.get("title"):
        out[data["title"]] = given["title"]
    for section, known in ENGLISH.items():
        for ident, name in given.get(section, {}).items():
            out[known[ident]] = name
    return out


def localised(data: dict[str, Any], lang: str) -> dict[str, Any]:
    """A copy of ``data`` for a page in ``lang``: its title in ``lang`` where given, ``labels``
    (section -> id -> name) and ``words`` (English -> ``lang``); ids, numbers and the
    fingerprint stay as they are."""
    out = {key: value for key, value in data.items() if key != "names"}
    given = data.get("names", {}).get(lang) or {}
    out["language"] = lang
    out["title"] = given.get("title") or data["title"]
    out["labels"] = labels(data, lang)
    out["words"] = words(data, lang)
    return out
