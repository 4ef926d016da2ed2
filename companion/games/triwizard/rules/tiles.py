"""Resource Tiles (TW-RES-*, table 4.3, TW-AMB-12/16..22/28): playing one (at most one a turn,
at its moment), and the interrupts they open: the Dumbledore counter window (TW-RES-DUMB-2,
closed by the target's answer or the table's countdown), Veritaserum's pick, the overflow
discards (TW-RES-2) and the choice of a space (TW-AMB-5/6)."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.rules.api import MALFORMED, State
from companion.rules.common import Refuse, event, player_of, seat_of

from . import declared
from .cloak import put_on, target_piece
from .draws import gain_tile
from .geometry import nearest, open_spaces
from .numbers import QUIET_PHASES, SLOTS, TILE_LIMIT
from .state import cloaked, interrupt, occupant


def _discard(state: State, seat: int, tile: str) -> None:
    state["tiles"][seat].remove(tile)
    state["tile_pile"]["discard"].append(tile)


def play_tile(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    who = player_of(action)
    seat = seat_of(state, who)
    tile = action.get("tile")
    if tile not in state["tiles"][seat]:
        raise Refuse("TW-RES-4", t("That Resource Tile is not in your hand."))
    kind = data["tiles"][tile]["kind"]
    extra = set(action) - {"type", "player", "tile"} - PARAMETERS.get(kind, set())
    if extra:
        raise Refuse(
            MALFORMED,
            t("That tile takes no {names}.", names=", ".join(sorted(extra))),
        )
    if seat != state["active"]:
        raise Refuse("TW-RES-5", t("Resource Tiles are played only in your own turn."))
    phase = state["phase"]
    if phase == "draw":
        raise Refuse("TW-TURN-1", t("Draw up to 4 Battle Cards first."))
    if phase in ("removal_roll", "removal_place"):
        raise Refuse("TW-CLOAK-6", t("Trying to remove the Cloak is the turn's only action."))
    if phase == "swap":
        raise Refuse("TW-TURN-7", t("A swapped hand ends the turn."))
    if kind == "double_die" and phase != "battle_short":
        raise Refuse(
            "TW-RES-DDIE-1", t("The Double Die is played only after a battle roll falls short.")
        )
    if state["interrupts"] or state["pending"]:
        from .prompts import prompt

        raise Refuse("TW-RES-5", t("First: {prompt}", prompt=prompt({}, state)))
    if state["turn_state"]["tile_played"]:
        raise Refuse("TW-TURN-4", t("Only one Resource Tile may be played in a turn."))
    if kind == "reductor":
        raise Refuse(
            "TW-RES-REDUCT-3",
            t("The Reductor Curse is played with a move, after the movement roll."),
        )
    if kind == "double_die":
        if phase != "battle_short":
            raise Refuse(
                "TW-RES-DDIE-1", t("The Double Die is played only after a battle roll falls short.")
            )
        _discard(state, seat, tile)
        state["turn_state"]["tile_played"] = True
        state["pending"].append({"kind": "die", "why": "reroll", "player": seat})
        state["phase"] = "battle_reroll"
        events.append(
            event("play_tile", t("{player} plays the Double Die.", player=who), tile=tile)
        )
        return
    if phase not in QUIET_PHASES:
        raise Refuse(
            "TW-AMB-12",
            t("That tile is played before the roll, after a Cloak roll, or after the move."),
        )
    EFFECTS[kind](data, state, seat, tile, action, events)
    state["turn_state"]["tile_played"] = True


#: what each kind of tile is told when it is played
PARAMETERS = {
    "dumbledore": {"target"},
    "four_point": {"slot"},
    "cloak": {"on"},
    "red_sparks": {"target"},
    "summon_hedge": {"space"},
    "veritaserum": {"target"},
}


def _other_with_tiles(state: State, seat: int, action: dict, rule: str) -> int:
    target = seat_of(state, action.get("target"))
    if target == seat:
        raise Refuse(rule, t("Choose another player."))
    if not state["tiles"][target]:
        raise Refuse(rule, t("{player} holds no Resource Tile.", player=state["players"][target]))
    if state["options"].get("cloak_blocks_steal", True) and cloaked(state, seat):
        raise Refuse("TW-CLOAK-3", t("While your piece wears the Cloak you collect no tiles."))
    return target


def _dumbledore(data, state, seat, tile, action, events) -> None:
    """TW-RES-DUMB-1, TW-AMB-18: against another player's cloaked piece; the target may
    counter (TW-RES-DUMB-2)."""
    target = seat_of(state, action.get("target"))
    if state["cloak"] is None or state["cloak"] == seat or state["cloak"] != target:
        raise Refuse(
            "TW-RES-DUMB-1",
            t("Albus Dumbledore is played against another player's cloaked piece."),
        )
    _discard(state, seat, tile)
    state["interrupts"].append({"kind": "dumbledore", "player": target, "by": seat, "tile": tile})
    events.append(
        event(
            "play_tile",
            t(
                "{player} plays Albus Dumbledore against {target}.",
                player=state["players"][seat],
                target=state["players"][target],
            ),
            tile=tile,
        )
    )


def _four_point(data, state, seat, tile, action, events) -> None:
    """TW-RES-4PT-1, TW-AMB-16: a face-down Cup Tile, not while cloaked."""
    if cloaked(state, seat):
        raise Refuse(
            "TW-CLOAK-3", t("While your piece wears the Cloak you cannot check Cup Tiles.")
        )
    slot = action.get("slot")
    if slot not in SLOTS:
        raise Refuse(MALFORMED, t("A Cup Tile Space is named 1 to 4."))
    if state["cups"][slot] is not None:
        raise Refuse("TW-RES-4PT-1", t("That Cup Tile is already face up."))
    _discard(state, seat, tile)
    state["pending"].append({"kind": "peek", "slot": slot, "player": seat})
    events.append(
        event(
            "play_tile",
            t(
                "{player} uses the Four Point Spell on Cup Tile {slot}.",
                player=state["players"][seat],
                slot=slot,
            ),
            tile=tile,
        )
    )


def _cloak(data, state, seat, tile, action, events) -> None:
    """TW-RES-CLOAK-1, TW-CLOAK-4/5."""
    target = target_piece(state, action.get("on"), "TW-CLOAK-5")
    _discard(state, seat, tile)
    put_on(state, target)
    events.append(
        event(
            "play_tile",
            t(
                "{player} puts the Cloak on {target}'s piece.",
                player=state["players"][seat],
                target=state["players"][target],
            ),
            tile=tile,
        )
    )


def _red_sparks(data, state, seat, tile, action, events) -> None:
    """TW-RES-SPARK-1, TW-AMB-17/22: one tile drawn blind from another player."""
    target = _other_with_tiles(state, seat, action, "TW-RES-SPARK-1")
    _discard(state, seat, tile)
    state["pending"].append({"kind": "steal", "player": seat, "from": target})
    events.append(
        event(
            "play_tile",
            t(
                "{player} casts Red Sparks at {target}.",
                player=state["players"][seat],
                target=state["players"][target],
            ),
            tile=tile,
        )
    )


def _summon_hedge(data, state, seat, tile, action, events) -> None:
    """TW-RES-HEDGE-1..3, TW-AMB-19: to an open, unoccupied Path space."""
    space = action.get("space")
    if declared.on(state):
        if space not in ("path", "hedge_home"):
            raise Refuse(
                "TW-RES-HEDGE-3",
                t('The Wandering Hedge goes to an open Path space (declared: "path").'),
            )
    elif (
        space not in open_spaces(data)
        or occupant(state, space) is not None
        or space == state["hedge"]
    ):
        raise Refuse(
            "TW-RES-HEDGE-2",
            t(
                "The Wandering Hedge goes to an open Path space: free, no symbol, no Dark Hedge beside it."
            ),
        )
    _discard(state, seat, tile)
    state["hedge"] = space
    events.append(
        event(
            "play_tile",
            t(
                "{player} summons the Wandering Hedge to {space}.",
                player=state["players"][seat],
                space=space,
            ),
            tile=tile,
        )
    )


def _veritaserum(data, state, seat, tile, action, events) -> None:
    """TW-RES-VERI-1/2, TW-AMB-21: the target's tiles are shown; the caster takes one."""
    target = _other_with_tiles(state, seat, action, "TW-RES-VERI-1")
    _discard(state, seat, tile)
    state["interrupts"].append({"kind": "veritaserum", "player": seat, "target": target})
    events.append(
        event(
            "play_tile",
            t(
                "{player} gives Veritaserum to {target}.",
                player=state["players"][seat],
                target=state["players"][target],
            ),
            tile=tile,
        )
    )


