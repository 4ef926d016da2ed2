"""Every game ever set up at this table, as a play: who played what, when, for how long, and how
it ended, read from the store and its event log (the log is the truth: a play's winners and scores
are its rules' ``outcome`` of the replayed log)."""

from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from ..games import get_game
from ..rules import TABLE, Accepted, Action, Game, Refusal, SetupError, State
from ..rules.api import Outcome
from .history import UNDO, History
from .storage import StorageError
from .store import PLAY_SUMMARY, Entry, GameRecord

log = logging.getLogger("companion.plays")


@dataclass(frozen=True)
class Play:
    """One game set up at the table, as the Plays page, the statistics and the exports see it."""

    id: int  #: the store's game id
    game: str  #: the game's id (its plug-in's)
    started_at: str  #: ISO 8601, UTC, when it was set up
    #: when it finished (or was last set aside); None while it is at the table
    ended_at: str | None
    #: seconds from the first to the last accepted action (None before any action)
    duration: int | None
    players: list[str]  #: in seat order
    options: dict[str, Any]
    data_set: str | None  #: the data set's name, for a game that has data sets
    finished: bool  #: over by its rules (not set aside, not at the table)
    winners: list[str]  #: empty unless finished
    scores: dict[str, float | int | None]  #: each player's score by the rules' outcome
    start_player: str | None  #: who played first, where the rules say
    actions: int  #: accepted actions in effect (undone ones excluded)


@dataclass(frozen=True)
class Point:
    """Every player's score after one accepted action of a play (for its chart)."""

    action: int  #: 1 for the first accepted action
    at: str  #: ISO 8601, UTC, when the action was logged
    scores: dict[str, float | int | None]


#: plays a page of the Plays list shows (the list reads only the records; it replays a page)
PAGE_SIZE = 50
#: whole replays kept (with their checkpoints): the plays being stepped through or charted
REPLAYS_KEPT = 8
#: plays' summaries kept in memory (each play that has left the table keeps its summary in the
#: store too: a list after a restart reads them instead of replaying every log)
SUMMARIES_KEPT = 1024
#: a replay keeps the state after every this many actions, to step from; a longer play keeps
#: at most CHECKPOINTS_KEPT of them, further apart (a replay's memory stays bounded)
CHECKPOINT_EVERY = 32
CHECKPOINTS_KEPT = 32


@dataclass(frozen=True)
class Step:
    """The table's public view of a play after its first ``step`` actions in effect."""

    play: int
    step: int  #: 0: as set up; ``steps``: the end (or where it stands)
    steps: int  #: how many actions are in effect
    at: str | None  #: when the step's action was logged (None for the set-up)
    view: dict[str, Any] | None  #: ``game.view(state, TABLE)``; None if it cannot be replayed
    events: list[dict[str, Any]]  #: the step's action's events, as the table display saw them
    progress: Any  #: the rules' ``progress`` at that step (a translatable text) or None
    finished: bool  #: over by its rules at that step


