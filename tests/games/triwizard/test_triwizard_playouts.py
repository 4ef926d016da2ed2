"""Seeded random legal play on both bundled data sets: every action ``legal_actions`` offers (and
every sampled chance step) is accepted, and no card, tile or obstacle is ever lost or doubled."""

from __future__ import annotations

import random

import pytest
from tw_support import GAME, NAMES, counts

from companion.rules import EVERYTHING, HOST, TABLE, Accepted


def playout(data_set: str, seed: int, maze: str = "grid", steps: int = 400):
    rng = random.Random(f"{data_set}/{maze}/{seed}")
    players = NAMES[: 2 + seed % 3]
    s = GAME.new(players, {"data_set": data_set, "maze": maze}, seed=seed)
    phases = set()
    for _ in range(steps):
        phases.add(s["phase"])
        if GAME.outcome(s).finished:
            break
        offered = list(GAME.legal_actions(s))
        if GAME.chance(s) is not None:
            offered.append(GAME.sample(s))
        assert offered, (seed, s["phase"], "nothing to do")
        action = rng.choice(offered)
        result = GAME.apply(s, action)
        assert isinstance(result, Accepted), (data_set, seed, s["phase"], action, result)
        s = result.state
        if s["phase"] not in ("setup", "deal"):
            assert counts(s) == (40, 36, 20), (data_set, seed, s["phase"], action)
        for viewer in (EVERYTHING, TABLE, HOST, *players):
            GAME.view(s, viewer)
    return phases


@pytest.mark.parametrize(
    "data_set, maze", [("example", "grid"), ("corridor-k", "grid"), ("corridor-k", "declared")]
)
def test_random_legal_play_is_always_accepted_and_keeps_the_counts(data_set, maze):
    """TW-COMP-4, TW-COMP-6, TW-COMP-8, TW-BCARD-4, TW-RES-3, TW-OCARD-4: 40 Battle Cards,
    36 Resource Tiles and 20 Obstacle Cards in hands, piles, Lineup and fight at every step of
    seeded random games (also with the declared maze); no offered action is refused."""
    met = set()
    for seed in range(12):
        met |= playout(data_set, seed, maze)
    assert {"open", "moving", "post"} <= met, met
