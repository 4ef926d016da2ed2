"""Dork Tower's data sets as the plug-in offers them: the map, the tower, the tables, the tokens,
the cards and the characters printed on the game's components (``docs/dork-tower-data.md``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .rules import DataError, load_dataset
from .rules.data.languages import localised, words


class DorkTowerDataSets:
    """Load a data set, make it the default for new games, check the bundled one."""

    error = DataError

    def load(self, directory: str | Path) -> dict[str, Any]:
        """The data set in ``directory``, validated (:class:`DataError` names the file, the place
        and the problem when it is wrong)."""
        return load_dataset(Path(directory))

    def use(self, directory: str | Path) -> dict[str, Any]:
        """Load the data set in ``directory`` and make it the default of new games: its stickers
        are the ones the tag registry expects."""
        from . import PLUGIN

        data = self.load(directory)
        PLUGIN.game.add_dataset(data, default=True)
        return data

    def names(self) -> list[str]:
        """The data sets a new game may choose, by name."""
        from . import PLUGIN

        return sorted(PLUGIN.game.datasets)

    def default(self) -> str:
        """The data set new games use unless told otherwise."""
        from . import PLUGIN

        return PLUGIN.game.default_set

    def get(self, name: str) -> dict[str, Any] | None:
        """The data set ``name``, normalised; None if there is none of that name."""
        from . import PLUGIN

        return PLUGIN.game.datasets.get(name)

    def localised(self, name: str, lang: str) -> dict[str, Any] | None:
        """The data set ``name`` with its names and texts in ``lang`` where it translates them
        (its ``<lang>.json``), and ``words`` for the ids a page shows as words; None if there
        is no set of that name."""
        data = self.get(name)
        return None if data is None else localised(data, lang)

    def words(self, lang: str) -> dict[str, str]:
        """English name or text -> its ``lang`` translation, over every data set (the default's
        winning): what the texts of the rules naming an item or a space are translated with."""
        from . import PLUGIN

        game = PLUGIN.game
        out: dict[str, str] = {}
        for name in sorted(game.datasets, key=lambda name: name == game.default_set):
            out.update(words(game.datasets[name], lang))
        return out

    def check_default(self) -> None:
        """Load the bundled example now (it is validated on first use), so a mistake in it stops
        the start like any data set's."""
        from . import PLUGIN

        PLUGIN.game.datasets
