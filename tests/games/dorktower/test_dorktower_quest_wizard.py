"""Dork Tower: quests, the tower and Z'Mindrik (spec sections 2.10, 2.11, 2.15, 5 and 6, with
``test_dorktower_defeat.py``).

Ann plays Topdeck (strength 7, no ability) unless a test needs someone else; Bo plays Lumpin
Lightfingers, who walks past monsters. Names and numbers are the invented example data set's.
Every position starts at tower step 0: the door faces Howling Waste (hw), and the wedges rv, hw,
th and cd are in night, sm, mf, bh and iv in day.
"""

from __future__ import annotations

from typing import Any

import pytest
from dt_support import (
    GAME,
    act,
    ann,
    arrange,
    bo,
    draw_tokens,
    hero_of,
    kinds,
    refused,
    roll,
    totals,
    view,
)

# ----------------------------------------------------------------------------------------------
# DT-QUEST


def quest_in_ravenwood(**scenario: Any) -> dict[str, Any]:
    """Ann steps from Ravensteel Keep into Ravenwood (a forest, night at tower step 0), where a
    quest token lies."""
    scenario.setdefault("quests", ["rv-wood", "mf-reeds"])
    state = arrange(
        {
            "Ann": ann(items=[{"card": "dagger"}, {"card": "chain-mail"}]),
            "Bo": scenario.pop("bo", bo()),
        },
        **scenario,
    )
    state, _ = act(state, type="step", player="Ann", to="rv-wood")
    return state


def test_entering_a_quest_space_ends_movement_and_draws():
    """DT-QUEST-2, DT-QUEST-3, DT-MOVE-5: with 3 moves left the step into the quest's forest ends
    the movement; with no monsters there the forest's night count (3) is drawn."""
    state = quest_in_ravenwood()
    assert state["phase"] == "encounter" and state["t"]["moves_left"] == 3
    assert [p["kind"] for p in state["pending"]] == ["token"] * 3
    assert not [a for a in GAME.legal_actions(state) if a["type"] == "step"]


def test_a_quest_with_monsters_fights_them():
    """DT-QUEST-3, DT-QUEST-2: monsters already on the quest space are fought, nothing drawn;
    killing them all completes the quest."""
    state = quest_in_ravenwood(monsters={"rv-wood": ["orc"]})
    assert state["phase"] == "pre_roll" and state["combat"]["quest"]
    won, events = roll(state, 3, 3)
    assert "quest_won" in kinds(events) and "rv-wood" not in won["monsters"]


def test_a_quest_victory_pays_a_scroll_and_five_xp():
    """DT-QUEST-4, DT-QUEST-6, DT-QUEST-1: on top of the monsters' XP and treasure, a scroll and
    5 XP; then the Quest Location table moves the token (7: Sucking Mire), and two quests remain."""
    state = quest_in_ravenwood(monsters={"rv-wood": ["orc"]})
    state, _ = roll(state, 3, 3)
    assert hero_of(state)["xp"] == 2 + 5
    state, _ = roll(state, 4)  # the Orc's treasure: 15 gold
    assert GAME.awaited(state)["kind"] == "scroll"
    state, _ = act(state, type="draw_scroll", scroll="rewind")
    assert GAME.chance(state).rule == "DT-QUEST-6" and GAME.awaited(state)["dice"] == 2
    state, events = roll(state, 3, 4)
    assert "quest_moved" in kinds(events)
    assert state["quests"] == ["mf-mire", "mf-reeds"]
    me = hero_of(state)
    assert (me["gold"], me["scroll_count"]) == (75, 1)


def test_a_lost_quest_pays_nothing_but_moves_anyway():
    """DT-QUEST-5, DT-QUEST-6, DT-QUEST-1: beaten on the quest, Ann flees: no reward, the Ogre
    and the Troll stay, and the quest still moves (12: Crypt of Ravens)."""
    state = quest_in_ravenwood(monsters={"rv-wood": ["ogre", "troll"]})
    state, _ = roll(state, 1, 1)
    state, events = act(state, type="flee", player="Ann", to="rv-port")
    assert "quest_lost" in kinds(events)
    assert state["monsters"]["rv-wood"] == ["ogre", "troll"]
    assert GAME.chance(state).rule == "DT-QUEST-6"
    state, _ = roll(state, 6, 6)
    assert state["quests"] == ["rv-crypt", "mf-reeds"]
    me = hero_of(state)
    assert (me["xp"], me["gold"], me["scroll_count"]) == (0, 60, 0)


