"""No game is ever lost by accident (companion/table/kept_games.py): a running game is set aside,
not dropped, and only with the host's confirmation; a set-aside game resumes exactly; the game at
the table survives a restart; an old database keeps working."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing

import pytest

from companion.lights import Layout
from companion.table.runtime import Table
from companion.table.store import Store

PLAYERS = ["Ann", "Ben", "Cid"]


def open_table(path) -> Table:
    table = Table(Store(path), layout=Layout(seats=5))
    table.start()
    return table


def close(table: Table) -> None:
    table.close()
    table.store.close()


@pytest.fixture
def path(tmp_path):
    return tmp_path / "data" / "companion.db"


def play(table: Table, steps: int) -> None:
    """The players' first legal choice, or the awaited chance step, ``steps`` times."""
    for _ in range(steps):
        history = table.history
        legal = history.game.legal_actions(history.state)
        action = legal[0] if legal else history.game.sample(history.state)
        assert table.call("action", "host", action=action)["ok"]


def state_of(table: Table) -> str:
    return json.dumps(table.history.state, sort_keys=True)


#: what the table notes beside the game's own events (not in the log: not replayed)
NOTES = {"game_started", "paused", "resumed", "game_set_aside", "game_resumed"}


def events_of(table: Table) -> list:
    """The game's events, as replayed from its log, with their moments."""
    return [(e["at"], e["event"]) for e in table.events if e["event"]["type"] not in NOTES]


def dork_tower(table: Table, steps: int = 40) -> int:
    answer = table.call("new_game", "host", game="dorktower", players=PLAYERS, seed=4, confirm=True)
    assert answer["ok"], answer
    play(table, steps)
    return answer["game_id"]


def test_a_new_game_over_a_running_one_needs_confirmation_and_keeps_it(path):
    table = open_table(path)
    try:
        first = dork_tower(table)
        turn = table.history.state["turn"]
        assert turn >= 1
        before, games = state_of(table), len(table.store.games())
        answer = table.call("new_game", "host", game="abracadawhat", players=PLAYERS, seed=2)
        assert answer["ok"] is False and answer["rule"] == "TABLE-GAME-4"
        assert answer["reason"] == (
            f"A game of Dork Tower is running (turn {turn}). Set it aside and start a new one? "
            "It is kept: you can resume it."
        )
        assert answer["running"] == {
            "id": first,
            "game": "dorktower",
            "title": "Dork Tower",
            "progress": f"turn {turn}",
        }
        # nothing changed, and no phone hears of it (a quiet refusal: the host's page asks)
        assert table.record.id == first and state_of(table) == before
        assert len(table.store.games()) == games
        assert not any(r["rule"] == "TABLE-GAME-4" for r in table.refusals)
        assert table.refusal_log.quiet[-1]["rule"] == "TABLE-GAME-4"

        answer = table.call(
            "new_game", "host", game="abracadawhat", players=PLAYERS, seed=2, confirm=True
        )
        assert answer["ok"] and answer["set_aside"] == first
        kept = table.kept_games()
        assert kept["current"] == answer["game_id"]
        [listed] = kept["unfinished"]
        assert listed["id"] == first and listed["state"] == "set_aside"
        assert listed["title"] == "Dork Tower" and listed["players"] == PLAYERS
        assert listed["progress"] == f"turn {turn}" and listed["resumable"]
        assert kept["finished"] == []
        texts = [e["event"]["text"] for e in table.events]
        assert texts == [
            f"The game of Dork Tower was set aside (turn {turn}): the host can resume it.",
            "A game of Abracada...What? begins: Ann, Ben, Cid.",
        ]
    finally:
        close(table)


def test_a_set_aside_game_resumes_exactly(path):
    """The same state, events, refusals, seat tokens, join codes and pause as before."""
    table = open_table(path)
    try:
        first = dork_tower(table)
        refused = table.call("action", "phone:Ann", action={"type": "no such move"}, player="Ann")
        assert refused["ok"] is False
        assert table.call("pause", "host")["ok"]
        before = (state_of(table), events_of(table), [dict(r) for r in table.refusals])
        seats = (table.record.tokens, table.record.joins)
        assert table.call(
            "new_game", "host", game="abracadawhat", players=PLAYERS, seed=2, confirm=True
        )["ok"]
        assert not table.paused and list(table.refusals) == []
        assert table.viewer_for_token(seats[0]["Ann"]) is None
        assert table.kept_game_for_token(seats[0]["Ann"]).id == first

        answer = table.call("resume_game", "host", game_id=first)
        assert (
            answer["rule"] == "TABLE-GAME-4"
            and "Abracada...What? is running (round 1)" in (answer["reason"])
        )
        assert table.record.id != first
        answer = table.call("resume_game", "host", game_id=first, confirm=True)
        assert answer["ok"], answer
        assert table.record.id == first and table.paused
        assert state_of(table) == before[0]
        assert events_of(table) == before[1]
        assert table.events[-1]["event"]["type"] == "game_resumed"
        assert [dict(r) for r in table.refusals] == before[2]
        assert (table.record.tokens, table.record.joins) == seats
        assert table.viewer_for_token(seats[0]["Ann"]) == "Ann"
        kept = table.kept_games()
        assert [g["game"] for g in kept["unfinished"]] == ["abracadawhat"]
        assert table.call("resume", "host")["ok"]
        play(table, 3)  # and it plays on
    finally:
        close(table)


