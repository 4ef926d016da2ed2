"""Dork Tower: Z'Mindrik's summons are drawn by the hero who attacks, whatever his seat, and a
friendly token ignored is drawn again under the same rule (DT-WIZ-1, DT-WIZ-2, DT-COMBAT-7)."""

from __future__ import annotations

from dt_support import GAME, act, ann, arrange, bo, draw_tokens, kinds


def attacking() -> dict:
    """Ann, in the second seat and first to play, enters the tower from Howling Waste's
    Shadowland (the door at tower step 0)."""
    state = arrange({"Bo": bo(), "Ann": ann(space="hw-shadow")}, first="Ann")
    assert state["active"] == 1
    state, events = act(state, type="enter_tower", player="Ann")
    assert "tower_entered" in kinds(events)
    return state


def test_the_attacker_draws_the_five_summons():
    """DT-WIZ-1: five tokens, each drawn by Ann for Z'Mindrik."""
    state = attacking()
    chance = GAME.chance(state)
    assert (chance.kind, chance.rule, chance.player) == ("draw", "DT-WIZ-1", "Ann")
    assert GAME.awaited(state) == {"kind": "token", "player": "Ann", "why": "wizard", "left": 5}


def test_a_friendly_token_is_drawn_again_by_the_attacker_under_the_wizards_rule():
    """DT-WIZ-2: after the Merchant (friendly, ignored) the next draw is again Ann's, cited as
    DT-WIZ-1, and five draws are still awaited; after the fifth monster Ann rolls the fight."""
    state = attacking()
    state, events = act(state, type="draw_token", token="merchant")
    drawn = next(e for e in events if e["type"] == "token_drawn")
    assert (drawn["token"], drawn["ignored"]) == ("merchant", True)
    chance = GAME.chance(state)
    assert (chance.kind, chance.rule, chance.player) == ("draw", "DT-WIZ-1", "Ann")
    assert GAME.awaited(state) == {"kind": "token", "player": "Ann", "why": "wizard", "left": 5}
    assert state["encounter"]["aside"] == ["merchant"]
    state = draw_tokens(state, "goblin", "orc", "wolf", "bandit", "skeleton")
    assert state["encounter"]["drawn"] == ["goblin", "orc", "wolf", "bandit", "skeleton"]
    assert state["phase"] == "pre_roll"  # nobody holds a scroll: straight to the roll
    chance = GAME.chance(state)
    assert (chance.kind, chance.rule, chance.player, chance.dice) == (
        "die",
        "DT-COMBAT-7",
        "Ann",
        2,
    )


def test_tombs_among_the_summons_draw_more_for_the_wizard():
    """DT-WIZ-3: Tombs resolved in Z'Mindrik's summons draw two more tokens, still his: drawn
    by Ann under DT-WIZ-1."""
    state = draw_tokens(attacking(), "tombs", "goblin", "orc", "wolf", "bandit")
    assert state["phase"] == "resolve"
    state, _ = act(state, type="resolve", player="Ann", token="tombs")
    assert GAME.awaited(state) == {"kind": "token", "player": "Ann", "why": "wizard", "left": 2}
    chance = GAME.chance(state)
    assert (chance.kind, chance.rule, chance.player) == ("draw", "DT-WIZ-1", "Ann")
