"""The durable record of the table, in one SQLite file (standard library only).

* ``games``: every game ever started, with its players, options, seed, per-player tokens (a
  phone's key to its seat) and the join codes of the seats no phone has claimed yet; finished
  games are kept with their history.
* ``entries``: the event log. One row per accepted action (or undo), committed with
  ``synchronous=FULL`` before anything shows its effect, so a pulled plug loses nothing that was
  acknowledged. A game's state is the replay of its entries. Each row carries a CRC-32 of its
  fields, checked whenever it is read: damage inside a value is reported, not replayed.
* ``refusals``: every refused input, with the rule and the reason (never part of the state).
* ``tags``: the NFC tag registry (UID -> component).
* ``settings``: small key/value facts such as the host's PIN and the secret that signs CSRF tokens.
* ``sessions``: the host's signed-in phones, by a hash of their session token.
* ``meta``: the store's own counters: ``changes`` (commits that must not vanish), ``entries``
  (the log's length) and ``heartbeat`` (:meth:`Store.probe`).

Storage that fails is a :class:`StorageError` (``storage.py``), never a raw ``sqlite3`` or OS
error: when the store opens (the data directory is written to, the database passes SQLite's quick
check, the schema applies, the log holds at least what its mark says: ``ackmark.py``) and in
every method afterwards. A method that returns has saved; one that raises has saved nothing and
rolled back what it began, and the store stays usable: the next call tries again.
``docs/storage.md`` tells the whole story.

Every method takes the store's lock, so the web threads and the table loop can share one store.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .ackmark import (
    EMPTY,
    Comparison,
    Mark,
    MarkDamaged,
    MarkFile,
    damaged_mark_error,
    lost_error,
    mark_path,
)
from .storage import (
    DamagedText,
    Disk,
    StorageError,
    decode_text,
    detail_of,
    explain,
    kind_of,
    probe_directory,
)

log = logging.getLogger(__name__)

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
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
"""
#: Columns added after the first release, added to an older database when it is opened.
MIGRATIONS = {
    ("games", "joins"): "ALTER TABLE games ADD COLUMN joins TEXT",
    ("games", "colours"): "ALTER TABLE games ADD COLUMN colours TEXT",
    ("entries", "crc"): "ALTER TABLE entries ADD COLUMN crc INTEGER",
    ("refusals", "count"): "ALTER TABLE refusals ADD COLUMN count INTEGER NOT NULL DEFAULT 1",
}
#: The ``user_version`` of a database that has every table and column above: raise it with every
#: new table or column, or databases already at it will not get them.
SCHEMA_VERSION = 2
_GAME_COLUMNS = (
    "id, game, players, options, seed, tokens, started_at, finished_at, abandoned, joins, colours"
)


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


def entry_crc(game_id: int, seq: int, action: str, source: str, at: str) -> int:
    """The CRC-32 of an entry's fields as stored (the action as its JSON text); a field that
    damage turned into another type gives another checksum, not an error."""
    fields = (game_id, seq, action, source, at)
    return zlib.crc32("\x1f".join(map(str, fields)).encode("utf-8"))


