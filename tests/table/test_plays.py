"""The plays loader (``companion/table/plays.py``): every game in the store replayed through the
table's History into a Play (winners and scores by the rules' outcome, duration from the log's
moments, data set, start player), its score series, its steps' public views, and its caches."""

from __future__ import annotations

import json

import pytest
from plays_support import FINISHED, TESTS, Clock, log_lines, record_log

from companion.games import get_game
from companion.rules import TABLE
from companion.table.plays import Plays, Point
from companion.table.store import Store

EXPECTED = {  # what each finished recorded play comes to (read from its log by hand once)
    "abracadawhat": (["P1"], {"P0": 5, "P1": 8, "P2": 3}, "P0", 214),
    "dorktower": (["Ann"], {"Ann": 7, "Bo": 0}, "Ann", 9),
    "triwizard": (["Cid"], {"Ann": None, "Bob": None, "Cid": None}, "Ann", 10),
}


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "table.db")
    yield s
    s.close()


@pytest.mark.parametrize("game_id", sorted(FINISHED))
def test_a_finished_play_has_its_rules_outcome(store, monkeypatch, game_id):
    record = record_log(store, log_lines(FINISHED[game_id]), monkeypatch, Clock(step=90))
    play = Plays(store).play(record.id)
    winners, scores, start, actions = EXPECTED[game_id]
    assert play.finished and play.winners == winners and play.scores == scores
    assert play.start_player == start and play.actions == actions
    assert play.game == game_id and play.players == list(scores)
    # first to last entry, 90 s apart; the set-up reads the clock first
    assert play.duration == (actions - 1) * 90
    assert play.started_at == "2026-03-14T19:00:00.000+00:00"
    assert play.ended_at == record.finished_at is not None
    assert play.data_set == {"dorktower": "example", "triwizard": "corridor-k"}.get(game_id)


@pytest.mark.parametrize("game_id", sorted(FINISHED))
def test_the_series_is_the_score_after_each_action(store, monkeypatch, game_id):
    record = record_log(store, log_lines(FINISHED[game_id]), monkeypatch, Clock())
    plays = Plays(store)
    play, series = plays.play(record.id), plays.series(record.id)
    assert [p.action for p in series] == list(range(1, play.actions + 1))
    assert series[-1].scores == play.scores
    entries = store.entries(record.id)
    assert [p.at for p in series] == [e.at for e in entries]  # no undo in these logs
    assert all(isinstance(p, Point) and set(p.scores) == set(play.players) for p in series)


def test_the_abracada_series_climbs_as_the_rounds_are_scored(store, monkeypatch):
    record = record_log(store, log_lines(FINISHED["abracadawhat"]), monkeypatch, Clock())
    series = Plays(store).series(record.id)
    assert series[0].scores == {"P0": 0, "P1": 0, "P2": 0}
    totals = [sum(p.scores.values()) for p in series]
    assert totals == sorted(totals) and totals[-1] == 16  # scores only ever grow in this play
    firsts = {
        name: next(p.action for p in series if p.scores[name] > 0) for name in series[0].scores
    }
    assert min(firsts.values()) > 1  # nobody scores before the first round ends


def test_undone_actions_are_not_in_effect(store, monkeypatch):
    lines = log_lines(TESTS / "games/triwizard/replays/game-0.jsonl")
    undos = sum(1 for line in lines[1:] if json.loads(line).get("type") == "undo")
    assert undos == 2
    record = record_log(store, lines, monkeypatch, Clock(step=10))
    entries = store.entries(record.id)
    plays = Plays(store)
    play, series = plays.play(record.id), plays.series(record.id)
    assert play.actions == len(entries) - 2 * undos  # each undo withdraws one action
    assert len(series) == play.actions
    assert play.duration == (len(entries) - 1) * 10  # the undo entries count for the time
    undone_at = {e.at for e in entries if e.action.get("type") == "undo"}
    assert not undone_at & {p.at for p in series}


def test_unfinished_and_set_aside_plays(store, monkeypatch):
    lines = log_lines(FINISHED["abracadawhat"])
    clock = Clock()
    first = record_log(store, lines[:30], monkeypatch, clock)
    second = record_log(store, lines[:5], monkeypatch, clock)  # sets the first aside
    plays = Plays(store)
    aside, current = plays.play(first.id), plays.play(second.id)
    assert not aside.finished and aside.winners == [] and aside.actions == 29
    assert aside.ended_at == store.game(first.id).finished_at  # when it was set aside
    assert aside.ended_at == current.started_at  # set aside as the other one started
    assert not current.finished and current.ended_at is None and current.actions == 4
    assert [p.id for p in plays.all()] == [second.id, first.id]  # newest first


def test_a_play_without_an_action_and_one_of_a_game_gone(store, monkeypatch):
    monkeypatch.setattr("companion.table.store.now", Clock())
    fresh = store.start_game("abracadawhat", ["Ann", "Bo"], {}, 1, {})
    gone = store.start_game("nosuchgame", ["Ann", "Bo"], {}, 1, {})
    plays = Plays(store)
    empty = plays.play(fresh.id)
    assert empty.duration is None and empty.actions == 0 and empty.scores == {"Ann": 0, "Bo": 0}
    lost = plays.play(gone.id)
    assert lost.winners == [] and lost.scores == {"Ann": None, "Bo": None}
    assert lost.start_player is None and plays.series(gone.id) == []
    assert plays.step(gone.id, 0).view is None
    with pytest.raises(IndexError):
        plays.step(gone.id, 1)


