"""Dork Tower's rules core (``core``) and its data sets' loading and validation (``data``).

The rulebook leaves the map, the tower, the tables, the tokens, the cards and the characters to
what is printed on them; they come from a data set, validated when it is loaded
(``docs/dork-tower-data.md``). The bundled set is an invented example.
"""

from __future__ import annotations

from .core import DorkTower
from .data import DataError, load_dataset

__all__ = ["DataError", "DorkTower", "load_dataset"]
