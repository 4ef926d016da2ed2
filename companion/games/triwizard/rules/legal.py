"""The choices players can make now (``legal_actions``): for the phones and the simulated
players. Chance steps (rolls, draws, flips, peeks, steals) are not listed: ``chance`` names
them. A move, an advance and a push-back are offered once per end space (the shortest path
there; a move that needs a Reductor Curse names the first one held); every tile held is offered
with every target it may have."""

from __future__ import annotations

from collections import deque
from itertools import combinations
from typing import Any

from companion.rules.api import Action, State
from companion.rules.common import Refuse

from . import declared
from .battles import matches, obstacle_of, push_limit
from .geometry import feature, is_path, neighbours, open_spaces
from .numbers import QUIET_PHASES, SLOTS
from .state import cloaked, interrupt, occupant, right_of
from .walking import check_walk, reach, taken


def legal_actions(data: dict[str, Any], state: State) -> list[Action]:
    phase = state["phase"]
    names = state["players"]
    if phase == "over":
        return []
    current = interrupt(state)
    if current is not None:
        return _interrupt_actions(data, state, current)
    if state["pending"]:
        return []
    if phase == "setup":
        return [{"type": "placed", "player": name} for name in names]
    if phase == "first_player":
        if state["tie"] is not None:
            return []
        found: list[Action] = [{"type": "first", "player": name} for name in names]
        for size in range(2, len(names) + 1):
            for group in combinations(names, size):
                found.append({"type": "tie", "players": list(group)})
        return found
    seat = state["active"]
    who = names[seat]
    ts = state["turn_state"]
    found = []
    if phase == "open":
        if not ts["tile_played"] and not ts["card_played"]:
            found.append({"type": "swap_hand", "player": who})
        if state["cloak"] == seat and not ts["tile_played"]:
            found.append({"type": "remove_cloak", "player": who})
        if seat in state["uncleared"] and not cloaked(state, seat):
            found.append({"type": "battle", "player": who})
    elif phase == "cloak_place":
        found += [
            {"type": "place_cloak", "player": who, "on": name}
            for index, name in enumerate(names)
            if index != state["cloak"]
        ]
    elif phase == "removal_place":
        found.append({"type": "place_cloak", "player": who, "on": None})
        found += [
            {"type": "place_cloak", "player": who, "on": name}
            for index, name in enumerate(names)
            if index != seat
        ]
    elif phase == "moving" and declared.on(state):
        found += declared.legal_walks(state, "move", who, ts["allowance"])
    elif phase in ("advance", "push_back") and declared.on(state):
        limit = (
            data["battle"][state["fight"]["card"]]["movement"]
            if phase == "advance"
            else push_limit(data, state)
        )
        mover = who if phase == "advance" else names[right_of(state, seat)]
        found += declared.legal_walks(state, phase, mover, limit)
    elif phase == "moving":
        reductors = [] if ts["tile_played"] else _held(data, state, seat, "reductor")[:1]
        for entry in reach(data, state, seat, ts["allowance"], reductors):
            action = {"type": "move", "player": who, "path": entry["path"]}
            if entry["reductor"]:
                action["reductor"] = entry["reductor"]
            found.append(action)
        if not found or not _taken_here(data, state, seat):
            found.append({"type": "move", "player": who, "path": []})
    elif phase == "battle_select":
        obstacle = obstacle_of(data, state)
        cards = [c for c in state["hands"][seat] if matches(data, c, obstacle)]
        if ts["card_played"]:
            cards = []
        found += [{"type": "play_card", "player": who, "card": card} for card in sorted(cards)]
        if not any(matches(data, c, obstacle) for c in state["hands"][seat]):
            found.append({"type": "no_match", "player": who})
    elif phase == "battle_short":
        found.append({"type": "decline", "player": who})
        if not ts["tile_played"]:
            for tile in _held(data, state, seat, "double_die"):
                found.append({"type": "play_tile", "player": who, "tile": tile})
    elif phase == "advance":
        fight = state["fight"]
        limit = data["battle"][fight["card"]]["movement"]
        found += _walks(data, state, seat, limit, "advance", fight["entered_from"], who)
    elif phase == "push_back":
        fight = state["fight"]
        pusher = names[right_of(state, seat)]
        found += _walks(
            data, state, seat, push_limit(data, state), "push", fight["entered_from"], pusher
        )
    elif phase == "post":
        found.append({"type": "end_turn", "player": who})
    if phase in QUIET_PHASES and not ts["tile_played"]:
        found += _quiet_tiles(data, state, seat)
    return found


