"""Helpers for the Dork Tower rules tests: arranged positions, accepted and refused actions.

The example data set (``companion/games/dorktower/data/example``) is invented; tests name its
entries by id. ``arrange`` starts a game at the beginning of a turn from a scenario (the option
``scenario``, as ``companion replay`` files do), so a test can start where its rule matters. The
positions several test modules start from (``ann`` and ``bo``, ``two``, ``fight``...) are at the
end.
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


# -- positions the tests share ------------------------------------------------------------------

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
DAGGER_AND_MAIL = [{"card": "dagger"}, {"card": "chain-mail"}]  # +1 and +3 (DT-EX-1)


def ann(**more: Any) -> dict[str, Any]:
    return hero("topdeck", "rv-city", **more)


def bo(**more: Any) -> dict[str, Any]:
    return hero("lumpin", "th-city", **more)


def fight(
    monsters: list[str], ann_more: dict | None = None, bo_more: dict | None = None, **scenario: Any
) -> dict[str, Any]:
    """Ann steps from Ravensteel Keep into Ravenwood, where ``monsters`` wait: the fight starts."""
    state = arrange(
        {"Ann": ann(**(ann_more or {})), "Bo": bo(**(bo_more or {}))},
        monsters={"rv-wood": monsters},
        **scenario,
    )
    state, _ = act(state, type="step", player="Ann", to="rv-wood")
    return state


def topdeck_example(**ann_more: Any) -> dict[str, Any]:
    """DT-EX-1: Topdeck with a dagger and chain mail against a Mummy and an Orc Shaman."""
    return fight(["mummy", "orc-shaman"], {"items": DAGGER_AND_MAIL, **ann_more})


def two(ann: dict | None = None, bob: dict | None = None, **scenario) -> dict:
    """Ann (Topdeck, of Ravensteel Keep) and Bob (Lumpin, of Thunderhawk Eyrie); Ann moves."""
    return arrange(
        {
            "Ann": {**hero("topdeck", "rv-city"), **(ann or {})},
            "Bob": {**hero("lumpin", "th-city"), **(bob or {})},
        },
        **scenario,
    )


def in_city(ann: dict | None = None, bob: dict | None = None, **scenario) -> dict:
    """Ann has stopped in her home city and may shop or work (Bob is elsewhere)."""
    state, _ = act(two(ann, bob, **scenario), type="stop", player="Ann")
    assert state["phase"] == "city"
    return state


def steps(state: dict, player: str, *spaces: str) -> dict:
    for to in spaces:
        state, _ = act(state, type="step", player=player, to=to)
    return state


def end_turn(state: dict, player: str) -> dict:
    state, _ = act(state, type="end_turn", player=player)
    return state


def pending_tokens(state: dict) -> int:
    return sum(1 for p in state["pending"] if p["kind"] == "token")


def hero_of(state: dict[str, Any], name: str = "Ann") -> dict[str, Any]:
    return view(state)["players"][name]


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]
