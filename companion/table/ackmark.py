"""The acknowledgement mark: how much of the log had been saved, kept where a lost WAL cannot
erase it.

SQLite in WAL mode keeps recent commits in the ``-wal`` file until a checkpoint copies them into
the database. If that file is lost or cut short, those commits vanish and the database still
opens, as if they had never happened. So after every commit that must not vanish, the store also
writes a *mark*, a small file beside the database (``companion.db-mark``), and syncs it before the
method returns. When the store opens, a database that holds less than its mark has lost
acknowledged entries, and says so instead of starting over.

The file holds two fixed-size slots, 4096 bytes apart (each in its own file-system block), written
alternately. Each slot (little-endian):

========== ====== ==========================================================================
bytes      type   what
========== ====== ==========================================================================
0-3        4s     ``CMRK``
4-5        u16    format version, 1
6-7        u16    0 (reserved)
8-15       u64    generation: 1 for the first mark written, one more for every later one
16-23      u64    changes: the database's count of marked commits (``meta.changes``)
24-31      u64    entries: the number of log entries (``meta.entries``)
32-39      u64    game: the latest game's id (0: none yet)
40-47      u64    seq: that game's highest entry (0: none yet)
48-51      u32    CRC-32 of bytes 0-47
========== ====== ==========================================================================

A write that is torn by a power cut damages at most the slot being written, whose CRC then fails;
the other slot still holds the previous mark, and the newest valid slot wins. A new mark file is
written whole to a temporary file, synced and renamed into place, so it is never half there.
"""

from __future__ import annotations

import os
import shlex
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

from .storage import Disk, StorageError, fix_for

MARK_SUFFIX = "-mark"
MAGIC = b"CMRK"
VERSION = 1
_SLOT = struct.Struct("<4sHHQQQQQ")
_CRC = struct.Struct("<I")
SLOT_SIZE = _SLOT.size + _CRC.size
SLOT_OFFSETS = (0, 4096)
FILE_SIZE = SLOT_OFFSETS[1] + SLOT_SIZE
#: Writes through a descriptor opened with O_DSYNC reach the disk before ``pwrite`` returns: the
#: same as ``fdatasync`` after it, in one system call (so the table's other threads wait on one
#: hand-over of Python's interpreter lock, not two). Where there is no O_DSYNC, ``fdatasync``.
_DSYNC = getattr(os, "O_DSYNC", 0)


def mark_path(database: Path) -> Path:
    """The mark file of ``database``: ``companion.db`` -> ``companion.db-mark``."""
    return database.with_name(database.name + MARK_SUFFIX)


@dataclass(frozen=True)
class Mark:
    """What the log held at one acknowledged commit (or, for a database, what it holds now)."""

    changes: int
    entries: int
    game: int
    seq: int


EMPTY = Mark(0, 0, 0, 0)


class MarkDamaged(ValueError):
    """The mark file exists but neither slot holds a valid mark."""


def encode(mark: Mark, generation: int) -> bytes:
    body = _SLOT.pack(
        MAGIC, VERSION, 0, generation, mark.changes, mark.entries, mark.game, mark.seq
    )
    return body + _CRC.pack(zlib.crc32(body))


def decode(slot: bytes) -> tuple[int, Mark] | None:
    """``(generation, mark)`` from one slot's bytes, or None if they are not a valid mark."""
    if len(slot) < SLOT_SIZE:
        return None
    body, (crc,) = slot[: _SLOT.size], _CRC.unpack(slot[_SLOT.size : SLOT_SIZE])
    if zlib.crc32(body) != crc:
        return None
    magic, version, _, generation, changes, entries, game, seq = _SLOT.unpack(body)
    if magic != MAGIC or version != VERSION:
        return None
    return generation, Mark(changes, entries, game, seq)


