"""Dork Tower: what every screen is told of the tower and of whose choice it is (``tower`` and
``here`` with day or night, ``choosing``, ``active``): DT-TIME-1, DT-TIME-2, DT-TIME-3,
DT-SETUP-7."""

from __future__ import annotations

from dt_support import GAME, act, two, view

from companion.rules import TABLE

ORDER = ["rv", "hw", "th", "cd", "sm", "mf", "bh", "iv"]  # clockwise, as tower.json lists them
DAY_AT_STEP_0 = [False, False, False, False, True, True, True, True]  # sun walls face sm..iv


def days(state: dict) -> list[bool]:
    return [wedge["day"] for wedge in view(state, TABLE)["tower"]["wedges"]]


def test_each_wedge_is_day_or_night_as_the_walls_face_it():
    """DT-TIME-1: at tower step 0 the wedges rv, hw, th and cd are in night, sm, mf, bh and iv
    in day; the view names every wedge with its kind."""
    tower = view(two(), TABLE)["tower"]
    assert [w["id"] for w in tower["wedges"]] == ORDER
    assert days(two()) == DAY_AT_STEP_0
    assert [w["kind"] for w in tower["wedges"]].count("wild") == 2
    assert (tower["step"], tower["door_wedge"], tower["door_space"]) == (0, 1, "hw-shadow")


def test_day_and_night_turn_with_the_tower():
    """DT-TIME-2: each turn of the tower moves the walls one wedge clockwise: at step 1 Ravensteel
    is in day and Saltmere in night, at step 3 three more wedges are in day; the door follows."""
    for step in (1, 3):
        state = two(tower_step=step)
        assert days(state) == DAY_AT_STEP_0[-step:] + DAY_AT_STEP_0[:-step]
        assert view(state, TABLE)["tower"]["door_wedge"] == 1 + step


def test_here_says_whether_the_active_heros_space_is_in_day():
    """DT-TIME-3: Ann in Ravensteel Keep: night at step 0, day at step 1, for every viewer."""
    assert view(two(), TABLE)["here"] == {"space": "rv-city", "draw": 0, "day": False}
    for viewer in (TABLE, "Ann", "Bob"):
        assert view(two(tower_step=1), viewer)["here"]["day"] is True


def test_the_view_names_who_is_choosing_a_hero():
    """DT-SETUP-7: while heroes are chosen ``choosing`` names the chooser, clockwise from the
    first player; once play starts it is None."""
    state = GAME.new(["Ann", "Bob", "Cid"], {"start_roll": False}, seed=11)
    assert (view(state, TABLE)["phase"], view(state, TABLE)["choosing"]) == ("choose", "Ann")
    state, _ = act(state, type="choose", player="Ann", character="topdeck", city="rv-city")
    assert view(state, "Cid")["choosing"] == "Bob"
    state, _ = act(state, type="choose", player="Bob", character="lumpin", city="th-city")
    assert view(state, "Ann")["choosing"] == "Cid"
    assert view(two(), TABLE)["choosing"] is None and view(two(), TABLE)["active"] == "Ann"
