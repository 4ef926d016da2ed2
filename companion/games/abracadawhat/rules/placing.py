"""The physical table of Abracada...What? in public terms, and the steps that put it back after
an undo (``Game.placement``, ``Game.put_back_steps``).

A stone is named by its number only where everyone saw it: cast on the board, or removed face up
at the deal. Every other stone is a nameless ``Thing("stone")``: in the reserve (face down), on a
rack (hidden from its owner, ABR-HID-1), a secret stone face down in its slot or taken by a
player (ABR-HID-3), or removed at a deal the companion did not see stone by stone. Each player's
life tokens (ABR-SETUP-4) lie in front of them, the rest of their set (up to the most life,
ABR-AMB-2) beside them. The score is kept by the companion (pages and LEDs), not on the table.
"""

from __future__ import annotations

from collections import Counter

from companion.i18n import Text, t
from companion.rules.api import Action, State
from companion.rules.putting_back import Confirm, Place, Placement, Step, Thing

from .stones import NUMBERS, reserve_size

STONE = Thing("stone")
LIFE = Thing("token", "life")
RESERVE = Place("reserve")
BOARD = Place("board")
REMOVED = Place("removed")


def numbered(n: int) -> Thing:
    return Thing("stone", str(n))


def rack(name: str) -> Place:
    return Place("rack", name)


def taken(name: str) -> Place:
    """Where a player keeps the secret stones taken with Night Singer, face down."""
    return Place("secret", name)


def slot(index: int) -> Place:
    """A secret stone's slot on the board, face down (0 to 3)."""
    return Place("secret", None, str(index))


def life(name: str) -> Place:
    return Place("life", name)


def spare(name: str) -> Place:
    """The player's life tokens not in play (the set holds as many as the most life)."""
    return Place("supply", name)


def tapped(n: int) -> Confirm:
    """Stone ``n`` tapped on the board's reader."""
    return Confirm(f"stone {n}")


def placement(state: State) -> Placement:
    """Where every stone and life token lies, named only where everyone saw it."""
    layout: Placement = Counter()
    layout[(STONE, RESERVE)] = reserve_size(state)
    cap = state["options"]["life_cap"]
    for seat, name in enumerate(state["players"]):
        layout[(STONE, rack(name))] = len(state["racks"][seat])
        layout[(STONE, taken(name))] = len(state["acquired"][seat])
        layout[(LIFE, life(name))] = state["life"][seat]
        layout[(LIFE, spare(name))] = cap - state["life"][seat]
    for index, stone in enumerate(state["secret"]):
        if stone is not None:
            layout[(STONE, slot(index))] = 1
    for n in NUMBERS:
        layout[(numbered(n), BOARD)] = state["cast"][n - 1]
        layout[(numbered(n), REMOVED)] = state["removed"][n - 1]
    layout[(STONE, REMOVED)] = state["unseen_removed"]
    return +layout  # without the empty places


