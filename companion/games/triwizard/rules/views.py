"""What each viewer may see of a Triwizard state (``view``), a state a viewer cannot tell apart
from it (``indistinguishable``), and the outcome.

Hidden: Battle Cards and Resource Tiles in hand (their owner's), the draw piles' contents, what a
Four Point Spell showed (the caster's, TW-AMB-31), the tiles Veritaserum shows (the caster's
phone only, TW-AMB-21), and the reachable spaces (the mover's: they may name a Reductor in hand).
TABLE and HOST see no secret; EVERYTHING sees all."""

from __future__ import annotations

import random
from typing import Any

from companion.rules.api import EVERYTHING, HOST, TABLE, Outcome, State

from .battles import push_limit
from .chance import awaited
from .derived import derived
from .numbers import GAME_ID, SLOTS
from .prompts import prompt, waiting_names
from .state import copy_json, interrupt, right_of
from .walking import reach


def _card(data: dict[str, Any], card: str) -> dict[str, Any]:
    colour, strength, movement = derived(data)["cards"][card]
    return {"card": card, "colour": colour, "strength": strength, "movement": movement}


def _tile(data: dict[str, Any], tile: str) -> dict[str, Any]:
    return {"tile": tile, "kind": derived(data)["kinds"][tile]}


def _lineup(data: dict[str, Any], index: int, slot: dict[str, Any]) -> dict[str, Any]:
    card = derived(data)["obstacles"].get(slot["card"]) if slot["card"] and slot["up"] else None
    if card is None:
        return _face_down(index)
    return {
        "position": index + 1,
        "card": slot["card"],
        "face_up": True,
        "colours": list(card[0]),
        "strength": card[1],
        "reward": card[2],
    }


def _face_down(index: int) -> dict[str, Any]:
    return {
        "position": index + 1,
        "card": None,
        "face_up": False,
        "colours": [],
        "strength": None,
        "reward": None,
    }


def _players(
    known: dict[str, Any], state: State, everything: bool, own: int | None
) -> dict[str, Any]:
    cards, kinds = known["cards"], known["kinds"]
    pieces, hands, tiles = state["pieces"], state["hands"], state["tiles"]
    cloak, uncleared = state["cloak"], state["uncleared"]
    players = {}
    for seat, name in enumerate(state["players"]):
        sees = everything or own == seat
        hand, held = hands[seat], tiles[seat]
        players[name] = {
            "seat": seat,
            "piece": seat + 1,
            "space": pieces[seat],
            "cloaked": cloak == seat,
            "hand_count": len(hand),
            "tile_count": len(held),
            "uncleared": seat in uncleared,
            "hand": [_card_view(card, cards[card]) for card in hand] if sees else None,
            "tiles": [{"tile": tile, "kind": kinds[tile]} for tile in held] if sees else None,
        }
    return players


def _card_view(card: str, info: tuple[str, int, int]) -> dict[str, Any]:
    return {"card": card, "colour": info[0], "strength": info[1], "movement": info[2]}


def _cups(
    known: dict[str, Any], state: State, everything: bool, own: int | None
) -> list[dict[str, Any]]:
    declared = state["options"].get("maze") == "declared"
    peeks = state["peeks"]
    faces = state["cups"]
    cups = []
    for slot, space in zip(SLOTS, known["cup_spaces"]):
        seen = None
        for peek in peeks:
            if peek["slot"] == slot and (everything or peek["seat"] == own):
                seen = peek["tile"]
        cups.append(
            {
                "slot": slot,
                "space": f"cup:{slot}" if declared else space,
                "face_up": faces[slot],
                "peeked": seen,
            }
        )
    return cups


def _lineup_views(
    obstacles: dict[str, tuple], lineup: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], int | None]:
    """The Lineup as shown, and the position of its first face-up card (the current one)."""
    shown = []
    current = None
    for index, slot in enumerate(lineup):
        card = slot["card"]
        if card and slot["up"]:
            if current is None:
                current = index + 1
            info = obstacles.get(card)
            if info is not None:
                shown.append(
                    {
                        "position": index + 1,
                        "card": card,
                        "face_up": True,
                        "colours": list(info[0]),
                        "strength": info[1],
                        "reward": info[2],
                    }
                )
                continue
        shown.append(_face_down(index))
    return shown, current


