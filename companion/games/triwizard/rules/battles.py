"""Battles (TW-BATTLE-*, TW-OBST-*, TW-OCARD-*): the current obstacle, the card played or the
"no match" (checked against the hand, TW-AMB-11), the rolls (Cloak = 0), the Double Die, the
advance after a win and the push-back after a loss by the right-hand neighbour (TW-TURN-9), the
rewards, and the Lineup's refresh (TW-AMB-23). An uncleared obstacle (TW-AMB-9/10/33) is fought
at the start of the next turn instead of the movement roll."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.rules.api import State
from companion.rules.common import Refuse, event, player_of, seat_of

from . import declared
from .numbers import LINEUP, NO_MATCH_PUSH
from .state import cloaked, face_value, right_of
from .turns import no_interrupt, no_pending, own_turn
from .walking import check_walk

#: a Battle Card's colour in the sentences of the events (translated with the rules' texts)
COLOUR_NAMES = {"red": t("red"), "blue": t("blue"), "orange": t("orange"), "green": t("green")}


def current_position(state: State) -> int | None:
    """TW-OCARD-2: the face-up Lineup card nearest the draw pile (1..4)."""
    for index, slot in enumerate(state["obstacle_pile"]["lineup"]):
        if slot["card"] is not None and slot["up"]:
            return index + 1
    return None


def obstacle_of(data: dict[str, Any], state: State) -> dict[str, Any]:
    fight = state["fight"]
    card = state["obstacle_pile"]["lineup"][fight["obstacle"] - 1]["card"]
    return data["obstacles"][card]


def start_fight(
    data: dict[str, Any], state: State, seat: int, entered_from: str | None, events: list
) -> None:
    """TW-MOVE-7, TW-OBST-1: the piece battles the current obstacle at once."""
    if seat in state["uncleared"]:
        state["uncleared"].remove(seat)
    state["fight"] = {
        "seat": seat,
        "space": state["pieces"][seat],
        "entered_from": entered_from,
        "obstacle": current_position(state),
        "card": None,
        "rolls": [],
        "total": 0,
        "result": None,
    }
    state["phase"] = "battle_select"
    events.append(
        event("battle", t("{player} battles the obstacle.", player=state["players"][seat]))
    )


def battle(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    """TW-AMB-10: on an uncleared Obstacle Space the turn's battle replaces the roll."""
    seat = own_turn(state, action)
    no_interrupt(state)
    no_pending(state)
    if cloaked(state, seat):
        raise Refuse("TW-CLOAK-1", t("A cloaked piece never battles."))
    if state["phase"] != "open" or seat not in state["uncleared"]:
        raise Refuse("TW-OBST-3", t("There is no uncleared obstacle to battle now."))
    start_fight(data, state, seat, None, events)


def _in_fight(state: State, action: dict, phase: str) -> int:
    seat = own_turn(state, action)
    no_interrupt(state)
    no_pending(state)
    if state["phase"] != phase:
        raise Refuse("TW-BATTLE-1", t("That is not part of the battle now."))
    return seat


def matches(data: dict[str, Any], card: str, obstacle: dict[str, Any]) -> bool:
    return data["battle"][card]["colour"] in obstacle["colours"]


