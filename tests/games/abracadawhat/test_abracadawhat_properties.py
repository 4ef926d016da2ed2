"""Abracada...What?: properties of random legal games (hypothesis)."""

from __future__ import annotations

import copy
import re

from abr_support import (
    GAME,
    assert_stone_invariant,
    json_roundtrip,
    names,
    playout,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import Accepted, Refusal

PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RULE_ID = re.compile(r"^(ABR-[A-Z]+-\d+|INPUT-\d+)$")

switches = st.fixed_dictionaries(
    {},
    optional={
        "easy": st.booleans(),
        "last_wizard_standing": st.booleans(),
        "order_violation": st.sampled_from(["auto_penalty", "require_objection"]),
        "resolve_last_effect": st.booleans(),
        "removal": st.sampled_from(["auto", "tap"]),
    },
)
life_options = st.sampled_from(
    [
        {},
        {"start_life": 3},
        {"start_life": 4, "life_cap": 4},
        {"start_life": 6, "life_cap": 8},
        {"start_life": 1, "life_cap": 2},
    ]
)
die_options = st.sampled_from(
    [{}, {"die_faces": [1, 2, 3]}, {"die_faces": [2, 2, 4, 4, 6, 6]}, {"die_faces": [0, 1, 2, 3]}]
)
options_strategy = st.builds(lambda a, b, c: {**a, **b, **c}, switches, life_options, die_options)


def probes(state: dict) -> list[dict]:
    """Actions that are mostly illegal here, to check refusals on random states."""
    players = state["players"]
    return [{"type": "cast", "player": p, "spell": s} for p in players for s in (0, 1, 8)] + [
        {"type": "end_turn", "player": players[0]},
        {"type": "roll", "value": 1},
        {"type": "take_secret", "player": players[-1], "slot": 0},
        {"type": "refill", "player": players[0], "stones": [8]},
        {"type": "remove", "stone": 8},
        {"type": "deal_stone", "stone": 1},
    ]


@PROPERTY
@given(n=st.integers(2, 5), options=options_strategy, seed=st.integers(0, 10**9))
def test_random_games_keep_every_invariant_and_end(n, options, seed):
    """ABR-COMP-1, ABR-LIFE-4, ABR-LIFE-5, ABR-GAME-1, ABR-GAME-2, ABR-GAME-3: in random legal
    games for every player count and a mix of options, after every step the 36 stones are all
    accounted for, life stays within 0..life_cap, the state survives JSON and apply leaves its input
    alone; every round gives at most 7 points, and the game ends after more than one round with
    winners chosen by ABR-GAME-2."""
    trail = playout(n, options, seed)
    cap = trail[0][0]["options"]["life_cap"]
    rounds_seen = set()
    for state, action, result in trail:
        assert_stone_invariant(state)
        assert all(0 <= x <= cap for x in state["life"])
        assert json_roundtrip(state) == state
        assert (GAME.chance(state) is None) != (GAME.legal_actions(state) == [])
        before = copy.deepcopy(state)
        assert GAME.apply(state, action) == result
        assert state == before
        after = result.state
        if after["last_round"] is not None and after["last_round"]["round"] not in rounds_seen:
            rounds_seen.add(after["last_round"]["round"])
            assert max(after["last_round"]["gained"].values()) <= 7
    final = trail[-1][2].state
    assert final["phase"] == "over"
    assert_stone_invariant(final)
    assert json_roundtrip(final) == final
    assert final["round"] >= 2
    at_goal = [p for p, v in zip(final["players"], final["score"]) if v >= 8]
    best = max((final["last_round"]["gained"][p], final["last_round"]["life"][p]) for p in at_goal)
    expected = [
        p
        for p in at_goal
        if (final["last_round"]["gained"][p], final["last_round"]["life"][p]) == best
    ]
    assert final["winners"] == expected
    outcome = GAME.outcome(final)
    assert outcome.finished and list(outcome.winners) == expected
    assert set(outcome.scores) == set(names(n))


@PROPERTY
@given(n=st.integers(2, 5), options=options_strategy, seed=st.integers(0, 10**9))
def test_every_offered_action_is_accepted_and_refusals_change_nothing(n, options, seed):
    """ABR-TURN-1, ABR-ENDT-1: every action ``legal_actions`` offers is accepted, and every refused
    action names a rule and leaves the state as it was."""
    for state, _, _ in playout(n, options, seed)[::3]:
        for action in GAME.legal_actions(state):
            assert isinstance(GAME.apply(state, action), Accepted), action
        for action in probes(state):
            before = copy.deepcopy(state)
            result = GAME.apply(state, action)
            assert state == before
            if isinstance(result, Refusal):
                assert RULE_ID.match(result.rule), result
                assert result.reason


@settings(max_examples=10, deadline=None)
@given(n=st.integers(2, 5), options=options_strategy, seed=st.integers(0, 10**9))
def test_the_same_seed_plays_the_same_game(n, options, seed):
    """Chance comes only from the state's seed: the same seed and the same choices play the same
    game, step by step, events included."""
    one, two = playout(n, options, seed), playout(n, options, seed)

    def story(trail):
        return [(action, result.state, result.events) for _, action, result in trail]

    assert story(one) == story(two)
