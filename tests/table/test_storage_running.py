"""While the table runs, every store method turns a storage failure into a StorageError, rolls
back what it began, and works again once the cause is gone; probe() tells when. Damage inside a
value is caught by the entries' checksum."""

from __future__ import annotations

import errno
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from storage_support import (
    FULL,
    IO,
    READONLY,
    FailingDisk,
    cast,
    checkpointed,
    database,
    overwrite,
    played,
)

from companion.table.storage import DamagedText, Disk, StorageError, kind_of
from companion.table.store import Store


@pytest.fixture
def store(tmp_path):
    opened = played(database(tmp_path), entries=3)
    yield opened
    opened.close()


def fill_up(store: Store) -> None:
    """SQLite's own limit on the file's pages: the next page it needs makes it full."""
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count = {pages}")


def test_a_full_database_refuses_an_entry_saves_none_of_it_and_recovers(store):
    fill_up(store)
    big = {"type": "cast", "player": "Ann", "spell": 4, "note": "x" * 20000}
    with pytest.raises(StorageError) as raised:
        store.append(1, 4, big, "phone:Ann", finished=True)
    problem = raised.value
    assert problem.kind == "full"
    assert problem.what.startswith("Saving entry 4 of game 1 failed: the disk holding")
    assert "Nothing of it was kept" in problem.done and "free some space" in problem.fix
    assert [e.seq for e in store.entries(1)] == [1, 2, 3]
    assert store.game(1).finished_at is None  # the same transaction's update was rolled back
    assert store.failure is problem
    store._db.execute("PRAGMA max_page_count = 1073741823")  # space is freed
    store.append(1, 4, big, "phone:Ann", finished=True)  # the same entry, tried again
    assert [e.seq for e in store.entries(1)] == [1, 2, 3, 4]
    assert store.failure is None


def test_probe_raises_while_writes_fail_and_returns_once_they_work(store):
    store._db.execute("PRAGMA query_only = 1")  # SQLite refuses every write: SQLITE_READONLY
    with pytest.raises(StorageError) as raised:
        store.probe()
    assert raised.value.kind == "readonly"
    with pytest.raises(StorageError):
        store.set_setting("brightness", "0.3")
    assert store.setting("brightness") is None  # reads still work
    store._db.execute("PRAGMA query_only = 0")
    store.probe()
    assert store.failure is None
    store.set_setting("brightness", "0.3")
    assert store.setting("brightness") == "0.3"


def test_a_failure_inside_a_transaction_leaves_none_open(store):
    """A write that fails half way (the disk fills between its statements) is rolled back: the
    store has no transaction left open and the next one begins cleanly."""
    fill_up(store)
    with pytest.raises(StorageError):
        store.put_tags({f"04{n:06X}": ("abracadawhat", f"stone {n}") for n in range(2000)})
    assert not store._db.in_transaction and store.tags() == {}
    store._db.execute("PRAGMA max_page_count = 1073741823")
    store.put_tags({"04000001": ("abracadawhat", "stone 1")})
    assert store.tags() == {"04000001": ("abracadawhat", "stone 1")}


def test_a_failure_after_a_first_write_rolls_the_first_back(store):
    """SQLite leaves the transaction open after a statement fails (here: writes refused half
    way); the store rolls back what the transaction began, so nothing of it is kept."""
    with pytest.raises(StorageError) as raised:
        with store._transaction("Saving two settings") as db:
            db.execute("INSERT INTO settings (key, value) VALUES ('first', '1')")
            db.execute("PRAGMA query_only = 1")
            db.execute("INSERT INTO settings (key, value) VALUES ('second', '2')")
    store._db.execute("PRAGMA query_only = 0")
    assert raised.value.kind == "readonly"
    assert not store._db.in_transaction
    assert store.setting("first") is None and store.setting("second") is None
    store.set_setting("first", "1")
    assert store.setting("first") == "1"


def test_a_changed_byte_inside_an_action_is_caught_by_its_checksum(tmp_path):
    """Damage quick_check cannot see: one byte of an action's text changed in the file."""
    path = database(tmp_path)
    played(path, entries=5).close()
    checkpointed(path)
    content = path.read_bytes()
    where = content.index(b"Zanzibar-0003")
    overwrite(path, where, b"Y")  # still valid JSON, still UTF-8: "Yanzibar-0003"
    with closing(sqlite3.connect(path)) as raw:
        assert raw.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    store = Store(path)  # the structure is sound: it opens
    try:
        with pytest.raises(StorageError) as raised:
            store.entries(1)
        problem = raised.value
        assert problem.kind == "corrupt"
        assert "entry 3 of game 1 does not match its checksum" in problem.what
        assert problem.what.startswith("Reading the log of game 1 failed")
        assert "Nothing was changed" in problem.done
        with pytest.raises(StorageError):
            store.verify_entries()
        store.append(1, 6, cast(6), "phone:Ann", finished=False)  # the store stays usable
    finally:
        store.close()


def test_an_action_that_does_not_decode_names_its_entry(tmp_path):
    """An older entry (no checksum) whose JSON is broken, and one whose text is not UTF-8."""
    path = database(tmp_path)
    played(path, entries=3).close()
    with closing(sqlite3.connect(path)) as raw:
        raw.execute('UPDATE entries SET action = \'{"type": "ca\', crc = NULL WHERE seq = 2')
        raw.commit()
    store = Store(path)
    try:
        with pytest.raises(StorageError) as raised:
            store.entries(1)
        assert raised.value.kind == "corrupt"
        assert "entry 2 of game 1 does not decode" in raised.value.what
        with closing(sqlite3.connect(path)) as raw:
            raw.execute("UPDATE entries SET action = CAST(x'7bff7d' AS TEXT) WHERE seq = 2")
            raw.commit()
        with pytest.raises(StorageError) as raised:
            store.entries(1)
        assert raised.value.kind == "corrupt" and "not valid UTF-8" in raised.value.what
    finally:
        store.close()