class Store:
    """The table's SQLite file. Opening it checks the storage and raises :class:`StorageError`
    when it cannot be used; ``disk`` is the seam tests use to make the file system fail.
    ``verify_mark=False`` opens a database that holds less than its mark (or whose mark is
    damaged): only for ``companion storage accept-loss``."""

    def __init__(self, path: str | Path, *, disk: Disk | None = None, verify_mark: bool = True):
        self.path = Path(path)
        self.directory = self.path.parent
        self.disk = disk or Disk()
        self._lock = threading.RLock()
        self._marks = MarkFile(mark_path(self.path), self.disk)
        #: a mark that could not be written after its commit; written before the next change
        self._pending_mark: Mark | None = None
        self._failure: StorageError | None = None
        #: why the mark file could not be read, when it is damaged (``verify_mark=False`` only)
        self.mark_problem: str | None = None
        self._db: sqlite3.Connection | None = None
        try:
            with self._storage_errors(None):
                self._open(verify_mark)
        except BaseException:
            self._marks.close()
            if self._db is not None:
                self._db.close()
            raise

    def _open(self, verify_mark: bool) -> None:
        probe_directory(self.directory, self.disk)
        # The mark is read before the database: values in a mark were committed before it was
        # written, so another process writing meanwhile can only make the database hold more.
        try:
            mark = self._marks.read()
        except MarkDamaged as exc:
            if verify_mark:
                raise damaged_mark_error(self._marks.path, str(exc)) from exc
            mark, self.mark_problem = None, str(exc)
        if mark is not None and verify_mark and not self.path.exists():
            missing = Comparison(mark, EMPTY, False, 0, database_missing=True)
            if missing.lost:
                raise lost_error(missing, self.path)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.text_factory = decode_text
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")  # an acknowledged entry survives power loss
        self._db.execute("PRAGMA foreign_keys=ON")
        found = [row[0] for row in self._db.execute("PRAGMA quick_check(5)")]
        if found != ["ok"]:
            raise explain("corrupt", self.path, "SQLite's quick check found: " + "; ".join(found))
        self._apply_schema()
        if mark is None and self.mark_problem is None:
            self._marks.create(self._held())  # a new database, or one from before marks
        elif mark is not None and verify_mark:
            comparison = self._compare(mark)
            if comparison.lost:
                raise lost_error(comparison, self.path)

    def _apply_schema(self) -> None:
        """Create the tables and add the columns of later releases, in one transaction; a
        database at the current ``user_version`` needs neither (and no write lock)."""
        if self._db.execute("PRAGMA user_version").fetchone()[0] >= SCHEMA_VERSION:
            return
        try:
            self._db.executescript("BEGIN IMMEDIATE;" + SCHEMA)
            for (table, column), sql in MIGRATIONS.items():
                columns = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
                if column not in columns:
                    self._db.execute(sql)
            self._db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('changes', 0)")
            self._db.execute(
                "INSERT OR IGNORE INTO meta (key, value) SELECT 'entries', count(*) FROM entries"
            )
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self._db.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise

    def close(self) -> None:
        with self._lock, self._storage_errors("Closing the database", writing=False):
            self._marks.close()
            self._db.close()

    # -- failures, transactions and the mark -----------------------------------------------------

    @property
    def failure(self) -> StorageError | None:
        """The last write's storage failure (a raised :class:`StorageError`, or a mark that
        could not be written after its commit); None once a write or :meth:`probe` succeeds."""
        return self._failure

    @contextmanager
    def _storage_errors(self, operation: str | None, *, writing: bool = True) -> Iterator[None]:
        """Turn a storage failure inside the block into a :class:`StorageError` in plain words;
        anything else (a constraint, a programming error) goes on as it is."""
        try:
            yield
        except StorageError as error:
            if writing:
                self._failure = error
            raise
        except (sqlite3.Error, OSError, DamagedText, json.JSONDecodeError) as exc:
            if isinstance(exc, json.JSONDecodeError):
                kind, detail = "corrupt", f"stored JSON does not decode: {exc}"
            else:
                kind, detail = kind_of(exc, self.directory, self.disk), detail_of(exc)
            if kind is None:
                raise
            error = explain(kind, self.path, detail, operation=operation, writing=writing)
            if writing:
                self._failure = error
            raise error from exc

    @contextmanager
    def _transaction(self, operation: str, *, marked: bool = True) -> Iterator[sqlite3.Connection]:
        """One durable transaction: committed when the block ends, rolled back if it raises.

        ``marked``: a change that must not vanish; it counts in ``meta.changes``, and the mark
        is written and synced after the commit, before the method returns."""
        with self._lock:
            with self._storage_errors(operation):
                if self._db.in_transaction:  # a failed commit SQLite did not roll back
                    self._rollback()
                if self._pending_mark is not None:
                    self._marks.write(self._pending_mark)
                    self._pending_mark = None
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    if marked:
                        self._db.execute("UPDATE meta SET value = value + 1 WHERE key = 'changes'")
                        mark = self._held()
                    self._db.execute("COMMIT")
                except BaseException:
                    self._rollback()
                    raise
            self._failure = None
            if marked:
                self._write_mark(mark, operation)

    def _rollback(self) -> None:
        """Roll back what is open; SQLite may have rolled back already (a full disk, an I/O
        error), and a failing rollback is retried by the next transaction."""
        if self._db.in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error:
                log.warning("the rollback failed; the next transaction retries it", exc_info=True)

    def _write_mark(self, mark: Mark, operation: str) -> None:
        """Write the mark after a commit. The change is saved whatever happens here, so a
        failure does not raise: the mark waits, and the next change writes it first or fails."""
        try:
            self._marks.write(mark)
        except OSError as exc:
            self._pending_mark = mark
            kind = kind_of(exc, self.directory, self.disk) or "io"
            self._failure = explain(
                kind,
                self.path,
                detail_of(exc),
                operation=f"{operation}: writing its mark",
                done="The change itself was saved; its mark is written "
                "before the next change, which fails until it can be.",
            )
            log.error("%s", self._failure)

    def _held(self) -> Mark:
        """What the database holds, as a mark: its counters, its latest game and that game's
        last entry."""
        row = self._db.execute(
            "SELECT (SELECT value FROM meta WHERE key = 'changes'), "
            "(SELECT value FROM meta WHERE key = 'entries'), "
            "(SELECT max(id) FROM games), "
            "(SELECT max(seq) FROM entries WHERE game_id = (SELECT max(id) FROM games))"
        ).fetchone()
        return Mark(*(value or 0 for value in row))

    def _compare(self, mark: Mark) -> Comparison:
        held_game = (
            self._db.execute("SELECT count(*) FROM games WHERE id = ?", (mark.game,)).fetchone()[0]
            > 0
        )
        last_seq = (
            self._db.execute(
                "SELECT max(seq) FROM entries WHERE game_id = ?", (mark.game,)
            ).fetchone()[0]
            or 0
        )
        return Comparison(mark, self._held(), held_game, last_seq)

    def _read(self, operation: str, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock, self._storage_errors(operation, writing=False):
            return self._db.execute(sql, args).fetchall()

    def _write(
        self, operation: str, sql: str, args: tuple = (), *, marked: bool = True
    ) -> sqlite3.Cursor:
        with self._transaction(operation, marked=marked) as db:
            return db.execute(sql, args)

    def probe(self) -> None:
        """A tiny durable write (the heartbeat in ``meta``, and a mark still waiting): raises
        :class:`StorageError` while writes fail and returns once they work again. The table calls
        it every few seconds while storage is failing."""
        self._write(
            "Checking that the storage can be written again",
            "INSERT INTO meta (key, value) VALUES ('heartbeat', 1) "
            "ON CONFLICT (key) DO UPDATE SET value = value + 1",
            marked=False,
        )

    # -- the mark against the log, for ``companion storage`` ------------------------------------

    def compare_mark(self) -> Comparison | None:
        """The mark against what the database holds now; None when the mark is damaged."""
        with self._lock, self._storage_errors("Comparing the mark with the log", writing=False):
            try:
                mark = self._marks.read()
            except MarkDamaged as exc:
                self.mark_problem = str(exc)
                return None
            return self._compare(mark if mark is not None else self._held())

    def reset_mark(self) -> Mark:
        """Write a new mark from what the database holds (accepting any loss); returns it."""
        with self._lock, self._storage_errors("Writing a new mark"):
            held = self._held()
            self._marks.create(held)
            self._pending_mark, self.mark_problem = None, None
            return held

    def counts(self) -> tuple[int, int]:
        """How many games and log entries the database holds."""
        return self._read(
            "Counting the games and entries",
            "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM entries)",
        )[0]

    def verify_entries(self) -> tuple[int, int]:
        """Check every entry of every game against its checksum (raises :class:`StorageError`,
        kind ``corrupt``, naming the first damaged one); returns how many were checked and how
        many are older entries without a checksum."""
        rows = self._read(
            "Checking every entry",
            "SELECT game_id, seq, action, source, at, crc FROM entries ORDER BY game_id, seq",
        )
        for game_id, *row in rows:
            self._entry(game_id, row, "Checking every entry")
        unchecked = sum(1 for row in rows if row[-1] is None)
        return len(rows) - unchecked, unchecked

    def _entry(self, game_id: int, row: list | tuple, operation: str) -> Entry:
        """One stored entry, checked against its checksum and decoded."""
        seq, action, source, at, crc = row
        if crc is not None and crc != entry_crc(game_id, seq, action, source, at):
            problem = f"entry {seq} of game {game_id} does not match its checksum"
        else:
            try:
                return Entry(seq, json.loads(action), source, at)
            except (ValueError, TypeError) as exc:
                problem = f"entry {seq} of game {game_id} does not decode: {exc}"
        raise explain("corrupt", self.path, problem, operation=operation, writing=False)

    # -- games and their log ---------------------------------------------------------------------

    def start_game(
        self,
        game: str,
        players: list[str],
        options: dict[str, Any],
        seed: int,
        tokens: dict[str, str],
        joins: dict[str, str] | None = None,
        colours: list[str] | None = None,
    ) -> GameRecord:
        at = now()
        with self._transaction(f"Starting a game of {game}") as db:
            # The game that was being played, if any, is kept but marked abandoned.
            db.execute(
                "UPDATE games SET finished_at = ?, abandoned = 1 WHERE finished_at IS NULL", (at,)
            )
            cur = db.execute(
                "INSERT INTO games (game, players, options, seed, tokens, started_at, joins, "
                "colours) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game,
                    json.dumps(players),
                    json.dumps(options),
                    seed,
                    json.dumps(tokens),
                    at,
                    json.dumps(joins or {}),
                    json.dumps(colours or []),
                ),
            )
        return self.game(cur.lastrowid)

    def set_seats(self, game_id: int, tokens: dict[str, str], joins: dict[str, str]) -> GameRecord:
        """A game's seat tokens and open join codes, after a seat is claimed or handed over."""
        self._write(
            f"Saving the seats of game {game_id}",
            "UPDATE games SET tokens = ?, joins = ? WHERE id = ?",
            (json.dumps(tokens), json.dumps(joins), game_id),
        )
        return self.game(game_id)

    def end_game(self, game_id: int) -> None:
        """The host ended the game: kept with its history, marked abandoned, never resumed."""
        self._write(
            f"Ending game {game_id}",
            "UPDATE games SET finished_at = COALESCE(finished_at, ?), abandoned = 1 WHERE id = ?",
            (now(), game_id),
        )

    def game(self, game_id: int) -> GameRecord:
        operation = f"Reading game {game_id}"
        rows = self._read(operation, f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise KeyError(game_id)
        return self._game(rows[0], operation)

    def latest_game(self) -> GameRecord | None:
        operation = "Reading the latest game"
        rows = self._read(operation, f"SELECT {_GAME_COLUMNS} FROM games ORDER BY id DESC LIMIT 1")
        return self._game(rows[0], operation) if rows else None

    def games(self) -> list[GameRecord]:
        operation = "Reading the games"
        rows = self._read(operation, f"SELECT {_GAME_COLUMNS} FROM games ORDER BY id")
        return [self._game(row, operation) for row in rows]

    def append(
        self, game_id: int, seq: int, action: dict[str, Any], source: str, finished: bool
    ) -> str:
        """Commit one entry durably, and its mark; ``finished`` records whether the game is over
        after it."""
        at = now()
        text = json.dumps(action)
        with self._transaction(f"Saving entry {seq} of game {game_id}") as db:
            db.execute(
                "INSERT INTO entries (game_id, seq, action, source, at, crc) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, text, source, at, entry_crc(game_id, seq, text, source, at)),
            )
            db.execute(
                "UPDATE games SET finished_at = ? WHERE id = ? AND abandoned = 0",
                (at if finished else None, game_id),
            )
            db.execute("UPDATE meta SET value = value + 1 WHERE key = 'entries'")
        return at

    def entries(self, game_id: int) -> list[Entry]:
        """A game's log in order, each entry checked against its checksum (an entry from before
        checksums is not): a mismatch or an action that does not decode raises
        :class:`StorageError` of kind ``corrupt`` naming the game and the entry."""
        operation = f"Reading the log of game {game_id}"
        rows = self._read(
            operation,
            "SELECT seq, action, source, at, crc FROM entries WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [self._entry(game_id, row, operation) for row in rows]

    # -- refusals --------------------------------------------------------------------------------

    def refuse(
        self, game_id: int | None, input_: dict[str, Any], source: str, rule: str, reason: str
    ) -> int:
        """Write a refusal; its row, for :meth:`count_refusal` (refusals of one source and rule
        within a second are one row with a count: ``companion.table.refusals``)."""
        cursor = self._write(
            "Saving a refusal",
            "INSERT INTO refusals (game_id, input, source, "
            "rule, reason, at) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, json.dumps(input_), source, rule, reason, now()),
            marked=False,
        )
        return cursor.lastrowid

    def count_refusal(self, row: int, count: int) -> None:
        """How many refusals the row ``row`` stands for."""
        self._write(
            "Counting refusals",
            "UPDATE refusals SET count = ? WHERE id = ?",
            (count, row),
            marked=False,
        )

    def refusals(self, game_id: int | None = None, limit: int = 100) -> list[dict[str, Any]]:
        operation = "Reading the refusals"
        if game_id is None:
            rows = self._read(
                operation,
                "SELECT game_id, input, source, rule, reason, at, count "
                "FROM refusals ORDER BY id DESC LIMIT ?",
                (limit,),
            )
        else:
            rows = self._read(
                operation,
                "SELECT game_id, input, source, rule, reason, at, count "
                "FROM refusals WHERE game_id = ? ORDER BY id DESC LIMIT ?",
                (game_id, limit),
            )
        with self._storage_errors(operation, writing=False):
            return [
                {
                    "game_id": g,
                    "input": json.loads(i),
                    "source": s,
                    "rule": r,
                    "reason": why,
                    "at": at,
                    "count": n,
                }
                for g, i, s, r, why, at, n in reversed(rows)
            ]

    # -- tags ------------------------------------------------------------------------------------

    def tags(self) -> dict[str, tuple[str, str]]:
        return {
            uid: (game, comp)
            for uid, game, comp in self._read(
                "Reading the stickers", "SELECT uid, game, component FROM tags ORDER BY uid"
            )
        }

    def put_tags(self, tags: dict[str, tuple[str, str]], replace: bool = False) -> None:
        at = now()
        with self._transaction("Saving the stickers") as db:
            if replace:
                db.execute("DELETE FROM tags")
            db.executemany(
                "INSERT OR REPLACE INTO tags (uid, game, component, enrolled_at) "
                "VALUES (?, ?, ?, ?)",
                [(uid, game, comp, at) for uid, (game, comp) in tags.items()],
            )

    def forget_tag(self, uid: str) -> bool:
        return (
            self._write(
                f"Forgetting sticker {uid}", "DELETE FROM tags WHERE uid = ?", (uid,)
            ).rowcount
            > 0
        )

    # -- settings --------------------------------------------------------------------------------

    def setting(self, key: str) -> str | None:
        rows = self._read(
            f"Reading the setting {key}", "SELECT value FROM settings WHERE key = ?", (key,)
        )
        return rows[0][0] if rows else None

    def set_setting(self, key: str, value: str) -> None:
        self._write(
            f"Saving the setting {key}",
            "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
            (key, value),
        )

    def drop_setting(self, key: str) -> None:
        self._write(f"Removing the setting {key}", "DELETE FROM settings WHERE key = ?", (key,))

    # -- sessions --------------------------------------------------------------------------------

    def add_session(self, token_hash: str, role: str) -> None:
        self._write(
            "Saving a host session",
            "INSERT OR REPLACE INTO sessions (token_hash, role, created_at) VALUES (?, ?, ?)",
            (token_hash, role, now()),
            marked=False,
        )

    def session_role(self, token_hash: str) -> str | None:
        rows = self._read(
            "Reading a host session",
            "SELECT role FROM sessions WHERE token_hash = ?",
            (token_hash,),
        )
        return rows[0][0] if rows else None

    def drop_session(self, token_hash: str) -> bool:
        return (
            self._write(
                "Removing a host session",
                "DELETE FROM sessions WHERE token_hash = ?",
                (token_hash,),
                marked=False,
            ).rowcount
            > 0
        )

    def count_sessions(self, role: str) -> int:
        return self._read(
            "Counting the host sessions", "SELECT COUNT(*) FROM sessions WHERE role = ?", (role,)
        )[0][0]

    def _game(self, row: tuple, operation: str) -> GameRecord:
        with self._storage_errors(operation, writing=False):
            return _game(row)


def _game(row: tuple) -> GameRecord:
    gid, game, players, options, seed, tokens, started, finished, abandoned, joins, colours = row
    return GameRecord(
        gid,
        game,
        json.loads(players),
        json.loads(options),
        seed,
        json.loads(tokens),
        started,
        finished,
        bool(abandoned),
        json.loads(joins) if joins else {},
        json.loads(colours) if colours else [],
    )
