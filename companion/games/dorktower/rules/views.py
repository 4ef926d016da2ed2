"""What each viewer may see of a Dork Tower state (``view``), a state a viewer cannot tell apart
from it (``indistinguishable``), and the outcome."""

from __future__ import annotations

import random
from typing import Any

from companion.rules.api import EVERYTHING, HOST, TABLE, Outcome, State
from companion.rules.common import name_of as _name

from .board import door_wedge, draw_count, is_day, wedge_days
from .chance import awaited
from .constants import GAME_ID, QUEST_XP, RESURRECTION_GOLD, SCROLL_PRICE, WORK_PAY
from .fights import totals
from .heroes import limits
from .movement import flee_spaces
from .prompts import prompt, waiting_names
from .routes import reach
from .state import copy_state
from .texts import named


def view(data: dict[str, Any], state: State, viewer: str) -> dict[str, Any]:
    """DT-TOK-3, DT-CARD-3, DT-CARD-6, DT-AMB-30: scrolls in hand are seen only by their
    owner; gold, XP, the number of scrolls, items, tokens on the board and the tower are
    public; the decks' order and the bowl's contents are seen by nobody."""
    names = state["players"]
    if viewer not in (TABLE, HOST, EVERYTHING) and viewer not in names:
        raise ValueError(f"unknown viewer {viewer!r}")
    everything = viewer == EVERYTHING
    players = {}
    for seat, name in enumerate(names):
        hero = state["heroes"][seat]
        character = data["characters"].get(hero["character"]) if hero["character"] else None
        level = character[hero["level"]] if character else None
        sees = everything or viewer == name
        players[name] = {
            "seat": seat,
            "character": hero["character"],
            "hero": named(character["name"]) if character else None,
            "level": hero["level"],
            "strength": level["strength"] if level else None,
            "movement": level["movement"] if level else None,
            "abilities": list(level["abilities"]) if level else [],
            "gold": hero["gold"],
            "xp": hero["xp"],
            "space": hero["space"],
            "home": hero["home"],
            "dead": hero["dead"],
            "slots": [
                _item_view(data, entry, level["slots"][index] if level else None)
                for index, entry in enumerate(hero["slots"])
            ],
            "backpack": [_item_view(data, entry, None) for entry in hero["backpack"]],
            "scroll_count": len(hero["scrolls"]),
            "scrolls": [_scroll_view(data, card) for card in hero["scrolls"]] if sees else None,
            "limits": limits(data, state, seat) if level else None,
        }
    tower_days = wedge_days(data, state)
    door = door_wedge(data, state)
    fight = state["combat"]
    combat = None
    if fight is not None:
        combat = {
            "monsters": [_token_view(data, monster) for monster in fight["monsters"]],
            "removed": list(fight["removed"]),
            "played": [
                {"player": played["player"], **_scroll_view(data, played["scroll"])}
                for played in fight["played"]
            ],
            "passed": [_name(state, seat) for seat in fight["passed"]],
            "sixes": fight["sixes"],
            "dice": fight["dice"],
            "rolls": fight["rolls"],
            "quest": fight["quest"],
            "wizard": fight["wizard"],
            "space": fight["space"],
            "totals": totals(data, state),
            "flee": flee_spaces(data, state) if state["phase"] == "defeat" else [],
        }
    encounter = state["encounter"]
    offer = None
    if state["offer"] is not None:
        proposal = state["offer"]
        parties = (_name(state, proposal["from"]), _name(state, proposal["to"]))
        shown = everything or viewer in parties
        give = dict(proposal["give"])
        if not shown:
            give["scrolls"] = len(give["scrolls"])
        offer = {
            "from": parties[0],
            "to": parties[1],
            "give": give,
            "take": dict(proposal["take"]),
        }
    here = (
        state["heroes"][state["active"]]["space"]
        if state["phase"] not in ("start_roll", "choose")
        else None
    )
    result: dict[str, Any] = {
        "game": GAME_ID,
        "viewer": viewer,
        "data_set": {
            "name": data["name"],
            "title": named(data["title"]),
            "example": data["example"],
        },
        "phase": state["phase"],
        "turn": state["turn"],
        "active": _name(state, state["active"]) if state["phase"] != "start_roll" else None,
        "first": _name(state, state["first"]),
        "choosing": _name(state, state["choosing"]) if state["phase"] == "choose" else None,
        "finished": state["phase"] == "over",
        "winners": list(state["winners"]),
        "order": list(names),
        "players": players,
        "start_rolls": {
            _name(state, int(seat)): total for seat, total in state["start"]["rolls"].items()
        },
        "tower": {
            "step": state["tower_step"],
            "door_wedge": door,
            "door_space": data["shadowlands"][data["wedges"][door]["id"]],
            "wedges": [
                {"id": wedge["id"], "name": named(wedge["name"]), "kind": wedge["kind"], "day": day}
                for wedge, day in zip(data["wedges"], tower_days)
            ],
        },
        "quests": list(state["quests"]),
        "monsters": {
            space: [_token_view(data, monster) for monster in tokens]
            for space, tokens in sorted(state["monsters"].items())
        },
        "moves_left": state["t"]["moves_left"] if state["t"] else None,
        "here": {
            "space": here,
            "draw": draw_count(data, state, here),
            "day": is_day(data, state, here),
        }
        if here
        else None,
        "encounter": None
        if encounter is None
        else {
            "space": encounter["space"],
            "wizard": encounter["wizard"],
            "quest": encounter["quest"],
            "drawn": [_token_view(data, monster) for monster in encounter["drawn"]],
            "unresolved": list(encounter["unresolved"]),
        },
        "combat": combat,
        "last_combat": state["last_combat"],
        "shop": None
        if state["shop"] is None
        else {
            "cards": [
                {
                    "card": entry["card"],
                    "bought": entry["bought"],
                    "equipment": _face(data["items"][entry["card"]]["equipment"]),
                    "magic": _face(data["items"][entry["card"]]["magic"]),
                }
                for entry in state["shop"]["cards"]
            ],
            "business": state["t"]["business"] if state["t"] else None,
            "scroll_bought": bool(state["t"] and state["t"]["scroll_bought"]),
        },
        "offer": offer,
        "awaiting": awaited(state),
        "prices": {
            "scroll": SCROLL_PRICE,
            "work": dict(WORK_PAY),
            "resurrection": RESURRECTION_GOLD,
            "quest_xp": QUEST_XP,
            "xp": dict(data["xp"]),
        },
        "decks": {
            "items": len(state["items"]["deck"]),
            "scrolls": len(state["scrolls"]["deck"]),
            "bowl": sum(state["bowl"].values()),
            "item_discard": len(state["items"]["discard"]),
            "scroll_discard": len(state["scrolls"]["discard"]),
        },
        # an arranged start names the hands it dealt: only the referee sees it
        "options": {  # the data's fingerprint is the state's data_fingerprint, not an option
            key: value
            for key, value in state["options"].items()
            if (key != "scenario" or everything) and key != "data_fingerprint"
        },
        # the ways to move on: the active player's own (they may name scrolls of his hand)
        "reach": reach(data, state)
        if everything or (state["phase"] == "move" and viewer == _name(state, state["active"]))
        else None,
        "waiting_for": waiting_names(data, state),
        "prompt": prompt(data, state),
    }
    if everything:
        result["bowl"] = dict(state["bowl"])
        result["item_deck"] = list(state["items"]["deck"])
        result["scroll_deck"] = list(state["scrolls"]["deck"])
        result["item_discard"] = list(state["items"]["discard"])
        result["scroll_discard"] = list(state["scrolls"]["discard"])
    return result


