"""No client can starve the others: streams cost no thread, every connection has limits.

What is checked here is behaviour (who is dropped, what is refused, how many threads), never
speed: ``bench/hostile_wifi.py`` measures the latencies under attack.
"""

from __future__ import annotations

import http.client
import socket
import threading
import time

import pytest
from support import SSE, Server, claimed_headers, wait_until

from companion.web import eventloop


def stream_from(server: Server, path: str, address: str, timeout: float = 10.0) -> SSE:
    """An event stream opened from a loopback address of its own (all of 127/8 is lo)."""
    stream = SSE.__new__(SSE)
    stream.conn = http.client.HTTPConnection(
        "127.0.0.1", server.companion.port, timeout=timeout, source_address=(address, 0)
    )
    # a seat's stream comes from the phone that claimed the seat
    stream.conn.request("GET", path, headers=claimed_headers(path, {"Accept": "text/event-stream"}))
    stream.response = stream.conn.getresponse()
    stream.status = stream.response.status
    stream.headers = dict(stream.response.getheaders())
    return stream


def events_until_end(stream: SSE, limit: int = 50) -> list[str]:
    """The names of the events a stream sends until it ends (or ``limit`` of them)."""
    names = []
    try:
        for _ in range(limit):
            name, _ = stream.next()
            names.append(name)
            if name in ("closed", "gone", "bye"):
                break
    except (EOFError, OSError):
        names.append("EOF")
    return names


@pytest.fixture
def server(tmp_path):
    server = Server.start(tmp_path)
    server.companion.app.config["SSE_KEEPALIVE"] = 0.3
    yield server
    server.stop()


def test_open_streams_hold_no_thread(server):
    """Forty table displays streaming from forty addresses: not one thread more."""
    before = threading.active_count()
    streams = [stream_from(server, "/api/table/stream", f"127.0.1.{n}") for n in range(1, 41)]
    try:
        for stream in streams:
            assert stream.snapshot()["viewer"] == "@table"
        assert threading.active_count() <= before + 1  # a worker thread may start, no more
        assert server.companion.app.extensions["companion"]["stream_limits"].count() == 40
    finally:
        for stream in streams:
            stream.close()


def test_a_new_stream_past_the_address_limit_ends_the_oldest(server):
    limits = server.companion.app.extensions["companion"]["stream_limits"]
    streams = [
        stream_from(server, "/api/table/stream", "127.0.2.1") for _ in range(limits.per_address)
    ]
    try:
        for stream in streams:
            stream.snapshot()
        newest = stream_from(server, "/api/table/stream", "127.0.2.1")
        assert newest.snapshot()["viewer"] == "@table"
        assert events_until_end(streams[0])[-1] == "closed"
        # the others from that address, and everyone else's, go on
        other = stream_from(server, "/api/table/stream", "127.0.2.2")
        assert other.snapshot()["viewer"] == "@table"
        server.table.call("note", "test", text="something happened")
        assert streams[1].snapshot() and newest.snapshot() and other.snapshot()
        assert limits.count() == limits.per_address + 1
    finally:
        for stream in [*streams, newest, other]:
            stream.close()


def test_a_seat_has_at_most_a_few_streams_the_newest_win(server):
    links = server.new_game(["Elena", "Denise"], seed=2)
    path = links["Elena"].split(str(server.companion.port), 1)[1] + "/stream"
    limits = server.companion.app.extensions["companion"]["stream_limits"]
    streams = [stream_from(server, path, f"127.0.3.{n}") for n in range(1, limits.per_viewer + 2)]
    try:
        for stream in streams[1:]:
            assert stream.snapshot()["viewer"] == "Elena"
        assert events_until_end(streams[0])[-1] == "closed"
    finally:
        for stream in streams:
            stream.close()


