"""The dice's rolls in the store: counts per die, kind and face, the raw rolls bounded per die and
kind, the kinds apart, a restart, an older database, bad rolls and a storage that fails."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest

from companion.table import dice_store
from companion.table.dice_store import KEEP_ROLLS, PLACED, READ, VIRTUAL, Roll
from companion.table.storage import StorageError
from companion.table.store import Store

D6 = ("1", "2", "3", "4", "5", "6")
BATTLE = ("1", "2", "2P", "3", "4", "5")


def roll(face: str, kind: str = READ, die: int = 0, profile: str = "d6", faces=D6, game=None):
    return Roll("dice", die, profile, faces, face, kind, game)


@pytest.fixture
def store(tmp_path):
    store = Store(tmp_path / "t.db")
    yield store
    store.close()


def test_counts_are_kept_per_die_kind_and_face(store):
    assert store.keep_rolls([roll("4"), roll("4"), roll("6")], "2026-01-01T10:00:00") == 3
    store.keep_rolls([roll("4", PLACED), roll("2", die=1)], "2026-01-01T10:01:00")
    store.keep_rolls([roll("2P", profile="battle", faces=BATTLE)], "2026-01-01T10:02:00")
    battle, first, second = store.dice()  # by reader, index, then profile
    assert (first.reader, first.die, first.profile, first.faces) == ("dice", 0, "d6", D6)
    assert first.counts == {READ: {"4": 2, "6": 1}, PLACED: {"4": 1}}
    assert (first.total(READ), first.total(PLACED), first.total(VIRTUAL)) == (3, 1, 0)
    assert (first.first_at, first.last_at) == ("2026-01-01T10:00:00", "2026-01-01T10:01:00")
    assert (second.die, second.counts) == (1, {READ: {"2": 1}})
    # the same index read with another profile is another die
    assert (battle.die, battle.profile, battle.counts) == (0, "battle", {READ: {"2P": 1}})
    assert battle.weights() == dict.fromkeys(BATTLE, 1)
    twice = ("1", "2", "2", "3", "4", "5")  # a custom die with a label printed twice
    store.keep_rolls([roll("2", profile="custom", faces=twice)], "2026-01-01T10:03:00")
    [custom] = [d for d in store.dice() if d.profile == "custom"]
    assert custom.weights() == {"1": 1, "2": 2, "3": 1, "4": 1, "5": 1}
    assert store.die_record(first.id) == first
    assert store.die_record(999) is None


def test_virtual_dice_come_after_the_physical_ones(store):
    store.keep_rolls([Roll("virtual", 0, "d6", D6, "3", VIRTUAL)], "t1")
    store.keep_rolls([roll("5")], "t2")
    physical, virtual = store.dice()
    assert (physical.virtual, virtual.virtual) == (False, True)
    assert virtual.counts == {VIRTUAL: {"3": 1}}


def test_the_raw_rolls_are_bounded_per_die_and_kind_and_the_counts_are_not(store, monkeypatch):
    monkeypatch.setattr(dice_store, "KEEP_ROLLS", 5)
    for n in range(12):
        store.keep_rolls([roll(D6[n % 6], game=n)], f"t{n:02}")
    store.keep_rolls([roll("1", PLACED)], "t99")
    [die] = store.dice()
    assert die.total(READ) == 12 and die.counts[READ] == dict.fromkeys(D6, 2)
    kept = store.die_rolls(die.id, READ)
    assert [r["game_id"] for r in kept] == [7, 8, 9, 10, 11]  # the newest 5, oldest first
    assert [r["face"] for r in kept] == ["2", "3", "4", "5", "6"]
    assert store.die_rolls(die.id, PLACED) == [{"face": "1", "game_id": None, "at": "t99"}]
    assert store.die_rolls(die.id, READ, limit=2) == kept[-2:]


def test_the_default_bound():
    assert KEEP_ROLLS == 1000 and dice_store.MAX_DICE == 64


def test_dice_beyond_the_bound_are_not_kept(store, monkeypatch):
    monkeypatch.setattr(dice_store, "MAX_DICE", 2)
    assert store.keep_rolls([roll("1", die=0), roll("1", die=1), roll("1", die=2)], "t") == 2
    assert store.keep_rolls([roll("2", die=0)], "t") == 1  # a known die still counts
    assert [d.die for d in store.dice()] == [0, 1]
    assert store._read("", "SELECT value FROM meta WHERE key = 'dice_not_kept'") == [(1,)]


def test_a_face_the_die_has_not_or_an_unknown_kind_keeps_nothing(store):
    for bad in (roll("7"), roll("1", "thrown"), roll("1", faces=D6[:5])):
        with pytest.raises(ValueError):
            store.keep_rolls([roll("1"), bad], "t")
    assert store.dice() == []


def test_the_rolls_survive_a_restart(tmp_path):
    path = tmp_path / "t.db"
    store = Store(path)
    store.keep_rolls([roll("3"), roll("3"), roll("5", PLACED)], "t")
    store.close()
    store = Store(path)
    try:
        [die] = store.dice()
        assert die.counts == {READ: {"3": 2}, PLACED: {"5": 1}}
        assert len(store.die_rolls(die.id, READ)) == 2
    finally:
        store.close()


def test_the_rolls_are_not_marked(store):
    """A roll's record is a statistic beside the log, like a refusal: no mark is written."""
    before = store._held()
    store.keep_rolls([roll("1")], "t")
    assert store._held() == before


def test_a_database_from_before_the_dice_gets_their_tables(tmp_path):
    path = tmp_path / "t.db"
    Store(path).close()
    with closing(sqlite3.connect(path)) as db:  # back to what the previous release left
        db.executescript("DROP TABLE dice_rolls; DROP TABLE dice_counts; DROP TABLE dice;")
        db.execute("PRAGMA user_version = 4")
        db.commit()
    store = Store(path)
    try:
        assert store.dice() == []
        store.keep_rolls([roll("2")], "t")
        assert store.dice()[0].counts == {READ: {"2": 1}}
    finally:
        store.close()


def test_a_storage_that_fails_keeps_nothing_and_says_so(store):
    store.keep_rolls([roll("1")], "t")
    store._db.execute("PRAGMA query_only = 1")  # SQLite refuses every write
    with pytest.raises(StorageError):
        store.keep_rolls([roll("2"), roll("3")], "t")
    assert store.failure is not None
    store._db.execute("PRAGMA query_only = 0")
    assert store.dice()[0].counts == {READ: {"1": 1}}
    store.keep_rolls([roll("2")], "t")
    assert store.failure is None
