"""The players' actions in a fight: scrolls played (DT-COMBAT-2, DT-COMBAT-4, DT-COMBAT-8) or
taken back (DT-CARD-7), passing, sixes bought with XP (DT-COMBAT-6), and after a defeat fleeing
or dying (DT-DEFEAT, DT-DEATH)."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.rules.api import Action, Event, State
from companion.rules.common import Refuse as _Refuse
from companion.rules.common import event as _event
from companion.rules.common import name_of as _name
from companion.rules.common import player_of as _player
from companion.rules.common import seat_of as _seat

from .board import space_name, space_type
from .checks import expect_turn
from .constants import MAX_SIXES, SLOTS
from .fights import (
    await_roll,
    close_rivals_window,
    judge,
    relocate,
    return_tokens,
    skip_empty_windows,
)
from .flow import flow
from .heroes import use_scroll
from .movement import flee_spaces
from .prompts import prompt
from .state import fighting
from .texts import named
from .windows import RIVAL_WINDOWS, WINDOWS, all_passed, fits_window, moment_of


def play_scroll(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-COMBAT-2, DT-COMBAT-4, DT-COMBAT-8, DT-DEFEAT-2, DT-WIZ-4, DT-WIZ-5, DT-AMB-27: a
    scroll is played in the window its data allow (``windows``); it acts at once, so scrolls
    take effect in the order they are played (DT-CARD-7)."""
    seat = _seat(state, _player(action))
    card = action.get("scroll")
    if card not in state["heroes"][seat]["scrolls"]:
        raise _Refuse(
            "DT-CARD-6", t("That scroll is not in {player}'s hand.", player=_name(state, seat))
        )
    scroll = data["scrolls"][card]
    effect = scroll["effect"]
    phase, active = state["phase"], state["active"]
    if state["pending"] and state["pending"][0]["why"] != "combat":
        raise _Refuse(
            "DT-CARD-7",
            t("Scrolls wait until the draw is done; {prompt}", prompt=prompt(data, state)),
        )
    if "cross" in effect:
        raise _Refuse(
            "DT-AMB-27",
            t("A crossing scroll is played with the step it crosses (step with cross: scroll)."),
        )
    window = WINDOWS.get(phase)
    plays_here = window is not None and (seat == active) == (window[1] == "fighter")
    if phase in RIVAL_WINDOWS and plays_here and seat in state["combat"]["passed"]:
        raise _Refuse("DT-COMBAT-4", t("{player} has passed.", player=_name(state, seat)))
    if not plays_here or not fits_window(scroll, phase):
        # a refusal is public: it never names the scroll or who may play it
        if moment_of(scroll) == "after_roll":
            raise _Refuse(
                "DT-COMBAT-8",
                t(
                    "That scroll is played after a combat roll, in its window; {prompt}",
                    prompt=prompt(data, state),
                ),
            )
        raise _Refuse(
            "DT-AMB-27",
            t("That scroll cannot be played now; {prompt}", prompt=prompt(data, state)),
        )
    combat = state["combat"]
    if "remove_monster" in effect:  # DT-COMBAT-9: removed before the fight
        target = action.get("token")
        left = fighting(combat)
        if target not in left:
            raise _Refuse("DT-COMBAT-9", t("Name a monster of this fight to remove (token)."))
        if len(left) == 1:
            raise _Refuse("DT-COMBAT-9", t("The last monster cannot be removed; fight it."))
        combat["removed"].append(target)
    if "set_die" in effect:
        die_index = action.get("die", 0)
        rolled = [index for index, rolled_die in enumerate(combat["dice"]) if not rolled_die["six"]]
        if die_index not in rolled or isinstance(die_index, bool):
            raise _Refuse("DT-COMBAT-8", t("Name a rolled die (die: 0 or 1) to change."))
    played = {"player": _name(state, seat), "scroll": card, "effect": effect}
    if window[0] == "before_roll":
        played["token"] = action.get("token") if "remove_monster" in effect else None
    use_scroll(data, state, seat, card, events)
    combat["played"].append(played)
    if seat != active:  # a scroll against the fighter lets everyone answer again
        combat["passed"] = []
    if window[0] == "before_roll":
        skip_empty_windows(state)
        return
    # after the roll: re-roll the dice not bought as sixes, or change a die (DT-COMBAT-8)
    if "reroll" in effect:
        state["phase"] = "pre_roll"
        combat["dice"] = None
        await_roll(state)
        return
    combat["dice"][die_index]["value"] = effect["set_die"]
    judge(data, state, events)


