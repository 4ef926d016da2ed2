"""Dork Tower: who may act now, and what a refusal says (DT-TURN-1, DT-TURN-2, DT-ENC-4): nothing
but choosing while heroes are chosen, nothing but the draw while a draw is awaited, no chance step
nobody waits for, and only the awaited player's draw."""

from __future__ import annotations

import pytest
from dt_support import GAME, act, arrange, draw_tokens, hero, in_city, refused, roll, two

CHOOSING = "Not now: Ann: choose a character and a home city."
MOVING = "Ann: move (4 left), stop, or enter the tower."
DRAWING = "Ann: draw the top item card."


@pytest.mark.parametrize("kind", ["stop", "end_turn", "shop", "step", "resolve"])
def test_nothing_but_choosing_while_heroes_are_chosen(kind):
    """DT-TURN-2: the guard of every turn action while heroes are chosen."""
    state = GAME.new(["Ann", "Bob"], {"start_roll": False}, seed=11)
    assert str(refused(state, "DT-TURN-2", type=kind, player="Ann").reason) == CHOOSING


def test_nothing_but_the_draw_while_a_draw_is_awaited():
    """DT-TURN-2, DT-CITY-2: after Shop, Ann draws the two cards before buying or working."""
    state, _ = act(in_city(), type="shop", player="Ann")
    for action in (
        {"type": "buy", "card": "dagger", "face": "equipment"},
        {"type": "work"},
        {"type": "sell", "card": "dagger"},
    ):
        reason = refused(state, "DT-TURN-2", player="Ann", **action).reason
        assert str(reason) == f"Not now: {DRAWING}"
    reason = refused(state, "DT-TURN-2", type="roll", values=[1, 2]).reason
    assert str(reason) == f"No roll is expected now; {DRAWING}"
    reason = refused(state, "DT-TURN-1", type="draw_item", card="dagger", player="Bob").reason
    assert str(reason) == "Ann draws now, not Bob."
    state, _ = act(state, type="draw_item", card="dagger", player="Ann")


@pytest.mark.parametrize(
    "action, reason",
    [
        ({"type": "draw_item", "card": "dagger"}, "No item card is expected now"),
        ({"type": "draw_scroll", "scroll": "hex"}, "No scroll is expected now"),
        ({"type": "draw_token", "token": "orc"}, "No encounter token is expected now"),
    ],
)
def test_no_draw_nobody_waits_for(action, reason):
    """DT-TURN-2: a draw while Ann moves is refused, saying what she may do instead."""
    assert str(refused(two(), "DT-TURN-2", **action).reason) == f"{reason}; {MOVING}"


def test_only_a_drawn_token_is_resolved():
    """DT-ENC-4, DT-TURN-2: resolving is for the tokens drawn here, in the resolve phase; the
    Merchant gives an equipment item and the Enchanter a scroll, each one draw."""
    reason = refused(two(), "DT-TURN-2", type="resolve", player="Ann", token="merchant").reason
    assert str(reason) == f"Not now (resolve): {MOVING}"
    state, _ = act(two({"space": "rv-moor"}), type="stop", player="Ann")
    state = draw_tokens(state, "merchant", "enchanter")
    assert state["phase"] == "resolve"
    reason = refused(state, "DT-ENC-4", type="resolve", player="Ann", token="orc").reason
    assert str(reason) == "That token is not waiting to be resolved."
    merchant, events = act(state, type="resolve", player="Ann", token="merchant")
    assert events[0]["text"] == "Ann resolves Merchant: an equipment item."
    assert (
        GAME.awaited(merchant)["kind"] == "item" and GAME.awaited(merchant)["face"] == "equipment"
    )
    enchanter, events = act(state, type="resolve", player="Ann", token="enchanter")
    assert events[0]["text"] == "Ann resolves Enchanter: a scroll."
    assert GAME.chance(enchanter).rule == "DT-CARD-6"


def test_stopping_twice_and_turning_the_tower_twice_are_refused():
    """DT-TURN-2, DT-TIME-2: in her city Ann has already stopped; the tower turns exactly one
    step."""
    reason = refused(in_city(), "DT-TURN-2", type="stop", player="Ann").reason
    assert str(reason) == "Not now (stop): Ann: shop or work in the city, then end the turn."
    reason = refused(two(), "DT-TIME-2", type="end_turn", player="Ann", steps=2).reason
    assert str(reason) == "The tower turns exactly one step clockwise."


def test_a_mountain_is_not_stepped_over_without_a_way_to_cross():
    """DT-BORDER-2: the refusal says every way across a mountain and its price."""
    reason = refused(two(), "DT-BORDER-2", type="step", player="Ann", to="rv-moor").reason
    assert str(reason) == (
        "A mountain is a border: cross it by ability, magic item or scroll, for 2 XP, or with "
        "the whole movement from a space next to it (cross: ability, item, scroll, xp or whole)."
    )


def test_nothing_is_resolved_while_a_treasure_is_rolled():
    """DT-TURN-2, DT-REWARD-2: after beating the Orc, Ann rolls for its treasure first."""
    state = arrange(
        {"Ann": hero("topdeck", "rv-city", space="rv-moor"), "Bob": hero("lumpin", "th-city")},
        monsters={"rv-moor": ["orc"]},
    )
    state, _ = act(state, type="stop", player="Ann")
    state, _ = roll(state, 6, 6)
    reason = refused(state, "DT-TURN-2", type="resolve", player="Ann", token="orc").reason
    assert str(reason) == "Not now: Ann: roll a die for the Orc's treasure."