def view(data: dict[str, Any], state: State, viewer: str) -> dict[str, Any]:
    names = state["players"]
    if viewer not in (TABLE, HOST, EVERYTHING) and viewer not in names:
        raise ValueError(f"unknown viewer {viewer!r}")
    everything = viewer == EVERYTHING
    own = names.index(viewer) if viewer in names else None
    known = derived(data)
    players = _players(known, state, everything, own)
    cups = _cups(known, state, everything, own)
    pile = state["obstacle_pile"]
    lineup, current_position = _lineup_views(known["obstacles"], pile["lineup"])
    fight = state["fight"]
    fight_view = None
    if fight is not None:
        entry = pile["lineup"][fight["obstacle"] - 1] if fight["obstacle"] else None
        obstacle = _lineup(data, fight["obstacle"] - 1, entry) if entry else None
        fight_view = {
            "player": names[fight["seat"]],
            "space": fight["space"],
            "obstacle": obstacle,
            "card": _card(data, fight["card"]) if fight["card"] else None,
            "rolls": list(fight["rolls"]),
            "total": fight["total"],
            "strength": obstacle["strength"] if obstacle else None,
            "result": fight["result"],
        }
    ts = state["turn_state"]
    active = state["active"]
    phase = state["phase"]
    mover = active is not None and phase == "moving" and (everything or own == active)
    reach_view = None
    if mover and not state["interrupts"] and state["options"].get("maze") != "declared":
        reductors = (
            []
            if ts["tile_played"]
            else sorted(
                x for x in state["tiles"][active] if data["tiles"][x]["kind"] == "reductor"
            )[:1]
        )
        reach_view = reach(data, state, active, ts["allowance"], reductors)
    current = interrupt(state)
    interrupt_view = None
    veritaserum = None
    if current is not None:
        interrupt_view = {"kind": current["kind"], "player": names[current["player"]]}
        if current["kind"] == "dumbledore":
            interrupt_view["by"] = names[current["by"]]
        elif current["kind"] == "veritaserum":
            interrupt_view["target"] = names[current["target"]]
            if everything or own == current["player"]:
                veritaserum = [_tile(data, x) for x in state["tiles"][current["target"]]]
        elif current["kind"] == "choose":
            interrupt_view["options"] = list(current["options"])
            interrupt_view["piece"] = names[current["seat"]]
    step = awaited(state)
    result: dict[str, Any] = {
        "game": GAME_ID,
        "viewer": viewer,
        "phase": phase,
        "prompt": prompt(data, state, step),
        "order": list(names),
        "active": names[active] if active is not None else None,
        "waiting_for": waiting_names(state, step),
        "finished": phase == "over",
        "winners": [names[state["winner"]]] if state["winner"] is not None else [],
        "players": players,
        "turn": state["turn"],
        "data_set": data["name"],
        "example": bool(data.get("example")),
        "cloak": names[state["cloak"]] if state["cloak"] is not None else None,
        "hedge": state["hedge"],
        "cups": cups,
        "lineup": lineup,
        "current": current_position,
        "piles": {
            "battle": len(state["battle_pile"]["deck"]),
            "battle_discard": len(state["battle_pile"]["discard"]),
            "tiles": len(state["tile_pile"]["deck"]),
            "tiles_discard": len(state["tile_pile"]["discard"]),
            "obstacles": len(pile["deck"]),
            "obstacles_discard": len(pile["discard"]),
        },
        "turn_state": {
            "roll": ts["roll"],
            "allowance": ts["allowance"],
            "card_played": ts["card_played"],
            "tile_played": ts["tile_played"],
            "path": list(ts["path"]),
        },
        "fight": fight_view,
        "reach": reach_view,
        "push_back": {
            "by": names[right_of(state, active)],
            "max": push_limit(data, state),
            "from": fight["space"],
        }
        if phase == "push_back"
        else None,
        "advance": {"max": data["battle"][fight["card"]]["movement"]}
        if phase == "advance"
        else None,
        "interrupt": interrupt_view,
        "veritaserum": veritaserum,
        "awaiting": _public_awaiting(step),
        "die": list(known["faces"]),
        "deadline": None,
        "options": _options(state["options"], everything),
    }
    if everything:
        result["decks"] = {
            "battle": list(state["battle_pile"]["deck"]),
            "tiles": list(state["tile_pile"]["deck"]),
            "obstacles": list(pile["deck"]),
        }
        result["peeks"] = [dict(peek, player=names[peek["seat"]]) for peek in state["peeks"]]
    return result


