"""Seeded random games played from ``legal_actions`` and ``sample`` to a winner: nothing that
``legal_actions`` offers is refused, every view can be built, and every game ends."""

from __future__ import annotations

import json
import random

import pytest
from core_support import GAME, PLAYERS, new

from companion.rules.api import EVERYTHING, TABLE, Accepted


def play_out(seed: int, players: int, limit: int = 40000):
    rng = random.Random(seed)
    state = new(PLAYERS[:players], seed=seed)
    steps = 0
    while not GAME.outcome(state).finished and steps < limit:
        steps += 1
        legal = GAME.legal_actions(state)
        waiting = GAME.chance(state)
        if waiting is not None and (not legal or rng.random() < 0.7):
            action = GAME.sample(state)
        else:
            assert legal, (state["phase"], state["interrupts"], state["pending"])
            action = rng.choice(legal)
        result = GAME.apply(state, action)
        assert isinstance(result, Accepted), (action, result, state["phase"])
        state = result.state
        if steps % 7 == 0:
            for viewer in (TABLE, EVERYTHING, *state["players"]):
                json.dumps(GAME.view(state, viewer))
    return state, steps


@pytest.mark.parametrize("seed", range(12))
def test_random_games_end_with_a_winner(seed):
    state, steps = play_out(seed, 2 + seed % 3)
    outcome = GAME.outcome(state)
    assert outcome.finished, (steps, state["phase"])
    assert outcome.winners == (state["players"][state["winner"]],)
    assert state["cups"] and "cup" in state["cups"].values()


@pytest.mark.parametrize("name", ["example", "corridor-k"])
def test_random_games_on_the_bundled_data_sets(name):
    from companion.games.triwizard.rules import Triwizard

    game = Triwizard()
    rng = random.Random(5)
    state = game.new(["Ann", "Ben", "Cat"], {"data_set": name}, 5)
    steps = 0
    while not game.outcome(state).finished and steps < 20000:
        steps += 1
        legal = game.legal_actions(state)
        if game.chance(state) is not None and (not legal or rng.random() < 0.7):
            action = game.sample(state)
        else:
            action = rng.choice(legal)
        result = game.apply(state, action)
        assert isinstance(result, Accepted), (action, result)
        state = result.state
    assert game.outcome(state).finished


@pytest.mark.parametrize("seed", range(4))
def test_random_games_in_a_declared_maze(seed):
    rng = random.Random(seed)
    state = new(PLAYERS[:3], seed=seed, maze="declared")
    assert state["pieces"] == ["entrance"] * 3 and state["hedge"] == "hedge_home"
    steps = 0
    while not GAME.outcome(state).finished and steps < 40000:
        steps += 1
        legal = GAME.legal_actions(state)
        if GAME.chance(state) is not None and (not legal or rng.random() < 0.7):
            action = GAME.sample(state)
        else:
            action = rng.choice(legal)
        result = GAME.apply(state, action)
        assert isinstance(result, Accepted), (action, result)
        state = result.state
        assert GAME.view(state, TABLE)["reach"] is None
    assert GAME.outcome(state).finished
