"""``Game.indistinguishable`` for every registered game: the state a viewer cannot tell apart.

The secrets harness (``tests/secrets_harness.py``, ``docs/secrets.md``) swaps a running game's
state for ``indistinguishable(state, viewer, rng)`` and fails if anything served to that viewer
changes. That proof is only as good as the swap, so here, at every state of random legal games
of each registered game (every player count, random options) and for every viewer (each player,
the table display, the host): the changed state shows the viewer the same view, offers the same
actions with the same refusals, waits for the same chance step, can be played on, leaves the
input untouched, and hides from the table display nothing a player sees; and the swap really
changes hidden information most of the time, so the harness can fail.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from secrets_harness import random_options

from companion.games import games, get_game
from companion.rules import (
    EVERYTHING,
    HOST,
    TABLE,
    Accepted,
    Game,
    Refusal,
)
from companion.rules.api import Outcome

NAMES = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
GAMES = [pytest.param(g.id, id=g.id) for g in games()]


def playout(game: Game, n: int, seed: int, steps: int):
    """The states of one random legal game: a random choice among the legal actions (by type
    first, so that a type with many variants does not crowd out the others) and the awaited
    chance step, sampled from the state's seed."""
    rng = random.Random(f"{game.id}/{n}/{seed}")
    state = game.new(NAMES[:n], random_options(game, rng), seed)
    for _ in range(steps):
        yield state
        if game.outcome(state).finished:
            return
        state = next_state(game, state, rng)
        if state is None:
            return


def next_state(game: Game, state: dict, rng: random.Random) -> dict | None:
    options = list(game.legal_actions(state))
    if game.chance(state) is not None:
        options.append(game.sample(state))
    kinds = sorted({a["type"] for a in options})
    rng.shuffle(kinds)
    for kind in kinds:
        of_kind = [a for a in options if a["type"] == kind]
        rng.shuffle(of_kind)
        for action in of_kind:
            result = game.apply(state, action)
            if isinstance(result, Accepted):
                return result.state
    return None


def viewers(state: dict) -> list[str]:
    return [*state["players"], TABLE, HOST]


def offered(game: Game, state: dict, viewer: str) -> list[dict]:
    """The actions ``viewer`` is offered (a player's own) and the sensors' (no player)."""
    return [a for a in game.legal_actions(state) if a.get("player") in (None, viewer)]


def same_answer(a: Any, b: Any) -> bool:
    if isinstance(a, Refusal) or isinstance(b, Refusal):
        return a == b
    return isinstance(a, Accepted) and isinstance(b, Accepted)


def check_state(game: Game, state: dict, rng: random.Random) -> tuple[int, int]:
    """Every viewer at one state; returns (swaps, swaps that changed the referee's view)."""
    frozen = json.dumps(state, sort_keys=True)
    everything = game.view(state, EVERYTHING)
    swaps = changed = 0
    assert game.indistinguishable(state, EVERYTHING, rng) == state
    for viewer in viewers(state):
        other = game.indistinguishable(state, viewer, rng)
        assert json.dumps(state, sort_keys=True) == frozen, "the input state was modified"
        assert json.loads(json.dumps(other)) == other, "the changed state is not plain JSON"
        assert game.view(other, viewer) == game.view(state, viewer), viewer
        assert game.chance(other) == game.chance(state), viewer
        assert game.outcome(other) == game.outcome(state), viewer
        mine = offered(game, state, viewer)
        assert offered(game, other, viewer) == mine, viewer
        for action in rng.sample(mine, min(3, len(mine))):  # the same answers, too
            assert same_answer(game.apply(state, action), game.apply(other, action)), (
                viewer,
                action,
            )
        if viewer in state["players"]:  # what a player may not see, the table may not either
            assert game.view(other, TABLE) == game.view(state, TABLE), viewer
            assert game.view(other, HOST) == game.view(state, HOST), viewer
        swaps += 1
        changed += game.view(other, EVERYTHING) != everything
    return swaps, changed


def play_on(game: Game, state: dict, rng: random.Random, steps: int = 4) -> None:
    """A changed state is a state of the game: it can be played on."""
    for _ in range(steps):
        if game.outcome(state).finished:
            return
        state = next_state(game, state, rng)
        if state is None:
            return
        game.view(state, EVERYTHING)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_viewer_cannot_tell_the_changed_state_apart(game_id):
    game = get_game(game_id)
    rng = random.Random(f"swaps/{game_id}")
    swaps = changed = 0
    for n in range(game.min_players, game.max_players + 1):
        for seed in range(2):
            for k, state in enumerate(playout(game, n, seed, steps=70)):
                s, c = check_state(game, state, rng)
                swaps, changed = swaps + s, changed + c
                if k % 10 == 5:
                    viewer = rng.choice(viewers(state))
                    play_on(game, game.indistinguishable(state, viewer, rng), rng)
    # the swap is not vacuous: half the time at least it deals the hidden things anew
    # (0.5: a Dork Tower hero often holds no scroll, and then nothing is hidden from a viewer)
    assert changed >= 0.5 * swaps, (changed, swaps)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_changed_state_differs_in_each_viewers_secrets(game_id):
    """For each kind of viewer, some swaps change what the referee sees: a player's secrets are
    not only other people's (a player's own hidden pieces, or the others' hands, are dealt
    anew), the table's and the host's too."""
    game = get_game(game_id)
    rng = random.Random(f"each/{game_id}")
    changed = {"player": 0, TABLE: 0, HOST: 0}
    for state in playout(game, game.min_players + 1, 3, steps=60):
        everything = game.view(state, EVERYTHING)
        for viewer in viewers(state):
            other = game.indistinguishable(state, viewer, rng)
            kind = viewer if viewer in (TABLE, HOST) else "player"
            changed[kind] += game.view(other, EVERYTHING) != everything
    assert all(count >= 10 for count in changed.values()), changed


@pytest.mark.parametrize("game_id", GAMES)
def test_an_unknown_viewer_is_an_error(game_id):
    game = get_game(game_id)
    state = game.new(NAMES[: game.min_players])
    with pytest.raises(ValueError):
        game.indistinguishable(state, "Nobody at all", random.Random(1))


def test_a_game_without_it_says_the_harness_needs_it():
    class Bare(Game):
        id, title, spec, min_players, max_players = "bare", "Bare", "bare.md", 1, 2

        def new(self, players, options=None, seed=0):
            return {"players": players}

        def apply(self, state, action):
            return Refusal("X-1", "No.")

        def legal_actions(self, state):
            return []

        def chance(self, state):
            return None

        def sample(self, state):
            raise ValueError

        def view(self, state, viewer):
            return {}

        def outcome(self, state):
            return Outcome(False)

    with pytest.raises(NotImplementedError, match="registered game must provide it.*secrets"):
        Bare().indistinguishable({"players": ["A"]}, "A", random.Random(1))
