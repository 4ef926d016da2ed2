"""What the table looks like in things and places, and the steps that put it back after an undo.

A game describes its physical table in public terms (:meth:`Game.placement`): which thing lies
where, as a multiset of ``(Thing, Place)``. A thing whose identity some player may not know is
named without it (``Thing("stone")`` on a rack, a card in a hand), so the placement of a state is
the same for every state the table display cannot tell apart from it.

Undoing an action gives :class:`Step` values (:meth:`Game.put_back_steps`): move ``count`` of
``thing`` from ``source`` (where it lies now) to ``target`` (where it lay before the action), with
one public sentence, and the tap that confirms it where a reader can see it. A thing that is
named in one place and not in the other (stone 7 on the board, a nameless stone on a rack)
``becomes`` another thing on the way. Followed by hand,
the steps turn ``placement(after)`` back into ``placement(before)``: :func:`follow` does that for
the contract test and for the simulated hands.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..i18n import Text, t


@dataclass(frozen=True, order=True)
class Thing:
    """A physical thing, by its kind ("stone", "card", "tile", "piece", "token", "die") and its
    public name ("7", "Topdeck", "Stupefy"), or None where a player may not know which it is."""

    kind: str
    name: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name}


@dataclass(frozen=True, order=True)
class Place:
    """Where a thing lies, in public terms: its kind ("reserve", "rack", "hand", "board",
    "space", "pile", "discard", "tray", "box"), the player it belongs to (a rack, a hand) and its
    name (a space's id, a pile's name)."""

    kind: str
    owner: str | None = None
    name: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "owner": self.owner, "name": self.name}


@dataclass(frozen=True)
class Confirm:
    """The tap that shows a step was done: ``component`` (as the tag registry names it, "stone
    7") tapped on the board's reader (``seat`` None) or on ``seat``'s own reader."""

    component: str
    seat: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"component": self.component, "seat": self.seat}


@dataclass(frozen=True)
class Step:
    """One physical change to reverse: ``count`` of ``thing`` from ``source`` back to ``target``,
    said in ``text`` (public, translatable), confirmed by ``confirm`` where a reader sees it.
    ``becomes``: what the thing is called at ``target`` where that differs (stone 7 laid back on a
    rack, where some player may not know it, becomes ``Thing("stone")``; a nameless stone from
    the reserve laid face up becomes the stone it is); None: the same thing."""

    thing: Thing
    source: Place
    target: Place
    text: str
    count: int = 1
    confirm: Confirm | None = None
    becomes: Thing | None = None

    @property
    def arriving(self) -> Thing:
        """The thing as it lies at ``target``."""
        return self.becomes if self.becomes is not None else self.thing

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Step:
        """The step that :meth:`to_json` gave ``data`` (the simulated hands read it back)."""
        confirm, becomes = data.get("confirm"), data.get("becomes")
        return cls(
            Thing(**data["thing"]),
            Place(**data["from"]),
            Place(**data["to"]),
            data["text"],
            data["count"],
            Confirm(**confirm) if confirm else None,
            Thing(**becomes) if becomes else None,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "thing": self.thing.to_json(),
            "from": self.source.to_json(),
            "to": self.target.to_json(),
            "text": self.text,
            "count": self.count,
            "confirm": self.confirm.to_json() if self.confirm else None,
            "becomes": self.becomes.to_json() if self.becomes else None,
        }


Placement = Counter  # Counter[tuple[Thing, Place]]: how many of each thing lie in each place


def placement(pairs: Iterable[tuple[Thing, Place]]) -> Placement:
    """A placement from ``(thing, place)`` pairs, one per physical thing."""
    return Counter(pairs)


class NotThere(ValueError):
    """A step moves a thing from a place where there is not enough of it."""


def follow(layout: Placement, steps: Iterable[Step]) -> Placement:
    """``layout`` after the steps are done by hand, in order; ``layout`` is left unchanged.
    Raises :class:`NotThere` for a step that takes more than its source holds."""
    result = Counter(layout)
    for step in steps:
        here = (step.thing, step.source)
        if result[here] < step.count:
            raise NotThere(
                f"{step.count} × {step.thing} is not at {step.source} (there are {result[here]})"
            )
        result[here] -= step.count
        if not result[here]:
            del result[here]
        result[(step.arriving, step.target)] += step.count
    return result


def difference(before: Placement, after: Placement) -> dict[str, list[tuple[Any, int]]]:
    """What differs between two placements, for a failing contract's message."""
    return {
        "missing": sorted(((pair, n) for pair, n in (before - after).items()), key=repr),
        "extra": sorted(((pair, n) for pair, n in (after - before).items()), key=repr),
    }


def moves_back(
    was: Placement, now: Placement, order: Callable[[tuple[tuple[Thing, Place], int]], Any]
) -> list[tuple[Thing, Place, Place, int]]:
    """The moves ``(thing, source, target, count)`` that turn the placement ``now`` back into
    ``was``: each thing found in a new place goes back to a place it left, in the game's
    ``order`` (of ``((thing, place), count)`` entries: which things come first). A thing with no
    place to go back to (a placement that does not add up, which each game's tests rule out) is
    left out rather than refused: an undo is never stopped by its checklist."""
    gone, came = was - now, now - was  # where things must go back to; where they lie instead
    targets: dict[Thing, list[list[Any]]] = defaultdict(list)
    for (thing, place), count in sorted(gone.items(), key=order):
        targets[thing].append([place, count])
    moves = []
    for (thing, source), count in sorted(came.items(), key=order):
        while count and targets[thing]:
            target = targets[thing][0]
            moved = min(count, target[1])
            moves.append((thing, source, target[0], moved))
            count -= moved
            target[1] -= moved
            if not target[1]:
                targets[thing].pop(0)
    return moves


def joined(texts: list[Text]) -> Text | None:
    """Sentences one after the other, as one translatable text (None for none)."""
    if not texts:
        return None
    out = texts[0]
    for text in texts[1:]:
        out = t("{first} {then}", first=out, then=text)
    return out


def sentence(steps: list[Step]) -> Text | None:
    """The steps' sentences as one, for the undo's ``put_back`` (None without steps)."""
    return joined([step.text for step in steps])
