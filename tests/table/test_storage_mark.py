"""The acknowledgement mark: written durably after every marked commit, tolerant of a torn write,
and compared with the log when the store opens, so that acknowledged entries cannot vanish
silently. (The WAL lost after a real SIGKILL is tests/system/test_storage_wal_loss.py.)"""

from __future__ import annotations

import os
import shutil

import pytest
from storage_support import FULL, FailingDisk, cast, database, played

from companion.table.ackmark import (
    SLOT_OFFSETS,
    SLOT_SIZE,
    Mark,
    MarkDamaged,
    MarkFile,
    decode,
    encode,
    mark_path,
)
from companion.table.storage import Disk, StorageError
from companion.table.store import Store


def test_a_mark_round_trips_and_a_damaged_byte_makes_it_invalid():
    mark = Mark(changes=41, entries=37, game=3, seq=12)
    data = encode(mark, generation=9)
    assert len(data) == SLOT_SIZE and data[:4] == b"CMRK"
    assert decode(data) == (9, mark)
    for position in (0, 5, 20, 47, 50):  # magic, version, a value, the CRC itself
        damaged = bytearray(data)
        damaged[position] ^= 0x01
        assert decode(bytes(damaged)) is None, position
    assert decode(data[:-1]) is None and decode(bytes(SLOT_SIZE)) is None


def test_slots_are_written_alternately_and_the_newest_valid_one_wins(tmp_path):
    marks = MarkFile(tmp_path / "x.db-mark", Disk())
    marks.create(Mark(1, 0, 1, 0))
    for seq in range(1, 6):
        marks.write(Mark(1 + seq, seq, 1, seq))
    data = (tmp_path / "x.db-mark").read_bytes()
    slots = [decode(data[offset : offset + SLOT_SIZE]) for offset in SLOT_OFFSETS]
    assert sorted(generation for generation, _ in slots) == [5, 6]  # the last two writes
    assert MarkFile(tmp_path / "x.db-mark", Disk()).read() == Mark(6, 5, 1, 5)


class TornDisk(Disk):
    """A power cut in the middle of a write: the first ``keep`` bytes reach the file, the rest
    do not, and the write fails."""

    def __init__(self, keep: int):
        self.keep = keep

    def write(self, fd, data, offset):
        super().write(fd, data[: self.keep], offset)
        raise OSError(5, "power cut")


@pytest.mark.parametrize("keep", [1, 8, 30, SLOT_SIZE - 1])
def test_a_torn_write_leaves_the_previous_mark(tmp_path, keep):
    path = tmp_path / "x.db-mark"
    marks = MarkFile(path, Disk())
    marks.create(Mark(1, 0, 1, 0))
    marks.write(Mark(2, 1, 1, 1))
    torn = MarkFile(path, TornDisk(keep))
    torn.read()
    with pytest.raises(OSError):
        torn.write(Mark(3, 2, 1, 2))
    assert MarkFile(path, Disk()).read() == Mark(2, 1, 1, 1)


def test_a_mark_file_with_no_valid_slot_is_damaged(tmp_path):
    path = tmp_path / "x.db-mark"
    path.write_bytes(os.urandom(5000))
    with pytest.raises(MarkDamaged):
        MarkFile(path, Disk()).read()


def test_every_marked_commit_writes_the_mark_before_returning(tmp_path):
    """After each append (and start_game, and a setting) the mark on disk already says so."""
    path = database(tmp_path)
    store = Store(path)

    def on_disk() -> Mark:
        return MarkFile(mark_path(path), Disk()).read()

    try:
        game = store.start_game("abracadawhat", ["Ann", "Ben"], {}, 1, {})
        assert on_disk() == Mark(changes=1, entries=0, game=game.id, seq=0)
        for seq in (1, 2, 3):
            store.append(game.id, seq, cast(seq), "phone:Ann", finished=False)
            assert on_disk() == Mark(changes=1 + seq, entries=seq, game=game.id, seq=seq)
        store.set_setting("brightness", "0.4")
        assert on_disk() == Mark(changes=5, entries=3, game=game.id, seq=3)
        store.refuse(game.id, {"kind": "button"}, "button:0", "R", "why")  # not marked
        store.add_session("hash", "host")
        assert on_disk().changes == 5
    finally:
        store.close()


