"""The board's files: the manifest (``dataset.json``), the Encounter chart
(``encounter_chart.json``, DT-AMB-4), the map (``map.json``, DT-AMB-5) and the tower
(``tower.json``, DT-AMB-1)."""

from __future__ import annotations

import json
from typing import Any

from .checks import (
    ID_PATTERN,
    MISSING,
    as_object,
    choice,
    entries,
    expect,
    field,
    number,
    only,
    short_id,
    top_level,
    unknown,
)
from .layout import check_positions_apart, given_position
from .reading import DataFile

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
WEDGES = 8  # DT-COMP-6
KINGDOMS = 6
WILD_AREAS = 2
WALLS = 8  # DT-COMP-7
DOOR_BETWEEN = ("Ravensteel", "Thunderhawk")  # DT-SETUP-1
BORDERS = ("none", "lake", "mountain")  # DT-BORDER-1


def _wedge_label(wedge: dict[str, Any]) -> str:
    """A wedge as messages name it: its id and its name."""
    return f"{wedge['id']!r} ({wedge['name']})"


def check_manifest(file: DataFile) -> dict[str, Any]:
    """The manifest: the set's name, its title, whether it is an invented example, a note."""
    root = top_level(file)
    only(file, root, "top level", ("name", "title", "example", "note"))
    return {
        "name": short_id(file, root, "top level", "name"),
        "title": field(file, root, "top level", "title", "text"),
        "example": field(file, root, "top level", "example", "bool", default=False),
        "note": field(file, root, "top level", "note", "text", default=""),
    }


def check_encounter_chart(file: DataFile) -> tuple[dict[str, dict[str, Any]], int]:
    """DT-ENC-3, DT-AMB-4: tokens drawn per space type and time of day; Z'Mindrik's draw."""
    root = top_level(file)
    only(file, root, "top level", ("space_types", "tower_draw"))
    raw = field(file, root, "top level", "space_types", "object", default=DEFAULT_SPACE_TYPES)
    types: dict[str, dict[str, Any]] = {}
    for type_id, spec in raw.items():
        place = f"space_types[{json.dumps(type_id)}]"
        if not ID_PATTERN.fullmatch(type_id):
            file.fail(
                place,
                f"a space type must be a short lowercase id (letters a-z, digits, '-' "
                f"and '_'), not {type_id!r}",
            )
        as_object(file, place, spec)
        only(file, spec, place, ("day", "night", *SPACE_FLAGS))
        flags = {
            flag: field(file, spec, place, flag, "bool", default=False) for flag in SPACE_FLAGS
        }
        night = number(file, spec, place, "night", 0)
        # an always-night space draws its night number whatever the tower shows (DT-SPACE-7)
        day = number(
            file, spec, place, "day", 0, default=night if flags["always_night"] else MISSING
        )
        types[type_id] = {"day": day, "night": night, **flags}
    if not types:
        file.fail("space_types", "no space types are given")
    for flag, rule in (("city", "DT-SPACE-4"), ("always_night", "DT-SPACE-7")):
        if not any(kind[flag] for kind in types.values()):
            file.fail(
                "space_types", f'no space type has "{flag}": true; the map needs one ({rule})'
            )
    tower_draw = number(file, root, "top level", "tower_draw", 1, default=DEFAULT_TOWER_DRAW)
    return types, tower_draw


