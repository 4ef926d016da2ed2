"""Dork Tower: the turn (spec sections 2.4 to 2.8, 2.14, 2.15 and 4), its second half: encounters,
tower entry, end-of-turn limits, levels and equipping. Turn order, movement, borders and day and
night are in ``test_dorktower_turn_movement.py``.

Map facts of the invented example set used here: Ravensteel (rv) and the other kingdoms; the
tower's door faces Howling Waste (hw) at setup; at tower step 0 the wedges rv, hw, th and cd are
in night and sm, mf, bh and iv in day.
"""

from __future__ import annotations

import pytest
from dt_support import (
    DATA,
    GAME,
    act,
    arrange,
    draw_tokens,
    end_turn,
    hero,
    pending_tokens,
    refused,
    roll,
    steps,
    totals,
    two,
    view,
)

from companion.rules import HOST, TABLE, Refusal

# -- encounters ------------------------------------------------------------------------------


def test_a_city_quest_is_won_at_once_without_tokens():
    """DT-ENC-1, DT-AMB-8: a city has an encounter only if a quest is there; no tokens are drawn,
    the quest is won at once (a scroll and 5 XP), it moves, and city business follows."""
    state = two(quests=["rv-city", "mf-reeds"])
    state, events = act(state, type="stop", player="Ann")
    assert "quest_won" in [e["type"] for e in events]
    assert pending_tokens(state) == 0 and state["heroes"][0]["xp"] == 5
    assert GAME.awaited(state)["kind"] == "scroll"
    state, _ = act(state, type="draw_scroll", scroll="hex")
    assert GAME.chance(state).rule == "DT-QUEST-6"
    state, _ = roll(state, 3, 4)  # 7: the flame rune, Sucking Mire
    assert state["quests"] == ["mf-mire", "mf-reeds"]
    assert state["phase"] == "city" and state["heroes"][0]["scrolls"] == ["hex"]


def test_staying_on_a_quest_space_counts_as_entering_it():
    """DT-AMB-23: a hero who starts on a quest space and stays has his encounter there as a
    quest."""
    state = two({"space": "hw-flats"})
    state, _ = act(state, type="stop", player="Ann")
    assert state["encounter"]["quest"] is True and pending_tokens(state) == 2


def test_monsters_already_there_are_fought_and_nothing_is_drawn():
    """DT-ENC-2: with monsters on the space the hero fights exactly them; no token is drawn."""
    state = two({"space": "rv-wood"}, monsters={"rv-wood": ["orc", "goblin"]})
    bowl = dict(state["bowl"])
    state, events = act(state, type="stop", player="Ann")
    assert "encounter" not in [e["type"] for e in events]
    assert state["combat"]["monsters"] == ["orc", "goblin"]
    assert state["bowl"] == bowl and GAME.chance(state).rule == "DT-COMBAT-7"


def test_non_monsters_are_resolved_first_in_any_order():
    """DT-ENC-4: drawn non-monster tokens are resolved first, in the order the player likes;
    a token that makes him draw more tokens adds them; the fight waits until none remain."""
    state = two({"space": "rv-wood"})  # a forest by night: 3 tokens
    state, _ = act(state, type="stop", player="Ann")
    state = draw_tokens(state, "goblin", "tombs", "merchant")
    assert state["phase"] == "resolve"
    assert {a["type"] for a in GAME.legal_actions(state)} == {"resolve"}
    assert {a["token"] for a in GAME.legal_actions(state)} == {"tombs", "merchant"}
    assert isinstance(GAME.apply(state, {"type": "roll", "values": [6, 6]}), Refusal)
    state, _ = act(state, type="resolve", player="Ann", token="tombs")  # two more tokens
    assert pending_tokens(state) == 2
    state = draw_tokens(state, "wolf", "enchanter")
    state, _ = act(state, type="resolve", player="Ann", token="enchanter")
    state, _ = act(state, type="draw_scroll", scroll="aegis")
    assert state["phase"] == "resolve" and state["combat"] is None
    state, _ = act(state, type="resolve", player="Ann", token="merchant")
    state, _ = act(state, type="draw_item", card="dagger")
    assert sorted(state["combat"]["monsters"]) == ["goblin", "wolf"]


