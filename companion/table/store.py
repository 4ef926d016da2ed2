"""The durable record of the table, in one SQLite file (standard library only).

* ``games``: every game ever started, with its players, options, seed and per-player tokens;
  finished games are kept with their history.
* ``entries``: the event log. One row per accepted action (or undo), committed with
  ``synchronous=FULL`` before anything shows its effect, so a pulled plug loses nothing that was
  acknowledged. A game's state is the replay of its entries.
* ``refusals``: every refused input, with the rule and the reason (never part of the state).
* ``tags``: the NFC tag registry (UID -> component).
* ``settings``: small key/value facts such as the host token.

Every method takes the store's lock, so the web threads and the table loop can share one store.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, UTC
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    tokens TEXT NOT NULL,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    abandoned INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS entries (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    source TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS refusals (
    id INTEGER PRIMARY KEY,
    game_id INTEGER,
    input TEXT NOT NULL,
    source TEXT NOT NULL,
    rule TEXT NOT NULL,
    reason TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tags (
    uid TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    component TEXT NOT NULL,
    enrolled_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    players: list[str]
    options: dict[str, Any]
    seed: int
    tokens: dict[str, str]
    started_at: str
    finished_at: str | None
    abandoned: bool


@dataclass(frozen=True)
class Entry:
    seq: int
    action: dict[str, Any]
    source: str
    at: str


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Store:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")  # an acknowledged entry survives power loss
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One durable transaction: committed when the block ends, rolled back if it raises."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _write(self, sql: str, args: tuple = ()) -> sqlite3.Cursor:
        with self._transaction() as db:
            return db.execute(sql, args)

    def _read(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    # -- games and their log ---------------------------------------------------------------------

    def start_game(self, game: str, players: list[str], options: dict[str, Any], seed: int,
                   tokens: dict[str, str]) -> GameRecord:
        at = now()
        with self._transaction() as db:
            # The game that was being played, if any, is kept but marked abandoned.
            db.execute("UPDATE games SET finished_at = ?, abandoned = 1 "
                       "WHERE finished_at IS NULL", (at,))
            cur = db.execute(
                "INSERT INTO games (game, players, options, seed, tokens, started_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game, json.dumps(players), json.dumps(options), seed, json.dumps(tokens), at))
        return self.game(cur.lastrowid)

    def game(self, game_id: int) -> GameRecord:
        rows = self._read("SELECT id, game, players, options, seed, tokens, started_at, "
                          "finished_at, abandoned FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise KeyError(game_id)
        return _game(rows[0])

    def latest_game(self) -> GameRecord | None:
        rows = self._read("SELECT id, game, players, options, seed, tokens, started_at, "
                          "finished_at, abandoned FROM games ORDER BY id DESC LIMIT 1")
        return _game(rows[0]) if rows else None

    def games(self) -> list[GameRecord]:
        rows = self._read("SELECT id, game, players, options, seed, tokens, started_at, "
                          "finished_at, abandoned FROM games ORDER BY id")
        return [_game(r) for r in rows]

    def append(self, game_id: int, seq: int, action: dict[str, Any], source: str,
               finished: bool) -> str:
        """Commit one entry durably; ``finished`` records whether the game is over after it."""
        at = now()
        with self._transaction() as db:
            db.execute("INSERT INTO entries (game_id, seq, action, source, at) "
                       "VALUES (?, ?, ?, ?, ?)", (game_id, seq, json.dumps(action), source, at))
            db.execute("UPDATE games SET finished_at = ? WHERE id = ? AND abandoned = 0",
                       (at if finished else None, game_id))
        return at

    def entries(self, game_id: int) -> list[Entry]:
        rows = self._read("SELECT seq, action, source, at FROM entries WHERE game_id = ? "
                          "ORDER BY seq", (game_id,))
        return [Entry(seq, json.loads(action), source, at) for seq, action, source, at in rows]

    # -- refusals --------------------------------------------------------------------------------

    def refuse(self, game_id: int | None, input_: dict[str, Any], source: str, rule: str,
               reason: str) -> str:
        at = now()
        self._write("INSERT INTO refusals (game_id, input, source, rule, reason, at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, json.dumps(input_), source, rule, reason, at))
        return at

    def refusals(self, game_id: int | None = None, limit: int = 100) -> list[dict[str, Any]]:
        if game_id is None:
            rows = self._read("SELECT game_id, input, source, rule, reason, at FROM refusals "
                              "ORDER BY id DESC LIMIT ?", (limit,))
        else:
            rows = self._read("SELECT game_id, input, source, rule, reason, at FROM refusals "
                              "WHERE game_id = ? ORDER BY id DESC LIMIT ?", (game_id, limit))
        return [{"game_id": g, "input": json.loads(i), "source": s, "rule": r, "reason": why,
                 "at": at} for g, i, s, r, why, at in reversed(rows)]

    # -- tags ------------------------------------------------------------------------------------

    def tags(self) -> dict[str, tuple[str, str]]:
        return {uid: (game, comp) for uid, game, comp in
                self._read("SELECT uid, game, component FROM tags ORDER BY uid")}

    def put_tags(self, tags: dict[str, tuple[str, str]], replace: bool = False) -> None:
        at = now()
        with self._transaction() as db:
            if replace:
                db.execute("DELETE FROM tags")
            db.executemany("INSERT OR REPLACE INTO tags (uid, game, component, enrolled_at) "
                           "VALUES (?, ?, ?, ?)",
                           [(uid, game, comp, at) for uid, (game, comp) in tags.items()])

    def forget_tag(self, uid: str) -> bool:
        return self._write("DELETE FROM tags WHERE uid = ?", (uid,)).rowcount > 0

    # -- settings --------------------------------------------------------------------------------

    def setting(self, key: str) -> str | None:
        rows = self._read("SELECT value FROM settings WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def set_setting(self, key: str, value: str) -> None:
        self._write("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value))


def _game(row: tuple) -> GameRecord:
    gid, game, players, options, seed, tokens, started, finished, abandoned = row
    return GameRecord(gid, game, json.loads(players), json.loads(options), seed,
                      json.loads(tokens), started, finished, bool(abandoned))
