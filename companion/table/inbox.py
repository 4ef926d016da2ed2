"""The table's input queue: one queue for every input, fair between sources, bounded per source.

Every device and every web client is a *source* (``"dice"``, ``"nfc:board"``, ``"buttons"``,
``"phone:Elena"``, ``"host"``...). Each source has its own short queue, and the table loop takes
one input from each source in turn (round robin): a device that floods the table fills only its
own queue, and a phone's request waits behind at most one input of each other source, never
behind the flood.

A full queue refuses what comes next (``put`` answers False) and the caller decides what that
means: a device's event is dropped and counted as noise; a web request is answered at once that
the table is busy, and is never applied.

A *barrier* (``put(..., barrier=True)``; the table's ``sync``) is handled only once everything
queued before it, from every source, has been handled.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from typing import Any

#: How many inputs one source may have waiting, by kind of source.
DEVICE_BACKLOG = 64
REQUEST_BACKLOG = 32
#: At most this many sources at once (every device, every phone, the host, the web's anonymous
#: requests: a table has a few dozen); past it a new source's input is refused.
MAX_SOURCES = 256
MAX_BARRIERS = 256


class Inbox:
    """Per-source queues served round robin; ``get`` blocks until an input or ``close``."""

    def __init__(self, *, max_sources: int = MAX_SOURCES):
        self._queues: OrderedDict[str, deque[tuple[int, Any]]] = OrderedDict()
        self._barriers: deque[tuple[int, Any]] = deque()
        self._count = 0  # inputs ever queued: each one's place in the order of arrival
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)
        self._closed = False
        self._max_sources = max_sources
        #: inputs refused because their source's queue was full, per source
        self.refused: dict[str, int] = {}

    def put(
        self, source: str, item: Any, limit: int = REQUEST_BACKLOG, barrier: bool = False
    ) -> bool:
        """Queue ``item`` from ``source``; False (and nothing queued) when that source already has
        ``limit`` inputs waiting, too many sources wait, or the inbox is closed. A barrier waits
        for everything queued before it."""
        with self._lock:
            if self._closed:
                return False
            self._count += 1
            if barrier:
                if len(self._barriers) >= MAX_BARRIERS:
                    return self._refuse(source)
                self._barriers.append((self._count, item))
                self._ready.notify()
                return True
            waiting = self._queues.get(source)
            if waiting is None:
                if len(self._queues) >= self._max_sources:
                    return self._refuse(source)
                waiting = self._queues[source] = deque()
            if len(waiting) >= limit:
                return self._refuse(source)
            waiting.append((self._count, item))
            self._ready.notify()
            return True

    def replace_last(self, source: str, item: Any, same: Any) -> bool:
        """Replace the newest waiting input of ``source`` when ``same(that input)`` says it is of
        the same kind (a device's newer status makes the older one moot); else queue ``item``
        like :meth:`put` with the device backlog."""
        with self._lock:
            waiting = self._queues.get(source)
            if waiting and same(waiting[-1][1]):
                waiting[-1] = (waiting[-1][0], item)
                return True
        return self.put(source, item, DEVICE_BACKLOG)

    def _refuse(self, source: str) -> bool:
        if len(self.refused) < self._max_sources or source in self.refused:
            self.refused[source] = self.refused.get(source, 0) + 1
        return False

    def get(self, timeout: float | None = None) -> Any:
        """The next input, taking sources in turn; None once closed and empty, or on timeout."""
        with self._lock:
            while not self._queues and not self._barriers:
                if self._closed or not self._ready.wait(timeout):
                    return None
            if self._barriers:
                oldest = min(
                    (waiting[0][0] for waiting in self._queues.values()),
                    default=self._barriers[0][0] + 1,
                )
                if self._barriers[0][0] < oldest:
                    return self._barriers.popleft()[1]
            source, waiting = next(iter(self._queues.items()))
            _, item = waiting.popleft()
            if waiting:
                self._queues.move_to_end(source)  # the others go first next time
            else:
                del self._queues[source]
            return item

    def pending(self) -> int:
        with self._lock:
            return sum(len(waiting) for waiting in self._queues.values()) + len(self._barriers)

    def close(self) -> None:
        """No more inputs; ``get`` drains what waits, then answers None."""
        with self._lock:
            self._closed = True
            self._ready.notify_all()

    def drain(self) -> list[Any]:
        """Everything still waiting (in no particular order), removed: for closing."""
        with self._lock:
            items = [item for waiting in self._queues.values() for _, item in waiting]
            items += [item for _, item in self._barriers]
            self._queues.clear()
            self._barriers.clear()
            return items
