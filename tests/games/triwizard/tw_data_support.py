"""Helpers for the tests of Triwizard's data sets: the bundled example and Corridor K, and a
copy of either (the fixtures ``mymaze`` and ``mycorridor``) to break one thing at a time and
check that the error names the file, the place and the problem exactly (``assert_error``)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.games.triwizard.rules.data import DataError, load_dataset
from companion.games.triwizard.rules.datasets import bundled, data_directory

EXAMPLE = bundled()["example"]
CORRIDOR = bundled()["corridor-k"]


def _copy(tmp_path: Path, name: str, label: str) -> Path:
    folder = tmp_path / label
    shutil.copytree(data_directory() / name, folder)
    return folder


@pytest.fixture
def mymaze(tmp_path: Path) -> Path:
    """A copy of the example set in a directory named ``mymaze``."""
    return _copy(tmp_path, "example", "mymaze")


@pytest.fixture
def mycorridor(tmp_path: Path) -> Path:
    """A copy of Corridor K in a directory named ``mycorridor``."""
    return _copy(tmp_path, "corridor-k", "mycorridor")


def edit(folder: Path, filename: str, change: Callable[[Any], Any]) -> None:
    """Rewrite one file of ``folder`` after ``change`` edits its parsed JSON in place."""
    path = folder / filename
    content = json.loads(path.read_text(encoding="utf-8"))
    change(content)
    path.write_text(json.dumps(content, indent=2), encoding="utf-8")


def error(folder: Path) -> DataError:
    """The DataError loading ``folder`` raises; its text is "<file>: <place>: <problem>"."""
    with pytest.raises(DataError) as caught:
        load_dataset(folder)
    err = caught.value
    assert str(err) == f"{err.file}: {err.place}: {err.problem}"
    return err


def assert_error(folder: Path, file: str, place: str, problem: str) -> None:
    err = error(folder)
    assert (err.file, err.place, err.problem) == (file, place, problem)


def cell(board: dict[str, Any], x: int, y: int) -> dict[str, Any]:
    """The cell entry at (x, y) of a parsed ``board.json``."""
    return next(c for c in board["cells"] if (c["x"], c["y"]) == (x, y))


def cells(folder: Path) -> list[dict[str, Any]]:
    """The cells of ``folder``'s ``board.json`` as written."""
    return json.loads((folder / "board.json").read_text(encoding="utf-8"))["cells"]


def where(folder: Path, x: int, y: int) -> int:
    """The index in ``folder``'s ``board.json`` of the cell at (x, y) (the first, if twice)."""
    return next(i for i, c in enumerate(cells(folder)) if (c["x"], c["y"]) == (x, y))
