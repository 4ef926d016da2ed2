"""Helpers for the Triwizard black-box tests: arranged positions on Corridor K, accepted and
refused actions, and a few facts read from the data set.

Every test plays through the ``Game`` API only (``new``, ``apply``, ``view``, ``legal_actions``,
``chance``, ``sample``). ``arrange`` starts a turn from an arranged position (the option
``scenario``, as the replay files do) on the Corridor K data set, the board of the spec's
section 5: K0..K20 in a line (K0 Entrance, K5 Obstacle, K8 Gold Mist, K10/K18 Portkey pair,
K12 Penalty, K15 Headstone 2) and the Cup Tile Spaces C1..C4 beside K20. Cards are found by
their attributes (``card``, ``tile_of``), so the tests do not depend on padding ids.
"""

from __future__ import annotations

import json
from collections import deque
from typing import Any

import pytest

from companion.games.triwizard.rules import Triwizard
from companion.rules import EVERYTHING, HOST, TABLE, Accepted, Refusal

GAME = Triwizard()
K = "corridor-k"
DATA = GAME.datasets[K]
BOARD = DATA["board"]
NAMES = ["Ann", "Bob", "Cid", "Dee"]
ANN, BOB, CID, DEE = NAMES
VIEWERS = (TABLE, HOST)

# the spec's section-5 cards, by the readable ids the Corridor K set gives them
RED_5_3, BLUE_2_4, GREEN_4_2, GREEN_1_5, BLUE_5_3 = (
    "red-5-3",
    "blue-2-4",
    "green-4-2",
    "green-1-5",
    "blue-5-3",
)
O_RED_ORANGE_8_2, O_BLUE_9_1, O_ORANGE_6_1 = "o-red-orange-8-2", "o-blue-9-1", "o-orange-6-1"


# -- the data set -----------------------------------------------------------------------------


def tiles_of(kind: str) -> list[str]:
    """The ids of every Resource Tile of a kind, sorted."""
    return sorted(t for t, tile in DATA["tiles"].items() if tile["kind"] == kind)


def tile_of(kind: str, n: int = 0) -> str:
    return tiles_of(kind)[n]


def battle_cards(colour: str | None = None, exclude: tuple[str, ...] = ()) -> list[str]:
    return sorted(
        c
        for c, card in DATA["battle"].items()
        if (colour is None or card["colour"] == colour) and c not in exclude
    )


def obstacles(exclude: tuple[str, ...] = ()) -> list[str]:
    return sorted(o for o in DATA["obstacles"] if o not in exclude)


def is_path(space: str) -> bool:
    return space in BOARD["spaces"] and BOARD["spaces"][space]["kind"] == "path"


def route(start: str, goal: str, avoid: tuple[str, ...] = ()) -> list[str]:
    """The shortest Path route from ``start`` to ``goal`` (without ``start``), over Path
    spaces only, never through ``avoid`` nor the Wandering Hedge's home."""
    blocked = {*avoid, BOARD["hedge_home"]} - {goal}
    seen = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            break
        for nxt in BOARD["neighbours"][here]:
            if nxt not in seen and is_path(nxt) and nxt not in blocked:
                seen[nxt] = here
                queue.append(nxt)
    assert goal in seen, f"no Path route from {start} to {goal} on Corridor K"
    path = [goal]
    while seen[path[-1]] != start:
        path.append(seen[path[-1]])
    return path[::-1]


def line(a: int, b: int) -> list[str]:
    """The corridor spaces after Ka up to Kb (either direction), e.g. line(3, 5) = [K4, K5]."""
    step = 1 if b > a else -1
    return [f"K{i}" for i in range(a + step, b + step, step)]


def cup_slot(n: int | str) -> str:
    return BOARD["cup_slots"][str(n)]


def headstone(n: int | str) -> str:
    return BOARD["headstones"][str(n)]


# -- arranged positions -----------------------------------------------------------------------

FILLER_HANDS = {
    ANN: [RED_5_3, BLUE_2_4, GREEN_4_2, GREEN_1_5],
}


def default_lineup(*first: str) -> list[str]:
    """Four face-up Lineup cards: ``first`` then others of the set, in L1..L4 order (the
    scenario's form: ids face up, ``None`` for an empty, face-down position)."""
    cards = list(first) + [o for o in obstacles(first) if o not in first]
    return cards[:4]


def arrange(
    n: int = 2,
    *,
    pieces: dict[str, str] | None = None,
    hands: dict[str, list[str]] | None = None,
    tiles: dict[str, list[str]] | None = None,
    lineup: list[str | None] | None = None,
    cloak: str | None = None,
    hedge: str | None = None,
    cups: dict[str, str] | None = None,
    active: str = ANN,
    uncleared: list[str] | None = None,
    options: dict[str, Any] | None = None,
    seed: int = 7,
) -> dict[str, Any]:
    """A game on Corridor K whose turn for ``active`` starts now (before the refill)."""
    players = NAMES[:n]
    hands = dict(hands or {})
    used = {c for cards in hands.values() for c in cards}
    spare = [c for c in battle_cards() if c not in used and c not in FILLER_HANDS[ANN]]
    for name in players:
        if name not in hands:
            hands[name], spare = spare[:4], spare[4:]
    scenario: dict[str, Any] = {
        "pieces": {name: (pieces or {}).get(name, BOARD["entrance"]) for name in players},
        "hands": hands,
        "tiles": {name: list((tiles or {}).get(name, [])) for name in players},
        "lineup": lineup or default_lineup(),
        "cloak": cloak,
        "active": active,
        "uncleared": list(uncleared or []),
    }
    if hedge is not None:
        scenario["hedge"] = hedge
    if cups:
        scenario["cups"] = dict(cups)
    return GAME.new(players, {"data_set": K, "scenario": scenario, **(options or {})}, seed=seed)


