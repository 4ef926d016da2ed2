"""Moving (DT-MOVE): steps between next spaces, borders crossed (DT-BORDER), stopping, the
spaces a defeated hero may flee to, and entering the tower by the door (DT-TOWER)."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.rules.api import MALFORMED, Action, Event, State
from companion.rules.common import Refuse as _Refuse
from companion.rules.common import event as _event
from companion.rules.common import name_of as _name
from companion.rules.common import player_of as _player
from companion.rules.common import seat_of as _seat

from .board import door_space, space_name, space_type
from .checks import expect_turn
from .encounters import move_ended
from .heroes import check_scroll, habitual, level_of, repeatable, use_scroll
from .state import draw_step, new_encounter


def step(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-MOVE-1..5, DT-BORDER-2: one step to a next space, across a border by ability, item,
    scroll, XP or the whole movement; monsters or a quest there end the movement."""
    seat = expect_turn(data, state, action, "move", "step")
    turn, hero = state["t"], state["heroes"][seat]
    to = action.get("to")
    if to not in data["spaces"]:
        raise _Refuse("DT-MOVE-3", t("There is no space {space} on the map.", space=repr(to)))
    here = hero["space"]
    border = data["adjacent"].get(here, {}).get(to)
    if state["options"]["trust_positions"]:
        border = border or "none"
    elif border is None:  # DT-MOVE-3: corner-touching spaces are not adjacent
        raise _Refuse(
            "DT-MOVE-3",
            t(
                "{space} is not next to {here}.",
                space=space_name(data, to),
                here=space_name(data, here),
            ),
        )
    extra = action.get("extra", False)
    if not isinstance(extra, bool):
        raise _Refuse(MALFORMED, t("extra is true or false."))
    cross = action.get("cross")
    costs = dict(data["xp"])
    xp_needed = 0
    whole = False
    scroll = None
    if border != "none":
        mode = cross or habitual(data, state, seat, border)
        if mode in ("ability", "item"):
            if habitual(data, state, seat, border) is None:
                if border == "lake":
                    reason = t(
                        "{player} cannot cross a lake without paying {xp} XP, a "
                        "scroll, or a whole turn's movement.",
                        player=_name(state, seat),
                        xp=costs["cross_border"],
                    )
                else:
                    reason = t(
                        "{player} cannot cross a mountain without paying {xp} XP, a "
                        "scroll, or a whole turn's movement.",
                        player=_name(state, seat),
                        xp=costs["cross_border"],
                    )
                raise _Refuse("DT-BORDER-2", reason)
        elif mode == "xp":  # DT-BORDER-2 (b)
            repeatable(data, state, "cross_border")
            if hero["xp"] < costs["cross_border"]:  # spec 4.3 MOVING: a forbidden border
                raise _Refuse(
                    "DT-BORDER-2",
                    t(
                        "{player} has {xp} XP, not the {needed} XP a crossing costs.",
                        player=_name(state, seat),
                        xp=hero["xp"],
                        needed=costs["cross_border"],
                    ),
                )
            xp_needed += costs["cross_border"]
        elif mode == "whole":  # DT-BORDER-2 (c)
            if (
                turn["stepped"]
                or here != turn["start"]
                or turn["moves_left"] != level_of(data, state, seat)["movement"]
            ):
                raise _Refuse(
                    "DT-BORDER-2",
                    t(
                        "Crossing with the whole movement is only "
                        "possible from the space the turn started "
                        "on, before any step."
                    ),
                )
            whole = True
        elif mode == "scroll":  # DT-BORDER-2 (a)
            scroll = action.get("scroll")
            check_scroll(data, state, seat, scroll, "movement")
            if border not in data["scrolls"][scroll]["effect"].get("cross", []):
                raise _Refuse("DT-BORDER-2", t("That scroll cannot be used for this crossing."))
        elif border == "lake":
            raise _Refuse(
                "DT-BORDER-2",
                t(
                    "A lake is a border: cross it by ability, magic "
                    "item or scroll, for {xp} XP, or with the whole "
                    "movement from a space next to it (cross: "
                    "ability, item, scroll, xp or whole).",
                    xp=costs["cross_border"],
                ),
            )
        else:
            raise _Refuse(
                "DT-BORDER-2",
                t(
                    "A mountain is a border: cross it by ability, "
                    "magic item or scroll, for {xp} XP, or with the "
                    "whole movement from a space next to it (cross: "
                    "ability, item, scroll, xp or whole).",
                    xp=costs["cross_border"],
                ),
            )
    if extra:  # DT-MOVE-2
        repeatable(data, state, "extra_step")
        xp_needed += costs["extra_step"]
    elif not whole and turn["moves_left"] < 1:  # DT-MOVE-1
        raise _Refuse(
            "DT-MOVE-1",
            t(
                "{player} has no movement left; an extra step costs {xp} XP (extra: true).",
                player=_name(state, seat),
                xp=costs["extra_step"],
            ),
        )
    if xp_needed > hero["xp"]:
        raise _Refuse(
            "DT-TOK-5",
            t(
                "{player} has {xp} XP, not {needed}.",
                player=_name(state, seat),
                xp=hero["xp"],
                needed=xp_needed,
            ),
        )
    hero["xp"] -= xp_needed
    if extra:
        turn["paid"]["extra_step"] = turn["paid"].get("extra_step", 0) + 1
    if xp_needed and border != "none" and cross == "xp":
        turn["paid"]["cross_border"] = turn["paid"].get("cross_border", 0) + 1
    if whole:
        turn["moves_left"] = 0
        turn["whole"] = True
    elif not extra:
        turn["moves_left"] -= 1
    if scroll is not None:
        use_scroll(data, state, seat, scroll, events)
    turn["stepped"] = True
    hero["space"] = to
    name = _name(state, seat)
    where = space_name(data, to)
    if border == "none":
        text = t("{player} moves to {space}.", player=name, space=where)
    elif border == "lake":
        text = t("{player} moves to {space} across a lake.", player=name, space=where)
    else:
        text = t("{player} moves to {space} across a mountain.", player=name, space=where)
    events.append(_event("step", text, player=name, to=to, border=border, xp=xp_needed))
    monsters = state["monsters"].get(to)
    if monsters and "avoid_monsters" not in level_of(data, state, seat)["abilities"]:
        events.append(
            _event(
                "stopped",
                t(
                    "Monsters on {space}: {player} must stop and fight.",
                    space=where,
                    player=name,
                ),
                player=name,
            )
        )  # DT-MOVE-4, DT-GROUP-1
        move_ended(data, state, events, "monsters")
    elif to in state["quests"]:  # DT-MOVE-5, DT-QUEST-2
        events.append(
            _event(
                "stopped",
                t("A quest on {space}: {player}'s movement ends.", space=where, player=name),
                player=name,
            )
        )
        move_ended(data, state, events, "quest")


