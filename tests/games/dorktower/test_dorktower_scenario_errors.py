"""Dork Tower: what a start says: a scenario that cannot be arranged names its key and the value
at fault (DT-SETUP-9); a tie of the start roll names every tied player (DT-SETUP-6, DT-AMB-19);
the stickers a set needs count every encounter token (DT-COMP-3)."""

from __future__ import annotations

import pytest
from dt_support import DATA, GAME, act, arrange, hero, roll

from companion.games.dorktower.rules.datasets import components
from companion.rules import SetupError

BOB = hero("lumpin", "th-city")


@pytest.mark.parametrize(
    "ann, scenario, message",
    [
        (hero("topdeck", "rv-wood"), {}, "scenario heroes.Ann: home 'rv-wood' is not a city"),
        (
            hero("topdeck", "rv-city", space="nowhere"),
            {},
            "scenario heroes.Ann: unknown space 'nowhere'",
        ),
        (
            hero("topdeck", "rv-city"),
            {"quests": ["rv-moor", "rv-moor"]},
            "scenario quests: must be two different spaces of the map",
        ),
        (
            hero("topdeck", "rv-city"),
            {"tower_step": -1},
            "scenario tower_step: must be a whole number from 0 to 7",
        ),
    ],
)
def test_a_scenario_that_cannot_be_arranged_says_where(ann, scenario, message):
    with pytest.raises(SetupError) as error:
        arrange({"Ann": ann, "Bob": BOB}, **scenario)
    assert str(error.value) == message


def test_a_four_way_tie_names_all_four():
    """DT-AMB-19: four players roll 7 each: all four roll again, named in the tie's text."""
    state = GAME.new(["Ann", "Bob", "Cid", "Dee"], seed=1)
    for _ in range(4):
        state, events = roll(state, 3, 4)
    tie = events[-1]
    assert tie["type"] == "start_tie" and tie["players"] == ["Ann", "Bob", "Cid", "Dee"]
    assert tie["text"] == "Ann and Bob and Cid and Dee tie on 7: they roll again."


def test_every_encounter_token_needs_as_many_stickers_as_the_bowl_holds():
    """DT-COMP-3: one sticker per token in the bowl (e.g. two Merchants), one per card."""
    stickers = components(DATA)
    for token in DATA["tokens"].values():
        assert stickers[f"token {token['id']}"] == token["count"]
    assert stickers["token merchant"] == 2 and stickers["tower"] == 1
    assert sum(1 for name in stickers if name.startswith("item ")) == 36


def test_an_undo_of_work_names_the_worker():
    """The undo names what it takes back: "Ann working"."""
    state, _ = act(
        arrange({"Ann": hero("topdeck", "rv-city"), "Bob": BOB}), type="stop", player="Ann"
    )
    assert str(GAME.describe(state, {"type": "work", "player": "Ann"})) == "Ann working"
