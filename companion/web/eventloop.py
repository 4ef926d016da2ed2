"""The companion's HTTP server: gevent's WSGI server on an event loop in a thread of its own.

Why an event loop (``docs/server.md`` has the measurements): a thread-per-connection server
(waitress, before) gives every open event stream a thread, so a few phones, or one script, holding
streams open stops every page load. Here every connection is a greenlet on one event loop: an
idle, slow or half-open connection costs a few kilobytes and no thread.

* **Flask runs in a small pool of worker threads** (``WORKERS``), never on the loop: a view may
  wait for the table or the disk. A request's body is read on the loop first (bounded in size
  and time), so a worker never waits for a slow client. One client address may use at most
  ``WORKERS_PER_ADDRESS`` workers at once.
* **Streams run on the loop.** A view that returns a stream leaves its :class:`~.streams.Feed` in
  the environ; the loop sends the feed's chunks, waking when the table changes (the table calls
  back, thread-safely), and renders a snapshot in a worker only when no cached bytes exist.
* **Limits.** A request's line and headers must arrive within ``HEAD_TIMEOUT`` s and its body
  within ``BODY_TIMEOUT`` s; a connection idle between requests for ``IDLE_TIMEOUT`` s is closed;
  a client that takes no data for ``WRITE_TIMEOUT`` s is dropped (a stream never buffers more
  than the socket does: a slow reader gets the latest snapshot when it reads again). At most
  ``CONNECTIONS_PER_ADDRESS`` connections per client address and ``CONNECTIONS_IN_ALL`` in all:
  past them the oldest connection of that address (else of all) that is not busy is closed, or the
  new one is.

Nothing here is monkey-patched: the table loop, the devices and the tests keep ordinary threads.
The loop's thread is the one that calls :meth:`EventLoopServer.serve_forever`.
"""

from __future__ import annotations

import errno
import io
import logging
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import gevent
from gevent.lock import BoundedSemaphore
from gevent.pool import Pool
from gevent.pywsgi import WSGIHandler, WSGIServer
from gevent.threadpool import ThreadPool

from .common import FEED_KEY, WAKE_KEY
from .streams import KEEPALIVE, OPENING, Feed

log = logging.getLogger("companion.server")

HEAD_TIMEOUT = 10.0
IDLE_TIMEOUT = 15.0
BODY_TIMEOUT = 10.0
WRITE_TIMEOUT = 20.0
MAX_BODY = 256 * 1024  # the Flask app's MAX_CONTENT_LENGTH too
CONNECTIONS_PER_ADDRESS = 48
CONNECTIONS_IN_ALL = 512
WORKERS = 8
WORKERS_PER_ADDRESS = 3
SEND_BUFFER = 64 * 1024  # bytes the kernel may hold for one client: the rest waits in no buffer


class _Connection:
    """One client connection: its address, its greenlet, since when, and what it is doing
    (``idle`` between requests, ``head`` reading one, ``busy`` in a worker, ``stream``)."""

    __slots__ = ("address", "greenlet", "since", "state")

    def __init__(self, address: str, greenlet: Any):
        self.address = address
        self.greenlet = greenlet
        self.since = time.monotonic()
        self.state = "idle"


class ConnectionLimits:
    """Who is connected, per address; makes room for a new connection or refuses it. Used on
    the loop only (one thread), so it needs no lock."""

    def __init__(
        self, per_address: int = CONNECTIONS_PER_ADDRESS, in_all: int = CONNECTIONS_IN_ALL
    ):
        self.per_address = per_address
        self.in_all = in_all
        self.by_address: dict[str, list[_Connection]] = {}
        self.count = 0
        self.refused = 0
        self.closed_for_room = 0

    def admit(self, connection: _Connection) -> bool:
        same = self.by_address.get(connection.address, [])
        if len(same) >= self.per_address and not self._make_room(same):
            self.refused += 1
            return False
        if self.count >= self.in_all:
            crowded = max(self.by_address.values(), key=len)
            if not (
                self._make_room(crowded)
                or any(self._make_room(others) for others in self.by_address.values())
            ):
                self.refused += 1
                return False
        self.by_address.setdefault(connection.address, []).append(connection)
        self.count += 1
        return True

    def _make_room(self, connections: list[_Connection]) -> bool:
        """Close the oldest of ``connections`` that is idle or still sending its request."""
        for old in connections:  # oldest first
            if old.state in ("idle", "head"):
                self.release(old)
                old.greenlet.kill(block=False)
                self.closed_for_room += 1
                return True
        return False

    def release(self, connection: _Connection) -> None:
        same = self.by_address.get(connection.address)
        if same and connection in same:
            same.remove(connection)
            self.count -= 1
            if not same:
                del self.by_address[connection.address]


