"""Reading a Triwizard data set's files and the small checks they share: the error naming the
file, the place and the problem, the JSON of each file (a key given twice remembered), kinds of
values, whole numbers in a range, known keys and ids."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, NoReturn

#: card and tile ids: short lowercase words (``b01``, ``red-5-3``, ``o-blue-9-1``)
CARD_ID = re.compile(r"[a-z0-9][a-z0-9_-]*")
#: a cell's own id (``K0``, ``C1``, ``gate``): letters, digits, ``-`` and ``_``; never a comma,
#: so it cannot be mistaken for a cell named by its coordinates (``"3,0"``)
CELL_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
MISSING = object()


class DataError(ValueError):
    """A data set cannot be used: ``str()`` is ``"<file>: <place>: <problem>"``.

    ``file`` is the file's name after its directory's (``mymaze/board.json``); ``place`` is where
    in it (``cells[12] (x 3, y 0)``, ``battle[4] (id 'b05')``, ``line 7, column 3``); ``problem``
    says what is wrong and, where useful, what was expected.
    """

    def __init__(self, file: str, place: str, problem: str):
        super().__init__(f"{file}: {place}: {problem}")
        self.file = file
        self.place = place
        self.problem = problem


class JsonObject(dict):
    """A JSON object as parsed, remembering keys that appeared more than once."""

    duplicates: tuple[str, ...] = ()


def _object_pairs(pairs: list[tuple[str, Any]]) -> JsonObject:
    obj = JsonObject()
    repeated: list[str] = []
    for key, value in pairs:
        if key in obj and key not in repeated:
            repeated.append(key)
        obj[key] = value
    obj.duplicates = tuple(repeated)
    return obj


class DataFile:
    """One file of a data set: its name for messages and its parsed content."""

    def __init__(self, label: str, content: Any):
        self.label = label
        self.content = content

    def fail(self, place: str, problem: str) -> NoReturn:
        raise DataError(self.label, place, problem)


def read_file(folder: Path, set_label: str, filename: str) -> DataFile:
    """A file of the set in ``folder``, parsed; a missing file, text that is not UTF-8 or not
    JSON fails."""
    label = f"{set_label}/{filename}"
    path = folder / filename
    if not path.is_file():
        raise DataError(label, "file", "the file is missing")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(label, f"byte {exc.start}", "the file is not UTF-8 text") from None
    try:
        content = json.loads(text, object_pairs_hook=_object_pairs)
    except json.JSONDecodeError as exc:
        raise DataError(
            label, f"line {exc.lineno}, column {exc.colno}", f"invalid JSON: {exc.msg}"
        ) from None
    return DataFile(label, content)


def show(value: Any) -> str:
    """A value as a maker would recognise it in the file, with what kind of value it is."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"text {json.dumps(value, ensure_ascii=False)}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    return "a list" if isinstance(value, list) else "an object"


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


KINDS: dict[str, tuple[Any, str]] = {
    "text": (lambda value: isinstance(value, str) and value.strip() != "", "non-empty text"),
    "int": (is_int, "a whole number"),
    "bool": (lambda value: isinstance(value, bool), "true or false"),
    "list": (lambda value: isinstance(value, list), "a list"),
    "object": (lambda value: isinstance(value, dict), "an object"),
}


def expect(file: DataFile, place: str, value: Any, kind: str, what: str) -> Any:
    """``value`` if it is of ``kind``; otherwise the file fails (an object with a key given
    twice fails too)."""
    ok, expected = KINDS[kind]
    if not ok(value):
        file.fail(place, f"{what} must be {expected}, not {show(value)}")
    if isinstance(value, JsonObject) and value.duplicates:
        file.fail(place, f"{what} has the key {value.duplicates[0]!r} twice")
    return value


def field(
    file: DataFile, obj: dict[str, Any], place: str, key: str, kind: str, default: Any = MISSING
) -> Any:
    """The value of ``key`` in ``obj``, of ``kind``; a missing key takes ``default`` if given."""
    if key not in obj:
        if default is not MISSING:
            return default
        file.fail(place, f"the key {key!r} is missing ({KINDS[kind][1]} expected)")
    return expect(file, place, obj[key], kind, repr(key))


def number(file: DataFile, obj: dict[str, Any], place: str, key: str, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high``."""
    value = field(file, obj, place, key, "int")
    if not low <= value <= high:
        file.fail(place, f"{key!r} must be from {low} to {high}, not {value}")
    return value


def only(file: DataFile, obj: dict[str, Any], place: str, allowed: tuple[str, ...]) -> None:
    """Refuse keys the schema does not know (keys starting with ``_`` are comments)."""
    for key in obj:
        if key not in allowed and not key.startswith("_"):
            file.fail(
                place,
                f"unknown key {key!r} (expected: {', '.join(allowed)}; "
                "keys starting with '_' are comments)",
            )


def one_of(file: DataFile, place: str, value: Any, what: str, choices: tuple[str, ...]) -> str:
    """``value`` if it is one of ``choices``; otherwise says which ones there are."""
    if not isinstance(value, str) or value not in choices:
        names = ", ".join(repr(choice) for choice in choices)
        file.fail(place, f"{what} must be one of {names}, not {show(value)}")
    return value


def top_level(file: DataFile) -> dict[str, Any]:
    """The file's content, which must be a JSON object."""
    return expect(file, "top level", file.content, "object", "the file")