def stop(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-MOVE-1: movement not used is lost."""
    expect_turn(data, state, action, "move", "stop")
    move_ended(data, state, events)


def flee_spaces(data: dict[str, Any], state: State) -> list[str]:
    """The spaces a defeated hero may flee to (empty: he cannot flee)."""
    combat = state["combat"]
    if combat is None or combat["wizard"] or combat["space"] is None:
        return []
    if space_type(data, combat["space"])["no_flee"]:
        return []
    seat = state["active"]
    out = []
    for to, border in sorted(data["adjacent"].get(combat["space"], {}).items()):
        if to in state["monsters"]:
            continue
        if border == "lake" and habitual(data, state, seat, "lake") is None:
            continue
        if (
            border == "mountain"
            and not state["options"]["flee_across_mountains"]
            and habitual(data, state, seat, "mountain") is None
        ):
            continue
        out.append(to)
    return out


def enter_tower(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-TOWER-2..4, DT-AMB-18: declared on the door's shadowland; not a move."""
    seat = _seat(state, _player(action))
    if seat != state["active"] or state["pending"]:
        raise _Refuse(
            "DT-TURN-1", t("Only {player} may enter now.", player=_name(state, state["active"]))
        )
    before = state["options"]["encounter_before_entry"]
    if before:
        ok = (
            state["phase"] in ("trade", "cleanup")
            and state["t"]["encountered"]
            and not state["t"]["fled"]
            and not state["t"]["died"]
            and state["offer"] is None
        )
    else:
        ok = state["phase"] == "move"
    if not ok:
        raise _Refuse(
            "DT-AMB-18",
            t("The tower is entered after the encounter on the door's space.")
            if before
            else t("The tower is entered instead of the encounter, while moving."),
        )
    if state["heroes"][seat]["space"] != door_space(data, state):
        raise _Refuse(
            "DT-TOWER-2",
            t(
                "The only way in is the shadowland by the door ({space}).",
                space=space_name(data, door_space(data, state)),
            ),
        )
    name = _name(state, seat)
    state["t"]["ended"] = "other"
    state["encounter"] = new_encounter(None, wizard=True)
    state["phase"] = "encounter"
    count = data["tower_draw"]
    state["pending"] = [draw_step("token", seat, "wizard") for _token in range(count)]  # DT-WIZ-1
    events.append(
        _event(
            "tower_entered",
            t(
                "{player} enters the tower and climbs to Z'Mindrik, who summons {n} monsters.",
                player=name,
                n=count,
            ),
            player=name,
        )
    )