def _item_view(data: dict[str, Any], held: dict | None, slot: dict | None) -> dict | None:
    """An item held (and the slot it is in), or an empty slot and what it accepts."""
    if held is None:
        return (
            None
            if slot is None
            else {"card": None, "accepts": slot["types"], "max": slot.get("max")}
        )
    face = data["items"][held["card"]][held["face"]]
    out = {"card": held["card"], "face": held["face"], **_face(face)}
    if slot is not None:
        out["accepts"], out["max"] = slot["types"], slot.get("max")
    return out


def _face(face: dict[str, Any]) -> dict[str, Any]:
    """An item card's face, its name translatable."""
    return {**face, "name": named(face["name"])}


def _scroll_view(data: dict[str, Any], card: str) -> dict[str, Any]:
    scroll = data["scrolls"][card]
    return {
        "scroll": card,
        "name": named(scroll["name"]),
        "text": named(scroll["text"]),
        "when": scroll["when"],
        "by": scroll["by"],
        "effect": scroll["effect"],
    }


def _token_view(data: dict[str, Any], token: str) -> dict[str, Any]:
    entry = data["tokens"][token]
    return {
        "token": token,
        "name": named(entry["name"]),
        "monster": entry["monster"],
        "strength": entry["strength"],
        "types": entry["types"],
        "xp": entry["xp"],
        "treasure": entry["treasure"],
        "friendly": entry["friendly"],
    }


