"""Shared helpers for the table-layer tests (not a test module).

States are built with the real rules core, so every mapping and renderer is exercised against the
states the table really meets. ``tapped_deal`` deals a two-player round stone by stone with known
stones and tags, so a test knows which tag lies where.
"""

from __future__ import annotations

from typing import Any

from companion.games import get_game
from companion.rules import Accepted

GAME = get_game("abracadawhat")
ANN, BEN = "Ann", "Ben"
PLAYERS = [ANN, BEN]

# A two-player deal in the order the companion asks for the stones (ABR-SETUP-5, -7, -8):
# Ann's rack, Ben's rack, the twelve stones removed face up, then the four secret stones.
ANN_RACK = [2, 4, 5, 7, 8]
BEN_RACK = [3, 4, 6, 7, 8]
REMOVED = [1, 2, 3, 5, 5, 5, 6, 6, 6, 7, 7, 8]
SECRET = [4, 6, 7, 8]
DEAL_ORDER = ANN_RACK + BEN_RACK + REMOVED + SECRET


def uid(n: int) -> str:
    """A valid 4-byte tag UID, distinct for every ``n``."""
    return f"04{n:06X}"


def play(state: dict[str, Any], *actions: dict[str, Any]) -> dict[str, Any]:
    """Apply actions that must all be accepted; return the final state."""
    for action in actions:
        result = GAME.apply(state, action)
        assert isinstance(result, Accepted), f"{action} was refused: {result}"
        state = result.state
    return state


def new_game(**options: Any) -> dict[str, Any]:
    return GAME.new(PLAYERS, options, seed=11)


def tapped_deal(**options: Any) -> dict[str, Any]:
    """A new two-player game whose first round was dealt by tapping tags ``uid(0)``, ``uid(1)``…

    The stones go where ``DEAL_ORDER`` says; Ann is the active player afterwards."""
    state = new_game(**options)
    for n, stone in enumerate(DEAL_ORDER):
        state = play(state, {"type": "deal_stone", "stone": stone, "tag": uid(n)})
    assert state["phase"] == "declare" and state["active"] == 0
    return state


def sampled_deal(**options: Any) -> dict[str, Any]:
    """A new two-player game whose first round was dealt by the core's own sampler."""
    state = new_game(**options)
    return play(state, GAME.sample(state))


def tag_at(state: dict[str, Any], where: str, stone: int | None = None) -> str:
    """A tag the state places at ``where`` (e.g. ``"rack:0"``, ``"secret:2"``)."""
    for tag, (place, number) in sorted(state["tags"].items()):
        if place == where and stone in (None, number):
            return tag
    raise AssertionError(f"no tag at {where} with stone {stone}")
