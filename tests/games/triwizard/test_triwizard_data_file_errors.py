"""Triwizard data sets: the loader's validation of the files themselves, the manifest, the
cards (TW-COMP-4/6/8, TW-AMB-3), the die (TW-COMP-7, TW-AMB-2) and ``it.json``. Each test breaks
one thing in a copy of the example set and checks the error names file, place and problem."""

from __future__ import annotations

import pytest
from tw_data_support import assert_error, edit, error, mymaze  # noqa: F401 (mymaze is a fixture)

from companion.games.triwizard.rules import load_dataset
from companion.games.triwizard.rules.data_checks import DataError

C = "mymaze/cards.json"


def test_error_text_is_file_place_problem():
    err = DataError("mymaze/board.json", "cells[3] (x 3, y 0)", "something is wrong")
    assert isinstance(err, ValueError)
    assert str(err) == "mymaze/board.json: cells[3] (x 3, y 0): something is wrong"


def test_no_directory(tmp_path):
    with pytest.raises(DataError) as caught:
        load_dataset(tmp_path / "nothere")
    assert (caught.value.file, caught.value.place) == ("nothere", "directory")
    assert caught.value.problem.startswith("there is no directory ")


@pytest.mark.parametrize("name", ["dataset.json", "board.json", "cards.json", "die.json"])
def test_missing_file(mymaze, name):
    (mymaze / name).unlink()
    assert_error(
        mymaze,
        f"mymaze/{name}",
        "file",
        "the file is missing (a data set has 4 files: dataset.json, board.json, cards.json, "
        "die.json)",
    )


def test_bad_json(mymaze):
    (mymaze / "board.json").write_text('{"grid": {"width": 15,}}', encoding="utf-8")
    assert_error(
        mymaze,
        "mymaze/board.json",
        "line 1, column 23",
        "invalid JSON: Expecting property name enclosed in double quotes",
    )


def test_not_utf8(mymaze):
    (mymaze / "die.json").write_bytes(b'{"faces": ["\xff"]}')
    assert_error(mymaze, "mymaze/die.json", "byte 12", "the file is not UTF-8 text")


def test_key_twice(mymaze):
    (mymaze / "die.json").write_text(
        '{"faces": ["cloak", 1, 2, 3, 4, 5], "faces": [1]}', encoding="utf-8"
    )
    assert_error(mymaze, "mymaze/die.json", "top level", "the file has the key 'faces' twice")


def test_top_level_not_an_object(mymaze):
    (mymaze / "cards.json").write_text("[]", encoding="utf-8")
    assert_error(mymaze, C, "top level", "the file must be an object, not a list")


# ----------------------------------------------------------------------------------------------
# dataset.json


def test_wrong_schema(mymaze):
    edit(mymaze, "dataset.json", lambda d: d.update(schema="triwizard/2"))
    assert_error(
        mymaze,
        "mymaze/dataset.json",
        "top level",
        "'schema' must be 'triwizard/1', not 'triwizard/2'",
    )


def test_bad_name_and_missing_title(mymaze):
    edit(mymaze, "dataset.json", lambda d: d.update(name="My Maze"))
    assert error(mymaze).problem == (
        "'name' must be a short lowercase id (letters a-z, digits, '-' and '_'), not 'My Maze'"
    )
    edit(mymaze, "dataset.json", lambda d: (d.update(name="mine"), d.pop("title")))
    assert_error(
        mymaze,
        "mymaze/dataset.json",
        "top level",
        "the key 'title' is missing (non-empty text expected)",
    )


def test_example_flag_is_a_bool(mymaze):
    edit(mymaze, "dataset.json", lambda d: d.update(example="yes"))
    assert error(mymaze).problem == "'example' must be true or false, not text \"yes\""


# ----------------------------------------------------------------------------------------------
# cards.json


@pytest.mark.parametrize(
    ("deck", "count", "rule"),
    [("battle", 40, "TW-COMP-4"), ("obstacles", 20, "TW-COMP-6"), ("tiles", 36, "TW-COMP-8")],
)
def test_wrong_totals(mymaze, deck, count, rule):
    """TW-COMP-4/6/8: 40 Battle Cards, 20 Obstacle Cards, 36 Resource Tiles."""
    edit(mymaze, "cards.json", lambda cards: cards[deck].pop())
    assert_error(
        mymaze, C, deck, f"there are {count - 1} entries; the game has exactly {count} ({rule})"
    )


def test_too_many_tiles(mymaze):
    edit(mymaze, "cards.json", lambda cards: cards["tiles"].append({"id": "r37", "kind": "cloak"}))
    assert_error(mymaze, C, "tiles", "there are 37 entries; the game has exactly 36 (TW-COMP-8)")


def test_bad_colour(mymaze):
    """TW-BCARD-1: colours are red, blue, orange, green."""
    edit(mymaze, "cards.json", lambda cards: cards["battle"][2].update(colour="purple"))
    assert_error(
        mymaze,
        C,
        "battle[2] (id 'b03')",
        "'colour' must be one of 'red', 'blue', 'orange', 'green', not text \"purple\"",
    )


