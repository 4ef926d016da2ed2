"""The stickers a Triwizard box holds, by the tag registry's names (pure: from the loaded data
set alone): the 4 playing pieces, every Battle Card, Obstacle Card and Resource Tile, the 4 Cup
Tiles by what they are (tapped only when one is flipped or peeked, never at set-up: TW-AMB-31),
and, for a maker who stickers the board, every Path space.

A name is ``"<kind> <value>"`` in lower case with single spaces, as the registry keeps it
(``"piece 2"``, ``"battle red-5-3"``, ``"obstacle o03"``, ``"tile r12"``, ``"cup headstone-1"``,
``"space k5"``); :func:`ids_by_name` maps a value back to the data set's own id (``"K5"``).
"""

from __future__ import annotations

from typing import Any

from .constants import CUP_TILES

PIECES = 4  #: TW-COMP-3
CUP_IDENTITIES = CUP_TILES  #: TW-COMP-2
#: the kinds of sticker, in the order the registry lists them
KINDS = ("piece", "battle", "obstacle", "tile", "cup", "space")


def sticker_name(kind: str, value: Any) -> str:
    """The registry's name of the sticker of ``kind`` on the component ``value``."""
    return " ".join(f"{kind} {value}".lower().split())


def components(data: dict[str, Any]) -> dict[str, int]:
    """Sticker name -> how many the box holds (one each)."""
    names = [sticker_name("piece", n) for n in range(1, PIECES + 1)]
    names += [sticker_name("battle", card) for card in data["battle"]]
    names += [sticker_name("obstacle", card) for card in data["obstacles"]]
    names += [sticker_name("tile", tile) for tile in data["tiles"]]
    names += [sticker_name("cup", identity) for identity in CUP_IDENTITIES]
    names += [
        sticker_name("space", space)
        for space, cell in data["board"]["spaces"].items()
        if cell["kind"] == "path"
    ]
    return dict.fromkeys(names, 1)


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
