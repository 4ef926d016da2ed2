"""A hand-built loaded data set for the rules core's own tests: a corridor like the spec's
section-5 board "Corridor K" (K0..K20 in a line; Cup Tile Spaces C1..C4 beside K20), with the
other features off the corridor, a Green Hedge cell G below K9 with P beyond it, and a 3 by 3
block of Path (M161..M183) below K16..K18."""

from __future__ import annotations

from typing import Any

from companion.games.triwizard.rules import Triwizard
from companion.rules.api import Accepted

COLOURS = ("red", "blue", "orange", "green")
KINDS = (
    "dumbledore",
    "double_die",
    "four_point",
    "cloak",
    "red_sparks",
    "reductor",
    "summon_hedge",
    "veritaserum",
)


def _cells() -> list[dict[str, Any]]:
    cells = []
    features = {0: "entrance", 5: "obstacle", 8: "gold_mist", 12: "penalty"}
    for x in range(21):
        cell = {"id": f"K{x}", "x": x, "y": 0, "kind": "path", "feature": features.get(x)}
        if x in (10, 18):
            cell.update(feature="portkey", pair="A")
        if x == 15:
            cell.update(feature="headstone", number=2)
        cells.append(cell)
    for number, (x, y) in enumerate(((21, 0), (22, 0), (21, 1), (22, 1)), start=1):
        cells.append(
            {
                "id": f"C{number}",
                "x": x,
                "y": y,
                "kind": "path",
                "feature": "cup_slot",
                "number": number,
            }
        )
    cells += [
        {"id": "H1", "x": 0, "y": 1, "kind": "path", "feature": "headstone", "number": 1},
        {"id": "H3", "x": 1, "y": 1, "kind": "path", "feature": "headstone", "number": 3},
        {"id": "HH", "x": 2, "y": 1, "kind": "path", "feature": "hedge_home"},
        {"id": "PB1", "x": 3, "y": 1, "kind": "path", "feature": "portkey", "pair": "B"},
        {"id": "PC1", "x": 4, "y": 1, "kind": "path", "feature": "portkey", "pair": "C"},
        {"id": "PB2", "x": 6, "y": 1, "kind": "path", "feature": "portkey", "pair": "B"},
        {"id": "PC2", "x": 7, "y": 1, "kind": "path", "feature": "portkey", "pair": "C"},
        {"id": "O2", "x": 13, "y": 1, "kind": "path", "feature": "obstacle"},
        {"id": "Q1", "x": 13, "y": 2, "kind": "path", "feature": None},
        {"id": "G", "x": 9, "y": 1, "kind": "green_hedge", "feature": None},
        {"id": "P", "x": 9, "y": 2, "kind": "path", "feature": None},
        {"id": "P2", "x": 10, "y": 2, "kind": "path", "feature": None},
        {"id": "R1", "x": 11, "y": 1, "kind": "path", "feature": None},
        {"id": "R2", "x": 11, "y": 2, "kind": "path", "feature": None},
    ]
    for x in (16, 17, 18):  # a 3 by 3 block below K16..K18: its middle spaces are open
        for y in (1, 2, 3):
            cells.append({"id": f"M{x}{y}", "x": x, "y": y, "kind": "path", "feature": None})
    return cells


