"""Dork Tower: what a refused step says (DT-MOVE-1, DT-BORDER-2): the price of an extra step when
the movement is spent, and the ways across a mountain a hero without the ability must pay."""

from __future__ import annotations

from dt_support import refused, steps, two


def test_a_step_without_movement_left_names_the_price_of_an_extra_step():
    """DT-MOVE-1: after four steps Topdeck has no movement left; an extra step costs 1 XP."""
    state = steps(two(), "Ann", "rv-wood", "rv-city", "rv-wood", "rv-city")
    assert state["t"]["moves_left"] == 0
    reason = refused(state, "DT-MOVE-1", type="step", player="Ann", to="rv-wood").reason
    assert str(reason) == "Ann has no movement left; an extra step costs 1 XP (extra: true)."


def test_claiming_an_ability_one_lacks_names_the_ways_to_pay():
    """DT-BORDER-2: Topdeck has no ability or item to cross the mountain to the moor."""
    for way in ("ability", "item"):
        reason = refused(two(), "DT-BORDER-2", type="step", player="Ann", to="rv-moor", cross=way)
        assert str(reason.reason) == (
            "Ann cannot cross a mountain without paying 2 XP, a scroll, or a whole turn's movement."
        )
