"""A fight's mechanics: the arithmetic (DT-COMBAT-1..5), the scroll windows and the roll
(DT-COMBAT-2..7), victory and its rewards (DT-REWARD), quests won and moved (DT-QUEST), and the
dice for treasure and the Quest Location table."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.rules.api import Event, State
from companion.rules.common import event as _event
from companion.rules.common import name_of as _name

from .board import space_name, space_type
from .constants import MAX_SIXES, QUEST_XP
from .heroes import equipped_slots, level_of
from .state import draw_step, fighting
from .texts import listing, named
from .windows import after_window_opens, all_passed


def totals(data: dict[str, Any], state: State) -> dict[str, Any] | None:
    """The combat's arithmetic (DT-COMBAT-1..5): both totals, the row and the target."""
    combat = state["combat"]
    if combat is None:
        return None
    seat = state["active"]
    opponents = fighting(combat)
    types = {kind for monster in opponents for kind in data["tokens"][monster]["types"]}
    strength = level_of(data, state, seat)["strength"]
    items = 0
    for slot, face in equipped_slots(data, state, seat):  # DT-COMBAT-1: slots only
        bonus = face["bonus"]
        cap = slot.get("max")
        if cap is not None and state["options"]["slot_max"] == "cap":
            bonus = min(bonus, cap)
        special = sum(
            bonus_vs for kind, bonus_vs in face.get("vs", {}).items() if kind in types
        )  # once each
        if cap is not None and state["options"]["slot_max_special"]:
            special = min(special, cap)
        items += bonus + special
    own = sum(played["effect"].get("fighter", 0) for played in combat["played"])
    monsters = sum(data["tokens"][monster]["strength"] for monster in opponents)  # DT-COMBAT-3
    against = sum(played["effect"].get("monsters", 0) for played in combat["played"])  # DT-COMBAT-4
    player_total = strength + items + own
    monster_total = monsters + against
    diff = player_total - monster_total
    row = _row(data["combat_rows"], diff)  # DT-COMBAT-5
    return {
        "strength": strength,
        "items": items,
        "scrolls": own,
        "player": player_total,
        "monsters": monster_total,
        "monster_strength": monsters,
        "against": against,
        "difference": diff,
        "row": row,
        "target": row["target"],
    }


def _row(rows: list[dict], diff: int) -> dict[str, Any]:
    """DT-COMBAT-5, DT-AMB-2: the band holding the difference, clamped at both ends."""
    for band in rows:
        if (band["min"] is None or diff >= band["min"]) and (
            band["max"] is None or diff <= band["max"]
        ):
            return band
    return rows[0] if rows[0]["min"] is not None and diff < rows[0]["min"] else rows[-1]


def start_combat(
    data: dict[str, Any], state: State, monsters: list[str], events: list[Event]
) -> None:
    """The fight begins: the fighter's scroll window first (DT-COMBAT-2)."""
    encounter = state["encounter"]
    state["combat"] = {
        "monsters": monsters,
        "removed": [],
        "played": [],
        "passed": [],
        "sixes": 0,
        "dice": None,
        "rolls": 0,
        "quest": encounter["quest"],
        "wizard": encounter["wizard"],
        "space": encounter["space"],
    }
    names = listing([named(data["tokens"][monster]["name"]) for monster in monsters])
    events.append(
        _event(
            "combat",
            t("{player} fights {monsters}.", player=_name(state, state["active"]), monsters=names),
            player=_name(state, state["active"]),
            monsters=list(monsters),
        )
    )
    state["phase"] = "scrolls_own"
    skip_empty_windows(state)


def skip_empty_windows(state: State) -> None:
    """A window nobody can use is skipped, and the rivals' window before the roll closes once
    every rival holding a scroll has passed; how many scrolls each holds is public
    (DT-AMB-30), so this tells nothing. Which scrolls they are never counts."""
    if state["phase"] == "scrolls_own" and not state["heroes"][state["active"]]["scrolls"]:
        state["phase"] = "scrolls_others"
    if state["phase"] == "scrolls_others" and all_passed(state):
        state["phase"] = "pre_roll"
        await_roll(state)


