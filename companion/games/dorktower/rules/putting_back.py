"""Dork Tower's table in things and places, and the steps that put it back after an undo.

:func:`placement` lays out every physical component in public terms (the plug-in hook
``Game.placement``): the heroes' figures on their spaces (the characters nobody plays in the
box), each character card on its player's seat with the side of its level up, the gold and XP
tokens each hero holds (the rest in the bank), item cards by name (in a slot with the face they
were gained with, in a backpack, on the draw or discard pile, or drawn in a shop: every item is
public, and the draw pile holds what is nowhere else), the encounter tokens by kind (in the
bowl, whose contents are public since every token drawn is shown; on the board in monster
groups; drawn in the encounter; out of the game in the box), the two quest tokens, the tower
turned to its step, the fight's two dice on the tray, and the scrolls, which are named nowhere:
a hand is secret (DT-CARD-6), the scroll pile is blind, and the discard pile mixes scrolls
played openly with scrolls sold unseen.

:func:`put_back_steps` compares the placements before and after an action and moves each thing
found in a new place back to the place it left, with one sentence per move."""

from __future__ import annotations

from collections import Counter
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

from .board import space_name
from .texts import named

#: The bank is unlimited (DT-COMP-4: quantities not given): it counts as this many units of
#: gold and of XP, less what the heroes hold, so that a payment and its refund are moves.
BANK = 1_000_000
TOWER_STEPS = 8
QUESTS = 2  # DT-QUEST-1: two quest tokens on the board from the start

BOX = Place("box")
BANK_PLACE = Place("bank")
BOWL = Place("bowl")
ENCOUNTER = Place("encounter")
TRAY = "tray"
ITEM_PILE = Place("pile", name="items")
ITEM_DISCARD = Place("discard", name="items")
SCROLL_PILE = Place("pile", name="scrolls")
SCROLL_DISCARD = Place("discard", name="scrolls")
SHOP = Place("shop")


def table_placement(data: dict[str, Any], state: State) -> Placement:
    """Every component of ``state``'s table, in public terms (the module's docstring)."""
    pairs: list[tuple[Thing, Place]] = []
    players = state["players"]
    playing = set()
    gold = xp = 0
    for name, hero in zip(players, state["heroes"]):
        character = hero["character"]
        if character is None:
            continue
        playing.add(character)
        pairs.append((Thing("hero", character), Place("space", name=hero["space"])))
        pairs.append((Thing("character card", character), Place("seat", name, hero["level"])))
        gold += hero["gold"]
        xp += hero["xp"]
        for index, slot in enumerate(hero["slots"]):
            if slot:
                where = Place("slot", name, f"{index + 1} {slot['face']}")
                pairs.append((Thing("item", slot["card"]), where))
        for entry in hero["backpack"]:
            pairs.append((Thing("item", entry["card"]), Place("backpack", name, entry["face"])))
        pairs += [(Thing("scroll"), Place("hand", name))] * len(hero["scrolls"])
    for character in data["characters"]:
        if character not in playing:
            pairs.append((Thing("hero", character), BOX))
            pairs.append((Thing("character card", character), BOX))
    pairs += [(Thing("item", card), ITEM_PILE) for card in state["items"]["deck"]]
    pairs += [(Thing("item", card), ITEM_DISCARD) for card in state["items"]["discard"]]
    shop = state["shop"] or {"cards": []}
    pairs += [(Thing("item", e["card"]), SHOP) for e in shop["cards"] if e["bought"] is None]
    pairs += [(Thing("scroll"), SCROLL_PILE)] * len(state["scrolls"]["deck"])
    pairs += [(Thing("scroll"), SCROLL_DISCARD)] * len(state["scrolls"]["discard"])
    pairs += _tokens(data, state)
    pairs += [(Thing("quest"), Place("space", name=space)) for space in state["quests"]]
    pairs += [(Thing("quest"), BOX)] * (QUESTS - len(state["quests"]))  # DT-SETUP-9
    pairs.append((Thing("tower"), Place("tower", name=str(state["tower_step"] % TOWER_STEPS))))
    combat = state["combat"]
    dice = [str(die["value"]) for die in combat["dice"]] if combat and combat["dice"] else []
    pairs += [(Thing("die"), Place(TRAY, name=face)) for face in dice]
    pairs += [(Thing("die"), Place("beside", name=TRAY))] * (2 - len(dice))
    layout = placement(pairs)
    for name, hero in zip(players, state["heroes"]):  # DT-COMP-4: tokens, from the bank
        for kind in ("gold", "xp"):
            if hero["character"] is not None and hero[kind]:
                layout[(Thing(kind), Place("seat", name))] = hero[kind]
    layout[(Thing("gold"), BANK_PLACE)] = BANK - gold
    layout[(Thing("xp"), BANK_PLACE)] = BANK - xp
    return layout


def _tokens(data: dict[str, Any], state: State) -> list[tuple[Thing, Place]]:
    """The encounter tokens: in the bowl, on the board (a fight with a group on the board leaves
    it there until the fight is won), drawn in an encounter not done yet, and (what is left of
    each kind) out of the game in the box."""
    where: Counter = Counter()
    for token, count in state["bowl"].items():
        where[(token, BOWL)] += count
    for space, group in state["monsters"].items():
        for token in group:
            where[(token, Place("space", name=space))] += 1
    encounter = state["encounter"]
    if encounter and not encounter["done"]:  # a won fight's tokens went back (DT-AMB-14)
        for token in encounter["drawn"] + encounter["aside"]:
            where[(token, ENCOUNTER)] += 1
    held: Counter = Counter()
    for (token, _place), count in where.items():
        held[token] += count
    for token, entry in data["tokens"].items():
        where[(token, BOX)] += entry["count"] - held[token]
    return [(Thing("token", token), place) for (token, place), n in where.items() for _ in range(n)]


