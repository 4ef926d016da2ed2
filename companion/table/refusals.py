"""The refusals the table keeps: shown on the pages, written to the store, and bounded.

Refusals from one source for one rule within ``WINDOW`` seconds are **one** entry with a count:
a phone tapping a refused button ten times, a dice reader sending a burst of garbage or a script
hammering a join code make one row in the store and one line on the pages ("×10"), not ten. The
first refusal of a window is written and shown at once (the person is told, the LEDs blink); the
rest only raise the count, which is written when the window closes.

A refusal is *public* when it is about the game at this table (a move, a tap, a roll): the
pages show it, while that game is at the table (:meth:`RefusalLog.show_game`: a new game starts
with none, and a restarted table shows its game's again, in each phone's language). Refusals of anonymous web requests (a wrong join code, a missing CSRF token, a
wrong PIN) are written and counted, but never pushed to the pages or the LEDs: an unknown
client must not be able to blink the table or wake every phone. The host's status page lists
them (:attr:`RefusalLog.quiet`).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .storage import StorageError
from .store import Store, now

KEEP = 20  #: public refusals the pages show
KEEP_QUIET = 20  #: anonymous web refusals the status page shows
WINDOW = 1.0  #: seconds in which refusals of one source and rule are one entry
MAX_OPEN = 256  #: windows open at once (sources x rules); past it the oldest is closed
ENTRY = ("rule", "reason", "source", "at", "seat", "count")  #: what the pages show of a refusal


@dataclass
class _Window:
    entry: dict[str, Any]  #: the entry the pages show (its "count" grows)
    row: int | None  #: the store's row, None if it could not be written
    written: int  #: the count the row holds
    until: float  #: when the window closes


class RefusalLog:
    """The table's refusals: ``shown`` for the pages, ``quiet`` for the host, all in the store.

    Thread-safe: the table loop and the web threads (anonymous refusals) add to it."""

    def __init__(
        self, store: Store, clock: Callable[[], float], *, keep: int = KEEP, window: float = WINDOW
    ):
        self._store = store
        self._clock = clock
        self._window = window
        self._lock = threading.Lock()
        self._open: dict[tuple[str, str, bool], _Window] = {}
        self._pending: list[tuple[int, int]] = []  # (row, count) to write
        self.shown: deque[dict[str, Any]] = deque(maxlen=keep)
        self.quiet: deque[dict[str, Any]] = deque(maxlen=KEEP_QUIET)
        #: the count of a shown entry changed since :meth:`take_changed` last said so
        self._changed = False
        #: the last storage problem met while writing a refusal (the table shows it elsewhere)
        self.storage_problem: StorageError | None = None

    def add(
        self,
        game_id: int | None,
        raw: dict[str, Any],
        source: str,
        rule: str,
        reason: str,
        seat: int | None = None,
        *,
        public: bool = True,
        count: int = 1,
    ) -> tuple[dict[str, Any], bool]:
        """Record ``count`` refusals (several when they were counted before, like a device's
        noise); the entry they count in, and whether it is new (then show it, blink the LEDs)
        rather than added to an open window."""
        at_clock = self._clock()
        key = (source, rule, public)
        with self._lock:
            window = self._open.get(key)
            if window is not None and at_clock < window.until:
                window.entry["count"] += count
                if public:
                    self._changed = True
                return window.entry, False
            if window is not None:
                self._close(key)
        entry = {
            "rule": rule,
            "reason": reason,
            "source": source,
            "at": now(),
            "seat": seat,
            "count": count,
        }
        row = self._write(game_id, raw, source, rule, reason, seat, public, entry["at"])
        with self._lock:
            if len(self._open) >= MAX_OPEN:
                self._close(min(self._open, key=lambda k: self._open[k].until))
            self._open[key] = _Window(entry, row, 1, at_clock + self._window)
            (self.shown if public else self.quiet).append(entry)
        return entry, True

    def _write(
        self,
        game_id: int | None,
        raw: dict[str, Any],
        source: str,
        rule: str,
        reason: str,
        seat: int | None,
        public: bool,
        at: str,
    ) -> int | None:
        try:
            return self._store.refuse(
                game_id, raw, source, rule, reason, seat=seat, public=public, at=at
            )
        except StorageError as exc:  # a refusal that cannot be written is still shown
            self.storage_problem = exc
            return None

    def _close(self, key: tuple[str, str, bool]) -> None:
        """Forget an open window (under the lock); its count is written by :meth:`flush`."""
        window = self._open.pop(key)
        if window.row is not None and window.entry["count"] != window.written:
            self._pending.append((window.row, window.entry["count"]))

    def flush(self) -> None:
        """Close the windows whose time is up and write their counts (the table loop calls it
        every half second or so)."""
        at_clock = self._clock()
        with self._lock:
            for key in [k for k, w in self._open.items() if w.until <= at_clock]:
                self._close(key)
            pending, self._pending = self._pending, []
        for row, count in pending:
            try:
                self._store.count_refusal(row, count)
            except StorageError as exc:
                self.storage_problem = exc

    def take_changed(self) -> bool:
        """Whether a shown entry's count grew since the last call (then the pages are told)."""
        with self._lock:
            changed, self._changed = self._changed, False
            return changed

    def clear(self) -> None:
        """Forget what the pages show (the store keeps every row)."""
        with self._lock:
            self.shown.clear()

    def show_game(self, game_id: int | None) -> None:
        """Show the refusals of the game ``game_id`` (None: of the time no game was played),
        read from the store: a new game shows none of the last one's, a restarted table the
        ones its game had. A store that cannot be read shows none (the table says why)."""
        try:
            kept = self._store.shown_refusals(game_id, self.shown.maxlen or KEEP)
        except StorageError as exc:
            self.storage_problem, kept = exc, []
        with self._lock:
            self.shown.clear()
            self.shown.extend({key: row[key] for key in ENTRY} for row in kept)
