"""The end of a turn: ended by the player or by a failure, the rack refilled from the reserve, and
the turn passed to the left (ABR-ENDT-*)."""

from __future__ import annotations

from collections import Counter

from companion.i18n import t
from companion.rules.api import MALFORMED, Action, Event, State
from companion.rules.common import Refuse, event, name_of, seat_of

from .rounds import round_over
from .seats import alive, expect_turn, last_wizard_standing, left
from .spells import implicit_decline
from .stones import RACK_SIZE, insort, minus, reserve_size, stones_of, tag_of


def end_turn(state: State, action: Action, events: list[Event]) -> None:
    implicit_decline(state, action, events)
    seat = expect_turn(state, action, "declare", "end the turn")
    if state["successes"] < 1:
        raise Refuse(
            "ABR-ENDT-1",
            t("A turn can be ended only after a successful cast; declare a spell."),
        )
    events.append(
        event(
            "turn_ended",
            t("{player} ends the turn.", player=name_of(state, seat)),
            player=name_of(state, seat),
        )
    )
    finish_turn(state, seat, events)


def end_turn_after_penalty(state: State, seat: int, events: list[Event]) -> None:
    """ABR-ENDT-2: a failure ends the turn; a lost last life ends the round instead."""
    if state["life"][seat] == 0:
        if last_wizard_standing(state):
            survivors = alive(state)
            if len(survivors) == 1:
                round_over(state, "last_standing", survivors[0], events)
                return
        else:
            round_over(state, "self_knockout", seat, events)  # ABR-ROUND-4
            return
    finish_turn(state, seat, events)


def finish_turn(state: State, seat: int, events: list[Event]) -> None:
    """ABR-ENDT-4..6: refill to five from the reserve if it has stones, then pass left."""
    state["phase"] = "refill"
    state["pending"] = None
    state["refill_left"] = 0
    if state["life"][seat] > 0:  # an eliminated wizard's rack is out of play (ABR-AMB-14)
        state["refill_left"] = min(RACK_SIZE - len(state["racks"][seat]), reserve_size(state))
    if state["refill_left"] == 0:
        pass_turn(state, events)


def refill(state: State, action: Action, events: list[Event]) -> None:
    if state["phase"] != "refill":
        raise Refuse("ABR-ENDT-4", t("Racks are refilled only at the end of a turn."))
    seat = state["active"]
    if action.get("player") is not None and seat_of(state, action["player"]) != seat:
        raise Refuse(
            "ABR-ENDT-4",
            t("It is {player}'s rack that is refilled now.", player=name_of(state, seat)),
        )
    raw = action.get("stones", [action["stone"]] if "stone" in action else None)
    stones = stones_of(raw, t("The refill must be a list of stone numbers."))
    if not stones:
        raise Refuse(MALFORMED, t("A refill names the stones drawn."))
    if len(stones) > state["refill_left"]:
        raise Refuse(
            "ABR-ENDT-4",
            t(
                "{player} draws back to {n} stones: {left} more, not {count}.",
                player=name_of(state, seat),
                n=RACK_SIZE,
                left=state["refill_left"],
                count=len(stones),
            ),
        )
    tag = tag_of(action)
    if tag is not None and len(stones) != 1:
        raise Refuse(MALFORMED, t("A tag identifies one stone; refill tagged stones one by one."))
    if tag is not None and tag in state["tags"]:
        raise Refuse(
            "ABR-ENDT-5", t("That stone is already in play this round; draw from the reserve.")
        )
    try:
        state["reserve"] = minus(state["reserve"], Counter(stones))
    except Refuse:
        raise Refuse(
            "ABR-ENDT-5",
            t(
                "Those stones are not in the reserve: secret stones and "
                "cast stones are never reused."
            ),
        ) from None
    for stone in stones:
        insort(state["racks"][seat], stone)
    if tag is not None:
        state["tags"][tag] = [f"rack:{seat}", stones[0]]
    state["refill_left"] -= len(stones)
    state["chance_n"] += 1
    if len(stones) > 1:
        text = t("{player} draws {n} stones.", player=name_of(state, seat), n=len(stones))
    else:
        text = t("{player} draws 1 stone.", player=name_of(state, seat))
    events.append(event("refilled", text, player=name_of(state, seat), count=len(stones)))
    if state["refill_left"] == 0:
        pass_turn(state, events)


def pass_turn(state: State, events: list[Event]) -> None:
    state["active"] = left(state, state["active"])  # ABR-ENDT-6
    state["phase"] = "declare"
    state["last_cast"] = None
    state["successes"] = 0
    state["refill_left"] = 0
    events.append(
        event(
            "turn",
            t("It is {player}'s turn.", player=name_of(state, state["active"])),
            player=name_of(state, state["active"]),
        )
    )