class _Headers:
    """A request's header lines, read the way pywsgi's handler uses them (``get``, ``headers``,
    ``typeheader``, ``getheader``, ``del``), without the e-mail parser the standard library's
    ``http.client.parse_headers`` goes through (a third of a small request's cost). Bounded like
    it: at most MAX_HEADERS lines of MAX_HEADER_LINE bytes; ``status`` says what was wrong."""

    MAX_HEADERS = 100
    MAX_HEADER_LINE = 65536

    def __init__(self, rfile: Any = None, *_: Any):
        self.status = ""
        self.lines: list[str] = []
        if rfile is None:
            return
        while True:
            raw = rfile.readline(self.MAX_HEADER_LINE + 1)
            if len(raw) > self.MAX_HEADER_LINE:
                self.status = "Line too long"
                return
            if raw in (b"\r\n", b"\n", b""):
                return
            if len(self.lines) >= self.MAX_HEADERS:
                self.status = "Too many headers"
                return
            line = raw.decode("latin-1")
            if line[:1] in " \t" and self.lines:  # a folded line continues the one before
                self.lines[-1] = self.lines[-1].rstrip("\r\n") + " " + line.strip() + "\r\n"
            elif ":" not in line:
                self.status = "Invalid header line"
                return
            else:
                self.lines.append(line if line.endswith("\r\n") else line.rstrip("\n") + "\r\n")

    def _find(self, name: str) -> int | None:
        wanted = name.lower()
        for number, line in enumerate(self.lines):
            if line.split(":", 1)[0].strip().lower() == wanted:
                return number
        return None

    def get(self, name: str, default: Any = None) -> Any:
        number = self._find(name)
        return default if number is None else self.lines[number].split(":", 1)[1].strip()

    getheader = get

    def __delitem__(self, name: str) -> None:
        self.lines = [
            line for line in self.lines if line.split(":", 1)[0].strip().lower() != name.lower()
        ]

    @property
    def headers(self) -> list[str]:
        return [
            f"{line.split(':', 1)[0].strip()}: {line.split(':', 1)[1].strip()}\r\n"
            for line in self.lines
        ]

    @property
    def typeheader(self) -> str | None:
        return self.get("content-type")


class _Handler(WSGIHandler):
    """gevent's handler with deadlines: for the request head, between requests, for writes."""

    connection: _Connection
    _deadline: Any = None

    def MessageClass(self, *args: Any) -> _Headers:  # noqa: N802 (pywsgi's name)
        return _Headers(*args)

    def read_requestline(self) -> str:
        self.connection.state = "idle"
        self._deadline = gevent.Timeout.start_new(IDLE_TIMEOUT, socket.timeout("idle"))
        line = super().read_requestline()
        self.connection.state = "head"
        self._deadline.cancel()
        self._deadline = gevent.Timeout.start_new(HEAD_TIMEOUT, socket.timeout("head"))
        return line

    def read_request(self, raw_requestline: str) -> Any:
        try:
            return super().read_request(raw_requestline)
        finally:
            self._deadline.cancel()
            self.connection.state = "busy"

    def _handle_client_error(self, ex: BaseException) -> Any:
        if isinstance(ex, socket.timeout):  # a client too slow with its head: close quietly
            return None
        return super()._handle_client_error(ex)

    def _sendall(self, data: bytes) -> None:
        try:
            super()._sendall(data)
        except socket.timeout:  # the client takes no data: drop it, quietly
            raise OSError(errno.EPIPE, "the client does not read") from None

    def handle(self) -> None:
        try:
            super().handle()
        finally:
            if self._deadline is not None:
                self._deadline.cancel()

    def log_request(self) -> None:  # no access log: a phone makes many requests
        pass


