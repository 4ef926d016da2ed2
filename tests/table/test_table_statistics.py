"""The statistics (companion.table.statistics) on hand-made plays: wins, ties, win rates, scores,
durations, unfinished plays, and nothing at all."""

from __future__ import annotations

from typing import Any

import pytest

from companion.table.plays import Play
from companion.table.statistics import Tally, score_of, statistics


def play(
    id: int,
    game: str,
    players: list[str],
    *,
    winners: tuple[str, ...] | list[str] = (),
    scores: dict[str, Any] | None = None,
    duration: int | None = 600,
    finished: bool = True,
) -> Play:
    return Play(
        id=id,
        game=game,
        started_at=f"2026-11-{id:02d}T20:00:00Z",
        ended_at=f"2026-11-{id:02d}T21:00:00Z" if finished else None,
        duration=duration,
        players=players,
        options={},
        data_set=None,
        finished=finished,
        winners=list(winners) if finished else [],
        scores=scores or {},
        start_player=players[0],
        actions=12,
    )


EVENING = [
    play(1, "abracadawhat", ["Ann", "Ben", "Cy"], winners=["Ann"], scores={"Ann": 8, "Ben": 3, "Cy": 5}, duration=900),
    play(2, "abracadawhat", ["Ann", "Ben"], winners=["Ben"], scores={"Ann": 2, "Ben": 8}, duration=1500),
    play(3, "dorktower", ["Ann", "Ben", "Cy"], winners=["Ann", "Cy"], scores={"Ann": 7, "Ben": 4, "Cy": 7}, duration=3600),
    play(4, "dorktower", ["Ben", "Cy"], scores={"Ben": 1, "Cy": 0}, duration=120, finished=False),
]  # fmt: skip


def test_players_plays_wins_and_rates():
    stats = statistics(EVENING)
    assert (stats.plays, stats.finished) == (4, 3)
    ann, ben, cy = stats.players["Ann"], stats.players["Ben"], stats.players["Cy"]
    assert (ann.plays, ann.finished, ann.wins, ann.ties) == (3, 3, 2, 1)
    assert ann.win_rate == pytest.approx(2 / 3)
    # Ben sat at the unfinished play 4: listed, but not in his win rate
    assert (ben.plays, ben.finished, ben.wins, ben.ties) == (4, 3, 1, 0)
    assert ben.win_rate == pytest.approx(1 / 3)
    # the tie of play 3 is a win for Cy too
    assert (cy.plays, cy.finished, cy.wins, cy.ties) == (3, 2, 1, 1)
    assert cy.win_rate == pytest.approx(0.5)
    # ranked: most wins, then win rate (Ann 2; Cy 1 at 50 %; Ben 1 at 33 %)
    assert list(stats.players) == ["Ann", "Cy", "Ben"]


def test_scores_and_durations_count_finished_plays_only():
    stats = statistics(EVENING)
    ben = stats.players["Ben"]
    assert ben.scored == 3 and ben.average_score == pytest.approx((3 + 8 + 4) / 3)
    assert ben.best_score == 8
    assert ben.timed == 3 and ben.average_duration == pytest.approx((900 + 1500 + 3600) / 3)
    cy = stats.players["Cy"]
    assert cy.average_score == pytest.approx(6.0) and cy.best_score == 7
    assert cy.average_duration == pytest.approx((900 + 3600) / 2)


def test_games():
    stats = statistics(EVENING)
    assert list(stats.games) == ["abracadawhat", "dorktower"]  # two each: by id
    abr = stats.games["abracadawhat"]
    assert (abr.tally.plays, abr.tally.finished, abr.tally.wins, abr.tally.ties) == (2, 2, 2, 0)
    assert abr.tally.average_score == pytest.approx((8 + 3 + 5 + 2 + 8) / 5)
    assert abr.tally.best_score == 8 and abr.best_by == ("Ann", "Ben")
    assert abr.tally.average_duration == pytest.approx(1200.0)
    dork = stats.games["dorktower"]
    assert (dork.tally.plays, dork.tally.finished, dork.tally.ties, dork.no_winner) == (2, 1, 1, 0)
    assert dork.tally.best_score == 7 and dork.best_by == ("Ann", "Cy")
    assert dork.tally.average_duration == 3600.0  # the unfinished play's 120 s is not counted


def test_player_per_game():
    stats = statistics(EVENING)
    ben = stats.player_games["Ben"]
    assert list(ben) == ["abracadawhat", "dorktower"]
    assert (ben["abracadawhat"].plays, ben["abracadawhat"].wins) == (2, 1)
    assert ben["abracadawhat"].win_rate == 0.5
    assert (ben["dorktower"].plays, ben["dorktower"].finished, ben["dorktower"].wins) == (2, 1, 0)
    assert ben["dorktower"].win_rate == 0.0
    assert list(stats.player_games["Cy"]) == ["abracadawhat", "dorktower"]
    assert stats.player_games["Cy"]["dorktower"].wins == 1


def test_nothing_played():
    stats = statistics([])
    assert (stats.plays, stats.finished, stats.players, stats.games) == (0, 0, {}, {})
    assert Tally().win_rate is None and Tally().average_score is None


def test_only_unfinished_plays():
    stats = statistics([play(1, "dorktower", ["Ann"], scores={"Ann": 9}, finished=False)])
    ann = stats.players["Ann"]
    assert (ann.plays, ann.finished, ann.wins, ann.win_rate) == (1, 0, 0, None)
    assert (ann.average_score, ann.best_score, ann.average_duration) == (None, None, None)


def test_scores_that_are_not_numbers_and_unknown_durations_are_skipped():
    odd = play(
        1,
        "triwizard",
        ["Ann", "Ben", "Cy", "Di"],
        scores={"Ann": None, "Ben": True, "Cy": float("nan"), "Di": 2.5},
        duration=None,
    )
    stats = statistics([odd])
    assert [score_of(odd, p) for p in ("Ann", "Ben", "Cy", "Di", "Ed")] == [None] * 3 + [2.5, None]
    assert stats.players["Ann"].scored == 0 and stats.players["Di"].average_score == 2.5
    assert stats.games["triwizard"].tally.timed == 0
    assert stats.games["triwizard"].tally.average_duration is None
    assert stats.games["triwizard"].no_winner == 1  # finished with no winner


def test_order_of_the_plays_does_not_matter():
    assert statistics(EVENING) == statistics(list(reversed(EVENING)))


def test_a_name_seated_twice_counts_once():
    twice = play(1, "abracadawhat", ["Ann", "Ann"], winners=["Ann"], scores={"Ann": 4})
    assert statistics([twice]).players["Ann"].plays == 1
