"""The game's countdown (a part of :class:`~.runtime.Table`): a game may ask the table to act
when time is up (the rules' optional ``deadline(state)``: ``{"key", "seconds", "action"}``).

One countdown per table at most. After every change the table asks the game for its deadline:
a new key starts the countdown (``seconds`` from now), the same key keeps it running, none stops
it. The loop looks at it with its housekeeping (twice a second); when it is due and the game's
deadline still has the same key, its action goes through the one path of every action (logged,
durable, shown), as the table (source ``"table"``). A countdown that was overtaken (another key,
or none) does nothing. While the game is paused no countdown runs; it starts afresh on resuming.

Every snapshot carries the countdown alike for every viewer (``countdown``: the key, the seconds
and ``ends_at``, seconds since the epoch by the table's clock), taken from the game's deadline of
the state served: the rules make it from public facts only, and the secrets harness checks that
a state a viewer cannot tell apart has the same one.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("companion.table")

#: the source of the actions the table applies itself when a countdown ends
TABLE_SOURCE = "table"


@dataclass
class Running:
    """The countdown that runs: its game, its key, when it is due (the loop's clock) and when it
    ends by the wall clock (for the pages)."""

    game_id: int
    key: str
    seconds: int
    due: float
    ends_at: float
    fired: bool = False


class Countdown:
    """The game's countdown; mixed into :class:`~.runtime.Table`."""

    _running: Running | None = None
    wall_clock = staticmethod(time.time)

    def _deadline(self) -> dict[str, Any] | None:
        """The game's deadline now, if it is well formed (a bad one is logged, and ignored)."""
        history = self.history
        if history is None or self.record is None or self.paused:
            return None
        try:
            wanted = history.game.deadline(history.state)
        except Exception:  # a bug must not stop the table
            log.exception("the game's deadline failed")
            return None
        if wanted is None:
            return None
        key, seconds, action = wanted.get("key"), wanted.get("seconds"), wanted.get("action")
        if (
            not isinstance(key, str)
            or not isinstance(seconds, int)
            or isinstance(seconds, bool)
            or not 0 < seconds <= 3600
            or not isinstance(action, dict)
        ):
            log.error("ignored a malformed deadline %r", wanted)
            return None
        return wanted

    def _track_countdown(self) -> None:
        """After a change: start, keep or stop the countdown (under the table's lock)."""
        wanted = self._deadline()
        if wanted is None:
            self._running = None
            return
        running = self._running
        if running is not None and (running.game_id, running.key) == (
            self.record.id,
            wanted["key"],
        ):
            return
        now = self.clock()
        self._running = Running(
            self.record.id,
            wanted["key"],
            wanted["seconds"],
            now + wanted["seconds"],
            self.wall_clock() + wanted["seconds"],
        )

    def countdown_due(self) -> dict[str, Any] | None:
        """The loop's look (with its housekeeping): a countdown that is due and still the game's
        own applies its action once, as the table. Returns what it became, or None."""
        with self._lock:
            running = self._running
            if running is None or running.fired or self.clock() < running.due:
                return None
            running.fired = True
            wanted = self._deadline()
            if (
                wanted is None
                or self.record is None
                or (running.game_id, running.key) != (self.record.id, wanted["key"])
            ):
                return None  # overtaken: it does nothing
            action = dict(wanted["action"])
        return self._act(action, TABLE_SOURCE, {"kind": "countdown", "action": action})

    def countdown_shown(self) -> dict[str, Any] | None:
        """The countdown as every page shows it, from the game's deadline of the state served."""
        wanted = self._deadline()
        if wanted is None:
            return None
        running = self._running
        ends_at = None
        if running is not None and self.record is not None:
            if (running.game_id, running.key) == (self.record.id, wanted["key"]):
                ends_at = round(running.ends_at, 1)
        return {"key": wanted["key"], "seconds": wanted["seconds"], "ends_at": ends_at}
