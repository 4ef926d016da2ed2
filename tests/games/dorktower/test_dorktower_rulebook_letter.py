"""Dork Tower to the letter of its specification: the tower's step counts modulo 8 (spec 4.1,
4.2 ROTATE, DT-TIME-2); a border crossed for XP without the 2 XP is DT-BORDER-2 (spec 4.3
MOVING); a defeat prompt says what is possible and why not (DT-SPACE-8, DT-DEFEAT-3,
DT-DEFEAT-5, DT-WIZ-5, DT-AMB-12); a game is set up again only with the data it began with
(DT-AMB-5: the data set's fingerprint)."""

from __future__ import annotations

import json

import pytest
from dt_support import DATA, GAME, act, end_turn, refused, two, view
from test_dorktower_defeat import lost_fight
from test_dorktower_quest_wizard import FIVE, at_the_door, summoned

from companion.cli import main
from companion.i18n import translate
from companion.rules import SetupError

# -- tower_step modulo 8 --------------------------------------------------------------------------


def a_turn(state, player):
    """The active player stops in her city and turns the tower."""
    state, _ = act(state, type="stop", player=player)
    return end_turn(state, player)


def test_the_tower_step_wraps_from_7_to_0():
    """DT-TIME-2, spec 4.2 ROTATE "+1 mod 8": at step 7 a turn of the tower brings step 0, the
    door back to its first wedge and the day and night of step 0; the event and the view say 0."""
    start_days = GAME.wedge_days(two())
    state = two(tower_step=7)
    assert GAME.door_wedge(state) == (DATA["tower"]["door_wedge"] + 7) % 8
    state, _ = act(state, type="stop", player="Ann")
    state, events = act(state, type="end_turn", player="Ann")
    turned = next(e for e in events if e["type"] == "tower_turned")
    assert state["tower_step"] == 0 and turned["step"] == 0
    assert view(state)["tower"]["step"] == 0
    assert GAME.door_wedge(state) == DATA["tower"]["door_wedge"]
    assert GAME.wedge_days(state) == start_days


def test_eight_turns_of_the_tower_come_back_to_step_0():
    """DT-TIME-2: the step stays within 0..7 turn after turn."""
    state = two(bob={"space": "th-city"})
    seen = []
    for turn in range(9):
        state = a_turn(state, ["Ann", "Bob"][turn % 2])
        seen.append(state["tower_step"])
    assert seen == [1, 2, 3, 4, 5, 6, 7, 0, 1]


@pytest.mark.parametrize("step", [8, -1, 1.5, True])
def test_an_arranged_tower_step_is_0_to_7(step):
    """DT-TIME-2: an arranged start's tower_step is one of the eight positions."""
    with pytest.raises(SetupError) as error:
        two(tower_step=step)
    assert "tower_step: must be a whole number from 0 to 7" in str(error.value)


# -- DT-BORDER-2 for a crossing paid with XP --------------------------------------------------------


@pytest.mark.parametrize("xp", [0, 1])
def test_a_crossing_for_xp_without_2_xp_is_dt_border_2(xp):
    """Spec 4.3 MOVING: crossing a lake or a mountain for XP without the 2 XP is a forbidden
    border, DT-BORDER-2 (not DT-TOK-5); the step is not offered for XP."""
    state = two({"xp": xp})
    assert DATA["adjacent"]["rv-city"]["rv-mere"] == "lake"
    lake = refused(state, "DT-BORDER-2", type="step", player="Ann", to="rv-mere", cross="xp")
    assert lake.reason == f"Ann has {xp} XP, not the 2 XP a crossing costs."
    assert translate(lake.reason, lambda s: s) == lake.reason
    mountain = refused(state, "DT-BORDER-2", type="step", player="Ann", to="rv-moor", cross="xp")
    assert "2 XP a crossing costs" in mountain.reason
    assert not any(a.get("cross") == "xp" for a in GAME.legal_actions(state))


def test_the_crossing_paid_an_extra_step_unpaid_is_dt_tok_5():
    """DT-BORDER-2, DT-MOVE-2, DT-TOK-5: with 2 XP the crossing is paid; an extra step on top
    needs a third XP, and that shortfall is the XP rule's."""
    state = two({"xp": 2})
    short = refused(
        state, "DT-TOK-5", type="step", player="Ann", to="rv-mere", cross="xp", extra=True
    )
    assert short.reason == "Ann has 2 XP, not 3."
    crossed, events = act(state, type="step", player="Ann", to="rv-mere", cross="xp")
    assert crossed["heroes"][0]["xp"] == 0 and events[0]["xp"] == 2


# -- defeat prompts -------------------------------------------------------------------------------


def test_a_dungeon_defeat_says_fleeing_is_not_allowed():
    """DT-SPACE-8, DT-DEFEAT-3: beaten in a dungeon, the prompt says nobody flees from a
    dungeon; with no scroll only dying is offered."""
    state = lost_fight("rv-crypt", ["ogre"])
    prompt = view(state)["prompt"]
    assert prompt == "Ann: die; the XP stay. Nobody flees from a dungeon (DT-SPACE-8, DT-DEFEAT-3)."
    assert [a["type"] for a in GAME.legal_actions(state)] == ["die"]
    refused(state, "DT-SPACE-8", type="flee", player="Ann", to="rv-moor")


