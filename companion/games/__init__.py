"""The games: one package per game (``companion/games/<id>/``), and the registry that finds them.

``GAME_IDS`` lists the games the companion ships, in the project's order of priority; a game's
package is imported the first time that game is asked for (:func:`plugin`), never on import of
the registry (``docs/architecture.md`` says who asks for which game when). Adding a game is
writing its package and adding its id here (``docs/architecture.md``, "Adding a game"). Tests
register games of their own with :func:`register`.
"""

from __future__ import annotations

import importlib

from ..i18n import t
from ..plugin import Catalogs, GamePlugin, TableView
from ..rules import Game, SetupError

#: The games the companion ships, by id, in the project's order of priority.
GAME_IDS: tuple[str, ...] = ("abracadawhat", "dorktower", "triwizard")

_registered: dict[str, GamePlugin] = {}  # registered at run time (a test's own game)
_loaded: dict[str, GamePlugin] = {}


def ids() -> list[str]:
    """Every game's id: the shipped ones, then those registered at run time."""
    return [*GAME_IDS, *(game_id for game_id in _registered if game_id not in GAME_IDS)]


def plugin(game_id: str) -> GamePlugin:
    """The plug-in of the game ``game_id`` (its package imported now if it was not yet);
    :class:`SetupError` for an id no game has."""
    found = _registered.get(game_id) or _loaded.get(game_id)
    if found is not None:
        return found
    if game_id not in GAME_IDS:
        raise SetupError(
            t(
                "no game called {game} (known games: {known})",
                game=repr(game_id),
                known=", ".join(sorted(ids())),
            )
        )
    declared = importlib.import_module(f"{__name__}.{game_id}").PLUGIN
    if declared.id != game_id:
        raise RuntimeError(f"the package of game {game_id!r} declares {declared.id!r}")
    _loaded[game_id] = declared
    return declared


def plugins() -> list[GamePlugin]:
    """Every game's plug-in (each package imported if it was not yet)."""
    return [plugin(game_id) for game_id in ids()]


def loaded() -> list[GamePlugin]:
    """The plug-ins of the games imported so far (nothing is imported)."""
    return [
        found
        for game_id in ids()
        if (found := _registered.get(game_id) or _loaded.get(game_id)) is not None
    ]


def get_game(game_id: str) -> Game:
    """The rules core of the game ``game_id``."""
    return plugin(game_id).game


def games() -> list[Game]:
    """Every game's rules core, in the project's order of priority."""
    return [found.game for found in plugins()]


def register(found: GamePlugin | Game) -> GamePlugin:
    """Add a game at run time (a test's own game); a bare rules core gets the default parts.
    Undo it with :func:`unregister`."""
    if isinstance(found, Game):
        found = GamePlugin(found.id, found.title, __name__, rules=found, static=None)
    if found.id in ids():
        raise ValueError(f"a game with id {found.id!r} is already registered")
    _registered[found.id] = found
    return found


def unregister(game_id: str) -> None:
    _registered.pop(game_id, None)


__all__ = [
    "GAME_IDS",
    "Catalogs",
    "GamePlugin",
    "TableView",
    "games",
    "get_game",
    "ids",
    "loaded",
    "plugin",
    "plugins",
    "register",
    "unregister",
]
