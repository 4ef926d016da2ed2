"""The data sets a game of Triwizard can be played with, as the front keeps them: the bundled
invented example and the spec's test board Corridor K (loaded on first use), and the default."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from .constants import CUP_TILES, PIECES
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


def components(data: dict[str, Any]) -> dict[str, int]:
    """NFC stickers a box may carry: every Battle Card, Obstacle Card and Resource Tile of the
    set, the 4 Cup Tiles (tapped only on a flip or a peek, TW-AMB-31), the 4 playing pieces and
    the Invisibility Cloak piece (TW-COMP-2/3/5)."""
    stickers: dict[str, int] = {}
    for card in data["battle"]:
        stickers[f"battle {card}"] = 1
    for card in data["obstacles"]:
        stickers[f"obstacle {card}"] = 1
    for tile in data["tiles"]:
        stickers[f"tile {tile}"] = 1
    for identity in CUP_TILES:
        stickers[f"cup {identity}"] = 1
    for piece in range(1, PIECES + 1):
        stickers[f"piece {piece}"] = 1
    stickers["cloak"] = 1
    return stickers