# -- acting -----------------------------------------------------------------------------------


def act(state: dict[str, Any], **action: Any) -> dict[str, Any]:
    """Apply an action that must be accepted; returns the new state."""
    before = json.dumps(state, sort_keys=True)
    result = GAME.apply(state, action)
    assert isinstance(result, Accepted), f"{action} refused: {result}"
    assert json.dumps(state, sort_keys=True) == before, "apply changed its input state"
    return result.state


def refused(state: dict[str, Any], rule: str | tuple[str, ...] | None, **action: Any) -> Refusal:
    """Apply an action that must be refused by ``rule`` (or one of several; ``None``: any rule
    of the spec); nothing changes."""
    before = json.dumps(state, sort_keys=True)
    result = GAME.apply(state, action)
    assert isinstance(result, Refusal), f"{action} was accepted"
    rules = (rule,) if isinstance(rule, str) else rule
    if rules is None:
        assert result.rule.startswith("TW-") and result.reason, result
    else:
        assert result.rule in rules, f"{action}: {result.rule} ({result.reason}), expected {rules}"
    assert json.dumps(state, sort_keys=True) == before
    return result


def view(state: dict[str, Any], viewer: str = EVERYTHING) -> dict[str, Any]:
    return GAME.view(state, viewer)


def phase(state: dict[str, Any]) -> str:
    return view(state)["phase"]


def where(state: dict[str, Any], name: str) -> str:
    return view(state)["players"][name]["space"]


def hand(state: dict[str, Any], name: str) -> list[str]:
    return [c["card"] for c in view(state)["players"][name]["hand"]]


def tile_count(state: dict[str, Any], name: str) -> int:
    return view(state)["players"][name]["tile_count"]


def lineup(state: dict[str, Any]) -> list[tuple[str | None, bool]]:
    return [(e["card"], e["face_up"]) for e in view(state)["lineup"]]


def awaiting(state: dict[str, Any]) -> dict[str, Any] | None:
    return view(state)["awaiting"]


def refill(state: dict[str, Any], name: str, *cards: str) -> dict[str, Any]:
    """Resolve the turn's refill draws: the named cards first, then sampled ones."""
    for card in cards:
        state = act(state, type="draw_card", player=name, card=card)
    return sample_while(state, lambda s: phase(s) == "draw")


def sample_while(state: dict[str, Any], more, limit: int = 40) -> dict[str, Any]:
    for _ in range(limit):
        if not more(state) or GAME.chance(state) is None:
            return state
        state = act(state, **GAME.sample(state))
    raise AssertionError("chance steps did not end")


def start(state: dict[str, Any]) -> dict[str, Any]:
    """The arranged turn after its refill: the phase is ``open``."""
    state = sample_while(state, lambda s: phase(s) == "draw")
    assert phase(state) == "open", phase(state)
    return state


def roll(state: dict[str, Any], value: int | str) -> dict[str, Any]:
    return act(state, type="roll", value=value)


def move(state: dict[str, Any], name: str, path: list[str], **more: Any) -> dict[str, Any]:
    return act(state, type="move", player=name, path=path, **more)


def draw_tiles(state: dict[str, Any], name: str, n: int) -> dict[str, Any]:
    """Resolve ``n`` pending tile draws for ``name`` with tiles chosen from the deck."""
    for _ in range(n):
        assert awaiting(state) is not None and awaiting(state)["player"] == name, awaiting(state)
        chosen = GAME.sample(state)
        assert chosen["type"] == "draw_tile", chosen
        state = act(state, **chosen)
    return state


def walk(state: dict[str, Any], name: str, goal: str, value: int | None = None) -> dict[str, Any]:
    """From ``open``: roll enough (or ``value``) and move the piece along the route to ``goal``."""
    path = route(where(state, name), goal)
    state = roll(state, value if value is not None else max(1, (len(path) + 1) // 2))
    return move(state, name, path)


def finish_turn(state: dict[str, Any], name: str) -> dict[str, Any]:
    """End the turn from ``post`` and resolve the next player's refill."""
    state = act(state, type="end_turn", player=name)
    return sample_while(state, lambda s: phase(s) == "draw")


def counts(state: dict[str, Any]) -> tuple[int, int, int]:
    """Battle Cards, Resource Tiles and Obstacle Cards in hands, piles, lineup and fight."""
    cards = [c for h in state["hands"] for c in h]
    cards += [c for pile in state["battle_pile"].values() for c in pile]
    fight = state.get("fight")
    if fight and fight.get("card") and fight["card"] not in cards:
        cards.append(fight["card"])  # laid face up, not yet discarded
    battle = len(cards)
    tiles = sum(len(t) for t in state["tiles"]) + sum(map(len, state["tile_pile"].values()))
    pile = state["obstacle_pile"]
    obst = len(pile["deck"]) + len(pile["discard"])
    obst += sum(1 for e in pile["lineup"] if e["card"] is not None)
    return battle, tiles, obst


@pytest.fixture
def registered():
    """The game registered for ``companion replay`` while a test runs (it is not in GAME_IDS
    until the lead adds it; then this does nothing)."""
    from companion.games import ids, register, unregister

    if GAME.id in ids():
        yield
        return
    register(GAME)
    try:
        yield
    finally:
        unregister(GAME.id)
