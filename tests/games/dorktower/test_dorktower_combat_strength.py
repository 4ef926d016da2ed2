"""Dork Tower: combat arithmetic: the rulebook's example, strength and items, and scrolls in their
windows (spec sections 2.9, 2.10, 5; the roll, victory and rewards are in
``test_dorktower_combat_victory.py``).

Most positions put Ann (Topdeck, low level, strength 7) in Ravensteel Keep with monsters waiting
next door in Ravenwood: her first step ends there and the fight begins (DT-ENC-2). Bo plays
Lumpin Lightfingers in Thunderhawk. All names and numbers are the invented example data set's,
except those of the rulebook's own example (DT-EX-1).
"""

from __future__ import annotations

from typing import Any

import pytest
from dt_support import (
    DAGGER_AND_MAIL,
    GAME,
    act,
    ann,
    arrange,
    bo,
    fight,
    hero,
    hero_of,
    kinds,
    refused,
    roll,
    topdeck_example,
    totals,
    view,
)

# ----------------------------------------------------------------------------------------------
# DT-EX-1: the rulebook's example, row by row


def test_topdeck_alone_has_his_strength():
    """DT-EX-1 step 1, DT-COMBAT-1: low-level Topdeck without items starts from strength 7."""
    state = fight(["mummy", "orc-shaman"])
    t = totals(state)
    assert (t["strength"], t["items"], t["player"]) == (7, 0, 7)


def test_topdeck_example_totals_and_row():
    """DT-EX-1 steps 2-6, DT-COMBAT-1, DT-COMBAT-3, DT-COMBAT-5: dagger (+1) and chain mail (+3)
    in slots make 11; Mummy (8) and Orc Shaman (4) make 12; -1 is row "-1 or -2", target 8."""
    state = topdeck_example()
    t = totals(state)
    assert (t["strength"], t["items"], t["player"]) == (7, 4, 11)
    assert (t["scrolls"], t["against"]) == (0, 0)  # step 3: nobody plays a scroll
    assert (t["monster_strength"], t["monsters"]) == (12, 12)
    assert t["difference"] == -1
    assert (t["row"]["min"], t["row"]["max"], t["target"]) == (-2, -1, 8)
    assert state["phase"] == "pre_roll"
    assert GAME.awaited(state)["dice"] == 2


def test_topdeck_wins_on_eight():
    """DT-EX-1 step 7, DT-COMBAT-7, DT-REWARD-1, DT-COMBAT-9: 5+3 = 8 reaches the target: both
    monsters die, Topdeck takes the XP of both (4 + 2) and rolls one treasure die per token."""
    state = topdeck_example()
    won, events = roll(state, 5, 3)
    assert "victory" in kinds(events)
    assert hero_of(won)["xp"] == 6
    assert "rv-wood" not in won["monsters"]
    treasure = [p["token"] for p in won["pending"] if p.get("why") == "treasure"]
    assert treasure == ["mummy", "orc-shaman"]
    assert view(won)["last_combat"]["won"] is True


def test_topdeck_loses_on_seven():
    """DT-EX-1 step 7', DT-COMBAT-7, DT-DEFEAT-1: 4+3 = 7 is one short: the monsters win and he
    must re-roll (with a scroll), flee or die; nothing is gained."""
    state = topdeck_example(scrolls=["second-chance"])
    state, _ = act(state, type="done", player="Ann")
    lost, events = roll(state, 4, 3)
    assert "defeat" in kinds(events) and lost["phase"] == "defeat"
    choices = {(a["type"], a.get("scroll"), a.get("to")) for a in GAME.legal_actions(lost)}
    assert ("play_scroll", "second-chance", None) in choices
    assert {("flee", None, to) for to in GAME.flee_spaces(lost)} <= choices
    assert hero_of(lost)["xp"] == 0
    assert lost["monsters"]["rv-wood"] == ["mummy", "orc-shaman"]


