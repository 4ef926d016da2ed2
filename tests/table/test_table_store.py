"""The SQLite store: games, the durable event log, refusals, tags and settings."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import closing
from pathlib import Path

import pytest

from companion.table.store import Entry, Store

GAME = "abracadawhat"
PLAYERS = ["Ann", "Ben", "Cid"]
TOKENS = {"Ann": "tok-a", "Ben": "tok-b", "Cid": "tok-c"}


def db_file(tmp_path: Path) -> Path:
    return tmp_path / "data" / "companion.db"


@pytest.fixture
def store(tmp_path: Path):
    s = Store(db_file(tmp_path))
    yield s
    s.close()


def start(store: Store, seed: int = 7, options: dict | None = None):
    return store.start_game(
        GAME, PLAYERS, {"removal": "tap"} if options is None else options, seed, TOKENS
    )


def cast(player: str, spell: int) -> dict:
    return {"type": "cast", "player": player, "spell": spell}


# -- games -----------------------------------------------------------------------------------------


def test_a_started_game_reads_back_with_every_field(store):
    """start_game stores players, options, seed and tokens as given; the game is unfinished."""
    record = start(store, seed=2014)
    again = store.game(record.id)
    assert again == record
    assert (again.game, again.players, again.options, again.seed, again.tokens) == (
        GAME,
        PLAYERS,
        {"removal": "tap"},
        2014,
        TOKENS,
    )
    assert again.started_at and again.finished_at is None and not again.abandoned


def test_an_empty_store_has_no_games_and_an_unknown_id_is_a_key_error(store):
    """A fresh file has no latest game; asking for a game that does not exist raises KeyError."""
    assert store.latest_game() is None and store.games() == []
    with pytest.raises(KeyError):
        store.game(1)


def test_starting_a_game_abandons_the_unfinished_one(store):
    """The previous unfinished game is kept, marked abandoned and given a finished_at."""
    first = start(store)
    second = start(store, seed=8)
    old, new = store.game(first.id), store.game(second.id)
    assert old.abandoned and old.finished_at is not None
    assert not new.abandoned and new.finished_at is None
    assert [g.id for g in store.games()] == [first.id, second.id]
    assert store.latest_game() == new


def test_starting_a_game_leaves_a_finished_game_alone(store):
    """A game that ended normally is not marked abandoned when the next one starts."""
    first = start(store)
    store.append(first.id, 1, cast("Ann", 8), "phone:Ann", finished=True)
    finished_at = store.game(first.id).finished_at
    start(store)
    old = store.game(first.id)
    assert not old.abandoned and old.finished_at == finished_at


# -- the log ---------------------------------------------------------------------------------------


def test_entries_round_trip_in_sequence_order(store):
    """Entries come back ordered by seq with their action, source and commit time."""
    game = start(store)
    at2 = store.append(game.id, 2, cast("Ben", 3), "button:1", finished=False)
    at1 = store.append(game.id, 1, {"type": "undo"}, "phone:Ann", finished=False)
    assert store.entries(game.id) == [
        Entry(1, {"type": "undo"}, "phone:Ann", at1),
        Entry(2, cast("Ben", 3), "button:1", at2),
    ]


def test_entries_belong_to_their_own_game(store):
    """Each game's log holds only its own entries."""
    a, b = start(store), start(store)
    store.append(a.id, 1, cast("Ann", 1), "x", finished=False)
    store.append(b.id, 1, cast("Ben", 2), "y", finished=False)
    assert [e.action for e in store.entries(a.id)] == [cast("Ann", 1)]
    assert [e.action for e in store.entries(b.id)] == [cast("Ben", 2)]


def test_the_finished_flag_sets_and_clears_finished_at(store):
    """finished=True records the end; an entry after it with finished=False (an undo) clears it."""
    game = start(store)
    at = store.append(game.id, 1, cast("Ann", 8), "phone:Ann", finished=True)
    assert store.game(game.id).finished_at == at
    store.append(game.id, 2, {"type": "undo"}, "button:0", finished=False)
    assert store.game(game.id).finished_at is None


def test_an_abandoned_game_keeps_its_finished_at(store):
    """Appending to an abandoned game does not clear (or move) the moment it was abandoned."""
    first = start(store)
    start(store)
    abandoned_at = store.game(first.id).finished_at
    store.append(first.id, 1, cast("Ann", 2), "replay", finished=False)
    store.append(first.id, 2, cast("Ann", 3), "replay", finished=True)
    assert store.game(first.id).finished_at == abandoned_at
    assert store.game(first.id).abandoned


def test_a_second_store_on_the_same_file_sees_every_entry(tmp_path):
    """Every acknowledged append is committed: another connection (a restart) reads all of it."""
    first = Store(db_file(tmp_path))
    game = start(first)
    actions = [cast("Ann", n) for n in range(1, 9)]
    for seq, action in enumerate(actions, start=1):
        first.append(game.id, seq, action, "phone:Ann", finished=seq == len(actions))
    second = Store(db_file(tmp_path))  # the first one is still open: nothing may be pending
    try:
        assert [e.action for e in second.entries(game.id)] == actions
        assert second.game(game.id).finished_at is not None
    finally:
        second.close()
        first.close()
    reopened = Store(db_file(tmp_path))
    try:
        assert [e.seq for e in reopened.entries(game.id)] == list(range(1, 9))
    finally:
        reopened.close()


