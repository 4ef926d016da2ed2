"""Dork Tower: a fight won or lost, a death and a resurrection as the table reads them (DT-DEFEAT-1,
DT-DEATH-1..3, DT-AMB-10): the roll against its target, the city the hero is carried to, the gold
lost and the gold given back."""

from __future__ import annotations

from dt_support import act, arrange, bo, end_turn, hero, roll
from test_dorktower_defeat import lost_fight


def test_a_death_and_a_resurrection_are_told_with_their_numbers():
    state = arrange_death()
    dead, events = act(state, type="die", player="Ann")
    assert events == [
        {
            "type": "died",
            "text": "Ann dies and is carried home to Brambleholt, losing every card and 30 gold; "
            "the XP stay.",
            "player": "Ann",
        }
    ]
    assert dead["t"]["died"] is True
    state = end_turn(dead, "Ann")
    state, events = act(state, type="end_turn", player="Bo")
    back = next(e for e in events if e["type"] == "resurrected")
    assert back["gold"] == 50 and back["player"] == "Ann"
    assert back["text"] == "The citizens of Brambleholt resurrect Ann and give him 50 gold."
    assert state["heroes"][0]["gold"] == 50 and state["heroes"][0]["space"] == "bh-city"


def arrange_death() -> dict:
    """Topdeck of Brambleholt (30 gold) loses to a Troll on Adder Hollow, nowhere to flee."""
    return lost_fight(
        "mf-hollow",
        ["troll"],
        ann_hero=hero("topdeck", "bh-city", space="mf-hollow", gold=30),
        neighbours={"mf-willows": ["ogre"]},
    )


def test_a_lost_roll_is_told_with_the_roll_and_its_target():
    """DT-DEFEAT-1: Ann rolls 1 + 1 = 2 against the Troll's 6."""
    state = arrange(
        {"Ann": hero("topdeck", "bh-city", space="mf-hollow"), "Bo": bo()},
        monsters={"mf-hollow": ["troll"]},
    )
    state, _ = act(state, type="stop", player="Ann")
    state, events = roll(state, 1, 1)
    assert events == [
        {
            "type": "defeat",
            "text": "Ann rolls 2 against 6: the monsters win.",
            "player": "Ann",
            "roll": 2,
            "target": 6,
        }
    ]


def test_a_won_roll_is_told_with_the_roll_and_its_target():
    """DT-COMBAT-7: Ann rolls 6 + 5 = 11 against the Troll's 6."""
    state = arrange(
        {"Ann": hero("topdeck", "bh-city", space="mf-hollow"), "Bo": bo()},
        monsters={"mf-hollow": ["troll"]},
    )
    state, _ = act(state, type="stop", player="Ann")
    _, events = roll(state, 6, 5)
    assert events[0] == {
        "type": "victory",
        "text": "Ann rolls 11 against 6: victory!",
        "player": "Ann",
        "roll": 11,
        "target": 6,
    }
