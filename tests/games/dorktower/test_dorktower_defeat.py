"""Dork Tower: defeat, fleeing, death and monster groups (spec sections 2.10, 2.11, 2.15, 5 and 6,
with ``test_dorktower_quest_wizard.py``).

Ann plays Topdeck (strength 7, no ability) unless a test needs someone else; Bo plays Lumpin
Lightfingers, who walks past monsters. Names and numbers are the invented example data set's.
Every position starts at tower step 0: the door faces Howling Waste (hw), and the wedges rv, hw,
th and cd are in night, sm, mf, bh and iv in day.
"""

from __future__ import annotations

from typing import Any

from dt_support import (
    GAME,
    act,
    ann,
    arrange,
    bo,
    draw_tokens,
    hero,
    hero_of,
    kinds,
    refused,
    roll,
    totals,
    view,
)


def lost_fight(
    where: str,
    monsters: list[str],
    ann_hero: dict | None = None,
    neighbours: dict[str, list[str]] | None = None,
    scrolls: list[str] | None = None,
    **scenario: Any,
) -> dict[str, Any]:
    """Ann starts her turn on ``where`` with ``monsters``, stays to fight them (DT-MOVE-7) and
    rolls 1+1: defeat. ``neighbours`` puts other monsters around."""
    me = ann_hero or ann(space=where)
    if scrolls:
        me = {**me, "scrolls": scrolls}
    state = arrange(
        {"Ann": me, "Bo": bo()}, monsters={where: monsters, **(neighbours or {})}, **scenario
    )
    state, _ = act(state, type="stop", player="Ann")
    if state["phase"] == "scrolls_own":
        state, _ = act(state, type="done", player="Ann")
    state, _ = roll(state, 1, 1)
    assert state["phase"] == "defeat"
    return state


# ----------------------------------------------------------------------------------------------
# DT-DEFEAT: re-roll, flee or die


def test_a_failed_roll_offers_reroll_flee_or_die():
    """DT-DEFEAT-1, DT-DEFEAT-2, DT-DEFEAT-3: beaten in Ravenwood, Ann holding Second Chance may
    re-roll by it or flee to a next space; nothing else is on offer."""
    state = lost_fight("rv-wood", ["ogre"], scrolls=["second-chance"])
    offered = {(a["type"], a.get("to") or a.get("scroll")) for a in GAME.legal_actions(state)}
    assert offered == {
        ("play_scroll", "second-chance"),
        ("flee", "rv-city"),
        ("flee", "rv-port"),
        ("flee", "iv-ford"),
    }
    refused(state, "DT-TURN-2", type="stop", player="Ann")
    refused(state, "DT-TURN-2", type="end_turn", player="Ann")


def test_a_reroll_scroll_rolls_both_dice_again():
    """DT-DEFEAT-2, DT-COMBAT-8: Second Chance after the failed roll: two dice are awaited again,
    and this time 6+5 wins."""
    state = lost_fight("rv-wood", ["ogre"], scrolls=["second-chance"])
    state, _ = act(state, type="play_scroll", player="Ann", scroll="second-chance")
    assert state["phase"] == "pre_roll" and GAME.awaited(state)["dice"] == 2
    assert hero_of(state)["scroll_count"] == 0
    won, events = roll(state, 6, 5)
    assert "victory" in kinds(events) and hero_of(won)["xp"] == 3


def test_flee_into_a_next_space_without_monsters():
    """DT-DEFEAT-3: from Ravenwood Ann may flee to Ravensteel Harbour or Stony Ford, not into
    Ravensteel Keep where monsters are, nor to a space that is not next to Ravenwood."""
    state = lost_fight(
        "rv-wood", ["ogre"], neighbours={"rv-city": ["goblin"]}, ann_hero=ann(space="rv-wood")
    )
    assert GAME.flee_spaces(state) == ["iv-ford", "rv-port"]
    refused(state, "DT-DEFEAT-3", type="flee", player="Ann", to="rv-city")
    refused(state, "DT-DEFEAT-3", type="flee", player="Ann", to="rv-mere")
    fled, events = act(state, type="flee", player="Ann", to="iv-ford")
    assert "fled" in kinds(events) and hero_of(fled)["space"] == "iv-ford"