def test_an_older_copy_of_the_database_put_back_is_a_loss_with_the_count(tmp_path):
    """A backup from before the last five entries replaces the database: lost, five missing."""
    path = database(tmp_path)
    store = played(path, entries=4)
    store.close()
    shutil.copy(path, tmp_path / "backup.db")
    store = Store(path)
    for seq in range(5, 10):
        store.append(1, seq, cast(seq), "phone:Ann", finished=False)
    store.close()
    shutil.copy(tmp_path / "backup.db", path)
    with pytest.raises(StorageError) as raised:
        Store(path)
    problem = raised.value
    assert problem.kind == "lost" and problem.missing == 5
    assert "missing 5 acknowledged entries" in problem.what
    assert "game 1 ends at entry 4" in problem.what
    assert "the last: entry 9 of game 1" in problem.what
    assert "companion storage accept-loss --data" in problem.fix


def test_a_lost_game_is_named(tmp_path):
    """The whole latest game was in the lost part: the mark's game is not in the database."""
    path = database(tmp_path)
    played(path, entries=2).close()
    shutil.copy(path, tmp_path / "backup.db")
    store = Store(path)
    game = store.start_game("abracadawhat", ["Ann", "Ben"], {}, 2, {})
    store.append(game.id, 1, cast(1), "phone:Ann", finished=False)
    store.close()
    shutil.copy(tmp_path / "backup.db", path)
    with pytest.raises(StorageError) as raised:
        Store(path)
    assert raised.value.missing == 1
    assert f"game {game.id} is not in it at all" in raised.value.what
    assert "1 other saved change" in raised.value.what  # the game's start


def test_a_deleted_database_with_its_mark_left_is_a_loss(tmp_path):
    path = database(tmp_path)
    played(path, entries=6).close()
    path.unlink()
    with pytest.raises(StorageError) as raised:
        Store(path)
    assert raised.value.kind == "lost" and raised.value.missing == 6
    assert "the database file is missing" in raised.value.what
    assert not path.exists()  # nothing was created in its place


def test_a_missing_mark_for_a_database_with_entries_is_created_not_a_loss(tmp_path):
    """(A database from before marks is test_storage_open.py's migration test.)"""
    path = database(tmp_path)
    played(path, entries=3).close()
    mark_path(path).unlink()
    Store(path).close()
    assert MarkFile(mark_path(path), Disk()).read() == Mark(changes=4, entries=3, game=1, seq=3)


def test_a_damaged_mark_file_refuses_to_open_with_the_fix(tmp_path):
    path = database(tmp_path)
    played(path, entries=3).close()
    mark_path(path).write_bytes(bytes(8192))
    with pytest.raises(StorageError) as raised:
        Store(path)
    assert raised.value.kind == "corrupt"
    assert "mark file" in raised.value.what and "companion storage accept-loss" in raised.value.fix


def test_a_mark_that_cannot_be_written_keeps_the_change_and_fails_the_next_one(tmp_path):
    """The commit succeeded but its mark could not be written: the method returns (the change
    is saved), ``failure`` says why, the next change fails and saves nothing, and once the disk
    works again probe() writes the waiting mark and everything goes on."""
    path = database(tmp_path)
    disk = FailingDisk(FULL, failing=False, operations=("write",))
    store = Store(path, disk=disk)
    try:
        game = store.start_game("abracadawhat", ["Ann", "Ben"], {}, 1, {})
        disk.failing = True
        store.append(game.id, 1, cast(1), "phone:Ann", finished=False)  # returns: saved
        assert [e.seq for e in store.entries(game.id)] == [1]
        assert store.failure is not None and store.failure.kind == "full"
        assert "The change itself was saved" in str(store.failure)
        with pytest.raises(StorageError) as raised:
            store.append(game.id, 2, cast(2), "phone:Ann", finished=False)
        assert raised.value.kind == "full" and "Nothing of it was kept" in raised.value.done
        assert [e.seq for e in store.entries(game.id)] == [1]
        with pytest.raises(StorageError):
            store.probe()
        disk.failing = False
        store.probe()
        assert store.failure is None
        assert MarkFile(mark_path(path), Disk()).read().seq == 1
        store.append(game.id, 2, cast(2), "phone:Ann", finished=False)
    finally:
        store.close()
    reopened = Store(path)
    try:
        assert [e.seq for e in reopened.entries(1)] == [1, 2]
    finally:
        reopened.close()