def await_roll(state: State) -> None:
    """The fight's dice are awaited: those not bought as sixes (DT-COMBAT-6, DT-COMBAT-7)."""
    combat = state["combat"]
    dice = MAX_SIXES - combat["sixes"]
    state["pending"] = [entry for entry in state["pending"] if entry.get("why") != "combat"]
    if dice:
        state["pending"].insert(
            0, {"kind": "die", "why": "combat", "player": state["active"], "dice": dice}
        )


def rolled_combat(
    data: dict[str, Any], state: State, chance_step: dict, values: list[int], events: list[Event]
) -> None:
    """DT-COMBAT-7: two dice (bought sixes included); at least the row's number wins."""
    combat = state["combat"]
    combat["dice"] = [{"value": 6, "six": True} for _six in range(combat["sixes"])] + [
        {"value": value, "six": False} for value in values
    ]
    combat["rolls"] += 1
    judge(data, state, events)


def judge(data: dict[str, Any], state: State, events: list[Event]) -> None:
    """The dice against the target (DT-COMBAT-7): a winning roll first opens the rivals'
    after-roll window when it can (DT-COMBAT-8, DT-WIZ-4), then stands; a failed one is a defeat
    the fighter answers (DT-DEFEAT-1)."""
    combat = state["combat"]
    reckoning = totals(data, state)
    roll = sum(die["value"] for die in combat["dice"])
    name = _name(state, state["active"])
    won = roll >= reckoning["target"]
    state["last_combat"] = {
        "player": name,
        "turn": state["turn"],
        "monsters": fighting(combat),
        "totals": reckoning,
        "dice": [die["value"] for die in combat["dice"]],
        "roll": roll,
        "won": won,
    }
    shown = {"player": name, "roll": roll, "target": reckoning["target"]}
    if won and after_window_opens(data, state):
        combat["passed"] = []
        state["phase"] = "scrolls_after"
        events.append(
            _event(
                "roll_answerable",
                t(
                    "{player} rolls {roll} against {target}: enough, unless a rival's scroll "
                    "changes the dice.",
                    **shown,
                ),
                **shown,
            )
        )
    elif won:
        stands(data, state, events)
    else:
        events.append(
            _event(
                "defeat",
                t("{player} rolls {roll} against {target}: the monsters win.", **shown),
                **shown,
            )
        )
        state["phase"] = "defeat"  # DT-DEFEAT-1


def stands(data: dict[str, Any], state: State, events: list[Event]) -> None:
    """The winning roll stands (no rival's window, or it closed): victory (DT-COMBAT-7)."""
    last = state["last_combat"]
    shown = {"player": last["player"], "roll": last["roll"], "target": last["totals"]["target"]}
    events.append(
        _event("victory", t("{player} rolls {roll} against {target}: victory!", **shown), **shown)
    )
    _victory(data, state, events)


def close_rivals_window(data: dict[str, Any], state: State, events: list[Event]) -> None:
    """The rivals' window closes (all passed, or the countdown ended): before the roll, the
    dice are awaited; after it, the roll stands."""
    if state["phase"] == "scrolls_after":
        stands(data, state, events)
    else:
        state["phase"] = "pre_roll"
        await_roll(state)


def _victory(data: dict[str, Any], state: State, events: list[Event]) -> None:
    """DT-REWARD-1..3, DT-COMBAT-9, DT-QUEST-4, DT-SPACE-8, DT-GAME-1."""
    combat, seat = state["combat"], state["active"]
    hero = state["heroes"][seat]
    killed = fighting(combat)
    xp = sum(data["tokens"][monster]["xp"] for monster in killed)
    hero["xp"] += xp  # DT-REWARD-1: always the XP of every monster
    name = _name(state, seat)
    events.append(
        _event(
            "monsters_killed",
            t("{player} kills every monster and takes {xp} XP.", player=name, xp=xp),
            player=name,
            tokens=killed,
            xp=xp,
        )
    )
    space = combat["space"]
    if space is not None:
        state["monsters"].pop(space, None)
    return_tokens(state, list(combat["monsters"]))
    if combat["wizard"]:  # DT-GAME-1
        state["phase"] = "over"
        state["winners"] = [name]
        state["pending"] = []
        events.append(
            _event(
                "game_over",
                t("{player} defeats Z'Mindrik and saves Aurora!", player=name),
                winners=[name],
            )
        )
        return
    for monster in killed:  # DT-REWARD-2: one die per token with a treasure table (DT-AMB-29)
        if data["tokens"][monster]["treasure"]:
            state["pending"].append(
                {"kind": "die", "why": "treasure", "player": seat, "dice": 1, "token": monster}
            )
    if space is not None and space_type(data, space)["extra_magic_item"]:  # DT-SPACE-8
        state["pending"].append(draw_step("item", seat, "dungeon", face="magic"))
    if combat["quest"]:
        quest_won(data, state, events)
    state["combat"] = None
    state["phase"] = "encounter"
    state["encounter"]["done"] = True


