"""Latency of a player's page load and POST while attackers on the table's Wi-Fi hold connections
open (goal: with 8 legitimate phones streaming and 200 idle, 200 half-open and 50 streaming
attacker connections, both still answer, p99 under 100 ms).

Starts a simulated companion in its own process (``bench/launch.py``, the tree and server
chosen), starts a 5-player Abracada...What? game through the host's API, claims the seats through
the join codes and deals the stones. Eight legitimate clients, each from a loopback address of its
own, read their event streams continuously: the 5 players' pages, the host's page and 2 table
displays. Then, phase by phase (``--phases``):

* ``baseline``: no attacker;
* ``idle``: 200 TCP connections that send nothing and stay open;
* ``half-open``: 200 slowloris requests: a partial request head, then one more header byte
  every ``--slowloris-interval`` seconds, never finished;
* ``streams``: 50 ``GET /api/table/stream`` never read after connecting (a small receive buffer,
  ``--attack-rcvbuf``, so the server's send buffer fills soon);
* ``all``: the three together, opened in that order.

Attackers come from 127.0.0.66 and up (one address per kind, or ``--attacker-addresses`` each).
While they are open, one player's phone (its own address, a fresh connection per request, as
after a page reload) loads its page (``GET /p/<token>``) and sends an action the rules refuse at
once (a cast of spell 99: a 409 is an answer), and now and then the active player makes a legal
decision (the bot moves the game there first, untimed). Every request has a ``--timeout``; a
timeout, a connection error or an unexpected status is a failure, and recorded. A phase stops
after ``--requests`` of each kind or ``--phase-seconds``, whichever comes first. After each phase
the script reports what became of the attackers' connections (refused when connecting, closed by
the server, still open, answered) and of the legitimate streams, and closes the attackers.

It reports and never asserts; it exits 0 when goals are missed.

    python bench/hostile_wifi.py [--tree DIR] [--server shipped|waitress-tuned] [--requests 200]
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from common import (
    add_tree_arguments,
    claimed,
    csrf,
    http_json,
    rss_kb,
    socket_count,
    start_launcher,
    summary,
)
from players import PLAYER_ADDRESSES, PLAYERS, AbracadaBot

KINDS = ("idle", "half-open", "streams")
PHASES = ("baseline", "idle", "half-open", "streams", "all")
TCP_STATES = {1: "established", 7: "closed (reset)", 8: "closed by server"}
REFUSED = {"type": "cast", "spell": 99}


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0].replace("\n", " "),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1],
    )
    add_tree_arguments(parser)
    parser.add_argument(
        "--phases",
        default=",".join(PHASES),
        help="comma-separated phases to run, in order (default: all of them)",
    )
    parser.add_argument(
        "--requests",
        type=int,
        default=200,
        help="page loads and refused POSTs per phase, each (default 200)",
    )
    parser.add_argument(
        "--phase-seconds",
        type=float,
        default=300.0,
        help="stop a phase's measurement after this long (default 300)",
    )
    parser.add_argument(
        "--pause",
        type=float,
        default=0.05,
        help="seconds between one page load + POST and the next (default 0.05)",
    )
    parser.add_argument(
        "--legal-every",
        type=int,
        default=20,
        help="a legal action every this many iterations (0: none; default 20)",
    )
    parser.add_argument("--timeout", type=float, default=10.0, help="per request (default 10 s)")
    parser.add_argument("--idle", type=int, default=200, help="idle connections (default 200)")
    parser.add_argument(
        "--half-open", type=int, default=200, help="slowloris connections (default 200)"
    )
    parser.add_argument(
        "--streams", type=int, default=50, help="unread attacking streams (default 50)"
    )
    parser.add_argument(
        "--attacker-addresses",
        type=int,
        default=1,
        help="loopback addresses per attacker kind (default 1)",
    )
    parser.add_argument(
        "--slowloris-interval",
        type=float,
        default=5.0,
        help="seconds between a half-open request's header bytes (default 5)",
    )
    parser.add_argument(
        "--attack-rcvbuf",
        type=int,
        default=4096,
        help="SO_RCVBUF of the attacking streams' sockets (0: system default)",
    )
    parser.add_argument(
        "--connect-timeout",
        type=float,
        default=5.0,
        help="an attacker's connect timeout (default 5 s)",
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=5.0,
        help="seconds after opening the attackers before measuring, and after "
        "closing them before the next phase (default 5)",
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--server-log",
        type=Path,
        default=None,
        help="keep the companion's log (its stderr) in this file",
    )
    return parser.parse_args()


# -- attackers ---------------------------------------------------------------------------------


class Attackers:
    """``count`` connections of one kind from ``addresses`` (round robin)."""

    def __init__(self, kind: str, count: int, addresses: list[str], port: int, args):
        self.kind, self.count, self.addresses, self.port, self.args = (
            kind,
            count,
            addresses,
            port,
            args,
        )
        self.sockets: list[socket.socket] = []
        self.connect_errors: collections.Counter = collections.Counter()
        self.send_errors = 0
        self.lock = threading.Lock()

    def open(self) -> None:
        for number in range(self.count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            if self.kind == "streams" and self.args.attack_rcvbuf:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, self.args.attack_rcvbuf)
            sock.settimeout(self.args.connect_timeout)
            try:
                sock.bind((self.addresses[number % len(self.addresses)], 0))
                sock.connect(("127.0.0.1", self.port))
                if self.kind == "half-open":
                    sock.sendall(b"GET /api/table HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                elif self.kind == "streams":
                    sock.sendall(
                        b"GET /api/table/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        b"Accept: text/event-stream\r\n\r\n"
                    )
                sock.setblocking(False)  # from now on, peeks and drips never wait
            except OSError as exc:
                self.connect_errors[type(exc).__name__] += 1
                sock.close()
                continue
            with self.lock:
                self.sockets.append(sock)

    def drip(self) -> None:
        """One more header byte on every half-open request still open."""
        with self.lock:
            for sock in self.sockets:
                if getattr(sock, "broken", False):
                    continue
                try:
                    sock.send(b"a", socket.MSG_DONTWAIT)
                except OSError:
                    sock.broken = True
                    self.send_errors += 1

    def report(self) -> str:
        """What became of the connections: refused, closed by the server, open, answered."""
        states: collections.Counter = collections.Counter()
        answers: collections.Counter = collections.Counter()
        with self.lock:
            for sock in self.sockets:
                try:
                    state = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0]
                except OSError:
                    state = 0
                states[TCP_STATES.get(state, f"tcp state {state}")] += 1
                try:
                    head = sock.recv(16, socket.MSG_PEEK | socket.MSG_DONTWAIT)
                    if head.startswith(b"HTTP/1."):
                        answers[head[9:12].decode(errors="replace")] += 1
                except OSError:
                    pass
        refused = sum(self.connect_errors.values())
        parts = [
            f"{self.count} tried",
            f"connect failed={refused}" + (f" ({dict(self.connect_errors)})" if refused else ""),
            *(f"{name}={n}" for name, n in sorted(states.items())),
        ]
        if answers:
            parts.append(
                "answered " + " ".join(f"{status}x{n}" for status, n in sorted(answers.items()))
            )
        if self.send_errors:
            parts.append(f"sends failed={self.send_errors}")
        return ", ".join(parts)

    def close(self) -> None:
        with self.lock:
            for sock in self.sockets:
                try:
                    sock.close()
                except OSError:
                    pass
            self.sockets.clear()


def attacker_addresses(kind: str, spread: int) -> list[str]:
    first = 66 + KINDS.index(kind) * spread
    return [f"127.0.0.{first + offset}" for offset in range(spread)]


# -- a phone's timed request -------------------------------------------------------------------


def timed(
    url: str, method: str, body: bytes | None, headers: dict, source: str, timeout: float
) -> tuple[float, int | None, str | None]:
    """(seconds, status, error) of one request on a fresh connection from ``source``."""
    parts = urlsplit(url)
    start = time.perf_counter()
    conn = http.client.HTTPConnection(
        parts.hostname, parts.port, timeout=timeout, source_address=(source, 0)
    )
    try:
        conn.request(method, parts.path, body, claimed(parts.path, headers))
        response = conn.getresponse()
        response.read()
        return time.perf_counter() - start, response.status, None
    except (OSError, http.client.HTTPException) as exc:
        return time.perf_counter() - start, None, type(exc).__name__
    finally:
        conn.close()


class Measure:
    """The latencies, statuses and failures of one kind of request in one phase."""

    def __init__(self, expected: tuple[int, ...], start: float):
        self.expected, self.start = expected, start
        self.last_failure: float | None = None  #: seconds into the phase of the last failure
        self.answered: list[float] = []
        self.statuses: collections.Counter = collections.Counter()
        self.errors: collections.Counter = collections.Counter()

    def add(self, seconds: float, status: int | None, error: str | None) -> None:
        if status is None:
            self.errors[error] += 1
        else:
            self.statuses[status] += 1
            if status in self.expected:
                self.answered.append(seconds)
                return
        self.last_failure = time.monotonic() - self.start

    def line(self) -> str:
        tried = sum(self.statuses.values()) + sum(self.errors.values())
        failures = tried - len(self.answered)
        timing = summary(self.answered) if self.answered else "n=0 (no answer)"
        with_failures = ""
        if failures and tried:  # a failure counts as the phone waiting for ever
            waits = sorted(self.answered) + [float("inf")] * failures
            rank = (tried - 1) * 0.99
            low, high = int(rank), min(int(rank) + 1, tried - 1)
            if waits[low] == float("inf") or (rank > low and waits[high] == float("inf")):
                with_failures = " p99_counting_failures=fail"
            else:
                p99 = waits[low] + (waits[high] - waits[low]) * (rank - low)
                with_failures = f" p99_counting_failures={p99 * 1000:.2f}ms"
        errors = f" errors={dict(self.errors)}" if self.errors else ""
        if self.last_failure is not None:
            errors += f" last_failure_at={self.last_failure:.0f}s"
        return (
            f"{timing} failures={failures}/{tried}{with_failures} "
            f"statuses={dict(sorted(self.statuses.items()))}{errors}"
        )


class Phone:
    """The measuring player's phone, and the bot that moves the game to a legal decision."""

    def __init__(self, bot: AbracadaBot, player: str, timeout: float):
        self.bot, self.player, self.timeout = bot, player, timeout

    def page(self, measure: Measure) -> None:
        url = self.bot.links[self.player]
        measure.add(*timed(url, "GET", None, {}, PLAYER_ADDRESSES[self.player], self.timeout))

    def refused(self, measure: Measure) -> None:
        url = f"{self.bot.links[self.player]}/api/action"
        try:  # cached: the page has it; fetched again only after a new game
            token = csrf(url, self.timeout, PLAYER_ADDRESSES[self.player])
        except (OSError, http.client.HTTPException, ValueError, KeyError) as exc:
            measure.add(0.0, None, f"csrf:{type(exc).__name__}")
            return
        measure.add(
            *timed(
                url,
                "POST",
                json.dumps(REFUSED).encode(),
                {"Content-Type": "application/json", "X-CSRF-Token": token},
                PLAYER_ADDRESSES[self.player],
                self.timeout,
            )
        )

    def legal(self, measure: Measure) -> bool:
        """Move the game (untimed) to a player's decision and time that decision; False if the
        game could not be moved there."""
        try:
            for _ in range(100):
                move = self.bot.decide(*self.bot.view())
                if move.kind == "phone":
                    break
                self.bot.perform(move)
            else:
                return False
            url = f"{self.bot.links[move.what]}/api/action"
            token = csrf(url, self.timeout, PLAYER_ADDRESSES[move.what])
        except (OSError, http.client.HTTPException, ValueError, KeyError, TypeError, RuntimeError):
            return False
        measure.add(
            *timed(
                url,
                "POST",
                json.dumps(move.body).encode(),
                {"Content-Type": "application/json", "X-CSRF-Token": token},
                PLAYER_ADDRESSES[move.what],
                self.timeout,
            )
        )
        return True


