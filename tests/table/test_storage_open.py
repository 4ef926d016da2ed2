"""Opening the store checks the storage: the data directory is really writable, the database is
a sound SQLite file, the schema applies. Each failure is a StorageError of the right kind in
plain words, never a raw sqlite3 or OS error, and changes nothing."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing

import pytest
from storage_support import (
    FORBIDDEN,
    FULL,
    IO,
    READONLY,
    FailingDisk,
    checkpointed,
    database,
    overwrite,
    page_size,
    played,
)

from companion.table.storage import EXIT_STORAGE, KINDS, StorageError
from companion.table.store import Store


@pytest.mark.parametrize(
    ("error", "kind", "words"),
    [
        (READONLY, "readonly", "is read-only or may not be written"),
        (FORBIDDEN, "readonly", "is read-only or may not be written"),
        (FULL, "full", "is full"),
        (IO, "io", "input/output error"),
    ],
)
def test_a_directory_that_cannot_be_written_is_refused_with_its_kind(tmp_path, error, kind, words):
    """The probe file cannot be written: the right kind, the directory named, nothing created,
    and the fix names the commands that help."""
    path = database(tmp_path)
    path.parent.mkdir()
    with pytest.raises(StorageError) as raised:
        Store(path, disk=FailingDisk(error))
    problem = raised.value
    assert problem.kind == kind
    assert str(problem) == problem.problem
    assert words in problem.what and str(path.parent) in problem.what
    assert "nothing was changed" in problem.done
    assert "companion storage check --data" in problem.fix and "companion doctor" in problem.fix
    assert sorted(p.name for p in path.parent.iterdir()) == []  # no database, no probe left


def test_a_missing_directory_on_a_read_only_card_is_readonly(tmp_path):
    """The data directory does not exist and cannot be created."""
    disk = FailingDisk(READONLY)
    with pytest.raises(StorageError) as raised:
        Store(database(tmp_path), disk=disk)
    assert raised.value.kind == "readonly" and disk.calls == ["makedirs"]
    assert "Read-only file system" in raised.value.what
    assert not database(tmp_path).parent.exists()


def test_the_probe_really_syncs_a_file(tmp_path):
    """A card that fails only on fsync (where a failing card's write errors show) is caught."""
    path = database(tmp_path)
    disk = FailingDisk(IO, operations=("sync",))
    with pytest.raises(StorageError) as raised:
        Store(path, disk=disk)
    assert raised.value.kind == "io" and disk.calls == ["sync"]
    assert "input/output error" in raised.value.what
    assert sorted(p.name for p in path.parent.iterdir()) == []  # the probe file is removed


def test_garbage_instead_of_a_database_is_corrupt(tmp_path):
    path = database(tmp_path)
    path.parent.mkdir()
    path.write_bytes(b"these are not the bytes of a database\n" * 200)
    with pytest.raises(StorageError) as raised:
        Store(path)
    problem = raised.value
    assert problem.kind == "corrupt"
    assert f"the database {path} is damaged" in problem.what
    assert "file is not a database" in problem.what
    assert "companion storage accept-loss" in problem.fix and ".recover" in problem.fix


def test_a_damaged_middle_page_is_found_by_the_quick_check(tmp_path):
    """A page in the middle of the file overwritten with garbage: SQLite's quick check fails."""
    path = database(tmp_path)
    played(path, games=2, entries=300).close()
    checkpointed(path)
    size = page_size(path)
    pages = path.stat().st_size // size
    assert pages > 10
    overwrite(path, (pages // 2) * size, b"\xff" * size)
    with pytest.raises(StorageError) as raised:
        Store(path)
    assert raised.value.kind == "corrupt"
    assert "quick check" in raised.value.what or "malformed" in raised.value.what


def test_a_sound_database_opens_with_everything_in_it(tmp_path):
    """The control: the same database undamaged opens, and its log reads back."""
    path = database(tmp_path)
    played(path, games=2, entries=300).close()
    store = Store(path)
    try:
        assert [len(store.entries(g.id)) for g in store.games()] == [300, 300]
        assert store.failure is None
    finally:
        store.close()


OLD_SCHEMA = """
CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, players TEXT NOT NULL,
    options TEXT NOT NULL, seed INTEGER NOT NULL, tokens TEXT NOT NULL, started_at TEXT NOT NULL,
    finished_at TEXT, abandoned INTEGER NOT NULL DEFAULT 0, joins TEXT, colours TEXT);
CREATE TABLE entries (game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
    action TEXT NOT NULL, source TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (game_id, seq));
"""


def test_a_database_from_before_checksums_and_marks_is_migrated_not_refused(tmp_path):
    """An older data directory: no checksum column, no meta table, no mark file. It opens, its
    old entries read back unchecked, the mark is created from it, and new entries get a
    checksum."""
    path = database(tmp_path)
    path.parent.mkdir()
    with closing(sqlite3.connect(path)) as db:
        db.executescript(OLD_SCHEMA)
        db.execute(
            "INSERT INTO games (id, game, players, options, seed, tokens, started_at) "
            "VALUES (1, 'abracadawhat', '[\"Ann\", \"Ben\"]', '{}', 1, '{}', 'then')"
        )
        db.executemany(
            "INSERT INTO entries VALUES (1, ?, ?, 'phone:Ann', 'then')",
            [(seq, json.dumps({"type": "cast", "spell": seq})) for seq in (1, 2, 3)],
        )
        db.commit()
    mark = path.with_name("companion.db-mark")
    store = Store(path)
    try:
        assert mark.exists()
        assert [e.action["spell"] for e in store.entries(1)] == [1, 2, 3]
        assert store.verify_entries() == (0, 3)  # none checked: they have no checksum
        store.append(1, 4, {"type": "cast", "spell": 4}, "phone:Ann", finished=False)
        assert store.verify_entries() == (1, 3)
    finally:
        store.close()
    Store(path).close()  # and it opens again: the mark matches


def test_the_kinds_and_the_exit_code_are_fixed():
    """The lead engineer's wiring depends on these exact values."""
    assert KINDS == ("readonly", "full", "io", "corrupt", "lost", "busy")
    assert EXIT_STORAGE == 74
    with pytest.raises(ValueError):
        StorageError("weird", "what", "done", "fix", directory=".")
