"""Dork Tower data sets: a mistake is reported at its place (spec section 8): the top level of a
file, an entry, a level of a character sheet, a slot, an item type, a face, a row; and what may
be left out (a non-monster token's effect) is not a mistake. Each test breaks one thing in a copy
of the example set and checks the file, the place and the problem exactly."""

from __future__ import annotations

from dt_data_support import assert_error, edit, index, mygame  # noqa: F401 (mygame: fixture)

from companion.games.dorktower.rules.data import load_dataset

TOPDECK_LOW = "characters[0] (id 'topdeck').low"


def test_a_list_that_is_not_a_list_is_named_at_the_top_level(mygame):
    """DT-COMP-1: items.json's cards must be a list."""
    edit(mygame, "items.json", lambda c: c.update(cards={}))
    assert_error(mygame, "mygame/items.json", "top level", "'cards' must be a list, not an object")


def test_a_missing_list_is_named_at_the_top_level(mygame):
    edit(mygame, "items.json", lambda c: c.pop("cards"))
    assert_error(
        mygame, "mygame/items.json", "top level", "the key 'cards' is missing (a list expected)"
    )


def test_unknown_top_level_keys_of_tokens_xp_and_combat_table(mygame):
    """A typo at the top of a file is named with the keys expected there."""
    for filename, expected in (
        ("tokens.json", "tokens"),
        ("xp_costs.json", "costs, repeat"),
        ("combat_table.json", "rows"),
    ):
        edit(mygame, filename, lambda c: c.update(extra=1))
        assert_error(
            mygame,
            f"mygame/{filename}",
            "top level",
            f"unknown key 'extra' (expected: {expected}; keys starting with '_' are comments)",
        )
        edit(mygame, filename, lambda c: c.pop("extra"))


def test_a_level_limit_that_is_not_a_number(mygame):
    """DT-LIMIT-3: a level's backpack limit is a whole number or null."""
    edit(
        mygame, "characters.json", lambda c: c["characters"][0]["low"].update(backpack_limit="two")
    )
    assert_error(
        mygame,
        "mygame/characters.json",
        TOPDECK_LOW,
        "'backpack_limit' must be a whole number or null, not text \"two\"",
    )


def test_a_slot_without_types_and_a_slot_that_is_not_an_object(mygame):
    """DT-CHAR-2: a slot accepts at least one item type."""
    slots = lambda c: c["characters"][0]["low"]["slots"]  # noqa: E731
    edit(mygame, "characters.json", lambda c: slots(c)[0].update(types=[]))
    assert_error(
        mygame,
        "mygame/characters.json",
        f"{TOPDECK_LOW}.slots[0]",
        "a slot accepts at least one item type",
    )
    edit(mygame, "characters.json", lambda c: slots(c).__setitem__(0, "weapon"))
    assert_error(
        mygame,
        "mygame/characters.json",
        f"{TOPDECK_LOW}.slots[0]",
        'each slot must be an object, not text "weapon"',
    )


def test_item_types_are_short_ids_declared_once(mygame):
    """DT-CHAR-2: items.json declares its item types (8 in the example)."""
    edit(mygame, "items.json", lambda c: c["types"].append(5))
    assert_error(
        mygame,
        "mygame/items.json",
        "types[8]",
        "each type must be non-empty text, not the number 5",
    )
    edit(mygame, "items.json", lambda c: c["types"].__setitem__(8, "Weapon"))
    assert_error(
        mygame,
        "mygame/items.json",
        "types[8]",
        "an item type must be a short lowercase id, not 'Weapon'",
    )
    edit(mygame, "items.json", lambda c: c["types"].__setitem__(8, c["types"][1]))
    assert_error(
        mygame,
        "mygame/items.json",
        "types[8]",
        "the type 'armour' is declared twice (also types[1])",
    )


def test_an_item_face_must_be_an_object(mygame):
    """DT-CARD-4: the place is the card's."""
    edit(mygame, "items.json", lambda c: c["cards"][0].update(equipment=[]))
    assert_error(
        mygame,
        "mygame/items.json",
        "cards[0] (id 'dagger')",
        "'equipment' must be an object, not a list",
    )


def test_a_scroll_effect_must_be_an_object(mygame):
    edit(mygame, "scrolls.json", lambda c: c["scrolls"][0].update(effect=3))
    assert_error(
        mygame,
        "mygame/scrolls.json",
        "scrolls[0] (id 'second-chance')",
        "'effect' must be an object, not the number 3",
    )


def test_friendly_tokens_say_so_and_may_leave_out_their_effect(mygame):
    """DT-WIZ-2, DT-AMB-26: a token of kind friendly must be flagged friendly; a non-monster
    token without an effect loads with none."""

    def merchant(change):
        edit(mygame, "tokens.json", lambda c: change(c["tokens"][index(c["tokens"], "merchant")]))

    merchant(lambda m: m.pop("effect"))
    assert load_dataset(mygame)["tokens"]["merchant"]["effect"] == {}
    merchant(lambda m: m.update(friendly=False))
    assert_error(
        mygame,
        "mygame/tokens.json",
        "tokens[15] (id 'merchant')",
        "a token of kind 'friendly' must have \"friendly\": true",
    )


def test_a_combat_table_row_must_be_an_object(mygame):
    """DT-COMBAT-6: each row of the combat table."""
    edit(mygame, "combat_table.json", lambda c: c["rows"].__setitem__(0, 5))
    assert_error(
        mygame,
        "mygame/combat_table.json",
        "rows[0]",
        "each row must be an object, not the number 5",
    )


def test_a_space_type_must_be_an_object(mygame):
    """DT-ENC-4: each space type of the encounter chart is an object."""
    edit(mygame, "encounter_chart.json", lambda c: c["space_types"].__setitem__("city", 5))
    assert_error(
        mygame,
        "mygame/encounter_chart.json",
        'space_types["city"]',
        "this entry must be an object, not the number 5",
    )


def test_a_quest_result_names_a_known_rune_or_space(mygame):
    """DT-QUEST-6: a result of the quest table is a rune (text) or a space of the map; a space
    of the map is a valid result."""
    edit(mygame, "quest_table.json", lambda c: c["results"]["2"].update(rune=5))
    assert_error(
        mygame,
        "mygame/quest_table.json",
        'results["2"]',
        "'rune' must be non-empty text, not the number 5",
    )
    edit(mygame, "quest_table.json", lambda c: c["results"].__setitem__("2", {"space": "rv-moor"}))
    assert load_dataset(mygame)["quest_table"]["results"]["2"] == "rv-moor"
    edit(mygame, "quest_table.json", lambda c: c["results"].__setitem__("2", {"space": "nowhere"}))
    assert_error(
        mygame,
        "mygame/quest_table.json",
        'results["2"]',
        "unknown space 'nowhere' (map.json has 57 spaces, none with this id)",
    )