@pytest.mark.parametrize(("die", "won"), [(2, True), (1, False)])
def test_topdeck_buys_a_six(die, won):
    """DT-EX-1 step 7'', DT-COMBAT-6: 4 XP before rolling make one die a 6; only the other die is
    rolled, and victory needs 2 or more on it."""
    state = topdeck_example(xp=4)
    state, events = act(state, type="buy_six", player="Ann")
    assert hero_of(state)["xp"] == 0 and "six_bought" in kinds(events)
    assert GAME.awaited(state)["dice"] == 1
    refused(state, "DT-COMP-9", type="roll", values=[3, 3])
    after, _ = roll(state, die)
    assert view(after)["last_combat"]["dice"] == [6, die]
    assert view(after)["last_combat"]["won"] is won
    assert after["phase"] == ("encounter" if won else "defeat")


# ----------------------------------------------------------------------------------------------
# DT-COMBAT-1: strength and items


def test_backpack_items_add_nothing():
    """DT-COMBAT-1, DT-CHAR-4: only items in slots count; the same dagger in the backpack adds
    nothing."""
    in_slot = fight(["orc"], {"items": [{"card": "dagger", "slot": 0}]})
    in_pack = fight(["orc"], {"items": [{"card": "dagger", "slot": "backpack"}]})
    assert totals(in_slot)["items"] == 1
    assert totals(in_pack)["items"] == 0


def test_a_bonus_against_a_kind_counts_once():
    """DT-COMBAT-1, DT-EX-8: the Dragon Lance's "+8 against dragons" adds 8 against two dragon
    tokens, not 16 (plus its regular +2)."""
    lance = {"items": [{"card": "spear", "face": "magic"}]}
    one = fight(["young-dragon"], lance)
    two = fight(["young-dragon", "young-dragon"], lance)
    assert totals(one)["items"] == 2 + 8
    assert totals(two)["items"] == 2 + 8
    assert totals(two)["monsters"] == 18


def test_a_bonus_against_a_kind_needs_that_kind():
    """DT-COMBAT-1: against monsters of other kinds the Dragon Lance gives its regular +2 only;
    one dragon among them is enough for its +8."""
    lance = {"items": [{"card": "spear", "face": "magic"}]}
    assert totals(fight(["orc", "troll"], lance))["items"] == 2
    assert totals(fight(["orc", "young-dragon"], lance))["items"] == 10


def test_two_items_against_the_same_kind_each_count_once():
    """DT-COMBAT-1: the rule is per bonus: the Dragon Lance (+2, +8 vs dragons) and the
    Dragon-Ward Shield (+2, +4 vs dragons) both count, each once, against two dragons."""
    items = {
        "items": [{"card": "spear", "face": "magic"}, {"card": "kite-shield", "face": "magic"}]
    }
    state = fight(["young-dragon", "young-dragon"], items)
    assert totals(state)["items"] == (2 + 8) + (2 + 4)


def test_armour_above_the_slot_max_is_refused():
    """DT-CHAR-3, DT-AMB-16, DT-COMBAT-1: Lumpin's armour slot is "Max +2": chain mail (+3) cannot
    go there (it waits in the backpack and adds nothing); leather armour (+1) can."""
    state = arrange(
        {
            "Bo": bo(
                items=[
                    {"card": "chain-mail", "slot": "backpack"},
                    {"card": "leather-armour", "slot": "backpack"},
                ]
            ),
            "Ann": ann(),
        },
        first="Bo",
    )
    refused(state, "DT-CHAR-3", type="equip", player="Bo", card="chain-mail", slot=1)
    state, _ = act(state, type="equip", player="Bo", card="leather-armour", slot=1)
    assert hero_of(state, "Bo")["slots"][1]["card"] == "leather-armour"