def test_the_log_is_write_ahead_and_fully_synchronous(store):
    """journal_mode=WAL is recorded in the file; the store's own connection syncs FULL (2)."""
    with closing(sqlite3.connect(store.path)) as probe:
        assert probe.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # synchronous is a per-connection setting, so only the store's own connection can tell.
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2


def test_a_duplicate_seq_rolls_back_and_the_store_stays_usable(store):
    """A failing append changes nothing (not even finished_at) and leaves no open transaction."""
    game = start(store)
    store.append(game.id, 1, cast("Ann", 5), "phone:Ann", finished=False)
    with pytest.raises(sqlite3.IntegrityError):
        store.append(game.id, 1, cast("Ben", 6), "phone:Ben", finished=True)
    assert [e.action for e in store.entries(game.id)] == [cast("Ann", 5)]
    assert store.game(game.id).finished_at is None
    store.append(game.id, 2, cast("Ben", 6), "phone:Ben", finished=False)  # BEGIN works again
    store.refuse(game.id, {"kind": "button"}, "button:0", "R-1", "why")
    assert [e.seq for e in store.entries(game.id)] == [1, 2]


def test_an_entry_for_an_unknown_game_is_refused(store):
    """Foreign keys are enforced: the log cannot hold entries of a game that was never started."""
    with pytest.raises(sqlite3.IntegrityError):
        store.append(99, 1, cast("Ann", 1), "x", finished=False)
    assert store.entries(99) == []


def test_a_failed_start_game_does_not_abandon_the_current_game(store):
    """start_game is one transaction: if the new game cannot be stored, the old one stays open."""
    current = start(store)
    with pytest.raises(TypeError):
        start(store, options={"not json": object()})
    assert store.game(current.id) == current
    assert store.games() == [current]


# -- refusals --------------------------------------------------------------------------------------


def test_refusals_round_trip_oldest_first(store):
    """A refusal keeps its game, input, source, rule and reason; listing is oldest first."""
    game = start(store)
    store.refuse(game.id, {"kind": "tag", "uid": "04000001"}, "nfc:board", "TABLE-TAG-1", "one")
    store.refuse(None, {"kind": "button", "seat": 4}, "button:4", "TABLE-GAME-1", "two")
    everything = store.refusals()
    assert [
        (r["game_id"], r["input"], r["source"], r["rule"], r["reason"]) for r in everything
    ] == [
        (game.id, {"kind": "tag", "uid": "04000001"}, "nfc:board", "TABLE-TAG-1", "one"),
        (None, {"kind": "button", "seat": 4}, "button:4", "TABLE-GAME-1", "two"),
    ]
    assert all(r["at"] for r in everything)


def test_refusals_filter_by_game_and_keep_the_newest_within_the_limit(store):
    """``game_id`` selects one game's refusals; ``limit`` keeps the most recent ones."""
    a, b = start(store), start(store)
    for n in range(5):
        store.refuse(a.id, {"n": n}, "s", "R", "r")
    store.refuse(b.id, {"n": 99}, "s", "R", "r")
    assert [r["input"]["n"] for r in store.refusals(a.id)] == [0, 1, 2, 3, 4]
    assert [r["input"]["n"] for r in store.refusals(a.id, limit=2)] == [3, 4]
    assert [r["input"]["n"] for r in store.refusals(limit=2)] == [4, 99]


def test_threads_appending_refusals_do_not_corrupt_the_store(store):
    """Several threads writing at once: every row lands, each thread's rows in its own order."""
    threads_n, per_thread = 4, 20
    barrier = threading.Barrier(threads_n)
    errors: list[BaseException] = []

    def writer(t: int) -> None:
        try:
            barrier.wait(timeout=10)
            for n in range(per_thread):
                store.refuse(None, {"thread": t, "n": n}, f"thread:{t}", "R", "concurrent")
                store.refusals(limit=1)  # reads interleave with the writes
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(t,)) for t in range(threads_n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=30)
    assert not errors and not any(th.is_alive() for th in threads)
    rows = store.refusals(limit=1000)
    assert len(rows) == threads_n * per_thread
    for t in range(threads_n):
        assert [r["input"]["n"] for r in rows if r["input"]["thread"] == t] == list(
            range(per_thread)
        )
    with closing(sqlite3.connect(store.path)) as probe:
        assert probe.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


# -- tags and settings -----------------------------------------------------------------------------


def test_tags_are_put_replaced_and_forgotten(store):
    """put_tags adds or overwrites; replace=True drops every other tag; forget_tag reports."""
    store.put_tags({"04000001": (GAME, "stone 1"), "04000002": (GAME, "stone 2")})
    store.put_tags({"04000002": (GAME, "stone 3")})
    assert store.tags() == {"04000001": (GAME, "stone 1"), "04000002": (GAME, "stone 3")}
    store.put_tags({"04000009": (GAME, "stone 8")}, replace=True)
    assert store.tags() == {"04000009": (GAME, "stone 8")}
    assert store.forget_tag("04000009") is True
    assert store.forget_tag("04000009") is False
    assert store.tags() == {}


def test_settings_round_trip_and_overwrite(store, tmp_path):
    """An unknown key reads as None; set_setting stores and overwrites, and survives reopening."""
    assert store.setting("host_token") is None
    store.set_setting("host_token", "abc")
    store.set_setting("host_token", "def")
    assert store.setting("host_token") == "def"
    other = Store(db_file(tmp_path))
    try:
        assert other.setting("host_token") == "def"
    finally:
        other.close()
