"""Dork Tower: how a border crossing is paid and what a refused crossing says (DT-BORDER-2,
DT-AMB-3, DT-CARD-6, DT-AMB-27): the XP price named for a lake, the whole movement only from the
turn's first space, a crossing for XP once per turn when the data set says so, and which scrolls
may be offered for a crossing."""

from __future__ import annotations

import copy

from dt_support import DATA, act, refused, steps, two

from companion.games.dorktower.rules import DorkTower
from companion.rules import Accepted, Refusal


def test_claiming_an_ability_one_lacks_at_a_lake_names_the_xp_price():
    """DT-BORDER-2: Topdeck cannot cross the lake to Blackmere Shore by ability; the refusal names the
    data set's price of a crossing (2 XP)."""
    assert DATA["adjacent"]["rv-city"]["rv-mere"] == "lake"
    reason = refused(two(), "DT-BORDER-2", type="step", player="Ann", to="rv-mere", cross="ability")
    assert str(reason.reason) == (
        "Ann cannot cross a lake without paying 2 XP, a scroll, or a whole turn's movement."
    )


def test_the_whole_movement_crosses_only_from_the_first_space_before_any_step():
    """DT-BORDER-2 (c): after one step and back, the whole movement no longer pays a crossing,
    and the refusal says why."""
    state = steps(two(), "Ann", "rv-wood", "rv-city")
    reason = refused(state, "DT-BORDER-2", type="step", player="Ann", to="rv-mere", cross="whole")
    assert str(reason.reason) == (
        "Crossing with the whole movement is only possible from the space the turn started on, "
        "before any step."
    )
    state, _ = act(two(), type="step", player="Ann", to="rv-mere", cross="whole")
    assert state["heroes"][0]["space"] == "rv-mere" and state["t"]["moves_left"] == 0


def test_a_data_set_may_allow_a_crossing_for_xp_once_per_turn():
    """DT-AMB-3, DT-BORDER-2 (b): with cross_border not repeatable, a second crossing for XP in
    the same turn is refused even with the XP to pay it."""
    data = copy.deepcopy(DATA)
    data["name"] = "once"
    data["xp_repeat"]["cross_border"] = False
    game = DorkTower({"once": data})
    heroes = {
        "Ann": {"character": "topdeck", "home": "rv-city", "xp": 6},
        "Bob": {"character": "lumpin", "home": "th-city"},
    }
    state = game.new(["Ann", "Bob"], {"scenario": {"heroes": heroes}})
    over = {"type": "step", "player": "Ann", "to": "rv-mere", "cross": "xp"}
    first = game.apply(state, over)
    assert isinstance(first, Accepted) and first.state["heroes"][0]["xp"] == 4
    back = game.apply(first.state, {**over, "to": "rv-city"})
    assert isinstance(back, Refusal) and back.rule == "DT-AMB-3"
    assert str(back.reason) == "This data set allows cross border for XP once per turn."


def test_a_scroll_not_in_hand_is_named_with_its_player():
    """DT-CARD-6: crossing with a scroll Ann does not hold is refused, naming her."""
    reason = refused(
        two(),
        "DT-CARD-6",
        type="step",
        player="Ann",
        to="rv-mere",
        cross="scroll",
        scroll="water-walking",
    ).reason
    assert str(reason) == "That scroll is not in Ann's hand."


def test_a_scroll_anyone_may_play_at_any_time_is_checked_against_the_crossing():
    """DT-AMB-27, DT-BORDER-2 (a): Blessing (any time, by anyone) may be played while moving, so
    it passes the timing check; it only fails because it crosses no border. A combat-only scroll
    is refused for its timing (DT-AMB-27)."""
    state = two({"scrolls": ["blessing", "hex"]})
    way = {"type": "step", "player": "Ann", "to": "rv-mere", "cross": "scroll"}
    blessing = refused(state, "DT-BORDER-2", **way, scroll="blessing")
    assert str(blessing.reason) == "That scroll cannot be used for this crossing."
    refused(state, "DT-AMB-27", **way, scroll="hex")


def test_the_step_event_says_whether_a_border_was_crossed():
    """DT-MOVE-3, DT-BORDER-2: a plain step is told as a move; a crossing names its border."""
    _, events = act(two(), type="step", player="Ann", to="rv-wood")
    assert (events[0]["border"], events[0]["xp"]) == ("none", 0)
    assert str(events[0]["text"]) == "Ann moves to Ravenwood."
    _, events = act(two({"xp": 2}), type="step", player="Ann", to="rv-mere", cross="xp")
    assert (events[0]["border"], events[0]["xp"]) == ("lake", 2)
    assert str(events[0]["text"]) == "Ann moves to Blackmere Shore across a lake."