def test_bad_obstacle_colours(mymaze):
    """TW-OCARD-1: one or more colour blocks, from the four colours."""
    edit(mymaze, "cards.json", lambda cards: cards["obstacles"][0].update(colours=["red", "pink"]))
    assert_error(
        mymaze,
        C,
        "obstacles[0] (id 'o01')",
        "each of 'colours' must be one of 'red', 'blue', 'orange', 'green', not text \"pink\"",
    )
    edit(mymaze, "cards.json", lambda cards: cards["obstacles"][0].update(colours=[]))
    assert error(mymaze).problem == "'colours' must name at least 1 colour (TW-OCARD-1)"
    edit(mymaze, "cards.json", lambda cards: cards["obstacles"][0].update(colours=["red", "red"]))
    assert error(mymaze).problem == "'colours' names a colour twice"


def test_obstacle_colours_kept_in_colour_order(mymaze):
    edit(mymaze, "cards.json", lambda cards: cards["obstacles"][0].update(colours=["green", "red"]))
    assert load_dataset(mymaze)["obstacles"]["o01"]["colours"] == ["red", "green"]


def test_bad_tile_kind(mymaze):
    """Spec 4.3: the 8 kinds of Resource Tile."""
    edit(mymaze, "cards.json", lambda cards: cards["tiles"][5].update(kind="portkey"))
    err = error(mymaze)
    assert (err.file, err.place) == (C, "tiles[5] (id 'r06')")
    assert err.problem.startswith("'kind' must be one of 'dumbledore', 'double_die', ")
    assert err.problem.endswith("'veritaserum', not text \"portkey\"")


def test_duplicate_ids_across_the_file(mymaze):
    """Ids are unique across cards.json (battle, obstacles and tiles together)."""
    edit(mymaze, "cards.json", lambda cards: cards["tiles"][0].update(id="b07"))
    assert_error(mymaze, C, "tiles[0] (id 'b07')", "the id 'b07' is used twice (also battle[6])")
    edit(mymaze, "cards.json", lambda cards: cards["tiles"].__setitem__(0, cards["tiles"][1]))
    assert_error(mymaze, C, "tiles[1] (id 'r02')", "the id 'r02' is used twice (also tiles[0])")


def test_bad_card_id(mymaze):
    edit(mymaze, "cards.json", lambda cards: cards["battle"][0].update(id="B 1"))
    assert_error(
        mymaze,
        C,
        "battle[0]",
        "'id' must be a short lowercase id (letters a-z, digits, '-' and '_'), not 'B 1'",
    )


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"strength": "5"}, "'strength' must be a whole number, not text \"5\""),
        ({"strength": True}, "'strength' must be a whole number, not true"),
        ({"movement": -1}, "'movement' must be from 0 to 20, not -1"),
        ({"strength": 100}, "'strength' must be from 0 to 99, not 100"),
        (
            {"reward": 2},
            "unknown key 'reward' (expected: id, colour, strength, movement; keys starting with "
            "'_' are comments)",
        ),
    ],
)
def test_bad_battle_card_fields(mymaze, change, problem):
    edit(mymaze, "cards.json", lambda cards: cards["battle"][0].update(change))
    assert_error(mymaze, C, "battle[0] (id 'b01')", problem)


def test_missing_deck(mymaze):
    edit(mymaze, "cards.json", lambda cards: cards.pop("obstacles"))
    assert_error(mymaze, C, "top level", "the key 'obstacles' is missing (a list expected)")


# ----------------------------------------------------------------------------------------------
# die.json


@pytest.mark.parametrize(
    ("faces", "place", "problem"),
    [
        (["cloak", 1, 2, 3, 4], "faces", "the die has 5 faces; it has exactly 6 (TW-COMP-7)"),
        (
            [1, 2, 3, 4, 5, 6],
            "faces",
            'no face is "cloak"; the die has at least one (TW-COMP-7, TW-AMB-2)',
        ),
        (
            ["cloak", 1, 2, 3, 4, 7],
            "faces[5]",
            'a face is "cloak" or a whole number from 1 to 6, not the number 7',
        ),
        (
            ["Cloak", 1, 2, 3, 4, 5],
            "faces[0]",
            'a face is "cloak" or a whole number from 1 to 6, not text "Cloak"',
        ),
    ],
)
def test_bad_die(mymaze, faces, place, problem):
    """TW-COMP-7, TW-AMB-2: six faces, at least one Cloak."""
    edit(mymaze, "die.json", lambda die: die.update(faces=faces))
    assert_error(mymaze, "mymaze/die.json", place, problem)


def test_two_cloak_faces_allowed(mymaze):
    edit(mymaze, "die.json", lambda die: die.update(faces=["cloak", "cloak", 1, 2, 3, 4]))
    assert load_dataset(mymaze)["die"]["faces"] == ["cloak", "cloak", 1, 2, 3, 4]


# ----------------------------------------------------------------------------------------------
# it.json


def test_it_unknown_id(mymaze):
    edit(mymaze, "it.json", lambda names: names["colours"].update(purple="Viola"))
    assert_error(
        mymaze,
        "mymaze/it.json",
        "colours.purple",
        "unknown id 'purple' (the colours are: red, blue, orange, green)",
    )


def test_it_unknown_section_and_empty_name(mymaze):
    edit(mymaze, "it.json", lambda names: names.update(spells={}))
    err = error(mymaze)
    assert (err.file, err.place) == ("mymaze/it.json", "top level")
    assert err.problem.startswith("unknown key 'spells' (expected: title, colours, tile_kinds, ")
    edit(mymaze, "it.json", lambda names: (names.pop("spells"), names["kinds"].update(path=" ")))
    assert_error(
        mymaze, "mymaze/it.json", "kinds.path", 'a name must be non-empty text, not text " "'
    )
