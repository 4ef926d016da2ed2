"""The Triwizard Maze Game's numbers from the rulebook's text (the rest is in the data set) and
its id."""

from __future__ import annotations

GAME_ID = "triwizard"

HAND = 4  # TW-BCARD-2, TW-TURN-1: Battle Cards held
TILE_LIMIT = 6  # TW-RES-2: Resource Tiles held at most
START_TILES = 2  # TW-SETUP-6, TW-RES-1
LINEUP = 4  # TW-SETUP-9: Obstacle Lineup positions L1..L4
NO_MATCH_BACK = 4  # TW-BATTLE-LOSE-2

COLOURS = ("red", "blue", "orange", "green")  # TW-BCARD-1
#: the 8 kinds of Resource Tile (spec 4.3)
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
#: the 4 Cup Tiles: the real Cup and the Headstone Tiles 1..3 (TW-COMP-2)
CUP_TILES = ("cup", "headstone-1", "headstone-2", "headstone-3")
CLOAK_FACE = "cloak"  # the die's Invisibility Cloak face (TW-COMP-7, TW-AMB-2)

#: the totals the data set's cards must have (TW-COMP-4/6/8)
BATTLE_CARDS = 40
OBSTACLE_CARDS = 20
RESOURCE_TILES = 36
PORTKEY_PAIRS = 3  # TW-PORT-1
CUP_SLOTS = 4  # TW-CUP-1
HEADSTONES = 3  # TW-HEAD-1
DIE_FACES = 6  # TW-COMP-7
PIECES = 4  # TW-COMP-3: playing pieces