EFFECTS = {
    "dumbledore": _dumbledore,
    "four_point": _four_point,
    "cloak": _cloak,
    "red_sparks": _red_sparks,
    "summon_hedge": _summon_hedge,
    "veritaserum": _veritaserum,
}


def _current(state: State, kind: str, action: dict | None, rule: str) -> dict[str, Any]:
    current = interrupt(state)
    if current is None or current["kind"] != kind:
        from .prompts import prompt

        raise Refuse(rule, t("That is not awaited now: {prompt}", prompt=prompt({}, state)))
    if action is not None:
        seat = seat_of(state, player_of(action))
        if seat != current["player"]:
            raise Refuse(
                rule, t("{player} answers now.", player=state["players"][current["player"]])
            )
    return current


def punish(data: dict[str, Any], state: State, events: list) -> None:
    """TW-CLOAK-8, TW-PEN-1, TW-AMB-5: Cloak aside, the piece to the nearest empty Penalty
    Space (the Dumbledore player picks among equals; none empty: the nearest, then the nearest
    free Path space)."""
    current = state["interrupts"].pop()
    target = current["player"]
    put_on(state, None)
    if declared.on(state):
        state["pieces"][target] = "penalty"
        events.append(
            event(
                "dumbledore",
                t(
                    "Albus Dumbledore takes the Cloak off {player}'s piece.",
                    player=state["players"][target],
                ),
            )
        )
        return
    here = state["pieces"][target]
    penalties = data["board"]["penalties"]
    empty = [p for p in penalties if occupant(state, p, besides=target) is None]
    events.append(
        event(
            "dumbledore",
            t(
                "Albus Dumbledore takes the Cloak off {player}'s piece.",
                player=state["players"][target],
            ),
        )
    )
    from .spaces import jump_to

    if empty:
        options = nearest(data, here, empty)
        if len(options) == 1:
            state["pieces"][target] = options[0]
        else:
            state["interrupts"].append(
                {
                    "kind": "choose",
                    "player": current["by"],
                    "seat": target,
                    "options": options,
                    "then": "resume",
                }
            )
        return
    jump_to(
        data, state, target, nearest(data, here, penalties)[0], state["active"], "resume", events
    )


