"""What the table waits for, in one public sentence (the prompt every refusal ends with), and
whose move it is."""

from __future__ import annotations

from typing import Any

from companion.i18n import Text, t
from companion.rules.api import State
from companion.rules.common import name_of as _name

from .board import other_seats, space_type
from .chance import chance
from .heroes import over_limits
from .texts import named


def prompt(data: dict[str, Any], state: State) -> Text:
    """What the table is waiting for, in one public sentence."""
    phase = state["phase"]
    if phase == "over":
        return t("The game is over: {player} defeated Z'Mindrik.", player=state["winners"][0])
    if phase == "start_roll":
        return t("{player}: roll two dice to see who starts.", player=chance(state).player)
    if phase == "choose":
        return t(
            "{player}: choose a character and a home city.", player=_name(state, state["choosing"])
        )
    who = _name(state, state["active"])
    if state["pending"]:
        chance_step = state["pending"][0]
        actor = (
            _name(state, chance_step["player"]) if chance_step.get("player") is not None else who
        )
        if chance_step["kind"] == "die":
            count = chance_step["dice"]
            if chance_step["why"] == "combat":
                if count == 1:
                    return t("{player}: roll one die for the fight.", player=actor)
                return t("{player}: roll {n} dice for the fight.", player=actor, n=count)
            if chance_step["why"] == "treasure":
                return t(
                    "{player}: roll a die for the {token}'s treasure.",
                    player=actor,
                    token=named(data["tokens"][chance_step["token"]]["name"]),
                )
            if count == 1:
                return t("{player}: roll one die on the Quest Location table.", player=actor)
            return t("{player}: roll {n} dice on the Quest Location table.", player=actor, n=count)
        if chance_step["kind"] == "token":
            left = sum(1 for entry in state["pending"] if entry["kind"] == "token")
            if left == 1:
                return t("{player}: draw {n} encounter token from the bowl.", player=actor, n=left)
            return t("{player}: draw {n} encounter tokens from the bowl.", player=actor, n=left)
        if chance_step["kind"] == "item":
            if chance_step["face"] == "shop":
                return t("{player}: draw the top item card.", player=actor)
            if chance_step["face"] == "magic":
                return t("{player}: draw an item card (magic face).", player=actor)
            return t("{player}: draw an item card (equipment face).", player=actor)
        return t("{player}: draw a scroll.", player=actor)
    if phase == "move":
        return t(
            "{player}: move ({n} left), stop, or enter the tower.",
            player=who,
            n=state["t"]["moves_left"],
        )
    if phase == "trade":
        if state["offer"] is not None:
            return t(
                "{partner}: accept or decline {player}'s offer.",
                partner=_name(state, state["offer"]["to"]),
                player=who,
            )
        return t("{player}: trade with the characters here, or carry on.", player=who)
    if phase == "resolve":
        return t("{player}: resolve the tokens that are not monsters first.", player=who)
    if phase == "scrolls_own":
        return t("{player}: play scrolls for the fight, or go on.", player=who)
    if phase == "scrolls_others":
        return t("The other players: play scrolls against {player}, or pass.", player=who)
    if phase == "pre_roll":
        return t("{player}: roll the dice (or pay XP for a six first).", player=who)
    if phase == "scrolls_after":
        return t(
            "The other players: answer {player}'s winning roll with a scroll, or pass.",
            player=who,
        )
    if phase == "defeat":
        return _defeat_prompt(data, state, who)
    if phase == "city":
        return t("{player}: shop or work in the city, then end the turn.", player=who)
    over = over_limits(data, state)
    if over:
        return over[1]
    return t("{player}: end the turn by turning the tower.", player=who)


def _defeat_prompt(data: dict[str, Any], state: State, who: str) -> Text:
    """DT-DEFEAT-1..5, DT-SPACE-8, DT-WIZ-5, DT-AMB-12: what a beaten hero may do, and why not
    the rest. Only public facts count: where he may flee, the options, whether he holds any
    scroll (a count everyone sees, DT-AMB-30), never which."""
    from .movement import flee_spaces  # movement's checks name this module's prompt

    combat = state["combat"]
    flee = bool(flee_spaces(data, state))
    die = not (flee and state["options"]["death_only_without_escape"])
    scroll = bool(state["heroes"][state["active"]]["scrolls"])
    if combat["wizard"]:
        reason = t("Nobody flees from Z'Mindrik (DT-WIZ-5).")
    elif combat["space"] is not None and space_type(data, combat["space"])["no_flee"]:
        reason = t("Nobody flees from a dungeon (DT-SPACE-8, DT-DEFEAT-3).")
    elif not flee:
        reason = t(
            "There is no next space to flee to: monsters on each, or a lake or mountain in "
            "the way (DT-DEFEAT-3, DT-DEFEAT-5, DT-AMB-12)."
        )
    elif not die:
        reason = t("A hero dies only with nowhere to flee (DT-DEFEAT-5, DT-AMB-12).")
    else:
        reason = None
    if scroll and flee and die:
        choice = t("{player}: re-roll with a scroll, flee, or die.", player=who)
    elif scroll and flee:
        choice = t("{player}: re-roll with a scroll, or flee.", player=who)
    elif scroll:
        choice = t("{player}: re-roll with a scroll, or die.", player=who)
    elif flee and die:
        choice = t("{player}: flee or die.", player=who)
    elif flee:
        choice = t("{player}: flee to a next space.", player=who)
    else:
        choice = t("{player}: die; the XP stay.", player=who)
    return choice if reason is None else t("{choice} {reason}", choice=choice, reason=reason)


def waiting_names(data: dict[str, Any], state: State) -> list[str]:
    """Who the table waits for now, by name."""
    phase = state["phase"]
    if phase == "over":
        return []
    if phase == "start_roll":
        return [chance(state).player]
    if phase == "choose":
        return [_name(state, state["choosing"])]
    if state["pending"]:
        chance_step = state["pending"][0]
        return (
            [_name(state, chance_step["player"])] if chance_step.get("player") is not None else []
        )
    if phase in ("scrolls_others", "scrolls_after"):
        return [
            _name(state, seat)
            for seat in other_seats(state, state["active"])
            if seat not in state["combat"]["passed"] and state["heroes"][seat]["scrolls"]
        ]
    if phase == "trade" and state["offer"] is not None:
        return [_name(state, state["offer"]["to"])]
    over = over_limits(data, state) if phase == "cleanup" else None
    names = [_name(state, state["active"])]
    if over and _name(state, over[2]) not in names:
        names.append(_name(state, over[2]))
    return names
