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

from collections import defaultdict
from typing import Any

from companion.i18n import Text, t
from companion.rules.api import State
from companion.rules.putting_back import Confirm, Place, Placement, Step, Thing, placement

from .constants import CLOAK_FACE, CUP_TILES

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
        pairs.append((Thing("cup tile"), Place("cup slot", UP if tile else DOWN, slot)))
    obstacles = state["obstacle_pile"]
    for position, entry in enumerate(obstacles["lineup"]):  # TW-OCARD-3
        if entry["card"]:
            side = UP if entry["up"] else DOWN
            pairs.append(
                (Thing("obstacle", entry["card"]), Place("lineup", side, str(position + 1)))
            )
    pairs += [
        (Thing("obstacle", c), Place("discard", name="obstacles")) for c in obstacles["discard"]
    ]
    pairs += [(Thing("obstacle", c), Place("pile", name="obstacles")) for c in obstacles["deck"]]
    for kind, hands, pile, total in (
        ("battle card", state["hands"], state["battle_pile"], len(data["battle"])),
        ("resource tile", state["tiles"], state["tile_pile"], len(data["tiles"])),
    ):
        held = 0
        for seat, hand in enumerate(hands):
            pairs += [(Thing(kind), Place("hand", players[seat]))] * len(hand)
            held += len(hand)
        pairs += [(Thing(kind), Place("pile", name=kind))] * len(pile["deck"])
        pairs += [(Thing(kind), Place("discard", name=kind))] * len(pile["discard"])
        pairs += [(Thing(kind), IN_PLAY)] * (
            total - held - len(pile["deck"]) - len(pile["discard"])
        )
    face = _die_face(state)
    pairs.append((Thing("die"), Place("tray", name=face) if face else Place("beside", name="tray")))
    return placement(pairs)


def _die_face(state: State) -> str | None:
    """The face the die shows on the tray: a battle's last roll, else the turn's roll."""
    fight = state["fight"]
    if fight and fight["rolls"]:
        return str(fight["rolls"][-1])
    roll = state["turn_state"]["roll"]
    return None if roll is None else str(roll)


def steps_back(data: dict[str, Any], before: State, after: State) -> list[Step]:
    """The moves that turn ``after``'s table into ``before``'s: each thing found in a new place
    goes back to a place it left."""
    was, now = table_placement(data, before), table_placement(data, after)
    gone, came = was - now, now - was
    targets: dict[Thing, list[list[Any]]] = defaultdict(list)
    for (thing, place), count in sorted(gone.items(), key=_order):
        targets[thing].append([place, count])
    steps = []
    for (thing, source), count in sorted(came.items(), key=_order):
        while count:
            if not targets[thing]:
                raise ValueError(f"{thing} appeared at {source} from nowhere")
            target = targets[thing][0]
            moved = min(count, target[1])
            text = _say(after, thing, source, target[0], moved)
            steps.append(
                Step(thing, source, target[0], text, moved, _confirm(after, thing, source))
            )
            count -= moved
            target[1] -= moved
            if not target[1]:
                targets[thing].pop(0)
    return steps


def _order(entry: tuple[tuple[Thing, Place], int]) -> tuple:
    (thing, place), _count = entry
    rank = ("piece", "cloak", "hedge", "die", "cup tile", "obstacle", "battle card")
    first = rank.index(thing.kind) if thing.kind in rank else len(rank)
    return (first, thing.name or "", place.kind, place.owner or "", place.name or "")


def _confirm(after: State, thing: Thing, source: Place) -> Confirm | None:
    """Public things tapped at the board's reader: a piece, the Cloak, an Obstacle Card, a Cup
    Tile seen face up. A card or tile going back into a hand or a pile is never named."""
    if thing.kind == "piece":
        return Confirm(f"piece {thing.name}")
    if thing.kind == "cloak":
        return Confirm("cloak")
    if thing.kind == "obstacle":
        return Confirm(f"obstacle {thing.name.lower()}")
    if thing.kind == "cup tile" and source.owner == UP:
        return Confirm(f"cup {after['cups'][source.name]}")
    return None


def _say(after: State, thing: Thing, source: Place, target: Place, count: int) -> Text:
    players = after["players"]
    if thing.kind == "piece":
        who = players[int(thing.name) - 1]
        return t("Move {player}'s piece back to {space}.", player=who, space=target.name)
    if thing.kind == "cloak":
        if target == BESIDE:
            return t(
                "Take the Cloak off {player}'s piece and put it beside the board.",
                player=source.owner,
            )
        return t("Put the Cloak back on {player}'s piece.", player=target.owner)
    if thing.kind == "hedge":
        return t("Move the Wandering Hedge back to {space}.", space=target.name)
    if thing.kind == "cup tile":
        if target.owner == DOWN:  # the tile flipped is named: everyone saw it (TW-CUP-2)
            tile = after["cups"][source.name]
            if tile == CUP_TILES[0]:
                return t("Turn Cup Tile {slot} (the Cup) face down again.", slot=target.name)
            return t("Turn Cup Tile {slot} (a Headstone) face down again.", slot=target.name)
        return t("Turn Cup Tile {slot} face up again.", slot=target.name)
    if thing.kind == "die":  # TW-BATTLE-4: the Cloak symbol is one of its faces
        source, target = _shown(source), _shown(target)
        if source.kind == "tray" and target.kind == "tray":
            return t("Turn the die back to {face}.", face=target.name)
        if source.kind == "tray":
            return t("Take the die showing {face} off the tray.", face=source.name)
        return t("Put the die back on the tray showing {face}.", face=target.name)
    if thing.kind == "obstacle" and source.kind == target.kind == "lineup":
        if target.owner == UP:  # TW-OCARD-3: a beaten card was turned down
            return t("Turn the Obstacle Card in Lineup position {n} face up again.", n=target.name)
        return t("Turn the Obstacle Card in Lineup position {n} face down again.", n=target.name)
    return t(
        "Move {thing} {source} back {target}.",
        thing=_thing(thing, count),
        source=_where(source, True),
        target=_where(target, False),
    )


def _shown(place: Place) -> Place:
    """A die's place with its face in words (the Cloak symbol named)."""
    if place.name == CLOAK_FACE:
        return Place(place.kind, place.owner, t("the Cloak symbol"))
    return place


def _thing(thing: Thing, count: int) -> Text:
    if thing.kind == "obstacle":
        return t("the Obstacle Card {card}", card=thing.name)
    if thing.kind == "battle card":
        return t("a Battle Card") if count == 1 else t("{n} Battle Cards", n=count)
    return t("a Resource Tile") if count == 1 else t("{n} Resource Tiles", n=count)


def _where(place: Place, source: bool) -> Text:
    kind, name, owner = place.kind, place.name, place.owner
    if kind == "hand":
        return (
            t("from {player}'s hand", player=owner)
            if source
            else t("into {player}'s hand", player=owner)
        )
    if kind == "lineup":
        return (
            t("from Lineup position {n}", n=name) if source else t("to Lineup position {n}", n=name)
        )
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


def sentence(steps: list[Step]) -> Text | None:
    """The steps as one public sentence, for the undo's ``put_back``."""
    if not steps:
        return None
    out = steps[0].text
    for step in steps[1:]:
        out = t("{first} {then}", first=out, then=step.text)
    return out
