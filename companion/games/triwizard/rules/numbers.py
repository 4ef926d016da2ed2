"""The rulebook's numbers and the phases the core uses (the shared names of ``constants`` are
repeated here until that module exists on this branch; the values are the design's)."""

from __future__ import annotations

GAME_ID = "triwizard"
HAND = 4  # TW-BCARD-2, TW-TURN-1
TILE_LIMIT = 6  # TW-RES-2
START_TILES = 2  # TW-SETUP-6
LINEUP = 4  # TW-SETUP-9
NO_MATCH_PUSH = 4  # TW-BATTLE-LOSE-2
COLOURS = ("red", "blue", "orange", "green")
TILE_KINDS = (
    "dumbledore",
    "double_die",
    "four_point",
    "cloak",
    "red_sparks",
    "reductor",
    "summon_hedge",
    "veritaserum",
)
CUP_TILES = ("cup", "headstone-1", "headstone-2", "headstone-3")
SLOTS = ("1", "2", "3", "4")
CLOAK_FACE = "cloak"

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
