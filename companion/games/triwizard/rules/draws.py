"""The chance steps as they come in: Battle Cards, Resource Tiles and Obstacle Cards drawn, a
die rolled (which roll it is follows from the phase), a Cup Tile flipped or peeked at, a tile
stolen blind. Each must be the step awaited; a card or tile must be in its draw pile (or, with
the pile empty, in its discard pile, shuffled into a new pile: TW-BCARD-4, TW-RES-3,
TW-OCARD-4)."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.rules.api import MALFORMED, State
from companion.rules.common import Refuse, event, seat_of

from . import alike
from .chance import awaited
from .geometry import feature
from .movement import movement_roll
from .numbers import CUP_TILES, HAND, SLOTS, TILE_LIMIT
from .state import cloaked, fulfilled, peeked, unseen_cups


def _awaited(state: State, kind: str) -> dict[str, Any]:
    if state["phase"] == "over":
        raise Refuse("TW-END-2", t("The game is over."))
    if state["interrupts"]:
        from .prompts import prompt

        raise Refuse("TW-RES-2", t("First: {prompt}", prompt=prompt({}, state)))
    if not state["pending"] or state["pending"][0]["kind"] != kind:
        from .prompts import prompt

        raise Refuse(
            "TW-TURN-6", t("No such draw is awaited now: {prompt}", prompt=prompt({}, state))
        )
    return state["pending"][0]


def _check_player(state: State, action: dict, step: dict) -> None:
    who = action.get("player")
    if who is None:
        return
    seat = seat_of(state, who)
    if seat != step["player"]:
        raise Refuse(
            "TW-TURN-6",
            t(
                "{player} draws now, not {other}.",
                player=state["players"][step["player"]],
                other=who,
            ),
        )


#: the draw piles' names in a refusal (texts are immutable: made once)
BATTLE_PILE = t("Battle Card")
TILE_PILE = t("Resource Tile")
OBSTACLE_PILE = t("Obstacle")


def take_from(pile: dict[str, Any], item: Any, rule: str, what: str) -> None:
    """Take ``item`` from the draw pile; an empty pile is the shuffled discard pile first."""
    if not pile["deck"] and pile["discard"]:
        pile["deck"] = sorted(pile["discard"])
        pile["discard"] = []
    if not isinstance(item, str) or item not in pile["deck"]:
        raise Refuse(rule, t("{item} is not in the {pile} draw pile.", item=repr(item), pile=what))
    pile["deck"].remove(item)


def _unawaited_draw(data: dict[str, Any], state: State, action: dict, kind: str) -> None:
    """A draw nobody awaits, refused by the rule that forbids it where one does: a fifth Battle
    Card (TW-BCARD-2), a tile for a cloaked piece (TW-MIST-2 on Gold Mist, else TW-CLOAK-3)."""
    if state["phase"] == "over" or state["interrupts"] or state["pending"]:
        return
    who = action.get("player")
    if not isinstance(who, str) or who not in state["players"]:
        return
    seat = state["players"].index(who)
    if kind == "card" and len(state["hands"][seat]) >= HAND:
        raise Refuse("TW-BCARD-2", t("A hand never holds more than 4 Battle Cards."))
    if kind == "tile" and cloaked(state, seat):
        if feature(data, state["pieces"][seat]) == "gold_mist":
            raise Refuse("TW-MIST-2", t("A cloaked piece draws nothing on Gold Mist."))
        raise Refuse("TW-CLOAK-3", t("While cloaked, a player collects no Resource Tiles."))


def draw_card(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    _unawaited_draw(data, state, action, "card")
    step = _awaited(state, "card")
    _check_player(state, action, step)
    seat = step["player"]
    if len(state["hands"][seat]) >= HAND:
        raise Refuse("TW-BCARD-2", t("A hand never holds more than 4 Battle Cards."))
    card = alike.battle_card(data, state["battle_pile"], action.get("card"))
    take_from(state["battle_pile"], card, "TW-BCARD-4", BATTLE_PILE)
    state["hands"][seat].append(card)
    fulfilled(state)
    events.append(
        event(
            "draw_card",
            t("{player} draws a Battle Card.", player=state["players"][seat]),
            player=state["players"][seat],
            private={"card": card},
            audience=[state["players"][seat]],
        )
    )


def gain_tile(state: State, seat: int, tile: str) -> None:
    """A tile joins a hand; a 7th opens the overflow (TW-RES-2, TW-AMB-28)."""
    state["tiles"][seat].append(tile)
    if len(state["tiles"][seat]) > TILE_LIMIT and not any(
        i["kind"] == "overflow" and i["player"] == seat for i in state["interrupts"]
    ):
        state["interrupts"].append({"kind": "overflow", "player": seat})


def draw_tile(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    _unawaited_draw(data, state, action, "tile")
    step = _awaited(state, "tile")
    _check_player(state, action, step)
    seat = step["player"]
    pile = state["tile_pile"]
    if not pile["deck"] and not pile["discard"]:  # TW-AMB-24: nothing to draw
        fulfilled(state)
        return
    tile = alike.resource_tile(data, pile["deck"] or pile["discard"], action.get("tile"))
    take_from(pile, tile, "TW-RES-3", TILE_PILE)
    fulfilled(state)
    gain_tile(state, seat, tile)
    events.append(
        event(
            "draw_tile",
            t("{player} draws a Resource Tile.", player=state["players"][seat]),
            player=state["players"][seat],
            private={"tile": tile},
            audience=[state["players"][seat]],
        )
    )


def reveal_obstacle(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    """TW-SETUP-9, TW-OCARD-4, TW-AMB-23: the next Lineup position gets a face-up card."""
    _awaited(state, "obstacle")
    pile = state["obstacle_pile"]
    named = alike.obstacle_card(data, pile, action.get("card"))
    take_from(pile, named, "TW-OCARD-4", OBSTACLE_PILE)
    position = next(i for i, slot in enumerate(pile["lineup"]) if slot["card"] is None)
    pile["lineup"][position] = {"card": named, "up": True}
    fulfilled(state)
    card = data["obstacles"][named]
    events.append(
        event(
            "reveal_obstacle",
            t(
                "Obstacle L{position}: strength {strength}, reward {reward}.",
                position=position + 1,
                strength=card["strength"],
                reward=card["reward"],
            ),
            card=named,
        )
    )


def roll(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    """A die: which roll it is follows from what is awaited."""
    face = action.get("value")
    if face not in data["die"]["faces"] or isinstance(face, bool):
        raise Refuse(
            "TW-COMP-7",
            t("{value} is not a face of the die.", value=repr(face)),
        )
    step = awaited(state)
    if step is None or step["kind"] != "die":
        if state["phase"] == "over":
            raise Refuse("TW-END-2", t("The game is over."))
        if state["phase"] == "swap":
            raise Refuse("TW-TURN-7", t("A swapped hand ends the turn: no roll."))
        if state["phase"] == "draw":
            raise Refuse("TW-TURN-1", t("Draw up to 4 Battle Cards before rolling."))
        if state["phase"] == "removal_place":
            raise Refuse("TW-CLOAK-6", t("Trying to remove the Cloak allows one roll only."))
        if state["phase"] == "open" and state["active"] in state["uncleared"]:
            raise Refuse(
                "TW-OBST-3",
                t("The piece stands on an uncleared obstacle: battle it (or swap the hand)."),
            )
        from .prompts import prompt

        raise Refuse("TW-TURN-6", t("No roll is awaited now: {prompt}", prompt=prompt({}, state)))
    who = action.get("player")
    if who is not None and seat_of(state, who) != state["players"].index(step["player"]):
        raise Refuse(
            "TW-TURN-6", t("{player} rolls now, not {other}.", player=step["player"], other=who)
        )
    seat = state["players"].index(step["player"])
    why = step["why"]
    if why == "tie":
        from .setup import tie_roll

        events.append(
            event("roll", t("{player} rolls {value}.", player=step["player"], value=face))
        )
        tie_roll(state, seat, face, events)
        return
    state["chance_n"] += 1 if why == "move" else 0
    if why != "move":
        fulfilled(state)
    events.append(event("roll", t("{player} rolls {value}.", player=step["player"], value=face)))
    if why == "move":
        movement_roll(data, state, face, events)
    elif why == "removal":
        from .cloak import removal_roll

        removal_roll(data, state, face, events)
    else:
        from .battles import battle_roll

        battle_roll(data, state, face, events)


def _slot(action: dict) -> str:
    slot = action.get("slot")
    if slot not in SLOTS:
        raise Refuse(MALFORMED, t("A Cup Tile Space is named 1 to 4."))
    return slot


def _consistent(state: State, slot: str, tile: Any) -> None:
    if tile not in CUP_TILES:
        raise Refuse(MALFORMED, t("{tile} is not a Cup Tile.", tile=repr(tile)))
    known = peeked(state, slot)
    if (known is not None and tile != known) or tile not in unseen_cups(state, slot):
        raise Refuse("TW-CUP-1", t("That Cup Tile is already known to lie elsewhere."))


def flip_cup(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    """TW-CUP-2, TW-END-1/2, TW-HEAD-1/2: the face-down tile is turned face up for everyone."""
    active = state["active"]
    if (
        not (state["pending"] and state["pending"][0]["kind"] == "cup")
        and active is not None
        and state["cloak"] == active
    ):
        raise Refuse("TW-CLOAK-3", t("A cloaked piece cannot check Cup Tiles."))
    step = _awaited(state, "cup")
    slot = _slot(action)
    if slot != step["slot"]:
        raise Refuse(
            "TW-CUP-2", t("The tile to flip is the one on space {slot}.", slot=step["slot"])
        )
    tile = action.get("tile")
    _consistent(state, slot, tile)
    fulfilled(state)
    state["cups"][slot] = tile
    state["peeks"] = [peek for peek in state["peeks"] if peek["slot"] != slot]
    from .spaces import flipped

    flipped(data, state, slot, tile, events)


def peek(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    """TW-RES-4PT-1/2, TW-AMB-31: the caster sees one face-down Cup Tile on the own phone."""
    step = _awaited(state, "peek")
    _check_player(state, action, step)
    slot = _slot(action)
    if slot != step["slot"]:
        raise Refuse(
            "TW-RES-4PT-1", t("The tile to look at is on space {slot}.", slot=step["slot"])
        )
    tile = action.get("tile")
    _consistent(state, slot, tile)
    fulfilled(state)
    seat = step["player"]
    if not any(p["seat"] == seat and p["slot"] == slot for p in state["peeks"]):
        state["peeks"].append({"seat": seat, "slot": slot, "tile": tile})
    who = state["players"][seat]
    events.append(
        event(
            "peek",
            t("{player} looks at the Cup Tile on space {slot}.", player=who, slot=slot),
            player=who,
            private={"slot": slot, "tile": tile},
            audience=[who],
        )
    )


def steal(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    """TW-RES-SPARK-1: one of the victim's tiles, drawn blind, joins the thief's."""
    step = _awaited(state, "steal")
    _check_player(state, action, step)
    thief, victim = step["player"], step["from"]
    tile = alike.resource_tile(data, state["tiles"][victim], action.get("tile"))
    if tile not in state["tiles"][victim]:
        raise Refuse(
            "TW-RES-SPARK-1",
            t("That tile is not {player}'s.", player=state["players"][victim]),
        )
    fulfilled(state)
    state["tiles"][victim].remove(tile)
    gain_tile(state, thief, tile)
    events.append(
        event(
            "steal",
            t(
                "{player} takes a Resource Tile from {other}.",
                player=state["players"][thief],
                other=state["players"][victim],
            ),
            private={"tile": tile},
            audience=[state["players"][thief], state["players"][victim]],
        )
    )
