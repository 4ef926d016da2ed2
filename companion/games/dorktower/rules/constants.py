"""Dork Tower's numbers from the rulebook's text (the rest is in the data set), the game's id
and its phases."""

from __future__ import annotations

GAME_ID = "dorktower"

START_GOLD = 60  # DT-SETUP-5
START_SCROLLS = 1  # DT-SETUP-5
SCROLL_PRICE = 50  # DT-CITY-5, DT-CITY-6
RESURRECTION_GOLD = 50  # DT-DEATH-2
WORK_PAY = {"low": 60, "high": 120}  # DT-CITY-7, DT-LVL-3
QUEST_XP = 5  # DT-QUEST-4
SHOP_CARDS = 2  # DT-CITY-2
SCROLL_LIMIT = 3  # DT-CARD-8, DT-LIMIT-1
BACKPACK_LIMIT = 2  # DT-CHAR-4, DT-LIMIT-2
SLOTS = 4  # DT-CHAR-2
MAX_SIXES = 2  # two dice
DIE = (1, 2, 3, 4, 5, 6)

PHASES = (
    "start_roll",
    "choose",
    "move",
    "trade",
    "encounter",
    "resolve",
    "scrolls_own",
    "scrolls_others",
    "pre_roll",
    "scrolls_after",
    "defeat",
    "city",
    "cleanup",
    "over",
)
