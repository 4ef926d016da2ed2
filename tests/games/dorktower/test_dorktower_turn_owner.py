"""Dork Tower: whose turn it is, in refusals and the turn's first words (DT-TURN-1, DT-TURN-2)."""

from __future__ import annotations

from dt_support import act, fight, refused, roll, two, view


def test_acting_out_of_turn_names_both_players():
    """DT-TURN-1: Bob cannot act in Ann's turn; the reason says whose turn it is."""
    refusal = refused(two(), "DT-TURN-1", type="stop", player="Bob")
    assert refusal.reason is not None
    assert refusal.reason.params == {"player": "Ann", "other": "Bob"}


def test_a_draw_nobody_awaits_says_what_the_table_waits_for():
    """DT-TURN-2: a scroll drawn when none is expected is refused with the current prompt."""
    for state in (two(), roll(fight(["orc"]), 6, 5)[0]):  # the move; the Orc's treasure die
        refusal = refused(state, "DT-TURN-2", type="draw_scroll", scroll="hex")
        assert refusal.reason.params["prompt"] == view(state)["prompt"]


def test_a_turn_starts_with_the_heroes_movement():
    """DT-MOVE-1: the turn's first words give its player and his hero's movement."""
    state, events = act(two(), type="end_turn", player="Ann")
    start = next(e for e in events if "move up to" in e["text"])
    assert start["text"].params["player"] == "Bob"
    assert isinstance(start["text"].params["n"], int) and start["text"].params["n"] > 0
