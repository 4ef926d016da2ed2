"""Who wins what: the table's statistics, counted from its plays (:class:`~.plays.Play`).

Pure: plays in, numbers out (no store, no clock). What is counted, and how
(``docs/statistics.md``):

* a player is a name as it was typed at the set-up (the same name at two plays is the same
  player);
* **plays** counts every play listed, finished or not; **finished** only the plays over by their
  rules. A play still at the table, or set aside, counts in ``plays`` and nowhere else: not in
  wins, win rates, scores or durations (its outcome is not known yet);
* a **win** is a finished play that names the player among its winners; a tie (several winners)
  is a win for each of them. **Win rate** is wins / finished plays (None before any);
* **average** and **best score** are over the finished plays' numeric scores (a score the rules
  leave empty is skipped); best is the highest (every registered game's scores count up);
* **average duration** is over the finished plays whose duration is known, in seconds.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .plays import Play


@dataclass(frozen=True)
class Tally:
    """The numbers of one player, one game, or one player at one game."""

    plays: int = 0  #: plays listed, finished or not
    finished: int = 0  #: of them, over by their rules
    wins: int = 0  #: finished plays won (a tie is a win for each winner)
    ties: int = 0  #: of the wins (or, for a game, of its finished plays): shared with others
    scored: int = 0  #: numeric scores counted in the average
    average_score: float | None = None
    best_score: float | int | None = None
    timed: int = 0  #: finished plays with a known duration
    average_duration: float | None = None  #: seconds

    @property
    def win_rate(self) -> float | None:
        """Wins per finished play, 0 to 1; None before a finished play."""
        return self.wins / self.finished if self.finished else None


@dataclass(frozen=True)
class GameTally:
    """One game's numbers: its tally (``wins`` counts finished plays with a winner) and who
    reached its best score."""

    tally: Tally
    best_by: tuple[str, ...] = ()  #: the players who reached the best score, in name order
    no_winner: int = 0  #: finished plays without any winner


@dataclass(frozen=True)
class Statistics:
    plays: int
    finished: int
    players: dict[str, Tally]  #: by player, ranked (see :func:`rank`)
    games: dict[str, GameTally]  #: by game id, most played first
    #: player -> game -> tally, players as in ``players``, games as in ``games``
    player_games: dict[str, dict[str, Tally]] = field(default_factory=dict)


class _Count:
    """A tally being counted."""

    def __init__(self) -> None:
        self.plays = self.finished = self.wins = self.ties = 0
        self.scores: list[float | int] = []
        self.durations: list[int] = []

    def add(self, play: Play, scores: list[float | int], won: bool) -> None:
        self.plays += 1
        if not play.finished:
            return
        self.finished += 1
        if won:
            self.wins += 1
            self.ties += len(play.winners) > 1
        self.scores.extend(scores)
        if play.duration is not None and play.duration >= 0:
            self.durations.append(play.duration)

    def tally(self) -> Tally:
        return Tally(
            plays=self.plays,
            finished=self.finished,
            wins=self.wins,
            ties=self.ties,
            scored=len(self.scores),
            average_score=_mean(self.scores),
            best_score=max(self.scores) if self.scores else None,
            timed=len(self.durations),
            average_duration=_mean(self.durations),
        )


def score_of(play: Play, player: str) -> float | int | None:
    """``player``'s score at ``play``, if the rules gave a number (booleans are not scores)."""
    score = play.scores.get(player)
    if isinstance(score, bool) or not isinstance(score, int | float) or score != score:
        return None  # None, text, NaN: not a score
    return score


def statistics(plays: Iterable[Play]) -> Statistics:
    """Every number of the Statistics page, from ``plays`` (any order)."""
    listed = list(plays)
    players: dict[str, _Count] = {}
    games: dict[str, _Count] = {}
    no_winner: dict[str, int] = {}
    bests: dict[str, tuple[float | int, set[str]]] = {}
    pairs: dict[tuple[str, str], _Count] = {}
    for play in listed:
        seated = list(dict.fromkeys(play.players))  # a name seated twice counts once
        winners = set(play.winners) if play.finished else set()
        every_score = []
        for player in seated:
            score = score_of(play, player)
            own = [] if score is None else [score]
            every_score += own
            players.setdefault(player, _Count()).add(play, own, player in winners)
            pairs.setdefault((player, play.game), _Count()).add(play, own, player in winners)
            if play.finished and score is not None:
                best, who = bests.get(play.game, (score, set()))
                if score > best:
                    best, who = score, set()
                if score == best:
                    who.add(player)
                bests[play.game] = (best, who)
        game = games.setdefault(play.game, _Count())
        game.add(play, every_score, bool(winners))
        if play.finished and not winners:
            no_winner[play.game] = no_winner.get(play.game, 0) + 1
    ranked = rank({name: count.tally() for name, count in players.items()})
    by_game = {game: count.tally() for game, count in games.items()}
    order = sorted(by_game, key=lambda game: (-by_game[game].plays, game))
    return Statistics(
        plays=len(listed),
        finished=sum(play.finished for play in listed),
        players=ranked,
        games={
            game: GameTally(
                by_game[game],
                tuple(sorted(bests[game][1], key=_name_key)) if game in bests else (),
                no_winner.get(game, 0),
            )
            for game in order
        },
        player_games={
            player: {game: pairs[player, game].tally() for game in order if (player, game) in pairs}
            for player in ranked
        },
    )


def rank(tallies: dict[str, Tally]) -> dict[str, Tally]:
    """Players ranked: most wins first, then the better win rate, then the more plays, then by
    name (case aside), so the order never depends on the order of the plays."""

    def key(name: str) -> tuple:
        tally = tallies[name]
        rate = tally.win_rate if tally.win_rate is not None else -1.0
        return (-tally.wins, -rate, -tally.plays, _name_key(name))

    return {name: tallies[name] for name in sorted(tallies, key=key)}


def _name_key(name: str) -> tuple[str, str]:
    return (name.casefold(), name)


def _mean(values: list[float | int] | list[int]) -> float | None:
    return sum(values) / len(values) if values else None