def corridor() -> dict[str, Any]:
    cells = _cells()
    spaces = {}
    at = {}
    for cell in cells:
        entry = {
            "id": cell["id"],
            "x": cell["x"],
            "y": cell["y"],
            "kind": cell["kind"],
            "feature": cell["feature"],
        }
        if "pair" in cell:
            entry["pair"] = cell["pair"]
        if "number" in cell:
            entry["number"] = cell["number"]
        spaces[cell["id"]] = entry
        at[f"{cell['x']},{cell['y']}"] = cell["id"]
    neighbours = {}
    for sid, cell in spaces.items():
        near = []
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            other = at.get(f"{cell['x'] + dx},{cell['y'] + dy}")
            if other is not None:
                near.append(other)
        neighbours[sid] = near
    pairs: dict[str, list[str]] = {}
    for sid, cell in spaces.items():
        if cell["feature"] == "portkey":
            pairs.setdefault(cell["pair"], []).append(sid)
    portkeys = {}
    for a, b in pairs.values():
        portkeys[a], portkeys[b] = b, a

    def having(feature: str) -> list[str]:
        return sorted(sid for sid, cell in spaces.items() if cell["feature"] == feature)

    board = {
        "width": 23,
        "height": 3,
        "spaces": spaces,
        "at": at,
        "entrance": "K0",
        "hedge_home": "HH",
        "cup_slots": {str(n): f"C{n}" for n in range(1, 5)},
        "headstones": {"1": "H1", "2": "K15", "3": "H3"},
        "portkeys": portkeys,
        "penalties": having("penalty"),
        "obstacles": having("obstacle"),
        "gold_mist": having("gold_mist"),
        "neighbours": neighbours,
    }
    battle = {}
    named = [("red", 5, 3), ("blue", 2, 4), ("green", 4, 2), ("green", 1, 5), ("blue", 5, 3)]
    for colour, strength, movement in named:
        cid = f"{colour}-{strength}-{movement}"
        battle[cid] = {"id": cid, "colour": colour, "strength": strength, "movement": movement}
    n = 6
    while len(battle) < 40:
        cid = f"b{n:02d}"
        battle[cid] = {
            "id": cid,
            "colour": COLOURS[n % 4],
            "strength": 1 + n % 6,
            "movement": 1 + n % 5,
        }
        n += 1
    obstacles = {
        "o-red-orange-8-2": {
            "id": "o-red-orange-8-2",
            "colours": ["red", "orange"],
            "strength": 8,
            "reward": 2,
        },
        "o-blue-9-1": {"id": "o-blue-9-1", "colours": ["blue"], "strength": 9, "reward": 1},
        "o-orange-6-1": {"id": "o-orange-6-1", "colours": ["orange"], "strength": 6, "reward": 1},
    }
    n = 4
    while len(obstacles) < 20:
        oid = f"o{n:02d}"
        obstacles[oid] = {
            "id": oid,
            "colours": [COLOURS[n % 4], COLOURS[(n + 1) % 4]],
            "strength": 3 + n % 7,
            "reward": 1 + n % 2,
        }
        n += 1
    tiles = {f"r{n:02d}": {"id": f"r{n:02d}", "kind": KINDS[(n - 1) % 8]} for n in range(1, 37)}
    return {
        "name": "corridor",
        "title": "Corridor K (test)",
        "example": True,
        "source": "EXAMPLE: built by hand for the rules core's tests",
        "fingerprint": "0123456789abcdef",
        "board": board,
        "battle": battle,
        "obstacles": obstacles,
        "tiles": tiles,
        "die": {"faces": ["cloak", 1, 2, 3, 4, 5], "profile": "triwizard"},
        "names": {"it": {}},
    }


DATA = corridor()
GAME = Triwizard({"corridor": DATA})
PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def tile_of(kind: str, skip: int = 0) -> str:
    return [tid for tid, tile in sorted(DATA["tiles"].items()) if tile["kind"] == kind][skip]


def new(players=None, seed=1, **options):
    options.setdefault("data_set", "corridor")
    return GAME.new(players or PLAYERS[:2], options, seed)


def arranged(players=None, seed=1, **scenario):
    return new(players, seed, scenario=scenario)


def play(state, *actions):
    """Apply each action; every one must be accepted."""
    for action in actions:
        result = GAME.apply(state, action)
        assert isinstance(result, Accepted), (action, result)
        state = result.state
    return state


def refused(state, action):
    result = GAME.apply(state, action)
    assert not isinstance(result, Accepted), action
    return result


def refill(state):
    """Resolve pending chance steps from the seed (draws, not the movement roll)."""
    while state["pending"] and not state["interrupts"]:
        state = play(state, GAME.sample(state))
    return state
