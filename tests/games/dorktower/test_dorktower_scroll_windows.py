"""Dork Tower's scroll windows in a fight (``rules/windows.py``, docs/playing.md "Scroll
windows"): the rivals' window after a winning roll (DT-COMBAT-8, DT-WIZ-4), the same fair closing
for both rivals' windows (every rival passed, or the table's countdown: ``close_window``), and a
scroll played against the fighter opening the window again (DT-COMBAT-4, DT-CARD-7)."""

from __future__ import annotations

import copy

from dt_support import (
    DAGGER_AND_MAIL,
    GAME,
    act,
    ann,
    arrange,
    bo,
    hero,
    kinds,
    refused,
    roll,
    view,
)

from companion.games.dorktower.rules import DorkTower
from companion.rules import Accepted


def three(
    bo_scrolls: list[str],
    cid_scrolls: list[str],
    monsters: tuple[str, ...] = ("mummy",),
    options: dict | None = None,
    **ann_more,
) -> dict:
    """Ann (Topdeck, 11 with a dagger and chain mail) steps into Ravenwood against
    ``monsters`` (the Mummy alone: 11 against 8, she needs 5); Bo and Cid hold those scrolls."""
    state = arrange(
        {
            "Ann": ann(items=DAGGER_AND_MAIL, **ann_more),
            "Bo": bo(scrolls=bo_scrolls),
            "Cid": hero("grimnir", "sm-city", scrolls=cid_scrolls),
        },
        monsters={"rv-wood": list(monsters)},
        options=options or {},
    )
    state, _ = act(state, type="step", player="Ann", to="rv-wood")
    return state


def to_the_roll(state: dict) -> dict:
    """Both rivals pass before the roll (those holding a scroll)."""
    for name in ("Bo", "Cid"):
        if state["phase"] == "scrolls_others" and view(state)["players"][name]["scroll_count"]:
            state, _ = act(state, type="pass", player=name)
    assert state["phase"] == "pre_roll"
    return state


def legal_of(state: dict, name: str) -> list[dict]:
    return [a for a in GAME.legal_actions(state) if a.get("player") == name]


def test_a_rival_turns_a_winning_die_to_one():
    """DT-WIZ-4, DT-COMBAT-8: 3+2 reaches the 5 Ann needs; the rivals' after-roll window opens
    (it is not yet a victory), and Bo's Twist of Fate turns the 3 into a 1: 3 misses, a defeat."""
    state = to_the_roll(three(["twist-of-fate"], ["hex"]))
    state, events = roll(state, 3, 2)
    assert state["phase"] == "scrolls_after"
    assert kinds(events)[-1] == "roll_answerable" and "victory" not in kinds(events)
    assert state["last_combat"]["won"] and state["combat"] is not None
    assert view(state)["waiting_for"] == ["Bo", "Cid"]
    state, events = act(state, type="play_scroll", player="Bo", scroll="twist-of-fate", die=0)
    assert [d["value"] for d in state["combat"]["dice"]] == [1, 2]
    assert kinds(events) == ["scroll_played", "defeat"]
    assert state["phase"] == "defeat" and not state["last_combat"]["won"]


def test_legal_actions_in_the_after_roll_window():
    """DT-COMBAT-8, DT-AMB-27: after the roll each rival may pass; only Bo, whose scroll acts on
    the dice, is offered it, once per rolled die; Cid's Hex acts before a roll only."""
    state = to_the_roll(three(["twist-of-fate"], ["hex"]))
    state, _ = roll(state, 3, 2)
    assert legal_of(state, "Bo") == [
        {"type": "pass", "player": "Bo"},
        {"type": "play_scroll", "player": "Bo", "scroll": "twist-of-fate", "die": 0},
        {"type": "play_scroll", "player": "Bo", "scroll": "twist-of-fate", "die": 1},
    ]
    assert legal_of(state, "Cid") == [{"type": "pass", "player": "Cid"}]
    assert legal_of(state, "Ann") == []
    refused(state, "DT-AMB-27", type="play_scroll", player="Cid", scroll="hex")
    refused(state, "DT-COMBAT-8", type="play_scroll", player="Bo", scroll="twist-of-fate", die=2)
    refused(state, "DT-COMBAT-4", type="pass", player="Ann")
    refused(state, "DT-AMB-15", type="level_up", player="Ann")


