"""Triwizard data sets: the loader's validation of ``board.json`` (TW-AMB-1, TW-PORT-1,
TW-CUP-1, TW-COMP-1). Each test breaks one thing in a copy of the example set and checks the
error names the file, the place and the problem exactly."""

from __future__ import annotations

import pytest
from tw_data_support import (  # noqa: F401 (mymaze, mycorridor are fixtures)
    assert_error,
    cell,
    cells,
    edit,
    error,
    mycorridor,
    mymaze,
    where,
)

from companion.games.triwizard.rules import load_dataset

B = "mymaze/board.json"


def set_feature(x: int, y: int, feature):
    def change(board):
        target = cell(board, x, y)
        if feature is None:
            target.pop("feature", None)
        else:
            target["feature"] = feature

    return change


def test_cell_outside_the_grid(mymaze):
    """TW-AMB-1: coordinates inside the grid."""
    edit(
        mymaze, "board.json", lambda board: board["cells"].append({"x": 15, "y": 0, "kind": "path"})
    )
    err = error(mymaze)
    assert (err.file, err.problem) == (B, "'x' must be from 0 to 14, not 15")
    assert err.place.startswith("cells[") and err.place.endswith("]")
    edit(mymaze, "board.json", lambda board: board["cells"][-1].update(x=3, y=-1))
    assert error(mymaze).problem == "'y' must be from 0 to 14, not -1"


def test_cell_listed_twice(mymaze):
    """TW-AMB-1: no cell twice."""

    def twice(board):
        board["cells"].append({"x": 1, "y": 1, "kind": "path"})

    edit(mymaze, "board.json", twice)
    assert where(mymaze, 1, 1) == 0  # the first cell, row by row
    assert_error(
        mymaze,
        B,
        f"cells[{len(cells(mymaze)) - 1}] (x 1, y 1)",
        "this cell is listed twice (also cells[0])",
    )


def test_duplicate_cell_ids(mycorridor):
    edit(mycorridor, "board.json", lambda board: board["cells"][3].update(id="K1"))
    assert_error(
        mycorridor,
        "mycorridor/board.json",
        "cells[3] (x 3, y 0)",
        "the id 'K1' is used twice (also cells[1])",
    )


def test_cell_id_with_a_comma(mycorridor):
    edit(mycorridor, "board.json", lambda board: board["cells"][3].update(id="3,0"))
    assert_error(
        mycorridor,
        "mycorridor/board.json",
        "cells[3] (x 3, y 0)",
        "'id' must be letters, digits, '-' and '_' (no comma), not '3,0'",
    )


def test_unknown_kind(mymaze):
    edit(mymaze, "board.json", lambda board: cell(board, 2, 1).update(kind="lawn"))
    index = where(mymaze, 2, 1)
    assert_error(
        mymaze,
        B,
        f"cells[{index}] (x 2, y 1)",
        "'kind' must be one of 'path', 'green_hedge', 'dark_hedge', not text \"lawn\"",
    )


def test_feature_on_green_hedge(mymaze):
    """TW-AMB-1: features only on path cells."""
    edit(mymaze, "board.json", set_feature(2, 8, "gold_mist"))
    index = where(mymaze, 2, 8)
    assert_error(
        mymaze,
        B,
        f"cells[{index}] (x 2, y 8)",
        "a green_hedge cell cannot have a feature (gold_mist); features are only on path cells "
        "(TW-AMB-1)",
    )


def test_feature_on_dark_hedge(mymaze):
    edit(
        mymaze,
        "board.json",
        lambda board: board["cells"].append(
            {"x": 0, "y": 0, "kind": "dark_hedge", "feature": "penalty"}
        ),
    )
    err = error(mymaze)
    assert err.place.endswith("(x 0, y 0)")
    assert err.problem == (
        "a dark_hedge cell cannot have a feature (penalty); features are only on path cells "
        "(TW-AMB-1)"
    )


def test_a_listed_dark_hedge_cell_is_no_space(mymaze):
    edit(
        mymaze,
        "board.json",
        lambda board: board["cells"].append({"x": 0, "y": 0, "kind": "dark_hedge"}),
    )
    data = load_dataset(mymaze)
    assert "0,0" not in data["board"]["spaces"]


