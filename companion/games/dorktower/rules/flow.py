"""Where a turn goes next: the automatic transitions of section 4.2 of the specification (a
chance step done, an encounter over, a fight to start, a trade window, the city, the cleanup),
and the start of a turn."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.rules.api import Event, State
from companion.rules.common import event as _event
from companion.rules.common import name_of as _name

from .board import others_here, space_name, space_type
from .constants import RESURRECTION_GOLD
from .fights import quest_won, start_combat
from .heroes import level_of


def flow(data: dict[str, Any], state: State, events: list[Event]) -> None:
    """Move on when no chance step waits: the automatic transitions of section 4.2."""
    _drop_impossible(state, events)
    if state["pending"] or state["phase"] in ("over", "start_roll"):
        return
    phase = state["phase"]
    if phase == "setup":  # the starting scrolls are drawn: the first turn
        state["active"] = state["first"]
        start_turn(data, state, events)
        return
    if phase == "encounter":
        encounter = state["encounter"]
        if encounter.get("done"):
            _after_encounter(data, state, events)
            return
        if encounter["unresolved"]:
            state["phase"] = "resolve"
            return
        monsters = [monster for monster in encounter["drawn"] if data["tokens"][monster]["monster"]]
        if encounter["aside"]:  # DT-WIZ-2: the friendly tokens set aside go back into the bowl
            for token in encounter["aside"]:
                state["bowl"][token] = state["bowl"].get(token, 0) + 1
            encounter["aside"] = []
        if monsters:  # DT-ENC-5
            start_combat(data, state, monsters, events)
            return
        if encounter["quest"]:  # DT-AMB-8: no monster, the quest is won at once
            quest_won(data, state, events)
            encounter["done"] = True
            flow(data, state, events)
            return
        _after_encounter(data, state, events)


def _drop_impossible(state: State, events: list[Event]) -> None:
    """DT-AMB-14: with the bowl empty, draw as many tokens as remain; with a deck and its
    discard pile both empty (every card is held), there is nothing to draw."""
    while state["pending"]:
        chance_step = state["pending"][0]
        if chance_step["kind"] == "token" and not any(state["bowl"].values()):
            what = t("The bowl is empty: no more encounter tokens to draw.")
        elif chance_step["kind"] in ("item", "scroll"):
            deck = state["items" if chance_step["kind"] == "item" else "scrolls"]
            if deck["deck"] or deck["discard"]:
                return
            what = (
                t("Every item card is in someone's hands: none to draw.")
                if chance_step["kind"] == "item"
                else t("Every scroll card is in someone's hands: none to draw.")
            )
            if chance_step.get("why") == "shop":
                state["shop"]["drawn"] -= 1
        else:
            return
        state["pending"].pop(0)
        events.append(_event("nothing_to_draw", what, what=chance_step["kind"]))


def _after_encounter(data: dict[str, Any], state: State, events: list[Event]) -> None:
    """POST_ENCOUNTER: city business in a city, else the trade window, then cleanup."""
    state["encounter"] = None
    here = state["heroes"][state["active"]]["space"]
    if space_type(data, here)["city"]:
        to_city(state, events)
        return
    if trade_window(state, "after"):
        return
    state["phase"] = "cleanup"


def start_turn(data: dict[str, Any], state: State, events: list[Event]) -> None:
    """DT-TURN-1, DT-TURN-2; DT-DEATH-2 and DT-AMB-9 for a hero who died."""
    seat = state["active"]
    hero = state["heroes"][seat]
    state["turn"] += 1
    state["encounter"] = state["combat"] = state["shop"] = state["offer"] = None
    level = level_of(data, state, seat)
    state["t"] = {
        "moves_left": level["movement"],
        "start": hero["space"],
        "stepped": False,
        "ended": False,
        "whole": False,
        "paid": {},
        "fled": False,
        "died": False,
        "encountered": False,
        "business": None,
        "scroll_bought": False,
        "sold": False,
        "trade_window": None,
    }
    name = _name(state, seat)
    if hero["dead"]:
        hero["dead"] = False
        hero["space"] = hero["home"]
        hero["gold"] += RESURRECTION_GOLD
        events.append(
            _event(
                "resurrected",
                t(
                    "The citizens of {city} resurrect {player} and give him {gold} gold.",
                    city=space_name(data, hero["home"]),
                    player=name,
                    gold=RESURRECTION_GOLD,
                ),
                player=name,
                gold=RESURRECTION_GOLD,
            )
        )
        if state["options"]["resurrection_consumes_turn"]:
            state["t"]["ended"] = "other"
            state["phase"] = "cleanup"
            return
    state["phase"] = "move"
    events.append(
        _event(
            "turn",
            t("{player}'s turn: move up to {n} spaces.", player=name, n=level["movement"]),
            player=name,
            turn=state["turn"],
        )
    )


def trade_window(state: State, which: str) -> bool:
    """DT-TRADE-1, DT-AMB-7: a trade window opens when others share the space."""
    if state["options"]["trade_windows"] not in ("both", which):
        return False
    if not others_here(state, state["active"]):
        return False
    state["phase"] = "trade"
    state["t"]["trade_window"] = which
    return True


def to_city(state: State, events: list[Event]) -> None:
    """DT-CITY-1: the hero does his business in the city; the shop is not drawn yet."""
    state["phase"] = "city"
    state["shop"] = {"cards": [], "drawn": 0}
