"""Server-Sent Event streams as *feeds*: what a stream sends, apart from who carries it.

A :class:`Feed` knows what a stream sends (its opening, each snapshot when the table changed, the
ending) and answers without blocking; the server decides how to wait. The companion's own
event-loop server (:mod:`companion.web.eventloop`) waits for the table's changes in a greenlet, so
an idle or slow stream costs a few kilobytes and no thread. Any other WSGI server (Flask's test
client, a plain WSGI server) gets :func:`blocking_body`, an ordinary generator that waits in its
thread.

A slow reader never piles up output: a feed renders the table as it is *when it gets to send*,
so a phone that reads slowly gets the latest snapshot and skips the ones in between; one that does
not read at all is dropped by the server after a while (``eventloop.WRITE_TIMEOUT``).

:class:`StreamLimits` bounds the streams: per seat (a viewer), per client address and in all; a
new stream past a limit ends the oldest one of that seat or address (``event: closed``), so a
phone that reconnects always gets in, and one client cannot hold every stream.

:class:`SnapshotEvents` caches each snapshot event's bytes per table version, viewer and
language, so ten streams of the same viewer cost one JSON encoding, not ten.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

OPENING = f"retry: 2000\n: {' ' * 2048}\n\n".encode()  # the padding flushes proxies' buffers
KEEPALIVE = b": keep-alive\n\n"
GONE = b"event: gone\ndata: {}\n\n"  #: the viewer is no seat of the game any more
BYE = b"event: bye\ndata: {}\n\n"  #: the companion is stopping
CLOSED = b"event: closed\ndata: {}\n\n"  #: a newer stream of the same seat or address took over
HANG_UP_CHECK = 1.0  # seconds between checks that the client is still there (blocking_body)

#: Streams at once: of one viewer (a seat, the host, the table display), of one client address,
#: and in all. A phone's browser opens at most 6 connections to one server.
STREAMS_PER_VIEWER = 4
STREAMS_PER_ADDRESS = 8
STREAMS_IN_ALL = 128


class StreamSlot:
    """One live stream's place in the limits; ``evicted`` once a newer stream took it."""

    __slots__ = ("viewer", "address", "evicted", "wake")

    def __init__(self, viewer: str, address: str, wake: Callable[[], None]):
        self.viewer = viewer
        self.address = address
        self.evicted = False
        self.wake = wake


class StreamLimits:
    """Counts the live streams and ends the oldest where a new one goes past a limit."""

    def __init__(
        self,
        per_viewer: int = STREAMS_PER_VIEWER,
        per_address: int = STREAMS_PER_ADDRESS,
        in_all: int = STREAMS_IN_ALL,
    ):
        self.per_viewer = per_viewer
        self.per_address = per_address
        self.in_all = in_all
        self._lock = threading.Lock()
        self._live: OrderedDict[StreamSlot, None] = OrderedDict()  # oldest first
        self.evictions = 0

    def open(self, viewer: str, address: str, wake: Callable[[], None]) -> StreamSlot:
        """A new stream of ``viewer`` (a seat or a host session; "" for the table display,
        which anyone may open, so only its address counts) from ``address``."""
        slot = StreamSlot(viewer, address, wake)
        evicted = []
        with self._lock:
            for same, limit in (
                (lambda s: bool(viewer) and s.viewer == viewer, self.per_viewer if viewer else 0),
                (lambda s: s.address == address, self.per_address),
                (lambda s: True, self.in_all),
            ):
                if not limit:
                    continue
                live = [s for s in self._live if same(s)]
                for old in live[: max(0, len(live) - limit + 1)]:
                    old.evicted = True
                    del self._live[old]
                    evicted.append(old)
            self._live[slot] = None
            self.evictions += len(evicted)
        for old in evicted:
            old.wake()
        return slot

    def close(self, slot: StreamSlot) -> None:
        with self._lock:
            self._live.pop(slot, None)

    def count(self) -> int:
        with self._lock:
            return len(self._live)


