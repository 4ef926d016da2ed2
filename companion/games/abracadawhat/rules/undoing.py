"""An undone action in words: what it was (``describe``) and what the players put back by hand
(``put_back``), for the table's undo. Both are public sentences: a stone is named by its number
only where everyone saw it (a stone cast on the board, a stone removed face up), never a stone
that went on a rack or a secret stone."""

from __future__ import annotations

from companion.i18n import Text, t
from companion.rules.api import Action, State
from companion.rules.common import name_of
from companion.rules.putting_back import joined

from .placing import LIFE, put_back_steps
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
    """What undoing ``action`` (from ``before`` to ``after``) asks the players to put back, in
    one public sentence made of the steps' own (:func:`.placing.put_back_steps`): the life tokens'
    steps said together ("Set the life tokens back: Ann to 6 and Ben to 5."); the end of a round
    and the whole deal in one sentence each, their steps listing the details."""
    if after["round"] != before["round"]:
        return t(
            "The end of the round is undone: lay every stone back where it was when the round "
            "ended, and the life tokens as they were."
        )
    if action.get("type") == "deal":
        return t("Gather every stone of the deal back into the reserve.")
    steps = put_back_steps(before, action, after)
    texts: list[Text] = [step.text for step in steps if step.thing != LIFE]
    lives = [
        t("{player} to {n}", player=owner, n=before["life"][before["players"].index(owner)])
        for owner in (step.source.owner for step in steps if step.thing == LIFE)
    ]
    if lives:
        texts.append(t("Set the life tokens back: {lives}.", lives=and_names(lives)))
    return joined(texts)