# -- the phases --------------------------------------------------------------------------------


def wait_healthy(base: str, seconds: float) -> float | None:
    """Seconds until /healthz answers (None: not within ``seconds``)."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        try:
            if http_json(f"{base}/healthz", timeout=5)[0] == 200:
                return time.monotonic() - start
        except (OSError, http.client.HTTPException, ValueError):
            pass
        time.sleep(0.5)
    return None


def streams_caught_up(base: str, streams, seconds: float = 5.0) -> int:
    """How many legitimate streams reach the table's current version within ``seconds``."""
    try:
        version = http_json(f"{base}/healthz", timeout=5)[1]["version"]
    except (OSError, http.client.HTTPException, ValueError, TypeError):
        return -1
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if all(stream.version >= version for stream in streams):
            break
        time.sleep(0.1)
    return sum(1 for stream in streams if stream.version >= version)


def run_phase(name: str, args, launched, bot: AbracadaBot, phone: Phone, streams) -> None:
    kinds = {"baseline": (), "all": KINDS}.get(name, (name,))
    sizes = {"idle": args.idle, "half-open": args.half_open, "streams": args.streams}
    port = urlsplit(launched.base).port
    attackers = [
        Attackers(kind, sizes[kind], attacker_addresses(kind, args.attacker_addresses), port, args)
        for kind in kinds
    ]
    stop = threading.Event()
    dripper = None
    before = {stream.label: (stream.connects, stream.failures) for stream in streams}
    opened_at = time.monotonic()
    for attack in attackers:
        attack.open()
        if attack.kind == "half-open":

            def drip(attack=attack):
                while not stop.wait(args.slowloris_interval):
                    attack.drip()

            dripper = threading.Thread(target=drip, daemon=True)
            dripper.start()
    if attackers:
        print(
            f"[{name}] attackers opened in {time.monotonic() - opened_at:.1f} s; server holds "
            f"{socket_count(launched.pid)} sockets",
            file=sys.stderr,
            flush=True,
        )
        time.sleep(args.settle)
    start = time.monotonic()
    page, refused, legal = Measure((200,), start), Measure((409,), start), Measure((200,), start)
    legal_skipped = 0
    for count in range(args.requests):
        if time.monotonic() - start > args.phase_seconds:
            break
        phone.page(page)
        phone.refused(refused)
        if (
            args.legal_every
            and count % args.legal_every == args.legal_every - 1
            and not phone.legal(legal)
        ):
            legal_skipped += 1
        time.sleep(args.pause)
        if count % 50 == 49:
            print(
                f"[{name}] {count + 1} requests, {time.monotonic() - start:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    took = time.monotonic() - start
    sockets, rss = socket_count(launched.pid), rss_kb(launched.pid)
    caught_up = streams_caught_up(launched.base, streams)
    reopened = sum(stream.connects - before[stream.label][0] for stream in streams)
    broke = sum(stream.failures - before[stream.label][1] for stream in streams)
    print(f"RESULT hostile {name} page load GET /p/<token>: {page.line()}")
    print(f"RESULT hostile {name} refused POST /p/<token>/api/action: {refused.line()}")
    if args.legal_every:
        print(
            f"RESULT hostile {name} legal action POST /p/<token>/api/action: {legal.line()}"
            + (f" (not reached {legal_skipped} times)" if legal_skipped else "")
        )
    caught = (
        f"{caught_up}/{len(streams)}" if caught_up >= 0 else "unknown (/healthz did not answer)"
    )
    print(
        f"RESULT hostile {name} phase: {took:.1f} s measured; legitimate streams up to date "
        f"{caught}, reopened {reopened}, broken {broke}; server holds "
        f"{sockets} sockets, RSS {rss / 1024:.1f} MB"
    )
    for attack in attackers:
        print(
            f"RESULT hostile {name} attackers {attack.kind} from "
            f"{','.join(attack.addresses)}: {attack.report()}"
        )
    stop.set()
    if dripper is not None:
        dripper.join()
    for attack in attackers:
        attack.close()
    if attackers:
        time.sleep(args.settle)
        recovered = wait_healthy(launched.base, 120)
        after = f"after {recovered:.1f} s more" if recovered is not None else "NOT within 120 s"
        print(
            f"RESULT hostile {name} recovery: {args.settle:g} s after the attackers closed, "
            f"/healthz answers {after}",
            flush=True,
        )


def main() -> int:
    args = parse_args()
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(1))  # still stop the companion
    phases = [phase.strip() for phase in args.phases.split(",") if phase.strip()]
    unknown = [phase for phase in phases if phase not in PHASES]
    if unknown:
        raise SystemExit(f"unknown phases {unknown}; choose from {', '.join(PHASES)}")
    work = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    launched = start_launcher(
        args.tree,
        work / "data",
        server=args.server,
        python=args.python,
        threads=args.threads,
        stderr_path=args.server_log or work / "companion.log",
    )
    streams = []
    try:
        bot = AbracadaBot(launched.base, launched.host, seed=args.seed, timeout=args.timeout)
        bot.new_game()
        http_json(f"{launched.host}/sim/draw_all", "POST", {})
        streams = bot.open_streams()
        for stream in streams:
            if stream.snapshot_at_least(0, 10) is None:
                print(f"stream {stream.label} sent no snapshot", file=sys.stderr)
        view = http_json(f"{launched.base}/api/table")[1]["view"]
        player = next(name for name in PLAYERS if name != view["active"])
        phone = Phone(bot, player, args.timeout)
        csrf(f"{bot.links[player]}/api/action", args.timeout, PLAYER_ADDRESSES[player])
        print(
            f"RESULT hostile setup: tree {args.tree.name}, server {args.server}, "
            f"{len(streams)} legitimate streams, measuring phone {player} from "
            f"{PLAYER_ADDRESSES[player]}, {args.requests} requests of each kind per phase "
            f"(at most {args.phase_seconds:.0f} s), timeout {args.timeout:.0f} s, load average "
            f"{os.getloadavg()[0]:.2f}",
            flush=True,
        )
        for name in phases:
            run_phase(name, args, launched, bot, phone, streams)
        print(f"RESULT hostile end: load average {os.getloadavg()[0]:.2f}")
    finally:
        for stream in streams:
            stream.close()
        code = launched.stop()
        print(f"companion stopped (exit {code})", file=sys.stderr)
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