def take_back(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-CARD-7: a scroll may be taken back until someone else plays another one."""
    seat = _seat(state, _player(action))
    combat = state["combat"]
    if (
        combat is None
        or state["phase"] not in ("scrolls_own", "scrolls_others", "pre_roll")
        or combat["rolls"]
    ):
        raise _Refuse(
            "DT-CARD-7",
            t("Only a scroll played in this fight, before the roll, can be taken back."),
        )
    name = _name(state, seat)
    mine = [index for index, entry in enumerate(combat["played"]) if entry["player"] == name]
    if not mine:
        raise _Refuse("DT-CARD-7", t("{player} has played no scroll in this fight.", player=name))
    last = mine[-1]
    if any(entry["player"] != name for entry in combat["played"][last + 1 :]):
        raise _Refuse(
            "DT-CARD-7", t("Another scroll has been played since; it cannot be taken back.")
        )
    played = combat["played"].pop(last)
    if played.get("token") in combat["removed"]:
        combat["removed"].remove(played["token"])
    state["scrolls"]["discard"].remove(played["scroll"])
    state["heroes"][seat]["scrolls"].append(played["scroll"])
    # the window it was played in opens again, so the scroll may be played anew
    if seat == state["active"]:
        state["phase"] = "scrolls_own"
        combat["passed"] = []
    else:
        state["phase"] = "scrolls_others"
        if seat in combat["passed"]:
            combat["passed"].remove(seat)
    state["pending"] = [entry for entry in state["pending"] if entry.get("why") != "combat"]
    scroll = named(data["scrolls"][played["scroll"]]["name"])  # played: public
    events.append(
        _event(
            "scroll_taken_back",
            t("{player} takes back {scroll}.", player=name, scroll=scroll),
            player=name,
            scroll=played["scroll"],
        )
    )


def pass_window(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-COMBAT-4, DT-COMBAT-8: each rival plays scrolls against the fighter or passes, before
    the roll and after a winning one; a rival holding no playable scroll may pass too."""
    seat = _seat(state, _player(action))
    if state["phase"] not in RIVAL_WINDOWS or seat == state["active"]:
        raise _Refuse(
            "DT-COMBAT-4",
            t(
                "Only the other players pass, in their scroll windows of a fight; {prompt}",
                prompt=prompt(data, state),
            ),
        )
    if seat in state["combat"]["passed"]:
        raise _Refuse("DT-COMBAT-4", t("{player} has already passed.", player=_name(state, seat)))
    state["combat"]["passed"].append(seat)
    if all_passed(state):
        close_rivals_window(data, state, events)


def close_window(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-COMBAT-4, DT-COMBAT-8: the countdown of the rivals' window ended (the table's, or the
    host's): the window closes as if every rival had passed."""
    if state["phase"] not in RIVAL_WINDOWS:
        raise _Refuse(
            "DT-COMBAT-4",
            t("No rivals' scroll window is open; {prompt}", prompt=prompt(data, state)),
        )
    events.append(
        _event("window_closed", t("Time is up: the scroll window closes."), phase=state["phase"])
    )
    close_rivals_window(data, state, events)


def buy_six(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-COMBAT-6: before rolling, 4 XP turn one die into an automatic 6."""
    seat = _seat(state, _player(action))
    combat = state["combat"]
    if combat is None or seat != state["active"] or state["phase"] != "pre_roll" or combat["rolls"]:
        raise _Refuse("DT-COMBAT-6", t("XP buys a six only before the fight's roll."))
    if combat["sixes"] >= MAX_SIXES:
        raise _Refuse("DT-COMBAT-6", t("Both dice are already sixes."))
    if combat["sixes"] and not data["xp_repeat"].get("die_to_six", True):
        raise _Refuse("DT-AMB-3", t("This data set allows one die bought as a six per fight."))
    cost = data["xp"]["die_to_six"]
    hero = state["heroes"][seat]
    if hero["xp"] < cost:
        raise _Refuse(
            "DT-COMBAT-6",
            t(
                "A six costs {cost} XP; {player} has {xp}.",
                cost=cost,
                player=_name(state, seat),
                xp=hero["xp"],
            ),
        )
    hero["xp"] -= cost
    combat["sixes"] += 1
    events.append(
        _event(
            "six_bought",
            t("{player} pays {cost} XP: one die is a 6.", player=_name(state, seat), cost=cost),
            player=_name(state, seat),
            sixes=combat["sixes"],
        )
    )
    if combat["sixes"] == MAX_SIXES:
        state["pending"] = [entry for entry in state["pending"] if entry.get("why") != "combat"]
        combat["dice"] = [{"value": 6, "six": True}, {"value": 6, "six": True}]
        combat["rolls"] += 1
        judge(data, state, events)
        flow(data, state, events)
    else:
        await_roll(state)


def flee(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-DEFEAT-3, DT-DEFEAT-4, DT-SPACE-8, DT-WIZ-5, DT-AMB-11."""
    seat = expect_turn(data, state, action, "defeat", "flee")
    to = action.get("to")
    allowed = flee_spaces(data, state)
    if to not in allowed:
        combat = state["combat"]
        if combat["wizard"]:
            raise _Refuse("DT-WIZ-5", t("Nobody flees from Z'Mindrik."))
        if space_type(data, combat["space"])["no_flee"]:
            raise _Refuse("DT-SPACE-8", t("Nobody flees from a dungeon: win or die."))
        raise _Refuse(
            "DT-DEFEAT-3",
            t(
                "A hero flees only to a next space without monsters, "
                "not across a lake (or a mountain) he cannot "
                "habitually cross."
            ),
        )
    name = _name(state, seat)
    state["heroes"][seat]["space"] = to
    state["t"]["fled"] = True
    events.append(
        _event(
            "fled",
            t(
                "{player} flees to {space}; the monsters stay.",
                player=name,
                space=space_name(data, to),
            ),
            player=name,
            to=to,
        )
    )
    _lost(data, state, events)


def die(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-DEFEAT-5, DT-DEATH-1..3, DT-TOWER-5, DT-WIZ-6, DT-AMB-10, DT-AMB-12."""
    seat = expect_turn(data, state, action, "defeat", "die")
    if state["options"]["death_only_without_escape"] and flee_spaces(data, state):
        raise _Refuse("DT-DEFEAT-5", t("A hero dies only with nowhere to flee; flee instead."))
    hero = state["heroes"][seat]
    for slot in hero["slots"]:
        if slot:
            state["items"]["discard"].append(slot["card"])
    state["items"]["discard"].extend(entry["card"] for entry in hero["backpack"])
    state["scrolls"]["discard"].extend(hero["scrolls"])
    lost_gold = hero["gold"]
    hero.update(
        slots=[None] * SLOTS, backpack=[], scrolls=[], gold=0, dead=True, space=hero["home"]
    )
    state["t"]["died"] = True
    name = _name(state, seat)
    events.append(
        _event(
            "died",
            t(
                "{player} dies and is carried home to {city}, losing every "
                "card and {gold} gold; the XP stay.",
                player=name,
                city=space_name(data, hero["home"]),
                gold=lost_gold,
            ),
            player=name,
        )
    )
    _lost(data, state, events)


def _lost(data: dict[str, Any], state: State, events: list[Event]) -> None:
    """The fight is lost for good: the monsters stay as a group (DT-GROUP-1), except
    Z'Mindrik's (DT-WIZ-7); a quest moves anyway (DT-QUEST-5, DT-QUEST-6)."""
    combat = state["combat"]
    if combat["wizard"]:
        return_tokens(state, list(combat["monsters"]))
    else:
        group = fighting(combat)
        state["monsters"][combat["space"]] = group
        return_tokens(state, list(combat["removed"]))
        if combat["quest"]:
            events.append(_event("quest_lost", t("The quest is lost; it moves elsewhere.")))
            relocate(data, state, combat["space"])
    state["combat"] = None
    state["encounter"] = None
    state["phase"] = "cleanup"  # DT-DEFEAT-4, DT-AMB-13
    flow(data, state, events)