def quest_won(data: dict[str, Any], state: State, events: list[Event]) -> None:
    """DT-QUEST-4, DT-QUEST-6: a scroll and 5 XP, then the quest moves."""
    seat = state["active"]
    state["heroes"][seat]["xp"] += QUEST_XP
    state["pending"].append(draw_step("scroll", seat, "quest"))
    name = _name(state, seat)
    events.append(
        _event(
            "quest_won",
            t("{player} completes the quest: a scroll and {xp} XP.", player=name, xp=QUEST_XP),
            player=name,
        )
    )
    relocate(data, state, state["encounter"]["space"])


def relocate(data: dict[str, Any], state: State, space: str) -> None:
    """DT-QUEST-6: the quest on ``space`` moves where the Quest Location table says."""
    index = state["quests"].index(space)
    state["pending"].append(
        {
            "kind": "die",
            "why": "quest",
            "player": state["active"],
            "dice": data["quest_table"]["dice"],
            "quest": index,
        }
    )


def rolled_treasure(
    data: dict[str, Any], state: State, chance_step: dict, values: list[int], events: list[Event]
) -> None:
    """DT-REWARD-2: gold, a scroll, equipment or a magic item, from the token's table."""
    token = data["tokens"][chance_step["token"]]
    result = token["treasure"][str(values[0])]
    seat = chance_step["player"]
    name = _name(state, seat)
    shown = {"token": named(token["name"]), "value": values[0]}
    if "gold" in result:
        state["heroes"][seat]["gold"] += result["gold"]
        text = t("{token}'s treasure ({value}): {gold} gold.", gold=result["gold"], **shown)
    elif "scroll" in result:
        state["pending"].insert(0, draw_step("scroll", seat, "treasure"))
        text = t("{token}'s treasure ({value}): a scroll.", **shown)
    elif "equipment" in result or "magic" in result:
        face = "equipment" if "equipment" in result else "magic"
        state["pending"].insert(0, draw_step("item", seat, "treasure", face=face))
        if face == "equipment":
            text = t("{token}'s treasure ({value}): an equipment item.", **shown)
        else:
            text = t("{token}'s treasure ({value}): a magic item.", **shown)
    else:
        text = t("{token}'s treasure ({value}): nothing.", **shown)
    events.append(
        _event(
            "treasure",
            text,
            player=name,
            token=chance_step["token"],
            value=values[0],
            result=result,
        )
    )


def rolled_quest(
    data: dict[str, Any], state: State, chance_step: dict, values: list[int], events: list[Event]
) -> None:
    """DT-QUEST-6, DT-AMB-6: the Quest Location table; a taken space is rolled again."""
    total = sum(values)
    space = data["quest_table"]["results"][str(total)]
    other = state["quests"][1 - chance_step["quest"]]
    busy = (
        space == other
        or space in state["monsters"]
        or any(hero["space"] == space for hero in state["heroes"])
    )
    if busy:
        state["pending"].insert(0, dict(chance_step))
        events.append(
            _event(
                "quest_reroll",
                t(
                    "The Quest Location table gives {space} ({total}), which is taken: roll again.",
                    space=space_name(data, space),
                    total=total,
                ),
                value=total,
                space=space,
            )
        )
        return
    state["quests"][chance_step["quest"]] = space
    events.append(
        _event(
            "quest_moved",
            t(
                "A quest moves to {space} ({total}).",
                space=space_name(data, space),
                total=total,
            ),
            value=total,
            space=space,
            quests=list(state["quests"]),
        )
    )


def return_tokens(state: State, tokens: list[str]) -> None:
    """DT-AMB-14: killed and resolved tokens go back into the bowl."""
    if state["options"]["killed_tokens_return"]:
        for token in tokens:
            state["bowl"][token] = state["bowl"].get(token, 0) + 1
