"""Dork Tower: the Quest Location roll after a quest (DT-QUEST-6, DT-AMB-6, DT-AMB-8): a data set
whose table rolls one die asks the player who completed the quest for one die, by name."""

from __future__ import annotations

import copy

from dt_support import DATA

from companion.games.dorktower.rules import DorkTower


def test_a_one_die_quest_table_asks_the_quester_for_one_die():
    data = copy.deepcopy(DATA)
    data["name"] = "one-die"
    table = data["quest_table"]
    table["dice"] = 1
    game = DorkTower({"one-die": data})
    heroes = {
        "Ann": {"character": "topdeck", "home": "rv-city"},
        "Bob": {"character": "lumpin", "home": "th-city"},
    }
    state = game.new(
        ["Ann", "Bob"], {"scenario": {"heroes": heroes, "quests": ["rv-city", "hw-flats"]}}
    )
    result = game.apply(state, {"type": "stop", "player": "Ann"})  # a city quest: won at once
    state = result.state
    while game.view(state, "Bob")["awaiting"]["kind"] != "die":  # the quest's scroll first
        state = game.apply(state, game.sample(state)).state
    view = game.view(state, "Bob")
    assert view["awaiting"]["why"] == "quest" and view["awaiting"]["player"] == "Ann"
    prompt = view["prompt"]
    assert str(prompt) == "Ann: roll one die on the Quest Location table."
    assert prompt.params["player"] == "Ann"
