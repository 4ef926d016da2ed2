"""Abracada...What?'s options as the new-game wizard tells them to players: what each one does,
in a sentence, and the control that sets it (the options themselves are the rules core's,
``rules/setup.py``)."""

from __future__ import annotations

from companion.i18n import t
from companion.plugin import OptionText

LIVES = (1, 10)  #: the life a wizard may start with or have at most, as the wizard offers it

OPTION_TEXTS = {
    "easy": OptionText(
        t("Easy version"),
        t("After the first spell of a turn, any spell may be cast, a lower one too."),
        "switch",
    ),
    "last_wizard_standing": OptionText(
        t("Last wizard standing takes all"),
        t(
            "A round ends only when a rack is empty or one wizard is left; the winner scores "
            "2 points plus the secret stones' bonus, everyone else nothing."
        ),
        "switch",
    ),
    "order_violation": OptionText(
        t("A lower spell after a success"),
        t("What happens when a wizard casts a lower spell than the one that just succeeded."),
        "choice",
        (
            ("auto_penalty", t("The companion takes the life at once")),
            ("require_objection", t("Another player has to object first")),
        ),
    ),
    "resolve_last_effect": OptionText(
        t("The last stone's spell"),
        t("When the last stone of a rack is cast, its spell still works before the round ends."),
        "switch",
    ),
    "die_faces": OptionText(
        t("The die's faces"),
        t("The numbers your die shows; untick those it does not have."),
        "several",
        tuple((face, str(face)) for face in range(1, 7)),
    ),
    "start_life": OptionText(
        t("Life at the start"),
        t("Every wizard's life at the start of each round."),
        "number",
        low=LIVES[0],
        high=LIVES[1],
    ),
    "life_cap": OptionText(
        t("Most life"),
        t("Nobody's life can go above this."),
        "number",
        low=LIVES[0],
        high=LIVES[1],
    ),
    "removal": OptionText(
        t("Stones taken off a rack"),
        t("How the companion learns that the right neighbour took the cast stone off the rack."),
        "choice",
        (
            ("auto", t("At once, from the spell cast")),
            ("tap", t("When the stone is tapped on the board reader")),
        ),
    ),
}
