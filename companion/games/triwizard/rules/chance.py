"""What the Triwizard Maze waits for from the world: dice and blind draws (battle cards,
resource tiles, obstacle cards, a Cup Tile's face at a flip or a peek, a tile stolen blind),
first in first out in ``state["pending"]``; and their seeded resolution (``sample``).

The movement roll is not a pending step: in ``open`` the active player may still swap the hand,
try to remove the Cloak or play a tile, so the die is awaited there alongside those choices."""

from __future__ import annotations

import random
from typing import Any

from companion.rules.api import Action, Chance, State
from companion.rules.common import name_of as _name

from .state import cloaked, unseen_cups

DIE_RULES = {
    "move": "TW-TURN-2",
    "battle": "TW-BATTLE-4",
    "reroll": "TW-RES-DDIE-1",
    "removal": "TW-CLOAK-6",
    "tie": "TW-SETUP-10",
}
DRAW_RULES = {
    ("card", "deal"): "TW-SETUP-8",
    ("card", "refill"): "TW-TURN-1",
    ("card", "swap"): "TW-TURN-7",
    ("tile", "deal"): "TW-SETUP-6",
    ("tile", "mist"): "TW-MIST-1",
    ("tile", "reward"): "TW-BATTLE-WIN-2",
}


def movement_roll_awaited(state: State) -> bool:
    """The movement roll (TW-TURN-2) is awaited in ``open``, unless the piece stands on an
    uncleared obstacle (TW-AMB-10) or an interrupt waits."""
    seat = state["active"]
    return (
        state["phase"] == "open"
        and not state["pending"]
        and not state["interrupts"]
        and not (seat in state["uncleared"] and not cloaked(state, seat))
    )


def awaited(state: State) -> dict[str, Any] | None:
    """The pending chance step in full, with the player's name (None when none waits)."""
    if state["phase"] == "over" or state["interrupts"]:
        return None
    if state["pending"]:
        first = state["pending"][0]
        step = dict(first)
        left = 0
        for entry in state["pending"]:
            if entry["kind"] != first["kind"] or entry.get("player") != first.get("player"):
                break
            left += 1
        step["left"] = left  # the draws of this kind for this player in a row
        if step.get("player") is not None:
            step["player"] = _name(state, step["player"])
        if "from" in step:
            step["from"] = _name(state, step["from"])
        return step
    if movement_roll_awaited(state):
        return {"kind": "die", "why": "move", "player": _name(state, state["active"])}
    return None


def chance(data: dict[str, Any], state: State) -> Chance | None:
    step = awaited(state)
    if step is None:
        return None
    who = step.get("player")
    if step["kind"] == "die":
        return Chance(
            "die",
            DIE_RULES[step["why"]],
            player=who,
            profile=data["die"].get("profile", "triwizard"),
            faces=tuple(data["die"]["faces"]),
        )
    if step["kind"] in ("card", "tile"):
        return Chance("draw", DRAW_RULES.get((step["kind"], step["why"]), "TW-RES-3"), player=who)
    rule = {
        "obstacle": "TW-SETUP-9",
        "cup": "TW-CUP-2",
        "peek": "TW-RES-4PT-1",
        "steal": "TW-RES-SPARK-1",
    }[step["kind"]]
    if step["kind"] == "obstacle" and state["turn"] > 0:
        rule = "TW-OCARD-4"
    return Chance("draw", rule, player=who)


def _from_pile(pile: dict[str, Any]) -> list[str]:
    return pile["deck"] or pile["discard"]


def sample(data: dict[str, Any], state: State) -> Action:
    """The awaited chance step, resolved from the state's own seed and count of chance steps."""
    step = awaited(state)
    if step is None:
        raise ValueError("the game is not waiting for chance")
    rng = random.Random(f"{state['seed']}/{state['chance_n']}")
    kind = step["kind"]
    if kind == "die":
        action = {"type": "roll", "value": rng.choice(list(data["die"]["faces"]))}
        if step.get("player") is not None:
            action["player"] = step["player"]
        return action
    if kind == "card":
        return {
            "type": "draw_card",
            "player": step["player"],
            "card": rng.choice(sorted(_from_pile(state["battle_pile"]))),
        }
    if kind == "tile":
        tiles = sorted(_from_pile(state["tile_pile"]))
        return {  # TW-AMB-24: both piles empty, the draw gives nothing
            "type": "draw_tile",
            "player": step["player"],
            "tile": rng.choice(tiles) if tiles else None,
        }
    if kind == "obstacle":
        return {
            "type": "reveal_obstacle",
            "card": rng.choice(sorted(_from_pile(state["obstacle_pile"]))),
        }
    if kind == "cup":
        from .state import peeked

        tile = peeked(state, step["slot"]) or rng.choice(unseen_cups(state, step["slot"]))
        return {"type": "flip_cup", "slot": step["slot"], "tile": tile}
    if kind == "peek":
        from .state import peeked

        tile = peeked(state, step["slot"]) or rng.choice(unseen_cups(state, step["slot"]))
        return {"type": "peek", "player": step["player"], "slot": step["slot"], "tile": tile}
    victim = state["players"].index(step["from"])
    return {
        "type": "steal",
        "player": step["player"],
        "tile": rng.choice(sorted(state["tiles"][victim])),
    }