@pytest.mark.parametrize(
    ("feature", "problem"),
    [
        (
            "fountain",
            "'feature' must be one of 'entrance', 'obstacle', 'gold_mist', 'penalty', "
            "'hedge_home', not text \"fountain\"",
        ),
        (
            {"portal": "A"},
            "the feature's key must be one of 'portkey', 'headstone', 'cup_slot', not text "
            '"portal"',
        ),
        ({"portkey": 1}, 'a portkey\'s pair must be a short name such as "A", not the number 1'),
        ({"headstone": 4}, "'headstone' must be from 1 to 3, not 4"),
        ({"cup_slot": 0}, "'cup_slot' must be from 1 to 4, not 0"),
        (
            {"cup_slot": 1, "headstone": 2},
            "'feature' must be one of entrance, obstacle, gold_mist, penalty, hedge_home, or an "
            "object of one key (portkey, headstone or cup_slot), not an object",
        ),
    ],
)
def test_bad_feature(mymaze, feature, problem):
    edit(mymaze, "board.json", set_feature(2, 1, feature))
    index = where(mymaze, 2, 1)
    assert_error(mymaze, B, f"cells[{index}] (x 2, y 1)", problem)


def test_no_entrance(mymaze):
    """TW-AMB-1, TW-SETUP-2: exactly 1 entrance."""
    edit(mymaze, "board.json", set_feature(7, 14, None))
    assert_error(
        mymaze,
        B,
        "cells",
        "the board has no entrance cell; it needs exactly 1 (TW-SETUP-2, TW-AMB-1)",
    )


def test_two_entrances(mymaze):
    edit(mymaze, "board.json", set_feature(2, 1, "entrance"))
    index = where(mymaze, 2, 1)
    last = len(cells(mymaze)) - 1
    assert_error(
        mymaze,
        B,
        "cells",
        f"the board has 2 entrance cells (cells[{index}], cells[{last}]); it needs exactly 1 "
        "(TW-SETUP-2, TW-AMB-1)",
    )


def test_two_hedge_homes(mymaze):
    """TW-SETUP-5, TW-COMP-9, TW-AMB-1: exactly 1 hedge_home (the Wandering Hedge's space)."""
    edit(mymaze, "board.json", set_feature(2, 1, "hedge_home"))
    err = error(mymaze)
    assert err.place == "cells"
    assert err.problem.startswith("the board has 2 hedge_home cells (cells[")
    assert err.problem.endswith("); it needs exactly 1 (TW-SETUP-5, TW-AMB-1)")


def test_cup_slot_missing(mymaze):
    """TW-CUP-1: cup slots 1..4 once each."""
    edit(mymaze, "board.json", set_feature(8, 7, None))  # cup slot 2
    assert_error(
        mymaze,
        B,
        "cells",
        "the board has no cup_slot 2 cell; it needs exactly 1 (TW-CUP-1, TW-AMB-1)",
    )


def test_cup_slot_twice(mymaze):
    edit(mymaze, "board.json", set_feature(8, 7, {"cup_slot": 1}))
    err = error(mymaze)
    assert err.place == "cells"
    assert err.problem.startswith("the board has 2 cup_slot 1 cells (cells[")
    assert err.problem.endswith("); it needs exactly 1 (TW-CUP-1, TW-AMB-1)")


def test_headstone_missing_and_twice(mymaze):
    """TW-HEAD-1, TW-AMB-1: headstones 1, 2, 3 once each."""
    edit(mymaze, "board.json", set_feature(1, 9, {"headstone": 1}))  # 2 -> 1
    err = error(mymaze)
    assert err.problem.startswith("the board has 2 headstone 1 cells (cells[")
    assert err.problem.endswith("); it needs exactly 1 (TW-HEAD-1, TW-AMB-1)")
    edit(mymaze, "board.json", set_feature(10, 1, None))  # the first headstone 1 gone
    assert_error(
        mymaze,
        B,
        "cells",
        "the board has no headstone 2 cell; it needs exactly 1 (TW-HEAD-1, TW-AMB-1)",
    )


def test_portkey_pair_on_one_cell(mymaze):
    """TW-PORT-1: each pair id exactly twice."""
    edit(mymaze, "board.json", set_feature(10, 10, None))  # A's partner
    assert_error(
        mymaze,
        B,
        "cells[0] (x 1, y 1)",
        "the portkey pair 'A' is on 1 cell(s) (cells[0]); each pair is on exactly 2 cells "
        "(TW-PORT-1)",
    )


