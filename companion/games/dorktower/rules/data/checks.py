"""Small checks every file of a data set shares: kinds of values, whole numbers in a range,
known keys, choices, ids and lists of entries; each fails with the file, the place and the
problem."""

from __future__ import annotations

import difflib
import json
import re
from typing import Any

from .reading import DataFile, JsonObject

ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]*")
MISSING = object()


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
    if isinstance(value, list):
        return "a list"
    return "an object"


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


KINDS: dict[str, tuple[Any, str]] = {
    "text": (lambda value: isinstance(value, str) and value.strip() != "", "non-empty text"),
    "int": (is_int, "a whole number"),
    "bool": (lambda value: isinstance(value, bool), "true or false"),
    "list": (lambda value: isinstance(value, list), "a list"),
    "object": (lambda value: isinstance(value, dict), "an object"),
}


def expect(file: DataFile, place: str, value: Any, kind: str, what: str, null: bool = False) -> Any:
    """``value`` if it is of ``kind`` (or null, when allowed); otherwise the file fails."""
    ok, expected = KINDS[kind]
    if (null and value is None) or ok(value):
        if isinstance(value, JsonObject) and value.duplicates:
            file.fail(place, f"{what} has the key {value.duplicates[0]!r} twice")
        return value
    or_null = " or null" if null else ""
    file.fail(place, f"{what} must be {expected}{or_null}, not {show(value)}")


def as_object(file: DataFile, place: str, value: Any, what: str = "this entry") -> dict[str, Any]:
    """``value`` if it is a JSON object; otherwise the file fails."""
    return expect(file, place, value, "object", what)


def field(
    file: DataFile,
    obj: dict[str, Any],
    place: str,
    key: str,
    kind: str,
    *,
    null: bool = False,
    default: Any = MISSING,
) -> Any:
    """The value of ``key`` in ``obj``, of ``kind``; a missing key takes ``default`` if given."""
    if key not in obj:
        if default is not MISSING:
            return default
        file.fail(
            place,
            f"the key {key!r} is missing ({KINDS[kind][1]}{' or null' if null else ''} expected)",
        )
    return expect(file, place, obj[key], kind, repr(key), null)


def number(
    file: DataFile,
    obj: dict[str, Any],
    place: str,
    key: str,
    low: int | None = None,
    high: int | None = None,
    *,
    null: bool = False,
    default: Any = MISSING,
) -> Any:
    """A whole number between ``low`` and ``high`` (inclusive, either may be open)."""
    if key not in obj and default is not MISSING:
        return default
    value = field(file, obj, place, key, "int", null=null)
    if value is None:
        return value
    if low is not None and value < low:
        file.fail(place, f"{key!r} must be at least {low}, not {value}")
    if high is not None and value > high:
        file.fail(place, f"{key!r} must be at most {high}, not {value}")
    return value


def only(file: DataFile, obj: dict[str, Any], place: str, allowed: tuple[str, ...]) -> None:
    """Refuse keys the schema does not know (a typo would otherwise pass unnoticed).

    Keys starting with ``_`` are the maker's comments and are ignored.
    """
    for key in obj:
        if key not in allowed and not key.startswith("_"):
            file.fail(
                place,
                f"unknown key {key!r} (expected: {', '.join(allowed)}; "
                f"keys starting with '_' are comments)",
            )


def choice(
    file: DataFile,
    place: str,
    value: Any,
    what: str,
    choices: tuple[str, ...],
    kind: str,
    where: str,
) -> str:
    """``value`` if it is one of ``choices``; otherwise says which ones there are."""
    if not isinstance(value, str):
        file.fail(
            place,
            f"{what} must be one of {', '.join(repr(option) for option in choices)}, not {show(value)}",
        )
    if value not in choices:
        file.fail(place, unknown(kind, value, choices, where))
    return value


def unknown(kind: str, value: str, known: Any, where: str, source: str = "the data set") -> str:
    """ "unknown space type 'swamp' (the encounter chart knows: city, ...)" and the like; a long
    list is not spelled out, but a near miss is suggested."""
    known = sorted(known)
    if len(known) <= 12:
        return f"unknown {kind} {value!r} ({where}: {', '.join(known)})"
    close = [repr(match) for match in difflib.get_close_matches(value, known, n=3)]
    guess = " or ".join(filter(None, (", ".join(close[:-1]), close[-1]))) if close else ""
    hint = f"; did you mean {guess}?" if guess else ""
    return f"unknown {kind} {value!r} ({source} has {len(known)} {kind}s, none with this id{hint})"


def short_id(file: DataFile, obj: dict[str, Any], place: str, key: str = "id") -> str:
    """A short lowercase id: letters a-z, digits, '-' and '_'."""
    value = field(file, obj, place, key, "text")
    if not ID_PATTERN.fullmatch(value):
        file.fail(
            place,
            f"{key!r} must be a short lowercase id (letters a-z, digits, '-' and '_'), "
            f"not {value!r}",
        )
    return value


def entries(
    file: DataFile, root: dict[str, Any], key: str, what: str
) -> list[tuple[str, str, dict[str, Any]]]:
    """The objects of the list ``root[key]``, each with its id and its place for messages.

    Ids must be unique; the place is ``key[i] (id 'x')``.
    """
    items = field(file, root, "top level", key, "list")
    out: list[tuple[str, str, dict[str, Any]]] = []
    seen: dict[str, int] = {}
    for index, raw in enumerate(items):
        place = f"{key}[{index}]"
        entry = as_object(file, place, raw, f"each {what}")
        ident = short_id(file, entry, place)
        place = f"{key}[{index}] (id {ident!r})"
        if ident in seen:
            file.fail(place, f"the id {ident!r} is used twice (also {key}[{seen[ident]}])")
        seen[ident] = index
        out.append((ident, place, entry))
    return out


def count_is(file: DataFile, place: str, found: int, wanted: int, what: str, rule: str) -> None:
    """The file fails unless it has exactly as many of ``what`` as the game."""
    if found != wanted:
        file.fail(place, f"there are {found} {what}; the game has exactly {wanted} ({rule})")


def top_level(file: DataFile) -> dict[str, Any]:
    """The file's content, which must be a JSON object."""
    return as_object(file, "top level", file.content, "the file")