def test_no_flee_across_a_lake_and_then_death():
    """DT-EX-9, DT-DEFEAT-3, DT-DEFEAT-5: Adder Hollow (a forest) has two neighbours: Weeping
    Willows holds monsters, Lantern Marsh lies across a lake. Topdeck cannot cross lakes: with no
    re-roll scroll he dies."""
    state = lost_fight(
        "mf-hollow",
        ["troll"],
        ann_hero=hero("topdeck", "bh-city", space="mf-hollow"),
        neighbours={"mf-willows": ["ogre"]},
    )
    assert GAME.flee_spaces(state) == []
    refused(state, "DT-DEFEAT-3", type="flee", player="Ann", to="mf-marsh")
    refused(state, "DT-DEFEAT-3", type="flee", player="Ann", to="mf-willows")
    assert [a["type"] for a in GAME.legal_actions(state)] == ["die"]
    dead, events = act(state, type="die", player="Ann")
    assert "died" in kinds(events) and hero_of(dead)["space"] == "bh-city"


def test_a_hero_who_habitually_crosses_lakes_flees_across_one():
    """DT-DEFEAT-3, DT-AMB-11: Mirella of the Waves crosses lakes by her ability: from the same
    Adder Hollow she flees across the lake to Lantern Marsh, so she may not die."""
    state = lost_fight(
        "mf-hollow",
        ["troll"],
        ann_hero=hero("mirella", "bh-city", space="mf-hollow"),
        neighbours={"mf-willows": ["ogre"]},
    )
    assert GAME.flee_spaces(state) == ["mf-marsh"]
    refused(state, "DT-DEFEAT-5", type="die", player="Ann")
    fled, _ = act(state, type="flee", player="Ann", to="mf-marsh")
    assert hero_of(fled)["space"] == "mf-marsh"


MOOR_BLOCKED = {"rv-shadow": ["goblin"], "rv-crypt": ["wolf"], "iv-forge": ["bandit"]}


def test_mountains_block_fleeing_by_default():
    """DT-AMB-11, DT-DEFEAT-3: from Ravensteel Moor the only free neighbour, Ravensteel Keep, is
    across a mountain: Topdeck cannot flee there, not even for 2 XP, and so he dies."""
    state = lost_fight(
        "rv-moor", ["ogre"], ann_hero=ann(space="rv-moor", xp=9), neighbours=MOOR_BLOCKED
    )
    assert GAME.flee_spaces(state) == []
    refused(state, "DT-DEFEAT-3", type="flee", player="Ann", to="rv-city")
    refused(state, "DT-DEFEAT-3", type="flee", player="Ann", to="rv-city", cross="xp")
    state, _ = act(state, type="die", player="Ann")
    assert hero_of(state)["xp"] == 9


def test_mountains_yield_to_the_option_or_an_ability():
    """DT-AMB-11, DT-DEFEAT-3: with ``flee_across_mountains`` Topdeck flees over the mountain to
    Ravensteel Keep; Grimnir, who crosses mountains by his ability, does so anyway."""
    option = lost_fight(
        "rv-moor",
        ["ogre"],
        ann_hero=ann(space="rv-moor"),
        neighbours=MOOR_BLOCKED,
        options={"flee_across_mountains": True},
    )
    assert GAME.flee_spaces(option) == ["rv-city"]
    dwarf = lost_fight(
        "rv-moor",
        ["ogre"],
        ann_hero=hero("grimnir", "rv-city", space="rv-moor"),
        neighbours=MOOR_BLOCKED,
    )
    assert GAME.flee_spaces(dwarf) == ["rv-city"]
    fled, _ = act(dwarf, type="flee", player="Ann", to="rv-city")
    assert hero_of(fled)["space"] == "rv-city"


def test_no_flee_from_a_dungeon():
    """DT-SPACE-8, DT-DEFEAT-3: beaten in the Crypt of Ravens (a dungeon) Ann cannot flee to
    its free neighbours: she dies."""
    state = lost_fight("rv-crypt", ["troll"], ann_hero=ann(space="rv-crypt"))
    assert GAME.flee_spaces(state) == []
    refused(state, "DT-SPACE-8", type="flee", player="Ann", to="rv-moor")
    state, events = act(state, type="die", player="Ann")
    assert "died" in kinds(events)
    assert state["monsters"]["rv-crypt"] == ["troll"]


