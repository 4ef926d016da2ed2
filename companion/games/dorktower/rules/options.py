"""Dork Tower's options: the rulebook's ambiguities settled one way or the other (DT-AMB-*),
the data set, and an arranged start."""

from __future__ import annotations

from companion.i18n import t
from companion.rules.api import Option

TRADE_WINDOWS = ("both", "before", "after", "none")
#: the rivals' scroll windows close this many seconds after they open (0: when all have passed)
SCROLL_WINDOW_SECONDS = (0, *range(3, 31))

OPTIONS = (
    Option(
        "data_set",
        "example",
        t(
            "The data set (map, tower, tables, tokens, cards, "
            "characters) the game is played with; see "
            "docs/dork-tower-data.md."
        ),
        "DT-AMB-5",
    ),
    Option(
        "start_roll",
        True,
        t(
            "Roll two dice each to decide who starts (DT-SETUP-6); "
            "false: the first player listed starts."
        ),
        "DT-SETUP-6",
    ),
    Option(
        "trade_windows",
        "both",
        t(
            "When characters on the active player's space may "
            "trade: right after movement, after the encounter, "
            "both, or never."
        ),
        "DT-AMB-7",
        choices=TRADE_WINDOWS,
    ),
    Option(
        "resurrection_consumes_turn",
        False,
        t("A resurrected hero's turn is used up by the resurrection."),
        "DT-AMB-9",
    ),
    Option(
        "flee_across_mountains",
        False,
        t(
            "A fleeing hero may cross a mountain border "
            "(lakes always block unless the hero "
            "habitually crosses them)."
        ),
        "DT-AMB-11",
    ),
    Option(
        "death_only_without_escape",
        True,
        t("A defeated hero may choose to die only when there is nowhere to flee."),
        "DT-AMB-12",
    ),
    Option(
        "killed_tokens_return",
        True,
        t(
            "Killed monsters and resolved tokens go back "
            "into the bowl (false: they leave the game)."
        ),
        "DT-AMB-14",
    ),
    Option(
        "slot_max",
        "forbid",
        t(
            "An item above a slot's Max: cannot be placed in that "
            "slot (forbid), or its bonus is capped (cap)."
        ),
        "DT-AMB-16",
        choices=("forbid", "cap"),
    ),
    Option(
        "slot_max_special",
        False,
        t("A slot's Max also caps bonuses against a type of enemy."),
        "DT-AMB-16",
    ),
    Option(
        "work_allows_selling",
        False,
        t("A hero who works may still sell at the market."),
        "DT-AMB-17",
    ),
    Option(
        "encounter_before_entry",
        False,
        t("The encounter on the door's shadowland must be had before entering the tower."),
        "DT-AMB-18",
    ),
    Option(
        "scenario",
        {},
        t(
            "Start from an arranged position instead of the setup: heroes "
            "(character, home, space, level, gold, XP, items, scrolls), "
            "monsters on spaces, quests, the tower's step and whose turn it "
            "is; see docs/replay.md."
        ),
        "DT-SETUP-7",
    ),
    Option(
        "trust_positions",
        False,
        t(
            "Accept any reported step without checking "
            "adjacency and borders (for a map the data set does "
            "not describe)."
        ),
        "DT-AMB-5",
    ),
    Option(
        "scroll_window_seconds",
        8,
        t(
            "The rivals' scroll windows in a fight (before and after the roll) close this "
            "many seconds after they open, unless every rival has passed before; 0: they "
            "wait until every rival has passed."
        ),
        "DT-AMB-27",
        choices=SCROLL_WINDOW_SECONDS,
    ),
)