@pytest.mark.parametrize(
    ("dice", "why"),
    [
        ((1, 1), "the winner stands on Ravenwood"),  # 2
        ((2, 2), "Bo stands on Thunderhawk Eyrie"),  # 4
        ((5, 6), "the other quest is on Lantern Marsh"),  # 11
        ((4, 4), "monsters hold the Old Orchard"),  # 8
    ],
)
def test_a_taken_space_is_rolled_again(dice, why):
    """DT-QUEST-6, DT-AMB-6: a result already holding the other quest, monsters or a character is
    rolled again; the next free result places the quest."""
    state = quest_in_ravenwood(
        monsters={"rv-wood": ["giant-rat"], "bh-orchard": ["wolf"]}, quests=["rv-wood", "mf-marsh"]
    )
    state, _ = roll(state, 6, 6)  # the rat dies; it has no treasure
    state, _ = act(state, type="draw_scroll", scroll="rewind")
    again, events = roll(state, *dice)
    assert "quest_reroll" in kinds(events), why
    assert again["quests"] == ["rv-wood", "mf-marsh"]
    assert GAME.chance(again).rule == "DT-QUEST-6"
    placed, _ = roll(again, 1, 2)  # 3: Bone Barrens, free
    assert placed["quests"] == ["hw-barrens", "mf-marsh"]


def test_a_city_quest_needs_no_fight():
    """DT-QUEST-7, DT-AMB-8: no tokens are drawn in a city: Ann stops on the quest in Ravensteel
    Harbour, wins it at once (scroll, 5 XP, relocation) and then does her city business."""
    state = arrange({"Ann": ann(space="rv-wood"), "Bo": bo()}, quests=["rv-port", "mf-reeds"])
    state, events = act(state, type="step", player="Ann", to="rv-port")
    assert "quest_won" in kinds(events)
    assert [p["kind"] for p in state["pending"]] == ["scroll", "die"]
    assert hero_of(state)["xp"] == 5
    state, _ = act(state, type="draw_scroll", scroll="rewind")
    state, _ = roll(state, 3, 4)
    assert state["quests"] == ["mf-mire", "mf-reeds"] and state["phase"] == "city"


def test_quest_by_night_in_a_forest_example():
    """DT-EX-6, DT-ENC-4, DT-QUEST-4, DT-QUEST-6: three tokens by night in the quest's forest:
    a Merchant and two monsters. The Merchant first (an equipment card), then the fight; the win
    pays both monsters' XP and treasure, a scroll and 5 XP, and the quest moves."""
    state = quest_in_ravenwood()
    state = draw_tokens(state, "merchant", "orc", "goblin")
    refused(state, "DT-ENC-4", type="roll", values=[6, 6])
    assert state["phase"] == "resolve"
    state, _ = act(state, type="resolve", player="Ann", token="merchant")
    state, _ = act(state, type="draw_item", card="buckler")
    assert totals(state)["monsters"] == 3 + 2 and totals(state)["player"] == 7 + 1 + 3 + 1
    state, _ = roll(state, 2, 2)  # 12 against 5: row "+7 or +8" needs 3
    state, _ = roll(state, 3)  # the Orc's treasure: 10 gold
    state, _ = roll(state, 4)  # the Goblin's: 10 gold
    state, _ = act(state, type="draw_scroll", scroll="rewind")  # the quest's scroll
    state, _ = roll(state, 3, 4)  # the Quest Location table: 7, Sucking Mire
    me = hero_of(state)
    assert (me["xp"], me["gold"], me["scroll_count"]) == (2 + 1 + 5, 80, 1)
    assert state["quests"] == ["mf-mire", "mf-reeds"] and state["monsters"] == {}
    assert state["phase"] == "cleanup"


# ----------------------------------------------------------------------------------------------
# The tower and Z'Mindrik


def at_the_door(ann_more: dict | None = None, bo_more: dict | None = None) -> dict[str, Any]:
    """Ann stands on the Shadowland of Howling Waste, by the door at tower step 0, and enters."""
    state = arrange(
        {"Ann": ann(space="hw-shadow", **(ann_more or {})), "Bo": bo(**(bo_more or {}))}
    )
    assert GAME.door_space(state) == "hw-shadow"
    state, events = act(state, type="enter_tower", player="Ann")
    assert "tower_entered" in kinds(events)
    return state


def summoned(state: dict[str, Any], *tokens: str) -> dict[str, Any]:
    state = draw_tokens(state, *tokens)
    assert state["phase"] in ("scrolls_own", "scrolls_others", "pre_roll")  # the fight is on
    return state


FIVE = ("goblin", "orc", "wolf", "bandit", "skeleton")  # 2 + 3 + 3 + 3 + 4 = 15


