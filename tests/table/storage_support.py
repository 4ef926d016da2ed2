"""Shared helpers for the storage tests (not a test module).

The tests run as root, which ignores file permissions, so a read-only, full or failing card is
made with honest seams instead: a :class:`FailingDisk` whose file operations raise the ``OSError``
such a card raises, SQLite's own ``PRAGMA max_page_count`` and ``PRAGMA query_only``, and real
damage to real files.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from contextlib import closing
from pathlib import Path

from companion.table.storage import Disk
from companion.table.store import Store

GAME = "abracadawhat"
PLAYERS = ["Ann", "Ben", "Cid"]


WRITES = ("makedirs", "open", "write", "sync", "datasync")


class FailingDisk(Disk):
    """A disk whose writes fail with ``error`` (an errno) while ``failing`` is true: creating a
    directory, opening a file for writing, writing and syncing (or only the ``operations``
    named). Reading still works, as on a card that turned read-only. ``calls`` lists the
    operations that failed."""

    def __init__(self, error: int, failing: bool = True, operations: tuple[str, ...] = WRITES):
        self.error = error
        self.failing = failing
        self.operations = operations
        self.calls: list[str] = []

    def _fail(self, what: str, path: object = None) -> None:
        if self.failing and what in self.operations:
            self.calls.append(what)
            raise OSError(self.error, os.strerror(self.error), str(path) if path else None)

    def makedirs(self, path: Path) -> None:
        self._fail("makedirs", path)
        super().makedirs(path)

    def open(self, path: Path, flags: int) -> int:
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            self._fail("open", path)
        return super().open(path, flags)

    def write(self, fd: int, data: bytes, offset: int) -> None:
        self._fail("write")
        super().write(fd, data, offset)

    def sync(self, fd: int) -> None:
        self._fail("sync")
        super().sync(fd)

    def datasync(self, fd: int) -> None:
        self._fail("datasync")
        super().datasync(fd)


def database(tmp_path: Path) -> Path:
    return tmp_path / "data" / "companion.db"


def played(path: Path, games: int = 1, entries: int = 5) -> Store:
    """A store at ``path`` with ``games`` games of ``entries`` entries each (the last game's
    entries carry a recognisable spell name); left open."""
    store = Store(path)
    for number in range(games):
        game = store.start_game(GAME, PLAYERS, {"removal": "tap"}, number, {"Ann": "tok-a"})
        for seq in range(1, entries + 1):
            store.append(game.id, seq, cast(seq), "phone:Ann", finished=False)
    return store


def cast(seq: int) -> dict:
    return {"type": "cast", "player": "Ann", "spell": seq, "note": f"Zanzibar-{seq:04d}"}


def checkpointed(path: Path) -> None:
    """Copy everything in the WAL into the database file, so that damage to the file hits it."""
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def overwrite(path: Path, offset: int, data: bytes) -> None:
    with open(path, "r+b") as file:
        file.seek(offset)
        file.write(data)


def page_size(path: Path) -> int:
    with closing(sqlite3.connect(path)) as db:
        return db.execute("PRAGMA page_size").fetchone()[0]


READONLY, FULL, IO, FORBIDDEN = errno.EROFS, errno.ENOSPC, errno.EIO, errno.EACCES