def test_rolling_for_the_fight_before_the_non_monsters_is_refused_by_their_rule():
    """DT-ENC-4: section 4.3 refuses starting the combat while a non-monster token is
    unresolved by DT-ENC-4."""
    state, _ = act(two({"space": "sm-dunes"}), type="stop", player="Ann")
    state = draw_tokens(state, "merchant")
    refused(state, "DT-ENC-4", type="roll", values=[6, 6])


def test_what_remains_after_the_non_monsters_is_fought():
    """DT-ENC-5: once the non-monsters are resolved, every drawn monster is in the fight."""
    state = two({"space": "rv-crypt"})  # a dungeon by night: 4 tokens
    state, _ = act(state, type="stop", player="Ann")
    state = draw_tokens(state, "mummy", "lairs", "orc-shaman", "goblin")
    state, _ = act(state, type="resolve", player="Ann", token="lairs")
    state = draw_tokens(state, "skeleton")
    assert state["combat"]["monsters"] == ["mummy", "orc-shaman", "goblin", "skeleton"]
    assert totals(state)["monsters"] == 8 + 4 + 2 + 4


def test_monsters_that_win_stay_on_their_space():
    """DT-TOK-1: drawn tokens go on the board; monsters not killed stay on their space, never
    moving, turn after turn."""
    state = two({"space": "rv-moor"})
    state, _ = act(state, type="stop", player="Ann")
    state = draw_tokens(state, "goblin", "wolf")
    state, _ = roll(state, 1, 1)
    state, _ = act(state, type="flee", player="Ann", to="rv-shadow")
    assert state["monsters"] == {"rv-moor": ["goblin", "wolf"]}
    state = end_turn(end_turn(state, "Ann"), "Bob")
    assert state["active"] == 0 and state["monsters"] == {"rv-moor": ["goblin", "wolf"]}
    assert view(state, TABLE)["monsters"]["rv-moor"][0]["token"] == "goblin"


def test_everyone_sees_both_faces_of_the_tokens_on_the_board():
    """DT-TOK-3: strength, type, XP and treasure table of every token on the board are shown to
    every viewer."""
    state = two(monsters={"rv-moor": ["mummy"], "th-glade": ["goblin", "wolf"]})
    for viewer in (TABLE, HOST, "Ann", "Bob"):
        board = view(state, viewer)["monsters"]
        mummy = board["rv-moor"][0]
        assert (mummy["strength"], mummy["xp"]) == (8, 4)
        assert mummy["treasure"] == DATA["tokens"]["mummy"]["treasure"]
        assert [t["token"] for t in board["th-glade"]] == ["goblin", "wolf"]


def test_xp_is_earned_from_monsters_and_spent_on_the_reference_sheet():
    """DT-TOK-5: killing monsters gives their XP; XP then pays for the sheet's uses (here an
    extra step next turn)."""
    state = two({"space": "rv-wood"}, monsters={"rv-wood": ["orc", "goblin"]})
    state, _ = act(state, type="stop", player="Ann")
    state, _ = roll(state, 6, 6)
    assert state["heroes"][0]["xp"] == 3
    refused(two(), "DT-TOK-5", type="step", player="Ann", to="iv-city", extra=True)


# -- the tower -------------------------------------------------------------------------------


def test_the_tower_is_entered_only_from_the_shadowland_by_the_door():
    """DT-TOWER-2: the door's shadowland is the only way in: another shadowland or any other
    space is refused."""
    state = two({"space": "rv-shadow"})
    assert GAME.door_space(state) == "hw-shadow"
    refused(state, "DT-TOWER-2", type="enter_tower", player="Ann")
    refused(two({"space": "rv-city"}), "DT-TOWER-2", type="enter_tower", player="Ann")
    turned = two({"space": "th-shadow"}, tower_step=1)
    assert GAME.door_space(turned) == "th-shadow"
    act(turned, type="enter_tower", player="Ann")


