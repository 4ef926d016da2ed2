"""The maze API (rules/maze.py) on Corridor K and the example: neighbours, steps and the three
movement rule IDs, straight lines, Path distances, nearest spaces and open spaces."""

from __future__ import annotations

from tw_data_support import CORRIDOR, EXAMPLE

from companion.games.triwizard.rules import maze


def test_corridor_neighbours():
    """TW-MOVE-2: orthogonal neighbours; Corridor K's K*i* is next to K*i*±1 (spec section 5)."""
    assert maze.neighbours(CORRIDOR, "K3") == ["K2", "K4"]
    assert maze.neighbours(CORRIDOR, "K20") == ["K19", "C1"]
    assert maze.neighbours(CORRIDOR, "K0") == ["K1", "0,1"]
    # Green Hedge counts as a neighbour (a Reductor may cross it), Dark Hedge does not
    assert maze.neighbours(CORRIDOR, "K6") == ["K5", "K7", "6,1"]
    assert maze.neighbours(CORRIDOR, "9,9") == []
    assert maze.neighbours(CORRIDOR, "nowhere") == []


def test_kinds_and_features():
    assert maze.is_path(CORRIDOR, "K5") and not maze.is_green(CORRIDOR, "K5")
    assert maze.is_green(CORRIDOR, "6,1") and not maze.is_path(CORRIDOR, "6,1")
    assert maze.on_board(CORRIDOR, "6,1") and not maze.on_board(CORRIDOR, "7,1")
    assert not maze.on_board(CORRIDOR, None)
    assert maze.feature(CORRIDOR, "K5") == "obstacle"
    assert maze.feature(CORRIDOR, "K10") == "portkey"
    assert maze.feature(CORRIDOR, "C3") == "cup_slot"
    assert maze.feature(CORRIDOR, "K4") is None
    assert maze.feature(CORRIDOR, "7,1") is None


def test_adjacent_any_kind():
    """Grid neighbours whatever their kind, by id or by "x,y"."""
    assert maze.adjacent(CORRIDOR, "K4", "K5")
    assert maze.adjacent(CORRIDOR, "K4", "4,1")  # Dark Hedge below K4
    assert maze.adjacent(CORRIDOR, "K4", "4,-1")  # off the board
    assert not maze.adjacent(CORRIDOR, "K4", "5,1")  # diagonal
    assert not maze.adjacent(CORRIDOR, "K4", "K6")
    assert not maze.adjacent(CORRIDOR, "K4", "K4")
    assert not maze.adjacent(CORRIDOR, "K4", "junk")


def test_step_problem_path_step():
    assert maze.step_problem(CORRIDOR, "K4", "K5") is None
    assert maze.step_problem(CORRIDOR, "K20", "C1") is None
    assert maze.step_problem(EXAMPLE, "7,14", "7,13") is None


def test_step_problem_not_orthogonal():
    """TW-MOVE-2: a diagonal step or a jump is refused."""
    assert maze.step_problem(CORRIDOR, "K0", "1,2") == "TW-MOVE-2"  # diagonal to a Path space
    assert maze.step_problem(CORRIDOR, "K4", "K6") == "TW-MOVE-2"
    assert maze.step_problem(EXAMPLE, "1,1", "2,2") == "TW-MOVE-2"  # diagonal into Dark Hedge


def test_step_problem_dark_hedge_or_off_board():
    """TW-MOVE-3: Dark Hedge, outside the grid, or a name that is no cell."""
    assert maze.step_problem(CORRIDOR, "K4", "4,1") == "TW-MOVE-3"
    assert maze.step_problem(CORRIDOR, "K4", "4,-1") == "TW-MOVE-3"
    assert maze.step_problem(CORRIDOR, "K20", "20,1") == "TW-MOVE-3"
    assert maze.step_problem(CORRIDOR, "K4", "nowhere") == "TW-MOVE-3"


def test_step_problem_green_hedge():
    """TW-MOVE-4: Green Hedge only with the Reductor Curse (the caller decides)."""
    assert maze.step_problem(CORRIDOR, "K6", "6,1") == "TW-MOVE-4"
    assert maze.step_problem(CORRIDOR, "6,2", "6,1") == "TW-MOVE-4"
    assert maze.step_problem(EXAMPLE, "7,10", "7,11") == "TW-MOVE-4"