def put_back_steps(before: State, action: Action, after: State) -> list[Step]:
    """What undoing ``action`` (from ``before`` to ``after``) asks the players to do by hand: the
    stones that left a rack back from the board, the stones that came to one back in the
    reserve, a taken secret stone back in its slot, the stones laid during the deal back in the
    reserve, and the life tokens; after the end of a round (every stone gathered), every stone
    laid back where it lay."""
    if after["round"] != before["round"]:
        return _relay_round(before) + _lives(before, after)
    steps: list[Step] = []
    for seat, name in enumerate(before["players"]):
        went = Counter(before["racks"][seat]) - Counter(after["racks"][seat])
        for n, count in sorted(went.items()):  # cast and laid on the board: everyone saw it
            for _ in range(count):
                steps.append(
                    Step(
                        numbered(n),
                        BOARD,
                        rack(name),
                        t("Put the {n} from the board back on {player}'s rack.", n=n, player=name),
                        confirm=tapped(n),
                        becomes=STONE,
                    )
                )
        came = sum((Counter(after["racks"][seat]) - Counter(before["racks"][seat])).values())
        if came:
            steps.append(Step(STONE, rack(name), RESERVE, _came_text(came, name), count=came))
        if len(after["acquired"][seat]) > len(before["acquired"][seat]):
            index = next(
                i
                for i, stone in enumerate(before["secret"])
                if stone is not None and after["secret"][i] is None
            )
            steps.append(
                Step(
                    STONE,
                    taken(name),
                    slot(index),
                    t("{player} lays the secret stone back face down on the board.", player=name),
                )
            )
    for n in NUMBERS:
        count = after["removed"][n - 1] - before["removed"][n - 1]
        if count > 0:  # laid face up: everyone saw them
            text = (
                t("Put the {n} laid face up back in the reserve.", n=n)
                if count == 1
                else t(
                    "Put the {count} stones {n} laid face up back in the reserve.", n=n, count=count
                )
            )
            steps.append(Step(numbered(n), REMOVED, RESERVE, text, count, tapped(n), becomes=STONE))
    unseen = after["unseen_removed"] - before["unseen_removed"]
    if unseen > 0:
        steps.append(
            Step(
                STONE,
                REMOVED,
                RESERVE,
                t("Put the {n} stones removed face up back in the reserve.", n=unseen),
                count=unseen,
            )
        )
    laid = [
        index
        for index, stone in enumerate(after["secret"])
        if stone is not None and (index >= len(before["secret"]) or before["secret"][index] is None)
    ]
    for index in laid:  # only during the deal: taking one (ABR-SPELL-4) empties a slot instead
        steps.append(
            Step(
                STONE,
                slot(index),
                RESERVE,
                t("Put the secret stone last laid back in the reserve."),
            )
        )
    return steps + _lives(before, after)


def _came_text(count: int, name: str) -> Text:
    if count == 1:
        return t("Put the stone last laid on {player}'s rack back in the reserve.", player=name)
    return t(
        "Put the {n} stones last laid on {player}'s rack back in the reserve.",
        n=count,
        player=name,
    )


def _lives(before: State, after: State) -> list[Step]:
    """Each player's life tokens set back to what they were before the action."""
    steps = []
    for seat, name in enumerate(before["players"]):
        was, now = before["life"][seat], after["life"][seat]
        if was == now:
            continue
        text = t("Set {player}'s life tokens back to {n}.", player=name, n=was)
        source, target = (spare(name), life(name)) if was > now else (life(name), spare(name))
        steps.append(Step(LIFE, source, target, text, count=abs(was - now)))
    return steps


def _relay_round(before: State) -> list[Step]:
    """The round's end gathered every stone into the reserve: each one laid back where it lay
    when the round ended, from the reserve (nameless there, named again where everyone saw it)."""
    steps = []
    for (thing, place), count in sorted(placement(before).items(), key=repr):
        if thing.kind != "stone" or place == RESERVE:
            continue
        steps.append(
            Step(
                STONE,
                RESERVE,
                place,
                _relay_text(thing, place, count),
                count=count,
                becomes=None if thing == STONE else thing,
            )
        )
    return steps


def _relay_text(thing: Thing, place: Place, count: int) -> Text:
    """Laying ``count`` of ``thing`` back in ``place`` after the end of the round, in words."""
    if place.kind == "rack":
        if count == 1:
            return t("Lay 1 stone back on {player}'s rack, as it was.", player=place.owner)
        return t("Lay {n} stones back on {player}'s rack, as it was.", n=count, player=place.owner)
    if place.kind == "secret" and place.owner is not None:
        return t(
            "{player} takes back the secret stones they had taken ({n}), face down.",
            player=place.owner,
            n=count,
        )
    if place.kind == "secret":
        return t("Lay a secret stone back face down in slot {slot}.", slot=place.name)
    if place == BOARD:
        if count == 1:
            return t("Lay the {n} back on the board.", n=thing.name)
        return t("Lay {count} stones {n} back on the board.", count=count, n=thing.name)
    if thing == STONE:
        return t("Lay {n} stones back face up beside the board, as removed.", n=count)
    if count == 1:
        return t("Lay the {n} back face up beside the board.", n=thing.name)
    return t("Lay {count} stones {n} back face up beside the board.", count=count, n=thing.name)
