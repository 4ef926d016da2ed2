"""Shared helpers for the Abracada...What? rules tests (not a test module).

The helpers build states, play actions and check refusals through the public API only; a state
is a plain JSON dict, so ``arrange`` writes one directly for the situations a scenario needs and
checks the 36-stone accounting (spec section 1.2) before handing it over.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any

from companion.games import get_game
from companion.rules import Accepted, Refusal

GAME = get_game("abracadawhat")
NAMES = ["Ann", "Ben", "Cid", "Dee", "Eve"]
FULL_SET = Counter({n: n for n in range(1, 9)})  # ABR-COMP-1
RACK = 5
SECRET = 4
REMOVED = {2: 12, 3: 6, 4: 0, 5: 0}  # ABR-SETUP-7
RESERVE_AT_START = {2: 10, 3: 11, 4: 12, 5: 7}  # spec section 1.2


def names(n: int) -> list[str]:
    return NAMES[:n]


# -- actions -------------------------------------------------------------------------------------


def cast(player: str, spell: Any) -> dict:
    return {"type": "cast", "player": player, "spell": spell}


def roll(value: Any, player: str | None = None) -> dict:
    action = {"type": "roll", "value": value}
    if player is not None:
        action["player"] = player
    return action


def end_turn(player: str) -> dict:
    return {"type": "end_turn", "player": player}


def refill(player: str, *stones: int) -> dict:
    return {"type": "refill", "player": player, "stones": list(stones)}


def remove(stone: int, player: str | None = None, tag: str | None = None) -> dict:
    action: dict[str, Any] = {"type": "remove", "stone": stone}
    if player is not None:
        action["player"] = player
    if tag is not None:
        action["tag"] = tag
    return action


def take_secret(player: str, slot: int) -> dict:
    return {"type": "take_secret", "player": player, "slot": slot}


def decline_secret(player: str) -> dict:
    return {"type": "decline_secret", "player": player}


# -- applying ------------------------------------------------------------------------------------


def step(state: dict, action: dict) -> Accepted:
    """Apply one action that must be accepted; the input state must come back untouched."""
    before = copy.deepcopy(state)
    result = GAME.apply(state, action)
    assert state == before, f"apply mutated its input state on {action}"
    assert isinstance(result, Accepted), f"{action} was refused: {result}"
    return result


def play(state: dict, *actions: dict) -> dict:
    """Apply actions that must all be accepted; return the final state."""
    for action in actions:
        state = step(state, action).state
    return state


def refused(state: dict, action: dict, rule: str) -> Refusal:
    """Assert that ``action`` is refused under ``rule`` and that the state is left unchanged."""
    before = copy.deepcopy(state)
    result = GAME.apply(state, action)
    assert isinstance(result, Refusal), f"{action} was accepted, expected a refusal under {rule}"
    assert result.rule == rule, (
        f"{action} refused under {result.rule} ({result.reason}), not {rule}"
    )
    assert isinstance(result.reason, str) and result.reason.strip(), "a refusal needs a reason"
    assert state == before, "a refused action changed the state"
    return result


def events(result: Accepted, kind: str | None = None) -> list[dict]:
    return [e for e in result.events if kind is None or e["type"] == kind]


def kinds(result: Accepted) -> list[str]:
    return [e["type"] for e in result.events]


# -- reading a state -----------------------------------------------------------------------------


def seat(state: dict, player: str) -> int:
    return state["players"].index(player)


def life(state: dict) -> dict[str, int]:
    return dict(zip(state["players"], state["life"]))


def scores(state: dict) -> dict[str, int]:
    return dict(zip(state["players"], state["score"]))


def rack(state: dict, player: str) -> list[int]:
    return state["racks"][seat(state, player)]


def active(state: dict) -> str:
    return state["players"][state["active"]]


def census(state: dict) -> Counter:
    """Every stone wherever it is: racks, reserve, secret (on the board or acquired), board."""
    count: Counter = Counter()
    for stones in state["racks"]:
        count.update(stones)
    count.update(state["reserve"])
    count.update(x for x in state["secret"] if x is not None)
    for stones in state["acquired"]:
        count.update(stones)
    for n in range(1, 9):
        count[n] += state["cast"][n - 1] + state["removed"][n - 1]
    return +count


def assert_stone_invariant(state: dict) -> None:
    """Spec 1.2: rack + reserve + secret + board = 36, with exactly n stones of spell n."""
    assert census(state) == FULL_SET, f"stone accounting broken: {census(state)}"
    assert sum(census(state).values()) == 36


def json_roundtrip(state: dict) -> dict:
    return json.loads(json.dumps(state))


# -- building states -----------------------------------------------------------------------------


def deal_action(racks: dict[str, list[int]], secret: list[int], removed: list[int]) -> dict:
    return {
        "type": "deal",
        "racks": {p: list(r) for p, r in racks.items()},
        "secret": list(secret),
        "removed": list(removed),
    }


def standard_deal(players: list[str], seed: int = 0) -> dict:
    """A complete, valid deal action for these players (a shuffle from ``seed``)."""
    pool = list(FULL_SET.elements())
    random.Random(seed).shuffle(pool)
    racks = {}
    for p in players:
        racks[p], pool = pool[:RACK], pool[RACK:]
    k = REMOVED[len(players)]
    return deal_action(racks, pool[k : k + SECRET], pool[:k])


def new_round(players: list[str], options: dict | None = None, seed: int = 0) -> dict:
    """A new game, dealt, with the first player to act."""
    return play(GAME.new(players, options, seed), standard_deal(players, seed))


def _take(pool: Counter, stones: list[int], what: str) -> None:
    need = Counter(stones)
    short = {n: k for n, k in need.items() if pool[n] < k}
    assert not short, f"arrange: not enough stones left for {what}: {short}"
    pool.subtract(need)


def _pick(pool: Counter, k: int) -> list[int]:
    """``k`` stones from the pool, highest numbers first (low spells stay where tests put them)."""
    picked = []
    for n in range(8, 0, -1):
        while pool[n] > 0 and len(picked) < k:
            picked.append(n)
            pool[n] -= 1
    assert len(picked) == k, "arrange: the pool ran out of stones"
    return picked


def arrange(
    racks: dict[str, list[int]],
    *,
    life: dict[str, int] | None = None,
    active: str | None = None,
    secret: list[int | None] | None = None,
    acquired: dict[str, list[int]] | None = None,
    removed: list[int] | None = None,
    reserve: int | list[int] | None = None,
    score: dict[str, int] | None = None,
    options: dict | None = None,
) -> dict:
    """A state in phase ``declare`` in the middle of a round, built from the given pieces.

    ``racks`` maps the players, in clockwise seat order, to their racks. Stones not placed
    anywhere go to the reserve; ``reserve`` may instead give its exact stones or only its size,
    in which case the remaining stones are on the board as cast earlier this round.
    Unspecified removed (2/3 players) and secret stones are picked from the remaining stones.
    """
    players = list(racks)
    n = len(players)
    state = GAME.new(players, options)
    acquired = acquired or {}
    pool = Counter(FULL_SET)
    for p in players:
        _take(pool, racks[p], f"{p}'s rack")
        _take(pool, acquired.get(p, []), f"{p}'s secret stones")
    # explicit pieces first, then the defaults from what is left
    if secret is not None:
        _take(pool, [x for x in secret if x is not None], "the secret stones")
    if removed is not None:
        _take(pool, removed, "the removed stones")
    if isinstance(reserve, list):
        _take(pool, reserve, "the reserve")
    if secret is None:
        taken = sum(len(v) for v in acquired.values())
        secret = [None] * taken + _pick(pool, SECRET - taken)
    if removed is None:
        removed = _pick(pool, REMOVED[n])
    if isinstance(reserve, int):
        reserve = _pick(pool, reserve)
    elif reserve is None:
        reserve = _pick(pool, sum(pool.values()))
    cast_earlier = list((+pool).elements())
    start = state["options"]["start_life"]
    state.update(
        {
            "racks": [sorted(racks[p]) for p in players],
            "reserve": sorted(reserve),
            "secret": list(secret),
            "acquired": [list(acquired.get(p, [])) for p in players],
            "removed": [removed.count(k) for k in range(1, 9)],
            "cast": [cast_earlier.count(k) for k in range(1, 9)],
            "life": [(life or {}).get(p, start) for p in players],
            "score": [(score or {}).get(p, 0) for p in players],
            "phase": "declare",
            "active": players.index(active) if active else 0,
            "starter": players.index(active) if active else 0,
            "chance_n": 1,
        }
    )
    assert_stone_invariant(state)
    return state


def seated(n: int, racks: dict[str, list[int]] | None = None, **kw: Any) -> dict:
    """``arrange`` for the first ``n`` names; a player without a given rack gets the highest
    stones still free (after the explicitly placed secret, acquired, removed and reserve stones)."""
    racks = dict(racks or {})
    assert set(racks) <= set(names(n)), f"seated() seats {names(n)}; use arrange() for others"
    pool = Counter(FULL_SET)
    for stones in racks.values():
        _take(pool, stones, "the given racks")
    for stones in (kw.get("acquired") or {}).values():
        _take(pool, stones, "the acquired stones")
    for key in ("secret", "removed", "reserve"):
        if isinstance(kw.get(key), list):
            _take(pool, [x for x in kw[key] if x is not None], f"the {key} stones")
    full = {p: racks[p] if p in racks else _pick(pool, RACK) for p in names(n)}
    return arrange(full, **kw)


def tap_deal(
    state: dict, racks: dict[str, list[int]], removed: list[int], secret: list[int]
) -> dict:
    """Deal stone by stone with tags: ``<player>#<i>`` for rack stones, ``R<i>`` for the removed
    stones and ``S<i>`` for the secret stones; ``racks`` starts with the round's first player."""
    for p, stones in racks.items():
        for i, stone in enumerate(stones):
            state = play(state, {"type": "deal_stone", "stone": stone, "tag": f"{p}#{i}"})
    for i, stone in enumerate(removed):
        state = play(state, {"type": "deal_stone", "stone": stone, "tag": f"R{i}"})
    for i, stone in enumerate(secret):
        state = play(state, {"type": "deal_stone", "stone": stone, "tag": f"S{i}"})
    return state


