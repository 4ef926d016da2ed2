"""The Triwizard Maze Game's options as the new-game wizard tells them to players: what each one
does, in a sentence, and the control that sets it (the options themselves are the rules core's;
every one defaults to the spec's proposal)."""

from __future__ import annotations

from companion.i18n import t
from companion.plugin import OptionText

from .rules.options import COUNTER_SECONDS

OPTION_TEXTS = {
    "data_set": OptionText(
        t("Maze and cards"),
        t("The maze, the Battle Cards, the Obstacle Cards, the Resource Tiles and the die."),
        "data_set",
    ),
    "maze": OptionText(
        t("How moves are checked"),
        t(
            "Whether the companion checks every step on the maze of the data set, or trusts the "
            "mover, who says how many spaces the piece went and what the space it stopped on is."
        ),
        "choice",
        (
            ("grid", t("Step by step on the data set's maze")),
            ("declared", t("As the mover says (a maze the data set does not describe)")),
        ),
    ),
    "allow_revisit": OptionText(
        t("Crossing a space twice"),
        t("A piece may pass over the same space more than once in one move."),
        "switch",
    ),
    "cloak_blocks_steal": OptionText(
        t("The Cloak stops taking tiles"),
        t(
            "A player whose piece wears the Cloak takes no tiles from others either (with Red "
            "Sparks or Veritaserum), not only none from the draw pile."
        ),
        "switch",
    ),
    "counter_seconds": OptionText(
        t("Time to answer Dumbledore"),
        t(
            "When Albus Dumbledore is played against a cloaked piece, its player has this long "
            "to cancel it with their own; the same for everyone, whatever they hold."
        ),
        "choice",
        tuple(
            (seconds, t("{n} seconds", n=seconds) if seconds else t("Until the player answers"))
            for seconds in COUNTER_SECONDS
        ),
    ),
    "scenario": OptionText(
        t("Arranged start"),
        t(
            "A game may start from a position set out in a replay file instead of the set-up; "
            "it is given there, not here."
        ),
        "none",
    ),
}
