"""The contract every game's rules core implements (:mod:`.api`), and what rules cores share: the
refusal helpers and player lookups (:mod:`.common`) and the players' names (:mod:`.names`).

The rules cores themselves live in their games' packages (``companion/games/<id>/``); the
registry that finds them is :mod:`companion.games`. Nothing here names a game.
"""

from __future__ import annotations

from .api import (
    EVERYTHING,
    HOST,
    TABLE,
    Accepted,
    Action,
    Chance,
    Event,
    Game,
    Option,
    Outcome,
    Refusal,
    Result,
    SetupError,
    State,
)

__all__ = [
    "EVERYTHING",
    "HOST",
    "TABLE",
    "Accepted",
    "Action",
    "Chance",
    "Event",
    "Game",
    "Option",
    "Outcome",
    "Refusal",
    "Result",
    "SetupError",
    "State",
]