def test_portkey_pair_on_three_cells(mymaze):
    edit(mymaze, "board.json", set_feature(2, 1, {"portkey": "A"}))
    err = error(mymaze)
    assert err.problem.startswith("the portkey pair 'A' is on 3 cell(s) (cells[0], cells[1], ")


def test_two_or_four_portkey_pairs(mymaze):
    """TW-PORT-1, TW-AMB-1: 3 pairs."""
    edit(mymaze, "board.json", set_feature(2, 1, {"portkey": "D"}))
    edit(mymaze, "board.json", set_feature(3, 1, {"portkey": "D"}))
    assert_error(
        mymaze,
        B,
        "cells",
        "the board has 4 portkey pairs (A, B, C, D); it needs exactly 3 (TW-PORT-1, TW-AMB-1)",
    )
    for x, y in ((2, 1), (3, 1), (1, 1), (10, 10)):
        edit(mymaze, "board.json", set_feature(x, y, None))
    assert_error(
        mymaze,
        B,
        "cells",
        "the board has 2 portkey pairs (B, C); it needs exactly 3 (TW-PORT-1, TW-AMB-1)",
    )


def test_no_obstacle(mymaze):
    """TW-AMB-1: at least 1 obstacle."""
    for x, y in ((7, 2), (7, 5), (5, 7), (9, 7), (7, 9), (12, 9)):
        edit(mymaze, "board.json", set_feature(x, y, None))
    assert_error(
        mymaze, B, "cells", "the board has no obstacle cell; it needs at least 1 (TW-AMB-1)"
    )


def test_no_penalty(mymaze):
    """TW-AMB-1: at least 1 penalty."""
    for x, y in ((1, 3), (13, 11)):
        edit(mymaze, "board.json", set_feature(x, y, None))
    assert_error(
        mymaze, B, "cells", "the board has no penalty cell; it needs at least 1 (TW-AMB-1)"
    )


def test_unreachable_path_cell(mymaze):
    """TW-AMB-1: every path cell reachable from the entrance over path cells; says which."""
    edit(
        mymaze, "board.json", lambda board: board["cells"].append({"x": 3, "y": 3, "kind": "path"})
    )
    index = len(cells(mymaze)) - 1
    assert_error(
        mymaze,
        B,
        f"cells[{index}] (x 3, y 3) (id '3,3')",
        "this path cell cannot be reached from the entrance over path cells (TW-AMB-1, TW-MOVE-2/3)",
    )


def test_reachable_only_through_green_hedge(mymaze):
    """TW-AMB-1, TW-MOVE-4: a path cell reached only across Green Hedge is unreachable."""
    edit(mymaze, "board.json", lambda board: cell(board, 4, 8).update(kind="green_hedge"))
    index = where(mymaze, 3, 8)
    assert_error(
        mymaze,
        B,
        f"cells[{index}] (x 3, y 8) (id '3,8')",
        "this path cell cannot be reached from the entrance over path cells (TW-AMB-1, TW-MOVE-2/3)",
    )


@pytest.mark.parametrize(
    ("grid", "place", "problem"),
    [
        ({"width": 0, "height": 15}, "grid", "'width' must be from 1 to 60, not 0"),
        ({"width": 15, "height": 61}, "grid", "'height' must be from 1 to 60, not 61"),
        ({"width": 15}, "grid", "the key 'height' is missing (a whole number expected)"),
        (
            {"width": 15, "height": 15, "depth": 1},
            "grid",
            "unknown key 'depth' (expected: width, height; keys starting with '_' are comments)",
        ),
        ({"width": "15", "height": 15}, "grid", "'width' must be a whole number, not text \"15\""),
    ],
)
def test_bad_grid(mymaze, grid, place, problem):
    edit(mymaze, "board.json", lambda board: board.update(grid=grid))
    assert_error(mymaze, B, place, problem)


def test_unknown_key_in_a_cell(mymaze):
    edit(mymaze, "board.json", lambda board: board["cells"][0].update(colour="brown"))
    assert_error(
        mymaze,
        B,
        "cells[0]",
        "unknown key 'colour' (expected: x, y, kind, feature, id; keys starting with '_' are "
        "comments)",
    )


def test_cells_not_a_list(mymaze):
    edit(mymaze, "board.json", lambda board: board.update(cells={}))
    assert_error(mymaze, B, "top level", "'cells' must be a list, not an object")