def test_slot_max_cap_option():
    """DT-AMB-16, DT-COMBAT-1: with ``slot_max: cap`` Lumpin may wear Dragon Scale (+4, +4 vs
    dragons) in his Max +2 slot, its regular bonus capped at 2; the bonus against dragons is not
    capped unless ``slot_max_special`` says so."""

    def lumpin_vs_dragon(**options: Any) -> dict[str, Any]:
        state = arrange(
            {"Bo": bo(items=[{"card": "plate-armour", "face": "magic", "slot": 1}]), "Ann": ann()},
            monsters={"th-ridge": ["young-dragon"]},
            first="Bo",
            options=options,
        )
        state, _ = act(state, type="step", player="Bo", to="th-ridge")
        state, _ = act(state, type="stop", player="Bo")  # Lumpin walks past monsters; he stops
        return state

    assert totals(lumpin_vs_dragon(slot_max="cap"))["items"] == 2 + 4
    assert totals(lumpin_vs_dragon(slot_max="cap", slot_max_special=True))["items"] == 2 + 2


def test_monster_strengths_add_up():
    """DT-COMBAT-3: the monsters' strengths printed on the tokens are summed, repeats included."""
    state = fight(["goblin", "goblin", "orc", "troll"])
    assert totals(state)["monsters"] == 2 + 2 + 3 + 6


# ----------------------------------------------------------------------------------------------
# DT-COMBAT-2, -4, -8, DT-CARD-7: scrolls in their windows


def test_own_scrolls_add_to_the_fighter():
    """DT-COMBAT-2: Ann plays Strength of Ten (+2) before her roll: 11 becomes 13; the scroll
    leaves her hand."""
    state = topdeck_example(scrolls=["strength-of-ten", "war-cry"])
    assert state["phase"] == "scrolls_own"
    state, events = act(state, type="play_scroll", player="Ann", scroll="strength-of-ten")
    assert "scroll_played" in kinds(events)
    assert totals(state)["scrolls"] == 2 and totals(state)["player"] == 13
    assert [x["scroll"] for x in hero_of(state)["scrolls"]] == ["war-cry"]
    state, _ = act(state, type="play_scroll", player="Ann", scroll="war-cry")
    assert totals(state)["player"] == 14
    assert state["phase"] == "pre_roll"  # her hand is empty and Bo holds no scroll


def test_rivals_scrolls_add_to_the_monsters():
    """DT-COMBAT-4: after Ann is done, the others play scrolls against her or pass: Bo's Hex (+1)
    and Cy's Summon Shadows (+3) raise the monsters from 12 to 16; then the roll is awaited."""
    state = arrange(
        {
            "Ann": ann(items=DAGGER_AND_MAIL),
            "Bo": bo(scrolls=["hex"]),
            "Cy": hero("brannock", "cd-city", scrolls=["summon-shadows"]),
        },
        monsters={"rv-wood": ["mummy", "orc-shaman"]},
    )
    state, _ = act(state, type="step", player="Ann", to="rv-wood")
    assert state["phase"] == "scrolls_others"  # Ann holds none: her window is skipped
    state, _ = act(state, type="play_scroll", player="Bo", scroll="hex")
    state, _ = act(state, type="play_scroll", player="Cy", scroll="summon-shadows")
    t = totals(state)
    assert (t["against"], t["monsters"], t["difference"], t["target"]) == (4, 16, -5, 10)
    assert state["phase"] == "pre_roll" and GAME.awaited(state)["dice"] == 2


def test_a_rival_scroll_reopens_the_others_window():
    """DT-COMBAT-4: each other player passes or plays; a scroll played against the fighter lets
    those who passed answer again."""
    state = arrange(
        {
            "Ann": ann(),
            "Bo": bo(scrolls=["hex"]),
            "Cy": hero("brannock", "cd-city", scrolls=["curse-of-weakness"]),
        },
        monsters={"rv-wood": ["orc"]},
    )
    state, _ = act(state, type="step", player="Ann", to="rv-wood")
    state, _ = act(state, type="pass", player="Bo")
    refused(state, "DT-COMBAT-4", type="pass", player="Bo")
    refused(state, "DT-COMBAT-4", type="play_scroll", player="Bo", scroll="hex")
    state, _ = act(state, type="play_scroll", player="Cy", scroll="curse-of-weakness")
    assert state["phase"] == "scrolls_others"
    state, _ = act(state, type="play_scroll", player="Bo", scroll="hex")
    assert state["phase"] == "pre_roll"
    assert totals(state)["against"] == 3


