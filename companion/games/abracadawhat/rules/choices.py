"""Choices and chance: the actions the players can take now, the chance step the game waits for
(the deal, the die, the draw), and that step resolved from the state's seed."""

from __future__ import annotations

import random

from companion.rules.api import Action, Chance, State
from companion.rules.common import name_of

from .stones import NUMBERS, RACK_SIZE, REMOVED_FOR, SECRET_STONES, STONE_SET


def legal_actions(state: State) -> list[Action]:
    phase = state["phase"]
    if chance(state) is not None or phase == "over":
        return []
    active = name_of(state, state["active"])
    if phase == "declare":
        actions: list[Action] = [
            {"type": "cast", "player": active, "spell": spell} for spell in NUMBERS
        ]
        if state["successes"] >= 1:
            actions.append({"type": "end_turn", "player": active})
        return actions
    if phase == "remove":
        return [{"type": "remove", "stone": state["pending"]["spell"]}]
    if phase == "secret":
        return [
            {"type": "take_secret", "player": active, "slot": slot}
            for slot, stone in enumerate(state["secret"])
            if stone is not None
        ] + [{"type": "decline_secret", "player": active}]
    if phase == "objection":
        return [
            {"type": kind, "player": player}
            for player in state["players"]
            if player != active
            for kind in ("object", "allow")
        ]
    return []


def chance(state: State) -> Chance | None:
    phase = state["phase"]
    if phase == "deal":
        return Chance("deal", "ABR-SETUP-5")
    if phase == "roll":
        rule = (
            "ABR-CAST-3"
            if state["pending"]["for"] == "failure"
            else f"ABR-SPELL-{state['pending']['spell']}"
        )
        faces = tuple(state["options"]["die_faces"])
        return Chance(
            "die",
            rule,
            player=name_of(state, state["active"]),
            profile="d6" if faces == (1, 2, 3, 4, 5, 6) else "custom",
            faces=faces,
        )
    if phase == "refill":
        return Chance("draw", "ABR-ENDT-4", player=name_of(state, state["active"]))
    return None


def sample(state: State) -> Action:
    rng = random.Random(f"{state['seed']}/{state['chance_n']}")
    kind = chance(state)
    if kind is None:
        raise ValueError("the game is not waiting for chance")
    if kind.kind == "die":
        return {"type": "roll", "value": rng.choice(state["options"]["die_faces"])}
    if kind.kind == "draw":
        return {
            "type": "refill",
            "player": kind.player,
            "stones": sorted(rng.sample(state["reserve"], state["refill_left"])),
        }
    if state["dealt"]:
        return {"type": "deal_stone", "stone": rng.choice(state["reserve"])}
    pool = list(STONE_SET)
    rng.shuffle(pool)
    racks = {}
    for player in state["players"]:
        racks[player], pool = sorted(pool[:RACK_SIZE]), pool[RACK_SIZE:]
    removed_count = REMOVED_FOR[len(state["players"])]
    return {
        "type": "deal",
        "racks": racks,
        "removed": sorted(pool[:removed_count]),
        "secret": pool[removed_count : removed_count + SECRET_STONES],
    }