class Replayed:
    """One play's log folded through :class:`History`: the actions in effect with their times,
    its outcome, and checkpoints to step from (a state every ``CHECKPOINT_EVERY`` actions, or
    further apart in a play so long that it would keep more than ``CHECKPOINTS_KEPT``)."""

    def __init__(self, record: GameRecord, entries: list[Entry]):
        self.record = record
        self.entries = len(entries)
        self.first_at = entries[0].at if entries else None
        self.last_at = entries[-1].at if entries else None
        self.game: Game | None = None
        self.problem: str | None = None
        self.actions: list[Action] = []
        self.times: list[str] = []
        self.checkpoints: dict[int, State] = {}
        self.outcome: Outcome | None = None
        self.start_player: str | None = None
        #: the actions between two checkpoints
        self.every = max(CHECKPOINT_EVERY, -(-len(entries) // CHECKPOINTS_KEPT))
        try:
            self.game = get_game(record.game)
            history = History(self.game, record.players, record.options, record.seed)
        except (SetupError, KeyError, ValueError) as exc:  # a game or a data set gone since
            self.problem = str(exc)
            log.warning("play %s (%s) cannot be replayed: %s", record.id, record.game, exc)
            return
        self.checkpoints[0] = history.state
        for entry in entries:
            result = history.submit(entry.action)
            if isinstance(result, Refusal):  # only if the rules changed since the entry
                log.warning("play %s entry %s refused: %s", record.id, entry.seq, result.reason)
                continue
            if entry.action.get("type") == UNDO:
                self.times.pop()
                self.checkpoints.pop(len(self.times) + 1, None)
            else:
                self.times.append(entry.at)
                if len(self.times) % self.every == 0:
                    self.checkpoints[len(self.times)] = history.state
        self.actions = history.actions
        self.outcome = self.game.outcome(history.state)
        self.start_player = self.game.start_player(history.state)

    @property
    def count(self) -> int:
        return len(self.actions)

    def states(self, start: int = 0):
        """``(k, state, events)`` after each action in effect from the ``start``-th on (the
        events of the ``k``-th action; none for the set-up, ``k = 0``), replayed from the
        nearest checkpoint before it."""
        assert self.game is not None
        base = max(k for k in self.checkpoints if k < start or k == 0)
        state, events = self.checkpoints[base], ()
        for k in range(base, self.count + 1):
            if k >= start:
                yield k, state, events
            if k == self.count:
                return
            result = self.game.apply(state, self.actions[k])
            if not isinstance(result, Accepted):  # the rules are pure: this cannot happen
                raise RuntimeError(f"replaying play {self.record.id} was refused at {k + 1}")
            state, events = result.state, result.events

    def summary(self, record: GameRecord) -> Play:
        """The play as it stands: ``record`` is the store's (read now: a game set aside or
        resumed changes it without a new entry)."""
        outcome = self.outcome
        scores: dict[str, float | int | None] = {p: None for p in record.players}
        if outcome is not None:
            scores |= {p: outcome.scores.get(p) for p in record.players}
        finished = outcome.finished if outcome is not None else record.finished
        return Play(
            id=record.id,
            game=record.game,
            started_at=record.started_at,
            ended_at=record.finished_at,
            duration=_seconds(self.first_at, self.last_at),
            players=list(record.players),
            options=dict(record.options),
            data_set=_data_set(record.options, self.checkpoints.get(0)),
            finished=finished,
            winners=list(outcome.winners) if outcome is not None and finished else [],
            scores=scores,
            start_player=self.start_player,
            actions=self.count,
        )


class Plays:
    """Every game set up at this table as a :class:`Play`, read from ``store``.

    Bounded: a play's summary is kept per (game id, entry count) for ``summaries_kept`` plays,
    its whole replay (to step through it, or chart it) for ``replays_kept``; a new entry makes
    a new key, so nothing kept is ever stale. Safe from any thread."""

    def __init__(
        self,
        store: Any,
        replays_kept: int = REPLAYS_KEPT,
        summaries_kept: int = SUMMARIES_KEPT,
    ):
        self.store = store
        self._replays: OrderedDict[tuple[int, int], Replayed] = OrderedDict()
        self._summaries: OrderedDict[tuple[int, int], Play] = OrderedDict()
        self._replays_kept, self._summaries_kept = replays_kept, summaries_kept
        self._lock = threading.Lock()
        self.replayed = 0  #: how many replays were made (the tests and the bench count them)

    # -- the list ----------------------------------------------------------------------------

    def records(
        self,
        game: str | None = None,
        player: str | None = None,
        among: list[GameRecord] | None = None,
    ) -> list[GameRecord]:
        """The plays' records, newest first, of ``game`` and with ``player`` if given (no
        replay: the list filters on what the store holds); ``among``: records already read."""
        every = reversed(self.store.games()) if among is None else among
        return [
            r
            for r in every
            if (game is None or r.game == game) and (player is None or player in r.players)
        ]

    def listing(
        self,
        game: str | None = None,
        player: str | None = None,
        page: int = 1,
        size: int = PAGE_SIZE,
        among: list[GameRecord] | None = None,
    ) -> tuple[list[Play], int]:
        """One page (from 1) of the plays, newest first, filtered; and how many match."""
        records = self.records(game, player, among)
        chosen = records[(page - 1) * size : page * size]
        return self._summaries_of(chosen), len(records)

    def all(self) -> list[Play]:
        """Every play, newest first (the exports and the statistics)."""
        return self._summaries_of(self.records())

    def play(self, play_id: int) -> Play:
        """One play (``KeyError`` when there is none)."""
        record = self._record(play_id)
        return self._summary(record, self.store.entry_counts([play_id]).get(play_id, 0))

    def series(self, play_id: int) -> list[Point]:
        """Every player's score after each action in effect of a play (for its chart)."""
        replayed = self.replay(play_id)
        if replayed.game is None:
            return []
        players = replayed.record.players
        points = []
        for k, state, _events in replayed.states(1):
            scores = replayed.game.outcome(state).scores
            points.append(Point(k, replayed.times[k - 1], {p: scores.get(p) for p in players}))
        return points

    def step(self, play_id: int, step: int) -> Step:
        """The table display's view of a play after ``step`` actions in effect (``KeyError``
        for no such play, ``IndexError`` for no such step)."""
        replayed = self.replay(play_id)
        if replayed.game is None:
            if step != 0:
                raise IndexError(step)
            return Step(play_id, 0, 0, None, None, [], None, False)
        if not 0 <= step <= replayed.count:
            raise IndexError(step)
        game = replayed.game
        _k, state, events = next(replayed.states(step))
        return Step(
            play=play_id,
            step=step,
            steps=replayed.count,
            at=replayed.times[step - 1] if step else None,
            view=game.view(state, TABLE),
            events=[game.view_event(e, TABLE) for e in events],
            progress=game.progress(state),
            finished=game.outcome(state).finished,
        )

    def _record(self, play_id: int) -> GameRecord:
        """The store's record of a play; ``KeyError`` for an id no play can have (SQLite's
        integers end at 2**63 - 1: a larger one is simply no play)."""
        if not 0 < play_id < 2**63:
            raise KeyError(play_id)
        return self.store.game(play_id)

    # -- the caches --------------------------------------------------------------------------

    def replay(self, play_id: int) -> Replayed:
        """A play's log replayed (kept for the most recent ``replays_kept`` asked);
        ``KeyError`` when there is no such play."""
        record = self._record(play_id)
        return self._replayed(record, self.store.entry_counts([play_id]).get(play_id, 0))

    def _replayed(self, record: GameRecord, count: int) -> Replayed:
        key = (record.id, count)
        with self._lock:
            found = self._replays.get(key)
            if found is not None:
                self._replays.move_to_end(key)
                return found
        replayed = Replayed(record, self.store.entries(record.id))
        key = (record.id, replayed.entries)  # an entry may have come meanwhile
        with self._lock:
            self.replayed += 1
            self._replays[key] = replayed
            while len(self._replays) > self._replays_kept:
                self._replays.popitem(last=False)
        return replayed

    def _summaries_of(self, records: list[GameRecord]) -> list[Play]:
        ids = [r.id for r in records]
        few = ids if len(ids) <= PAGE_SIZE else None  # a page: only its own rows are read
        counts = self.store.entry_counts(few)
        persisted: dict[int, str] | None = None

        def kept(play_id: int) -> str | None:
            nonlocal persisted
            if persisted is None:  # read once, and only when a summary is not in memory
                persisted = self.store.play_summaries(few)
            return persisted.get(play_id)

        return [self._summary(r, counts.get(r.id, 0), kept) for r in records]

    def _summary(
        self, record: GameRecord, count: int, kept: Callable[[int], str | None] | None = None
    ) -> Play:
        """A play's summary: kept in memory, else kept in the store (a play that has left the
        table), else replayed (and kept in both)."""
        key = (record.id, count, record.finished_at, record.abandoned)
        with self._lock:
            found = self._summaries.get(key)
            if found is not None:
                self._summaries.move_to_end(key)
                return found
        if kept is None:
            kept = lambda play_id: self.store.setting(f"{PLAY_SUMMARY}{play_id}")  # noqa: E731
        summary = _from_text(kept(record.id), key)
        if summary is None:
            with self._lock:
                replayed = self._replays.get((record.id, count))
            if replayed is None:  # listing: replayed for its summary only, not kept whole
                replayed = Replayed(record, self.store.entries(record.id))
                with self._lock:
                    self.replayed += 1
            summary = replayed.summary(record)
            if record.finished_at is not None and replayed.entries == count:
                self._persist(summary, key)
        with self._lock:
            self._summaries[key] = summary
            while len(self._summaries) > self._summaries_kept:
                self._summaries.popitem(last=False)
        return summary

    def _persist(self, summary: Play, key: tuple) -> None:
        """Keep the summary of a play that has left the table in the store: a table's first
        list after a restart then replays nothing. A storage that fails only loses the cache."""
        text = json.dumps({"key": list(key[1:]), "play": asdict(summary)}, default=str)
        try:
            self.store.keep_play_summary(summary.id, text)
        except StorageError as exc:
            log.warning("the summary of play %s was not kept: %s", summary.id, exc)


def _from_text(text: str | None, key: tuple) -> Play | None:
    """A summary kept in the store, if it was kept for this very ``key`` (the same entries, and
    the same leaving of the table)."""
    if text is None:
        return None
    try:
        kept = json.loads(text)
        if kept["key"] != list(key[1:]):
            return None
        return Play(**kept["play"])
    except (ValueError, TypeError, KeyError):  # a summary from another version: made again
        return None


def _seconds(first: str | None, last: str | None) -> int | None:
    if first is None or last is None:
        return None
    return max(
        0, round((datetime.fromisoformat(last) - datetime.fromisoformat(first)).total_seconds())
    )


def _data_set(options: dict[str, Any], state: State | None) -> str | None:
    """The play's data set: the one its state names (the rules resolved it), else its option."""
    if isinstance(state, dict) and isinstance(state.get("data_set"), str):
        return state["data_set"]
    named = options.get("data_set")
    return named if isinstance(named, str) else None
