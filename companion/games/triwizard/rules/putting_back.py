"""The Triwizard table in things and places, and the steps that put it back after an undo.

:func:`table_placement` lays out every component in public terms (the plug-in hook
``Game.placement``): each piece on its space, the Cloak on a piece or beside the board, the
Wandering Hedge on its space, the four Cup Tiles on their slots face down or face up (by slot
only: nobody knows a face-down tile, TW-AMB-31), the Obstacle Cards by name (the Lineup face up
or beaten and turned down, the discard pile, and the draw pile, whose contents are everything
else: every Obstacle Card is seen when it is laid out), the die on the tray with the face it
shows, and the Battle Cards and Resource Tiles by count: a hand and the tiles held are secret
(section 7), the piles are blind, and a card or tile played lies in play until it is discarded.

:func:`steps_back` compares the placements before and after an action and moves each thing
found in a new place back to the place it left, with one sentence per move."""

from __future__ import annotations

from typing import Any

from companion.i18n import Text, t
from companion.rules.api import State
from companion.rules.putting_back import (
    Confirm,
    Place,
    Placement,
    Step,
    Thing,
    moves_back,
    placement,
)

from .constants import CLOAK_FACE, CUP_TILES
from .stickers import sticker_name

BESIDE = Place("beside", name="board")
IN_PLAY = Place("in play")
DOWN = "face down"
UP = "face up"


def table_placement(data: dict[str, Any], state: State) -> Placement:
    """Every component of ``state``'s table, in public terms (the module's docstring)."""
    pairs: list[tuple[Thing, Place]] = []
    players = state["players"]
    for seat, space in enumerate(state["pieces"]):
        pairs.append((Thing("piece", str(seat + 1)), Place("space", name=space)))
    cloak = state["cloak"]
    pairs.append((Thing("cloak"), BESIDE if cloak is None else Place("piece", players[cloak])))
    pairs.append((Thing("hedge"), Place("space", name=state["hedge"])))
    for slot, tile in sorted(state["cups"].items()):  # TW-CUP-1, TW-AMB-31
        pairs.append((Thing("cup tile"), Place("cup slot", name=_sided(slot, tile is not None))))
    obstacles = state["obstacle_pile"]
    for position, entry in enumerate(obstacles["lineup"], start=1):  # TW-OCARD-3
        if entry["card"]:
            place = Place("lineup", name=_sided(str(position), entry["up"]))
            pairs.append((Thing("obstacle", entry["card"]), place))
    for pile in ("discard", "deck"):
        where = Place("pile" if pile == "deck" else pile, name="obstacles")
        pairs += [(Thing("obstacle", card), where) for card in obstacles[pile]]
    for kind, hand, held_by, pile, total in (
        ("battle card", "hand", state["hands"], state["battle_pile"], len(data["battle"])),
        ("resource tile", "tiles", state["tiles"], state["tile_pile"], len(data["tiles"])),
    ):
        held = 0
        for seat, things in enumerate(held_by):  # section 7: how many, never which
            pairs += [(Thing(kind), Place(hand, players[seat]))] * len(things)
            held += len(things)
        piled = len(pile["deck"]) + len(pile["discard"])
        pairs += [(Thing(kind), Place("pile", name=kind))] * len(pile["deck"])
        pairs += [(Thing(kind), Place("discard", name=kind))] * len(pile["discard"])
        pairs += [(Thing(kind), IN_PLAY)] * (total - held - piled)  # TW-BCARD-3, TW-RES-4
    face = _die_face(state)
    pairs.append((Thing("die"), Place("tray", name=face) if face else Place("beside", name="tray")))
    return placement(pairs)


def _sided(number: str, up: bool) -> str:
    """A Cup Tile slot's or Lineup position's name with the side its tile or card shows."""
    return f"{number} {UP if up else DOWN}"


def _number(place: Place) -> str:
    """The slot's or position's number in a sided place's name."""
    return place.name.split(" ", 1)[0]


def _die_face(state: State) -> str | None:
    """The face the die shows on the tray: a battle's last roll, else the turn's roll."""
    fight = state["fight"]
    if fight and fight["rolls"]:
        return str(fight["rolls"][-1])
    roll = state["turn_state"]["roll"]
    return None if roll is None else str(roll)


def steps_back(data: dict[str, Any], before: State, after: State) -> list[Step]:
    """The moves that turn ``after``'s table into ``before``'s (:func:`moves_back`), pieces
    first."""
    was, now = table_placement(data, before), table_placement(data, after)
    return [
        Step(
            thing,
            source,
            target,
            _say(after, thing, source, target, count),
            count,
            _confirm(after, thing, source),
        )
        for thing, source, target, count in moves_back(was, now, _order)
    ]


