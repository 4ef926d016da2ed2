"""Reading a data set's files: the JSON of each, with duplicate keys remembered, and the error
that names the file, the place in it and the problem."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NoReturn


class DataError(ValueError):
    """A data set cannot be used: ``str()`` is ``"<file>: <place>: <problem>"``.

    ``file`` is the file's name inside the set's directory, after the directory's own name
    (``mygame/map.json``); ``place`` is where in it (``spaces[12] (id 'rv-3')``, ``rows[3]``,
    ``line 7, column 3``); ``problem`` says what is wrong and, where useful, what was expected.
    """

    def __init__(self, file: str, place: str, problem: str):
        super().__init__(f"{file}: {place}: {problem}")
        self.file = file
        self.place = place
        self.problem = problem


class JsonObject(dict):
    """A JSON object as parsed, remembering keys that appeared more than once."""

    duplicates: tuple[str, ...] = ()


def object_pairs(pairs: list[tuple[str, Any]]) -> JsonObject:
    """``json.loads``'s hook: an object that remembers its repeated keys."""
    obj = JsonObject()
    repeated = []
    for key, value in pairs:
        if key in obj and key not in repeated:
            repeated.append(key)
        obj[key] = value
    obj.duplicates = tuple(repeated)
    return obj


JSON_HINTS = {
    "Expecting property name enclosed in double quotes": " (JSON allows no comma before '}', and every key needs double quotes)",
    "Expecting value": " (JSON allows no comma before ']'; text needs double quotes)",
    "Expecting ',' delimiter": " (a comma is missing between two entries)",
}


class DataFile:
    """One file of a data set: its name for messages, and its parsed content."""

    def __init__(self, label: str, content: Any):
        self.label = label
        self.content = content

    def fail(self, place: str, problem: str) -> NoReturn:
        raise DataError(self.label, place, problem)


def read_file(folder: Path, set_label: str, filename: str) -> DataFile:
    """A file of the set in ``folder``, parsed; text that is not UTF-8 or not JSON fails."""
    label = f"{set_label}/{filename}"
    try:
        text = (folder / filename).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(
            label, f"byte {exc.start}", "the file is not UTF-8 text; save it as UTF-8"
        ) from None
    try:
        content = json.loads(text, object_pairs_hook=object_pairs)
    except json.JSONDecodeError as exc:
        hint = JSON_HINTS.get(exc.msg, "")
        raise DataError(
            label, f"line {exc.lineno}, column {exc.colno}", f"invalid JSON: {exc.msg}{hint}"
        ) from None
    return DataFile(label, content)
