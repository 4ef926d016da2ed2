"""Resident memory and server CPU time per accepted action over a long run of a busy table
(goals: 10-minute soak, 8 phones, 15 accepted actions/s: RSS after the first minute within
10 MB and under 80 MB, also beside a refusal flood and a garbage serial flood, and back within
10 MB of the start when they stop; CPU per accepted action at most 2 ms).

Starts a simulated companion in its own process (``bench/launch.py``), starts a 5-player
Abracada...What? game through the host's API and claims the seats through the join codes. Eight
clients read their event streams continuously, each from a loopback address of its own: the 5
players' pages, the host's page and 2 table displays; the size of every snapshot they receive is
recorded. A bot plays at a steady ``--rate`` of accepted actions per second in total (paced;
only accepted answers count): decisions through the players' phones, deals, draws and removals
through the simulated table's hands. It never casts the spells whose effects are rolled; when a
game ends it starts a new one and claims the seats again (the player streams follow).

Every ``--sample-every`` seconds it reads VmRSS (``/proc/<pid>/status``) and utime+stime
(``/proc/<pid>/stat``) of the companion's process (the dice simulator is a child process and is
not counted).

* ``--refusal-flood``: from 1/4 to 3/4 of the run (``--flood-from``, ``--flood-to``), one client
  hammers the server as fast as it can with requests that are refused, alternately an anonymous
  ``POST /join/<random code>`` without a CSRF token (127.0.0.70) and a player's phone sending an
  illegal action (127.0.0.71), each over its own kept-alive connection.
* ``--serial-flood``: the companion reads its dice from a pty this script opens
  (``--dice-port``; the simulated dice reader is closed); during the same part of the run a
  thread writes random garbage bytes, with a newline now and then, to it as fast as it can.

If the companion's RSS passes ``--rss-limit`` MB the floods stop (and the run, at twice it), and
that is reported. It reports and never asserts.

    python bench/soak.py [--tree DIR] [--server shipped|waitress-tuned] [--seconds 600]
                         [--refusal-flood] [--serial-flood]
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import secrets
import select
import shutil
import signal
import statistics
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path
from urllib.parse import urlsplit

from common import add_tree_arguments, claimed, cpu_seconds, csrf, rss_kb, start_launcher, summary
from players import PLAYERS, AbracadaBot, LegalBot

MB = 1024.0  # kB per MB (VmRSS is in kB)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0].replace("\n", " "),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1],
    )
    add_tree_arguments(parser)
    parser.add_argument("--seconds", type=float, default=600.0, help="length (default 600)")
    parser.add_argument(
        "--rate",
        type=float,
        default=15.0,
        help="accepted actions per second, in total (default 15)",
    )
    parser.add_argument(
        "--warm-up",
        type=float,
        default=60.0,
        help="the first part not counted in growth and CPU/action (default 60 s)",
    )
    parser.add_argument("--sample-every", type=float, default=5.0, help="seconds (default 5)")
    parser.add_argument("--refusal-flood", action="store_true")
    parser.add_argument("--serial-flood", action="store_true")
    parser.add_argument(
        "--flood-from",
        type=float,
        default=0.25,
        help="when the floods start, as a fraction of --seconds (default 0.25)",
    )
    parser.add_argument(
        "--flood-to", type=float, default=0.75, help="when they stop (default 0.75)"
    )
    parser.add_argument(
        "--rss-limit",
        type=float,
        default=1536.0,
        help="MB of RSS at which the floods stop (default 1536)",
    )
    parser.add_argument(
        "--samples", type=Path, default=None, help="write every sample to this CSV file"
    )
    parser.add_argument(
        "--server-log",
        type=Path,
        default=None,
        help="keep the companion's log (its stderr) in this file",
    )
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument(
        "--game",
        default="abracadawhat",
        help="abracadawhat (default: a bot that never needs a die) or any other "
        "game, played from the rules' legal moves (dorktower: the larger "
        "snapshots)",
    )
    return parser.parse_args()


# -- the floods ----------------------------------------------------------------------------------


class RefusalFlood(threading.Thread):
    """Refused requests as fast as one client can send them, over kept-alive connections."""

    def __init__(self, base: str, bot: AbracadaBot):
        super().__init__(daemon=True, name="refusal flood")
        self.base, self.bot = base, bot
        self.stop = threading.Event()
        self.sent, self.errors = 0, 0
        self.statuses: dict[int, int] = {}

    def run(self) -> None:
        port = urlsplit(self.base).port
        conns = {kind: None for kind in ("join", "phone")}
        player = PLAYERS[-1]
        while not self.stop.is_set():
            for kind, source in (("join", "127.0.0.70"), ("phone", "127.0.0.71")):
                try:
                    if conns[kind] is None:
                        conns[kind] = http.client.HTTPConnection(
                            "127.0.0.1", port, timeout=10, source_address=(source, 0)
                        )
                    if kind == "join":
                        path, headers = f"/join/{secrets.token_urlsafe(16)}", {}
                    else:
                        link = self.bot.links[player]
                        path = urlsplit(link).path + "/api/action"
                        headers = {"X-CSRF-Token": csrf(link + "/api/action", 10, source)}
                    body = b"{}" if kind == "join" else b'{"type": "cast", "spell": 99}'
                    conns[kind].request(
                        "POST",
                        path,
                        body,
                        claimed(path, {"Content-Type": "application/json", **headers}),
                    )
                    response = conns[kind].getresponse()
                    response.read()
                    self.sent += 1
                    self.statuses[response.status] = self.statuses.get(response.status, 0) + 1
                    if response.will_close:
                        conns[kind].close()
                        conns[kind] = None
                except (OSError, http.client.HTTPException, ValueError, KeyError):
                    self.errors += 1
                    if conns[kind] is not None:
                        conns[kind].close()
                    conns[kind] = None
                    self.stop.wait(0.1)
        for conn in conns.values():
            if conn is not None:
                conn.close()


class SerialPort(threading.Thread):
    """A pty whose other end the companion reads as its dice port. Drains what the companion
    writes to it; while ``flooding`` is set, writes random garbage with newlines now and then."""

    def __init__(self, seed: int):
        super().__init__(daemon=True, name="serial flood")
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.flooding = threading.Event()
        self.stop = threading.Event()
        self.written = self.newlines = 0
        rng = random.Random(seed)
        self.chunks = []
        for _ in range(64):  # ready-made garbage, so the flood costs this script little
            chunk = bytearray(rng.randbytes(4096))
            for _ in range(rng.randint(20, 80)):
                chunk[rng.randrange(len(chunk))] = 0x0A
            self.chunks.append(bytes(chunk))

    def run(self) -> None:
        count = 0
        while not self.stop.is_set():
            writing = [self.master] if self.flooding.is_set() else []
            readable, writable, _ = select.select([self.master], writing, [], 0.2)
            try:
                if readable:
                    os.read(self.master, 65536)
                if writable:
                    chunk = self.chunks[count % len(self.chunks)]
                    done = os.write(self.master, chunk)
                    self.written += done
                    self.newlines += chunk[:done].count(b"\n")
                    count += 1
            except BlockingIOError:
                pass
            except OSError:  # the companion closed its end
                self.stop.wait(0.2)

    def close(self) -> None:
        self.stop.set()
        self.join(2)
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


# -- the soak ------------------------------------------------------------------------------------


class Sampler(threading.Thread):
    """Samples RSS, CPU seconds and the accepted actions every ``every`` seconds."""

    def __init__(self, pid: int, every: float, counters: dict, start: float):
        super().__init__(daemon=True, name="sampler")
        self.pid, self.every, self.counters, self.origin = pid, every, counters, start
        self.samples: list[dict] = []
        self.stop = threading.Event()
        self.sample()

    def sample(self) -> dict:
        try:
            row = {
                "t": time.monotonic() - self.origin,
                "rss_kb": rss_kb(self.pid),
                "cpu_s": cpu_seconds(self.pid),
                **self.counters,
            }
        except OSError:
            return {}
        self.samples.append(row)
        return row

    def run(self) -> None:
        next_at = self.origin + self.every
        while not self.stop.wait(max(0.0, next_at - time.monotonic())):
            self.sample()
            next_at += self.every


def at(samples: list[dict], t: float) -> dict:
    """The first sample at or after ``t`` seconds (the last one if none)."""
    return next((sample for sample in samples if sample["t"] >= t - 0.5), samples[-1])


def per_action(first: dict, last: dict) -> str:
    actions = last["accepted"] - first["accepted"]
    cpu = last["cpu_s"] - first["cpu_s"]
    seconds = last["t"] - first["t"]
    if actions <= 0 or seconds <= 0:
        return f"no accepted action between {first['t']:.0f} s and {last['t']:.0f} s"
    return (
        f"{cpu / actions * 1000:.2f} ms CPU per accepted action ({cpu:.1f} s CPU, {actions} "
        f"actions, {actions / seconds:.2f} actions/s, server CPU {cpu / seconds * 100:.0f}% "
        f"of a core) from {first['t']:.0f} s to {last['t']:.0f} s"
    )


def play(args, bot: AbracadaBot, counters: dict, start: float, floods: dict) -> dict:
    """The paced bot; starts and stops the floods; returns the action latencies per part."""
    interval = 1.0 / args.rate
    next_at = start
    refused_in_a_row = 0
    latencies: dict[str, list[float]] = {"before": [], "flood": [], "after": []}
    flood_from, flood_to = args.seconds * args.flood_from, args.seconds * args.flood_to
    flooding = False
    while (now := time.monotonic()) - start < args.seconds:
        elapsed = now - start
        if floods and not flooding and flood_from <= elapsed < flood_to and not counters["runaway"]:
            flooding = True
            for flood in floods.values():
                flood.go()
            print(f"[{elapsed:.0f} s] floods started", file=sys.stderr, flush=True)
        if flooding and (elapsed >= flood_to or counters["runaway"]):
            flooding = False
            for flood in floods.values():
                flood.halt()
            print(f"[{elapsed:.0f} s] floods stopped", file=sys.stderr, flush=True)
        if counters["runaway"] and counters.get("guard_rss_kb", 0) > 2 * args.rss_limit * MB:
            print(
                f"[{elapsed:.0f} s] RSS still above twice the limit: the run stops",
                file=sys.stderr,
                flush=True,
            )
            break
        if next_at > now:
            time.sleep(min(next_at - now, 0.5))
            continue
        started = any(flood.started is not None for flood in floods.values())
        part = "flood" if flooding else "after" if started else "before"
        try:
            if refused_in_a_row >= 20:  # stuck: start afresh
                refused_in_a_row = 0
                bot.new_game()
            began = time.perf_counter()
            move, accepted = bot.step()
            took = time.perf_counter() - began
        except (
            OSError,
            http.client.HTTPException,
            ValueError,
            KeyError,
            TypeError,
            RuntimeError,
        ) as exc:
            counters["errors"] += 1
            what = (
                "an answer that is not JSON (an error page)"
                if isinstance(exc, ValueError)
                else f"{type(exc).__name__}: {exc}"
            )
            print(f"[{elapsed:.0f} s] bot: {what}", file=sys.stderr, flush=True)
            time.sleep(0.5)
            continue
        if accepted:
            counters["accepted"] += 1
            latencies[part].append(took)
            refused_in_a_row = 0
            next_at = max(next_at + interval, time.monotonic() - 1.0)  # no burst after a stall
        elif move.kind != "new_game":
            counters["refused"] += 1
            refused_in_a_row += 1
    if flooding:
        for flood in floods.values():
            flood.halt()
    return latencies


class Flood:
    """Starts and stops one flood (``go``/``halt``) and says what it did."""

    def __init__(self, kind: str, base: str, bot: AbracadaBot, port: SerialPort | None):
        self.kind, self.base, self.bot, self.port = kind, base, bot, port
        self.thread: RefusalFlood | None = None
        self.started = self.stopped = None

    def go(self) -> None:
        self.started = time.monotonic()
        if self.kind == "refusal":
            self.thread = RefusalFlood(self.base, self.bot)
            self.thread.start()
        else:
            self.port.flooding.set()

    def halt(self) -> None:
        """Stop at once (the refusal flood's last request may still be waiting for its answer)."""
        self.stopped = time.monotonic()
        if self.kind == "refusal" and self.thread is not None:
            self.thread.stop.set()
        elif self.port is not None:
            self.port.flooding.clear()

    def report(self) -> str:
        if self.started is None:
            return "never started"
        seconds = (self.stopped or time.monotonic()) - self.started
        if self.kind == "refusal":
            flood = self.thread
            return (
                f"{flood.sent} refused requests in {seconds:.0f} s "
                f"({flood.sent / seconds:.0f}/s), statuses "
                f"{dict(sorted(flood.statuses.items()))}, {flood.errors} errors"
            )
        port = self.port
        return (
            f"{port.written / 1e6:.1f} MB of garbage with {port.newlines} newlines in "
            f"{seconds:.0f} s ({port.written / seconds / 1e3:.0f} kB/s, "
            f"{port.newlines / seconds:.0f} lines/s)"
        )


def sizes_report(streams) -> str:
    sizes = sorted(size for stream in streams for size in stream.sizes)
    if not sizes:
        return "no snapshot received"
    median = statistics.median(sizes)
    players = [size for stream in streams[:5] for size in stream.sizes] or [0]
    tables = [size for stream in streams[6:] for size in stream.sizes] or [0]
    line = (
        f"{len(sizes)} snapshots: min {sizes[0]} B, median {median:.0f} B, max {sizes[-1]} B "
        f"(players' median {statistics.median(players):.0f} B, tables' "
        f"{statistics.median(tables):.0f} B)"
    )
    if median < 8192:
        line += "; SMALLER than the goal's 8 KB snapshots"
    return line


def main() -> int:
    args = parse_args()
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(1))  # still stop the companion
    work = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    port = SerialPort(args.seed) if args.serial_flood else None
    if port is not None:
        port.start()
    launched = start_launcher(
        args.tree,
        work / "data",
        server=args.server,
        python=args.python,
        threads=args.threads,
        dice_port=port.path if port else None,
        stderr_path=args.server_log or work / "companion.log",
    )
    streams = []
    counters = {"accepted": 0, "refused": 0, "errors": 0, "runaway": False}
    try:
        bot = (
            AbracadaBot(launched.base, launched.host, seed=args.seed)
            if args.game == "abracadawhat"
            else LegalBot(launched.base, launched.host, args.game, seed=args.seed)
        )
        bot.new_game()
        streams = bot.open_streams()
        for stream in streams:
            stream.snapshot_at_least(0, 10)
        floods = {}
        if args.refusal_flood:
            floods["refusal"] = Flood("refusal", launched.base, bot, None)
        if args.serial_flood:
            floods["serial"] = Flood("serial", launched.base, bot, port)
        print(
            f"RESULT soak setup: tree {args.tree.name}, server {args.server}, game {args.game}, "
            f"{args.seconds:.0f} s at {args.rate:g} accepted actions/s, 8 streams, floods: "
            f"{', '.join(floods) or 'none'}"
            + (
                f" from {args.seconds * args.flood_from:.0f} s to "
                f"{args.seconds * args.flood_to:.0f} s"
                if floods
                else ""
            )
            + f", load average {os.getloadavg()[0]:.2f}",
            flush=True,
        )
        start = time.monotonic()
        sampler = Sampler(launched.pid, args.sample_every, counters, start)
        sampler.start()

        def guard() -> None:  # the floods stop if the companion's memory runs away
            while not sampler.stop.wait(1.0):
                try:
                    rss = rss_kb(launched.pid)
                except OSError:
                    return
                if rss > args.rss_limit * MB:
                    counters["runaway"] = True
                    counters["guard_rss_kb"] = rss

        threading.Thread(target=guard, daemon=True).start()
        latencies = play(args, bot, counters, start, floods)
        sampler.stop.set()
        sampler.join()
        sampler.sample()
        report(args, sampler.samples, latencies, floods, streams, bot, counters, start, work)
    finally:
        for stream in streams:
            stream.close()
        code = launched.stop()
        print(f"companion stopped (exit {code})", file=sys.stderr)
        if port is not None:
            port.close()
        shutil.rmtree(work, ignore_errors=True)
    return 0


