"""Dork Tower: a start that cannot be made names the value at fault: an unknown data set (with
the known ones), a scenario's unknown key, character, number, monsters or first player
(DT-SETUP-9)."""

from __future__ import annotations

import pytest
from dt_support import GAME, arrange, hero

from companion.rules import SetupError

ANN = hero("topdeck", "rv-city")
BOB = hero("lumpin", "th-city")


def test_an_unknown_data_set_names_the_known_ones():
    with pytest.raises(SetupError) as error:
        GAME.new(["Ann", "Bob"], {"data_set": "nowhere"}, seed=1)
    assert "example" in str(error.value) and "nowhere" in str(error.value)


@pytest.mark.parametrize(
    "heroes, scenario, says",
    [
        ({"Ann": ANN, "Bob": BOB}, {"dragons": 1}, "dragons"),
        ({"Ann": hero("nobody", "rv-city"), "Bob": BOB}, {}, "'nobody'"),
        ({"Ann": hero("topdeck", "rv-city", gold="lots"), "Bob": BOB}, {}, "gold"),
        ({"Ann": ANN, "Bob": BOB}, {"monsters": {"nowhere": ["orc"]}}, "space of the map"),
        ({"Ann": ANN, "Bob": BOB}, {"first": "Zed"}, "'Zed'"),
        (
            {"Ann": hero("topdeck", "rv-city", items=[{"card": "dagger", "slot": 9}]), "Bob": BOB},
            {},
            "slot 9",
        ),
    ],
)
def test_a_scenario_value_at_fault_is_named(heroes, scenario, says):
    with pytest.raises(SetupError) as error:
        arrange(heroes, **scenario)
    assert says in str(error.value)
