"""The wizards around the table: neighbours, the survivors of ABR-VAR-2, whose turn it is and what
the table waits for before the active player may go on; names joined with "and"."""

from __future__ import annotations

from companion.i18n import Text, t
from companion.rules.api import Action, State
from companion.rules.common import Refuse, name_of, player_of, seat_of

from .stones import RACK_SIZE


def and_names(names: list[str]) -> str:
    """Names joined with "and" ("Ann and Ben and Cid"), translatable: one name stays as it is."""
    if not names:
        return ""
    joined: str = names[0]
    for name in names[1:]:
        joined = t("{list} and {name}", list=joined, name=name)
    return joined


def last_wizard_standing(state: State) -> bool:
    """Whether the variant ABR-VAR-2 is played."""
    return state["options"]["last_wizard_standing"]


def alive(state: State) -> list[int]:
    return [seat for seat, life in enumerate(state["life"]) if life > 0]


def step(state: State, seat: int, direction: int) -> int:
    """The nearest seat in a direction; with ABR-VAR-2 only surviving wizards (ABR-AMB-14)."""
    count = len(state["players"])
    other = (seat + direction) % count
    if last_wizard_standing(state):
        while other != seat and state["life"][other] == 0:
            other = (other + direction) % count
    return other


def left(state: State, seat: int) -> int:
    return step(state, seat, +1)


def right(state: State, seat: int) -> int:
    return step(state, seat, -1)


def others(state: State, seat: int) -> list[int]:
    return [
        other
        for other in range(len(state["players"]))
        if other != seat and state["life"][other] > 0
    ]


def expect_turn(state: State, action: Action, phase: str, what: str) -> int:
    """The seat of the active player making ``action`` in ``phase``; ``what`` the action wants:
    ``declare a spell``, ``take a secret stone`` or ``end the turn``."""
    seat = seat_of(state, player_of(action))
    if state["phase"] == "over":  # spec 4.3: no cast input after the game (ABR-ROUND-1)
        raise Refuse("ABR-ROUND-1", t("The game is over."))
    if state["phase"] == "deal":
        raise Refuse("ABR-SETUP-5", t("The round has not begun: the stones are still being dealt."))
    if seat != state["active"]:
        who = name_of(state, state["active"])
        if what == "declare a spell":
            reason = t(
                "It is {player}'s turn; only the active player can declare a spell.", player=who
            )
        elif what == "take a secret stone":
            reason = t(
                "It is {player}'s turn; only the active player can take a secret stone.",
                player=who,
            )
        else:
            reason = t(
                "It is {player}'s turn; only the active player can end the turn.", player=who
            )
        raise Refuse("ABR-TURN-1", reason)
    if state["phase"] != phase:
        raise Refuse(*waiting_for(state))
    return seat


def waiting_for(state: State) -> tuple[str, Text]:
    """The rule and sentence for "something else must happen first"."""
    phase, pending = state["phase"], state["pending"]
    who = name_of(state, state["active"])
    if phase == "roll":
        rule = "ABR-CAST-3" if pending["for"] == "failure" else f"ABR-SPELL-{pending['spell']}"
        return rule, t("{player} must roll the die first.", player=who)
    if phase == "remove":
        return "ABR-CAST-4", t(
            "{remover} must first remove the {n} from {player}'s rack.",
            remover=name_of(state, pending["remover"]),
            n=pending["spell"],
            player=who,
        )
    if phase == "secret":
        return "ABR-SPELL-4", t(
            "{player} must first take a secret stone or leave them.", player=who
        )
    if phase == "objection":
        return "ABR-CAST-8", t("The other players must first object to the cast or let it stand.")
    if phase == "refill":
        return "ABR-ENDT-4", t(
            "{player} must first draw stones back to {n}.", player=who, n=RACK_SIZE
        )
    return "ABR-TURN-1", t("It is {player}'s turn to declare a spell.", player=who)