def test_fleeing_ends_the_turn():
    """DT-DEFEAT-4, DT-AMB-13: Ann flees into Ravensteel Harbour, a city: no city business there,
    no more movement, only the end of the turn."""
    state = lost_fight("rv-wood", ["ogre"], ann_hero=ann(space="rv-wood"))
    state, _ = act(state, type="flee", player="Ann", to="rv-port")
    assert state["phase"] == "cleanup" and state["encounter"] is None
    refused(state, "DT-DEFEAT-4", type="shop", player="Ann")
    refused(state, "DT-DEFEAT-4", type="work", player="Ann")
    refused(state, "DT-DEFEAT-4", type="step", player="Ann", to="rv-wood")
    state, events = act(state, type="end_turn", player="Ann")
    assert "tower_turned" in kinds(events) and view(state)["active"] == "Bo"


def test_fleeing_onto_a_quest_completes_nothing():
    """DT-DEFEAT-4: Ann flees into Stony Ford, where a quest token lies: no encounter is drawn,
    the quest stays where it is."""
    state = lost_fight(
        "rv-wood", ["ogre"], ann_hero=ann(space="rv-wood"), quests=["iv-ford", "mf-reeds"]
    )
    state, _ = act(state, type="flee", player="Ann", to="iv-ford")
    assert state["pending"] == [] and state["quests"] == ["iv-ford", "mf-reeds"]
    assert hero_of(state)["xp"] == 0 and state["phase"] == "cleanup"


def test_death_only_without_escape():
    """DT-DEFEAT-5, DT-AMB-12: with a free neighbour to flee to, dying is refused and not offered;
    the option ``death_only_without_escape: false`` lets the hero choose death."""
    state = lost_fight("rv-wood", ["ogre"], ann_hero=ann(space="rv-wood"))
    refused(state, "DT-DEFEAT-5", type="die", player="Ann")
    assert "die" not in [a["type"] for a in GAME.legal_actions(state)]
    free = lost_fight(
        "rv-wood",
        ["ogre"],
        ann_hero=ann(space="rv-wood"),
        options={"death_only_without_escape": False},
    )
    assert "die" in [a["type"] for a in GAME.legal_actions(free)]
    dead, _ = act(free, type="die", player="Ann")
    assert hero_of(dead)["dead"]


# ----------------------------------------------------------------------------------------------
# DT-DEATH, DT-LVL-2


def dead_in_crypt(level: str = "low", **options: Any) -> dict[str, Any]:
    """Ann (home Ravensteel Keep) with three items, two scrolls, 130 gold and 7 XP dies in the
    Crypt of Ravens."""
    me = ann(
        space="rv-crypt",
        level=level,
        gold=130,
        xp=7,
        scrolls=["hex", "summon-shadows"],
        items=[{"card": "dagger"}, {"card": "chain-mail"}, {"card": "buckler"}],
    )
    state = lost_fight("rv-crypt", ["elder-dragon"], ann_hero=me, options=options)
    state, _ = act(state, type="die", player="Ann")
    return state


def test_death_costs_cards_and_gold_but_not_xp():
    """DT-DEATH-1: the dead hero returns to his home city, discards every item and scroll and all
    his gold, and keeps his XP; the cards go to their discard piles."""
    state = dead_in_crypt()
    me = hero_of(state)
    assert me["dead"] and me["space"] == "rv-city"
    assert all(slot["card"] is None for slot in me["slots"])
    assert me["backpack"] == [] and me["scroll_count"] == 0 and me["gold"] == 0
    assert me["xp"] == 7
    assert sorted(view(state)["item_discard"]) == ["buckler", "chain-mail", "dagger"]
    assert sorted(view(state)["scroll_discard"]) == ["hex", "summon-shadows"]


def test_resurrection_next_turn_with_fifty_gold():
    """DT-DEATH-2, DT-AMB-9: at the start of his next turn the citizens give him 50 gold in his
    home city, and he plays a normal turn."""
    state = dead_in_crypt()
    state, _ = act(state, type="end_turn", player="Ann")
    assert hero_of(state)["gold"] == 0  # not yet: Bo's turn
    state, _ = act(state, type="end_turn", player="Bo")
    assert view(state)["active"] == "Ann"
    me = hero_of(state)
    assert (me["dead"], me["space"], me["gold"], me["xp"]) == (False, "rv-city", 50, 7)
    assert state["phase"] == "move"
    state, _ = act(state, type="step", player="Ann", to="rv-wood")
    assert hero_of(state)["space"] == "rv-wood"


def test_resurrection_may_use_up_the_turn():
    """DT-DEATH-2, DT-AMB-9: with ``resurrection_consumes_turn`` the 50 gold come and the turn
    goes straight to its end."""
    state = dead_in_crypt(resurrection_consumes_turn=True)
    state, _ = act(state, type="end_turn", player="Ann")
    state, _ = act(state, type="end_turn", player="Bo")
    assert hero_of(state)["gold"] == 50 and state["phase"] == "cleanup"
    refused(state, "DT-TURN-2", type="step", player="Ann", to="rv-wood")


