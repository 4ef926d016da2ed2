"""The data sets a game of Triwizard can be played with, as the front keeps them: the bundled
invented example and the spec's test board Corridor K (loaded on first use), and the default."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from .data import load_dataset

BUNDLED = ("example", "corridor-k")


def data_directory() -> Path:
    """Where the bundled sets live."""
    return Path(__file__).resolve().parents[1] / "data"


@cache
def _load(name: str) -> dict[str, Any]:
    return load_dataset(data_directory() / name)


def bundled() -> dict[str, dict[str, Any]]:
    """The bundled sets by name: the example and Corridor K, loaded (and validated) on first use,
    not at import, so a mistake in one is reported like any data set's. Shared: read-only."""
    return {data["name"]: data for data in (_load(name) for name in BUNDLED)}


def default_name(datasets: dict[str, dict[str, Any]]) -> str:
    """The set new games use unless told otherwise: the example if there is one."""
    return "example" if "example" in datasets else next(iter(datasets))