def test_straight():
    """TW-RES-REDUCT-4 geometry: a Green Hedge is crossed in a straight line."""
    assert maze.straight(CORRIDOR, "K6", "6,1", "6,2")
    assert maze.straight(CORRIDOR, "6,2", "6,1", "K6")
    assert maze.straight(CORRIDOR, "K1", "K2", "K3")
    assert not maze.straight(CORRIDOR, "K1", "K2", "K1")  # back
    assert maze.straight(CORRIDOR, "K0", "0,1", "0,2")
    assert not maze.straight(CORRIDOR, "K1", "K0", "0,1")  # a bend
    assert not maze.straight(CORRIDOR, "K1", "K3", "K5")  # not consecutive
    assert not maze.straight(CORRIDOR, "K1", "K2", "junk")
    # the example's double Green Hedge between (7,10) and (7,13)
    assert maze.straight(EXAMPLE, "7,10", "7,11", "7,12")
    assert maze.straight(EXAMPLE, "7,11", "7,12", "7,13")


def test_distances_along_the_corridor():
    """TW-AMB-5: fewest orthogonal Path steps; Green Hedge not crossed."""
    far = maze.distances(CORRIDOR, "K0")
    assert far["K5"] == 5 and far["K20"] == 20 and far["C1"] == 21 and far["C3"] == 23
    assert far["6,2"] == 8  # round by the side corridor, not through the hedge under K6
    assert "6,1" not in far
    assert maze.distances(CORRIDOR, "K14")["K12"] == 2
    assert maze.distances(CORRIDOR, "7,1") == {}


def test_distances_ignore_the_wandering_hedge_and_pieces():
    """TW-AMB-5: the hedge home is an ordinary Path space for distances."""
    home = CORRIDOR["board"]["hedge_home"]
    assert maze.distances(CORRIDOR, "C2")[home] == 1
    ex = EXAMPLE["board"]
    assert maze.distances(EXAMPLE, ex["cup_slots"]["1"])[ex["cup_slots"]["3"]] == 2


def test_nearest():
    """TW-AMB-5, TW-PEN-1: the nearest Penalty Space; ties all listed, in the given order."""
    assert maze.nearest(CORRIDOR, "K14", ["K12"]) == ["K12"]
    assert maze.nearest(CORRIDOR, "K10", ["K8", "K12", "K5"]) == ["K8", "K12"]
    assert maze.nearest(CORRIDOR, "K10", ["K12", "K8"]) == ["K12", "K8"]
    assert maze.nearest(CORRIDOR, "K10", ["6,1", "7,1"]) == []
    assert maze.nearest(CORRIDOR, "K10", []) == []
    assert maze.nearest(EXAMPLE, "7,7", EXAMPLE["board"]["penalties"]) == ["1,3", "13,11"]
    assert maze.nearest(EXAMPLE, "1,1", EXAMPLE["board"]["penalties"]) == ["1,3"]


def test_open_spaces():
    """TW-RES-HEDGE-2/3, TW-AMB-19: Path, no symbol (the hedge home counts as none), no Dark
    Hedge or edge on any side."""
    assert maze.open_spaces(CORRIDOR) == ["14,2", "14,3"]
    spaces = maze.open_spaces(EXAMPLE)
    assert spaces == ["11,2", "12,2", "7,4", "7,7", "7,10", "2,12", "3,12", "7,13"]
    assert EXAMPLE["board"]["hedge_home"] in spaces
    for space in spaces:
        assert maze.feature(EXAMPLE, space) in (None, "hedge_home")
        assert len(maze.neighbours(EXAMPLE, space)) == 4


def test_every_example_path_space_is_reachable():
    """TW-AMB-1: every Path space can be walked to from the Entrance."""
    board = EXAMPLE["board"]
    far = maze.distances(EXAMPLE, board["entrance"])
    paths = {ident for ident, space in board["spaces"].items() if space["kind"] == "path"}
    assert set(far) == paths
    assert all(far[slot] >= 10 for slot in board["cup_slots"].values())


def test_every_step_of_the_example_answers_consistently():
    """TW-MOVE-2/3/4 over the whole example grid: step_problem is None exactly for the Path
    neighbours; neighbours are symmetric and adjacent."""
    board = EXAMPLE["board"]
    for here in board["spaces"]:
        x, y = maze.coords(EXAMPLE, here)
        assert maze.space_at(EXAMPLE, x, y) == here
        for there in maze.neighbours(EXAMPLE, here):
            assert here in maze.neighbours(EXAMPLE, there)
            assert maze.adjacent(EXAMPLE, here, there)
        for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1), (1, 1), (0, 2)):
            target = maze.space_at(EXAMPLE, x + dx, y + dy) or f"{x + dx},{y + dy}"
            problem = maze.step_problem(EXAMPLE, here, target)
            if abs(dx) + abs(dy) != 1:
                assert problem == "TW-MOVE-2"
            elif maze.is_path(EXAMPLE, target):
                assert problem is None
            elif maze.is_green(EXAMPLE, target):
                assert problem == "TW-MOVE-4"
            else:
                assert problem == "TW-MOVE-3"
