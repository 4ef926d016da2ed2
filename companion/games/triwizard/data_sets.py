"""The Triwizard Maze Game's data sets as the plug-in offers them: the maze, the cards, the
tiles and the die printed on the game's components (``docs/triwizard-data.md``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .rules.data import DataError, load_dataset, localised, words


class TriwizardDataSets:
    """Load a data set, make it the default for new games, check the bundled ones."""

    error = DataError

    def _game(self) -> Any:
        """The plug-in's game, which keeps the data sets (imported late: the plug-in imports
        this module)."""
        from . import PLUGIN  # type: ignore[attr-defined]

        return PLUGIN.game

    def load(self, directory: str | Path) -> dict[str, Any]:
        """The data set in ``directory``, validated (:class:`DataError` names the file, the place
        and the problem when it is wrong)."""
        return load_dataset(Path(directory))

    def use(self, directory: str | Path) -> dict[str, Any]:
        """Load the data set in ``directory`` and make it the default of new games."""
        data = self.load(directory)
        self._game().add_dataset(data, default=True)
        return data

    def names(self) -> list[str]:
        """The data sets a new game may choose, by name."""
        return sorted(self._game().datasets)

    def default(self) -> str:
        """The data set new games use unless told otherwise."""
        return self._game().default_set

    def get(self, name: str) -> dict[str, Any] | None:
        """The data set ``name`` in its loaded form; None if there is none of that name."""
        return self._game().datasets.get(name)

    def localised(self, name: str, lang: str) -> dict[str, Any] | None:
        """The data set ``name`` for a page in ``lang``: its title in ``lang`` where its
        ``<lang>.json`` gives one, ``labels`` (the names of colours, tile kinds, features, cell
        kinds and Cup Tiles) and ``words``; None if there is no set of that name."""
        data = self.get(name)
        return None if data is None else localised(data, lang)

    def words(self, lang: str) -> dict[str, str]:
        """English name -> its ``lang`` name over every data set (the default's winning): what
        the rules' texts naming a tile kind or a space are translated with."""
        game = self._game()
        out: dict[str, str] = {}
        for name in sorted(game.datasets, key=lambda name: name == game.default_set):
            out.update(words(game.datasets[name], lang))
        return out

    def check_default(self) -> None:
        """Load the bundled sets now (they are validated on first use), so a mistake in one
        stops the start like any data set's."""
        self._game().datasets
