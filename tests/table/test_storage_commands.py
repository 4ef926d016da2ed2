"""``companion storage check|accept-loss`` and the doctor's storage finding: their exit codes and
their words, and that neither creates a database where there is none."""

from __future__ import annotations

import io
import shutil

import pytest
from storage_support import READONLY, FailingDisk, cast, database, played

from companion.cli import main
from companion.config import Config
from companion.doctor import storage
from companion.table.storage import EXIT_STORAGE, StorageError
from companion.table.store import Store


def run(capsys, *argv: str) -> tuple[int, str]:
    """Exit code and everything printed, with the lines' wrapping undone."""
    code = main(list(argv))
    out = capsys.readouterr()
    return code, " ".join((out.out + out.err).split())


def lose_entries(tmp_path, kept: int = 3, lost: int = 4) -> None:
    """A data directory whose database is an older copy: ``lost`` acknowledged entries gone."""
    path = database(tmp_path)
    played(path, entries=kept).close()
    shutil.copy(path, tmp_path / "older.db")
    store = Store(path)
    for seq in range(kept + 1, kept + lost + 1):
        store.append(1, seq, cast(seq), "phone:Ann", finished=False)
    store.close()
    shutil.copy(tmp_path / "older.db", path)


def test_check_on_a_fresh_directory_says_ok_and_creates_nothing(tmp_path, capsys):
    data = tmp_path / "data"
    code, out = run(capsys, "storage", "check", "--data", str(data))
    assert code == 0
    assert (
        out == f"storage ok: the data directory {data} does not exist yet: it is created on "
        f"first start"
    )
    assert not data.exists()
    data.mkdir()
    code, out = run(capsys, "storage", "check", "--data", str(data))
    assert code == 0 and "is writable; no database yet: it is created on first start" in out
    assert list(data.iterdir()) == []


def test_check_on_a_played_directory_summarises_it(tmp_path, capsys):
    played(database(tmp_path), games=2, entries=7).close()
    code, out = run(capsys, "storage", "check", "--data", str(tmp_path / "data"))
    assert code == 0
    assert out.startswith("storage ok: ")
    assert "companion.db: 2 games, 14 entries, quick check ok, 14 checksums ok" in out
    assert "the mark matches the log (last acknowledged: entry 7 of game 2)" in out


