"""What never changes for a data set, worked out once: the views' card, tile and Obstacle
entries as tuples, the Cup Tile slots' spaces, the die's faces. Kept in a small cache keyed by
the loaded data set itself (a data set never changes once loaded)."""

from __future__ import annotations

from typing import Any

from .numbers import SLOTS

_KEPT = 8  # data sets kept at most (the bundled ones and a few more)
_CACHE: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}


def derived(data: dict[str, Any]) -> dict[str, Any]:
    """The constants of ``data``: ``paths`` (the Path spaces), ``path_near`` (space -> its
    neighbours on the Path, in ``neighbours`` order), ``hops`` (see ``_hops``),
    ``obstacle_spaces``, ``cards`` (id -> colour, strength, movement), ``kinds`` (tile
    id -> kind), ``obstacles`` (id -> colours, strength, reward), ``cup_spaces`` (the slots'
    spaces, in slot order), ``faces`` (the die's faces)."""
    kept = _CACHE.get(id(data))
    if kept is not None and kept[0] is data:
        return kept[1]
    board = data.get("board") or {}
    slots = board.get("cup_slots") or {}
    spaces = board.get("spaces") or {}
    paths = frozenset(space for space, cell in spaces.items() if cell["kind"] == "path")
    made = {
        "paths": paths,
        "path_near": {
            space: tuple(there for there in near if there in paths)
            for space, near in (board.get("neighbours") or {}).items()
        },
        "hops": _hops(board),
        "obstacle_spaces": frozenset(
            space for space, cell in spaces.items() if cell["feature"] == "obstacle"
        ),
        "cards": {
            card: (info["colour"], info["strength"], info["movement"])
            for card, info in data.get("battle", {}).items()
        },
        "kinds": {tile: info["kind"] for tile, info in data.get("tiles", {}).items()},
        "obstacles": {
            card: (tuple(info["colours"]), info["strength"], info["reward"])
            for card, info in data.get("obstacles", {}).items()
        },
        "cup_spaces": tuple(slots.get(slot) for slot in SLOTS),
        "faces": tuple(data.get("die", {}).get("faces", ())),
    }
    if len(_CACHE) >= _KEPT:
        del _CACHE[next(iter(_CACHE))]
    _CACHE[id(data)] = (data, made)
    return made


def _hops(board: dict[str, Any]) -> dict[str, tuple[tuple[str, bool, tuple[str, ...]], ...]]:
    """Each space's one-hop moves, in ``neighbours`` order: a step to a Path neighbour
    ``(there, False, (there,))``, or a straight crossing of the Green Hedge beside it to the
    Path space beyond ``(beyond, True, (hedge cells..., beyond))`` (TW-RES-REDUCT-4; none when
    Dark Hedge or the board's edge comes first)."""
    spaces, at = board.get("spaces") or {}, board.get("at") or {}
    hops = {}
    for here, near in (board.get("neighbours") or {}).items():
        found = []
        for there in near:
            cell = spaces[there]
            if cell["kind"] == "path":
                found.append((there, False, (there,)))
                continue
            dx, dy = cell["x"] - spaces[here]["x"], cell["y"] - spaces[here]["y"]
            run = [there]
            x, y = cell["x"] + dx, cell["y"] + dy
            beyond = at.get(f"{x},{y}")
            while beyond is not None and spaces[beyond]["kind"] != "path":
                run.append(beyond)
                x, y = x + dx, y + dy
                beyond = at.get(f"{x},{y}")
            if beyond is not None:
                found.append((beyond, True, (*run, beyond)))
        hops[here] = tuple(found)
    return hops
