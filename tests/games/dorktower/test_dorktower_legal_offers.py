"""Dork Tower: what ``legal_actions`` offers (the choices a page shows): every rival's pass and
plays in the rivals' window, a monster-removing scroll once per monster, the city business, and
levelling up from exactly 10 XP (DT-COMBAT-4, DT-COMBAT-9, DT-CITY-1, DT-LVL-1)."""

from __future__ import annotations

from dt_support import GAME, act, arrange, hero, in_city, two


def test_every_rival_with_scrolls_is_offered_his_pass_and_plays():
    """DT-COMBAT-4: Ann has not a scroll, so her window closes; Bob and Cid are each offered
    their pass and their scrolls that suit the rivals' window, in seat order."""
    state = arrange(
        {
            "Ann": hero("topdeck", "rv-city", space="rv-moor"),
            "Bob": hero("lumpin", "th-city", scrolls=["hex"]),
            "Cid": hero("grimnir", "cd-city", scrolls=["dark-pact"]),
        },
        monsters={"rv-moor": ["orc", "goblin"]},
    )
    state, _ = act(state, type="stop", player="Ann")
    assert state["phase"] == "scrolls_others"
    assert GAME.legal_actions(state) == [
        {"type": "pass", "player": "Bob"},
        {"type": "play_scroll", "player": "Bob", "scroll": "hex"},
        {"type": "pass", "player": "Cid"},
        {"type": "play_scroll", "player": "Cid", "scroll": "dark-pact"},
    ]


def test_a_removing_scroll_is_offered_once_per_monster():
    """DT-COMBAT-9: Banishment against an Orc and a Goblin: one play naming each."""
    state = arrange(
        {
            "Ann": hero("topdeck", "rv-city", space="rv-moor", scrolls=["banishment"]),
            "Bob": hero("lumpin", "th-city"),
        },
        monsters={"rv-moor": ["orc", "goblin"]},
    )
    state, _ = act(state, type="stop", player="Ann")
    base = {"type": "play_scroll", "player": "Ann", "scroll": "banishment"}
    assert GAME.legal_actions(state) == [
        {"type": "done", "player": "Ann"},
        base | {"token": "goblin"},
        base | {"token": "orc"},
    ]


def test_the_city_business_is_offered_to_the_visitor():
    """DT-CITY-1, DT-CITY-5: in her city Ann may work, shop, buy a scroll, finish or end her
    turn."""
    offered = GAME.legal_actions(in_city())
    for kind in ("work", "shop", "buy_scroll", "done", "end_turn"):
        assert {"type": kind, "player": "Ann"} in offered


def test_levelling_up_is_offered_from_exactly_ten_xp():
    """DT-LVL-1: 10 XP buy the high level; 9 do not."""
    assert {"type": "level_up", "player": "Ann"} in GAME.legal_actions(two({"xp": 10}))
    assert {"type": "level_up", "player": "Ann"} not in GAME.legal_actions(two({"xp": 9}))
