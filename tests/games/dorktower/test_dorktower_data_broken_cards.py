"""Dork Tower data sets: the loader's validation of the cards (spec sections 6, 8).

Breaks one thing at a time in a copy of the example set (items, scrolls, encounter tokens,
characters, XP and the encounter chart's defaults) and checks the error names the file, the
place and the problem exactly. The board: ``test_dorktower_data_broken_board.py``.
"""

from __future__ import annotations

import json

from dt_data_support import (  # noqa: F401 (mygame is a fixture)
    DATA,
    assert_error,
    edit,
    mygame,
)

from companion.games.dorktower.rules.data import load_dataset

# ----------------------------------------------------------------------------------------------
# Broken sets: one mistake each


def test_thirty_five_items(mygame):
    """DT-COMP-1: exactly 36 item cards."""
    edit(mygame, "items.json", lambda i: i["cards"].pop())
    assert_error(
        mygame,
        "mygame/items.json",
        "cards",
        "there are 35 item cards; the game has exactly 36 (DT-COMP-1)",
    )


def test_nineteen_scrolls(mygame):
    """DT-COMP-2: exactly 20 scroll cards."""
    edit(mygame, "scrolls.json", lambda s: s["scrolls"].pop())
    assert_error(
        mygame,
        "mygame/scrolls.json",
        "scrolls",
        "there are 19 scroll cards; the game has exactly 20 (DT-COMP-2)",
    )


def _old_window(scroll: dict, window: str) -> None:
    del scroll["when"], scroll["by"]
    scroll["window"] = window


def test_an_unknown_scroll_window(mygame):
    """DT-AMB-27: the old ``window`` field, still read, is one of own_pre_roll,
    opponent_pre_roll, post_roll, movement, any."""
    edit(mygame, "scrolls.json", lambda s: _old_window(s["scrolls"][3], "after_roll"))
    ident = json.loads((mygame / "scrolls.json").read_text())["scrolls"][3]["id"]
    assert_error(
        mygame,
        "mygame/scrolls.json",
        f"scrolls[3] (id '{ident}').window",
        "unknown scroll window 'after_roll' (scroll windows are: any, movement, "
        "opponent_pre_roll, own_pre_roll, post_roll)",
    )


def test_a_scroll_with_window_and_when(mygame):
    """DT-AMB-27: either the old ``window`` or ``when`` and ``by``, not both."""
    edit(mygame, "scrolls.json", lambda s: s["scrolls"][0].update(window="post_roll"))
    assert_error(
        mygame,
        "mygame/scrolls.json",
        "scrolls[0] (id 'second-chance')",
        "give either 'window' (the old form) or 'when' and 'by', not both",
    )


def test_a_scroll_without_by(mygame):
    """DT-AMB-27: a scroll says who plays it."""
    edit(mygame, "scrolls.json", lambda s: s["scrolls"][0].pop("by"))
    assert_error(
        mygame,
        "mygame/scrolls.json",
        "scrolls[0] (id 'second-chance')",
        "a scroll says when it is played and by whom: 'by' is missing",
    )


def test_an_unknown_moment_and_player(mygame):
    """DT-AMB-27: ``when`` is before_roll, after_roll, movement or any; ``by`` is fighter,
    rivals or anyone."""
    edit(mygame, "scrolls.json", lambda s: s["scrolls"][0].update(when="post_roll"))
    assert_error(
        mygame,
        "mygame/scrolls.json",
        "scrolls[0] (id 'second-chance').when",
        "unknown scroll moment 'post_roll' (moments are: after_roll, any, before_roll, movement)",
    )
    edit(mygame, "scrolls.json", lambda s: s["scrolls"][0].update(when="after_roll", by="me"))
    assert_error(
        mygame,
        "mygame/scrolls.json",
        "scrolls[0] (id 'second-chance').by",
        "unknown scroll player 'me' (players are: anyone, fighter, rivals)",
    )


