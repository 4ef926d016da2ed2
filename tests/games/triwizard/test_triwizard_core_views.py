"""Views, indistinguishable states, prompts, the undo's words, progress and options."""

from __future__ import annotations

import json
import random

import pytest
from core_support import GAME, PLAYERS, arranged, new, play, refill, refused, tile_of

from companion.plugin import TABLE_VIEW_KEYS
from companion.rules.api import EVERYTHING, HOST, TABLE, Accepted, SetupError

HAND = ["red-5-3", "blue-2-4", "green-4-2", "green-1-5"]


def dealt(players=3, seed=4):
    state = refill(play(new(PLAYERS[:players], seed=seed), {"type": "placed", "player": "Ann"}))
    return refill(play(state, {"type": "first", "player": "Ann"}))


def test_view_keys_and_secrets():
    state = dealt()
    for viewer in (TABLE, HOST, EVERYTHING, "Ann", "Ben"):
        view = GAME.view(state, viewer)
        assert set(TABLE_VIEW_KEYS) <= set(view)
        json.dumps(view)
    table = GAME.view(state, TABLE)
    assert all(p["hand"] is None and p["tiles"] is None for p in table["players"].values())
    assert table["players"]["Ann"]["hand_count"] == 4 and table["players"]["Ann"]["tile_count"] == 2
    ann = GAME.view(state, "Ann")
    assert [c["card"] for c in ann["players"]["Ann"]["hand"]] == state["hands"][0]
    assert ann["players"]["Ben"]["hand"] is None
    assert "decks" not in ann and "decks" in GAME.view(state, EVERYTHING)
    assert GAME.view(state, EVERYTHING)["players"]["Ben"]["hand"] is not None
    assert table["example"] is True and table["data_set"] == "corridor"
    assert [slot["face_up"] for slot in table["lineup"]] == [True] * 4 and table["current"] == 1
    with pytest.raises(ValueError):
        GAME.view(state, "Zed")


@pytest.mark.parametrize("viewer", [TABLE, HOST, "Ann", "Ben", "Cat"])
def test_indistinguishable_keeps_the_view_and_redeals_the_rest(viewer):
    rng = random.Random(1)
    state = dealt(seed=9)
    four = tile_of("four_point")
    state = arranged(
        players=PLAYERS[:3],
        hands={"Ann": HAND},
        tiles={"Ann": [four], "Ben": [tile_of("cloak")], "Cat": [tile_of("reductor")]},
    )
    state = play(state, {"type": "play_tile", "player": "Ann", "tile": four, "slot": "1"})
    state = play(state, {"type": "peek", "player": "Ann", "slot": "1", "tile": "cup"})
    changed = False
    for _ in range(5):
        other = GAME.indistinguishable(state, viewer, rng)
        assert GAME.view(other, viewer) == GAME.view(state, viewer)
        assert GAME.deadline(other) == GAME.deadline(state)
        assert GAME.chance(other) == GAME.chance(state)
        changed = changed or other != state
    assert changed
    assert GAME.indistinguishable(state, EVERYTHING, rng) == state


def test_prompts_say_what_the_table_waits_for():
    state = new()
    assert "Entrance" in GAME.view(state, TABLE)["prompt"]
    state = arranged(hands={"Ann": HAND[:2]})
    assert GAME.view(state, TABLE)["prompt"] == "Ann: draw 2 Battle Cards."
    assert GAME.awaited(state) == {"kind": "card", "why": "refill", "player": "Ann", "left": 2}
    state = arranged(hands={"Ann": HAND[:3]})
    assert GAME.view(state, TABLE)["prompt"] == "Ann: draw a Battle Card."
    state = refill(state)
    assert GAME.view(state, TABLE)["prompt"].startswith("Ann: roll the die")
    assert GAME.view(state, TABLE)["waiting_for"] == ["Ann"]
    assert GAME.chance(state).rule == "TW-TURN-2" and GAME.chance(state).profile == "triwizard"
    state = play(state, {"type": "roll", "value": 3})
    assert GAME.view(state, TABLE)["prompt"] == "Ann: move up to 6 spaces."
    assert GAME.view(state, TABLE)["reach"] is None
    assert {"K1", "H1"} <= {entry["space"] for entry in GAME.view(state, "Ann")["reach"]}