def test_scrolls_are_played_in_their_windows():
    """DT-COMBAT-2, DT-COMBAT-4, DT-AMB-27: the fighter plays his own-pre-roll scrolls, the others
    their opponent scrolls, each in its own window; an "any" scroll suits both."""
    bo_hand = ["strength-of-ten", "curse-of-weakness", "dark-pact"]
    state = fight(
        ["mummy", "orc-shaman"],
        {"items": DAGGER_AND_MAIL, "scrolls": ["hex", "blessing"]},
        {"scrolls": bo_hand},
    )
    refused(state, "DT-AMB-27", type="play_scroll", player="Ann", scroll="hex")
    refused(state, "DT-AMB-27", type="play_scroll", player="Bo", scroll="curse-of-weakness")
    state, _ = act(state, type="play_scroll", player="Ann", scroll="blessing")
    state, _ = act(state, type="done", player="Ann")
    refused(state, "DT-AMB-27", type="play_scroll", player="Bo", scroll="strength-of-ten")
    refused(state, "DT-AMB-27", type="play_scroll", player="Ann", scroll="hex")
    state, _ = act(state, type="play_scroll", player="Bo", scroll="curse-of-weakness")
    state, _ = act(state, type="play_scroll", player="Bo", scroll="dark-pact")
    t = totals(state)
    assert (t["scrolls"], t["against"]) == (1, 4)


def test_after_roll_scrolls_wait_for_a_failed_roll():
    """DT-COMBAT-8, DT-DEFEAT-2: a re-roll or change-a-die scroll is not played before the roll;
    after a failed roll Fortune's Favour turns a die into 6 and turns defeat into victory."""
    state = topdeck_example(scrolls=["fortunes-favour"])
    refused(state, "DT-COMBAT-8", type="play_scroll", player="Ann", scroll="fortunes-favour")
    state, _ = act(state, type="done", player="Ann")
    lost, _ = roll(state, 1, 3)
    refused(lost, "DT-COMBAT-8", type="play_scroll", player="Ann", scroll="fortunes-favour", die=5)
    won, events = act(lost, type="play_scroll", player="Ann", scroll="fortunes-favour", die=0)
    assert "victory" in kinds(events)
    assert view(won)["last_combat"]["dice"] == [6, 3]


def test_a_scroll_can_be_taken_back_until_another_is_played():
    """DT-CARD-7, DT-COMBAT-2: Ann takes back Strength of Ten (the totals and her hand are as
    before); once Bo has played Hex after her scroll, hers cannot come back."""
    state = fight(
        ["mummy", "orc-shaman"],
        {"items": DAGGER_AND_MAIL, "scrolls": ["strength-of-ten"]},
        {"scrolls": ["hex"]},
    )
    played, _ = act(state, type="play_scroll", player="Ann", scroll="strength-of-ten")
    back, events = act(played, type="take_back", player="Ann")  # nobody else has played
    assert "scroll_taken_back" in kinds(events)
    assert totals(back)["player"] == 11 and back["heroes"][0]["scrolls"] == ["strength-of-ten"]
    assert played["phase"] == "scrolls_others"  # her hand is empty: her window closed
    hexed, _ = act(played, type="play_scroll", player="Bo", scroll="hex")
    refused(hexed, "DT-CARD-7", type="take_back", player="Ann")
    bo_back, _ = act(hexed, type="take_back", player="Bo")
    assert totals(bo_back)["against"] == 0


def test_nothing_is_taken_back_after_the_roll():
    """DT-CARD-7, DT-COMBAT-7: once the dice are rolled the scrolls played stay played."""
    state = topdeck_example(scrolls=["strength-of-ten", "second-chance"])
    state, _ = act(state, type="play_scroll", player="Ann", scroll="strength-of-ten")
    state, _ = act(state, type="done", player="Ann")
    lost, _ = roll(state, 1, 1)
    refused(lost, "DT-CARD-7", type="take_back", player="Ann")
