"""The choices players can make now (``legal_actions``), for the phones and the simulated
players: steps, scroll plays, city business, discards and the rest."""

from __future__ import annotations

from typing import Any

from companion.rules.api import Action, State
from companion.rules.common import name_of as _name

from .board import door_space, other_seats, space_type, wedge_by_id
from .constants import MAX_SIXES, SCROLL_PRICE
from .heroes import habitual, level_of, over_limits
from .movement import flee_spaces
from .routes import reach
from .state import fighting, held_items
from .windows import fits_window


def legal_actions(data: dict[str, Any], state: State) -> list[Action]:
    """The choices players can make now (scrolls excepted: they depend on the hand); a
    pending chance step comes first, except that the fighter may still buy sixes."""
    phase = state["phase"]
    if phase in ("over", "start_roll"):
        return []
    if phase == "choose":
        chooser = _name(state, state["choosing"])
        taken_chars = {hero["character"] for hero in state["heroes"]}
        taken = {data["spaces"][hero["home"]]["wedge"] for hero in state["heroes"] if hero["home"]}
        cities = [
            space["id"]
            for space in data["spaces"].values()
            if space_type(data, space["id"])["city"]
            and space["wedge"] not in taken
            and wedge_by_id(data, space["wedge"])["kind"] == "kingdom"
        ]
        return [
            {"type": "choose", "player": chooser, "character": character, "city": city}
            for character in sorted(data["characters"])
            if character not in taken_chars
            for city in sorted(cities)
        ]
    active = _name(state, state["active"])
    out: list[Action] = []
    if phase == "pre_roll":
        combat = state["combat"]
        if (
            not combat["rolls"]
            and combat["sixes"] < MAX_SIXES
            and state["heroes"][state["active"]]["xp"] >= data["xp"]["die_to_six"]
        ):
            out.append({"type": "buy_six", "player": active})
        return out
    if phase in ("scrolls_others", "scrolls_after"):  # the rivals' windows (``windows``)
        for seat in other_seats(state, state["active"]):
            if seat not in state["combat"]["passed"] and state["heroes"][seat]["scrolls"]:
                out.append({"type": "pass", "player": _name(state, seat)})
                out += _scroll_plays(data, state, seat)
        return out
    if state["pending"]:
        return []
    if phase == "move":
        for to in sorted(data["adjacent"].get(state["heroes"][state["active"]]["space"], {})):
            for act in _step_options(data, state, to):
                out.append(act)
        # moving by touch: one route to each reachable space, its cheapest way
        for place in reach(data, state) or []:
            way = place["ways"][0]
            out.append({"type": "travel", "player": active, "path": way["path"], "pay": way["pay"]})
        out.append({"type": "stop", "player": active})
        if not state["options"]["encounter_before_entry"] and state["heroes"][state["active"]][
            "space"
        ] == door_space(data, state):
            out.append({"type": "enter_tower", "player": active})
    elif phase == "resolve":
        out += [
            {"type": "resolve", "player": active, "token": token}
            for token in sorted(set(state["encounter"]["unresolved"]))
        ]
    elif phase == "scrolls_own":
        out.append({"type": "done", "player": active})
        out += _scroll_plays(data, state, state["active"])
    elif phase == "defeat":
        out += _scroll_plays(data, state, state["active"])
        out += [{"type": "flee", "player": active, "to": to} for to in flee_spaces(data, state)]
        if not (state["options"]["death_only_without_escape"] and flee_spaces(data, state)):
            out.append({"type": "die", "player": active})
    elif phase == "city":
        turn, hero = state["t"], state["heroes"][state["active"]]
        if turn["business"] is None and not (
            turn["sold"] and not state["options"]["work_allows_selling"]
        ):
            out.append({"type": "work", "player": active})
        if turn["business"] != "work":
            if not state["shop"]["drawn"]:
                out.append({"type": "shop", "player": active})
            elif hero["xp"] >= data["xp"]["extra_shop_card"]:
                out.append({"type": "shop_more", "player": active})
            for entry in state["shop"]["cards"]:
                if entry["bought"] is None:
                    for face in ("equipment", "magic"):
                        if data["items"][entry["card"]][face]["price"] <= hero["gold"]:
                            out.append(
                                {
                                    "type": "buy",
                                    "player": active,
                                    "card": entry["card"],
                                    "face": face,
                                }
                            )
            if not turn["scroll_bought"] and hero["gold"] >= SCROLL_PRICE:
                out.append({"type": "buy_scroll", "player": active})
        if turn["business"] != "work" or state["options"]["work_allows_selling"]:
            out += [
                {"type": "sell", "player": active, "card": entry["card"]}
                for entry in held_items(hero)
            ]
        out.append({"type": "done", "player": active})
        if not over_limits(data, state):
            out.append({"type": "end_turn", "player": active})
    elif phase == "trade":
        offer = state["offer"]
        if offer is not None:
            out += [{"type": "decline", "player": _name(state, offer["to"])}]
        else:
            out += [{"type": "done", "player": active}]
    elif phase == "cleanup":
        if not over_limits(data, state):
            out.append({"type": "end_turn", "player": active})
        for seat, hero in enumerate(state["heroes"]):
            for entry in hero["backpack"]:
                out.append({"type": "discard", "player": _name(state, seat), "card": entry["card"]})
            for card in hero["scrolls"]:
                out.append({"type": "discard", "player": _name(state, seat), "scroll": card})
    if (
        state["heroes"][state["active"]]["level"] == "low"
        and state["heroes"][state["active"]]["xp"] >= data["xp"]["level_up"]
    ):
        out.append({"type": "level_up", "player": active})
    return out


def _scroll_plays(data: dict[str, Any], state: State, seat: int) -> list[Action]:
    """The plays of a hero's scrolls that suit this fight window (their owner alone sees them)."""
    scrolls = data["scrolls"]
    combat = state["combat"]
    out = []
    for card in state["heroes"][seat]["scrolls"]:
        scroll = scrolls[card]
        effect = scroll["effect"]
        if not fits_window(scroll, state["phase"]):
            continue
        base = {"type": "play_scroll", "player": _name(state, seat), "scroll": card}
        if "remove_monster" in effect:
            left = fighting(combat)
            if len(left) > 1:
                out += [base | {"token": monster} for monster in sorted(set(left))]
        elif "set_die" in effect:
            out += [
                base | {"die": index}
                for index, die in enumerate(combat["dice"] or [])
                if not die["six"]
            ]
        else:
            out.append(base)
    return out


def _step_options(data: dict[str, Any], state: State, to: str) -> list[Action]:
    """The ways the active player can step to a next space now."""
    seat, turn = state["active"], state["t"]
    hero = state["heroes"][seat]
    border = data["adjacent"][hero["space"]][to]
    active = _name(state, seat)
    costs = data["xp"]
    base = {"type": "step", "player": active, "to": to}
    modes: list[dict] = []
    if border == "none" or habitual(data, state, seat, border):
        modes.append({})
    else:
        if hero["xp"] >= costs["cross_border"]:
            modes.append({"cross": "xp"})
        if (
            not turn["stepped"]
            and hero["space"] == turn["start"]
            and turn["moves_left"] == level_of(data, state, seat)["movement"]
            and turn["moves_left"]
        ):
            modes.append({"cross": "whole"})
    out = []
    for mode in modes:
        xp = costs["cross_border"] if mode.get("cross") == "xp" else 0
        if turn["moves_left"] >= 1 or mode.get("cross") == "whole":
            out.append(base | mode)
        if hero["xp"] >= xp + costs["extra_step"] and mode.get("cross") != "whole":
            out.append(base | mode | {"extra": True})
    return out
