"""Walking a piece through the maze (TW-MOVE-1..9, TW-RES-REDUCT-1..5, TW-AMB-6/8/9/10/20/32/34):
checking a whole path step by step, the next available spaces past an occupied one, and the
spaces a piece can reach (``reach``, for the legal moves and the mover's own view).

A walk has a mode: ``move`` (the movement roll's), ``advance`` (after a won battle: the first
step may not go back where the piece came from) or ``push`` (after a lost one: the first step
goes back there). An uncloaked piece entering an Obstacle Space stops there: in a ``move`` it
battles (even on an occupied one, TW-AMB-10); in an ``advance`` or ``push`` it stops uncleared
and may not enter an occupied one (TW-AMB-9)."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.rules.api import MALFORMED, State
from companion.rules.common import Refuse

from .derived import derived
from .geometry import feature, is_green, is_path, neighbours, straight, xy
from .state import cloaked, occupant

#: the rule a walk longer than allowed breaks: the allowance, the Movement Rating forward, the
#: Movement Rating (or 4) back
LIMIT_RULES = {"move": "TW-MOVE-1", "advance": "TW-BATTLE-WIN-1", "push": "TW-BATTLE-LOSE-1"}


def _limit_rule(state: State, mode: str) -> str:
    """The rule a walk beyond its limit breaks: a push-back after no matching card is limited
    by TW-BATTLE-LOSE-2 (4 spaces), after a short total by TW-BATTLE-LOSE-1 (the card's MR)."""
    fight = state.get("fight")
    if mode == "push" and fight is not None and fight.get("result") == "no_match":
        return "TW-BATTLE-LOSE-2"
    return LIMIT_RULES[mode]


def taken(data: dict[str, Any], state: State, space: str, seat: int) -> bool:
    """Another piece stands on ``space`` (the Entrance holds any number, TW-AMB-7)."""
    return space != data["board"]["entrance"] and occupant(state, space, besides=seat) is not None


def _names(spaces: list[str]) -> str:
    return ", ".join(spaces)


def _first_step_ok(mode: str, there: str, entered_from: str | None) -> bool:
    if entered_from is None:
        return True
    if mode == "push":
        return there == entered_from
    if mode == "advance":
        return there != entered_from
    return True


def next_available(
    data: dict[str, Any],
    state: State,
    seat: int,
    start: str,
    path: list[str],
    mode: str,
    entered_from: str | None = None,
) -> tuple[list[str], int]:
    """TW-AMB-6, TW-AMB-32, TW-AMB-34: the nearest free spaces reached by extending ``path``
    with legal steps through occupied spaces, and how many steps further they are."""
    options, depth, _routes = extensions(data, state, seat, start, path, mode, entered_from)
    return options, depth


def extensions(
    data: dict[str, Any],
    state: State,
    seat: int,
    start: str,
    path: list[str],
    mode: str,
    entered_from: str | None = None,
) -> tuple[list[str], int, dict[str, list[str]]]:
    """``next_available``, with the steps on to each of those spaces."""
    visited = {start, *path}
    frontier = [path[-1] if path else start]
    routes: dict[str, list[str]] = {frontier[0]: []}
    hidden = cloaked(state, seat)
    depth = 0
    while frontier:
        depth += 1
        found: list[str] = []
        onward: list[str] = []
        for here in frontier:
            for there in neighbours(data, here):
                if there in visited or not is_path(data, there) or there == state["hedge"]:
                    continue
                if not path and depth == 1 and not _first_step_ok(mode, there, entered_from):
                    continue
                visited.add(there)
                routes[there] = routes[here] + [there]
                busy = taken(data, state, there, seat)
                if feature(data, there) == "obstacle" and not hidden:
                    if mode == "move" or not busy:
                        found.append(there)
                    continue
                (onward if busy else found).append(there)
        if found:
            found = sorted(set(found))
            return found, depth, {space: routes[space] for space in found}
        frontier = onward
    return [], 0, {}


def check_walk(
    data: dict[str, Any],
    state: State,
    seat: int,
    path: Any,
    limit: int,
    mode: str,
    reductor: bool = False,
    entered_from: str | None = None,
) -> dict[str, Any]:
    """Check ``path`` for the piece of ``seat``; return its end, whether it battles
    (``battle``), stops uncleared (``uncleared``), crossed Green Hedge (``crossed``), or must
    jump to the nearest free Path space (``jump``: the choices). Refuse what breaks a rule."""
    if not isinstance(path, list) or not all(isinstance(space, str) for space in path):
        raise Refuse(MALFORMED, t("A path is a list of spaces."))
    start = state["pieces"][seat]
    hidden = cloaked(state, seat)
    revisit = state["options"].get("allow_revisit", False)
    spaces = data["board"]["spaces"]
    visited = {start}
    prev = start
    run: list[str] = []
    run_before = None
    crossed = False
    stop = None
    for index, there in enumerate(path):
        if stop is not None:
            raise Refuse(
                "TW-MOVE-7",
                t("The move ends on the Obstacle Space {space}: no step after it.", space=stop),
            )
        if there not in spaces:
            raise Refuse(
                "TW-MOVE-3",
                t("{space} is not on the Path: pieces never pass Dark Hedge.", space=there),
            )
        if there not in neighbours(data, prev):
            (ax, ay), (bx, by) = xy(data, prev), xy(data, there)
            if abs(ax - bx) + abs(ay - by) == 1:
                raise Refuse(
                    "TW-MOVE-3", t("Dark Hedge lies between {a} and {b}.", a=prev, b=there)
                )
            raise Refuse(
                "TW-MOVE-2",
                t("{a} to {b} is not one step left, right, up or down.", a=prev, b=there),
            )
        if there == state["hedge"]:
            raise Refuse("TW-MOVE-9", t("The Wandering Hedge blocks {space}.", space=there))
        if index == 0 and not _first_step_ok(mode, there, entered_from):
            if mode == "push":
                raise Refuse(
                    "TW-BATTLE-LOSE-1",
                    t(
                        "Moving back starts towards {space}, where the piece came from.",
                        space=entered_from,
                    ),
                )
            raise Refuse(
                "TW-BATTLE-WIN-1",
                t("Moving forward does not start back to {space}.", space=entered_from),
            )
        if there in visited and not revisit:
            raise Refuse("TW-AMB-8", t("A move visits no space twice ({space}).", space=there))
        visited.add(there)
        if is_green(data, there):
            if not reductor:
                raise Refuse(
                    "TW-MOVE-4",
                    t("{space} is Green Hedge: only the Reductor Curse crosses it.", space=there),
                )
            if crossed:
                raise Refuse(
                    "TW-RES-REDUCT-4",
                    t("One Reductor Curse crosses one straight stretch of Green Hedge."),
                )
            if not run:
                run_before = prev
            run.append(there)
        else:
            if run:
                if not straight(data, [run_before, *run, there]):
                    raise Refuse(
                        "TW-RES-REDUCT-4",
                        t("The Green Hedge must be crossed in a straight line."),
                    )
                run = []
                crossed = True
            if feature(data, there) == "obstacle" and not hidden:
                if mode != "move" and taken(data, state, there, seat):
                    raise Refuse(
                        "TW-MOVE-5",
                        t(
                            "The piece would have to stop on {space}, where another piece stands.",
                            space=there,
                        ),
                    )
                stop = there
        prev = there
    if run:
        raise Refuse("TW-RES-REDUCT-4", t("A move cannot end on a Green Hedge space."))
    if reductor and not crossed:
        raise Refuse(
            "TW-RES-REDUCT-1",
            t("The Reductor Curse is played to cross Green Hedge; this path crosses none."),
        )
    end = path[-1] if path else start
    result = {"end": end, "battle": False, "uncleared": False, "crossed": crossed, "jump": None}
    if stop is not None:
        result["battle" if mode == "move" else "uncleared"] = True
    if len(path) > limit:
        prefix = path[:limit]
        here = prefix[-1] if prefix else start
        options, extra = next_available(data, state, seat, start, prefix, mode, entered_from)
        busy = taken(data, state, here, seat) and not (
            mode == "move" and feature(data, here) == "obstacle" and not hidden
        )
        if not busy or end not in options or len(path) - limit != extra:
            raise Refuse(
                _limit_rule(state, mode),
                t("The piece may move up to {n} spaces, not {m}.", n=limit, m=len(path)),
            )
        return result
    if result["battle"] or not taken(data, state, end, seat):
        return result
    options, _extra = next_available(data, state, seat, start, path, mode, entered_from)
    if options:
        raise Refuse(
            "TW-MOVE-5",
            t(
                "Another piece stands on {space}: go on to the next available space ({spaces}).",
                space=end,
                spaces=_names(options),
            ),
        )
    result["jump"] = free_nearest(data, state, seat, end)
    return result


def free_nearest(data: dict[str, Any], state: State, seat: int, origin: str) -> list[str]:
    """TW-AMB-6: the free Path spaces nearest to ``origin`` (for a jump, or a walk with no
    next available space)."""
    seen = {origin}
    queue = [origin]
    while queue:
        found = []
        onward = []
        for here in queue:
            for there in neighbours(data, here):
                if there in seen or not is_path(data, there):
                    continue
                seen.add(there)
                if there != state["hedge"] and not taken(data, state, there, seat):
                    found.append(there)
                onward.append(there)
        if found:
            return sorted(found)
        queue = onward
    return []


def reach(
    data: dict[str, Any],
    state: State,
    seat: int,
    allowance: int,
    reductors: list[str],
) -> list[dict[str, Any]]:
    """The spaces the piece of ``seat`` can end a ``move`` on with ``allowance`` steps: one
    path to each (the shortest; with a Reductor Curse from ``reductors`` only where it is
    needed), the steps it takes, and whether it stops on an obstacle."""
    board = data["board"]
    spaces = board["spaces"]
    start = state["pieces"][seat]
    hidden = cloaked(state, seat)
    hedge = state["hedge"]
    entrance = board["entrance"]
    others = {space for index, space in enumerate(state["pieces"]) if index != seat}
    others.discard(entrance)
    tile = reductors[0] if reductors else None
    if tile is None:
        return _plain_reach(data, state, seat, allowance, start, hidden, hedge, others)
    # breadth first over (space, Reductor used), hop by hop: the steps and route to each
    known = derived(data)
    moves = known["hops"]
    stopping = frozenset() if hidden else known["obstacle_spaces"]
    total_of: dict[tuple[str, bool], int] = {(start, False): 0}
    routes: dict[tuple[str, bool], list[str]] = {(start, False): []}
    frontier = [(start, False)]
    while frontier:
        onward = []
        for key in frontier:
            here, used = key
            steps = total_of[key]
            if steps and here in stopping:
                continue
            route = routes[key]
            for there, jump, hop in moves.get(here, ()):
                if there == hedge or (jump and used):
                    continue
                total = steps + len(hop)
                now_used = used or jump
                new_key = (there, now_used)
                if total > allowance or there == start or new_key in total_of:
                    continue
                if now_used and (there, False) in total_of:
                    continue
                if now_used and any(cell in route or cell == start for cell in hop):
                    continue
                total_of[new_key] = total
                routes[new_key] = [*route, *hop]
                onward.append(new_key)
        frontier = onward
    found: dict[str, dict[str, Any]] = {}
    for key in sorted(total_of, key=lambda k: (total_of[k], k[1], k[0])):
        space, used = key
        steps = total_of[key]
        if space in found or not steps:
            continue
        battle = not hidden and spaces[space]["feature"] == "obstacle"
        if not battle and space in others:
            if steps == allowance:
                route = routes[key]
                options, _extra, onward_routes = extensions(data, state, seat, start, route, "move")
                for option in options:
                    if option not in found:
                        stop = not hidden and spaces[option]["feature"] == "obstacle"
                        found[option] = _entry(
                            option,
                            route + onward_routes[option],
                            used and tile,
                            "obstacle" if stop else None,
                        )
            continue
        found[space] = _entry(space, routes[key], used and tile, "obstacle" if battle else None)
    return sorted(found.values(), key=lambda entry: (entry["steps"], entry["space"]))


def _plain_reach(
    data: dict[str, Any],
    state: State,
    seat: int,
    allowance: int,
    start: str,
    hidden: bool,
    hedge: str,
    others: set[str],
) -> list[dict[str, Any]]:
    """``reach`` without a Reductor Curse: breadth first over the Path."""
    spaces = data["board"]["spaces"]
    known = derived(data)
    near = known["path_near"]
    stopping = frozenset() if hidden else known["obstacle_spaces"]
    shortest: dict[str, list[str]] = {start: []}  # the shortest route to each space reached
    frontier = [start]
    steps = 0
    while frontier and steps < allowance:
        steps += 1
        onward = []
        for here in frontier:
            if here != start and here in stopping:
                continue
            before = shortest[here]
            for there in near.get(here, ()):
                if there in shortest or there == hedge:
                    continue
                shortest[there] = [*before, there]
                onward.append(there)
        frontier = onward
    found: dict[str, dict[str, Any]] = {}
    extended: list[tuple[str, list[str]]] = []
    for space, route in shortest.items():
        steps = len(route)
        if not steps:
            continue
        battle = space in stopping
        if not battle and space in others:
            if steps == allowance:
                extended.append((space, route))
            continue
        found[space] = {
            "space": space,
            "steps": steps,
            "path": route,
            "reductor": None,
            "stops": "obstacle" if battle else None,
        }
    for _space, route in extended:
        options, _extra, routes = extensions(data, state, seat, start, route, "move")
        for option in options:
            if option not in found:
                stop = not hidden and spaces[option]["feature"] == "obstacle"
                found[option] = _entry(
                    option, route + routes[option], None, "obstacle" if stop else None
                )
    return sorted(found.values(), key=lambda entry: (entry["steps"], entry["space"]))


def _entry(space: str, route: list[str], tile: Any, stops: str | None) -> dict[str, Any]:
    return {
        "space": space,
        "steps": len(route),
        "path": list(route),
        "reductor": tile or None,
        "stops": stops,
    }
