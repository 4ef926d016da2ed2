"""The stickers a Triwizard box holds, by the tag registry's names (pure: from the loaded data
set alone): the 4 playing pieces and the Cloak, every Battle Card, Obstacle Card and Resource
Tile, the 4 Cup Tiles by what they are (tapped only when one is flipped or peeked, never at
set-up: TW-AMB-31), and, for a maker who stickers the board, every Path space.

A name is ``"<kind> <value>"`` (or the Cloak's ``"cloak"``) in lower case with single spaces,
as the registry keeps it (``"piece 2"``, ``"battle red-5-3"``, ``"obstacle o03"``, ``"tile r12"``,
``"cup headstone-1"``, ``"space k5"``); :func:`ids_by_name` maps a value back to the data set's
own id (``"K5"``).
"""

from __future__ import annotations

from typing import Any

from .constants import CUP_TILES
from .datasets import components as dataset_components

CUP_IDENTITIES = CUP_TILES  #: TW-COMP-2


def sticker_name(kind: str, value: Any) -> str:
    """The registry's name of the sticker of ``kind`` on the component ``value``."""
    return " ".join(f"{kind} {value}".lower().split())


def components(data: dict[str, Any]) -> dict[str, int]:
    """Sticker name -> how many the box holds: the components of the set
    (:func:`.datasets.components`: cards, tiles, Cup Tiles, pieces, the Cloak) and every Path
    space of the maze, in the registry's lower case."""
    box = {
        sticker_name(*name.split(" ", 1)) if " " in name else name: n
        for name, n in dataset_components(data).items()
    }
    for space, cell in data["board"]["spaces"].items():
        if cell["kind"] == "path":
            box[sticker_name("space", space)] = 1
    return box


def ids_by_name(data: dict[str, Any]) -> dict[str, dict[str, str]]:
    """For each kind of sticker, the value in its name -> the data set's id (``{"space":
    {"k5": "K5"}, ...}``): the registry keeps names in lower case, the data set may not."""

    def lower(ids: Any) -> dict[str, str]:
        return {" ".join(str(i).lower().split()): str(i) for i in ids}

    return {
        "battle": lower(data["battle"]),
        "obstacle": lower(data["obstacles"]),
        "tile": lower(data["tiles"]),
        "cup": lower(CUP_IDENTITIES),
        "space": lower(data["board"]["spaces"]),
    }