def test_a_dungeon_defeat_with_a_scroll_offers_the_reroll_and_death():
    """DT-DEFEAT-2, DT-SPACE-8: holding a scroll (a count everyone sees), the prompt names the
    re-roll and death, and why not fleeing."""
    state = lost_fight("rv-crypt", ["ogre"], scrolls=["second-chance"])
    assert view(state)["prompt"] == (
        "Ann: re-roll with a scroll, or die. Nobody flees from a dungeon (DT-SPACE-8, DT-DEFEAT-3)."
    )
    assert view(state, "Bo")["prompt"] == view(state)["prompt"]


def test_a_zmindrik_defeat_says_nobody_flees_from_him():
    """DT-WIZ-5: beaten by Z'Mindrik, the prompt says nobody flees from him."""
    state = summoned(at_the_door(), *FIVE)
    lost, _ = act(state, type="roll", values=[2, 2])
    assert lost["phase"] == "defeat"
    assert view(lost)["prompt"] == "Ann: die; the XP stay. Nobody flees from Z'Mindrik (DT-WIZ-5)."


def test_a_defeat_with_every_neighbour_taken_says_why():
    """DT-DEFEAT-3, DT-DEFEAT-5, DT-AMB-12: monsters on every next space: no flee, and the
    prompt says why."""
    crowded = {"rv-city": ["goblin"], "rv-port": ["wolf"], "iv-ford": ["orc"]}
    state = lost_fight("rv-wood", ["ogre"], neighbours=crowded)
    assert GAME.flee_spaces(state) == []
    assert view(state)["prompt"] == (
        "Ann: die; the XP stay. There is no next space to flee to: monsters on each, or a lake "
        "or mountain in the way (DT-DEFEAT-3, DT-DEFEAT-5, DT-AMB-12)."
    )
    assert [a["type"] for a in GAME.legal_actions(state)] == ["die"]


@pytest.mark.parametrize("only", [True, False])
def test_a_defeat_with_somewhere_to_flee(only):
    """DT-DEFEAT-3, DT-DEFEAT-5, DT-AMB-12: with somewhere to flee, dying is offered only when
    the option allows it, and the prompt says so."""
    state = lost_fight("rv-wood", ["ogre"], options={"death_only_without_escape": only})
    offered = {a["type"] for a in GAME.legal_actions(state)}
    if only:
        assert offered == {"flee"}
        assert view(state)["prompt"] == (
            "Ann: flee to a next space. A hero dies only with nowhere to flee "
            "(DT-DEFEAT-5, DT-AMB-12)."
        )
        refused(state, "DT-DEFEAT-5", type="die", player="Ann")
    else:
        assert offered == {"flee", "die"}
        assert view(state)["prompt"] == "Ann: flee or die."


# -- the data set's fingerprint -------------------------------------------------------------------


def test_a_new_game_keeps_its_data_fingerprint():
    """DT-AMB-5: the options kept with a game carry the data set's fingerprint; the views do
    not show it as an option (the state's data_fingerprint says it)."""
    state = two()
    assert state["options"]["data_fingerprint"] == DATA["fingerprint"]
    assert state["data_fingerprint"] == DATA["fingerprint"]
    assert "data_fingerprint" not in view(state)["options"]
    again = GAME.new(["Ann", "Bob"], state["options"], seed=7)
    assert again["options"] == state["options"]


def test_a_game_set_up_again_under_other_data_is_refused_naming_both_fingerprints():
    """DT-AMB-5: a kept game whose data set changed since is not set up again silently."""
    with pytest.raises(SetupError) as error:
        GAME.new(["Ann", "Bob"], {"data_fingerprint": "0123456789abcdef"})
    text = str(error.value)
    assert "0123456789abcdef" in text and DATA["fingerprint"] in text and "DT-AMB-5" in text
    with pytest.raises(SetupError):
        GAME.new(["Ann", "Bob"], {"data_fingerprint": 12})


def test_companion_replay_under_another_data_set_is_refused(tmp_path, capsys):
    """DT-AMB-5: ``companion replay`` of a game recorded with another data set's fingerprint
    stops at the header, naming both fingerprints."""
    game = tmp_path / "game.jsonl"
    header = {"game": "dorktower", "players": ["Ann", "Bob"]}
    header["options"] = {"data_fingerprint": "fedcba9876543210", "start_roll": False}
    game.write_text(json.dumps(header) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(game)]) != 0
    err = capsys.readouterr().err
    assert "fedcba9876543210" in err and DATA["fingerprint"] in err
    header["options"]["data_fingerprint"] = DATA["fingerprint"]
    game.write_text(json.dumps(header) + "\n", encoding="utf-8")
    assert main(["replay", str(game)]) == 0