class Feed:
    """What one stream sends. ``due()`` is cheap and never blocks; ``take()`` renders (it may
    build a snapshot, so a server calls it off its event loop); ``wait()`` blocks a thread until
    the table changes (for servers with a thread per stream)."""

    def __init__(
        self,
        table: Any,
        render: Callable[[], bytes | None],
        *,
        key: Callable[[], Any] | None = None,
        poll: float | None = None,
        keepalive: float = 15.0,
        slot: StreamSlot | None = None,
        limits: StreamLimits | None = None,
        cached: Callable[[], bytes | None] | None = None,
    ):
        self.table = table
        self._render = render
        #: what ``render`` would answer when that costs nothing (already encoded), else None
        self._cached = cached
        self._key = key or (lambda: table.version)
        #: seconds between looks when what is sent changes without the table changing
        self.poll = poll
        self.keepalive = keepalive
        self.slot = slot
        self._limits = limits
        self._seen: Any = object()
        self.finished = False

    def due(self) -> bool:
        """Whether :meth:`take` has something to send now."""
        if self.finished:
            return False
        return (
            self.table.closing
            or (self.slot is not None and self.slot.evicted)
            or self._key() != self._seen
        )

    def take(self) -> bytes | None:
        """The next chunk (None: nothing new); the last one ends the stream (``finished``)."""
        if self.finished:
            return None
        if self.table.closing:
            return self._end(BYE)
        if self.slot is not None and self.slot.evicted:
            return self._end(CLOSED)
        key = self._key()
        if key == self._seen:
            return None
        self._seen = key
        chunk = self._render()
        return self._end(GONE) if chunk is None else chunk

    def peek(self) -> bytes | None:
        """:meth:`take`, when it is cheap (the end, or bytes already encoded); else None, and
        nothing changes (the caller then calls :meth:`take` where blocking does no harm)."""
        if self.finished:
            return None
        if self.table.closing or (self.slot is not None and self.slot.evicted):
            return self.take()
        if self._cached is None:
            return None
        key = self._key()
        if key == self._seen:
            return None
        chunk = self._cached()
        if chunk is not None:
            self._seen = key
        return chunk

    def _end(self, chunk: bytes) -> bytes:
        self.finished = True
        self.close()
        return chunk

    def wait(self, timeout: float) -> None:
        """Block this thread until the table changes (or ``timeout``, or the end)."""
        self.table.wait_for_change(self.table.version, timeout)

    def close(self) -> None:
        if self.slot is not None and self._limits is not None:
            self._limits.close(self.slot)


def blocking_body(feed: Feed, hung_up: Callable[[], bool]) -> Iterator[bytes]:
    """The stream as an ordinary generator, waiting in its thread (any WSGI server)."""
    try:
        yield OPENING
        last = time.monotonic()
        while not feed.finished and not hung_up():
            chunk = feed.take()
            now = time.monotonic()
            if chunk:
                last = now
                yield chunk
                continue
            if now - last >= feed.keepalive:
                last = now
                yield KEEPALIVE
                continue
            feed.wait(
                min(
                    HANG_UP_CHECK,
                    feed.keepalive - (now - last),
                    feed.poll if feed.poll is not None else HANG_UP_CHECK,
                )
            )
    finally:
        feed.close()


class SnapshotEvents:
    """Each snapshot event's bytes, per table version, viewer and language: encoded once.

    A snapshot's list of what happened (up to 60 events) is most of its bytes and changes by an
    event or two per version: each event's JSON is kept per viewer and language across versions
    (an event never changes once it is logged), so a new version costs the JSON of the rest of
    the snapshot and of its new events. :meth:`forget` empties both caches (a test that changes
    what the table holds without a new version calls it)."""

    MAX_KEPT = 64  # (viewer, language) pairs of one version; a table has a few dozen
    MAX_EVENTS_KEPT = 2048  # encoded events: 60 kept events, for every viewer and language

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._version = -1
        self._events: dict[tuple[str, str, str], bytes] = {}
        self._encoded: OrderedDict[tuple[Any, str, str], str] = OrderedDict()

    def forget(self) -> None:
        with self._lock:
            self._version, self._events = -1, {}
            self._encoded.clear()

    def cached(
        self, table: Any, viewer: str | None, language: str, extra: dict[str, Any] | None = None
    ) -> bytes | None:
        """The event :meth:`event` would answer, if it is already encoded for the table's
        current version; else None."""
        if viewer is None:
            return None
        key = (viewer, language, json.dumps(extra, sort_keys=True) if extra else "")
        with self._lock:
            return self._events.get(key) if self._version == table.version else None

    def event(
        self,
        table: Any,
        viewer: str,
        language: str,
        localise: Callable[[Any], Any],
        extra: dict[str, Any] | None = None,
    ) -> bytes:
        """The ``snapshot`` event of ``viewer`` in ``language``, with ``extra`` fields added."""
        snapshot = table.snapshot(viewer)
        version = snapshot["version"]
        key = (viewer, language, json.dumps(extra, sort_keys=True) if extra else "")
        with self._lock:
            if version != self._version:
                self._version, self._events = version, {}
            found = self._events.get(key)
        if found is not None:
            return found
        head = {k: v for k, v in snapshot.items() if k != "events"} | (extra or {})
        text = json.dumps(localise(head), separators=(",", ":"))
        happened = ",".join(
            self._encode(event, viewer, language, localise) for event in snapshot["events"]
        )
        data = f'{text[:-1]},"events":[{happened}]}}'
        found = f"event: snapshot\nid: {version}\ndata: {data}\n\n".encode()
        with self._lock:
            if version == self._version and len(self._events) < self.MAX_KEPT:
                self._events[key] = found
        return found

    def _encode(
        self, event: dict[str, Any], viewer: str, language: str, localise: Callable[[Any], Any]
    ) -> str:
        """One event of the list, as ``viewer`` sees it in ``language``: encoded once."""
        number = event.get("n")
        key = (number, viewer, language)
        if number is not None:
            found = self._encoded.get(key)  # a dict read needs no lock; writes take it
            if found is not None:
                return found
        text = json.dumps(localise(event), separators=(",", ":"))
        if number is not None:
            with self._lock:
                self._encoded[key] = text
                while len(self._encoded) > self.MAX_EVENTS_KEPT:
                    self._encoded.popitem(last=False)
        return text
