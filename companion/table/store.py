"""The durable record of the table, in one SQLite file (standard library only).

* ``games``: every game ever started, with its players, options, seed, per-player tokens (a
  phone's key to its seat) and the join codes of the seats no phone has claimed yet; finished
  games are kept with their history.
* ``entries``: the event log. One row per accepted action (or undo), committed with
  ``synchronous=FULL`` before anything shows its effect, so a pulled plug loses nothing that was
  acknowledged. A game's state is the replay of its entries.
* ``refusals``: every refused input, with the rule and the reason (never part of the state).
* ``tags``: the NFC tag registry (UID -> component).
* ``settings``: small key/value facts such as the host's PIN and the secret that signs CSRF tokens.
* ``sessions``: the host's signed-in phones, by a hash of their session token.

Every method takes the store's lock, so the web threads and the table loop can share one store.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
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
CREATE TABLE IF NOT EXISTS sessions (
    token_hash TEXT PRIMARY KEY,
    role TEXT NOT NULL,
    created_at TEXT NOT NULL
);
"""
#: Columns added after the first release, added to an older database when it is opened.
MIGRATIONS = {("games", "joins"): "ALTER TABLE games ADD COLUMN joins TEXT",
              ("games", "colours"): "ALTER TABLE games ADD COLUMN colours TEXT"}
_GAME_COLUMNS = ("id, game, players, options, seed, tokens, started_at, finished_at, abandoned, "
                 "joins, colours")


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
    #: the join codes of the seats no phone has claimed yet (a claimed seat has none)
    joins: dict[str, str] = field(default_factory=dict)
    #: each player's colour, in seat order (empty: the palette's order)
    colours: list[str] = field(default_factory=list)


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
        for (table, column), sql in MIGRATIONS.items():
            columns = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
            if column not in columns:
                self._db.execute(sql)

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
                   tokens: dict[str, str], joins: dict[str, str] | None = None,
                   colours: list[str] | None = None) -> GameRecord:
        at = now()
        with self._transaction() as db:
            # The game that was being played, if any, is kept but marked abandoned.
            db.execute("UPDATE games SET finished_at = ?, abandoned = 1 "
                       "WHERE finished_at IS NULL", (at,))
            cur = db.execute(
                "INSERT INTO games (game, players, options, seed, tokens, started_at, joins, "
                "colours) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game, json.dumps(players), json.dumps(options), seed, json.dumps(tokens), at,
                 json.dumps(joins or {}), json.dumps(colours or [])))
        return self.game(cur.lastrowid)

    def set_seats(self, game_id: int, tokens: dict[str, str], joins: dict[str, str]) -> GameRecord:
        """A game's seat tokens and open join codes, after a seat is claimed or handed over."""
        self._write("UPDATE games SET tokens = ?, joins = ? WHERE id = ?",
                    (json.dumps(tokens), json.dumps(joins), game_id))
        return self.game(game_id)

    def end_game(self, game_id: int) -> None:
        """The host ended the game: kept with its history, marked abandoned, never resumed."""
        self._write("UPDATE games SET finished_at = COALESCE(finished_at, ?), abandoned = 1 "
                    "WHERE id = ?", (now(), game_id))

    def game(self, game_id: int) -> GameRecord:
        rows = self._read(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise KeyError(game_id)
        return _game(rows[0])

    def latest_game(self) -> GameRecord | None:
        rows = self._read(f"SELECT {_GAME_COLUMNS} FROM games ORDER BY id DESC LIMIT 1")
        return _game(rows[0]) if rows else None

    def games(self) -> list[GameRecord]:
        rows = self._read(f"SELECT {_GAME_COLUMNS} FROM games ORDER BY id")
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

    def drop_setting(self, key: str) -> None:
        self._write("DELETE FROM settings WHERE key = ?", (key,))

    # -- sessions --------------------------------------------------------------------------------

    def add_session(self, token_hash: str, role: str) -> None:
        self._write("INSERT OR REPLACE INTO sessions (token_hash, role, created_at) "
                    "VALUES (?, ?, ?)", (token_hash, role, now()))

    def session_role(self, token_hash: str) -> str | None:
        rows = self._read("SELECT role FROM sessions WHERE token_hash = ?", (token_hash,))
        return rows[0][0] if rows else None

    def drop_session(self, token_hash: str) -> bool:
        return self._write("DELETE FROM sessions WHERE token_hash = ?",
                           (token_hash,)).rowcount > 0

    def count_sessions(self, role: str) -> int:
        return self._read("SELECT COUNT(*) FROM sessions WHERE role = ?", (role,))[0][0]


def _game(row: tuple) -> GameRecord:
    gid, game, players, options, seed, tokens, started, finished, abandoned, joins, colours = row
    return GameRecord(gid, game, json.loads(players), json.loads(options), seed,
                      json.loads(tokens), started, finished, bool(abandoned),
                      json.loads(joins) if joins else {}, json.loads(colours) if colours else [])
