"""What Dork Tower waits for from the world: dice and blind draws (tokens from the bowl, item and
scroll cards), first in first out in ``state["pending"]``, and their seeded resolution."""

from __future__ import annotations

import random
from typing import Any

from companion.rules.api import Action, Chance, State
from companion.rules.common import name_of as _name

from .constants import DIE


def chance(state: State) -> Chance | None:
    """What chance step the game waits for: a die roll or a blind draw, and who makes it."""
    if state["phase"] == "over":
        return None
    if state["phase"] == "start_roll":  # DT-SETUP-6
        start = state["start"]
        seat = next(seat for seat in start["rolling"] if str(seat) not in start["rolls"])
        return Chance(
            "die", "DT-SETUP-6", player=_name(state, seat), profile="d6", faces=DIE, dice=2
        )
    if not state["pending"]:
        return None
    chance_step = state["pending"][0]
    who = _name(state, chance_step["player"]) if chance_step.get("player") is not None else None
    if chance_step["kind"] == "die":
        rule = {"combat": "DT-COMBAT-7", "treasure": "DT-REWARD-2", "quest": "DT-QUEST-6"}[
            chance_step["why"]
        ]
        return Chance("die", rule, player=who, profile="d6", faces=DIE, dice=chance_step["dice"])
    rule = {"token": "DT-ENC-3", "item": "DT-CARD-5", "scroll": "DT-CARD-6"}[chance_step["kind"]]
    if chance_step["why"] == "wizard":
        rule = "DT-WIZ-1"
    elif chance_step["why"] == "shop":
        rule = "DT-CITY-2"
    elif chance_step["why"] == "setup":
        rule = "DT-SETUP-5"
    return Chance("draw", rule, player=who)


def awaited(state: State) -> dict[str, Any] | None:
    """The pending chance step in full (what to draw, which face, for whom, why)."""
    if state["phase"] == "start_roll":
        start = chance(state)
        return {"kind": "die", "why": "start", "player": start.player, "dice": 2}
    if not state["pending"]:
        return None
    chance_step = dict(state["pending"][0])
    chance_step["left"] = sum(
        1
        for entry in state["pending"]
        if entry["kind"] == chance_step["kind"] and entry.get("player") == chance_step.get("player")
    )  # draws of this kind in a row
    if chance_step.get("player") is not None:
        chance_step["player"] = _name(state, chance_step["player"])
    return chance_step


def sample(state: State) -> Action:
    """The awaited chance step, resolved from the state's own seed and count of chance steps."""
    rng = random.Random(f"{state['seed']}/{state['chance_n']}")
    waiting = awaited(state)
    if waiting is None:
        raise ValueError("the game is not waiting for chance")
    if waiting["kind"] == "die":
        return {"type": "roll", "values": [rng.choice(DIE) for _die in range(waiting["dice"])]}
    if waiting["kind"] == "token":
        pool = [token for token, count in sorted(state["bowl"].items()) for _copy in range(count)]
        if not pool:
            raise ValueError("the bowl is empty")
        return {"type": "draw_token", "token": rng.choice(pool)}
    deck = "items" if waiting["kind"] == "item" else "scrolls"
    cards = state[deck]["deck"] or state[deck]["discard"]
    card = rng.choice(sorted(cards))
    if waiting["kind"] == "item":
        return {"type": "draw_item", "card": card}
    return {"type": "draw_scroll", "scroll": card}
