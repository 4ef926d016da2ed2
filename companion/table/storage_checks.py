"""Whole-storage checks for people: ``companion storage check``, ``companion storage accept-loss``
and the storage finding of ``companion doctor``.

Unlike opening a :class:`~companion.table.store.Store`, these never create a data directory or a
database where there is none: they say that it will be created on the first start.
"""

from __future__ import annotations

import errno
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .ackmark import (
    EMPTY,
    Comparison,
    MarkDamaged,
    MarkFile,
    counted,
    damaged_mark_error,
    lost_error,
    mark_path,
)
from .storage import Disk, detail_of, explain, kind_of, probe_directory
from .store import Store


@dataclass(frozen=True)
class StorageReport:
    """What ``check_storage`` found, when the storage can be used."""

    directory: Path
    database: Path
    #: False: no data directory or no database yet (both are created on the first start)
    directory_exists: bool
    database_exists: bool
    games: int = 0
    entries: int = 0
    #: entries whose checksum was verified, and older ones that have none
    checked: int = 0
    unchecked: int = 0
    comparison: Comparison | None = None

    def summary(self) -> str:
        """One line: the directory, the database's contents, the mark against the log."""
        if not self.directory_exists:
            return (
                f"the data directory {self.directory} does not exist yet: it is created on "
                f"first start"
            )
        if not self.database_exists:
            return f"{self.directory} is writable; no database yet: it is created on first start"
        text = (
            f"{self.directory} is writable; {self.database.name}: "
            f"{counted(self.games, 'game', 'games')}, "
            f"{counted(self.entries, 'entry', 'entries')}, quick check ok"
        )
        if self.checked:
            text += f", {self.checked} checksums ok"
        if self.unchecked:
            text += f" ({self.unchecked} older entries have none)"
        mark = self.comparison.mark if self.comparison else None
        if mark is not None and mark.game:
            text += (
                f"; the mark matches the log (last acknowledged: entry {mark.seq} of game "
                f"{mark.game})"
            )
        elif mark is not None:
            text += "; the mark matches the log"
        return text


def check_storage(database: Path, disk: Disk | None = None) -> StorageReport:
    """Every check ``Store()`` makes when it opens, and every entry's checksum; raises
    :class:`StorageError`. Creates nothing where there is no database (beyond the moment's
    probe file), but writes the mark of a database from before marks, as a start would."""
    database, disk = Path(database), disk or Disk()
    directory = database.parent
    with _os_errors(database, disk):
        if not directory.is_dir():
            if directory.exists():  # a file where the directory should be
                raise NotADirectoryError(errno.ENOTDIR, "Not a directory", str(directory))
            return StorageReport(directory, database, False, False)
        if not database.exists():
            probe_directory(directory, disk)
            marks = MarkFile(mark_path(database), disk)
            try:
                mark = marks.read()
            except MarkDamaged as exc:
                raise damaged_mark_error(marks.path, str(exc)) from exc
            if mark is not None:
                missing = Comparison(mark, EMPTY, False, 0, database_missing=True)
                if missing.lost:
                    raise lost_error(missing, database)
            return StorageReport(directory, database, True, False)
    store = Store(database, disk=disk)
    try:
        games, entries = store.counts()
        checked, unchecked = store.verify_entries()
        return StorageReport(
            directory,
            database,
            True,
            True,
            games,
            entries,
            checked,
            unchecked,
            store.compare_mark(),
        )
    finally:
        store.close()


@dataclass(frozen=True)
class Acceptance:
    """The outcome of ``accept_loss``: whether anything was lost, whether the loss was accepted,
    and what was found, in words."""

    lost: bool
    accepted: bool
    found: str


def accept_loss(
    database: Path, confirm: Callable[[str], bool], disk: Disk | None = None
) -> Acceptance:
    """Compare the mark with the log; if the log holds less (or the mark is damaged), describe
    what is given up, ask ``confirm(description)``, and on yes write a new mark from what the
    database holds (or, with no database, remove the mark). Raises :class:`StorageError` for
    any other storage problem."""
    database, disk = Path(database), disk or Disk()
    with _os_errors(database, disk):
        if not database.exists():
            return _accept_without_database(database, confirm, disk)
    store = Store(database, disk=disk, verify_mark=False)
    try:
        comparison = store.compare_mark()
        if comparison is None:
            games, entries = store.counts()
            found = (
                f"The mark file is damaged ({store.mark_problem}), so what is missing "
                f"cannot be told; the database holds {counted(games, 'game', 'games')} and "
                f"{counted(entries, 'entry', 'entries')}. Accepting writes a new mark from "
                f"it."
            )
        elif not comparison.lost:
            return Acceptance(False, False, f"Nothing is lost: {comparison.describe()}")
        else:
            found = (
                f"{_sentence(comparison.describe())} Accepting gives up "
                f"{comparison.missing()} for good and continues from what the database "
                f"holds."
            )
        if not confirm(found):
            return Acceptance(True, False, found)
        store.reset_mark()
        return Acceptance(True, True, found)
    finally:
        store.close()


def _accept_without_database(
    database: Path, confirm: Callable[[str], bool], disk: Disk
) -> Acceptance:
    """``accept_loss`` where the database file is gone: accepting removes its mark, so that the
    next start begins with an empty table."""
    marks = MarkFile(mark_path(database), disk)
    try:
        mark = marks.read()
    except MarkDamaged as exc:
        found = f"The database is missing and its mark file is damaged ({exc})."
    else:
        if mark is None:
            return Acceptance(
                False, False, "There is no database and no mark yet: nothing is lost."
            )
        comparison = Comparison(mark, EMPTY, False, 0, database_missing=True)
        if not comparison.lost:
            return Acceptance(
                False,
                False,
                "There is no database, and its mark records no change: nothing is lost.",
            )
        found = (
            f"{_sentence(comparison.describe())} Accepting gives up "
            f"{comparison.missing()} for good and starts again with an empty table."
        )
    if not confirm(found):
        return Acceptance(True, False, found)
    marks.remove()
    return Acceptance(True, True, found)


@contextmanager
def _os_errors(database: Path, disk: Disk) -> Iterator[None]:
    """An ``OSError`` in the block as a :class:`StorageError` in plain words."""
    try:
        yield
    except OSError as exc:
        raise explain(
            kind_of(exc, database.parent, disk) or "io", database, detail_of(exc)
        ) from exc


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]
