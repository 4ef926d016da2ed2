"""Dork Tower data sets: the tables, the map and the cards the rulebook prints elsewhere.

Specification: ``shared/rules/dork-tower.md``, sections 6 and 8. The rules text refers to a map, a
tower, a Combat Table, an Encounter chart, a Quest Location table, encounter tokens, 36 item
cards, 20 scrolls, the character sheets and an XP reference sheet, none of which it gives. A data
set is one directory of JSON files describing them (``docs/dork-tower-data.md`` has the schema):

``dataset.json``  the manifest: name, title, whether it is an invented example, a note
``encounter_chart.json``  tokens drawn per space type by day and night (DT-AMB-4)
``map.json``      wedges, spaces, edges with their borders, quest start spaces (DT-AMB-5)
``tower.json``    the wedges clockwise, the 8 walls, the door (DT-AMB-1)
``combat_table.json``  difference bands and their 2-dice targets (DT-AMB-2)
``quest_table.json``   the Quest Location table (DT-AMB-6)
``tokens.json``   encounter tokens, with the ``friendly`` flag (DT-AMB-26)
``items.json``    the 36 two-faced item cards (DT-COMP-1)
``scrolls.json``  the 20 scrolls, with their timing windows (DT-AMB-27)
``characters.json``  both levels of every character sheet (DT-AMB-28)
``xp_costs.json``  the XP reference sheet (DT-AMB-3)

``load_dataset`` reads and validates a directory and returns one normalised dict of plain JSON
types, which is what the rules core uses. The first mistake found raises :class:`DataError`,
which names the file, the place in it and the problem. The bundled set (``example_dataset``) is
an invented example for trying the companion, not the printed game.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from functools import cache
from pathlib import Path
from typing import Any, NoReturn

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

#: DT-AMB-4: the Encounter chart's defaults, from section 3.1 of the specification
DEFAULT_SPACE_TYPES: dict[str, dict[str, Any]] = {
    "city": {"day": 0, "night": 0, "city": True},  # DT-SPACE-4
    "field": {"day": 1, "night": 2},  # DT-SPACE-5
    "forest": {"day": 2, "night": 3},  # DT-SPACE-6
    "shadowland": {"day": 2, "night": 2, "always_night": True},  # DT-SPACE-7
    "dungeon": {"day": 3, "night": 4, "no_flee": True, "extra_magic_item": True},  # DT-SPACE-8
}
SPACE_FLAGS = ("always_night", "city", "no_flee", "extra_magic_item")
DEFAULT_TOWER_DRAW = 5  # DT-WIZ-1
#: DT-AMB-3: the reference sheet's XP costs known from the text (section 3.3)
DEFAULT_XP = {
    "extra_step": 1,
    "cross_border": 2,
    "die_to_six": 4,
    "extra_shop_card": 1,
    "level_up": 10,
}
REPEATABLE = ("extra_step", "cross_border", "die_to_six", "extra_shop_card")

WEDGES = 8  # DT-COMP-6
KINGDOMS = 6
WILD_AREAS = 2
WALLS = 8  # DT-COMP-7
ITEM_CARDS = 36  # DT-COMP-1
SCROLL_CARDS = 20  # DT-COMP-2
SLOTS = 4  # DT-CHAR-2
DOOR_BETWEEN = ("Ravensteel", "Thunderhawk")  # DT-SETUP-1
BORDERS = ("none", "lake", "mountain")  # DT-BORDER-1
CROSSABLE = ("lake", "mountain")
WINDOWS = ("own_pre_roll", "opponent_pre_roll", "post_roll", "movement", "any")  # DT-AMB-27
ABILITIES = ("cross_lake", "cross_mountain", "avoid_monsters")
TREASURE_WORDS = ("scroll", "equipment", "magic", "nothing")  # DT-REWARD-2
EFFECTS = ("draw_tokens", "draw_scroll", "draw_item", "gold", "xp")  # non-monster tokens
SCROLL_EFFECTS = ("fighter", "monsters", "remove_monster", "reroll", "set_die", "cross")

_ID = re.compile(r"[a-z0-9][a-z0-9_-]*")
_MISSING = object()


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


# ----------------------------------------------------------------------------------------------
# Reading files


class _JsonObject(dict):
    """A JSON object as parsed, remembering keys that appeared more than once."""

    duplicates: tuple[str, ...] = ()


def _object_pairs(pairs: list[tuple[str, Any]]) -> _JsonObject:
    obj = _JsonObject()
    repeated = []
    for key, value in pairs:
        if key in obj and key not in repeated:
            repeated.append(key)
        obj[key] = value
    obj.duplicates = tuple(repeated)
    return obj


_JSON_HINTS = {
    "Expecting property name enclosed in double quotes": " (JSON allows no comma before '}', and every key needs double quotes)",
    "Expecting value": " (JSON allows no comma before ']'; text needs double quotes)",
    "Expecting ',' delimiter": " (a comma is missing between two entries)",
}


class _File:
    """One file of a data set: its name for messages, and its parsed content."""

    def __init__(self, label: str, content: Any):
        self.label = label
        self.content = content

    def fail(self, place: str, problem: str) -> NoReturn:
        raise DataError(self.label, place, problem)


def _read(folder: Path, set_label: str, filename: str) -> _File:
    label = f"{set_label}/{filename}"
    try:
        text = (folder / filename).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(
            label, f"byte {exc.start}", "the file is not UTF-8 text; save it as UTF-8"
        ) from None
    try:
        content = json.loads(text, object_pairs_hook=_object_pairs)
    except json.JSONDecodeError as exc:
        hint = _JSON_HINTS.get(exc.msg, "")
        raise DataError(
            label, f"line {exc.lineno}, column {exc.colno}", f"invalid JSON: {exc.msg}{hint}"
        ) from None
    return _File(label, content)


# ----------------------------------------------------------------------------------------------
# Small checks shared by every file


def _show(value: Any) -> str:
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


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_KINDS: dict[str, tuple[Any, str]] = {
    "text": (lambda v: isinstance(v, str) and v.strip() != "", "non-empty text"),
    "int": (_is_int, "a whole number"),
    "bool": (lambda v: isinstance(v, bool), "true or false"),
    "list": (lambda v: isinstance(v, list), "a list"),
    "object": (lambda v: isinstance(v, dict), "an object"),
}


def _expect(f: _File, place: str, value: Any, kind: str, what: str, null: bool = False) -> Any:
    """``value`` if it is of ``kind`` (or null, when allowed); otherwise the file fails."""
    ok, expected = _KINDS[kind]
    if (null and value is None) or ok(value):
        if isinstance(value, _JsonObject) and value.duplicates:
            f.fail(place, f"{what} has the key {value.duplicates[0]!r} twice")
        return value
    or_null = " or null" if null else ""
    f.fail(place, f"{what} must be {expected}{or_null}, not {_show(value)}")


def _obj(f: _File, place: str, value: Any, what: str = "this entry") -> dict[str, Any]:
    return _expect(f, place, value, "object", what)


def _field(
    f: _File,
    obj: dict[str, Any],
    place: str,
    key: str,
    kind: str,
    *,
    null: bool = False,
    default: Any = _MISSING,
) -> Any:
    """The value of ``key`` in ``obj``, of ``kind``; a missing key takes ``default`` if given."""
    if key not in obj:
        if default is not _MISSING:
            return default
        f.fail(
            place,
            f"the key {key!r} is missing ({_KINDS[kind][1]}{' or null' if null else ''} expected)",
        )
    return _expect(f, place, obj[key], kind, repr(key), null)


def _number(
    f: _File,
    obj: dict[str, Any],
    place: str,
    key: str,
    low: int | None = None,
    high: int | None = None,
    *,
    null: bool = False,
    default: Any = _MISSING,
) -> Any:
    """A whole number between ``low`` and ``high`` (inclusive, either may be open)."""
    if key not in obj and default is not _MISSING:
        return default
    value = _field(f, obj, place, key, "int", null=null)
    if value is None:
        return value
    if low is not None and value < low:
        f.fail(place, f"{key!r} must be at least {low}, not {value}")
    if high is not None and value > high:
        f.fail(place, f"{key!r} must be at most {high}, not {value}")
    return value


def _only(f: _File, obj: dict[str, Any], place: str, allowed: tuple[str, ...]) -> None:
    """Refuse keys the schema does not know (a typo would otherwise pass unnoticed).

    Keys starting with ``_`` are the maker's comments and are ignored.
    """
    for key in obj:
        if key not in allowed and not key.startswith("_"):
            f.fail(
                place,
                f"unknown key {key!r} (expected: {', '.join(allowed)}; "
                f"keys starting with '_' are comments)",
            )


def _choice(
    f: _File, place: str, value: Any, what: str, choices: tuple[str, ...], kind: str, where: str
) -> str:
    """``value`` if it is one of ``choices``; otherwise says which ones there are."""
    if not isinstance(value, str):
        f.fail(
            place,
            f"{what} must be one of {', '.join(repr(c) for c in choices)}, not {_show(value)}",
        )
    if value not in choices:
        f.fail(place, _unknown(kind, value, choices, where))
    return value


def _unknown(kind: str, value: str, known: Any, where: str, source: str = "the data set") -> str:
    """ "unknown space type 'swamp' (the encounter chart knows: city, ...)" and the like; a long
    list is not spelled out, but a near miss is suggested."""
    known = sorted(known)
    if len(known) <= 12:
        return f"unknown {kind} {value!r} ({where}: {', '.join(known)})"
    close = [repr(c) for c in difflib.get_close_matches(value, known, n=3)]
    guess = " or ".join(filter(None, (", ".join(close[:-1]), close[-1]))) if close else ""
    hint = f"; did you mean {guess}?" if guess else ""
    return f"unknown {kind} {value!r} ({source} has {len(known)} {kind}s, none with this id{hint})"


def _ident(f: _File, obj: dict[str, Any], place: str, key: str = "id") -> str:
    """A short lowercase id: letters a-z, digits, '-' and '_'."""
    value = _field(f, obj, place, key, "text")
    if not _ID.fullmatch(value):
        f.fail(
            place,
            f"{key!r} must be a short lowercase id (letters a-z, digits, '-' and '_'), "
            f"not {value!r}",
        )
    return value


def _entries(
    f: _File, root: dict[str, Any], key: str, what: str
) -> list[tuple[str, str, dict[str, Any]]]:
    """The objects of the list ``root[key]``, each with its id and its place for messages.

    Ids must be unique; the place is ``key[i] (id 'x')``.
    """
    items = _field(f, root, "top level", key, "list")
    out: list[tuple[str, str, dict[str, Any]]] = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(items):
        place = f"{key}[{i}]"
        entry = _obj(f, place, raw, f"each {what}")
        ident = _ident(f, entry, place)
        place = f"{key}[{i}] (id {ident!r})"
        if ident in seen:
            f.fail(place, f"the id {ident!r} is used twice (also {key}[{seen[ident]}])")
        seen[ident] = i
        out.append((ident, place, entry))
    return out


def _count_is(f: _File, place: str, found: int, wanted: int, what: str, rule: str) -> None:
    if found != wanted:
        f.fail(place, f"there are {found} {what}; the game has exactly {wanted} ({rule})")


def _root(f: _File) -> dict[str, Any]:
    return _obj(f, "top level", f.content, "the file")


def _name(wedge: dict[str, Any]) -> str:
    return f"{wedge['id']!r} ({wedge['name']})"


# ----------------------------------------------------------------------------------------------
# The files, one function each


def _manifest(f: _File) -> dict[str, Any]:
    root = _root(f)
    _only(f, root, "top level", ("name", "title", "example", "note"))
    return {
        "name": _ident(f, root, "top level", "name"),
        "title": _field(f, root, "top level", "title", "text"),
        "example": _field(f, root, "top level", "example", "bool", default=False),
        "note": _field(f, root, "top level", "note", "text", default=""),
    }


def _encounter_chart(f: _File) -> tuple[dict[str, dict[str, Any]], int]:
    """DT-ENC-3, DT-AMB-4: tokens drawn per space type and time of day; Z'Mindrik's draw."""
    root = _root(f)
    _only(f, root, "top level", ("space_types", "tower_draw"))
    raw = _field(f, root, "top level", "space_types", "object", default=DEFAULT_SPACE_TYPES)
    types: dict[str, dict[str, Any]] = {}
    for type_id, spec in raw.items():
        place = f"space_types[{json.dumps(type_id)}]"
        if not _ID.fullmatch(type_id):
            f.fail(
                place,
                f"a space type must be a short lowercase id (letters a-z, digits, '-' "
                f"and '_'), not {type_id!r}",
            )
        _obj(f, place, spec)
        _only(f, spec, place, ("day", "night", *SPACE_FLAGS))
        flags = {flag: _field(f, spec, place, flag, "bool", default=False) for flag in SPACE_FLAGS}
        night = _number(f, spec, place, "night", 0)
        # an always-night space draws its night number whatever the tower shows (DT-SPACE-7)
        day = _number(
            f, spec, place, "day", 0, default=night if flags["always_night"] else _MISSING
        )
        types[type_id] = {"day": day, "night": night, **flags}
    if not types:
        f.fail("space_types", "no space types are given")
    for flag, rule in (("city", "DT-SPACE-4"), ("always_night", "DT-SPACE-7")):
        if not any(kind[flag] for kind in types.values()):
            f.fail("space_types", f'no space type has "{flag}": true; the map needs one ({rule})')
    tower_draw = _number(f, root, "top level", "tower_draw", 1, default=DEFAULT_TOWER_DRAW)
    return types, tower_draw


def _map(f: _File, space_types: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """DT-AMB-5: the wedges, spaces, edges, shadowlands and quest start spaces."""
    root = _root(f)
    _only(f, root, "top level", ("wedges", "spaces", "edges", "quest_starts"))

    wedges: dict[str, dict[str, Any]] = {}
    names: dict[str, str] = {}
    for ident, place, w in _entries(f, root, "wedges", "wedge"):
        _only(f, w, place, ("id", "name", "kind"))
        name = _field(f, w, place, "name", "text")
        if name.casefold() in names:
            f.fail(
                place, f"the name {name!r} is used twice (also wedge {names[name.casefold()]!r})"
            )
        names[name.casefold()] = ident
        kind = _choice(
            f,
            place,
            _field(f, w, place, "kind", "text"),
            "'kind'",
            ("kingdom", "wild"),
            "wedge kind",
            "wedge kinds are",
        )
        wedges[ident] = {"id": ident, "name": name, "kind": kind}
    kinds = [w["kind"] for w in wedges.values()]
    if (len(wedges), kinds.count("kingdom")) != (WEDGES, KINGDOMS):
        f.fail(
            "wedges",
            f"there are {len(wedges)} wedges ({kinds.count('kingdom')} kingdoms, "
            f"{kinds.count('wild')} wild areas); the board has {WEDGES}: "
            f"{KINGDOMS} kingdoms and {WILD_AREAS} wild areas (DT-COMP-6)",
        )

    spaces: dict[str, dict[str, Any]] = {}
    places: dict[str, str] = {}
    runes: dict[str, str] = {}
    for ident, place, sp in _entries(f, root, "spaces", "space"):
        _only(f, sp, place, ("id", "name", "type", "wedge", "rune"))
        name = _field(f, sp, place, "name", "text")
        kind = _field(f, sp, place, "type", "text")
        if kind not in space_types:
            f.fail(place, _unknown("space type", kind, space_types, "the encounter chart knows"))
        wedge = _field(f, sp, place, "wedge", "text")
        if wedge not in wedges:
            f.fail(place, _unknown("wedge", wedge, wedges, "map.json's wedges are"))
        rune = _field(f, sp, place, "rune", "text", null=True, default=None)
        if rune is not None:
            if rune in runes:  # DT-SPACE-3
                f.fail(
                    place,
                    f"the rune {rune!r} is already on {runes[rune]!r} "
                    f"({places[runes[rune]]}); each rune marks exactly one space",
                )
            runes[rune] = ident
        spaces[ident] = {"id": ident, "name": name, "type": kind, "wedge": wedge, "rune": rune}
        places[ident] = place
    if not spaces:
        f.fail("spaces", "the map has no spaces")

    shadowlands = _shadowlands(f, wedges, spaces, places, space_types)
    for w in wedges.values():  # DT-SETUP-8: each player starts in a city of his kingdom
        if w["kind"] == "kingdom" and not any(
            sp["wedge"] == w["id"] and space_types[sp["type"]]["city"] for sp in spaces.values()
        ):
            f.fail(
                "spaces",
                f"kingdom {_name(w)} has no city; every kingdom needs one, players "
                f"start in a city of their own kingdom (DT-SETUP-8)",
            )

    adjacent = _edges(f, root, spaces)
    return {
        "wedges": wedges,
        "spaces": spaces,
        "adjacent": adjacent,
        "shadowlands": shadowlands,
        "quest_starts": _quest_starts(f, root, wedges, spaces),
        "runes": runes,
    }


def _shadowlands(
    f: _File,
    wedges: dict[str, dict[str, Any]],
    spaces: dict[str, dict[str, Any]],
    places: dict[str, str],
    space_types: dict[str, dict[str, Any]],
) -> dict[str, str]:
    """DT-SPACE-7: exactly one always-night space in each wedge, 8 around the tower."""
    dark = sorted(t for t, spec in space_types.items() if spec["always_night"])
    found: dict[str, str] = {}
    for ident, sp in spaces.items():
        if sp["type"] in dark:
            if sp["wedge"] in found:
                f.fail(
                    places[ident],
                    f"wedge {_name(wedges[sp['wedge']])} already has the "
                    f"shadowland {found[sp['wedge']]!r}; each wedge has exactly "
                    f"one (DT-SPACE-7)",
                )
            found[sp["wedge"]] = ident
    for w in wedges.values():
        if w["id"] not in found:
            f.fail(
                "spaces",
                f"wedge {_name(w)} has no shadowland; each of the {WEDGES} wedges "
                f"needs exactly one space of the always-night type "
                f"{' or '.join(repr(t) for t in dark)} next to the tower (DT-SPACE-7)",
            )
    return {w: found[w] for w in wedges}


def _edges(
    f: _File, root: dict[str, Any], spaces: dict[str, dict[str, Any]]
) -> dict[str, dict[str, str]]:
    """Edges ``[a, b]`` or ``[a, b, border]``; adjacency is symmetric by construction."""
    adjacent: dict[str, dict[str, str]] = {ident: {} for ident in spaces}
    listed: dict[frozenset[str], int] = {}
    for i, edge in enumerate(_field(f, root, "top level", "edges", "list")):
        place = f"edges[{i}]"
        if (
            not isinstance(edge, list)
            or len(edge) not in (2, 3)
            or not all(isinstance(part, str) for part in edge)
        ):
            f.fail(
                place,
                f"an edge is a list of two space ids and an optional border "
                f'(["a", "b"] or ["a", "b", "lake"]), not '
                f"{json.dumps(edge, ensure_ascii=False)}",
            )
        a, b = edge[0], edge[1]
        border = edge[2] if len(edge) == 3 else "none"
        for end in (a, b):
            if end not in spaces:
                f.fail(place, _unknown("space", end, spaces, "map.json's spaces are", "map.json"))
        if a == b:
            f.fail(place, f"the edge joins {a!r} to itself")
        if border not in BORDERS:
            f.fail(place, _unknown("border", border, BORDERS, "borders are"))
        pair = frozenset((a, b))
        if pair in listed:
            f.fail(
                place,
                f"the edge between {a!r} and {b!r} is listed twice (also edges[{listed[pair]}])",
            )
        listed[pair] = i
        adjacent[a][b] = border
        adjacent[b][a] = border
    # the board is in one piece: every space can be reached from the first
    start = next(iter(spaces))
    reached, frontier = {start}, [start]
    while frontier:
        for other in adjacent[frontier.pop()]:
            if other not in reached:
                reached.add(other)
                frontier.append(other)
    for ident in spaces:
        if ident not in reached:
            f.fail(
                "edges",
                f"the space {ident!r} cannot be reached from {start!r}: no chain of "
                f"edges joins them (the map must be in one piece)",
            )
    return adjacent


def _quest_starts(
    f: _File,
    root: dict[str, Any],
    wedges: dict[str, dict[str, Any]],
    spaces: dict[str, dict[str, Any]],
) -> list[str]:
    """DT-SETUP-9: one quest token starts in each wild area."""
    starts = _field(f, root, "top level", "quest_starts", "list")
    if len(starts) != WILD_AREAS:
        f.fail(
            "quest_starts",
            f"there are {len(starts)} quest start spaces; there must be "
            f"{WILD_AREAS}, one in each wild area (DT-SETUP-9)",
        )
    used: dict[str, int] = {}
    for i, ident in enumerate(starts):
        place = f"quest_starts[{i}]"
        _expect(f, place, ident, "text", "a quest start")
        if ident not in spaces:
            f.fail(place, _unknown("space", ident, spaces, "map.json's spaces are", "map.json"))
        wedge = wedges[spaces[ident]["wedge"]]
        if wedge["kind"] != "wild":
            f.fail(
                place,
                f"{ident!r} is in the kingdom {_name(wedge)}; quest tokens start in "
                f"the wild areas (DT-SETUP-9)",
            )
        if wedge["id"] in used:
            f.fail(
                place,
                f"{ident!r} is in the same wild area {_name(wedge)} as "
                f"quest_starts[{used[wedge['id']]}]; one quest starts in each wild "
                f"area (DT-SETUP-9)",
            )
        used[wedge["id"]] = i
    return list(starts)


def _tower(
    f: _File, wedges: dict[str, dict[str, Any]]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """DT-COMP-7, DT-SETUP-1, DT-AMB-1: the wedges clockwise, the walls clockwise, the door."""
    root = _root(f)
    _only(f, root, "top level", ("wedges", "walls", "door_wall", "door_faces"))
    order = _field(f, root, "top level", "wedges", "list")
    seen: dict[str, int] = {}
    for i, ident in enumerate(order):
        place = f"wedges[{i}]"
        _expect(f, place, ident, "text", "each wedge")
        if ident not in wedges:
            f.fail(place, _unknown("wedge", ident, wedges, "map.json's wedges are"))
        if ident in seen:
            f.fail(place, f"the wedge {ident!r} is listed twice (also wedges[{seen[ident]}])")
        seen[ident] = i
    for ident in wedges:
        if ident not in seen:
            f.fail(
                "wedges",
                f"wedge {ident!r} of map.json is missing from the tower's wedges "
                f"(tower.json lists {len(order)} of {len(wedges)})",
            )
    clockwise = [dict(wedges[ident]) for ident in order]

    walls = _field(f, root, "top level", "walls", "list")
    if len(walls) != WALLS:
        f.fail("walls", f"there are {len(walls)} walls; the tower has {WALLS} (DT-COMP-7)")
    for i, wall in enumerate(walls):
        _choice(f, f"walls[{i}]", wall, "each wall", ("sun", "moon"), "wall", "walls are")
    if walls.count("sun") != WALLS // 2:
        f.fail(
            "walls",
            f"there are {walls.count('sun')} sun walls and {walls.count('moon')} "
            f"moon walls; the tower has 4 of each (DT-COMP-7)",
        )
    door = _number(f, root, "top level", "door_wall", 0, WALLS - 1)
    if walls[door] != "moon":
        moons = ", ".join(str(i) for i, w in enumerate(walls) if w == "moon")
        f.fail(
            "door_wall",
            f"the door is on wall {door}, a sun wall; the door is on the night "
            f"side (DT-COMP-7, DT-TOWER-1): choose one of the moon walls {moons}",
        )

    between = _between(f, clockwise)
    faces = _field(f, root, "top level", "door_faces", "text")
    if faces not in wedges:
        f.fail("door_faces", _unknown("wedge", faces, wedges, "map.json's wedges are"))
    if faces != clockwise[between]["id"]:
        f.fail(
            "door_faces",
            f"at setup the door faces the wild area between "
            f"{DOOR_BETWEEN[0]} and {DOOR_BETWEEN[1]}, "
            f"{_name(clockwise[between])} (DT-SETUP-1), not {faces!r}",
        )
    return clockwise, {"walls": list(walls), "door_wall": door, "door_wedge": between}


def _between(f: _File, clockwise: list[dict[str, Any]]) -> int:
    """The index of the wild area whose neighbours are Ravensteel and Thunderhawk (DT-SETUP-1)."""
    by_name = {w["name"].casefold(): w for w in clockwise}
    for name in DOOR_BETWEEN:
        w = by_name.get(name.casefold())
        if w is None or w["kind"] != "kingdom":
            f.fail(
                "wedges",
                f"no kingdom of map.json is named {name}; the door is set up "
                f"facing the wild area between {DOOR_BETWEEN[0]} and "
                f"{DOOR_BETWEEN[1]} (DT-SETUP-1)",
            )
    wanted = {name.casefold() for name in DOOR_BETWEEN}
    n = len(clockwise)
    for i, w in enumerate(clockwise):
        sides = {clockwise[i - 1]["name"].casefold(), clockwise[(i + 1) % n]["name"].casefold()}
        if w["kind"] == "wild" and sides == wanted:
            return i
    f.fail(
        "wedges",
        f"no wild area lies between {DOOR_BETWEEN[0]} and {DOOR_BETWEEN[1]} in "
        f"this clockwise order; the door faces it at setup (DT-SETUP-1)",
    )


def _combat_table(f: _File) -> list[dict[str, Any]]:
    """DT-COMBAT-5, DT-AMB-2: bands of (player total - monster total) and their targets."""
    root = _root(f)
    _only(f, root, "top level", ("rows",))
    rows = _field(f, root, "top level", "rows", "list")
    if not rows:
        f.fail("rows", "the table has no rows")
    out: list[dict[str, Any]] = []
    for i, raw in enumerate(rows):
        place = f"rows[{i}]"
        row = _obj(f, place, raw, "each row")
        _only(f, row, place, ("min", "max", "target"))
        low = _number(f, row, place, "min", null=True)
        high = _number(f, row, place, "max", null=True)
        target = _number(f, row, place, "target", 2, 12)
        if low is None and i > 0:
            f.fail(
                place,
                'only the first row may have "min": null (no lower end); this row '
                "needs a whole number",
            )
        if high is None and i < len(rows) - 1:
            f.fail(
                place,
                'only the last row may have "max": null (no upper end); this row '
                "needs a whole number",
            )
        if low is not None and high is not None and low > high:
            f.fail(place, f"'min' {low} is above 'max' {high}")
        if out and out[-1]["min"] is not None and low < out[-1]["min"]:
            f.fail(
                "rows",
                f"the rows must go up by difference: rows[{i}] starts at {low}, "
                f"below rows[{i - 1}], which starts at {out[-1]['min']}",
            )
        out.append({"min": low, "max": high, "target": target})
    for i in range(1, len(out)):
        _follows(f, i, out[i - 1], out[i]["min"], out[i]["max"])
    if not any(_covers(row, 0) for row in out):
        f.fail("rows", "no row covers difference 0 (equal totals use row 0, DT-COMBAT-5)")
    return out


def _follows(f: _File, i: int, before: dict[str, Any], low: int, high: int | None) -> None:
    """Row ``i`` starts exactly one after the row before it ends: no gap, no overlap."""
    end = before["max"]
    if low == end + 1:
        return
    if low > end + 1:
        span = f"difference {end + 1}" if low == end + 2 else f"differences {end + 1} to {low - 1}"
        f.fail("rows", f"no row covers {span} (between rows[{i - 1}] and rows[{i}])")
    last = end if high is None else min(end, high)
    span = f"difference {low}" if low == last else f"differences {low} to {last}"
    f.fail("rows", f"rows[{i - 1}] and rows[{i}] overlap: both cover {span}")


def _covers(row: dict[str, Any], difference: int) -> bool:
    return (row["min"] is None or row["min"] <= difference) and (
        row["max"] is None or difference <= row["max"]
    )


def _quest_table(
    f: _File, spaces: dict[str, dict[str, Any]], runes: dict[str, str]
) -> dict[str, Any]:
    """DT-QUEST-6, DT-SPACE-3, DT-AMB-6: dice totals -> a rune or a space."""
    root = _root(f)
    _only(f, root, "top level", ("dice", "results"))
    dice = _number(f, root, "top level", "dice", 1, 6)
    results = _field(f, root, "top level", "results", "object")
    low, high = dice, 6 * dice
    span = f"{dice} {'die rolls' if dice == 1 else 'dice roll'} every total from {low} to {high}"
    for key in results:
        if not key.isdigit() or str(int(key)) != key:
            f.fail(
                "results", f'the key {key!r} is not a dice total (write totals as text, e.g. "7")'
            )
        if not low <= int(key) <= high:
            f.fail("results", f"the total {key} cannot be rolled ({span})")
    missing = [str(t) for t in range(low, high + 1) if str(t) not in results]
    if missing:
        totals = "total" if len(missing) == 1 else "totals"
        f.fail("results", f"no result for {totals} {', '.join(missing)} ({span})")
    out: dict[str, str] = {}
    for total in range(low, high + 1):
        place = f'results["{total}"]'
        entry = _obj(f, place, results[str(total)], "each result")
        if len(entry) != 1 or next(iter(entry)) not in ("rune", "space"):
            f.fail(
                place,
                'a result is {"rune": "..."} or {"space": "..."}, not '
                f"{json.dumps(entry, ensure_ascii=False)}",
            )
        if "rune" in entry:
            rune = _field(f, entry, place, "rune", "text")
            if rune not in runes:
                f.fail(place, _unknown("rune", rune, runes, "the runes on the map are", "the map"))
            out[str(total)] = runes[rune]
        else:
            space = _field(f, entry, place, "space", "text")
            if space not in spaces:
                f.fail(place, _unknown("space", space, spaces, "map.json's spaces are", "map.json"))
            out[str(total)] = space
    return {"dice": dice, "results": out}


def _tokens(f: _File, tower_draw: int) -> dict[str, dict[str, Any]]:
    """DT-COMP-3, DT-TOK-2, DT-AMB-26: encounter tokens and how many of each are in the bowl."""
    root = _root(f)
    _only(f, root, "top level", ("tokens",))
    tokens: dict[str, dict[str, Any]] = {}
    for ident, place, t in _entries(f, root, "tokens", "token"):
        name = _field(f, t, place, "name", "text")
        kind = _ident(f, t, place, "kind")
        count = _number(f, t, place, "count", 1)
        if kind == "monster":
            _only(
                f,
                t,
                place,
                ("id", "name", "kind", "count", "strength", "types", "xp", "treasure", "friendly"),
            )
            if _field(f, t, place, "friendly", "bool", default=False):
                f.fail(
                    place,
                    "a monster cannot be friendly (the flag marks the non-monster "
                    "results Z'Mindrik draws again, DT-WIZ-2)",
                )
            types = _field(f, t, place, "types", "list", default=[])
            for j, ty in enumerate(types):
                _expect(f, f"{place}.types[{j}]", ty, "text", "each type")
            treasure = _field(f, t, place, "treasure", "object", null=True, default=None)
            token = {
                "strength": _number(f, t, place, "strength", 0),
                "types": list(types),
                "xp": _number(f, t, place, "xp", 0),
                "treasure": None
                if treasure is None
                else _treasure(f, f"{place}.treasure", treasure),
                "friendly": False,
                "effect": {},
            }
        else:
            _only(f, t, place, ("id", "name", "kind", "count", "friendly", "effect"))
            friendly = _field(f, t, place, "friendly", "bool", default=kind == "friendly")
            if kind == "friendly" and not friendly:
                f.fail(place, "a token of kind 'friendly' must have \"friendly\": true")
            effect = _field(f, t, place, "effect", "object", default={})
            token = {
                "strength": 0,
                "types": [],
                "xp": 0,
                "treasure": None,
                "friendly": friendly,
                "effect": _token_effect(f, f"{place}.effect", effect),
            }
        tokens[ident] = {
            "id": ident,
            "name": name,
            "kind": kind,
            "monster": kind == "monster",
            **token,
            "count": count,
        }
    if not any(token["monster"] for token in tokens.values()):
        f.fail("tokens", "there is no token of kind 'monster'")
    summonable = sum(token["count"] for token in tokens.values() if not token["friendly"])
    if summonable < tower_draw:
        f.fail(
            "tokens",
            f"Z'Mindrik summons {tower_draw} tokens that are not friendly "
            f"(DT-WIZ-1, DT-WIZ-2), but there are only {summonable}",
        )
    return tokens


def _treasure(f: _File, place: str, table: dict[str, Any]) -> dict[str, dict[str, int]]:
    """DT-REWARD-2: one result for every face of a die."""
    faces = [str(n) for n in range(1, 7)]
    for key in table:
        if key not in faces:
            f.fail(
                place, f'{key!r} is not a face of a die (a treasure table has the faces "1" to "6")'
            )
    missing = [face for face in faces if face not in table]
    if missing:
        word = "face" if len(missing) == 1 else "faces"
        f.fail(
            place,
            f"no result for die {word} {', '.join(missing)} (a treasure table "
            f"covers every face from 1 to 6, DT-REWARD-2)",
        )
    return {face: _treasure_result(f, f'{place}["{face}"]', table[face]) for face in faces}


def _treasure_result(f: _File, place: str, result: Any) -> dict[str, int]:
    expected = 'a treasure result is "scroll", "equipment", "magic", "nothing" or {"gold": amount}'
    if isinstance(result, str):
        if result not in TREASURE_WORDS:
            f.fail(place, f"{expected}, not {_show(result)}")
        return {result: 1}
    if not isinstance(result, dict) or len(result) != 1:
        f.fail(place, f"{expected}, not {_show(result)}")
    ((word, value),) = result.items()
    if word == "gold":
        return {"gold": _number(f, result, place, "gold", 1)}
    if word not in TREASURE_WORDS or value != 1:
        f.fail(
            place, f'{expected} (or {{"{word}": 1}}), not {json.dumps(result, ensure_ascii=False)}'
        )
    return {word: 1}


def _token_effect(f: _File, place: str, effect: dict[str, Any]) -> dict[str, Any]:
    """DT-ENC-4: what a non-monster token does when it is resolved."""
    _only(f, effect, place, EFFECTS)
    out: dict[str, Any] = {}
    for key in EFFECTS:
        if key == "draw_item" and key in effect:
            out[key] = _choice(
                f,
                place,
                effect[key],
                "'draw_item'",
                ("equipment", "magic"),
                "item face",
                "faces are",
            )
        elif key in effect:
            out[key] = _number(f, effect, place, key, 1)
    return out


def _items(f: _File) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """DT-COMP-1, DT-CHAR-2: the 36 item cards, each with an equipment and a magic face."""
    root = _root(f)
    _only(f, root, "top level", ("types", "cards"))
    types = _field(f, root, "top level", "types", "list")
    if not types:
        f.fail("types", "no item types are declared (weapon, armour, ring, ...)")
    for i, ty in enumerate(types):
        place = f"types[{i}]"
        _expect(f, place, ty, "text", "each type")
        if not _ID.fullmatch(ty):
            f.fail(place, f"an item type must be a short lowercase id, not {ty!r}")
        if ty in types[:i]:
            f.fail(place, f"the type {ty!r} is declared twice (also types[{types.index(ty)}])")
    cards: dict[str, dict[str, Any]] = {}
    for ident, place, card in _entries(f, root, "cards", "card"):
        _only(f, card, place, ("id", "equipment", "magic"))
        faces = {
            side: _face(f, f"{place}.{side}", _field(f, card, place, side, "object"), types)
            for side in ("equipment", "magic")
        }
        cards[ident] = {"id": ident, **faces}
    _count_is(f, "cards", len(cards), ITEM_CARDS, "item cards", "DT-COMP-1")
    return cards, list(types)


def _face(f: _File, place: str, face: dict[str, Any], types: list[str]) -> dict[str, Any]:
    _only(f, face, place, ("name", "type", "bonus", "vs", "price", "crosses"))
    name = _field(f, face, place, "name", "text")
    kind = _field(f, face, place, "type", "text")
    if kind not in types:
        f.fail(place, _unknown("item type", kind, types, "items.json declares"))
    vs = _field(f, face, place, "vs", "object", default={})
    for enemy in vs:  # DT-COMBAT-1: a bonus against a type of enemy; any type name
        _expect(f, f"{place}.vs[{json.dumps(enemy)}]", vs[enemy], "int", "a bonus")
    return {
        "name": name,
        "type": kind,
        "bonus": _number(f, face, place, "bonus"),
        "vs": dict(vs),
        "price": _number(f, face, place, "price", 0),
        "crosses": _borders(f, place, face, "crosses", allow_empty=True),
    }


def _borders(f: _File, place: str, obj: dict[str, Any], key: str, allow_empty: bool) -> list[str]:
    """A list of crossable borders: "lake", "mountain", each at most once."""
    borders = _field(f, obj, place, key, "list", default=[])
    if not borders and not allow_empty:
        f.fail(place, f'{key!r} must name at least one border ("lake", "mountain")')
    for j, border in enumerate(borders):
        _choice(
            f,
            f"{place}.{key}[{j}]",
            border,
            "each border",
            CROSSABLE,
            "border",
            "crossable borders are",
        )
        if border in borders[:j]:
            f.fail(f"{place}.{key}[{j}]", f"{border!r} is listed twice")
    return list(borders)


def _scrolls(f: _File) -> dict[str, dict[str, Any]]:
    """DT-COMP-2, DT-AMB-27: the 20 scrolls, their timing windows and effects."""
    root = _root(f)
    _only(f, root, "top level", ("scrolls",))
    scrolls: dict[str, dict[str, Any]] = {}
    for ident, place, card in _entries(f, root, "scrolls", "scroll"):
        _only(f, card, place, ("id", "name", "text", "window", "effect"))
        name = _field(f, card, place, "name", "text")
        text = _field(f, card, place, "text", "text")
        window = _choice(
            f,
            place,
            _field(f, card, place, "window", "text"),
            "'window'",
            WINDOWS,
            "scroll window",
            "scroll windows are",
        )
        effect = _scroll_effect(f, f"{place}.effect", _field(f, card, place, "effect", "object"))
        scrolls[ident] = {
            "id": ident,
            "name": name,
            "text": text,
            "window": window,
            "effect": effect,
        }
    _count_is(f, "scrolls", len(scrolls), SCROLL_CARDS, "scroll cards", "DT-COMP-2")
    return scrolls


def _scroll_effect(f: _File, place: str, effect: dict[str, Any]) -> dict[str, Any]:
    if len(effect) != 1 or next(iter(effect)) not in SCROLL_EFFECTS:
        f.fail(
            place,
            f"an effect has exactly one of the keys {', '.join(SCROLL_EFFECTS)}, not "
            f"{json.dumps(effect, ensure_ascii=False)}",
        )
    key = next(iter(effect))
    if key in ("fighter", "monsters"):  # a bonus, or a malus played by a rival (-2)
        value = _number(f, effect, place, key, -99, 99)
        if value == 0:
            f.fail(place, f"{key!r} changes a total: it cannot be 0")
        return {key: value}
    if key == "set_die":
        return {key: _number(f, effect, place, key, 1, 6)}
    if key == "cross":
        return {key: _borders(f, place, effect, key, allow_empty=False)}
    if effect[key] != 1:
        f.fail(place, f"{key!r} takes the value 1, not {_show(effect[key])}")
    return {key: 1}


def _characters(f: _File, item_types: list[str]) -> dict[str, dict[str, Any]]:
    """DT-CHAR-1..4, DT-LIMIT-3, DT-AMB-28: both sides of every character sheet."""
    root = _root(f)
    _only(f, root, "top level", ("characters",))
    characters: dict[str, dict[str, Any]] = {}
    for ident, place, ch in _entries(f, root, "characters", "character"):
        _only(f, ch, place, ("id", "name", "low", "high"))
        name = _field(f, ch, place, "name", "text")
        levels = {
            side: _level(f, f"{place}.{side}", _field(f, ch, place, side, "object"), item_types)
            for side in ("low", "high")
        }
        characters[ident] = {"id": ident, "name": name, **levels}
    if not characters:
        f.fail("characters", "there are no characters")
    return characters


def _level(f: _File, place: str, level: dict[str, Any], item_types: list[str]) -> dict[str, Any]:
    _only(
        f,
        level,
        place,
        ("strength", "movement", "slots", "abilities", "scroll_limit", "backpack_limit"),
    )
    slots = _field(f, level, place, "slots", "list")
    if len(slots) != SLOTS:
        f.fail(place, f"there are {len(slots)} slots; a character sheet has {SLOTS} (DT-CHAR-2)")
    abilities = _field(f, level, place, "abilities", "list", default=[])
    for j, ability in enumerate(abilities):
        _choice(
            f,
            f"{place}.abilities[{j}]",
            ability,
            "each ability",
            ABILITIES,
            "ability",
            "abilities are",
        )
        if ability in abilities[:j]:
            f.fail(f"{place}.abilities[{j}]", f"{ability!r} is listed twice")
    return {
        "strength": _number(f, level, place, "strength", 0),
        "movement": _number(f, level, place, "movement", 0),
        "slots": [_slot(f, f"{place}.slots[{j}]", s, item_types) for j, s in enumerate(slots)],
        "abilities": list(abilities),
        # null: the general rule (3 scrolls, 2 backpack items); Laeoretha has her own (DT-LIMIT-3)
        "scroll_limit": _number(f, level, place, "scroll_limit", 0, null=True, default=None),
        "backpack_limit": _number(f, level, place, "backpack_limit", 0, null=True, default=None),
    }


def _slot(f: _File, place: str, raw: Any, item_types: list[str]) -> dict[str, Any]:
    slot = _obj(f, place, raw, "each slot")
    _only(f, slot, place, ("types", "max"))
    types = _field(f, slot, place, "types", "list")
    if not types:
        f.fail(place, "a slot accepts at least one item type")
    for j, ty in enumerate(types):
        _expect(f, f"{place}.types[{j}]", ty, "text", "each type")
        if ty not in item_types:
            f.fail(
                f"{place}.types[{j}]", _unknown("item type", ty, item_types, "items.json declares")
            )
        if ty in types[:j]:
            f.fail(f"{place}.types[{j}]", f"{ty!r} is listed twice")
    # DT-CHAR-3: "armour (Max +4)"
    return {"types": list(types), "max": _number(f, slot, place, "max", null=True, default=None)}


def _xp_costs(f: _File) -> tuple[dict[str, int], dict[str, bool]]:
    """DT-TOK-5, DT-AMB-3: the XP reference sheet; defaults from section 3.3."""
    root = _root(f)
    _only(f, root, "top level", ("costs", "repeat"))
    costs = _field(f, root, "top level", "costs", "object", default={})
    _only(f, costs, "costs", tuple(DEFAULT_XP))
    repeat = _field(f, root, "top level", "repeat", "object", default={})
    _only(f, repeat, "repeat", REPEATABLE)
    return (
        {key: _number(f, costs, "costs", key, 1, default=cost) for key, cost in DEFAULT_XP.items()},
        {key: _field(f, repeat, "repeat", key, "bool", default=True) for key in REPEATABLE},
    )


# ----------------------------------------------------------------------------------------------
# Loading a data set


def fingerprint(data: dict[str, Any]) -> str:
    """The first 16 hex digits of the SHA-256 of the canonical JSON of ``data`` (without its
    own ``fingerprint``): two sets with equal content have equal fingerprints."""
    content = {key: value for key, value in data.items() if key != "fingerprint"}
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

    def read(name: str) -> _File:
        return _read(folder, label, name)

    manifest = _manifest(read("dataset.json"))
    space_types, tower_draw = _encounter_chart(read("encounter_chart.json"))
    board = _map(read("map.json"), space_types)
    wedges, tower = _tower(read("tower.json"), board["wedges"])
    combat_rows = _combat_table(read("combat_table.json"))
    quest_table = _quest_table(read("quest_table.json"), board["spaces"], board["runes"])
    tokens = _tokens(read("tokens.json"), tower_draw)
    items, item_types = _items(read("items.json"))
    scrolls = _scrolls(read("scrolls.json"))
    characters = _characters(read("characters.json"), item_types)
    xp, xp_repeat = _xp_costs(read("xp_costs.json"))
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
    data["fingerprint"] = fingerprint(data)
    return data


def example_directory() -> Path:
    """The bundled data set: an invented example, not the printed game."""
    return Path(__file__).resolve().parents[1] / "data" / "example"


@cache
def example_dataset() -> dict[str, Any]:
    """The bundled example set, loaded once; shared, so treat it as read-only."""
    return load_dataset(example_directory())
