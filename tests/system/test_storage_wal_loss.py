"""Acknowledged entries cannot vanish silently.

A real process appends acknowledged entries and is killed with SIGKILL, so its commits are still
in SQLite's ``-wal`` file (no checkpoint ran). Then the WAL is deleted or cut short, as a damaged
SD card loses it: opening the store must report ``lost`` with the number of acknowledged entries
missing, where SQLite alone would open the older database and the table would start over. Without
the damage the store opens with every entry, and a kill at any moment never reports a loss that
did not happen.
"""

from __future__ import annotations

import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest

from companion.table.storage import StorageError
from companion.table.store import Store

WRITER = Path(__file__).with_name("storage_writer.py")
ENTRIES = 40


def write_and_kill(data: Path, count: int, *, after: float | None = None) -> tuple[int, int]:
    """Run the writer on ``data``/companion.db; kill it with SIGKILL once it is ready (or
    ``after`` seconds); return its game's id (0: none yet) and how many entries it had
    acknowledged."""
    data.mkdir(parents=True, exist_ok=True)
    writer = subprocess.Popen(
        [sys.executable, str(WRITER), str(data / "companion.db"), str(count)],
        stdout=subprocess.PIPE,
        text=True,
    )
    lines = []
    try:
        deadline = time.monotonic() + (after if after is not None else 60)
        while time.monotonic() < deadline:
            line = writer.stdout.readline()
            if not line or line == "ready\n":
                break
            lines.append(line)
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait(10)
    lines += writer.stdout.read().splitlines()  # printed before it died: acknowledged too
    writer.stdout.close()
    said = {}
    for line in lines:
        word, number = line.split()
        said[word] = int(number)
    return said.get("game", 0), said.get("acked", 0)


def visible_entries(data: Path) -> int:
    """How many entries SQLite alone shows in a copy of ``data`` (the copy keeps the original
    untouched by this connection's recovery and checkpoint)."""
    copy = data.with_name(data.name + "-raw")
    shutil.copytree(data, copy)
    with closing(sqlite3.connect(copy / "companion.db")) as raw:
        try:
            return raw.execute("SELECT count(*) FROM entries").fetchone()[0]
        except sqlite3.OperationalError:  # the table itself was in the lost part
            return 0


@pytest.fixture(scope="module")
def killed(tmp_path_factory) -> Path:
    """A data directory as a SIGKILL left it, with every entry still in the WAL."""
    data = tmp_path_factory.mktemp("killed") / "data"
    assert write_and_kill(data, ENTRIES) == (1, ENTRIES)
    wal = data / "companion.db-wal"
    assert wal.stat().st_size > 0, "the writer's commits should still be in the WAL"
    return data


def copy_of(killed: Path, tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(killed, data)
    return data


def test_without_damage_every_acknowledged_entry_is_there(killed, tmp_path):
    data = copy_of(killed, tmp_path)
    store = Store(data / "companion.db")
    try:
        assert [entry.seq for entry in store.entries(1)] == list(range(1, ENTRIES + 1))
    finally:
        store.close()


def test_a_deleted_wal_is_reported_with_every_missing_entry(killed, tmp_path):
    data = copy_of(killed, tmp_path)
    (data / "companion.db-wal").unlink()
    assert visible_entries(data) == 0  # SQLite alone would start over silently
    with pytest.raises(StorageError) as raised:
        Store(data / "companion.db")
    problem = raised.value
    assert problem.kind == "lost" and problem.missing == ENTRIES
    assert f"missing {ENTRIES} acknowledged entries of the log" in problem.what
    assert "companion.db-wal" in problem.what and "accept-loss" in problem.fix


@pytest.mark.parametrize("kept", [0.25, 0.5, 0.9])
def test_a_wal_cut_short_is_reported_with_the_entries_it_lost(killed, tmp_path, kept):
    data = copy_of(killed, tmp_path)
    wal = data / "companion.db-wal"
    with open(wal, "r+b") as file:
        file.truncate(int(wal.stat().st_size * kept))
    visible = visible_entries(data)
    assert visible < ENTRIES
    with pytest.raises(StorageError) as raised:
        Store(data / "companion.db")
    assert raised.value.kind == "lost"
    assert raised.value.missing == ENTRIES - visible
    assert (
        f"game 1 ends at entry {visible}" in raised.value.what
        or "game 1 is not in it at all" in raised.value.what
    )


def test_a_kill_at_any_moment_never_reports_a_loss_that_did_not_happen(tmp_path):
    """The mark is written after its commit, so a kill between the two leaves the database
    ahead of its mark, never behind: every reopening succeeds with everything acknowledged."""
    rng = random.Random(74)
    data = tmp_path / "data"
    for kill in range(5):
        game, acked = write_and_kill(data, 0, after=rng.uniform(0.3, 1.0))
        store = Store(data / "companion.db")  # raises if a loss were (falsely) reported
        try:
            entries = store.entries(game) if game else []  # killed before its game began
            assert len(entries) >= acked, f"kill {kill}: acknowledged entries are missing"
            assert len(entries) - acked in (0, 1), f"kill {kill}: unexplained entries"
        finally:
            store.close()