@pytest.mark.parametrize("game_id", sorted(FINISHED))
def test_each_step_is_the_table_displays_view_of_that_state(store, monkeypatch, game_id):
    lines = log_lines(FINISHED[game_id])
    record = record_log(store, lines, monkeypatch, Clock())
    game = get_game(game_id)
    plays = Plays(store)
    replayed = plays.replay(record.id)
    for k, state, _events in replayed.states(0):
        step = plays.step(record.id, k)
        assert step.view == game.view(state, TABLE) and step.step == k
        assert step.steps == replayed.count and step.finished == game.outcome(state).finished
    last = plays.step(record.id, replayed.count)
    assert last.finished and last.view["winners"] == EXPECTED[game_id][0]
    with pytest.raises(IndexError):
        plays.step(record.id, replayed.count + 1)
    with pytest.raises(IndexError):
        plays.step(record.id, -1)
    with pytest.raises(KeyError):
        plays.step(record.id + 100, 0)


def test_a_long_play_steps_from_its_checkpoints(store, monkeypatch):
    record = record_log(store, log_lines(FINISHED["abracadawhat"]), monkeypatch, Clock())
    plays = Plays(store)
    replayed = plays.replay(record.id)
    assert sorted(replayed.checkpoints) == [0, 32, 64, 96, 128, 160, 192]
    game = get_game("abracadawhat")
    walked = {k: (s, e) for k, s, e in replayed.states(0)}
    for k in (0, 1, 31, 32, 33, 64, 150, 214):
        step = plays.step(record.id, k)
        state, events = walked[k]
        assert step.view == game.view(state, TABLE)
        assert step.events == [game.view_event(e, TABLE) for e in events]
        assert (k == 0) == (step.events == [])  # every action of this play says something


def test_a_very_long_play_keeps_few_checkpoints(store, monkeypatch):
    monkeypatch.setattr("companion.table.plays.CHECKPOINTS_KEPT", 4)
    record = record_log(store, log_lines(FINISHED["abracadawhat"]), monkeypatch, Clock())
    replayed = Plays(store).replay(record.id)
    assert replayed.every == 54 and sorted(replayed.checkpoints) == [0, 54, 108, 162]
    game = get_game("abracadawhat")
    walked = {k: s for k, s, _e in replayed.states(0)}
    assert Plays(store).step(record.id, 200).view == game.view(walked[200], TABLE)


def test_replays_are_kept_per_entry_count_and_bounded(store, monkeypatch):
    lines = log_lines(FINISHED["abracadawhat"])
    clock = Clock()
    ids = [record_log(store, lines[:n], monkeypatch, clock).id for n in (10, 20, 30)]
    plays = Plays(store, replays_kept=2, summaries_kept=2)
    assert len(plays.all()) == 3 and plays.replayed == 3
    # the two set aside keep their summaries in the store; the one at the table does not
    assert sorted(store.play_summaries()) == ids[:2]
    plays.all()
    assert plays.replayed == 4  # two kept in memory, read in turn: only the third is replayed
    again = Plays(store, replays_kept=2)  # after a restart
    again.all()
    again.all()
    again.listing(game="abracadawhat", player="P1", page=1, size=2)
    assert again.replayed == 1  # the one at the table, once
    store.append(ids[-1], 30, json.loads(lines[30]), "test", False)  # a new entry: replayed anew
    assert again.play(ids[-1]).actions == 30 and again.replayed == 2
    for play_id in ids:
        again.series(play_id)
    assert len(again._replays) == 2  # the most recent two whole replays only


def test_a_kept_summary_is_made_again_when_its_play_changes(store, monkeypatch):
    lines = log_lines(FINISHED["abracadawhat"])
    clock = Clock()
    first = record_log(store, lines[:10], monkeypatch, clock)
    record_log(store, lines[:5], monkeypatch, clock)  # sets the first aside
    assert Plays(store).play(first.id).actions == 9
    kept = json.loads(store.play_summaries()[first.id])
    assert kept["key"] == [9, store.game(first.id).finished_at, True]
    store.resume_game(first.id, finished_at=None)  # at the table again, and one more action
    store.append(first.id, 10, json.loads(lines[10]), "test", False)
    fresh = Plays(store)
    play = fresh.play(first.id)
    assert play.actions == 10 and play.ended_at is None and fresh.replayed == 1
    store.keep_play_summary(first.id, "not json")  # damaged: made again, never a failure
    assert Plays(store).play(first.id).actions == 10


def test_the_list_filters_by_game_and_player_and_pages(store, monkeypatch):
    clock = Clock()
    a = record_log(store, log_lines(FINISHED["abracadawhat"])[:5], monkeypatch, clock)
    d = record_log(store, log_lines(FINISHED["dorktower"]), monkeypatch, clock)
    t = record_log(store, log_lines(FINISHED["triwizard"]), monkeypatch, clock)
    plays = Plays(store)
    assert [p.id for p in plays.listing()[0]] == [t.id, d.id, a.id]
    assert [p.id for p in plays.listing(game="dorktower")[0]] == [d.id]
    assert [p.id for p in plays.listing(player="Ann")[0]] == [t.id, d.id]
    assert [p.id for p in plays.listing(player="Ann", game="triwizard")[0]] == [t.id]
    assert plays.listing(player="Nobody") == ([], 0)
    page, total = plays.listing(page=2, size=2)
    assert [p.id for p in page] == [a.id] and total == 3
