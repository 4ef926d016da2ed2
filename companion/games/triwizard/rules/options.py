"""The Triwizard Maze's options: every proposal of section 6 is the default; the switches the
spec names are options (TW-AMB-8, TW-AMB-17), with the data set, the maze mode, the Dumbledore
counter window's countdown and an arranged start."""

from __future__ import annotations

from companion.i18n import t
from companion.rules.api import Option

#: the Dumbledore counter window closes this many seconds after it opens (0: it waits)
COUNTER_SECONDS = (0, *range(3, 61))

OPTIONS = (
    Option(
        "data_set",
        "example",
        t(
            "The data set (board, cards, tiles, die) the game is played with; see docs/triwizard-data.md."
        ),
        "TW-AMB-1",
    ),
    Option(
        "maze",
        "grid",
        t(
            "grid: moves are checked space by space on the data set's board; declared: a table "
            "without the board's data declares each move's steps and the kind of its end space."
        ),
        "TW-AMB-1",
        choices=("grid", "declared"),
    ),
    Option(
        "allow_revisit",
        False,
        t("A move may visit a space twice."),
        "TW-AMB-8",
    ),
    Option(
        "cloak_blocks_steal",
        True,
        t("A cloaked player takes no tiles with Red Sparks or Veritaserum either."),
        "TW-AMB-17",
    ),
    Option(
        "counter_seconds",
        10,
        t(
            "Albus Dumbledore's counter window closes this many seconds after it opens, the "
            "same for every target; 0: it waits for the target's answer."
        ),
        "TW-RES-DUMB-2",
        choices=COUNTER_SECONDS,
    ),
    Option(
        "scenario",
        {},
        t(
            "Start from an arranged position instead of the setup: pieces, Cloak, Wandering "
            "Hedge, hands, tiles, Lineup, Cup Tiles face up, whose turn, uncleared obstacles; "
            "see docs/replay.md."
        ),
        "TW-SETUP-1",
    ),
)
