"""Moving by touch: every space the active hero can reach now, with the cheapest ways to get
there (``reach``), and a whole route taken in one action (``travel``), step by step through
:func:`.movement.step`.

A way is a path and, for each step, how it is paid: with a point of movement or an extra step
for XP (DT-MOVE-1, DT-MOVE-2), and across a lake or mountain by ability or item, a scroll in
hand, XP or the whole movement from the turn's start (DT-BORDER-2). Monsters and quests end the
movement where they stand (DT-MOVE-4, DT-MOVE-5), so no way goes on from them. A way names the
scrolls of the hero's own hand it would use: only he sees the reach (see ``views.view``)."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.rules.api import MALFORMED, Action, Event, State
from companion.rules.common import Refuse as _Refuse
from companion.rules.common import name_of as _name

from .board import space_name
from .checks import expect_turn
from .heroes import check_scroll, habitual, level_of
from .movement import step

#: at most this many ways to one space (the cheapest, none worse than another in every cost)
MAX_WAYS = 4
#: the search stops growing after this many partial routes (a bound; the example needs far less)
MAX_LABELS = 4000
#: a route has at most this many steps
MAX_PATH = 64
PAY_KEYS = ("cross", "scroll", "extra")


def _crossing_scrolls(data: dict[str, Any], state: State, seat: int) -> list[str]:
    """The scrolls of the hero's hand he may play now to cross a border (DT-BORDER-2 (a))."""
    out = []
    for card in sorted(set(state["heroes"][seat]["scrolls"])):
        if not data["scrolls"][card]["effect"].get("cross"):
            continue
        try:
            check_scroll(data, state, seat, card, "movement")
        except _Refuse:
            continue
        out.append(card)
    return out