class _Server(WSGIServer):
    handler_class = _Handler

    def __init__(self, *args: Any, limits: ConnectionLimits, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.limits = limits

    def handle(self, sock: Any, address: Any) -> None:
        client = address[0] if isinstance(address, tuple) else str(address)
        connection = _Connection(client, gevent.getcurrent())
        if not self.limits.admit(connection):
            sock.close()
            return
        try:
            sock.settimeout(WRITE_TIMEOUT)
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
                # a stream's events are small writes one after another: without this, Nagle's
                # algorithm holds each until the last is acknowledged (up to 40 ms late)
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except OSError:
                pass
            handler = self.handler_class(sock, address, self)
            handler.connection = connection
            handler.handle()
        finally:
            self.limits.release(connection)


class EventLoopServer:
    """Serves ``app`` on ``host``:``port`` (0: a free port, known once constructed).

    ``listen(callback)`` registers a thread-safe callback the server uses to hear of the table's
    changes (``Table.listen``)."""

    def __init__(
        self,
        app: Callable,
        host: str,
        port: int,
        *,
        listen: Callable[[Callable[[], None]], None] | None = None,
        workers: int = WORKERS,
        limits: ConnectionLimits | None = None,
    ):
        self.app = app
        self.workers = workers
        self.limits = limits or ConnectionLimits()
        self._listen = listen
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.socket = socket.socket(family, socket.SOCK_STREAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.socket.bind((host, port))
        self.socket.listen(256)
        self.socket.setblocking(False)
        self.port = self.socket.getsockname()[1]
        self._hub: Any = None
        self._server: _Server | None = None
        self._pool: ThreadPool | None = None
        self._change: Any = None  # a gevent Event, replaced at every change
        self._wake_pending = False
        self._slots: dict[str, BoundedSemaphore] = {}
        self._batch: _Batch | None = None
        self._stopping = False

    # -- running -------------------------------------------------------------------------------

    def serve_forever(self, on_signal: Callable[[], None] | None = None) -> None:
        """Serve in this thread until :meth:`stop` (from any thread). In the main thread, with
        ``on_signal``: SIGTERM and SIGINT call it and stop the server (through the event loop's
        own signal handling: a Python signal handler may not run while the loop waits)."""
        from gevent.event import Event

        self._hub = gevent.get_hub()
        if on_signal is not None and threading.current_thread() is threading.main_thread():
            for number in (signal.SIGTERM, signal.SIGINT):
                gevent.signal_handler(number, self._signalled, on_signal)
        self._pool = ThreadPool(self.workers)
        self._change = Event()
        if self._listen is not None:
            self._listen(self.wake)
        environ = {
            "SERVER_NAME": self.socket.getsockname()[0],
            "SERVER_PORT": str(self.port),
            WAKE_KEY: self.wake,
        }
        self._server = _Server(
            self.socket,
            self._application,
            spawn=Pool(),
            log=None,
            error_log=_ErrorLog(),
            environ=environ,
            limits=self.limits,
        )
        if self._stopping:
            return
        try:
            self._server.serve_forever()
        finally:
            self._pool.kill()

    def _signalled(self, on_signal: Callable[[], None]) -> None:
        try:
            on_signal()
        finally:
            self.stop()

    def stop(self, timeout: float = 3.0) -> None:
        """Stop accepting, end the connections (after ``timeout`` s at most) and return from
        :meth:`serve_forever`. Safe from any thread."""
        self._stopping = True
        hub, server = self._hub, self._server
        if hub is None or server is None:
            self.socket.close()
            return
        hub.loop.run_callback_threadsafe(lambda: gevent.spawn(server.stop, timeout))

    def wake(self) -> None:
        """The table changed, or a stream must look again: wake the streams (any thread)."""
        if self._hub is None or self._wake_pending:
            return
        self._wake_pending = True
        self._hub.loop.run_callback_threadsafe(self._woken)

    def _woken(self) -> None:
        from gevent.event import Event

        self._wake_pending = False
        changed, self._change = self._change, Event()
        changed.set()

    # -- one request ---------------------------------------------------------------------------

    def _application(self, environ: dict[str, Any], start_response: Callable) -> Any:
        """The WSGI app the loop serves: the body read here, Flask in a worker, a stream here."""
        try:
            body = _read_body(environ)
        except (OSError, ValueError):  # cut short, or a broken chunked encoding
            start_response(
                "400 Bad Request", [("Content-Type", "text/plain"), ("Connection", "close")]
            )
            return [b"the request's body is incomplete or malformed\n"]
        if body is None:
            start_response(
                "408 Request Timeout", [("Content-Type", "text/plain"), ("Connection", "close")]
            )
            return [b"the request's body did not arrive in time\n"]
        if len(body) > MAX_BODY:
            start_response(
                "413 Payload Too Large", [("Content-Type", "text/plain"), ("Connection", "close")]
            )
            return [b"request too large\n"]
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        address = environ.get("REMOTE_ADDR", "?")
        slots = self._slots.setdefault(address, BoundedSemaphore(WORKERS_PER_ADDRESS))
        with slots:
            status, headers, chunks = self._pool.apply(_call, (self.app, environ))
        if not slots.locked() and slots.counter == WORKERS_PER_ADDRESS:
            self._slots.pop(address, None)
        start_response(status, headers)
        feed = environ.get(FEED_KEY)
        if feed is None:
            return chunks
        return self._drive(feed)

    def _render(self, feed: Feed) -> bytes | None:
        """``feed.take()`` in a worker, batched with the other feeds that need one now."""
        while True:
            batch = self._batch
            if batch is None:
                batch = self._batch = _Batch()
                gevent.spawn(self._run_batch, batch)
            if not batch.started:
                batch.feeds.append(feed)
                batch.done.wait()
                return batch.results.get(feed)
            batch.done.wait()  # one is rendering without this feed: the next one will take it

    def _run_batch(self, batch: _Batch) -> None:
        gevent.sleep(0)  # every stream this change woke joins first
        batch.started = True
        if self._batch is batch:
            self._batch = None
        try:
            batch.results = self._pool.apply(_take_all, (batch.feeds,))
        except Exception:  # a bug must not hang the streams: they wait for the next change
            log.exception("rendering the streams' snapshots failed")
        finally:
            batch.done.set()

    def _drive(self, feed: Feed) -> Iterator[bytes]:
        """Send a stream's chunks as the table changes; keep-alives while it does not."""
        try:
            yield OPENING
            last = time.monotonic()
            while not feed.finished and not self._stopping:
                if feed.due():
                    chunk = feed.peek()
                    if chunk is None:
                        chunk = self._render(feed)
                    if chunk:
                        last = time.monotonic()
                        yield chunk
                        continue
                left = feed.keepalive - (time.monotonic() - last)
                if left <= 0:
                    last = time.monotonic()
                    yield KEEPALIVE
                    continue
                self._change.wait(min(left, feed.poll) if feed.poll else left)
        finally:
            feed.close()


class _Batch:
    """Feeds whose next chunk one worker renders together (one hand-off for all the streams a
    change wakes, not one each)."""

    __slots__ = ("feeds", "results", "done", "started")

    def __init__(self) -> None:
        from gevent.event import Event

        self.feeds: list[Feed] = []
        self.results: dict[Feed, bytes | None] = {}
        self.done = Event()
        self.started = False


def _read_body(environ: dict[str, Any]) -> bytes | None:
    """The request's body, at most MAX_BODY + 1 bytes (more is refused by the caller); None when
    it did not arrive within BODY_TIMEOUT seconds."""
    length = environ.get("CONTENT_LENGTH") or ""
    chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
    if not chunked and (not length.isdigit() or int(length) == 0):
        return b""
    if not chunked and int(length) > MAX_BODY:
        return b"x" * (MAX_BODY + 1)  # refused without reading it
    with gevent.Timeout(BODY_TIMEOUT, False):
        return environ["wsgi.input"].read(MAX_BODY + 1)
    return None


def _take_all(feeds: list[Feed]) -> dict[Feed, bytes | None]:
    """Each feed's next chunk (in a worker thread)."""
    return {feed: feed.take() for feed in feeds}


def _call(app: Callable, environ: dict[str, Any]) -> tuple[str, list, list[bytes]]:
    """Run the WSGI app in a worker thread: its status, headers and whole body (a stream's body
    is not read here: the loop drives its feed)."""
    answer: dict[str, Any] = {}

    def start_response(status: str, headers: list, exc_info: Any = None) -> Callable:
        answer["status"], answer["headers"] = status, headers
        return answer.setdefault("written", []).append

    result = app(environ, start_response)
    try:
        chunks = [] if environ.get(FEED_KEY) is not None else list(result)
    finally:
        close = getattr(result, "close", None)
        if close is not None and environ.get(FEED_KEY) is None:
            close()
    return answer["status"], answer["headers"], answer.get("written", []) + chunks


class _ErrorLog:
    """gevent's error log, into the companion's logging."""

    def write(self, message: str) -> None:
        message = message.strip()
        if message:
            log.warning("%s", message)

    def writelines(self, lines: list[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        pass
