"""An undone action in words: what it was (``describe``) and what the players put back by hand
(``put_back``), for the table's undo. Both are public sentences: a stone is named by its number
only where everyone saw it (a stone cast on the board, a stone removed face up), never a stone
that went on a rack or a secret stone."""

from __future__ import annotations

from collections import Counter

from companion.i18n import Text, t
from companion.rules.api import Action, State
from companion.rules.common import name_of

from .seats import and_names
from .spells import SPELLS
from .stones import deal_target


def _actor(state: State, action: Action) -> str:
    """The player the action is about: named in it, or the active player."""
    who = action.get("player")
    return who if isinstance(who, str) else name_of(state, state["active"])


def describe(state: State, action: Action) -> Text | None:
    """``action``, made in ``state``, in a few words ("Ben laying Ann's 5 on the board")."""
    kind = action.get("type")
    who = _actor(state, action)
    if kind == "deal":
        return t("the deal of round {round}", round=state["round"])
    if kind == "deal_stone":
        target, seat, _, _ = deal_target(state)
        if target == "rack":
            return t("a stone dealt to {player}'s rack", player=name_of(state, seat))
        if target == "removed":
            return t("a stone laid face up on the board")
        return t("a secret stone laid face down")
    if kind == "cast" and action.get("spell") in SPELLS:
        spell = action["spell"]
        return t("{player} casting {n} {spell}", player=who, n=spell, spell=SPELLS[spell])
    if kind == "remove" and state["pending"] and "remover" in state["pending"]:
        return t(
            "{remover} laying {player}'s {n} on the board",
            remover=name_of(state, state["pending"]["remover"]),
            player=name_of(state, state["active"]),
            n=state["pending"]["spell"],
        )
    if kind == "roll":
        return t("{player}'s roll of {value}", player=who, value=action.get("value"))
    words = {
        "take_secret": t("{player} taking a secret stone", player=who),
        "decline_secret": t("{player} leaving the secret stones", player=who),
        "object": t("{player}'s objection to the lower spell", player=who),
        "allow": t("{player} letting the lower spell stand", player=who),
        "end_turn": t("{player} ending the turn", player=who),
        "refill": t("{player} drawing from the reserve", player=who),
    }
    return words.get(kind)


def put_back(before: State, action: Action, after: State) -> Text | None:
    """What undoing ``action`` (from ``before`` to ``after``) asks the players to put back: the
    stones that left a rack, the stones that came to one, a taken secret stone, the stones laid
    on the board during the deal, and the life tokens."""
    names = before["players"]
    if after["round"] != before["round"] or (after["phase"] == "over") != (
        before["phase"] == "over"
    ):
        return t(
            "The end of the round is undone: lay every stone back where it was when the round "
            "ended, and the life tokens as they were."
        )
    if action.get("type") == "deal":
        return t("Gather every stone of the deal back into the reserve.")
    steps: list[Text] = []
    for seat, name in enumerate(names):
        went = Counter(before["racks"][seat]) - Counter(after["racks"][seat])
        for n in sorted(went.elements()):  # cast and laid on the board: everyone saw it
            steps.append(t("Put the {n} from the board back on {player}'s rack.", n=n, player=name))
        came = sum((Counter(after["racks"][seat]) - Counter(before["racks"][seat])).values())
        if came == 1:
            steps.append(
                t("Put the stone last laid on {player}'s rack back in the reserve.", player=name)
            )
        elif came > 1:
            steps.append(
                t(
                    "Put the {n} stones last laid on {player}'s rack back in the reserve.",
                    n=came,
                    player=name,
                )
            )
        if len(after["acquired"][seat]) > len(before["acquired"][seat]):
            steps.append(
                t("{player} lays the secret stone back face down on the board.", player=name)
            )
    face_up = [
        number
        for number, (was, now) in enumerate(zip(before["removed"], after["removed"]), start=1)
        for _ in range(now - was)
    ]
    if face_up:  # laid face up: everyone saw them
        steps.append(
            t(
                "Put the stones laid face up back in the reserve: {stones}.",
                stones=", ".join(map(str, face_up)),
            )
        )
    laid = len([s for s in after["secret"] if s is not None]) - len(
        [s for s in before["secret"] if s is not None]
    )
    if laid > 0:  # only during the deal: taking one (ABR-SPELL-4) empties a slot instead
        steps.append(t("Put the secret stone last laid back in the reserve."))
    lives = [
        t("{player} to {n}", player=name, n=before["life"][seat])
        for seat, name in enumerate(names)
        if before["life"][seat] != after["life"][seat]
    ]
    if lives:
        steps.append(t("Set the life tokens back: {lives}.", lives=and_names(lives)))
    if not steps:
        return None
    joined = steps[0]
    for step in steps[1:]:
        joined = t("{first} {then}", first=joined, then=step)
    return joined
