"""Rules cores: one pure module per game, and the registry that finds them by id.

Every game implements :class:`companion.rules.api.Game`. Registering a game here is all it takes for
the table, the replay tool and the hidden-information tests to know it.
"""

from __future__ import annotations

from ..i18n import t
from .abracadawhat import AbracadaWhat
from .dorktower import DorkTower
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

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    if game.id in _GAMES:
        raise ValueError(f"a game with id {game.id!r} is already registered")
    _GAMES[game.id] = game
    return game


def get_game(game_id: str) -> Game:
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(_GAMES))
        raise SetupError(t("no game called {game} (known games: {known})", game=repr(game_id),
                           known=known)) from None


def games() -> list[Game]:
    """Every registered game, in the project's order of priority."""
    return list(_GAMES.values())


register(AbracadaWhat())
register(DorkTower())

__all__ = [
    "EVERYTHING", "HOST", "TABLE", "Accepted", "Action", "Chance", "Event", "Game", "Option",
    "Outcome", "Refusal", "Result", "SetupError", "State", "get_game", "games", "register",
]
