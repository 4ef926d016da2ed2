"""The numbers and names the rules core uses: the shared ``constants``, and the core's own (the
Cup Tile Spaces, the tiles' quiet moments, the phases)."""

from __future__ import annotations

from .constants import (
    CLOAK_FACE,
    COLOURS,
    CUP_TILES,
    GAME_ID,
    HAND,
    LINEUP,
    START_TILES,
    TILE_KINDS,
    TILE_LIMIT,
)
from .constants import NO_MATCH_BACK as NO_MATCH_PUSH

__all__ = [
    "CLOAK_FACE",
    "COLOURS",
    "CUP_TILES",
    "GAME_ID",
    "HAND",
    "LINEUP",
    "NO_MATCH_PUSH",
    "START_TILES",
    "TILE_KINDS",
    "TILE_LIMIT",
]
SLOTS = ("1", "2", "3", "4")

#: tiles played at the three quiet moments of a turn (TW-AMB-12)
QUIET_TILES = ("dumbledore", "four_point", "cloak", "red_sparks", "summon_hedge", "veritaserum")
QUIET_PHASES = ("open", "cloak_place", "post")

PHASES = (
    "setup",
    "deal",
    "first_player",
    "draw",
    "open",
    "swap",
    "removal_roll",
    "removal_place",
    "roll",
    "cloak_place",
    "moving",
    "flip",
    "battle_select",
    "battle_roll",
    "battle_short",
    "battle_reroll",
    "advance",
    "push_back",
    "reward",
    "post",
    "over",
)
