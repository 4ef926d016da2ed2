"""The Triwizard Maze Game's rules core: pure, JSON state, data sets loaded and validated."""

from __future__ import annotations

from .data import DataError, load_dataset

__all__ = ["DataError", "load_dataset"]
