"""Setting up (TW-SETUP-1..10): the state before anything happened, the table's confirmation
that pieces, Cup Tiles and the Wandering Hedge are placed, the deal, the first player (who
shouted first, or a tie roll, TW-AMB-25), and an arranged start (the ``scenario`` option)."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.rules.api import MALFORMED, SetupError, State
from companion.rules.common import Refuse, event, player_of, seat_of

from .numbers import GAME_ID, HAND, LINEUP, SLOTS, START_TILES
from .state import face_value, fresh_turn, fulfilled


def new_state(
    datasets: dict[str, dict[str, Any]], names: list[str], options: dict[str, Any], seed: int
) -> State:
    """TW-SETUP-1..5: every piece on the Entrance, the Cloak beside the board, the Cup Tiles face
    down, the Wandering Hedge on its home; every card and tile in its draw pile."""
    data = datasets[options["data_set"]]
    board = data["board"]
    declared = options.get("maze") == "declared"
    entrance = "entrance" if declared else board["entrance"]
    state: State = {
        "game": GAME_ID,
        "data_set": data["name"],
        "data_fingerprint": data["fingerprint"],
        "options": options,
        "seed": seed,
        "chance_n": 0,
        "players": list(names),
        "turn": 0,
        "phase": "setup",
        "active": None,
        "first": None,
        "pieces": [entrance] * len(names),
        "cloak": None,
        "hedge": "hedge_home" if declared else board["hedge_home"],
        "cups": {slot: None for slot in SLOTS},
        "peeks": [],
        "hands": [[] for _name in names],
        "tiles": [[] for _name in names],
        "battle_pile": {"deck": sorted(data["battle"]), "discard": []},
        "tile_pile": {"deck": sorted(data["tiles"]), "discard": []},
        "obstacle_pile": {
            "deck": sorted(data["obstacles"]),
            "discard": [],
            "lineup": [{"card": None, "up": False} for _position in range(LINEUP)],
        },
        "pending": [],
        "interrupts": [],
        "turn_state": fresh_turn(entrance),
        "fight": None,
        "uncleared": [],
        "tie": None,
        "winner": None,
    }
    if options.get("scenario"):
        from .scenario import arrange

        try:
            arrange(data, state, options["scenario"])
        except (TypeError, ValueError, AttributeError, KeyError) as error:
            raise SetupError(
                t("scenario: not an arranged start ({problem})", problem=str(error))
            ) from None
    return state


def placed(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    """TW-SETUP-1..5, TW-AMB-31: the table confirms the set-up (no Cup Tile is scanned); the deal
    follows: 4 Battle Cards and 2 Resource Tiles for each player clockwise, then the Lineup."""
    who = player_of(action)
    seat_of(state, who)
    if state["phase"] != "setup":
        raise Refuse("TW-SETUP-2", t("The pieces are already placed."))
    n = len(state["players"])
    pending = [{"kind": "card", "why": "deal", "player": s} for s in range(n) for _c in range(HAND)]
    pending += [
        {"kind": "tile", "why": "deal", "player": s} for s in range(n) for _c in range(START_TILES)
    ]
    pending += [{"kind": "obstacle"} for _position in range(LINEUP)]
    state["pending"] = pending
    state["phase"] = "deal"
    events.append(event("placed", t("The maze is set: deal the cards and tiles.")))


def first(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    """TW-SETUP-10, TW-AMB-25: the player who shouted a spell first starts."""
    who = player_of(action)
    seat = seat_of(state, who)
    if state["phase"] != "first_player" or state["tie"] is not None:
        raise Refuse("TW-SETUP-10", t("The first player is not being chosen now."))
    events.append(event("first", t("{player} shouted first and starts.", player=who), player=who))
    begin(state, seat)


def tie(data: dict[str, Any], state: State, action: dict, events: list) -> None:
    """TW-SETUP-10, TW-AMB-25: players who shouted together roll; the highest starts."""
    names = action.get("players")
    if not isinstance(names, list) or len(names) < 2 or len(set(map(str, names))) != len(names):
        raise Refuse(MALFORMED, t("A tie names two or more different players."))
    seats = [seat_of(state, name) for name in names]
    if state["phase"] != "first_player" or state["tie"] is not None:
        raise Refuse("TW-SETUP-10", t("The first player is not being chosen now."))
    state["tie"] = {"rolling": seats, "rolls": {}}
    state["pending"] = [{"kind": "die", "why": "tie", "player": s} for s in seats]
    events.append(event("tie", t("A tie: the players who shouted together roll the die.")))


def tie_roll(state: State, seat: int, face: Any, events: list) -> None:
    """One roll of the tie (the Cloak counts 0); the highest starts, ties roll again."""
    fulfilled(state)
    tie_state = state["tie"]
    tie_state["rolls"][str(seat)] = face_value(face)
    if state["pending"]:
        return
    best = max(tie_state["rolls"].values())
    top = [s for s in tie_state["rolling"] if tie_state["rolls"][str(s)] == best]
    if len(top) == 1:
        state["tie"] = None
        who = state["players"][top[0]]
        events.append(event("first", t("{player} wins the roll and starts.", player=who)))
        begin(state, top[0])
        return
    state["tie"] = {"rolling": top, "rolls": {}}
    state["pending"] = [{"kind": "die", "why": "tie", "player": s} for s in top]
    events.append(event("tie", t("Still a tie: those players roll again.")))


def begin(state: State, seat: int) -> None:
    from .turns import start_turn

    state["first"] = seat
    start_turn(state, seat)


def check_scenario(value: Any) -> None:
    if not isinstance(value, dict):
        raise SetupError(t("option 'scenario' must be an object"))