def test_a_rival_rerolls_a_winning_roll():
    """DT-WIZ-4, DT-COMBAT-8, DT-COMBAT-6: Ann bought one die as a six and rolled a 2 (8 wins);
    Bo's Rewind makes her roll again the die that was not bought: one die is awaited, the six
    stays, and 6+1 = 7 still wins; Bo holds nothing more, Cid passes: victory."""
    state = three(["rewind"], ["hex"], xp=4)
    state = to_the_roll(state)
    state, _ = act(state, type="buy_six", player="Ann")
    state, _ = roll(state, 2)
    assert state["phase"] == "scrolls_after"
    state, _ = act(state, type="play_scroll", player="Bo", scroll="rewind")
    assert state["phase"] == "pre_roll" and state["combat"]["dice"] is None
    assert GAME.chance(state).dice == 1
    refused(state, "DT-COMBAT-6", type="buy_six", player="Ann")
    state, events = roll(state, 1)
    assert state["phase"] == "scrolls_after" and kinds(events)[-1] == "roll_answerable"
    assert view(state)["waiting_for"] == ["Cid"]  # Bo has no scroll left
    state, events = act(state, type="pass", player="Cid")
    assert "victory" in kinds(events) and "monsters_killed" in kinds(events)
    assert state["combat"] is None and state["last_combat"]["dice"] == [6, 1]


def test_every_rival_passing_lets_the_roll_stand():
    """DT-COMBAT-4, DT-COMBAT-8: a rival holding no playable scroll may pass too; once every
    rival holding a scroll has passed, the roll stands: victory. Nobody passes twice."""
    state = to_the_roll(three(["twist-of-fate"], ["hex"]))
    state, _ = roll(state, 4, 4)
    state, events = act(state, type="pass", player="Cid")
    assert state["phase"] == "scrolls_after" and events == []
    refused(state, "DT-COMBAT-4", type="pass", player="Cid")
    refused(state, "DT-COMBAT-4", type="play_scroll", player="Cid", scroll="hex")
    state, events = act(state, type="pass", player="Bo")
    assert kinds(events)[:2] == ["victory", "monsters_killed"]
    assert state["phase"] == "encounter" and state["heroes"][0]["xp"] == 4


def test_close_window_ends_either_rivals_window():
    """DT-COMBAT-4, DT-COMBAT-8: the table's countdown ends a rivals' window as if every rival
    had passed: before the roll the dice are awaited, after it the roll stands. Elsewhere it is
    refused and changes nothing."""
    state = three(["twist-of-fate"], ["hex"])
    assert state["phase"] == "scrolls_others"
    state, events = act(state, type="close_window")
    assert kinds(events) == ["window_closed"] and state["phase"] == "pre_roll"
    assert GAME.chance(state).dice == 2
    refused(state, "DT-COMBAT-4", type="close_window")
    state, _ = roll(state, 5, 5)
    state, events = act(state, type="close_window")
    assert kinds(events)[:3] == ["window_closed", "victory", "monsters_killed"]
    refused(state, "DT-COMBAT-4", type="close_window")


def test_a_scroll_against_the_fighter_opens_the_window_again():
    """DT-COMBAT-4, DT-CARD-7: before the roll Bo passes, then Cid plays Hex: everyone may
    answer again (Bo is asked anew), and the countdown starts again (a new key); a pass does not
    restart it. After the roll a die changed that still wins opens the window again too."""
    state = three(["ill-omen", "curse-of-weakness"], ["hex", "twist-of-fate"])
    first = GAME.deadline(state)
    state, _ = act(state, type="pass", player="Bo")
    assert GAME.deadline(state) == first and state["combat"]["passed"] == [1]
    state, _ = act(state, type="play_scroll", player="Cid", scroll="hex")
    assert state["combat"]["passed"] == [] and state["phase"] == "scrolls_others"
    assert GAME.deadline(state)["key"] != first["key"]
    assert view(state)["waiting_for"] == ["Bo", "Cid"]
    state, _ = act(state, type="pass", player="Bo")
    state, _ = act(state, type="pass", player="Cid")
    # 11 against 8 + 1: target 6; 6+6 wins, a die turned to 1 leaves 7: it still wins
    state, _ = roll(state, 6, 6)
    before = GAME.deadline(state)
    state, _ = act(state, type="pass", player="Bo")
    state, events = act(state, type="play_scroll", player="Cid", scroll="twist-of-fate", die=1)
    assert kinds(events) == ["scroll_played", "roll_answerable"]
    assert state["phase"] == "scrolls_after" and state["combat"]["passed"] == []
    assert GAME.deadline(state)["key"] != before["key"]
    assert state["last_combat"]["dice"] == [6, 1]


