"""Dork Tower: which scroll plays a hero is offered in each window of a fight (DT-AMB-27,
DT-COMBAT-2, DT-COMBAT-4, DT-COMBAT-8): a scroll playable at any time is offered both before the
fighter's own roll and in the rivals' window, never one of another window."""

from __future__ import annotations

from dt_support import GAME, act, refused, totals, two


def plays(state: dict, player: str) -> set[str]:
    return {
        a["scroll"]
        for a in GAME.legal_actions(state)
        if a["type"] == "play_scroll" and a["player"] == player
    }


def at_the_orc(ann_hand: list[str], bob_hand: list[str]) -> dict:
    state = two(
        {"space": "rv-moor", "scrolls": ann_hand},
        {"scrolls": bob_hand},
        monsters={"rv-moor": ["orc"]},
    )
    state, _ = act(state, type="stop", player="Ann")
    assert state["phase"] == "scrolls_own"
    return state


def test_an_any_time_scroll_is_offered_before_the_fighters_own_roll():
    """DT-AMB-27: before her own roll Ann is offered her own-pre-roll and her any-time scrolls
    (War Cry, Blessing, Dark Pact), not Hex (against rivals) nor Second Chance (after a roll);
    Blessing is accepted and counts."""
    state = at_the_orc(["hex", "second-chance", "war-cry", "blessing", "dark-pact"], [])
    assert plays(state, "Ann") == {"war-cry", "blessing", "dark-pact"}
    assert {"type": "done", "player": "Ann"} in GAME.legal_actions(state)
    before = totals(state)["scrolls"]
    state, _ = act(state, type="play_scroll", player="Ann", scroll="blessing")
    assert totals(state)["scrolls"] == before + 1
    assert plays(state, "Ann") == {"war-cry", "dark-pact"}


def test_an_any_time_scroll_is_offered_to_a_rival_with_his_pass():
    """DT-COMBAT-4, DT-AMB-27: in the rivals' window Bob is offered his pass, his scrolls
    against the fighter and his any-time scrolls, not his own-pre-roll Aegis; once he, the
    only rival, has passed, the roll is next and a play is refused."""
    state = at_the_orc(["war-cry"], ["aegis", "curse-of-weakness", "fools-luck", "blessing"])
    state, _ = act(state, type="done", player="Ann")
    assert state["phase"] == "scrolls_others"
    assert plays(state, "Bob") == {"curse-of-weakness", "blessing"}
    assert {"type": "pass", "player": "Bob"} in GAME.legal_actions(state)
    assert plays(state, "Ann") == set()
    state, _ = act(state, type="play_scroll", player="Bob", scroll="blessing")
    assert totals(state)["scrolls"] == 1
    passed, _ = act(state, type="pass", player="Bob")
    assert passed["phase"] == "pre_roll" and plays(passed, "Bob") == set()
    refused(passed, "DT-AMB-27", type="play_scroll", player="Bob", scroll="curse-of-weakness")