_SHOWN: list[Any] = [None, {}]  # the last options shown and their public part


def _options(options: dict[str, Any], everything: bool) -> dict[str, Any]:
    """The options as a view shows them: the arranged start only to the referee, the data's
    fingerprint never (it is the state's). A game's options never change, so the public part of
    the last ones asked about is kept."""
    if everything:
        return {key: value for key, value in options.items() if key != "data_fingerprint"}
    if _SHOWN[0] is not options:
        _SHOWN[1] = {
            key: value
            for key, value in options.items()
            if key not in ("scenario", "data_fingerprint")
        }
        _SHOWN[0] = options
    return dict(_SHOWN[1])


def _public_awaiting(step: dict[str, Any] | None) -> dict[str, Any] | None:
    """The awaited chance step, as everyone may see it (``chance.awaited``'s, names given)."""
    if step is None:
        return None
    public = {"kind": step["kind"], "why": step.get("why"), "player": step.get("player")}
    # all public: the Cup Tile to flip or peek at, whom Red Sparks draws from, how many cards
    # or tiles this player draws in a row (a phone's draw picker says them)
    for key in ("slot", "from"):
        if key in step:
            public[key] = step[key]
    if step["kind"] in ("card", "tile"):
        public["left"] = step["left"]
    return public


def indistinguishable(data: dict[str, Any], state: State, viewer: str, rng: random.Random) -> State:
    """Everything ``viewer`` cannot see dealt anew: other players' hands and tiles (same sizes)
    with the draw piles, and other players' peeks among the Cup identities the viewer has not
    seen."""
    names = state["players"]
    if viewer not in (TABLE, HOST, EVERYTHING) and viewer not in names:
        raise ValueError(f"unknown viewer {viewer!r}")
    new = copy_json(state)
    if viewer == EVERYTHING:
        return new
    own = names.index(viewer) if viewer in names else None
    keep_tiles = set()
    if own is not None:
        keep_tiles.add(own)
        current = interrupt(state)
        for entry in state["interrupts"]:
            if entry["kind"] == "veritaserum" and entry["player"] == own:
                keep_tiles.add(entry["target"])
        del current
    others = [seat for seat in range(len(names)) if seat != own]
    _redeal(new, "hands", "battle_pile", others, rng)
    _redeal(new, "tiles", "tile_pile", [s for s in others if s not in keep_tiles], rng)
    mine = [peek for peek in new["peeks"] if peek["seat"] == own]
    theirs = [peek for peek in new["peeks"] if peek["seat"] != own]
    if theirs:
        seen = {tile for tile in new["cups"].values() if tile} | {p["tile"] for p in mine}
        slots_mine = {p["slot"] for p in mine}
        free = [
            tile
            for tile in ("cup", "headstone-1", "headstone-2", "headstone-3")
            if tile not in seen
        ]
        rng.shuffle(free)
        slots = sorted({p["slot"] for p in theirs if p["slot"] not in slots_mine})
        assigned = dict(zip(slots, free))
        for peek in theirs:
            if peek["slot"] in slots_mine:
                peek["tile"] = next(p["tile"] for p in mine if p["slot"] == peek["slot"])
            else:
                peek["tile"] = assigned[peek["slot"]]
    return new


def _redeal(
    new: State, hands_key: str, pile_key: str, seats: list[int], rng: random.Random
) -> None:
    pile = new[pile_key]
    pool = list(pile["deck"])
    for seat in seats:
        pool += new[hands_key][seat]
    rng.shuffle(pool)
    for seat in seats:
        size = len(new[hands_key][seat])
        new[hands_key][seat] = pool[:size]
        pool = pool[size:]
    pile["deck"] = sorted(pool)


def outcome(state: State) -> Outcome:
    """TW-END-2/3: the one who flipped the Cup wins; there is no score."""
    if state["phase"] != "over":
        return Outcome(False)
    return Outcome(True, (state["players"][state["winner"]],))