def test_standing_at_the_door_does_not_force_entry_and_entry_is_not_movement():
    """DT-TOWER-3: on the door's space a hero who stops has the ordinary shadowland encounter;
    one who declares entry goes in even with no movement left."""
    state = two({"space": "hw-shadow"})
    stopped, _ = act(state, type="stop", player="Ann")
    assert stopped["encounter"]["wizard"] is False and pending_tokens(stopped) == 2
    walked = steps(
        two({"space": "rv-moor"}), "Ann", "rv-shadow", "hw-shadow", "hw-scree", "hw-shadow"
    )
    assert walked["t"]["moves_left"] == 0
    _, events = act(walked, type="enter_tower", player="Ann")
    assert events[-1]["type"] == "tower_entered"


def test_entering_goes_straight_to_zmindrik():
    """DT-TOWER-4, DT-AMB-18: entry is declared instead of the encounter draw, even without
    moving: the hero faces Z'Mindrik, who summons the data set's 5 tokens."""
    state = two({"space": "hw-shadow"})
    assert {"type": "enter_tower", "player": "Ann"} in GAME.legal_actions(state)
    state, _ = act(state, type="enter_tower", player="Ann")
    assert state["encounter"]["wizard"] is True and state["phase"] == "encounter"
    assert pending_tokens(state) == DATA["tower_draw"] == 5
    assert GAME.chance(state).rule == "DT-WIZ-1"


def test_the_door_encounter_may_be_required_before_entry():
    """DT-AMB-18: with encounter_before_entry the hero has the shadowland encounter first and
    enters after it, not while moving."""
    state = two({"space": "hw-shadow"}, options={"encounter_before_entry": True})
    refused(state, "DT-AMB-18", type="enter_tower", player="Ann")
    state, _ = act(state, type="stop", player="Ann")
    state = draw_tokens(state, "merchant", "enchanter")
    state, _ = act(state, type="resolve", player="Ann", token="merchant")
    state, _ = act(state, type="draw_item", card="dagger")
    state, _ = act(state, type="resolve", player="Ann", token="enchanter")
    state, _ = act(state, type="draw_scroll", scroll="hex")
    assert state["phase"] == "cleanup"
    state, _ = act(state, type="enter_tower", player="Ann")
    assert state["encounter"]["wizard"] is True


# -- end of turn -----------------------------------------------------------------------------


def test_more_than_three_scrolls_block_the_end_of_turn():
    """DT-LIMIT-1, DT-CARD-8: the turn cannot end with more than 3 scrolls in hand; after a
    discard it can."""
    state = two({"scrolls": ["hex", "aegis", "war-cry", "blessing"]})
    refused(state, "DT-LIMIT-1", type="end_turn", player="Ann")
    state, _ = act(state, type="discard", player="Ann", scroll="blessing")
    state = end_turn(state, "Ann")
    assert state["active"] == 1


def test_more_than_two_backpack_items_block_the_end_of_turn():
    """DT-LIMIT-2, DT-CHAR-4: at most two items in the backpack at the end of the turn."""
    pack = [{"card": c, "slot": "backpack"} for c in ("dagger", "club", "sling")]
    state = two({"items": pack})
    refused(state, "DT-LIMIT-2", type="end_turn", player="Ann")
    state, _ = act(state, type="discard", player="Ann", card="club")
    state = end_turn(state, "Ann")
    assert len(state["heroes"][0]["backpack"]) == 2