# -- random games --------------------------------------------------------------------------------


def choose(state: dict, rng: random.Random) -> dict:
    """The next action of a random legal game: chance from the state's seed, else a random legal
    action; most declarations peek at the rack for a spell that will work, so that rounds also
    end by stones-out and Night Singers get cast (a test driver may look; players may not)."""
    if GAME.chance(state) is not None:
        return GAME.sample(state)
    legal = GAME.legal_actions(state)
    if state["phase"] == "declare" and rng.random() < 0.6:
        held = state["racks"][state["active"]]
        good = [
            a
            for a in legal
            if a["type"] == "cast"
            and a["spell"] in held
            and a["spell"] >= (state["last_cast"] or 1)
        ]
        if good:
            return rng.choice(good)
    return rng.choice(legal)


def playout(n: int, options: dict | None = None, seed: int = 0, max_steps: int = 20_000):
    """Every (state, action, result) of one random legal game, until it is over."""
    rng = random.Random(f"choices/{seed}")
    state = GAME.new(names(n), options, seed)
    trail = []
    for _ in range(max_steps):
        if state["phase"] == "over":
            return trail
        action = choose(state, rng)
        result = GAME.apply(state, action)
        assert isinstance(result, Accepted), f"legal action {action} was refused: {result}"
        trail.append((state, action, result))
        state = result.state
    raise AssertionError(f"the game did not end within {max_steps} steps")
