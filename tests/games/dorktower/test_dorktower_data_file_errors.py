"""Dork Tower data sets with whole files or tables wrong: files missing, text that is not UTF-8,
the map's lists, the quest table's dice, the Italian file's sections, ids; and the automatic
layout's angles. Each error names the file, the place and the problem exactly."""

from __future__ import annotations

import pytest
from dt_data_support import (  # noqa: F401 (mygame is a fixture)
    assert_error,
    edit,
    mygame,
)

from companion.games.dorktower.rules.data.layout import layout

ALL_FILES = (
    "dataset.json, encounter_chart.json, map.json, tower.json, combat_table.json, "
    "quest_table.json, tokens.json, items.json, scrolls.json, characters.json, xp_costs.json"
)


def test_two_missing_files_are_both_named(mygame):
    (mygame / "tower.json").unlink()
    (mygame / "items.json").unlink()
    assert_error(
        mygame,
        "mygame/tower.json",
        "file",
        f"the file is missing (a data set has 11 files: {ALL_FILES}); also missing: items.json",
    )


def test_a_file_not_utf8_names_the_byte(mygame):
    (mygame / "tower.json").write_bytes(b'{"a": "\xff"}')
    assert_error(
        mygame, "mygame/tower.json", "byte 7", "the file is not UTF-8 text; save it as UTF-8"
    )


def test_a_space_that_is_not_an_object(mygame):
    edit(mygame, "map.json", lambda board: board["spaces"].__setitem__(0, 3))
    assert_error(
        mygame, "mygame/map.json", "spaces[0]", "each space must be an object, not the number 3"
    )


def test_quest_starts_missing_is_at_top_level(mygame):
    edit(mygame, "map.json", lambda board: board.pop("quest_starts"))
    assert_error(
        mygame,
        "mygame/map.json",
        "top level",
        "the key 'quest_starts' is missing (a list expected)",
    )


def test_a_quest_table_of_one_die_cannot_roll_seven(mygame):
    edit(mygame, "quest_table.json", lambda table: table.update(dice=1))
    assert_error(
        mygame,
        "mygame/quest_table.json",
        "results",
        "the total 7 cannot be rolled (1 die rolls every total from 1 to 6)",
    )


def test_a_quest_result_naming_an_unknown_space(mygame):
    edit(
        mygame,
        "quest_table.json",
        lambda table: table["results"].__setitem__("7", {"space": "nowhere"}),
    )
    assert_error(
        mygame,
        "mygame/quest_table.json",
        'results["7"]',
        "unknown space 'nowhere' (map.json has 57 spaces, none with this id)",
    )


def test_an_unknown_key_in_a_section_of_the_italian_file(mygame):
    edit(mygame, "it.json", lambda tr: tr["map"].update(bogus={}))
    assert_error(
        mygame,
        "mygame/it.json",
        "map",
        "unknown key 'bogus' (expected: wedges, spaces; keys starting with '_' are comments)",
    )


def test_an_id_that_is_not_short_and_lowercase(mygame):
    edit(mygame, "scrolls.json", lambda cards: cards["scrolls"][0].update(id="Bad Id"))
    assert_error(
        mygame,
        "mygame/scrolls.json",
        "scrolls[0]",
        "'id' must be a short lowercase id (letters a-z, digits, '-' and '_'), not 'Bad Id'",
    )


def test_laid_out_angles_are_rounded_to_hundredths():
    """Seven spaces one step from the shadowland share the wedge's 45 degrees evenly, in id
    order; each angle is rounded to two decimals."""
    ring = [f"x{n}" for n in range(1, 8)]
    spaces = {ident: {"wedge": "a"} for ident in ["s", *ring]}
    adjacent = {"s": {ident: "" for ident in ring}, **{ident: {"s": ""} for ident in ring}}
    out = layout(spaces, adjacent, {"a": "s"}, ["a"], {})
    assert out["s"] == {"ring": 0.0, "angle": 0.0, "given": False}
    assert [out[ident]["angle"] for ident in ring] == [
        -19.29,
        -12.86,
        -6.43,
        0.0,
        6.43,
        12.86,
        19.29,
    ]
    assert out["x1"]["angle"] == pytest.approx(-19.29, abs=1e-9)


def test_a_quest_result_with_two_keys(mygame):
    edit(
        mygame,
        "quest_table.json",
        lambda table: table["results"].__setitem__("7", {"rune": "ash", "space": "rv-moor"}),
    )
    assert_error(
        mygame,
        "mygame/quest_table.json",
        'results["7"]',
        'a result is {"rune": "..."} or {"space": "..."}, not {"rune": "ash", "space": "rv-moor"}',
    )