def test_resuming_what_is_not_set_aside_is_refused(path):
    table = open_table(path)
    try:
        first = dork_tower(table, steps=2)
        for game_id, rule in (
            (first, "TABLE-GAME-5"),  # it is at the table
            (99, "TABLE-GAME-5"),
            ("1", "TABLE-REQUEST-1"),
            (True, "TABLE-REQUEST-1"),
        ):
            answer = table.call("resume_game", "host", game_id=game_id, confirm=True)
            assert answer["ok"] is False and answer["rule"] == rule, answer
        assert table.record.id == first
    finally:
        close(table)


def test_the_game_at_the_table_survives_a_restart(path):
    table = open_table(path)
    first = dork_tower(table)
    table.call("new_game", "host", game="abracadawhat", players=PLAYERS, seed=2, confirm=True)
    table.call("resume_game", "host", game_id=first, confirm=True)
    before = (state_of(table), events_of(table))
    close(table)
    table = open_table(path)
    try:
        assert table.record.id == first and state_of(table) == before[0]
        assert events_of(table) == before[1]
        assert table.store.setting("current_game") == str(first)
    finally:
        close(table)


def test_ending_a_game_keeps_it_resumable(path):
    table = open_table(path)
    try:
        first = dork_tower(table, steps=5)
        before = state_of(table)
        assert table.call("end_game", "host")["ok"]
        assert table.record is None and table.store.setting("current_game") == ""
        [listed] = table.kept_games()["unfinished"]
        assert listed["state"] == "ended" and listed["state_text"] == "ended by the host"
        # no game runs: resuming needs no confirmation
        assert table.call("resume_game", "host", game_id=first)["ok"]
        assert state_of(table) == before
    finally:
        close(table)
    table = open_table(path)  # and it is still at the table after a restart
    try:
        assert table.record.id == first
    finally:
        close(table)


OLD_GAMES = """
CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, players TEXT NOT NULL,
    options TEXT NOT NULL, seed INTEGER NOT NULL, tokens TEXT NOT NULL, started_at TEXT NOT NULL,
    finished_at TEXT, abandoned INTEGER NOT NULL DEFAULT 0, joins TEXT, colours TEXT);
"""


def test_an_old_database_keeps_working(path):
    """A database from before kept games: its games (one set aside by the old "new game" as
    abandoned, one at the table) open; the latest is at the table, the abandoned one is listed
    as set aside and resumes exactly."""
    table = open_table(path)
    first = dork_tower(table)
    old_state = state_of(table)
    second = table.call(
        "new_game", "host", game="abracadawhat", players=PLAYERS, seed=2, confirm=True
    )["game_id"]
    close(table)
    with closing(sqlite3.connect(path)) as db:  # back to what the old release left
        db.execute("DELETE FROM settings WHERE key = 'current_game'")
        db.execute("UPDATE games SET progress = NULL, ended = 0, paused = 0")
        db.execute("PRAGMA user_version = 3")
        db.commit()
    table = open_table(path)
    try:
        assert table.record.id == second
        [listed] = table.kept_games()["unfinished"]
        assert listed["id"] == first and listed["state"] == "set_aside"
        assert listed["progress"] is None and listed["resumable"]
        assert table.call("resume_game", "host", game_id=first, confirm=True)["ok"]
        assert state_of(table) == old_state
    finally:
        close(table)


def test_an_old_database_whose_last_game_was_abandoned_has_no_game(path):
    path.parent.mkdir(parents=True)
    with closing(sqlite3.connect(path)) as db:
        db.executescript(OLD_GAMES)
        db.execute(
            "INSERT INTO games (id, game, players, options, seed, tokens, started_at, "
            "finished_at, abandoned) VALUES (1, 'abracadawhat', '[\"Ann\", \"Ben\"]', '{}', 1, "
            "'{}', 'then', 'later', 1)"
        )
        db.commit()
    table = open_table(path)
    try:
        assert table.record is None
        assert [g["id"] for g in table.kept_games()["unfinished"]] == [1]
        assert table.call("resume_game", "host", game_id=1)["ok"]
        assert table.record.id == 1 and table.history.state["players"] == ["Ann", "Ben"]
    finally:
        close(table)


def test_the_list_is_bounded(path):
    store = Store(path)
    try:
        for n in range(25):
            store.start_game("abracadawhat", ["Ann", "Ben"], {}, n, {})
        kept = store.kept_games(limit=20)
        assert len(kept["unfinished"]) == 20 and kept["unfinished"][0].id == 24
        assert store.current_game().id == 25
    finally:
        store.close()


def test_a_finished_game_the_host_ends_stays_finished(path):
    store = Store(path)
    try:
        game = store.start_game("abracadawhat", ["Ann", "Ben"], {}, 1, {})
        store.append(game.id, 1, {"type": "cast"}, "host", finished=True)
        store.end_game(game.id)
        assert store.game(game.id).finished and not store.game(game.id).ended
        assert store.current_game() is None
        kept = store.kept_games()
        assert kept["unfinished"] == [] and [g.id for g in kept["finished"]] == [game.id]
    finally:
        store.close()