def test_scrolls_act_in_the_order_played():
    """DT-CARD-7, DT-WIZ-4: Cid's re-roll acts first (new dice 4+4), then Bo's Twist of Fate
    acts on the new dice, not on the old ones."""
    state = to_the_roll(three(["twist-of-fate"], ["rewind"]))
    state, _ = roll(state, 6, 6)
    state, _ = act(state, type="play_scroll", player="Cid", scroll="rewind")
    state, _ = roll(state, 4, 4)
    state, events = act(state, type="play_scroll", player="Bo", scroll="twist-of-fate", die=0)
    assert state["last_combat"]["dice"] == [1, 4] and state["last_combat"]["won"]
    assert state["phase"] == "encounter" and "victory" in kinds(events)  # nobody holds more


def test_no_after_window_when_nobody_can_answer():
    """DT-COMBAT-7, DT-AMB-30: the window opens by public facts only: no rival holds a scroll,
    both dice were bought as sixes, or the data set has no scroll rivals play after a roll, and
    the winning roll is a victory at once."""
    state = to_the_roll(three([], []))
    _, events = roll(state, 3, 2)
    assert "victory" in kinds(events)
    state = to_the_roll(three(["hex"], [], xp=8))
    state, _ = act(state, type="buy_six", player="Ann")
    _, events = act(state, type="buy_six", player="Ann")
    assert "victory" in kinds(events)
    data = copy.deepcopy(GAME.datasets["example"])
    for scroll in data["scrolls"].values():
        if scroll["by"] != "fighter" and scroll["when"] in ("after_roll", "any"):
            scroll["by"] = "fighter"
    game = DorkTower({"example": data})
    state = game.new(
        ["Ann", "Bo", "Cid"],
        {"scenario": _scenario(["twist-of-fate"])},
        seed=7,
    )
    state = game.apply(state, {"type": "step", "player": "Ann", "to": "rv-wood"}).state
    state = game.apply(state, {"type": "pass", "player": "Bo"}).state
    result = game.apply(state, {"type": "roll", "values": [3, 2]})
    assert isinstance(result, Accepted) and "victory" in [e["type"] for e in result.events]


def _scenario(bo_scrolls: list[str]) -> dict:
    return {
        "heroes": {
            "Ann": ann(items=DAGGER_AND_MAIL),
            "Bo": bo(scrolls=bo_scrolls),
            "Cid": hero("grimnir", "sm-city"),
        },
        "monsters": {"rv-wood": ["mummy"]},
    }


def test_the_countdown_is_the_rivals_windows_alone():
    """DT-COMBAT-4, DT-AMB-27: the deadline names the close_window action and the option's
    seconds in both rivals' windows, nothing in the fighter's own windows or between; the option
    0 waits for every pass (no deadline)."""
    state = three(["hex"], [], scrolls=["blessing"])
    assert state["phase"] == "scrolls_own" and GAME.deadline(state) is None
    assert {"type": "play_scroll", "player": "Ann", "scroll": "blessing"} in legal_of(state, "Ann")
    state, _ = act(state, type="done", player="Ann")
    assert GAME.deadline(state) == {
        "key": GAME.deadline(state)["key"],
        "seconds": 8,
        "action": {"type": "close_window"},
    }
    state, _ = act(state, type="pass", player="Bo")
    assert GAME.deadline(state) is None  # pre_roll
    state, _ = roll(state, 3, 2)
    assert state["phase"] == "scrolls_after" and GAME.deadline(state)["seconds"] == 8
    state, _ = act(state, type="pass", player="Bo")
    assert GAME.deadline(state) is None
    waiting = three(["hex"], [], options={"scroll_window_seconds": 0})
    assert waiting["phase"] == "scrolls_others" and GAME.deadline(waiting) is None
    quick = three(["hex"], [], options={"scroll_window_seconds": 3})
    assert GAME.deadline(quick)["seconds"] == 3
