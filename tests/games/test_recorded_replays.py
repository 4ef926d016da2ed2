"""Recorded games replay byte for byte as they did when they were recorded.

``tests/games/<id>/replays/game-<n>.jsonl`` are random games of each game (every option mix, an
undo at the end of some), recorded with ``companion replay`` before the games became packages;
``game-<n>.json`` is what ``companion replay`` printed then, ``game-<n>.P1.json`` what it printed
with ``--view P1``. A change that alters any byte of a replay, a refactoring above all, fails
here."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main

RECORDED = sorted(Path(__file__).resolve().parent.glob("*/replays/game-*.jsonl"))


@pytest.mark.parametrize(
    "recorded", [pytest.param(path, id=f"{path.parts[-3]}-{path.stem}") for path in RECORDED]
)
@pytest.mark.parametrize("view", [None, "P1"])
def test_a_recorded_game_replays_byte_for_byte(recorded, view, capsys):
    expected = recorded.with_suffix(".P1.json" if view else ".json").read_text(encoding="utf-8")
    code = main(["replay", str(recorded), *(["--view", view] if view else [])])
    assert code == 0
    assert capsys.readouterr().out == expected


def test_every_shipped_game_has_recorded_games():
    from companion.games import GAME_IDS

    assert {path.parts[-3] for path in RECORDED} == set(GAME_IDS)