class MarkFile:
    """Reads and durably writes the mark of one database, through a :class:`Disk`.

    The file stays open between writes, so that a write costs one synchronous ``pwrite``; after
    a failed write it is opened again by the next one."""

    def __init__(self, path: Path, disk: Disk):
        self.path = path
        self.disk = disk
        #: the generation of the newest mark read or written (0: none yet)
        self.generation = 0
        self._fd: int | None = None

    def read(self) -> Mark | None:
        """The newest valid mark; None when there is no mark file. Raises :class:`MarkDamaged`
        when the file is there but holds no valid mark."""
        data = self.disk.read(self.path)
        if data is None:
            return None
        found = [
            slot
            for offset in SLOT_OFFSETS
            if (slot := decode(data[offset : offset + SLOT_SIZE])) is not None
        ]
        if not found:
            raise MarkDamaged(f"{self.path.name} holds no valid mark ({len(data)} bytes)")
        self.generation, mark = max(found, key=lambda slot: slot[0])
        return mark

    def write(self, mark: Mark) -> None:
        """Overwrite the older slot with ``mark``, on the disk before this returns; a missing
        file is created whole. Raises ``OSError``."""
        generation = self.generation + 1
        if self._fd is None:
            try:
                self._fd = self.disk.open(self.path, os.O_WRONLY | _DSYNC)
            except FileNotFoundError:
                self.create(mark)
                return
        try:
            self.disk.write(self._fd, encode(mark, generation), SLOT_OFFSETS[generation % 2])
            if not _DSYNC:
                self.disk.datasync(self._fd)
        except OSError:
            self.close()
            raise
        self.generation = generation

    def create(self, mark: Mark) -> None:
        """Write a new mark file holding ``mark``: whole to a temporary file, synced, renamed
        over the old one (if any), and the directory synced. Raises ``OSError``."""
        self.close()
        generation = self.generation + 1
        content = bytearray(FILE_SIZE)
        offset = SLOT_OFFSETS[generation % 2]
        content[offset : offset + SLOT_SIZE] = encode(mark, generation)
        temporary = self.path.with_name(self.path.name + ".tmp")
        fd = self.disk.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        try:
            self.disk.write(fd, bytes(content), 0)
            self.disk.sync(fd)
        finally:
            self.disk.close(fd)
        self.disk.replace(temporary, self.path)
        self.disk.sync_directory(self.path.parent)
        self.generation = generation

    def remove(self) -> None:
        """Forget the mark (``companion storage accept-loss`` when the database is gone)."""
        self.close()
        self.disk.remove(self.path)
        self.disk.sync_directory(self.path.parent)
        self.generation = 0

    def close(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                self.disk.close(fd)
            except OSError:
                pass  # nothing was left to write: every write was synced


@dataclass(frozen=True)
class Comparison:
    """The mark against what the database holds: ``lost`` when it holds less."""

    mark: Mark
    #: the database now: its counters, its latest game and that game's last entry
    held: Mark
    #: whether the mark's game is in the database, and its last entry there (0: none)
    game_held: bool
    game_last_seq: int
    database_missing: bool = False

    @property
    def missing_entries(self) -> int:
        return max(0, self.mark.entries - self.held.entries)

    @property
    def missing_changes(self) -> int:
        """Saved changes missing besides the entries: games started, seats, stickers, settings."""
        return max(0, self.mark.changes - self.held.changes - self.missing_entries)

    @property
    def lost(self) -> bool:
        return (self.database_missing and self.mark.changes > 0) or bool(
            self.missing_entries
            or self.missing_changes
            or (self.mark.game and not self.game_held)
            or self.game_last_seq < self.mark.seq
        )

    def missing(self) -> str:
        """What is missing, in words ("3 acknowledged entries of the log and 1 other saved
        change (...)")."""
        if self.database_missing:
            return (
                counted(self.mark.entries, "acknowledged entry", "acknowledged entries")
                + " (the whole database)"
            )
        parts = []
        if self.missing_entries:
            parts.append(
                counted(self.missing_entries, "acknowledged entry", "acknowledged entries")
                + " of the log"
            )
        if self.missing_changes:
            parts.append(
                counted(self.missing_changes, "other saved change", "other saved changes")
                + " (a game started, seats, stickers or settings)"
            )
        return " and ".join(parts) or "acknowledged entries of the mark's game"

    def describe(self) -> str:
        """The mark and the database side by side, in words (a sentence, lower case first)."""
        mark = self.mark
        said = (
            f"the mark file says {counted(mark.entries, 'entry', 'entries')} had been "
            f"acknowledged in {counted(mark.changes, 'saved change', 'saved changes')}"
        )
        if mark.game:
            said += (
                f" (the last: entry {mark.seq} of game {mark.game})"
                if mark.seq
                else f" (the last: game {mark.game} started)"
            )
        if self.database_missing:
            return f"{said}, but the database file is missing."
        held = (
            f"the database holds {counted(self.held.entries, 'entry', 'entries')} in "
            f"{counted(self.held.changes, 'change', 'changes')}"
        )
        if mark.game and not self.game_held:
            held += f" and game {mark.game} is not in it at all"
        elif mark.game:
            held += (
                f" and game {mark.game} ends at entry {self.game_last_seq}"
                if self.game_last_seq
                else f" and game {mark.game} has no entries"
            )
        return f"{said}, {'but' if self.lost else 'and'} {held}."


def counted(number: int, one: str, many: str) -> str:
    """A number with its noun: "3 entries", "1 entry"."""
    return f"{number} {one if number == 1 else many}"


def lost_error(comparison: Comparison, database: Path) -> StorageError:
    """The :class:`StorageError` of kind ``lost`` for a database that holds less than its mark."""
    if comparison.database_missing:
        what = f"The database {database} is missing: {comparison.describe()}"
    else:
        what = (
            f"The database {database} is missing {comparison.missing()}: "
            f"{comparison.describe()} Its write-ahead log ({database.name}-wal) was probably "
            f"lost or cut short, or an older copy of the database was put back."
        )
    done = (
        "The table was not opened and nothing was changed, so the missing file can still be "
        "looked for."
    )
    return StorageError(
        "lost",
        what,
        done,
        fix_for("lost", database.parent),
        directory=database.parent,
        missing=comparison.mark.entries
        if comparison.database_missing
        else comparison.missing_entries,
    )


def damaged_mark_error(path: Path, detail: str) -> StorageError:
    """The :class:`StorageError` for a mark file that holds no valid mark."""
    directory = path.parent
    data = shlex.quote(str(directory))
    return StorageError(
        "corrupt",
        f"The companion cannot use its storage: the mark file {path} is damaged ({detail}), so "
        f"it cannot tell whether acknowledged entries are missing from the database.",
        "The table was not opened and nothing was changed.",
        f"Fix: `companion storage accept-loss --data {data}` says what the database holds and "
        f'writes a new mark from it; `companion storage check --data {data}` says "storage ok" '
        f"afterwards.",
        directory=directory,
    )
