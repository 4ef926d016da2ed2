"""Helpers for the Dork Tower rules tests: arranged positions, accepted and refused actions.

The example data set (``companion/rules/dorktower/data/example``) is invented; tests name its
entries by id. ``arrange`` starts a game at the beginning of a turn from a scenario (the option
``scenario``, as ``companion replay`` files do), so a test can start where its rule matters.
"""

from __future__ import annotations

from typing import Any

from companion.games import get_game
from companion.rules import EVERYTHING, Accepted, Refusal

GAME = get_game("dorktower")
DATA = GAME.datasets["example"]


def arrange(heroes: dict[str, dict[str, Any]], **scenario: Any) -> dict[str, Any]:
    """A game whose first turn starts now. ``heroes`` maps player name -> hero (character,
    home, space, level, gold, xp, items, scrolls); the scenario may add monsters, quests,
    tower_step and first. ``options`` (a keyword) are other game options."""
    options = dict(scenario.pop("options", {}))
    options["scenario"] = {"heroes": heroes, **scenario}
    return GAME.new(list(heroes), options, seed=7)


def hero(character: str, home: str, **more: Any) -> dict[str, Any]:
    return {"character": character, "home": home, **more}


def act(state: dict[str, Any], **action: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Apply an action that must be accepted; returns the new state and its events."""
    result = GAME.apply(state, action)
    assert isinstance(result, Accepted), f"{action} refused: {result}"
    return result.state, list(result.events)


def refused(state: dict[str, Any], rule: str, **action: Any) -> Refusal:
    """Apply an action that must be refused by ``rule``; the state is not touched."""
    before = repr(state)
    result = GAME.apply(state, action)
    assert isinstance(result, Refusal), f"{action} was accepted"
    assert result.rule == rule, f"{action}: {result.rule} ({result.reason}), expected {rule}"
    assert repr(state) == before
    return result


def roll(state: dict[str, Any], *values: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return act(state, type="roll", values=list(values))


def draw_tokens(state: dict[str, Any], *tokens: str) -> dict[str, Any]:
    for token in tokens:
        state, _ = act(state, type="draw_token", token=token)
    return state


def view(state: dict[str, Any], viewer: str = EVERYTHING) -> dict[str, Any]:
    return GAME.view(state, viewer)


def totals(state: dict[str, Any]) -> dict[str, Any]:
    return GAME.totals(state)


def play_out(state: dict[str, Any], limit: int = 200) -> dict[str, Any]:
    """Resolve every pending chance step from the game's own seeded sample."""
    for _ in range(limit):
        if GAME.chance(state) is None:
            return state
        state, _ = act(state, **GAME.sample(state))
    raise AssertionError("chance steps did not end")
