"""Encounters (DT-ENC): what the space a hero stops on asks for (a city, monsters to fight,
tokens to draw) and the tokens that are not monsters, resolved first."""

from __future__ import annotations

from typing import Any

from companion.i18n import Text, t
from companion.rules.api import Action, Event, State
from companion.rules.common import Refuse as _Refuse
from companion.rules.common import event as _event
from companion.rules.common import name_of as _name

from .board import draw_count, space_name, space_type
from .checks import expect_turn
from .fights import return_tokens, start_combat
from .flow import flow, to_city, trade_window
from .state import draw_step, new_encounter
from .texts import listing, named


def move_ended(data: dict[str, Any], state: State, events: list[Event], why: str = "stop") -> None:
    """The movement is over (``why``): a trade window first, or the encounter (DT-MOVE-6)."""
    state["t"]["ended"] = why
    if trade_window(state, "before"):
        return
    classify(data, state, events)


def classify(data: dict[str, Any], state: State, events: list[Event]) -> None:
    """MOVE_ENDED: a city, monsters to fight, or tokens to draw (DT-ENC-1..3, DT-MOVE-6)."""
    seat = state["active"]
    here = state["heroes"][seat]["space"]
    kind = space_type(data, here)
    state["t"]["encountered"] = True
    if here in state["monsters"]:  # DT-ENC-2, DT-GROUP-1: fight them; nothing is drawn
        state["encounter"] = new_encounter(here, quest=here in state["quests"])
        start_combat(data, state, list(state["monsters"][here]), events)
        return
    if kind["city"] and here not in state["quests"]:  # DT-ENC-1
        to_city(state, events)
        return
    count = draw_count(data, state, here)
    state["encounter"] = new_encounter(here, quest=here in state["quests"])
    name = _name(state, seat)
    where = space_name(data, here)
    if count == 1:
        text = t(
            "{player} draws {n} encounter token on {space}.", player=name, n=count, space=where
        )
    else:
        text = t(
            "{player} draws {n} encounter tokens on {space}.", player=name, n=count, space=where
        )
    events.append(_event("encounter", text, player=name, count=count))
    state["phase"] = "encounter"
    state["pending"].extend(draw_step("token", seat, "encounter") for _token in range(count))
    flow(data, state, events)


def resolve(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-ENC-4: non-monster tokens first, in any order, until none remain."""
    seat = expect_turn(data, state, action, "resolve", "resolve")
    token = action.get("token")
    encounter = state["encounter"]
    if token not in encounter["unresolved"]:
        raise _Refuse("DT-ENC-4", t("That token is not waiting to be resolved."))
    encounter["unresolved"].remove(token)
    encounter["drawn"].remove(token)
    entry = data["tokens"][token]
    hero = state["heroes"][seat]
    effect = entry.get("effect") or {}
    name = _name(state, seat)
    parts: list[Text] = []
    if effect.get("gold"):
        hero["gold"] += effect["gold"]
        parts.append(t("{gold} gold", gold=effect["gold"]))
    if effect.get("xp"):
        hero["xp"] += effect["xp"]
        parts.append(t("{xp} XP", xp=effect["xp"]))
    for _scroll in range(effect.get("draw_scroll", 0)):
        state["pending"].append(draw_step("scroll", seat, "token"))
        parts.append(t("a scroll"))
    if effect.get("draw_item"):
        state["pending"].append(draw_step("item", seat, "token", face=effect["draw_item"]))
        parts.append(
            t("an equipment item") if effect["draw_item"] == "equipment" else t("a magic item")
        )
    why = "wizard" if encounter["wizard"] else "encounter"
    for _token in range(effect.get("draw_tokens", 0)):  # tombs and lairs (DT-COMP-3, DT-WIZ-3)
        state["pending"].append(draw_step("token", seat, why))
    if effect.get("draw_tokens"):
        count = effect["draw_tokens"]
        parts.append(t("{n} more token", n=count) if count == 1 else t("{n} more tokens", n=count))
    return_tokens(state, [token])
    if parts:
        text = t(
            "{player} resolves {token}: {gains}.",
            player=name,
            token=named(entry["name"]),
            gains=listing(parts),
        )
    else:
        text = t("{player} resolves {token}.", player=name, token=named(entry["name"]))
    events.append(_event("resolved", text, player=name, token=token))
    state["phase"] = "encounter"
    flow(data, state, events)