def _order(entry: tuple[tuple[Thing, Place], int]) -> tuple:
    (thing, place), _count = entry
    rank = ("piece", "cloak", "hedge", "die", "cup tile", "obstacle", "battle card")
    first = rank.index(thing.kind) if thing.kind in rank else len(rank)
    return (first, thing.name or "", place.kind, place.owner or "", place.name or "")


def _confirm(after: State, thing: Thing, source: Place) -> Confirm | None:
    """Public things are tapped at the board's reader (their stickers, as the tag registry
    names them): a piece, the Cloak, an Obstacle Card, a Cup Tile everyone saw flipped. A card or
    tile going back into a hand or a pile is never named, so never asked for."""
    if thing.kind == "piece":
        return Confirm(sticker_name("piece", thing.name))
    if thing.kind == "cloak":
        return Confirm("cloak")
    if thing.kind == "obstacle":
        return Confirm(sticker_name("obstacle", thing.name))
    if thing.kind == "cup tile":  # only ever turned back face down (TW-CUP-2)
        return Confirm(sticker_name("cup", after["cups"][_number(source)]))
    return None


def _say(after: State, thing: Thing, source: Place, target: Place, count: int) -> Text:
    players = after["players"]
    if thing.kind == "piece":
        who = players[int(thing.name) - 1]
        return t("Move {player}'s piece back to {space}.", player=who, space=target.name)
    if thing.kind == "cloak":  # TW-CLOAK-1..7
        if target == BESIDE:
            return t(
                "Take the Cloak off {player}'s piece and put it beside the board.",
                player=source.owner,
            )
        return t("Put the Cloak back on {player}'s piece.", player=target.owner)
    if thing.kind == "hedge":  # TW-RES-HEDGE-1..3
        return t("Move the Wandering Hedge back to {space}.", space=target.name)
    if thing.kind == "cup tile":  # the tile flipped is named: everyone saw it (TW-CUP-2)
        slot = _number(target)
        if after["cups"][_number(source)] == CUP_TILES[0]:
            return t("Turn Cup Tile {slot} (the Cup) face down again.", slot=slot)
        return t("Turn Cup Tile {slot} (a Headstone) face down again.", slot=slot)
    if thing.kind == "die":  # TW-BATTLE-4: the Cloak symbol is one of its faces
        was, now = _face(target), _face(source)
        if source.kind == "tray" and target.kind == "tray":
            return t("Turn the die back to {face}.", face=was)
        if source.kind == "tray":
            return t("Take the die showing {face} off the tray.", face=now)
        return t("Put the die back on the tray showing {face}.", face=was)
    if thing.kind == "obstacle" and source.kind == target.kind == "lineup":  # TW-OCARD-3
        return t("Turn the Obstacle Card in Lineup position {n} face up again.", n=_number(target))
    return t(
        "Move {thing} {source} back {target}.",
        thing=_thing(thing, count),
        source=_where(source, True),
        target=_where(target, False),
    )


def _face(place: Place) -> str | None:
    """A die's face in words (the Cloak symbol named)."""
    return t("the Cloak symbol") if place.name == CLOAK_FACE else place.name


def _thing(thing: Thing, count: int) -> Text:
    if thing.kind == "obstacle":
        return t("the Obstacle Card {card}", card=thing.name)
    if thing.kind == "battle card":
        return t("a Battle Card") if count == 1 else t("{n} Battle Cards", n=count)
    return t("a Resource Tile") if count == 1 else t("{n} Resource Tiles", n=count)


def _where(place: Place, source: bool) -> Text:
    """Where a card or tile is taken from, or goes back to, with its preposition."""
    kind, name, owner = place.kind, place.name, place.owner
    if kind == "hand":
        if source:
            return t("from {player}'s hand", player=owner)
        return t("into {player}'s hand", player=owner)
    if kind == "tiles":
        if source:
            return t("from {player}'s tiles", player=owner)
        return t("to {player}'s tiles", player=owner)
    if kind == "lineup":
        if source:
            return t("from Lineup position {n}", n=_number(place))
        return t("to Lineup position {n}", n=_number(place))
    if kind == "in play":
        return t("from play") if source else t("into play")
    piles = {
        ("pile", "battle card"): (t("from the Battle Card pile"), t("onto the Battle Card pile")),
        ("discard", "battle card"): (
            t("from the Battle Card discard pile"),
            t("onto the Battle Card discard pile"),
        ),
        ("pile", "resource tile"): (t("from the Resource pile"), t("onto the Resource pile")),
        ("discard", "resource tile"): (
            t("from the Resource discard pile"),
            t("onto the Resource discard pile"),
        ),
        ("pile", "obstacles"): (t("from the Obstacle pile"), t("onto the Obstacle pile")),
        ("discard", "obstacles"): (
            t("from the Obstacle discard pile"),
            t("onto the Obstacle discard pile"),
        ),
    }
    pair = piles[(kind, name)]
    return pair[0] if source else pair[1]