def indistinguishable(state: State, viewer: str, rng: random.Random) -> State:
    """DT-CARD-6: ``state`` with the scrolls ``viewer`` may not see dealt anew.

    The scrolls in the other players' hands (every hand, for the table display and the host)
    and the scroll deck are pooled, shuffled and dealt back with the same sizes. Scrolls
    offered in a trade the viewer is a party to are seen, so they stay in the giver's hand;
    for anyone else the offer names the new cards in the same places of that hand.

    Nothing else of Dork Tower is hidden: items, gold, XP, tokens on the board and the tower
    are public; the bowl holds what is not on the board or out of the game (every token drawn
    was shown), and the decks keep no order (a draw is any card left). The scroll discard pile
    mixes scrolls played openly with scrolls sold or discarded unseen, and the state does not
    say which are which, so it is left as it is."""
    dealt = copy_state(state)
    names = dealt["players"]
    if viewer == EVERYTHING:
        return dealt
    if viewer not in (TABLE, HOST) and viewer not in names:
        raise ValueError(f"unknown viewer {viewer!r}")
    hidden = [seat for seat, name in enumerate(names) if name != viewer]
    offer = dealt["offer"]
    seen: dict[int, list[str]] = {}  # cards of a hidden hand the viewer was shown
    if offer is not None and viewer in (names[offer["from"]], names[offer["to"]]):
        seen[offer["from"]] = list(offer["give"]["scrolls"])
    pool = list(dealt["scrolls"]["deck"])
    places = []
    for seat in hidden:
        shown = list(seen.get(seat, []))
        for index, card in enumerate(dealt["heroes"][seat]["scrolls"]):
            if card in shown:
                shown.remove(card)
            else:
                pool.append(card)
                places.append((seat, index))
    rng.shuffle(pool)
    take = iter(pool)
    dealt["scrolls"]["deck"] = sorted(next(take) for _card in dealt["scrolls"]["deck"])
    for seat, index in places:
        dealt["heroes"][seat]["scrolls"][index] = next(take)
    if offer is not None and offer["from"] in hidden and offer["from"] not in seen:
        old, new = (
            state["heroes"][offer["from"]]["scrolls"],
            dealt["heroes"][offer["from"]]["scrolls"],
        )
        offer["give"]["scrolls"] = [new[old.index(card)] for card in offer["give"]["scrolls"]]
    return dealt


def outcome(state: State) -> Outcome:
    """Over when Z'Mindrik is defeated (DT-GAME-1); the scores are the heroes' XP."""
    return Outcome(
        finished=state["phase"] == "over",
        winners=tuple(state["winners"]),
        scores={player: hero["xp"] for player, hero in zip(state["players"], state["heroes"])},
    )