def report(args, samples, latencies, floods, streams, bot, counters, origin, work) -> None:
    if args.samples:
        keys = ["t", "rss_kb", "cpu_s", "accepted", "refused", "errors", "runaway"]
        with open(args.samples, "w") as out:
            out.write(",".join(keys) + "\n")
            out.writelines(
                ",".join(f"{sample[key]:.1f}" if key == "t" else str(sample[key]) for key in keys)
                + "\n"
                for sample in samples
            )
    first, last = samples[0], samples[-1]
    warm = at(samples, args.warm_up)
    later = [sample["rss_kb"] for sample in samples if sample["t"] >= warm["t"]]

    def mb(kb: float) -> str:
        return f"{kb / MB:.1f} MB"

    print(
        f"RESULT soak RSS: start {mb(first['rss_kb'])}, at {warm['t']:.0f} s "
        f"{mb(warm['rss_kb'])}, after it max {mb(max(later))} min {mb(min(later))}, end "
        f"({last['t']:.0f} s) {mb(last['rss_kb'])}; growth after the first {warm['t']:.0f} s "
        f"{mb(last['rss_kb'] - warm['rss_kb'])} (max - at {warm['t']:.0f} s: "
        f"{mb(max(later) - warm['rss_kb'])}); "
        f"end - start {mb(last['rss_kb'] - first['rss_kb'])}"
    )
    print(f"RESULT soak CPU after the first {warm['t']:.0f} s: {per_action(warm, last)}")
    seconds = last["t"] - first["t"]
    print(
        f"RESULT soak actions: {last['accepted']} accepted in {seconds:.0f} s "
        f"({last['accepted'] / seconds:.2f}/s, asked {args.rate:g}/s); bot moves refused "
        f"{counters['refused']}, bot errors {counters['errors']}, games {bot.games}, "
        f"stream fallbacks {bot.fallbacks}"
        + (
            "; refused moves: "
            + ", ".join(f"{why} x{times}" for why, times in bot.refusals.most_common(5))
            if bot.refusals
            else ""
        )
    )
    parts = (
        latencies.items()
        if floods
        else [("whole run", [value for values in latencies.values() for value in values])]
    )
    for part, values in parts:
        if values:
            label = (
                part
                if not floods
                else f"{part} the floods"
                if part != "flood"
                else "during the floods"
            )
            print(
                f"RESULT soak accepted action's request latency ({label}, bot's view of the "
                f"game included): {summary(values)}"
            )
    print(f"RESULT soak snapshot sizes: {sizes_report(streams)}")
    print(
        "RESULT soak streams: "
        + ", ".join(
            f"{stream.label} opened {stream.connects} broken {stream.failures}"
            for stream in streams
        )
    )
    ran = [flood for flood in floods.values() if flood.started is not None]
    if floods and not ran:
        print("RESULT soak floods: never started")
    if ran:  # as the floods really ran: the RSS guard may have stopped them early
        begin = min(flood.started for flood in ran) - origin
        end = max(flood.stopped or origin + last["t"] for flood in ran) - origin
        before, during_start, stop = at(samples, begin), at(samples, begin + 1), at(samples, end)
        during = [sample for sample in samples if begin <= sample["t"] <= end + args.sample_every]
        print(
            f"RESULT soak floods from {begin:.0f} s to {end:.0f} s: RSS at their start "
            f"{mb(before['rss_kb'])}, max while on "
            f"{mb(max(sample['rss_kb'] for sample in during))}, at their end "
            f"{mb(stop['rss_kb'])}, at the end {mb(last['rss_kb'])}: end - start of the run "
            f"{mb(last['rss_kb'] - first['rss_kb'])}"
            + ("; RSS RAN AWAY past the limit, floods stopped early" if counters["runaway"] else "")
        )
        print(f"RESULT soak CPU before the floods: {per_action(warm, before)}")
        print(f"RESULT soak CPU during the floods: {per_action(during_start, stop)}")
        print(f"RESULT soak CPU after the floods: {per_action(stop, last)}")
        for kind, flood in floods.items():
            print(f"RESULT soak {kind} flood: {flood.report()}")
    data = sum(file.stat().st_size for file in (work / "data").glob("companion.db*"))
    log = args.server_log or work / "companion.log"
    size = log.stat().st_size / 1e6 if log.exists() else 0.0
    print(f"RESULT soak disk: database {data / 1e6:.1f} MB, server log {size:.1f} MB")
    print(
        f"RESULT soak end: load average {os.getloadavg()[0]:.2f} "
        f"(1 min), {os.getloadavg()[2]:.2f} (15 min)"
    )


if __name__ == "__main__":
    sys.exit(main())