def test_a_moment_the_effect_does_not_act_in(mygame):
    """DT-COMBAT-8, DT-AMB-27: a re-roll acts after the roll, a bonus before it, a crossing while
    moving; a crossing scroll is played by the moving hero."""
    edit(mygame, "scrolls.json", lambda s: s["scrolls"][0].update(when="before_roll"))
    assert_error(
        mygame,
        "mygame/scrolls.json",
        "scrolls[0] (id 'second-chance')",
        "a 'reroll' scroll acts after roll: 'when' must be 'after_roll' or 'any', not "
        "'before_roll'",
    )
    edit(mygame, "scrolls.json", lambda s: s["scrolls"][0].update(when="after_roll"))
    listed = json.loads((mygame / "scrolls.json").read_text())["scrolls"]
    levitation = next(i for i, s in enumerate(listed) if s["id"] == "levitation")
    edit(mygame, "scrolls.json", lambda s: s["scrolls"][levitation].update(by="rivals"))
    assert_error(
        mygame,
        "mygame/scrolls.json",
        f"scrolls[{levitation}] (id 'levitation')",
        "a crossing scroll is played by the moving hero: 'by' must be 'fighter', not 'rivals'",
    )


def test_the_old_window_field_is_read(mygame):
    """DT-AMB-27: a data set written with the old ``window`` field loads, each window read as
    its ``when`` and ``by`` (docs/dork-tower-data.md)."""
    old = {
        "second-chance": "post_roll",
        "strength-of-ten": "own_pre_roll",
        "hex": "opponent_pre_roll",
        "levitation": "movement",
        "fools-luck": "any",
    }

    def rewrite(scrolls: dict) -> None:
        for scroll in scrolls["scrolls"]:
            if scroll["id"] in old:
                _old_window(scroll, old[scroll["id"]])

    edit(mygame, "scrolls.json", rewrite)
    loaded = load_dataset(mygame)["scrolls"]
    assert {ident: (loaded[ident]["when"], loaded[ident]["by"]) for ident in old} == {
        "second-chance": ("after_roll", "fighter"),
        "strength-of-ten": ("before_roll", "fighter"),
        "hex": ("before_roll", "rivals"),
        "levitation": ("movement", "fighter"),
        "fools-luck": ("any", "anyone"),
    }
    assert "window" not in loaded["hex"]


def test_a_scroll_with_two_effects(mygame):
    """DT-AMB-27: a scroll has exactly one effect."""
    edit(mygame, "scrolls.json", lambda s: s["scrolls"][0]["effect"].update(fighter=2))
    assert_error(
        mygame,
        "mygame/scrolls.json",
        "scrolls[0] (id 'second-chance').effect",
        "an effect has exactly one of the keys fighter, monsters, remove_monster, "
        'reroll, set_die, cross, not {"reroll": 1, "fighter": 2}',
    )


def test_an_item_face_of_an_undeclared_type(mygame):
    """DT-CHAR-2: a face's type is one items.json declares."""
    edit(mygame, "items.json", lambda i: i["cards"][0]["magic"].update(type="sword"))
    assert_error(
        mygame,
        "mygame/items.json",
        "cards[0] (id 'dagger').magic",
        "unknown item type 'sword' (items.json declares: amulet, armour, boots, cloak, "
        "helmet, ring, shield, weapon)",
    )


def test_a_duplicate_card_id(mygame):
    """DT-COMP-1: every card has its own id."""
    edit(mygame, "items.json", lambda i: i["cards"][5].update(id="dagger"))
    assert_error(
        mygame,
        "mygame/items.json",
        "cards[5] (id 'dagger')",
        "the id 'dagger' is used twice (also cards[0])",
    )


def test_a_misspelt_key(mygame):
    """A typo in a key is reported with the keys that are expected."""
    edit(mygame, "tokens.json", lambda t: t["tokens"][0].update(strenght=3))
    assert_error(
        mygame,
        "mygame/tokens.json",
        "tokens[0] (id 'giant-rat')",
        "unknown key 'strenght' (expected: id, name, kind, count, strength, types, xp, "
        "treasure, friendly; keys starting with '_' are comments)",
    )


def test_a_number_written_as_text(mygame):
    """DT-TOK-2: a monster's strength is a whole number."""
    edit(mygame, "tokens.json", lambda t: t["tokens"][0].update(strength="1"))
    assert_error(
        mygame,
        "mygame/tokens.json",
        "tokens[0] (id 'giant-rat')",
        "'strength' must be a whole number, not text \"1\"",
    )


