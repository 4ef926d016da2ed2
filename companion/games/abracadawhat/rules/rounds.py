"""Lives and points: life lost and gained, the end of a round with its scoring, and the end of the
game or the next round's set-up."""

from __future__ import annotations

from companion.i18n import Text, t
from companion.rules.api import Event, State
from companion.rules.common import event, name_of

from .seats import and_names, last_wizard_standing
from .stones import WINNING_SCORE, clear_stones


def lose(state: State, seat: int, amount: int, cause: Text, events: list[Event]) -> None:
    """``cause``: what took the life, a spell's name or ``t("failed cast")`` and the like
    (the event's ``cause`` field keeps its English)."""
    before = state["life"][seat]
    after = max(0, before - amount)  # ABR-LIFE-5, ABR-AMB-17
    state["life"][seat] = after
    who, lost = name_of(state, seat), before - after
    if lost == 1:
        text = t("{player} loses 1 life ({cause}).", player=who, cause=cause)
    else:
        text = t("{player} loses {n} life ({cause}).", player=who, n=lost, cause=cause)
    events.append(
        event("life", text, player=who, delta=after - before, life=after, cause=str(cause))
    )
    # ABR-AMB-14: out of the round, not the game
    if after == 0 < before and last_wizard_standing(state):
        events.append(
            event("eliminated", t("{player} is out of the round.", player=who), player=who)
        )


def gain(state: State, seat: int, amount: int, cause: Text, events: list[Event]) -> None:
    before = state["life"][seat]
    after = min(state["options"]["life_cap"], before + amount)  # ABR-LIFE-4
    state["life"][seat] = after
    who, gained = name_of(state, seat), after - before
    if gained == 0:  # ABR-LIFE-4: at the most life already, the healing is lost
        text = t(
            "{player} has the most life already: nothing gained ({cause}).",
            player=who,
            cause=cause,
        )
    elif gained == 1:
        text = t("{player} gains 1 life ({cause}).", player=who, cause=cause)
    else:
        text = t("{player} gains {n} life ({cause}).", player=who, n=gained, cause=cause)
    events.append(
        event("life", text, player=who, delta=after - before, life=after, cause=str(cause))
    )