# -- the steps ---------------------------------------------------------------------------------


def steps_back(data: dict[str, Any], before: State, after: State) -> list[Step]:
    """The moves that turn ``after``'s table into ``before``'s (:func:`moves_back`), things of
    one kind together, the heroes first."""
    was, now = table_placement(data, before), table_placement(data, after)
    return [
        _step(data, thing, source, target, count)
        for thing, source, target, count in moves_back(was, now, _order)
    ]


def _order(entry: tuple[tuple[Thing, Place], int]) -> tuple:
    """Heroes first, then the tower, dice, tokens, cards, and gold and XP last."""
    (thing, place), _count = entry
    rank = ("hero", "tower", "die", "token", "quest", "item", "scroll", "character card")
    first = rank.index(thing.kind) if thing.kind in rank else len(rank)
    return (first, thing.kind, thing.name or "", place.kind, place.owner or "", place.name or "")


def _step(data: dict[str, Any], thing: Thing, source: Place, target: Place, count: int) -> Step:
    confirm = None
    own = {"slot", "backpack"}
    if thing.kind in ("token", "item") and not {source.kind, target.kind} <= own:
        # a public token or card, its sticker tapped at the board's reader as it goes back
        confirm = Confirm(f"{thing.kind} {thing.name}")
    return Step(thing, source, target, _say(data, thing, source, target, count), count, confirm)


def _say(data: dict[str, Any], thing: Thing, source: Place, target: Place, count: int) -> Text:
    if thing.kind == "hero":
        hero = named(data["characters"][thing.name]["name"])
        if target.kind == "box":
            return t(
                "Take {hero} off {space} and put the figure back in the box.",
                hero=hero,
                space=space_name(data, source.name),
            )
        return t("Move {hero} back to {space}.", hero=hero, space=space_name(data, target.name))
    if thing.kind == "character card":
        hero = named(data["characters"][thing.name]["name"])
        if target.kind == "box":
            return t("Put {hero}'s character card back in the box.", hero=hero)
        # DT-LVL-1: a hero levels up, never down, so an undo only turns the card back to low
        return t("Turn {hero}'s character card back to its low-level side.", hero=hero)
    if thing.kind == "tower":
        return t(
            "Turn the tower back one step, counter-clockwise (a tower motor turns it on to the "
            "same place by itself)."
        )
    if thing.kind == "die":
        if source.kind == TRAY:
            if count > 1:
                return t(
                    "Take the {n} dice showing {face} off the tray.", n=count, face=source.name
                )
            return t("Take the die showing {face} off the tray.", face=source.name)
        if count > 1:
            return t("Put {n} dice back on the tray showing {face}.", n=count, face=target.name)
        return t("Put a die back on the tray showing {face}.", face=target.name)
    return t(
        "Move {thing} {source} back {target}.",
        thing=_thing(data, thing, source, target, count),
        source=_from(data, source),
        target=_to(data, target),
    )


def _thing(data: dict[str, Any], thing: Thing, source: Place, target: Place, count: int) -> Text:
    if thing.kind == "gold":
        return t("{n} gold", n=count)
    if thing.kind == "xp":
        return t("{n} XP", n=count)
    if thing.kind == "scroll":
        return t("a scroll") if count == 1 else t("{n} scrolls", n=count)
    if thing.kind == "quest":
        return t("the quest token")
    if thing.kind == "token":
        name = named(data["tokens"][thing.name]["name"])
        return (
            t("the {token} token", token=name)
            if count == 1
            else t("{n} {token} tokens", n=count, token=name)
        )
    card = data["items"][thing.name]
    face = next(
        (p.name.split()[-1] for p in (source, target) if p.kind in ("slot", "backpack")),
        "equipment",
    )
    return t("the item card {item}", item=named(card[face]["name"]))


def _from(data: dict[str, Any], place: Place) -> Text:
    """Where a thing is taken from, with its preposition ("from Ann's backpack")."""
    return _where(data, place, True)


def _to(data: dict[str, Any], place: Place) -> Text:
    """Where a thing goes back to, with its preposition ("into the bowl")."""
    return _where(data, place, False)


def _where(data: dict[str, Any], place: Place, source: bool) -> Text:
    owner = place.owner
    kind = place.kind
    if kind == "space":
        space = space_name(data, place.name)
        return t("from {space}", space=space) if source else t("to {space}", space=space)
    if kind == "slot":
        number = place.name.split()[0]
        return (
            t("from {player}'s slot {n}", player=owner, n=number)
            if source
            else t("to {player}'s slot {n}", player=owner, n=number)
        )
    phrases = {
        "backpack": (
            t("from {player}'s backpack", player=owner),
            t("into {player}'s backpack", player=owner),
        ),
        "hand": (t("from {player}'s hand", player=owner), t("into {player}'s hand", player=owner)),
        "seat": (t("from {player}", player=owner), t("to {player}", player=owner)),
        "bank": (t("from the bank"), t("to the bank")),
        "bowl": (t("from the bowl"), t("into the bowl")),
        "encounter": (t("from the encounter"), t("to the encounter")),
        "box": (t("from the box"), t("into the box")),
        "shop": (t("from the shop"), t("to the shop")),
    }
    if kind == "pile":
        pair = (
            (t("from the item pile"), t("onto the item pile"))
            if place.name == "items"
            else (t("from the scroll pile"), t("onto the scroll pile"))
        )
    elif kind == "discard":
        pair = (
            (t("from the item discard pile"), t("onto the item discard pile"))
            if place.name == "items"
            else (t("from the scroll discard pile"), t("onto the scroll discard pile"))
        )
    else:
        pair = phrases[kind]
    return pair[0] if source else pair[1]
