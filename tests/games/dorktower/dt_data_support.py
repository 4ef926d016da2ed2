"""Helpers for the tests of Dork Tower's data sets: the bundled example (``DATA``), and a copy
of it (the fixture ``mygame``) to break one thing at a time and check that the error names the
file, the place and the problem exactly (``assert_error``)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.games.dorktower.rules.data import (
    DataError,
    example_dataset,
    example_directory,
    load_dataset,
)

DATA = example_dataset()


@pytest.fixture
def mygame(tmp_path: Path) -> Path:
    folder = tmp_path / "mygame"
    shutil.copytree(example_directory(), folder)
    return folder


def edit(folder: Path, filename: str, change: Callable[[Any], Any]) -> None:
    """Rewrite one file of ``folder`` after ``change`` edits its parsed JSON in place."""
    path = folder / filename
    content = json.loads(path.read_text(encoding="utf-8"))
    change(content)
    path.write_text(json.dumps(content, indent=2), encoding="utf-8")


def error(folder: Path) -> DataError:
    with pytest.raises(DataError) as caught:
        load_dataset(folder)
    err = caught.value
    assert str(err) == f"{err.file}: {err.place}: {err.problem}"
    return err


def assert_error(folder: Path, file: str, place: str, problem: str) -> None:
    err = error(folder)
    assert (err.file, err.place, err.problem) == (file, place, problem)


def index(items: list[dict[str, Any]], ident: str) -> int:
    return next(i for i, item in enumerate(items) if item["id"] == ident)