def _taken_here(data: dict[str, Any], state: State, seat: int) -> bool:
    return taken(data, state, state["pieces"][seat], seat)


def _held(data: dict[str, Any], state: State, seat: int, kind: str) -> list[str]:
    return sorted(tile for tile in state["tiles"][seat] if data["tiles"][tile]["kind"] == kind)


def _quiet_tiles(data: dict[str, Any], state: State, seat: int) -> list[Action]:
    names = state["players"]
    who = names[seat]
    found: list[Action] = []
    blocked = state["options"].get("cloak_blocks_steal", True) and cloaked(state, seat)
    for tile in sorted(state["tiles"][seat]):
        kind = data["tiles"][tile]["kind"]
        base = {"type": "play_tile", "player": who, "tile": tile}
        if kind == "dumbledore":
            wearer = state["cloak"]
            if wearer is not None and wearer != seat:
                found.append({**base, "target": names[wearer]})
        elif kind == "four_point" and not cloaked(state, seat):
            found += [{**base, "slot": slot} for slot in SLOTS if state["cups"][slot] is None]
        elif kind == "cloak":
            found += [
                {**base, "on": name} for index, name in enumerate(names) if index != state["cloak"]
            ]
        elif kind in ("red_sparks", "veritaserum") and not blocked:
            found += [
                {**base, "target": name}
                for index, name in enumerate(names)
                if index != seat and state["tiles"][index]
            ]
        elif kind == "summon_hedge" and declared.on(state):
            found.append({**base, "space": "path"})
        elif kind == "summon_hedge":
            found += [
                {**base, "space": space}
                for space in open_spaces(data)
                if space != state["hedge"] and occupant(state, space) is None
            ]
    return found


def _interrupt_actions(data: dict[str, Any], state: State, current: dict) -> list[Action]:
    names = state["players"]
    who = names[current["player"]]
    kind = current["kind"]
    if kind == "overflow":
        return [
            {"type": "discard_tile", "player": who, "tile": tile}
            for tile in sorted(set(state["tiles"][current["player"]]))
        ]
    if kind == "dumbledore":
        found: list[Action] = [{"type": "decline", "player": who}, {"type": "close_window"}]
        found += [
            {"type": "counter", "player": who, "tile": tile}
            for tile in _held(data, state, current["player"], "dumbledore")
        ]
        return found
    if kind == "veritaserum":
        return [
            {"type": "take", "player": who, "tile": tile}
            for tile in sorted(state["tiles"][current["target"]])
        ]
    return [{"type": "choose", "player": who, "space": space} for space in current["options"]]


def _walks(
    data: dict[str, Any],
    state: State,
    seat: int,
    limit: int,
    mode: str,
    entered_from: str | None,
    who: str,
) -> list[Action]:
    """Advance or push-back paths: the shortest to each space within reach (and the steps on
    past taken spaces), kept when the rules accept them."""
    start = state["pieces"][seat]
    hidden = cloaked(state, seat)
    best = {start: []}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        route = best[here]
        if route and feature(data, here) == "obstacle" and not hidden:
            continue
        if len(route) >= limit + 4:
            continue
        for there in neighbours(data, here):
            if there in best or not is_path(data, there) or there == state["hedge"]:
                continue
            if not route and entered_from is not None:
                if (mode == "push") != (there == entered_from):
                    continue
            best[there] = route + [there]
            queue.append(there)
    kind = "advance" if mode == "advance" else "push_back"
    candidates = [{"type": kind, "player": who, "path": route} for route in best.values()]
    return _accepted(data, state, candidates, seat, limit, mode)


def _accepted(
    data: dict[str, Any], state: State, actions: list[Action], seat: int, limit: int, mode: str
) -> list[Action]:
    kept = []
    seen = set()
    for action in actions:
        try:
            walk = check_walk(
                data,
                state,
                seat,
                action["path"],
                limit,
                mode,
                reductor="reductor" in action,
                entered_from=state["fight"]["entered_from"] if state["fight"] else None,
            )
        except Refuse:
            continue
        if walk["end"] in seen:
            continue
        seen.add(walk["end"])
        kept.append(action)
    return kept
