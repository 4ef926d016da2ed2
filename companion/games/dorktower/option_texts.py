"""Dork Tower's options as the new-game wizard tells them to players: what each one does, in a
sentence, and the control that sets it (the options themselves are the rules core's,
``rules/options.py``)."""

from __future__ import annotations

from companion.i18n import t
from companion.plugin import OptionText

from .rules.options import SCROLL_WINDOW_SECONDS

OPTION_TEXTS = {
    "data_set": OptionText(
        t("Map and cards"),
        t("The map, the tower, the tables, the tokens, the cards and the heroes you play with."),
        "data_set",
    ),
    "start_roll": OptionText(
        t("Roll for who starts"),
        t("Everyone rolls two dice and the highest starts; untick it and the first seat starts."),
        "switch",
    ),
    "trade_windows": OptionText(
        t("When heroes trade"),
        t("When the heroes on the active hero's space may trade with each other."),
        "choice",
        (
            ("both", t("After moving and after the encounter")),
            ("before", t("Right after moving")),
            ("after", t("After the encounter")),
            ("none", t("Never")),
        ),
    ),
    "resurrection_consumes_turn": OptionText(
        t("Resurrection takes the turn"),
        t("A hero who comes back to life does nothing else that turn."),
        "switch",
    ),
    "flee_across_mountains": OptionText(
        t("Fleeing over mountains"),
        t(
            "A fleeing hero may cross a mountain border (lakes still block, except for heroes "
            "who cross them anyway)."
        ),
        "switch",
    ),
    "death_only_without_escape": OptionText(
        t("Dying only when trapped"),
        t("A defeated hero may choose to die only when there is nowhere to flee."),
        "switch",
    ),
    "killed_tokens_return": OptionText(
        t("Tokens back in the bowl"),
        t(
            "Killed monsters and resolved tokens go back into the bowl; untick it and they "
            "leave the game."
        ),
        "switch",
    ),
    "slot_max": OptionText(
        t("Items above a slot's Max"),
        t("What happens to an item whose bonus is above its slot's Max."),
        "choice",
        (
            ("forbid", t("It cannot go in that slot")),
            ("cap", t("It goes in, its bonus cut down to the Max")),
        ),
    ),
    "slot_max_special": OptionText(
        t("The Max caps special bonuses"),
        t("A slot's Max also caps bonuses against one kind of enemy."),
        "switch",
    ),
    "work_allows_selling": OptionText(
        t("Work and sell"),
        t("A hero who works may still sell at the market."),
        "switch",
    ),
    "encounter_before_entry": OptionText(
        t("Encounter before the tower"),
        t("The encounter on the door's shadowland must be faced before entering the tower."),
        "switch",
    ),
    "scenario": OptionText(
        t("Arranged start"),
        t(
            "A game may start from a position set out in a replay file instead of the setup; "
            "it is given there, not here."
        ),
        "none",
    ),
    "trust_positions": OptionText(
        t("Trust every step"),
        t(
            "Accept any step a hero reports without checking neighbours and borders (for a "
            "map the data set does not describe)."
        ),
        "switch",
    ),
    "scroll_window_seconds": OptionText(
        t("Time to answer with scrolls"),
        t(
            "In a fight, the other players have this long to play scrolls against the fighter, "
            "before and after the roll; the same for everyone, whatever their hands hold."
        ),
        "choice",
        tuple(
            (seconds, t("{n} seconds", n=seconds) if seconds else t("Until everyone has passed"))
            for seconds in SCROLL_WINDOW_SECONDS
        ),
    ),
}