def decline(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    """No Double Die after a short roll (TW-BATTLE-5), or let Albus Dumbledore stand."""
    current = interrupt(state)
    if current is not None and current["kind"] == "dumbledore":
        _current(state, "dumbledore", action, "TW-RES-DUMB-2")
        punish(data, state, events)
        return
    from .turns import own_turn

    own_turn(state, action)
    if state["interrupts"] or state["phase"] != "battle_short":
        raise Refuse("TW-BATTLE-5", t("There is nothing to decline now."))
    from .battles import lose

    lose(state, events)


def close_window(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    """The table's countdown ends the counter window: Albus Dumbledore stands."""
    _current(state, "dumbledore", None, "TW-RES-DUMB-2")
    punish(data, state, events)


def counter(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    """TW-RES-DUMB-2: the target's own Dumbledore cancels it; both are discarded."""
    current = _current(state, "dumbledore", action, "TW-RES-DUMB-2")
    seat = current["player"]
    tile = action.get("tile")
    if tile not in state["tiles"][seat] or data["tiles"][tile]["kind"] != "dumbledore":
        raise Refuse("TW-RES-DUMB-2", t("Only an Albus Dumbledore tile of your own cancels it."))
    _discard(state, seat, tile)
    state["interrupts"].pop()
    events.append(
        event(
            "counter",
            t("{player} cancels Albus Dumbledore with another.", player=state["players"][seat]),
            tile=tile,
        )
    )


def take(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    """TW-RES-VERI-1: the caster takes one of the shown tiles."""
    current = _current(state, "veritaserum", action, "TW-RES-VERI-1")
    tile = action.get("tile")
    target = current["target"]
    if tile not in state["tiles"][target]:
        raise Refuse(
            "TW-RES-VERI-1", t("Take one of {player}'s tiles.", player=state["players"][target])
        )
    state["interrupts"].pop()
    state["tiles"][target].remove(tile)
    gain_tile(state, current["player"], tile)
    events.append(
        event(
            "take",
            t(
                "{player} takes a tile from {other}.",
                player=state["players"][current["player"]],
                other=state["players"][target],
            ),
            private={"tile": tile},
            audience=[state["players"][current["player"]], state["players"][target]],
        )
    )


def discard_tile(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    """TW-RES-2, TW-AMB-28: down to 6 tiles."""
    current = _current(state, "overflow", action, "TW-RES-2")
    seat = current["player"]
    tile = action.get("tile")
    if tile not in state["tiles"][seat]:
        raise Refuse("TW-RES-2", t("That Resource Tile is not in your hand."))
    _discard(state, seat, tile)
    if len(state["tiles"][seat]) <= TILE_LIMIT:
        state["interrupts"].pop()
    events.append(
        event(
            "discard_tile", t("{player} discards a Resource Tile.", player=state["players"][seat])
        )
    )


def choose(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    """TW-AMB-5/6/32/34: a space among the nearest ones offered."""
    current = _current(state, "choose", action, "TW-AMB-6")
    space = action.get("space")
    if space not in current["options"]:
        raise Refuse(
            "TW-AMB-6",
            t(
                "Choose one of the nearest free spaces: {spaces}.",
                spaces=", ".join(current["options"]),
            ),
        )
    state["interrupts"].pop()
    state["pieces"][current["seat"]] = space
    events.append(
        event(
            "choose",
            t(
                "{player} puts the piece on {space}.",
                player=state["players"][current["player"]],
                space=space,
            ),
        )
    )
    from .spaces import after

    after(state, current["then"], events)
