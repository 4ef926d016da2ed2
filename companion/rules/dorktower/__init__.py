"""Dork Tower: the rules core (``core``) and its data sets (``data``).

The rulebook leaves the map, the tower, the tables, the tokens, the cards and the characters to
what is printed on them; they come from a data set, validated when it is loaded
(``docs/dork-tower-data.md``). The bundled set is an invented example.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .core import DorkTower
from .data import DataError, load_dataset


def use_dataset(directory: str | Path) -> dict[str, Any]:
    """Load and validate the data set in ``directory`` and make it the registered game's default.

    Raises :class:`DataError` (naming the file, the place and the problem) when it is wrong."""
    from .. import get_game

    data = load_dataset(Path(directory))
    get_game("dorktower").add_dataset(data, default=True)
    return data


__all__ = ["DataError", "DorkTower", "load_dataset", "use_dataset"]
