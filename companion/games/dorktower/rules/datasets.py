"""The data sets a game of Dork Tower can be played with, as the front keeps them: the bundled
example (loaded on first use), the default set and the stickers its box holds."""

from __future__ import annotations

from typing import Any


def bundled() -> dict[str, dict[str, Any]]:
    """The bundled example, by name. It is loaded (and validated) on first use, not at import,
    so a mistake in it is reported like any data set's, not as a crash."""
    from .data import example_dataset

    data = example_dataset()
    return {data["name"]: data}


def default_name(datasets: dict[str, dict[str, Any]]) -> str:
    """The set new games use unless told otherwise: the example if there is one."""
    return "example" if "example" in datasets else next(iter(datasets))


def components(data: dict[str, Any]) -> dict[str, int]:
    """NFC stickers: the tower, every encounter token kind, item card and scroll card, and
    (where a maker stickers the board) every space."""
    stickers = {"tower": 1}
    for space in data["spaces"]:
        stickers[f"space {space}"] = 1
    for token in data["tokens"].values():
        stickers[f"token {token['id']}"] = token["count"]
    for card in data["items"]:
        stickers[f"item {card}"] = 1
    for card in data["scrolls"]:
        stickers[f"scroll {card}"] = 1
    return stickers