def _dominates(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """``a`` costs no more than ``b`` in everything a later step could need."""
    return (
        a["xp"] <= b["xp"]
        and a["left"] >= b["left"]
        and set(a["scrolls"]) <= set(b["scrolls"])
        and a["crossed_xp"] <= b["crossed_xp"]
        and a["extras"] <= b["extras"]
    )


def reach(data: dict[str, Any], state: State) -> list[dict[str, Any]] | None:
    """The spaces the active hero can move to now, each ``{"to", "ways"}``; None when he is not
    moving. A way: ``{"path", "pay", "moves", "extra", "xp", "whole", "scrolls", "crossings",
    "ends"}`` (``pay`` is the ``travel`` action's, ``crossings`` each border crossed and how,
    ``ends``: "monsters" or "quest" when the movement ends there, else null)."""
    turn = state["t"]
    if state["phase"] != "move" or state["pending"] or not turn:
        return None
    seat = state["active"]
    hero = state["heroes"][seat]
    level = level_of(data, state, seat)
    costs, repeat = data["xp"], data["xp_repeat"]
    avoid = "avoid_monsters" in level["abilities"]
    scrolls = _crossing_scrolls(data, state, seat)
    can_whole = (
        not turn["stepped"]
        and hero["space"] == turn["start"]
        and turn["moves_left"] == level["movement"]
        and turn["moves_left"] > 0
    )
    start = {
        "space": hero["space"],
        "left": turn["moves_left"],
        "xp": 0,
        "scrolls": (),
        "crossed_xp": turn["paid"].get("cross_border", 0),
        "extras": turn["paid"].get("extra_step", 0),
        "whole": False,
        "path": (),
        "pay": (),
        "crossings": (),
        "moves": 0,
    }
    labels: dict[str, list[dict[str, Any]]] = {hero["space"]: [start]}
    frontier, made = [start], 1
    while frontier and made < MAX_LABELS:
        following = []
        for label in frontier:
            here = label["space"]
            if label["path"] and _ends(data, state, here, avoid):
                continue
            for to, border in sorted(data["adjacent"].get(here, {}).items()):
                for new in _steps(
                    data, state, seat, label, to, border, scrolls, can_whole, costs, repeat
                ):
                    if new["xp"] > hero["xp"]:
                        continue
                    kept = labels.setdefault(to, [])
                    if any(_dominates(old, new) for old in kept):
                        continue
                    kept[:] = [old for old in kept if not _dominates(new, old)]
                    kept.append(new)
                    following.append(new)
                    made += 1
        frontier = following
    out = []
    for to in sorted(labels):
        if to == hero["space"]:
            continue
        ways = sorted(
            labels[to],
            key=lambda way: (way["xp"], len(way["scrolls"]), way["whole"], len(way["path"])),
        )[:MAX_WAYS]
        out.append({"to": to, "ways": [_way(data, state, to, way, avoid) for way in ways]})
    return out


def _ends(data: dict[str, Any], state: State, space: str, avoid: bool) -> str | None:
    """Why the movement ends on entering ``space`` (DT-MOVE-4, DT-MOVE-5), or None."""
    if state["monsters"].get(space) and not avoid:
        return "monsters"
    if space in state["quests"]:
        return "quest"
    return None


def _steps(
    data: dict[str, Any],
    state: State,
    seat: int,
    label: dict[str, Any],
    to: str,
    border: str,
    scrolls: list[str],
    can_whole: bool,
    costs: dict[str, int],
    repeat: dict[str, bool],
):
    """The ways one step from ``label`` to ``to`` can be paid (cheapest kinds only)."""
    crossings: list[tuple[dict[str, Any], dict[str, Any] | None]] = []
    if border == "none":
        crossings.append(({}, None))
    else:
        by = habitual(data, state, seat, border)
        if by:
            crossings.append(({}, {"border": border, "by": by}))
        else:
            if repeat.get("cross_border", True) or not label["crossed_xp"]:
                crossings.append(({"cross": "xp"}, {"border": border, "by": "xp"}))
            if can_whole and not label["path"]:
                crossings.append(({"cross": "whole"}, {"border": border, "by": "whole"}))
            for card in scrolls:
                if card not in label["scrolls"] and border in data["scrolls"][card]["effect"].get(
                    "cross", []
                ):
                    crossings.append(
                        (
                            {"cross": "scroll", "scroll": card},
                            {"border": border, "by": "scroll", "scroll": card},
                        )
                    )
    for pay, crossing in crossings:
        new = dict(label)
        new["space"] = to
        new["path"] = label["path"] + (to,)
        if crossing is not None:
            new["crossings"] = label["crossings"] + (
                {"from": label["space"], "to": to, **crossing},
            )
        if pay.get("cross") == "xp":
            new["xp"] += costs["cross_border"]
            new["crossed_xp"] += 1
        if pay.get("cross") == "scroll":
            new["scrolls"] = label["scrolls"] + (pay["scroll"],)
        if pay.get("cross") == "whole":
            new["left"], new["whole"] = 0, True
        elif label["left"] >= 1:
            new["left"] -= 1
            new["moves"] += 1
        elif repeat.get("extra_step", True) or not label["extras"]:  # DT-MOVE-2
            pay = pay | {"extra": True}
            new["xp"] += costs["extra_step"]
            new["extras"] += 1
        else:
            continue
        new["pay"] = label["pay"] + (pay,)
        yield new


def _way(
    data: dict[str, Any], state: State, to: str, label: dict[str, Any], avoid: bool
) -> dict[str, Any]:
    turn = state["t"]
    return {
        "path": list(label["path"]),
        "pay": [dict(pay) for pay in label["pay"]],
        "moves": turn["moves_left"] if label["whole"] else label["moves"],
        "extra": label["extras"] - turn["paid"].get("extra_step", 0),
        "xp": label["xp"],
        "whole": label["whole"],
        "scrolls": list(label["scrolls"]),
        "crossings": [dict(crossing) for crossing in label["crossings"]],
        "ends": _ends(data, state, to, avoid),
    }


def travel(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-MOVE-1..5, DT-BORDER-2: a route of steps in one action, each checked as a ``step``
    (``path``: the spaces entered in turn; ``pay``: for each step, its ``cross``, ``scroll`` and
    ``extra`` as a step takes them). One step refused refuses the whole route: ``apply`` keeps
    the state it was given."""
    seat = expect_turn(data, state, action, "move", "travel")
    path = action.get("path")
    if (
        not isinstance(path, list)
        or not 1 <= len(path) <= MAX_PATH
        or not all(isinstance(space, str) for space in path)
    ):
        raise _Refuse(MALFORMED, t("path is a list of 1 to {n} space ids.", n=MAX_PATH))
    pay = action.get("pay", [{}] * len(path))
    if (
        not isinstance(pay, list)
        or len(pay) != len(path)
        or not all(isinstance(entry, dict) and set(entry) <= set(PAY_KEYS) for entry in pay)
    ):
        raise _Refuse(
            MALFORMED,
            t(
                "pay is a list with one entry per step of the path, each with cross, scroll "
                "or extra."
            ),
        )
    player = _name(state, seat)
    for number, (to, entry) in enumerate(zip(path, pay), start=1):
        try:
            step(data, state, {"type": "step", "player": player, **entry, "to": to}, events)
        except _Refuse as refused:
            where = space_name(data, to) if to in data["spaces"] else repr(to)
            raise _Refuse(
                refused.refusal.rule,
                t(
                    "Step {n} of the route, to {space}: {reason}",
                    n=number,
                    space=where,
                    reason=refused.refusal.reason,
                ),
            ) from None
