"""The store's SQLite file (a part of :class:`~.store.Store`): opening and checking it, its schema,
durable transactions and the mark.

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
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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

log = logging.getLogger("companion.table.store")

#: The tables (:mod:`.store` says what each one holds).
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
CREATE TABLE IF NOT EXISTS dice (
    id INTEGER PRIMARY KEY,
    reader TEXT NOT NULL,
    die INTEGER NOT NULL,
    profile TEXT NOT NULL,
    faces TEXT NOT NULL,
    first_at TEXT NOT NULL,
    last_at TEXT NOT NULL,
    UNIQUE (reader, die, profile, faces)
);
CREATE TABLE IF NOT EXISTS dice_counts (
    die_id INTEGER NOT NULL REFERENCES dice(id),
    kind TEXT NOT NULL,
    face TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (die_id, kind, face)
);
CREATE TABLE IF NOT EXISTS dice_rolls (
    id INTEGER PRIMARY KEY,
    die_id INTEGER NOT NULL REFERENCES dice(id),
    kind TEXT NOT NULL,
    face TEXT NOT NULL,
    game_id INTEGER,
    at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS dice_rolls_by_die ON dice_rolls (die_id, kind, id);
"""
#: Columns added after the first release, added to an older database when it is opened.
MIGRATIONS = {
    ("games", "joins"): "ALTER TABLE games ADD COLUMN joins TEXT",
    ("games", "colours"): "ALTER TABLE games ADD COLUMN colours TEXT",
    ("entries", "crc"): "ALTER TABLE entries ADD COLUMN crc INTEGER",
    ("refusals", "count"): "ALTER TABLE refusals ADD COLUMN count INTEGER NOT NULL DEFAULT 1",
    ("refusals", "seat"): "ALTER TABLE refusals ADD COLUMN seat INTEGER",
    # rows from before it are not shown again (an anonymous request's refusal among them)
    ("refusals", "public"): "ALTER TABLE refusals ADD COLUMN public INTEGER NOT NULL DEFAULT 0",
    ("refusals", "message"): "ALTER TABLE refusals ADD COLUMN message TEXT",
    # a game the host ended (rather than set aside for a new one); games before it were not
    ("games", "ended"): "ALTER TABLE games ADD COLUMN ended INTEGER NOT NULL DEFAULT 0",
    # where the game stands ("turn 15"), as a translatable text; games before it have none
    ("games", "progress"): "ALTER TABLE games ADD COLUMN progress TEXT",
    # a game set aside while paused is paused again when it is resumed
    ("games", "paused"): "ALTER TABLE games ADD COLUMN paused INTEGER NOT NULL DEFAULT 0",
}
#: The ``user_version`` of a database that has every table and column above: raise it with every
#: new table or column, or databases already at it will not get them (5: the dice tables).
SCHEMA_VERSION = 5


class StoreFile:
    """The SQLite file under a :class:`~.store.Store`: it opens and checks the file, applies the
    schema, and gives the store its durable reads and writes (``_read``, ``_write``,
    ``_transaction``), each failure a :class:`StorageError`, and the mark written after every
    change that must not vanish."""

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