def test_laeoretha_has_her_own_limits():
    """DT-LIMIT-3: Laeoretha's sheet gives her own limits (5 scrolls and 4 backpack items in
    the example set): she ends a turn with 5 scrolls and 4 items, not with 6 scrolls."""
    pack = [{"card": c, "slot": "backpack"} for c in ("dagger", "club", "sling", "bow")]
    scrolls = ["hex", "aegis", "war-cry", "blessing", "rewind"]
    state = arrange(
        {
            "Ann": hero("laeoretha", "rv-city", items=pack, scrolls=scrolls),
            "Bob": hero("lumpin", "th-city"),
        }
    )
    assert view(state, "Ann")["players"]["Ann"]["limits"] == {"scrolls": 5, "backpack": 4}
    end_turn(state, "Ann")
    state = arrange(
        {
            "Ann": hero("laeoretha", "rv-city", scrolls=scrolls + ["dark-pact"]),
            "Bob": hero("lumpin", "th-city"),
        }
    )
    refused(state, "DT-LIMIT-3", type="end_turn", player="Ann")


def test_the_limits_bind_every_player_at_the_end_of_every_turn():
    """DT-CARD-8, DT-AMB-25, DT-LIMIT-1: a player who is not active may not hold more than 3
    scrolls either: the active player's turn cannot end until he discards, which he may do at
    the end of that turn (not in the middle of it)."""
    state = two(bob={"scrolls": ["hex", "aegis", "war-cry", "blessing"]})
    refused(state, "DT-TURN-1", type="discard", player="Bob", scroll="hex")
    state, _ = act(state, type="stop", player="Ann")
    state, _ = act(state, type="done", player="Ann")
    assert state["phase"] == "cleanup"
    refused(state, "DT-LIMIT-1", type="end_turn", player="Ann")
    assert "Bob" in view(state, TABLE)["waiting_for"]
    state, _ = act(state, type="discard", player="Bob", scroll="hex")
    state = end_turn(state, "Ann")
    assert state["active"] == 1


def test_end_of_turn_limits_example():
    """DT-EX-7, DT-LIMIT-1, DT-LIMIT-2, DT-LIMIT-4: 5 scrolls and 3 backpack items at the end
    of the turn: discard 2 scrolls and 1 item, then the tower turns as the last action."""
    pack = [{"card": c, "slot": "backpack"} for c in ("dagger", "club", "sling")]
    scrolls = ["hex", "aegis", "war-cry", "blessing", "rewind"]
    state = two({"items": pack, "scrolls": scrolls})
    refused(state, "DT-LIMIT-1", type="end_turn", player="Ann")
    state, _ = act(state, type="discard", player="Ann", scroll="hex")
    state, _ = act(state, type="discard", player="Ann", scroll="rewind")
    refused(state, "DT-LIMIT-2", type="end_turn", player="Ann")
    state, _ = act(state, type="discard", player="Ann", card="sling")
    step = state["tower_step"]
    state, events = act(state, type="end_turn", player="Ann")
    assert events[0]["type"] == "tower_turned" and state["tower_step"] == step + 1
    assert len(state["heroes"][0]["scrolls"]) == 3 and len(state["heroes"][0]["backpack"]) == 2
    refused(state, "DT-TURN-1", type="discard", player="Ann", scroll="aegis")


def test_after_fleeing_the_limits_and_the_tower_still_come():
    """DT-AMB-13: a flee ends the turn through the cleanup: the limits are still checked and
    the tower still turns."""
    scrolls = ["war-cry", "aegis", "battle-fury", "strength-of-ten"]
    state = two({"space": "rv-moor", "scrolls": scrolls}, monsters={"rv-moor": ["troll"]})
    state, _ = act(state, type="stop", player="Ann")
    state, _ = act(state, type="done", player="Ann")
    state, _ = roll(state, 1, 1)
    state, _ = act(state, type="flee", player="Ann", to="rv-shadow")
    assert state["phase"] == "cleanup"
    refused(state, "DT-LIMIT-1", type="end_turn", player="Ann")
    state, _ = act(state, type="discard", player="Ann", scroll="aegis")
    state, events = act(state, type="end_turn", player="Ann")
    assert events[0]["type"] == "tower_turned"


# -- levels ----------------------------------------------------------------------------------