def test_a_high_level_hero_stays_high_level():
    """DT-DEATH-3, DT-LVL-2: a high-level Topdeck who dies is still high level, with strength 10
    and movement 5, when he comes back."""
    state = dead_in_crypt(level="high")
    assert hero_of(state)["level"] == "high"
    state, _ = act(state, type="end_turn", player="Ann")
    state, _ = act(state, type="end_turn", player="Bo")
    me = hero_of(state)
    assert (me["level"], me["strength"], me["movement"]) == ("high", 10, 5)


def test_death_in_a_dungeon_example():
    """DT-EX-5, DT-SPACE-8: a high-level hero with 3 items, 2 scrolls (no re-roll), 130 gold and
    7 XP loses in a dungeon: no flee; dead at home with nothing but his 7 XP and his level; the
    monsters stay in the dungeon; next turn 50 gold."""
    state = dead_in_crypt(level="high")
    me = hero_of(state)
    assert (me["space"], me["gold"], me["xp"], me["level"], me["scroll_count"]) == (
        "rv-city",
        0,
        7,
        "high",
        0,
    )
    assert all(slot["card"] is None for slot in me["slots"]) and not me["backpack"]
    assert state["monsters"]["rv-crypt"] == ["elder-dragon"]
    state, _ = act(state, type="end_turn", player="Ann")
    state, _ = act(state, type="end_turn", player="Bo")
    assert hero_of(state)["gold"] == 50


# ----------------------------------------------------------------------------------------------
# DT-GROUP: the monsters stay


def test_monsters_stay_as_a_group_and_stop_the_next_hero():
    """DT-GROUP-1, DT-ENC-2: Ann flees from an Ogre and a Wolf in Ravenwood; they stay. Cy
    (Sir Brannock) stepping in later must stop and fight that group, with no new tokens drawn."""
    state = arrange(
        {
            "Ann": ann(space="rv-wood"),
            "Bo": bo(),
            "Cy": hero("brannock", "iv-city", space="iv-ford"),
        },
        monsters={"rv-wood": ["ogre", "wolf"]},
    )
    state, _ = act(state, type="stop", player="Ann")
    state, _ = roll(state, 1, 1)
    state, _ = act(state, type="flee", player="Ann", to="rv-port")
    assert state["monsters"]["rv-wood"] == ["ogre", "wolf"]
    state, _ = act(state, type="end_turn", player="Ann")
    state, _ = act(state, type="end_turn", player="Bo")
    state, events = act(state, type="step", player="Cy", to="rv-wood")
    assert "stopped" in kinds(events)
    assert state["phase"] == "pre_roll"  # nothing to draw: the group is the fight
    assert view(state)["combat"]["monsters"][0]["token"] == "ogre"
    assert totals(state)["monsters"] == 7 + 3
    refused(state, "DT-MOVE-4", type="step", player="Cy", to="rv-city")


def test_lumpin_walks_past_a_group():
    """DT-GROUP-1, DT-MOVE-4: Lumpin Lightfingers is the exception: he steps through a space with
    monsters and keeps moving."""
    state = arrange(
        {"Bo": bo(space="th-ridge"), "Ann": ann()}, monsters={"th-shadow": ["ogre"]}, first="Bo"
    )
    state, events = act(state, type="step", player="Bo", to="th-shadow")
    assert "stopped" not in kinds(events) and state["phase"] == "move"
    state, _ = act(state, type="step", player="Bo", to="th-glade")
    assert hero_of(state, "Bo")["space"] == "th-glade"


def test_one_token_can_become_many_monsters():
    """DT-GROUP-2, DT-ENC-4: one token in Salt Flats (a field by night: 2 draws) is Tombs, which
    draws two more: Ann ends up fighting three monsters at once."""
    state = arrange({"Ann": ann(space="hw-flats"), "Bo": bo()})
    state, _ = act(state, type="stop", player="Ann")
    state = draw_tokens(state, "tombs", "goblin")
    state, _ = act(state, type="resolve", player="Ann", token="tombs")
    state = draw_tokens(state, "orc", "wolf")
    assert [m["token"] for m in view(state)["combat"]["monsters"]] == ["goblin", "orc", "wolf"]