def check_map(file: DataFile, space_types: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """DT-AMB-5: the wedges, spaces, edges, shadowlands and quest start spaces."""
    root = top_level(file)
    only(file, root, "top level", ("wedges", "spaces", "edges", "quest_starts"))

    wedges: dict[str, dict[str, Any]] = {}
    names: dict[str, str] = {}
    for ident, place, wedge_entry in entries(file, root, "wedges", "wedge"):
        only(file, wedge_entry, place, ("id", "name", "kind"))
        name = field(file, wedge_entry, place, "name", "text")
        if name.casefold() in names:
            file.fail(
                place, f"the name {name!r} is used twice (also wedge {names[name.casefold()]!r})"
            )
        names[name.casefold()] = ident
        kind = choice(
            file,
            place,
            field(file, wedge_entry, place, "kind", "text"),
            "'kind'",
            ("kingdom", "wild"),
            "wedge kind",
            "wedge kinds are",
        )
        wedges[ident] = {"id": ident, "name": name, "kind": kind}
    kinds = [wedge_entry["kind"] for wedge_entry in wedges.values()]
    if (len(wedges), kinds.count("kingdom")) != (WEDGES, KINGDOMS):
        file.fail(
            "wedges",
            f"there are {len(wedges)} wedges ({kinds.count('kingdom')} kingdoms, "
            f"{kinds.count('wild')} wild areas); the board has {WEDGES}: "
            f"{KINGDOMS} kingdoms and {WILD_AREAS} wild areas (DT-COMP-6)",
        )

    spaces: dict[str, dict[str, Any]] = {}
    places: dict[str, str] = {}
    runes: dict[str, str] = {}
    positions: dict[str, dict[str, float]] = {}
    for ident, place, space in entries(file, root, "spaces", "space"):
        only(file, space, place, ("id", "name", "type", "wedge", "rune", "ring", "angle"))
        name = field(file, space, place, "name", "text")
        kind = field(file, space, place, "type", "text")
        if kind not in space_types:
            file.fail(place, unknown("space type", kind, space_types, "the encounter chart knows"))
        wedge = field(file, space, place, "wedge", "text")
        if wedge not in wedges:
            file.fail(place, unknown("wedge", wedge, wedges, "map.json's wedges are"))
        rune = field(file, space, place, "rune", "text", null=True, default=None)
        if rune is not None:
            if rune in runes:  # DT-SPACE-3
                file.fail(
                    place,
                    f"the rune {rune!r} is already on {runes[rune]!r} "
                    f"({places[runes[rune]]}); each rune marks exactly one space",
                )
            runes[rune] = ident
        spaces[ident] = {"id": ident, "name": name, "type": kind, "wedge": wedge, "rune": rune}
        places[ident] = place
        position = given_position(file, place, space)
        if position is not None:
            positions[ident] = position
    if not spaces:
        file.fail("spaces", "the map has no spaces")

    shadowlands = _shadowlands(file, wedges, spaces, places, space_types)
    for wedge_entry in wedges.values():  # DT-SETUP-8: each player starts in a city of his kingdom
        if wedge_entry["kind"] == "kingdom" and not any(
            space["wedge"] == wedge_entry["id"] and space_types[space["type"]]["city"]
            for space in spaces.values()
        ):
            file.fail(
                "spaces",
                f"kingdom {_wedge_label(wedge_entry)} has no city; every kingdom needs one, players "
                f"start in a city of their own kingdom (DT-SETUP-8)",
            )

    check_positions_apart(file, positions, spaces, places)
    adjacent = _edges(file, root, spaces)
    return {
        "positions": positions,
        "wedges": wedges,
        "spaces": spaces,
        "adjacent": adjacent,
        "shadowlands": shadowlands,
        "quest_starts": _quest_starts(file, root, wedges, spaces),
        "runes": runes,
    }


def _shadowlands(
    file: DataFile,
    wedges: dict[str, dict[str, Any]],
    spaces: dict[str, dict[str, Any]],
    places: dict[str, str],
    space_types: dict[str, dict[str, Any]],
) -> dict[str, str]:
    """DT-SPACE-7: exactly one always-night space in each wedge, 8 around the tower."""
    dark = sorted(kind for kind, spec in space_types.items() if spec["always_night"])
    found: dict[str, str] = {}
    for ident, space in spaces.items():
        if space["type"] in dark:
            if space["wedge"] in found:
                file.fail(
                    places[ident],
                    f"wedge {_wedge_label(wedges[space['wedge']])} already has the "
                    f"shadowland {found[space['wedge']]!r}; each wedge has exactly "
                    f"one (DT-SPACE-7)",
                )
            found[space["wedge"]] = ident
    for wedge in wedges.values():
        if wedge["id"] not in found:
            file.fail(
                "spaces",
                f"wedge {_wedge_label(wedge)} has no shadowland; each of the {WEDGES} wedges "
                f"needs exactly one space of the always-night type "
                f"{' or '.join(repr(kind) for kind in dark)} next to the tower (DT-SPACE-7)",
            )
    return {wedge: found[wedge] for wedge in wedges}


def _edges(
    file: DataFile, root: dict[str, Any], spaces: dict[str, dict[str, Any]]
) -> dict[str, dict[str, str]]:
    """Edges ``[a, b]`` or ``[a, b, border]``; adjacency is symmetric by construction."""
    adjacent: dict[str, dict[str, str]] = {ident: {} for ident in spaces}
    listed: dict[frozenset[str], int] = {}
    for index, edge in enumerate(field(file, root, "top level", "edges", "list")):
        place = f"edges[{index}]"
        if (
            not isinstance(edge, list)
            or len(edge) not in (2, 3)
            or not all(isinstance(part, str) for part in edge)
        ):
            file.fail(
                place,
                f"an edge is a list of two space ids and an optional border "
                f'(["a", "b"] or ["a", "b", "lake"]), not '
                f"{json.dumps(edge, ensure_ascii=False)}",
            )
        first, second = edge[0], edge[1]
        border = edge[2] if len(edge) == 3 else "none"
        for end in (first, second):
            if end not in spaces:
                file.fail(place, unknown("space", end, spaces, "map.json's spaces are", "map.json"))
        if first == second:
            file.fail(place, f"the edge joins {first!r} to itself")
        if border not in BORDERS:
            file.fail(place, unknown("border", border, BORDERS, "borders are"))
        pair = frozenset((first, second))
        if pair in listed:
            file.fail(
                place,
                f"the edge between {first!r} and {second!r} is listed twice (also edges[{listed[pair]}])",
            )
        listed[pair] = index
        adjacent[first][second] = border
        adjacent[second][first] = border
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
            file.fail(
                "edges",
                f"the space {ident!r} cannot be reached from {start!r}: no chain of "
                f"edges joins them (the map must be in one piece)",
            )
    return adjacent


def _quest_starts(
    file: DataFile,
    root: dict[str, Any],
    wedges: dict[str, dict[str, Any]],
    spaces: dict[str, dict[str, Any]],
) -> list[str]:
    """DT-SETUP-9: one quest token starts in each wild area."""
    starts = field(file, root, "top level", "quest_starts", "list")
    if len(starts) != WILD_AREAS:
        file.fail(
            "quest_starts",
            f"there are {len(starts)} quest start spaces; there must be "
            f"{WILD_AREAS}, one in each wild area (DT-SETUP-9)",
        )
    used: dict[str, int] = {}
    for index, ident in enumerate(starts):
        place = f"quest_starts[{index}]"
        expect(file, place, ident, "text", "a quest start")
        if ident not in spaces:
            file.fail(place, unknown("space", ident, spaces, "map.json's spaces are", "map.json"))
        wedge = wedges[spaces[ident]["wedge"]]
        if wedge["kind"] != "wild":
            file.fail(
                place,
                f"{ident!r} is in the kingdom {_wedge_label(wedge)}; quest tokens start in "
                f"the wild areas (DT-SETUP-9)",
            )
        if wedge["id"] in used:
            file.fail(
                place,
                f"{ident!r} is in the same wild area {_wedge_label(wedge)} as "
                f"quest_starts[{used[wedge['id']]}]; one quest starts in each wild "
                f"area (DT-SETUP-9)",
            )
        used[wedge["id"]] = index
    return list(starts)


def check_tower(
    file: DataFile, wedges: dict[str, dict[str, Any]]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """DT-COMP-7, DT-SETUP-1, DT-AMB-1: the wedges clockwise, the walls clockwise, the door."""
    root = top_level(file)
    only(file, root, "top level", ("wedges", "walls", "door_wall", "door_faces"))
    order = field(file, root, "top level", "wedges", "list")
    seen: dict[str, int] = {}
    for index, ident in enumerate(order):
        place = f"wedges[{index}]"
        expect(file, place, ident, "text", "each wedge")
        if ident not in wedges:
            file.fail(place, unknown("wedge", ident, wedges, "map.json's wedges are"))
        if ident in seen:
            file.fail(place, f"the wedge {ident!r} is listed twice (also wedges[{seen[ident]}])")
        seen[ident] = index
    for ident in wedges:
        if ident not in seen:
            file.fail(
                "wedges",
                f"wedge {ident!r} of map.json is missing from the tower's wedges "
                f"(tower.json lists {len(order)} of {len(wedges)})",
            )
    clockwise = [dict(wedges[ident]) for ident in order]

    walls = field(file, root, "top level", "walls", "list")
    if len(walls) != WALLS:
        file.fail("walls", f"there are {len(walls)} walls; the tower has {WALLS} (DT-COMP-7)")
    for index, wall in enumerate(walls):
        choice(file, f"walls[{index}]", wall, "each wall", ("sun", "moon"), "wall", "walls are")
    if walls.count("sun") != WALLS // 2:
        file.fail(
            "walls",
            f"there are {walls.count('sun')} sun walls and {walls.count('moon')} "
            f"moon walls; the tower has 4 of each (DT-COMP-7)",
        )
    door = number(file, root, "top level", "door_wall", 0, WALLS - 1)
    if walls[door] != "moon":
        moons = ", ".join(str(index) for index, wall in enumerate(walls) if wall == "moon")
        file.fail(
            "door_wall",
            f"the door is on wall {door}, a sun wall; the door is on the night "
            f"side (DT-COMP-7, DT-TOWER-1): choose one of the moon walls {moons}",
        )

    between = _between(file, clockwise)
    faces = field(file, root, "top level", "door_faces", "text")
    if faces not in wedges:
        file.fail("door_faces", unknown("wedge", faces, wedges, "map.json's wedges are"))
    if faces != clockwise[between]["id"]:
        file.fail(
            "door_faces",
            f"at setup the door faces the wild area between "
            f"{DOOR_BETWEEN[0]} and {DOOR_BETWEEN[1]}, "
            f"{_wedge_label(clockwise[between])} (DT-SETUP-1), not {faces!r}",
        )
    return clockwise, {"walls": list(walls), "door_wall": door, "door_wedge": between}


def _between(file: DataFile, clockwise: list[dict[str, Any]]) -> int:
    """The index of the wild area whose neighbours are Ravensteel and Thunderhawk (DT-SETUP-1)."""
    by_name = {wedge["name"].casefold(): wedge for wedge in clockwise}
    for name in DOOR_BETWEEN:
        wedge = by_name.get(name.casefold())
        if wedge is None or wedge["kind"] != "kingdom":
            file.fail(
                "wedges",
                f"no kingdom of map.json is named {name}; the door is set up "
                f"facing the wild area between {DOOR_BETWEEN[0]} and "
                f"{DOOR_BETWEEN[1]} (DT-SETUP-1)",
            )
    wanted = {name.casefold() for name in DOOR_BETWEEN}
    count = len(clockwise)
    for index, wedge in enumerate(clockwise):
        sides = {
            clockwise[index - 1]["name"].casefold(),
            clockwise[(index + 1) % count]["name"].casefold(),
        }
        if wedge["kind"] == "wild" and sides == wanted:
            return index
    file.fail(
        "wedges",
        f"no wild area lies between {DOOR_BETWEEN[0]} and {DOOR_BETWEEN[1]} in "
        f"this clockwise order; the door faces it at setup (DT-SETUP-1)",
    )
