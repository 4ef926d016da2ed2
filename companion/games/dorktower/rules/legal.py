"""The choices players can make now (``legal_actions``), for the phones and the simulated
players: steps (crossing scrolls included), scroll plays and taking them back, city business,
offers and their answers, the hero's sheet (equipping, unequipping, discarding, levelling up) and
the rest. Every action type the rules accept in a state is offered there, with three
deliberate gaps: while a chance step is pending the hero's sheet waits; before the cleanup only
discards down to a limit are offered; paying for a crossing the hero makes freely is not. An offer
is a template (``give`` and ``take`` empty) that the phone fills in."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from companion.rules.api import Action, State
from companion.rules.common import Refuse as _Refuse
from companion.rules.common import name_of as _name

from .board import door_space, other_seats, others_here, space_type, wedge_by_id
from .constants import MAX_SIXES, SCROLL_PRICE
from .heroes import fits, habitual, level_of, limits, over_limits
from .movement import flee_spaces
from .routes import reach
from .state import copy_state, fighting, held_items
from .turns import end_turn
from .windows import fits as scroll_fits
from .windows import fits_window


def legal_actions(data: dict[str, Any], state: State) -> list[Action]:
    """The choices players can make now, each player's own (his scrolls among them: only he is
    shown his). While a chance step is pending (a draw, a roll) only the fight's buying of
    sixes and the others' scroll window are offered: the step comes first, though the rules
    would take a change of the sheet meanwhile."""
    phase = state["phase"]
    if phase in ("over", "start_roll", "choose") or state["pending"]:
        return _phase_actions(data, state)  # a pending chance step comes first
    if phase == "scrolls_after":  # DT-AMB-15: a roll not yet judged leaves the sheet alone
        return _phase_actions(data, state)
    return _phase_actions(data, state) + _take_backs(state) + _sheet_actions(data, state)


def _phase_actions(data: dict[str, Any], state: State) -> list[Action]:
    """What the phase asks for: a pending chance step comes first, except that the fighter may
    still buy sixes and the others play or pass."""
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
            out += _step_options(data, state, to) + _scroll_steps(data, state, to)
        # moving by touch: one route to each reachable space, its cheapest way
        for place in reach(data, state) or []:
            way = place["ways"][0]
            out.append({"type": "travel", "player": active, "path": way["path"], "pay": way["pay"]})
        out.append({"type": "stop", "player": active})
        out += _ends_turn(data, state)
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
            out += [  # DT-CITY-6: a scroll sells for 50 gold
                {"type": "sell", "player": active, "scroll": card}
                for card in sorted(set(hero["scrolls"]))
            ]
        out.append({"type": "done", "player": active})
        if not over_limits(data, state):
            out.append({"type": "end_turn", "player": active})
    elif phase == "trade":
        out += _trade_actions(state) + _ends_turn(data, state)
    elif phase == "cleanup":
        if not over_limits(data, state):
            out.append({"type": "end_turn", "player": active})
        for seat in other_seats(state, state["active"]):  # DT-AMB-25: anyone, at the end
            out += _discards(state, seat)
    if (
        phase in ("trade", "cleanup")
        and state["options"]["encounter_before_entry"]
        and state["t"]["encountered"]
        and not (state["t"]["fled"] or state["t"]["died"])
        and state["offer"] is None
        and state["heroes"][state["active"]]["space"] == door_space(data, state)
    ):  # DT-AMB-18: the door's encounter first, then the way in
        out.append({"type": "enter_tower", "player": active})
    return out


def _ends_turn(data: dict[str, Any], state: State) -> list[Action]:
    """DT-TURN-2: ``end_turn`` also closes a movement with no encounter (a city) or a trade
    window on the way to the cleanup; whether it can is tried on a copy."""
    here = state["heroes"][state["active"]]["space"]
    if state["phase"] == "move" and not space_type(data, here)["city"]:
        return []  # DT-MOVE-6: outside a city the encounter comes first (no copy to learn it)
    action = {"type": "end_turn", "player": _name(state, state["active"])}
    try:
        end_turn(data, copy_state(state), action, [])
    except _Refuse:
        return []
    return [action]


def _trade_actions(state: State) -> list[Action]:
    """DT-TRADE-1..3: with no offer waiting, the active player may offer a trade to each hero
    on his space (an empty template the phone fills in) or close the window; an offer waiting
    is accepted (naming the scrolls it asks for) or declined by its partner, or withdrawn."""
    active = _name(state, state["active"])
    offer = state["offer"]
    if offer is None:
        out: list[Action] = [{"type": "done", "player": active}]
        return out + [
            {
                "type": "offer",
                "player": active,
                "with": _name(state, partner),
                "give": {},
                "take": {},
            }
            for partner in others_here(state, state["active"])
        ]
    partner = _name(state, offer["to"])
    hand = sorted(set(state["heroes"][offer["to"]]["scrolls"]))
    chosen = combinations(hand, offer["take"]["scrolls"]) if _offer_holds(state, offer) else []
    out = [{"type": "accept", "player": partner, "scrolls": list(pick)} for pick in chosen]
    out.append({"type": "decline", "player": partner})
    out.append({"type": "decline", "player": _name(state, offer["from"])})
    return out + [{"type": "done", "player": active}]  # closing the window withdraws it


def _offer_holds(state: State, offer: dict[str, Any]) -> bool:
    """Both sides still hold what the offer names (a card may be discarded meanwhile)."""
    for seat, side in ((offer["from"], offer["give"]), (offer["to"], offer["take"])):
        hero = state["heroes"][seat]
        cards = [entry["card"] for entry in held_items(hero)]
        scrolls = side["scrolls"] if isinstance(side["scrolls"], list) else []
        hand = list(hero["scrolls"])
        if side["gold"] > hero["gold"] or any(card not in cards for card in side["items"]):
            return False
        for card in scrolls:
            if card not in hand:
                return False
            hand.remove(card)
    return True


def _discards(state: State, seat: int) -> list[Action]:
    """DT-LIMIT-1, DT-LIMIT-2: the items (slots, then backpack) and scrolls a hero may discard."""
    name, hero = _name(state, seat), state["heroes"][seat]
    out: list[Action] = [
        {"type": "discard", "player": name, "card": card}
        for card in dict.fromkeys(entry["card"] for entry in held_items(hero))
    ]
    return out + [
        {"type": "discard", "player": name, "scroll": card} for card in sorted(set(hero["scrolls"]))
    ]


def _over(data: dict[str, Any], state: State, seat: int) -> list[Action]:
    """DT-LIMIT-1..3, DT-AMB-25: before the cleanup the discards offered are those that bring a
    hero over a limit back down (the rules take any discard in his turn; these are the ones that
    serve a purpose)."""
    hero, cap = state["heroes"][seat], limits(data, state, seat)
    return [
        action
        for action in _discards(state, seat)
        if ("scroll" in action and len(hero["scrolls"]) > cap["scrolls"])
        or (
            "card" in action
            and len(hero["backpack"]) > cap["backpack"]
            and any(entry["card"] == action["card"] for entry in hero["backpack"])
        )
    ]


def _sheet_actions(data: dict[str, Any], state: State) -> list[Action]:
    """DT-CHAR-2..5, DT-LVL-1, DT-AMB-15, DT-AMB-25: in his own turn, except between a fight's
    roll and its outcome, the active hero moves items between his backpack and the slots they
    fit, discards (down to his limits; in the cleanup anything), and levels up with 10 XP."""
    seat = state["active"]  # no chance step is pending (legal_actions): no roll is unjudged
    name, hero = _name(state, seat), state["heroes"][seat]
    slots = level_of(data, state, seat)["slots"]
    out: list[Action] = []
    first = {}  # the rules take the first card of a name: slots, then backpack
    for entry in held_items(hero):
        first.setdefault(entry["card"], entry)
    for entry in first.values():
        item = data["items"][entry["card"]][entry["face"]]
        out += [
            {"type": "equip", "player": name, "card": entry["card"], "slot": index}
            for index, slot in enumerate(slots)
            if hero["slots"][index] is not entry and fits(state, slot, item)
        ]
    out += [
        {"type": "unequip", "player": name, "card": entry["card"]}
        for entry in hero["slots"]
        if entry
    ]
    out += _discards(state, seat) if state["phase"] == "cleanup" else _over(data, state, seat)
    if hero["level"] == "low" and hero["xp"] >= data["xp"]["level_up"]:
        out.append({"type": "level_up", "player": name})
    return out


def _take_backs(state: State) -> list[Action]:
    """DT-CARD-7: before the roll, a player takes back his last scroll of this fight if nobody
    else has played one since."""
    combat = state["combat"]
    if (
        combat is None
        or state["phase"] not in ("scrolls_own", "scrolls_others", "pre_roll")
        or combat["rolls"]
        or not combat["played"]
    ):
        return []
    last = combat["played"][-1]["player"]  # only the last player's run is unbroken
    return [{"type": "take_back", "player": last}]


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


def _scroll_steps(data: dict[str, Any], state: State, to: str) -> list[Action]:
    """DT-BORDER-2 (a): a step across a border with a crossing scroll of the hand, when no
    ability or item crosses it already."""
    seat, turn = state["active"], state["t"]
    hero = state["heroes"][seat]
    border = data["adjacent"][hero["space"]][to]
    if border == "none" or habitual(data, state, seat, border):
        return []
    out: list[Action] = []
    for card in sorted(set(hero["scrolls"])):
        scroll = data["scrolls"][card]
        if border not in scroll["effect"].get("cross", []) or not scroll_fits(
            scroll, "movement", "fighter"
        ):
            continue
        base = {"type": "step", "player": _name(state, seat), "to": to}
        base |= {"cross": "scroll", "scroll": card}
        if turn["moves_left"] >= 1:
            out.append(base)
        if hero["xp"] >= data["xp"]["extra_step"]:
            out.append(base | {"extra": True})
    return out
