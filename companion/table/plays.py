"""Every game ever set up at this table, as a play: who played what, when, for how long, and how
it ended, read from the store and its event log (the log is the truth: a play's winners and scores
are its rules' ``outcome`` of the replayed log)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Play:
    """One game set up at the table, as the Plays page, the statistics and the exports see it."""

    id: int  #: the store's game id
    game: str  #: the game's id ("dorktower")
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