def test_a_constraint_the_caller_broke_is_not_a_storage_failure(store):
    """A duplicate entry is the caller's mistake: sqlite3.IntegrityError as before, failure
    untouched."""
    with pytest.raises(sqlite3.IntegrityError):
        store.append(1, 3, cast(3), "phone:Ann", finished=False)
    assert store.failure is None


def sqlite_error(code: int, name: str) -> sqlite3.Error:
    """An error as SQLite's module raises it, with its result code (Python 3.11)."""
    error = sqlite3.OperationalError(name)
    error.sqlite_errorcode, error.sqlite_errorname = code, name
    return error


@pytest.mark.parametrize(
    ("code", "name", "kind"),
    [
        (8, "SQLITE_READONLY", "readonly"),
        (776, "SQLITE_READONLY_ROLLBACK", "readonly"),
        (13, "SQLITE_FULL", "full"),
        (11, "SQLITE_CORRUPT", "corrupt"),
        (26, "SQLITE_NOTADB", "corrupt"),
        (5, "SQLITE_BUSY", "busy"),
        (10, "SQLITE_IOERR", "io"),
        (778, "SQLITE_IOERR_WRITE", "io"),
        (19, "SQLITE_CONSTRAINT", None),
        (1, "SQLITE_ERROR", None),
    ],
)
def test_sqlite_errors_are_told_apart_by_their_codes(tmp_path, code, name, kind):
    assert kind_of(sqlite_error(code, name), tmp_path, Disk()) == kind


@pytest.mark.parametrize(("probed", "kind"), [(READONLY, "readonly"), (FULL, "full"), (IO, "io")])
def test_a_disk_io_error_is_refined_by_probing_the_directory(tmp_path, probed, kind):
    """SQLite says "disk I/O error" whatever the reason; the directory probe tells which."""
    error = sqlite_error(778, "SQLITE_IOERR_WRITE")
    assert kind_of(error, tmp_path, FailingDisk(probed)) == kind


@pytest.mark.parametrize(
    ("number", "kind"),
    [
        (errno.EROFS, "readonly"),
        (errno.EACCES, "readonly"),
        (errno.ENOSPC, "full"),
        (errno.EDQUOT, "full"),
        (errno.EIO, "io"),
        (errno.ENOTDIR, "io"),
    ],
)
def test_os_errors_are_told_apart_by_their_errno(tmp_path, number, kind):
    assert kind_of(OSError(number, "x"), tmp_path, Disk()) == kind
    assert kind_of(DamagedText("x"), tmp_path, Disk()) == "corrupt"
    assert kind_of(ValueError("x"), tmp_path, Disk()) is None


def test_every_public_method_turns_a_storage_failure_into_a_storage_error(store):
    """With writes refused, every writing method raises StorageError (never sqlite3.Error)."""
    store._db.execute("PRAGMA query_only = 1")
    writes = [
        lambda: store.start_game("abracadawhat", ["A", "B"], {}, 1, {}),
        lambda: store.set_seats(1, {}, {}),
        lambda: store.end_game(1),
        lambda: store.append(1, 4, cast(4), "x", finished=False),
        lambda: store.refuse(1, {}, "x", "R", "why"),
        lambda: store.put_tags({"04000001": ("abracadawhat", "stone 1")}),
        lambda: store.forget_tag("04000001"),
        lambda: store.set_setting("k", "v"),
        lambda: store.drop_setting("k"),
        lambda: store.add_session("h", "host"),
        lambda: store.drop_session("h"),
        store.probe,
    ]
    for write in writes:
        with pytest.raises(StorageError) as raised:
            write()
        assert raised.value.kind == "readonly"
        assert not store._db.in_transaction
    store._db.execute("PRAGMA query_only = 0")
    for write in writes:
        write()


def test_a_damaged_game_record_is_corrupt_naming_the_game(tmp_path: Path):
    """A games row whose JSON is damaged is reported as corrupt naming the game, not raw."""
    path = database(tmp_path)
    played(path, entries=1).close()
    with closing(sqlite3.connect(path)) as raw:
        raw.execute("UPDATE games SET players = '[\"Ann\", ' WHERE id = 1")
        raw.commit()
    store = Store(path)
    try:
        with pytest.raises(StorageError) as raised:
            store.game(1)
        assert raised.value.kind == "corrupt"
        assert raised.value.what.startswith("Reading game 1 failed")
    finally:
        store.close()


def test_another_program_holding_the_write_lock_is_busy_and_then_lets_go(store):
    """A second writer (another companion on the same data directory) holds the lock: busy,
    nothing saved; once it lets go the same write succeeds."""
    store._db.execute("PRAGMA busy_timeout = 50")  # instead of 5 s
    with closing(sqlite3.connect(store.path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(StorageError) as raised:
            store.set_setting("brightness", "0.2")
        assert raised.value.kind == "busy"
        assert "locked by another program" in raised.value.what
        assert "systemctl status companion" in raised.value.fix
        other.execute("ROLLBACK")
    store.set_setting("brightness", "0.2")
    assert store.setting("brightness") == "0.2"
