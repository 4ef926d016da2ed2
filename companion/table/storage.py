"""Storage failures in plain words: :class:`StorageError`, its kinds, the exit code, and the test
that the data directory can really be written.

A table's SD card fails in a few ways: it turns read-only after errors, it fills up, it returns
input/output errors, it hands back damaged bytes, or it loses a file. Each becomes one
:class:`StorageError` whose ``kind`` a program can act on and whose text (``str(error)``, the same
as ``error.problem``) a person can: what is wrong, in which data directory, what was and was not
done, and how to fix it.

Every file operation the checks and the mark file (``ackmark.py``) make goes through a
:class:`Disk`, so that a test can make them fail as a read-only, full or failing card would: the
tests run as root, which ignores file permissions.
"""

from __future__ import annotations

import errno
import os
import shlex
import sqlite3
from pathlib import Path

#: The exit code of ``companion run`` and ``companion storage`` when storage fails: sysexits'
#: EX_IOERR. The systemd unit does not restart the companion after it (RestartPreventExitStatus).
EXIT_STORAGE = 74

#: Every kind of storage failure, in the order a person would look for them.
KINDS = ("readonly", "full", "io", "corrupt", "lost", "busy")

#: The file written, synced and removed to learn whether the data directory can be written.
PROBE_NAME = ".companion-probe"
PROBE_BYTES = b"companion: checking that this directory can be written\n"

_OS_KINDS = {
    errno.EROFS: "readonly",
    errno.EACCES: "readonly",
    errno.EPERM: "readonly",
    errno.ENOSPC: "full",
    errno.EDQUOT: "full",
    errno.EFBIG: "full",
}
# SQLite's primary result codes (the low byte of the extended code).
_SQLITE_KINDS = {
    3: "readonly",  # SQLITE_PERM
    5: "busy",  # SQLITE_BUSY
    6: "busy",  # SQLITE_LOCKED
    8: "readonly",  # SQLITE_READONLY (and its extended codes)
    10: "io",  # SQLITE_IOERR: refined by probing the directory
    11: "corrupt",  # SQLITE_CORRUPT
    13: "full",  # SQLITE_FULL
    14: "io",  # SQLITE_CANTOPEN: refined by probing the directory
    15: "io",  # SQLITE_PROTOCOL (a WAL lock protocol error)
    26: "corrupt",
}  # SQLITE_NOTADB


class StorageError(Exception):
    """The table's storage cannot be used: ``kind`` (one of :data:`KINDS`) for the program,
    ``problem`` (also ``str(error)``) for a person.

    ``what``, ``done`` and ``fix`` are the paragraph's three parts (what is wrong; what was and was
    not done; the fix), for reports that show them apart, such as ``companion doctor``.
    ``missing`` is the number of acknowledged entries missing (kind ``lost`` only)."""

    def __init__(
        self,
        kind: str,
        what: str,
        done: str,
        fix: str,
        *,
        directory: Path,
        missing: int | None = None,
    ):
        if kind not in KINDS:
            raise ValueError(f"unknown storage error kind {kind!r}")
        self.kind = kind
        self.what, self.done, self.fix = what, done, fix
        self.directory = Path(directory)
        self.missing = missing
        self.problem = " ".join(part for part in (what, done, fix) if part)
        super().__init__(self.problem)

    def __str__(self) -> str:
        return self.problem


class DamagedText(ValueError):
    """Bytes stored as text that are not UTF-8: the database hands back damaged data."""