def test_the_tower_may_be_attacked_at_once():
    """DT-TOWER-5, DT-WIZ-1: on her very first turn, with nothing, Ann may attack: Z'Mindrik
    summons five encounter tokens; losing means death."""
    state = at_the_door()
    assert GAME.chance(state).rule == "DT-WIZ-1"
    assert [p["why"] for p in state["pending"]] == ["wizard"] * 5
    state = summoned(state, *FIVE)
    assert totals(state)["monsters"] == 15
    lost, _ = roll(state, 2, 2)
    assert [a["type"] for a in GAME.legal_actions(lost)] == ["die"]
    dead, _ = act(lost, type="die", player="Ann")
    assert hero_of(dead)["dead"] and hero_of(dead)["space"] == "rv-city"


def test_friendly_results_are_drawn_again():
    """DT-WIZ-2, DT-AMB-26: the Merchant and the Enchanter (flagged friendly) are ignored and
    replaced by new draws, and go back into the bowl; five monsters are fought."""
    state = at_the_door()
    state, events = act(state, type="draw_token", token="merchant")
    assert next(e for e in events if e["type"] == "token_drawn")["ignored"] is True
    state = draw_tokens(state, "goblin", "enchanter", "orc", "wolf", "bandit")
    assert len(state["pending"]) == 1  # one more for the Enchanter
    state = summoned(state, "skeleton")
    assert [m["token"] for m in view(state)["combat"]["monsters"]] == list(FIVE)
    assert view(state)["bowl"]["merchant"] == 2 and view(state)["bowl"]["enchanter"] == 2


def test_tombs_and_lairs_count_and_add_monsters():
    """DT-WIZ-3, DT-AMB-26: Tombs and Lairs are not friendly: they are among the five and, once
    resolved, summon more (two and one): Ann faces six monsters."""
    state = at_the_door()
    state = draw_tokens(state, "tombs", "goblin", "orc", "lairs", "wolf")
    assert state["phase"] == "resolve" and state["pending"] == []
    state, _ = act(state, type="resolve", player="Ann", token="tombs")
    state = draw_tokens(state, "bandit", "skeleton")
    state, _ = act(state, type="resolve", player="Ann", token="lairs")
    state = summoned(state, "giant-rat")
    assert len(view(state)["combat"]["monsters"]) == 6
    assert totals(state)["monsters"] == 2 + 3 + 3 + 3 + 4 + 1


def test_rivals_help_zmindrik_with_scrolls():
    """DT-WIZ-4, DT-COMBAT-4: Bo plays Curse of Weakness (+2 to the monsters) against Ann in the
    tower, as against any fighter."""
    state = summoned(at_the_door(bo_more={"scrolls": ["curse-of-weakness"]}), *FIVE)
    assert state["phase"] == "scrolls_others"
    state, _ = act(state, type="play_scroll", player="Bo", scroll="curse-of-weakness")
    assert totals(state)["monsters"] == 17 and state["phase"] == "pre_roll"


def test_rivals_curse_the_fighter_before_the_roll_and_cannot_touch_his_dice_after():
    """DT-WIZ-4, DT-COMBAT-4, DT-COMBAT-8, DT-AMB-27: rivals help Z'Mindrik before the roll (Ill
    Omen: -2 to Ann's total); after a failed roll only the fighter plays scrolls (a rival's
    after-roll window follows a winning roll only: the next test), and a scroll that acts before
    a roll is never played after it."""
    state = summoned(at_the_door(bo_more={"scrolls": ["ill-omen", "hex"]}), *FIVE)
    before = totals(state)["player"]
    state, _ = act(state, type="play_scroll", player="Bo", scroll="ill-omen")
    assert totals(state)["player"] == before - 2
    state, _ = act(state, type="pass", player="Bo")
    lost, _ = roll(state, 1, 1)
    assert lost["phase"] == "defeat"
    refused(lost, "DT-AMB-27", type="play_scroll", player="Bo", scroll="hex")


def test_a_rival_turns_the_winning_die_against_zmindrik():
    """DT-WIZ-4, DT-COMBAT-8, DT-WIZ-5, DT-GAME-1: 6+6 would beat the 15 summoned (11 needed),
    but the game is not over yet: Bo answers the roll with Twist of Fate, a 6 becomes a 1, the
    roll fails, and Ann, who cannot flee Z'Mindrik, dies."""
    state = summoned(at_the_door(bo_more={"scrolls": ["twist-of-fate"]}), *FIVE)
    state, _ = act(state, type="pass", player="Bo")
    state, events = roll(state, 6, 6)
    assert state["phase"] == "scrolls_after" and "game_over" not in kinds(events)
    assert not view(state)["finished"] and view(state)["winners"] == []
    lost, events = act(state, type="play_scroll", player="Bo", scroll="twist-of-fate", die=0)
    assert kinds(events) == ["scroll_played", "defeat"] and lost["phase"] == "defeat"
    assert [a["type"] for a in GAME.legal_actions(lost)] == ["die"]
    won, events = act(state, type="close_window")
    assert "game_over" in kinds(events) and won["phase"] == "over"


