"""Recorded logs put into a store as plays, with the moments of their entries chosen (not a test
module): the Plays tests replay them and check what the loader and the pages say."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from companion.games import get_game
from companion.rules import Accepted
from companion.table import store as store_module
from companion.table.history import History

TESTS = Path(__file__).parent
#: a finished recorded play of every registered game: (path, winners, scores, start player)
FINISHED = {
    "abracadawhat": TESTS / "games/abracadawhat/replays/game-1.jsonl",
    "dorktower": TESTS / "games/dorktower/scenarios/zmindrik-victory.jsonl",
    "triwizard": TESTS / "games/triwizard/replays/cup-tiles.jsonl",
}
START = datetime(2026, 3, 14, 19, 0, tzinfo=UTC)


class Clock:
    """The store's clock, moved on by ``step`` seconds at every reading."""

    def __init__(self, start: datetime = START, step: int = 60):
        self.now, self.step = start, timedelta(seconds=step)

    def __call__(self) -> str:
        moment = self.now
        self.now += self.step
        return moment.isoformat(timespec="milliseconds")


def record_log(store: Any, lines: list[str], monkeypatch: Any, clock: Clock) -> Any:
    """Start the game of a JSON Lines log (header, then actions or undos) in ``store`` and append
    every line the rules accept, as the table would (each moment from ``clock``); the record."""
    monkeypatch.setattr(store_module, "now", clock)
    header = json.loads(lines[0])
    game = get_game(header["game"])
    options, seed = header.get("options") or {}, header.get("seed", 0)
    record = store.start_game(header["game"], header["players"], options, seed, {})
    history, seq = History(game, header["players"], options, seed), 0
    for line in lines[1:]:
        if not line.strip():
            continue
        action = json.loads(line)
        if isinstance(history.submit(action), Accepted):
            seq += 1
            store.append(record.id, seq, action, "test", game.outcome(history.state).finished)
    return store.game(record.id)


def log_lines(path: Path) -> list[str]:
    return [line for line in path.read_text().splitlines() if line.strip()]