def play_card(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    """TW-BATTLE-1, TW-BCARD-5, TW-TURN-4."""
    if state["turn_state"]["card_played"] and state["phase"] != "over":
        own_turn(state, action)
        raise Refuse("TW-TURN-4", t("Only one Battle Card may be played in a turn."))
    seat = _in_fight(state, action, "battle_select")
    card = action.get("card")
    if card not in state["hands"][seat]:
        raise Refuse("TW-BATTLE-1", t("That Battle Card is not in your hand."))
    if state["turn_state"]["card_played"]:
        raise Refuse("TW-TURN-4", t("Only one Battle Card may be played in a turn."))
    obstacle = obstacle_of(data, state)
    if not matches(data, card, obstacle):
        raise Refuse(
            "TW-BCARD-5",
            t("That card's colour matches none of the obstacle's colour blocks."),
        )
    state["hands"][seat].remove(card)
    state["turn_state"]["card_played"] = True
    state["fight"]["card"] = card
    state["pending"].append({"kind": "die", "why": "battle", "player": seat})
    state["phase"] = "battle_roll"
    info = data["battle"][card]
    events.append(
        event(
            "play_card",
            t(
                "{player} plays a {colour} Battle Card, strength {strength}.",
                player=state["players"][seat],
                colour=COLOUR_NAMES[info["colour"]],
                strength=info["strength"],
            ),
            card=card,
        )
    )


def no_match(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    """TW-BATTLE-2, TW-AMB-11: checked against the hand; the battle is lost, no roll."""
    seat = _in_fight(state, action, "battle_select")
    obstacle = obstacle_of(data, state)
    if any(matches(data, card, obstacle) for card in state["hands"][seat]):
        raise Refuse("TW-BATTLE-2", t("A Battle Card in your hand matches: play one."))
    state["fight"]["result"] = "no_match"
    events.append(
        event(
            "no_match",
            t("{player} has no matching Battle Card and loses.", player=state["players"][seat]),
            player=state["players"][seat],
            result="no_match",
        )
    )
    state["phase"] = "push_back"


def battle_roll(data: dict[str, Any], state: State, face: Any, events: list) -> None:
    """TW-BATTLE-4/5, TW-RES-DDIE-1, TW-AMB-15: the total against the Obstacle Strength."""
    fight = state["fight"]
    fight["rolls"].append(face)
    card = data["battle"][fight["card"]]
    fight["total"] = card["strength"] + sum(face_value(roll) for roll in fight["rolls"])
    strength = obstacle_of(data, state)["strength"]
    who = state["players"][fight["seat"]]
    if fight["total"] >= strength:
        fight["result"] = "won"
        state["phase"] = "advance"
        events.append(
            event(
                "won",
                t(
                    "{player} wins the battle: {total} against {strength}.",
                    player=who,
                    total=fight["total"],
                    strength=strength,
                ),
                player=who,
                result="won",
            )
        )
        return
    if state["phase"] == "battle_roll":
        fight["result"] = "short"
        state["phase"] = "battle_short"
    else:
        fight["result"] = "lost"
        state["phase"] = "push_back"
    events.append(
        event(
            "short",
            t(
                "{player} falls short: {total} against {strength}.",
                player=who,
                total=fight["total"],
                strength=strength,
            ),
            player=who,
            result=fight["result"],
        )
    )


def lose(state: State, events: list) -> None:
    """No Double Die after a short roll (TW-BATTLE-5): the battle is lost (the event's
    ``player`` and ``result`` start the LEDs' cue, as a win's and a loss's do)."""
    state["fight"]["result"] = "lost"
    state["phase"] = "push_back"
    who = state["players"][state["fight"]["seat"]]
    events.append(
        event("lost", t("{player} loses the battle.", player=who), player=who, result="lost")
    )


def push_limit(data: dict[str, Any], state: State) -> int:
    """TW-BATTLE-LOSE-1/2: the card's Movement Rating, or 4 without a matching card."""
    fight = state["fight"]
    if fight["card"] is None:
        return NO_MATCH_PUSH
    return data["battle"][fight["card"]]["movement"]


def advance(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    """TW-BATTLE-WIN-1..4: forward up to the Movement Rating, then the rewards, the Lineup and
    the card's discard; the end space acts after the draws (TW-AMB-9)."""
    seat = _in_fight(state, action, "advance")
    fight = state["fight"]
    limit = data["battle"][fight["card"]]["movement"]
    if declared.on(state):
        walk = declared.check(data, state, seat, action, limit, "advance")
        path = [walk["end"]] * walk["steps"]
    else:
        walk = check_walk(
            data,
            state,
            seat,
            action.get("path"),
            limit,
            "advance",
            entered_from=fight["entered_from"],
        )
        path = action["path"]
    _walked(state, seat, walk, path, events, back=False)
    obstacle = obstacle_of(data, state)
    pile = state["obstacle_pile"]
    pile["lineup"][fight["obstacle"] - 1]["up"] = False  # TW-OCARD-3
    if not cloaked(state, seat):  # TW-BATTLE-WIN-2, TW-CLOAK-3
        state["pending"] += [
            {"kind": "tile", "why": "reward", "player": seat} for _n in range(obstacle["reward"])
        ]
    if all(not slot["up"] for slot in pile["lineup"]):  # TW-OCARD-4, TW-AMB-23
        pile["discard"] += [slot["card"] for slot in pile["lineup"] if slot["card"]]
        pile["lineup"] = [{"card": None, "up": False} for _position in range(LINEUP)]
        state["pending"] += [{"kind": "obstacle"} for _position in range(LINEUP)]
    state["battle_pile"]["discard"].append(fight["card"])  # TW-BATTLE-WIN-4
    state["phase"] = "reward"
    if walk["jump"]:
        from .spaces import jump_to

        jump_to(data, state, seat, walk["end"], seat, "resume", events)


def push_back(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    """TW-BATTLE-LOSE-1/2, TW-TURN-9: the right-hand neighbour moves the piece back; the card
    is discarded and the end space acts (TW-AMB-9)."""
    no_interrupt(state)
    no_pending(state)
    who = player_of(action)
    seat = seat_of(state, who)
    if state["phase"] != "push_back":
        raise Refuse("TW-BATTLE-LOSE-1", t("No piece is being moved back now."))
    loser = state["active"]
    pusher = right_of(state, loser)
    if seat != pusher:
        raise Refuse(
            "TW-BATTLE-LOSE-1",
            t(
                "{player}, the player to {loser}'s right, moves the piece back.",
                player=state["players"][pusher],
                loser=state["players"][loser],
            ),
        )
    fight = state["fight"]
    if declared.on(state):
        walk = declared.check(data, state, loser, action, push_limit(data, state), "push")
        path = [walk["end"]] * walk["steps"]
    else:
        walk = check_walk(
            data,
            state,
            loser,
            action.get("path"),
            push_limit(data, state),
            "push",
            entered_from=fight["entered_from"],
        )
        path = action["path"]
    _walked(state, loser, walk, path, events, back=True)
    if fight["card"] is not None:  # TW-BCARD-3
        state["battle_pile"]["discard"].append(fight["card"])
    if walk["jump"]:
        from .spaces import jump_to

        jump_to(data, state, loser, walk["end"], pusher, "post", events)
        return
    from .spaces import resolve_end

    if path:
        resolve_end(data, state, loser, events)
    else:
        state["phase"] = "post"


def _walked(state: State, seat: int, walk: dict, path: list, events: list, back: bool) -> None:
    state["pieces"][seat] = walk["end"]
    stays = back and walk["end"] == state["fight"]["space"]
    if walk["uncleared"] or stays:  # TW-AMB-9, TW-AMB-10
        if seat not in state["uncleared"]:
            state["uncleared"].append(seat)
    who = state["players"][seat]
    if back:
        text = t("{player} is moved back to {space}.", player=who, space=walk["end"])
    else:
        text = t("{player} advances to {space}.", player=who, space=walk["end"])
    events.append(event("walk", text, path=[] if declared.on(state) else list(path)))