def test_ten_xp_level_up_once():
    """DT-LVL-1, DT-AMB-15: with 10 XP or more a hero may level up: exactly 10 XP are discarded
    and the rest kept; under 10 XP, or when already high level, it is refused."""
    refused(two({"xp": 9}), "DT-LVL-1", type="level_up", player="Ann")
    state = two({"xp": 13})
    assert {"type": "level_up", "player": "Ann"} in GAME.legal_actions(state)
    state, _ = act(state, type="level_up", player="Ann")
    assert state["heroes"][0]["level"] == "high" and state["heroes"][0]["xp"] == 3
    state["heroes"][0]["xp"] = 10
    refused(state, "DT-LVL-1", type="level_up", player="Ann")


def test_the_high_level_side_has_better_values():
    """DT-LVL-3, DT-CHAR-1: the flipped sheet shows the high-level strength and movement (and
    the turn's movement follows it from then on)."""
    state = two({"xp": 10})
    state, _ = act(state, type="level_up", player="Ann")
    seen = view(state, TABLE)["players"]["Ann"]
    high = DATA["characters"]["topdeck"]["high"]
    assert (seen["level"], seen["strength"], seen["movement"]) == (
        "high",
        high["strength"],
        high["movement"],
    )
    assert high["strength"] > DATA["characters"]["topdeck"]["low"]["strength"]
    state = end_turn(end_turn(state, "Ann"), "Bob")
    assert state["t"]["moves_left"] == high["movement"]


def test_level_up_is_done_in_ones_own_turn_but_not_during_a_roll():
    """DT-AMB-15: levelling up is allowed before a fight's roll (the new strength counts), not
    in another player's turn, and not between a roll and its outcome."""
    state = two(
        {"space": "rv-moor", "xp": 10, "scrolls": ["second-chance"]},
        {"xp": 10},
        monsters={"rv-moor": ["troll"]},
    )
    refused(state, "DT-TURN-1", type="level_up", player="Bob")
    state, _ = act(state, type="stop", player="Ann")
    state, _ = act(state, type="done", player="Ann")
    assert totals(state)["strength"] == 7
    high, _ = act(state, type="level_up", player="Ann")
    assert totals(high)["strength"] == 10
    state, _ = roll(state, 1, 1)
    state, _ = act(state, type="play_scroll", player="Ann", scroll="second-chance")
    assert GAME.chance(state).rule == "DT-COMBAT-7"
    refused(state, "DT-AMB-15", type="level_up", player="Ann")


# -- slots and the backpack ------------------------------------------------------------------


def test_four_slots_one_card_each_of_the_printed_types():
    """DT-CHAR-2, DT-CARD-4: an item goes into a slot that accepts its type, one card per slot
    (the card already there goes to the backpack); some slots accept either of two types; a
    wrong type or a fifth slot is refused."""
    state = two(
        {
            "items": [
                {"card": "dagger", "slot": 0},
                {"card": "short-sword", "slot": "backpack"},
                {"card": "buckler", "slot": "backpack"},
                {"card": "leather-cap", "slot": "backpack"},
            ]
        }
    )
    refused(state, "DT-CHAR-2", type="equip", player="Ann", card="short-sword", slot=1)
    refused(state, "DT-CHAR-2", type="equip", player="Ann", card="short-sword", slot=4)
    state, _ = act(state, type="equip", player="Ann", card="short-sword", slot=0)
    h = state["heroes"][0]
    assert h["slots"][0] == {"card": "short-sword", "face": "equipment"}
    assert {"card": "dagger", "face": "equipment"} in h["backpack"]
    helm, _ = act(state, type="equip", player="Ann", card="leather-cap", slot=2)
    shield, _ = act(state, type="equip", player="Ann", card="buckler", slot=2)
    assert helm["heroes"][0]["slots"][2]["card"] == "leather-cap"
    assert shield["heroes"][0]["slots"][2]["card"] == "buckler"


def test_an_item_with_no_free_fitting_slot_goes_to_the_backpack():
    """DT-CHAR-4: a gained item that fits no free slot goes into the backpack, face as chosen."""
    state = two({"items": [{"card": "dagger"}, {"card": "short-sword", "face": "magic"}]})
    h = state["heroes"][0]
    assert h["slots"][0] == {"card": "dagger", "face": "equipment"}
    assert h["backpack"] == [{"card": "short-sword", "face": "magic"}]