def test_refusals_end_with_the_prompt_and_change_nothing():
    state = arranged(hands={"Ann": HAND})
    before = json.dumps(state, sort_keys=True)
    answer = refused(state, {"type": "end_turn", "player": "Ann"})
    assert answer.rule == "TW-TURN-6"
    assert refused(state, {"type": "fly"}).rule == "INPUT-2"
    assert refused(state, {"type": "end_turn", "player": "Zed"}).rule == "INPUT-3"
    assert refused(state, {"nope": 1}).rule == "INPUT-1"
    assert json.dumps(state, sort_keys=True) == before


def test_describe_and_put_back_name_no_secret():
    state = arranged(hands={"Ann": HAND[:3]})
    draw = GAME.sample(state)
    assert GAME.describe(state, draw) == "Ann drawing a Battle Card"
    after = play(state, draw)
    back = GAME.put_back(state, draw, after)
    assert back == "Move a Battle Card from Ann's hand back onto the Battle Card pile."
    assert draw["card"] not in back
    assert GAME.describe(state, {"type": "roll", "value": 4}) == "the roll of 4"
    assert GAME.describe(state, {"type": "close_window"})
    assert GAME.put_back(state, {"type": "end_turn", "player": "Ann"}, state) is None


def test_progress_outcome_and_options():
    state = new()
    assert GAME.progress(state) == "before the first turn"
    assert GAME.progress(arranged(hands={"Ann": HAND})) == "turn 1"
    assert not GAME.outcome(state).finished
    with pytest.raises(SetupError):
        new(maze="hexagonal")
    with pytest.raises(SetupError):
        new(counter_seconds=2)
    with pytest.raises(SetupError):
        new(scenario={"pieces": {"Ann": "nowhere"}})
    assert new(counter_seconds=0)["options"]["counter_seconds"] == 0
    assert GAME.id == "triwizard" and GAME.spec == "triwizard-maze.md"
    assert (GAME.min_players, GAME.max_players) == (2, 4)


def test_deadline_only_in_the_counter_window_and_zero_waits():
    dumb_a, dumb_b = tile_of("dumbledore"), tile_of("dumbledore", 1)
    scenario = {
        "pieces": {"Ann": "K14"},
        "cloak": "Ann",
        "active": "Ben",
        "hands": {"Ben": HAND},
        "tiles": {"Ann": [dumb_a], "Ben": [dumb_b]},
    }
    state = new(scenario=scenario)
    assert GAME.deadline(state) is None
    play_it = {"type": "play_tile", "player": "Ben", "tile": dumb_b, "target": "Ann"}
    window = play(state, play_it)
    assert GAME.deadline(window)["seconds"] == 10
    assert GAME.view(window, TABLE)["interrupt"] == {
        "kind": "dumbledore",
        "player": "Ann",
        "by": "Ben",
    }
    waiting = play(new(counter_seconds=0, scenario=scenario), play_it)
    assert GAME.deadline(waiting) is None
    assert isinstance(GAME.apply(window, GAME.deadline(window)["action"]), Accepted)


def test_junk_is_refused_never_a_crash():
    """Bad input gets a clear answer and changes nothing."""
    rng = random.Random(3)
    junk = [None, 1, 2.5, True, "x", "K1", [], ["K1"], [1], {}, "Ann", "Zed", "r01", "1", "cloak"]
    keys = [
        "player",
        "path",
        "tile",
        "card",
        "target",
        "slot",
        "on",
        "space",
        "value",
        "players",
        "steps",
        "end",
        "number",
        "reductor",
    ]
    types = sorted(
        __import__("companion.games.triwizard.rules.actions", fromlist=["HANDLERS"]).HANDLERS
    )
    for maze in ("grid", "declared"):
        state = new(PLAYERS[:3], seed=2, maze=maze)
        for _step in range(300):
            for _try in range(4):
                action = {"type": rng.choice(types)}
                for name in rng.sample(keys, rng.randint(0, 4)):
                    action[name] = rng.choice(junk)
                result = GAME.apply(state, action)
                if isinstance(result, Accepted):
                    json.dumps(result.state)
                else:
                    assert result.rule and result.reason
            if GAME.outcome(state).finished:
                break
            legal = GAME.legal_actions(state)
            waiting = GAME.chance(state) is not None
            action = (
                GAME.sample(state)
                if waiting and (not legal or rng.random() < 0.7)
                else (rng.choice(legal))
            )
            state = GAME.apply(state, action).state
    for scenario in (
        {"pieces": 5},
        {"hands": {"Ann": 5}},
        {"lineup": [1, 2, 3, 4]},
        {"active": []},
        {"uncleared": 3},
        {"pieces": {"Ann": []}},
    ):
        with pytest.raises(SetupError):
            new(scenario=scenario)