def test_nobody_flees_from_zmindrik_but_scrolls_may_save():
    """DT-WIZ-5: beaten in the tower, Ann cannot flee (not even to the shadowland next door);
    Second Chance re-rolls, and Fortune's Favour may change a die."""
    state = summoned(at_the_door({"scrolls": ["second-chance", "fortunes-favour"]}), *FIVE)
    state, _ = act(state, type="done", player="Ann")
    lost, _ = roll(state, 1, 1)
    assert GAME.flee_spaces(lost) == []
    refused(lost, "DT-WIZ-5", type="flee", player="Ann", to="hw-scree")
    refused(lost, "DT-WIZ-5", type="flee", player="Ann", to="hw-shadow")
    again, _ = act(lost, type="play_scroll", player="Ann", scroll="second-chance")
    assert GAME.awaited(again)["dice"] == 2
    lost, _ = roll(again, 5, 1)  # 7 + 0 against 15: row "-8..-7" needs 11
    assert lost["phase"] == "defeat"
    saved, events = act(lost, type="play_scroll", player="Ann", scroll="fortunes-favour", die=1)
    assert "victory" in kinds(events) and saved["phase"] == "over"


def test_zmindrik_kills_and_the_hero_comes_back():
    """DT-WIZ-6, DT-AMB-10, DT-DEATH-1, DT-DEATH-2: killed by Z'Mindrik, Ann loses her cards and
    gold like any dead hero, keeps her XP, and is resurrected at home next turn with 50 gold."""
    state = summoned(
        at_the_door({"gold": 90, "xp": 3, "items": [{"card": "dagger"}], "scrolls": ["hex"]}), *FIVE
    )
    state, _ = act(state, type="done", player="Ann")
    state, _ = roll(state, 1, 2)
    state, _ = act(state, type="die", player="Ann")
    me = hero_of(state)
    assert (me["space"], me["gold"], me["xp"], me["scroll_count"]) == ("rv-city", 0, 3, 0)
    assert me["slots"][0]["card"] is None
    state, _ = act(state, type="end_turn", player="Ann")
    state, _ = act(state, type="end_turn", player="Bo")
    me = hero_of(state)
    assert (me["dead"], me["space"], me["gold"]) == (False, "rv-city", 50)


def test_zmindriks_monsters_are_discarded():
    """DT-WIZ-7: after Ann's death the five summoned monsters are not left anywhere on the board;
    they are back in the bowl, and Bo, the next to enter, draws five new tokens."""
    state = summoned(at_the_door(), *FIVE)
    state, _ = roll(state, 1, 1)
    state, _ = act(state, type="die", player="Ann")
    assert state["monsters"] == {}
    bowl = view(state)["bowl"]
    assert all(bowl[t] == GAME.datasets["example"]["tokens"][t]["count"] for t in FIVE)
    state, _ = act(state, type="end_turn", player="Ann")
    assert GAME.door_space(state) == "th-shadow"  # the tower has turned
    state, _ = act(state, type="step", player="Bo", to="th-ridge")
    state, _ = act(state, type="step", player="Bo", to="th-shadow")
    state, _ = act(state, type="enter_tower", player="Bo")
    assert [p["why"] for p in state["pending"]] == ["wizard"] * 5


def test_defeating_zmindrik_wins_the_game():
    """DT-GAME-1, DT-WIZ-7: 6+6 beats the 15 summoned: Ann wins, the game is over, no monster is
    left on the board, and every further action is refused."""
    state = summoned(at_the_door(), *FIVE)
    state, events = roll(state, 6, 6)
    assert "game_over" in kinds(events)
    assert state["phase"] == "over" and view(state)["winners"] == ["Ann"]
    assert view(state)["finished"] and GAME.outcome(state).winners == ("Ann",)
    assert state["monsters"] == {} and GAME.chance(state) is None
    assert GAME.legal_actions(state) == []
    refused(state, "DT-GAME-1", type="end_turn", player="Ann")
    refused(state, "DT-GAME-1", type="step", player="Bo", to="th-ridge")