def test_check_reads_the_data_directory_from_the_environment_with_a_config_file(
    tmp_path, capsys, monkeypatch
):
    """--config FILE is read (and must be valid); the data directory is the default one."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    played(tmp_path / "xdg" / "companion" / "companion.db", entries=2).close()
    config = tmp_path / "companion.toml"
    config.write_text("[devices]\nseats = 4\n", encoding="utf-8")
    code, out = run(capsys, "storage", "check", "--config", str(config))
    assert code == 0 and "1 game, 2 entries" in out
    config.write_text("[devices]\nseats = 40\n", encoding="utf-8")
    code, out = run(capsys, "storage", "check", "--config", str(config))
    assert code == 2 and "seats" in out


def test_check_on_a_damaged_database_prints_the_paragraph_and_exits_74(tmp_path, capsys):
    path = database(tmp_path)
    path.parent.mkdir()
    path.write_bytes(b"garbage " * 1000)
    code, out = run(capsys, "storage", "check", "--data", str(path.parent))
    assert code == EXIT_STORAGE == 74
    assert f"the database {path} is damaged" in out and "Fix:" in out
    assert not out.startswith("storage ok")


def test_check_on_a_log_shorter_than_its_mark_reports_the_loss(tmp_path, capsys):
    lose_entries(tmp_path)
    code, out = run(capsys, "storage", "check", "--data", str(tmp_path / "data"))
    assert code == EXIT_STORAGE
    assert "missing 4 acknowledged entries" in out and "companion storage accept-loss" in out


def test_accept_loss_without_yes_and_without_a_terminal_changes_nothing(
    tmp_path, capsys, monkeypatch
):
    lose_entries(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out = run(capsys, "storage", "accept-loss", "--data", str(tmp_path / "data"))
    assert code == 1
    assert "Accepting gives up 4 acknowledged entries of the log" in out
    assert "Nothing was changed: run again with --yes to accept." in out
    with pytest.raises(StorageError) as raised:
        Store(database(tmp_path))
    assert raised.value.kind == "lost"


def test_accept_loss_asks_on_a_terminal_and_a_no_changes_nothing(tmp_path, capsys, monkeypatch):
    lose_entries(tmp_path)
    answers = iter(["no", "yes"])
    monkeypatch.setattr("sys.stdin.isatty", lambda: True, raising=False)
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    code, _ = run(capsys, "storage", "accept-loss", "--data", str(tmp_path / "data"))
    assert code == 1
    code, out = run(capsys, "storage", "accept-loss", "--data", str(tmp_path / "data"))
    assert code == 0 and "Accepted: the mark now matches the database" in out


def test_accept_loss_with_yes_lets_the_table_start_from_what_is_left(tmp_path, capsys):
    lose_entries(tmp_path, kept=3, lost=4)
    code, out = run(capsys, "storage", "accept-loss", "--data", str(tmp_path / "data"), "--yes")
    assert code == 0
    assert (
        "The mark file says 7 entries had been acknowledged in 8 saved changes (the last: "
        "entry 7 of game 1), but the database holds 3 entries in 4 changes and game 1 ends "
        "at entry 3."
    ) in out
    store = Store(database(tmp_path))
    try:
        assert [e.seq for e in store.entries(1)] == [1, 2, 3]
        store.append(1, 4, cast(4), "phone:Ann", finished=False)  # play goes on from there
    finally:
        store.close()
    code, out = run(capsys, "storage", "accept-loss", "--data", str(tmp_path / "data"))
    assert code == 0 and out.startswith("Nothing is lost: the mark file says")


def test_accept_loss_of_a_deleted_database_starts_empty(tmp_path, capsys):
    path = database(tmp_path)
    played(path, entries=5).close()
    path.unlink()
    code, out = run(capsys, "storage", "accept-loss", "--data", str(path.parent), "--yes")
    assert code == 0 and "the database file is missing" in out
    assert "gives up 5 acknowledged entries (the whole database)" in out
    assert not path.exists()
    store = Store(path)
    try:
        assert store.games() == []
    finally:
        store.close()


def test_accept_loss_replaces_a_damaged_mark(tmp_path, capsys):
    path = database(tmp_path)
    played(path, entries=2).close()
    path.with_name("companion.db-mark").write_bytes(b"\x00" * 100)
    code, out = run(capsys, "storage", "accept-loss", "--data", str(path.parent), "--yes")
    assert code == 0 and "The mark file is damaged" in out and "1 game and 2 entries" in out
    Store(path).close()


def test_accept_loss_does_not_hide_another_problem(tmp_path, capsys):
    path = database(tmp_path)
    path.parent.mkdir()
    path.write_bytes(b"garbage " * 1000)
    code, out = run(capsys, "storage", "accept-loss", "--data", str(path.parent), "--yes")
    assert code == EXIT_STORAGE and "is damaged" in out


# -- the doctor ------------------------------------------------------------------------------------


def test_the_doctor_says_a_database_will_be_created_and_creates_none(tmp_path):
    finding = storage(Config(data_dir=tmp_path))
    assert finding.ok and finding.device == "storage"
    assert finding.what == f"{tmp_path} is writable; no database yet: it is created on first start"
    assert list(tmp_path.iterdir()) == []


def test_the_doctor_reports_a_sound_database_and_its_mark(tmp_path):
    played(database(tmp_path), entries=4).close()
    finding = storage(Config(data_dir=tmp_path / "data"))
    assert finding.ok and "1 game, 4 entries, quick check ok, 4 checksums ok" in finding.what
    assert "the mark matches the log" in finding.what and finding.fix is None


def test_the_doctor_reports_a_read_only_directory_with_the_fix(tmp_path):
    finding = storage(Config(data_dir=tmp_path), disk=FailingDisk(READONLY))
    assert not finding.ok and "is read-only or may not be written" in finding.what
    assert finding.fix.startswith("make the directory writable again")
    assert "companion storage check --data" in finding.fix
    assert "FAIL  storage" in finding.line()


def test_the_doctor_reports_missing_entries_with_the_fix(tmp_path):
    lose_entries(tmp_path, kept=2, lost=3)
    finding = storage(Config(data_dir=tmp_path / "data"))
    assert not finding.ok and "missing 3 acknowledged entries" in finding.what
    assert "companion storage accept-loss --data" in finding.fix


def test_the_whole_doctor_fails_on_storage_and_says_so_first(tmp_path, capsys):
    lose_entries(tmp_path)
    code, out = run(capsys, "doctor", "--data", str(tmp_path / "data"), "--wait", "0")
    assert code == 1
    assert out.index("FAIL storage") < out.index("buttons") and "1 problem found." in out