def decode_text(data: bytes) -> str:
    """The database connection's text factory: strict UTF-8, so that damaged text is an error
    the store reports as ``corrupt`` rather than a raw decoding error or a silent replacement."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DamagedText(
            f"stored text is not valid UTF-8 ({exc.reason} at byte {exc.start})"
        ) from None


class Disk:
    """The file operations of the storage checks and the mark file, in one place.

    The real one calls :mod:`os`; a test's subclass raises ``OSError(errno.EROFS)`` and the like,
    which a test running as root cannot get from file permissions."""

    def makedirs(self, path: Path) -> None:
        os.makedirs(path, exist_ok=True)

    def open(self, path: Path, flags: int) -> int:
        return os.open(path, flags, 0o644)

    def write(self, fd: int, data: bytes, offset: int) -> None:
        view = memoryview(data)
        while view:
            written = os.pwrite(fd, view, offset)
            view, offset = view[written:], offset + written

    def sync(self, fd: int) -> None:
        """Data and metadata on the disk (a new file's size, for one)."""
        os.fsync(fd)

    def datasync(self, fd: int) -> None:
        """The data on the disk: enough when a file's size and place do not change."""
        getattr(os, "fdatasync", os.fsync)(fd)

    def close(self, fd: int) -> None:
        os.close(fd)

    def read(self, path: Path) -> bytes | None:
        """The file's bytes, or None when there is no such file."""
        try:
            with open(path, "rb") as file:
                return file.read()
        except FileNotFoundError:
            return None

    def replace(self, source: Path, target: Path) -> None:
        os.replace(source, target)

    def remove(self, path: Path) -> None:
        try:
            os.remove(path)
        except FileNotFoundError:
            pass

    def sync_directory(self, path: Path) -> None:
        """A file created, renamed or removed in ``path`` stays so after a power cut."""
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def probe_directory(directory: Path, disk: Disk) -> None:
    """Create ``directory`` if needed, then create, write, sync and remove a small file in it:
    raises the ``OSError`` of a read-only, full, failing or forbidden directory."""
    if not directory.is_dir():
        disk.makedirs(directory)
    probe = directory / PROBE_NAME
    fd = disk.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        try:
            disk.write(fd, PROBE_BYTES, 0)
            disk.sync(fd)
        finally:
            disk.close(fd)
    except OSError:
        try:
            disk.remove(probe)  # not to leave it behind, if the card still lets us
        except OSError:
            pass
        raise
    disk.remove(probe)


def kind_of(exc: BaseException, directory: Path, disk: Disk) -> str | None:
    """The storage kind of an error from SQLite, the file system or damaged text; None when it
    is not a storage failure (a constraint, a programming error), which is raised as it is.

    SQLite says "disk I/O error" whatever the disk's reason; probing the directory then tells a
    read-only or full card from a failing one."""
    if isinstance(exc, DamagedText):
        return "corrupt"
    if isinstance(exc, OSError):
        return _OS_KINDS.get(exc.errno, "io")
    if not isinstance(exc, sqlite3.Error):
        return None
    code = getattr(exc, "sqlite_errorcode", None)
    kind = _SQLITE_KINDS.get(code & 0xFF) if code is not None else None
    if kind == "io":
        try:
            probe_directory(directory, disk)
        except OSError as probed:
            return _OS_KINDS.get(probed.errno, "io")
    return kind


def detail_of(exc: BaseException) -> str:
    """A short account of an error for a person: the system's words, and SQLite's code."""
    if isinstance(exc, OSError):
        where = f"{Path(exc.filename).name}: " if exc.filename else ""
        return f"{where}{exc.strerror or exc}"
    name = getattr(exc, "sqlite_errorname", None)
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return f"{text} ({name})" if name else text


def explain(
    kind: str,
    database: Path,
    detail: str,
    *,
    operation: str | None = None,
    writing: bool = True,
    done: str | None = None,
) -> StorageError:
    """A :class:`StorageError` in plain words.

    ``operation`` names what failed while the table runs ("Saving entry 12 of game 3"); None
    means the store was being opened. ``writing`` says whether the operation changes anything;
    ``done``, when given, says what was and was not done instead."""
    directory = database.parent
    if operation is None:
        lead = "The companion cannot use its storage:"
        done = done or (
            "The table was not opened and nothing was changed; the games saved so "
            "far are as they were."
        )
    elif writing:
        lead = f"{operation} failed:"
        done = done or (
            "Nothing of it was kept (it was rolled back); everything saved before "
            "it is intact, and the next change tries again."
        )
    else:
        lead = f"{operation} failed:"
        done = done or "Nothing was changed."
    what = {
        "readonly": f"the data directory {directory} is read-only or may not be written by the "
        f"companion ({detail}).",
        "full": f"the disk holding the data directory {directory} is full ({detail}).",
        "io": f"reading or writing the data directory {directory} failed with an input/output "
        f"error ({detail}): the SD card or disk may be failing.",
        "corrupt": f"the database {database} is damaged ({detail}).",
        "busy": f"the database {database} is locked by another program ({detail}).",
    }[kind]
    return StorageError(kind, f"{lead} {what}", done, fix_for(kind, directory), directory=directory)


def fix_for(kind: str, directory: Path) -> str:
    """What a person does about a storage failure of ``kind``, naming the commands that help."""
    data = shlex.quote(str(directory))
    check = (
        f'`companion storage check --data {data}` says "storage ok" once it is fixed, and '
        f"`companion doctor` shows what it finds."
    )
    return (
        "Fix: "
        + {
            "readonly": "make the directory writable again. If the SD card turned read-only after "
            "errors, shut down, check the card on another computer (fsck) or replace "
            "it; if the directory belongs to another user, give it to the companion's "
            f"user (sudo chown). {check}",
            "full": "free some space on the disk (for instance `sudo journalctl --vacuum-size=50M`, "
            f"or delete files you do not need). {check}",
            "io": "copy the data directory somewhere safe now, while it can still be read; then "
            f"check the card on another computer or replace it, and put the copy back. {check}",
            "corrupt": "keep a copy of the data directory first. Then put back the database from a "
            "backup, or save what can be read with `sqlite3 companion.db .recover`; or, "
            "to start again with an empty table, move companion.db and its -wal and -shm "
            f"files aside and run `companion storage accept-loss --data {data}`. {check}",
            "busy": "stop the other program that uses this data directory (often a second "
            "`companion run`; `systemctl status companion` shows the service), then try "
            f"again. {check}",
            "lost": "if you have the missing file (a backup, or lost+found after fsck), put it "
            "back and start again. Otherwise "
            f"`companion storage accept-loss --data {data}` says what is given up, keeps "
            "what the database holds, and lets the table start from there.",
        }[kind]
    )