def test_a_treasure_table_missing_a_face(mygame):
    """DT-REWARD-2, DT-AMB-29: a treasure table has a result for every face of the die."""
    edit(mygame, "tokens.json", lambda t: t["tokens"][1]["treasure"].pop("4"))
    assert_error(
        mygame,
        "mygame/tokens.json",
        "tokens[1] (id 'goblin').treasure",
        "no result for die face 4 (a treasure table covers every face from 1 to 6, DT-REWARD-2)",
    )


def test_a_friendly_monster_and_a_token_count_of_zero(mygame):
    """DT-AMB-26, DT-WIZ-2: only non-monsters are friendly; every token kind is in the bowl."""
    edit(mygame, "tokens.json", lambda t: t["tokens"][0].update(friendly=True))
    assert_error(
        mygame,
        "mygame/tokens.json",
        "tokens[0] (id 'giant-rat')",
        "a monster cannot be friendly (the flag marks the non-monster results "
        "Z'Mindrik draws again, DT-WIZ-2)",
    )
    edit(mygame, "tokens.json", lambda t: t["tokens"][0].update(friendly=False, count=0))
    assert_error(
        mygame,
        "mygame/tokens.json",
        "tokens[0] (id 'giant-rat')",
        "'count' must be at least 1, not 0",
    )


def test_a_character_with_three_slots(mygame):
    """DT-CHAR-2, DT-AMB-28: a character sheet has 4 slots on each side."""
    edit(mygame, "characters.json", lambda c: c["characters"][0]["high"]["slots"].pop())
    assert_error(
        mygame,
        "mygame/characters.json",
        "characters[0] (id 'topdeck').high",
        "there are 3 slots; a character sheet has 4 (DT-CHAR-2)",
    )


def test_a_slot_for_an_undeclared_item_type_and_an_unknown_ability(mygame):
    """DT-CHAR-1, DT-CHAR-2, DT-AMB-28: slots accept declared item types; abilities are known."""
    edit(
        mygame,
        "characters.json",
        lambda c: c["characters"][1]["low"]["slots"][0]["types"].append("wand"),
    )
    assert_error(
        mygame,
        "mygame/characters.json",
        "characters[1] (id 'lumpin').low.slots[0].types[1]",
        "unknown item type 'wand' (items.json declares: amulet, armour, boots, cloak, "
        "helmet, ring, shield, weapon)",
    )
    edit(
        mygame,
        "characters.json",
        lambda c: c["characters"][1]["low"].update(
            slots=c["characters"][1]["high"]["slots"], abilities=["fly"]
        ),
    )
    assert_error(
        mygame,
        "mygame/characters.json",
        "characters[1] (id 'lumpin').low.abilities[0]",
        "unknown ability 'fly' (abilities are: avoid_monsters, cross_lake, cross_mountain)",
    )


def test_xp_defaults_and_repetition(mygame):
    """DT-AMB-3: costs left out take the defaults of section 3.3; repetition is configurable."""
    (mygame / "xp_costs.json").write_text(
        '{"costs": {"die_to_six": 5}, "repeat": {"die_to_six": false}}', encoding="utf-8"
    )
    data = load_dataset(mygame)
    assert data["xp"] == {
        "extra_step": 1,
        "cross_border": 2,
        "die_to_six": 5,
        "extra_shop_card": 1,
        "level_up": 10,
    }
    assert data["xp_repeat"] == {
        "extra_step": True,
        "cross_border": True,
        "die_to_six": False,
        "extra_shop_card": True,
    }
    edit(mygame, "xp_costs.json", lambda x: x["costs"].update(fly=3))
    assert_error(
        mygame,
        "mygame/xp_costs.json",
        "costs",
        "unknown key 'fly' (expected: extra_step, cross_border, die_to_six, "
        "extra_shop_card, level_up; keys starting with '_' are comments)",
    )


def test_encounter_chart_defaults_when_left_out(mygame):
    """DT-AMB-4: an encounter chart without space_types or tower_draw uses section 3.1."""
    (mygame / "encounter_chart.json").write_text("{}", encoding="utf-8")
    data = load_dataset(mygame)
    assert data["space_types"] == DATA["space_types"]
    assert data["tower_draw"] == 5