def round_over(state: State, kind: str, seat: int, events: list[Event]) -> None:
    """ABR-ROUND-*, ABR-SCORE-*, then ABR-GAME-* or the next round (ABR-NEXT-*)."""
    count = len(state["players"])
    life = state["life"]
    variant = last_wizard_standing(state)
    if kind == "stones_out":  # ABR-ROUND-2: everybody else drops to 0
        for other in range(count):
            if other != seat:
                life[other] = 0
    winner = None if kind == "self_knockout" else seat
    losers = [other for other in range(count) if life[other] == 0 and other != winner]
    gained = [0] * count
    for other in range(count):
        bonus = len(state["acquired"][other]) if life[other] >= 1 else 0  # ABR-SCORE-6
        if other == winner:
            gained[other] = (2 if variant else 3) + bonus  # ABR-SCORE-2..4, ABR-VAR-2
        elif life[other] == 0 or variant:
            gained[other] = 0
        else:
            gained[other] = 1 + bonus  # ABR-SCORE-4, ABR-SCORE-5
    for other in range(count):
        state["score"][other] += gained[other]
    state["gained"] = gained
    names = state["players"]
    state["last_round"] = {
        "round": state["round"],
        "end": kind,
        "winner": None if winner is None else names[winner],
        "losers": [names[other] for other in losers],
        "gained": {names[other]: gained[other] for other in range(count)},
        "bonus": {
            names[other]: len(state["acquired"][other]) if life[other] >= 1 else 0
            for other in range(count)
        },
        "life": {names[other]: life[other] for other in range(count)},
    }
    who = name_of(state, seat)
    if kind == "stones_out":
        text = t("{player} has cast every stone and wins the round.", player=who)
    elif kind == "knockout":
        text = t(
            "{player} knocks out {losers} and wins the round.",
            player=who,
            losers=", ".join(names[other] for other in losers),
        )
    elif kind == "self_knockout":
        text = t("{player} loses the last life: nobody wins the round.", player=who)
    else:
        text = t("{player} is the last wizard standing and wins the round.", player=who)
    events.append(
        event(
            "round_over",
            text,
            round=state["round"],
            end=kind,
            winner=state["last_round"]["winner"],
            losers=state["last_round"]["losers"],
            gained=state["last_round"]["gained"],
        )
    )
    ended_by = state["active"]
    state["pending"] = None
    state["refill_left"] = 0
    if max(state["score"]) >= WINNING_SCORE:  # ABR-GAME-1, ABR-AMB-7
        state["phase"] = "over"
        state["winners"] = [names[other] for other in game_winners(state)]
        decided = tie_break(state)
        winners = and_names(state["winners"])
        if len(state["winners"]) == 1:
            text = t("{player} wins the game.", player=winners)
            if decided is not None:
                text = t("{player} wins the game ({tie_break}).", player=winners, tie_break=decided)
        else:
            text = t("{players} win the game.", players=winners)
            if decided is not None:
                text = t(
                    "{players} win the game ({tie_break}).", players=winners, tie_break=decided
                )
        fields = {"rule": "ABR-GAME-2"} if decided is not None else {}
        events.append(event("game_over", text, winners=state["winners"], **fields))
        return
    # ABR-NEXT-1..5: the stones are collected and the next round is dealt.
    state["round"] += 1
    state["starter"] = (ended_by + 1) % count
    state["active"] = state["starter"]
    state["phase"] = "deal"
    state["last_cast"] = None
    state["successes"] = 0
    # ABR-NEXT-4: every player starts the new round with full life, shown while it is dealt
    state["life"] = [state["options"]["start_life"]] * count
    clear_stones(state)


def game_winners(state: State) -> list[int]:
    """ABR-GAME-2: most points gained in the last round, then most life, then shared."""
    at_goal = [seat for seat, score in enumerate(state["score"]) if score >= WINNING_SCORE]
    best = max(at_goal, key=lambda seat: (state["gained"][seat], state["life"][seat]))
    key = (state["gained"][best], state["life"][best])
    return [seat for seat in at_goal if (state["gained"][seat], state["life"][seat]) == key]


def tie_break(state: State) -> Text | None:
    """ABR-GAME-2, in words: what decided an ended game among the players who reached 8 points
    together (None when one player alone reached them)."""
    at_goal = [seat for seat, score in enumerate(state["score"]) if score >= WINNING_SCORE]
    if state["phase"] != "over" or len(at_goal) < 2:
        return None
    names = state["players"]
    tied = and_names([names[seat] for seat in at_goal])
    gained = {state["gained"][seat] for seat in at_goal}
    best = max(state["gained"][seat] for seat in at_goal)
    if len(gained) > 1 and sum(state["gained"][seat] == best for seat in at_goal) == 1:
        return t(
            "{players} reached 8 points together: the most points gained in the last round "
            "decide, ABR-GAME-2",
            players=tied,
        )
    level = [seat for seat in at_goal if state["gained"][seat] == best]
    lives = {state["life"][seat] for seat in level}
    if len(lives) > 1 and len(state["winners"]) == 1:
        return t(
            "{players} reached 8 points together, and the most points gained in the last round "
            "are level: the most life left decides, ABR-GAME-2",
            players=tied,
        )
    if len(state["winners"]) == len(at_goal):
        return t(
            "{players} reached 8 points together with as many points gained in the last round "
            "and as much life left: they share the victory, ABR-GAME-2",
            players=tied,
        )
    return t(
        "{players} reached 8 points together; {winners} gained the most points in the last round "
        "and have as much life left: they share the victory, ABR-GAME-2",
        players=tied,
        winners=and_names(state["winners"]),
    )