def test_backpack_items_are_moved_to_slots_in_ones_own_turn():
    """DT-CHAR-5: during his turn a hero moves an item from the backpack into a slot it fits;
    not in someone else's turn."""
    state = two(bob={"items": [{"card": "dagger", "slot": "backpack"}]})
    refused(state, "DT-TURN-1", type="equip", player="Bob", card="dagger", slot=0)
    state = end_turn(state, "Ann")
    state, _ = act(state, type="equip", player="Bob", card="dagger", slot=0)
    assert state["heroes"][1]["slots"][0]["card"] == "dagger"
    assert state["heroes"][1]["backpack"] == []


def test_scrolls_never_go_in_the_backpack():
    """DT-CHAR-6: scrolls are held in hand, apart from items: a scroll cannot be put in a slot
    or in the backpack, and scrolls never count against the backpack."""
    state = two(
        {
            "scrolls": ["hex", "aegis"],
            "items": [{"card": c, "slot": "backpack"} for c in ("dagger", "club")],
        }
    )
    for action in (
        {"type": "equip", "player": "Ann", "card": "hex", "slot": 0},
        {"type": "unequip", "player": "Ann", "card": "hex"},
    ):
        assert isinstance(GAME.apply(state, action), Refusal)
    seen = view(state, "Ann")["players"]["Ann"]
    assert len(seen["backpack"]) == 2 and seen["scroll_count"] == 2
    end_turn(state, "Ann")  # 2 items and 2 scrolls: within both limits


def test_a_scroll_put_in_a_slot_is_refused_by_the_scroll_rule():
    """DT-CHAR-6: section 4.3 refuses putting a scroll in the backpack or a slot by DT-CHAR-6."""
    refused(two({"scrolls": ["hex"]}), "DT-CHAR-6", type="equip", player="Ann", card="hex", slot=0)


def test_armour_above_a_slots_max_cannot_go_there():
    """DT-CHAR-3, DT-AMB-16: Lumpin's armour slot says Max +2: Chain Mail (+3) cannot be put
    there (gained, it goes to the backpack); Scale Mail (+2) can."""
    state = arrange(
        {
            "Bob": hero(
                "lumpin",
                "th-city",
                items=[{"card": "chain-mail"}, {"card": "scale-mail", "slot": "backpack"}],
            ),
            "Ann": hero("topdeck", "rv-city"),
        }
    )
    h = state["heroes"][0]
    assert h["slots"][1] is None and h["backpack"][0]["card"] == "chain-mail"
    refused(state, "DT-CHAR-3", type="equip", player="Bob", card="chain-mail", slot=1)
    state, _ = act(state, type="equip", player="Bob", card="scale-mail", slot=1)
    assert state["heroes"][0]["slots"][1]["card"] == "scale-mail"


@pytest.mark.parametrize(
    "options, items",
    [
        ({}, 0),  # forbidden: Dragon Scale (+4) stays in the backpack
        ({"slot_max": "cap"}, 2 + 4),  # capped at +2; +4 against dragons not capped
        ({"slot_max": "cap", "slot_max_special": True}, 2 + 2),
    ],
)
def test_the_slot_max_and_special_bonuses(options, items):
    """DT-AMB-16, DT-CHAR-3: by default armour above the Max is not placed; with the "cap"
    reading its bonus is capped at the Max, and a bonus against a type of enemy is capped only
    if the option says so."""
    state = arrange(
        {
            "Bob": hero(
                "lumpin",
                "th-city",
                space="rv-moor",
                items=[{"card": "plate-armour", "face": "magic"}],
            ),
            "Ann": hero("topdeck", "rv-city"),
        },
        monsters={"rv-moor": ["young-dragon"]},
        options=options,
    )
    state, _ = act(state, type="stop", player="Bob")
    assert totals(state)["items"] == items
