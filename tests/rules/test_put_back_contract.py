"""The undo's contract, for every registered game: ``Game.placement`` describes the physical
table in public terms and ``Game.put_back_steps`` says how to put it back by hand.

Seeded random playouts of each game reach every action type its rules know (``HANDLERS``, the
table of actions ``apply`` dispatches on; the test lists them per game and fails on a type no
playout reached). After every accepted action (the first ``CHECKED_PER_TYPE`` of each type),
undoing it gives steps that, followed by hand
(``follow``), turn ``placement(after)`` back into ``placement(before)``; the placement is the same
for every state the table display cannot tell apart (``indistinguishable(state, TABLE, rng)``);
every step's text is a translatable, non-empty sentence; every thing a step names lies named
in a public placement, and the steps are the same for a state the table display cannot tell
apart that the action leads to the same public view (so they name no hidden stone or card).
A game whose ``placement`` is None fails: every game must describe its table.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from typing import Any

import pytest
from secrets_play import choices, random_options

from companion.games import GAME_IDS, get_game
from companion.i18n import Text
from companion.rules import TABLE, Accepted, Game
from companion.rules.putting_back import Step, difference, follow

#: every action type of each game, as its rules' table of actions (HANDLERS) lists them
ACTION_TYPES = {
    "abracadawhat": {
        "deal",
        "deal_stone",
        "cast",
        "remove",
        "roll",
        "take_secret",
        "decline_secret",
        "object",
        "allow",
        "end_turn",
        "refill",
    },
    "dorktower": {
        "accept",
        "buy",
        "buy_scroll",
        "buy_six",
        "choose",
        "close_window",
        "decline",
        "die",
        "discard",
        "done",
        "draw_item",
        "draw_scroll",
        "draw_token",
        "end_turn",
        "enter_tower",
        "equip",
        "flee",
        "level_up",
        "offer",
        "pass",
        "play_scroll",
        "resolve",
        "roll",
        "sell",
        "shop",
        "shop_more",
        "step",
        "stop",
        "take_back",
        "travel",
        "unequip",
        "work",
    },
    "triwizard": {
        "advance",
        "battle",
        "choose",
        "close_window",
        "counter",
        "decline",
        "discard_tile",
        "draw_card",
        "draw_tile",
        "end_turn",
        "first",
        "flip_cup",
        "move",
        "no_match",
        "peek",
        "place_cloak",
        "placed",
        "play_card",
        "play_tile",
        "push_back",
        "remove_cloak",
        "reveal_obstacle",
        "roll",
        "steal",
        "swap_hand",
        "take",
        "tie",
    },
}

#: what the physical world may do that the chance step's sample never does (a test's hands)
EXTRA: dict[str, Callable[[dict[str, Any], random.Random], list[dict[str, Any]]]] = {
    # the deal tapped stone by stone from its first stone (sample deals whole then)
    "abracadawhat": lambda state, rng: (
        [{"type": "deal_stone", "stone": rng.choice(state["reserve"])}]
        if state["phase"] == "deal" and state["reserve"]
        else []
    ),
}


def _triwizard_start(game: Game, players: list[str], options: dict[str, Any], seed: int) -> dict:
    """Every fourth game starts with six Resource Tiles in the first player's hand (the
    ``scenario`` option), so that a seventh drawn reaches ``discard_tile`` (TW-RES-2), which
    random games of a few hundred actions seldom do."""
    if seed % 4:
        return options
    data = game.datasets[options.get("data_set", game.default_set)]
    return {**options, "scenario": {"tiles": {players[0]: sorted(data["tiles"])[:6]}}}


#: options that set up what random games seldom reach (an arranged start)
STARTS: dict[str, Callable[[Game, list[str], dict[str, Any], int], dict[str, Any]]] = {
    "triwizard": _triwizard_start,
}
#: a rivals' scroll window closed at once half the time (its countdown's action), so that the
#: windows' other plays do not crowd out the actions after them
EXTRA["dorktower"] = lambda state, rng: (
    [{"type": "close_window"}] if state["phase"] in ("scrolls_others", "scrolls_after") else []
)
GAMES = GAME_IDS
SEEDS = 40
#: the actions of one type checked (the first ones the playouts reach; every type is reached)
CHECKED_PER_TYPE = 150
STEPS = 250


def handlers(game: Game) -> set[str]:
    """The action types ``game``'s ``apply`` dispatches on (its module's ``HANDLERS``)."""
    return set(sys.modules[type(game).__module__].HANDLERS)


def playout(game: Game, seed: int):
    """(before, action, after) for every accepted action of one seeded random game."""
    rng = random.Random(f"put-back/{game.id}/{seed}")
    players = [f"P{n}" for n in range(rng.randint(game.min_players, min(game.max_players, 5)))]
    options = random_options(game, rng)
    if game.id in STARTS:
        options = STARTS[game.id](game, players, options, seed)
    state = game.new(players, options, seed=seed)
    extra = EXTRA.get(game.id, lambda state, rng: [])
    for _ in range(STEPS):
        if game.outcome(state).finished:
            return
        options = choices(game, state, rng)
        if rng.random() < 0.5:
            options = extra(state, rng) + options
        for action in options:
            result = game.apply(state, action)
            if isinstance(result, Accepted):
                yield state, action, result.state
                state = result.state
                break
        else:
            return


def as_json(steps: list[Step]) -> str:
    return json.dumps([step.to_json() for step in steps], sort_keys=True)


@pytest.mark.parametrize("game_id", GAMES)
def test_undoing_every_action_type_puts_the_table_back(game_id):
    game = get_game(game_id)
    expected = ACTION_TYPES[game_id]
    assert expected == handlers(game), "the test's list of action types is out of date"
    rng = random.Random(17)
    reached: dict[str, int] = {}
    with_steps = 0
    for seed in range(SEEDS):
        for before, action, after in playout(game, seed):
            reached[action["type"]] = reached.get(action["type"], 0) + 1
            if reached[action["type"]] > CHECKED_PER_TYPE:
                continue  # a frequent type (a step, a draw) is checked enough: time for the rest
            where = f"seed {seed}, {action}"
            was, now = game.placement(before), game.placement(after)
            assert was is not None and now is not None, f"{game_id} has no placement"
            steps = game.put_back_steps(before, action, after)
            back = follow(now, steps)
            assert back == was, f"{where}: {difference(was, back)}"
            alike = game.indistinguishable(before, TABLE, rng)
            assert game.placement(alike) == was, f"{where}: the placement tells a secret"
            for step in steps:
                assert isinstance(step.text, Text) and step.text.strip(), f"{where}: {step}"
                assert step.count >= 1, f"{where}: {step}"
                assert (step.arriving, step.target) in was, f"{where}: {step} names a hidden thing"
            moved = game.apply(alike, action)
            if isinstance(moved, Accepted) and game.view(moved.state, TABLE) == game.view(
                after, TABLE
            ):
                again = game.put_back_steps(alike, action, moved.state)
                assert as_json(again) == as_json(steps), f"{where}: the steps tell a secret"
            with_steps += bool(steps)
    assert set(reached) == expected, f"not reached: {sorted(expected - set(reached))}"
    assert with_steps >= SEEDS  # the steps are not all empty
