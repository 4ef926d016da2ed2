"""Where each space is drawn on the map: its ring (distance from the tower) and its angle across
its wedge, given by ``map.json`` (the optional ``ring`` and ``angle`` of a space) or laid out
automatically by wedge and by distance from the wedge's shadowland. Only the pages use it; the
rules never do (the layout is left out of the set's fingerprint)."""

from __future__ import annotations

from typing import Any

from .checks import show
from .reading import DataFile

#: a wedge spans 45 degrees; an angle is measured from its middle, clockwise positive
HALF_WEDGE = 22.5
MAX_RING = 12


def _position_number(file: DataFile, place: str, space: dict[str, Any], key: str) -> float:
    value = space[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        file.fail(place, f"{key!r} must be a number, not {show(value)}")
    return float(value)


def given_position(file: DataFile, place: str, space: dict[str, Any]) -> dict[str, float] | None:
    """A space's own position (``ring`` and ``angle`` together), checked; None when not given."""
    has = [key for key in ("ring", "angle") if key in space]
    if not has:
        return None
    if len(has) == 1:
        missing = "angle" if has == ["ring"] else "ring"
        file.fail(
            place,
            f"{has[0]!r} is given without {missing!r}; a position needs both "
            f"(or neither: the space is then laid out automatically)",
        )
    ring = _position_number(file, place, space, "ring")
    angle = _position_number(file, place, space, "angle")
    if not 0 <= ring <= MAX_RING:
        file.fail(
            place,
            f"'ring' must be between 0 (next to the tower) and {MAX_RING}, not {space['ring']}",
        )
    if not -HALF_WEDGE < angle < HALF_WEDGE:
        file.fail(
            place,
            f"'angle' must lie inside the wedge, more than -{HALF_WEDGE} and less than "
            f"{HALF_WEDGE} degrees from its middle, not {space['angle']}",
        )
    return {"ring": ring, "angle": angle}


def check_positions_apart(
    file: DataFile,
    positions: dict[str, dict[str, float]],
    spaces: dict[str, dict[str, Any]],
    places: dict[str, str],
) -> None:
    """Two spaces of one wedge given the same position would hide each other."""
    seen: dict[tuple[str, float, float], str] = {}
    for ident, position in positions.items():
        key = (spaces[ident]["wedge"], position["ring"], position["angle"])
        if key in seen:
            file.fail(
                places[ident],
                f"the position ring {position['ring']:g}, angle {position['angle']:g} is "
                f"already {seen[key]!r}'s in the same wedge; two spaces cannot share a place",
            )
        seen[key] = ident


def _distances(start: str, adjacent: dict[str, dict[str, str]], allowed: set[str] | None):
    """Shortest path lengths from ``start`` (within ``allowed`` spaces when given)."""
    found = {start: 0}
    frontier = [start]
    while frontier:
        following = []
        for here in frontier:
            for other in sorted(adjacent[here]):
                if other not in found and (allowed is None or other in allowed):
                    found[other] = found[here] + 1
                    following.append(other)
        frontier = following
    return found


def layout(
    spaces: dict[str, dict[str, Any]],
    adjacent: dict[str, dict[str, str]],
    shadowlands: dict[str, str],
    clockwise: list[str],
    given: dict[str, dict[str, float]],
) -> dict[str, dict[str, Any]]:
    """Every space's ``{"ring", "angle", "given"}``: its own position, or ring = shortest path
    length from its wedge's shadowland (inside the wedge when possible) and the angles of a ring
    spread evenly across the wedge, ordered by where the space's neighbours lie."""
    index = {wedge: position for position, wedge in enumerate(clockwise)}
    count = len(clockwise)
    out: dict[str, dict[str, Any]] = {
        ident: {"ring": position["ring"], "angle": position["angle"], "given": True}
        for ident, position in given.items()
    }
    for wedge in clockwise:
        members = {ident for ident, space in spaces.items() if space["wedge"] == wedge}
        near = _distances(shadowlands[wedge], adjacent, members)
        far = _distances(shadowlands[wedge], adjacent, None)
        rings: dict[int, list[str]] = {}
        for ident in sorted(members - set(given)):
            rings.setdefault(near.get(ident, far.get(ident, 0)), []).append(ident)
        for ring in sorted(rings):

            def pull(ident: str, ring: int = ring) -> float:
                """Where the neighbours lie, in degrees from this wedge's middle."""
                seen = []
                for other in adjacent[ident]:
                    turn = (index[spaces[other]["wedge"]] - index[wedge]) % count
                    turn = turn - count if turn > count // 2 else turn
                    if turn:
                        seen.append(turn * 2 * HALF_WEDGE)
                    elif other in out and out[other]["ring"] <= ring:
                        seen.append(out[other]["angle"])
                return sum(seen) / len(seen) if seen else 0.0

            row = sorted(rings[ring], key=lambda ident: (pull(ident), ident))
            for position, ident in enumerate(row):
                angle = -HALF_WEDGE + 2 * HALF_WEDGE * (position + 0.5) / len(row)
                out[ident] = {"ring": float(ring), "angle": round(angle, 2), "given": False}
    return {ident: out[ident] for ident in spaces}