def test_connections_past_the_address_limit_close_that_addresss_oldest_idle_one(server):
    limits = server.companion.server.limits
    limits.per_address = 4
    idle = [
        socket.create_connection(
            ("127.0.0.1", server.companion.port), source_address=("127.0.4.1", 0)
        )
        for _ in range(4)
    ]
    try:
        wait_until(lambda: len(limits.by_address.get("127.0.4.1", [])) == 4)
        newest = socket.create_connection(
            ("127.0.0.1", server.companion.port), source_address=("127.0.4.1", 0)
        )
        idle[0].settimeout(5)
        assert idle[0].recv(100) == b""  # the oldest idle connection was closed
        newest.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        newest.settimeout(5)
        assert newest.recv(100).startswith(b"HTTP/1.1 200")
        # another address is not touched by that one's crowd
        status = http_status(server, "/healthz", "127.0.4.2")
        assert status == 200
    finally:
        for sock in [*idle, newest]:
            sock.close()


def http_status(server: Server, path: str, address: str) -> int:
    conn = http.client.HTTPConnection(
        "127.0.0.1", server.companion.port, timeout=5, source_address=(address, 0)
    )
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    finally:
        conn.close()


def test_a_request_head_sent_slowly_is_cut_off(server, monkeypatch):
    """Slowloris: a head that never ends is closed after HEAD_TIMEOUT, and costs nobody else."""
    monkeypatch.setattr(eventloop, "HEAD_TIMEOUT", 0.5)
    slow = socket.create_connection(("127.0.0.1", server.companion.port))
    try:
        slow.sendall(b"GET /api/table HTTP/1.1\r\nHost: x\r\n")
        started = time.monotonic()
        slow.settimeout(0.2)
        closed = False
        while time.monotonic() - started < 5 and not closed:
            try:
                slow.sendall(b"X-a: b\r\n")  # one more header line now and then
                closed = slow.recv(100) == b""
            except socket.timeout:
                continue
            except OSError:
                closed = True
        assert closed
        assert http_status(server, "/healthz", "127.0.5.1") == 200
    finally:
        slow.close()


def test_a_stream_that_is_not_read_is_dropped(server, monkeypatch):
    """A phone that stops reading is dropped after WRITE_TIMEOUT; its output never piles up."""
    monkeypatch.setattr(eventloop, "SEND_BUFFER", 4096)
    monkeypatch.setattr(eventloop, "WRITE_TIMEOUT", 1.0)  # read when a connection is accepted
    limits = server.companion.app.extensions["companion"]["stream_limits"]
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.bind(("127.0.6.1", 0))
    sock.connect(("127.0.0.1", server.companion.port))
    sock.sendall(b"GET /api/table/stream HTTP/1.1\r\nHost: x\r\n\r\n")
    try:
        wait_until(lambda: limits.count() == 1)
        big = "x" * 180  # notes make the snapshots change and grow
        deadline = time.monotonic() + 30
        while limits.count() and time.monotonic() < deadline:
            server.table.call("note", "test", text=big)
            time.sleep(0.02)
        assert limits.count() == 0  # the stream was given up
    finally:
        sock.close()


def test_raw_junk_gets_4xx_and_the_server_goes_on(server):
    junk = [
        b"\x00\x01\x02\r\n\r\n",
        b"GET /p/\xc3\xa9 HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nX: \xff\xfe\r\n\r\n",
        b"POST /host HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nab",
        b"POST /host HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET / HTTP/1.1\r\n" + b"X-Big: " + b"b" * 100_000 + b"\r\n\r\n",
        b"POST /host HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999\r\n\r\n",
        b"GET / HTTP/9.9\r\n\r\n",
    ]
    for request in junk:
        sock = socket.create_connection(("127.0.0.1", server.companion.port))
        sock.settimeout(3)
        answer = b""
        try:
            sock.sendall(request)
            sock.shutdown(socket.SHUT_WR)
            while chunk := sock.recv(4096):
                answer += chunk
        except (socket.timeout, ConnectionResetError, BrokenPipeError):
            pass
        finally:
            sock.close()
        assert not answer.startswith(b"HTTP/1.1 5"), (request[:60], answer[:200])
    assert http_status(server, "/healthz", "127.0.7.1") == 200
