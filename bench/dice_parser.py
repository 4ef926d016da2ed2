"""How many dice reader lines per second the host parses (goal: far above the 115200-baud line's
ceiling of about 300 lines/s, so the parser is never the bottleneck on a Pi), and what one
accelerometer sample costs the firmware logic.

Three figures: the bare codec (``LineSplitter`` + ``parse_line``, the firmware's own code) over a
realistic mix of reader lines fed in 4 KB chunks; the whole host driver path
(``SerialDiceReader._handle``: parsing, sequence check, dedup, event objects) with events dropped;
and the firmware ``Reader`` fed synthetic traces of two dice (throws, crooked throws, dice set down
by hand, bumps), in microseconds per sample under CPython (a Pico is much slower; not measured).

    python bench/dice_parser.py [--lines 200000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import common  # noqa: F401  (puts the project on sys.path)

from companion.devices.dice import SerialDiceReader
from companion.devices.dice_protocol import LineSplitter, encode, parse_line


def stream(n: int, rng: random.Random) -> bytes:
    """``n`` reader lines: rolls and their MOVING/ROLLING, some PLACED, DIE and POWER."""
    out, seq, roll = [], 0, 0
    while len(out) < n:
        die = rng.randrange(2)
        roll += 1
        face = rng.randint(1, 6)
        for verb, fields in (
            ("MOVING", {"die": die}),
            ("ROLLING", {"die": die, "roll": roll}),
            ("ROLL", {"die": die, "roll": roll, "face": face, "profile": "d6", "value": face}),
        ):
            out.append(encode(verb, seq % 65536, **fields))
            seq += 1
        if rng.random() < 0.1:
            out.append(
                encode(
                    "DIE",
                    seq % 65536,
                    die=die,
                    state="rest",
                    profile="d6",
                    faces="1,2,3,4,5,6",
                    face=face,
                    led=1,
                )
            )
            seq += 1
    return b"".join(out[:n])


class _Driver(SerialDiceReader):
    """The real driver's line handling, without a port or a thread."""

    def __init__(self) -> None:  # deliberately not starting the reader thread
        import threading

        from companion.devices.dice_protocol import SequenceTracker

        self.name, self.port, self.info = "bench", "-", {}
        self._emit = lambda event: None
        self._lock = threading.Lock()
        self._tracker = SequenceTracker()
        self._waiting, self._last_roll, self._boot = {}, {}, None


def firmware() -> list[float]:
    from companion.devices.dice_world import World
    from companion_dice.reader import Reader

    world = World(2, seed=3)
    samples = world.rest(500)  # the dice lie still at power-on
    for n in range(40):
        samples += world.throw({0: n % 6, 1: (n * 5) % 6})
        samples += world.throw_crooked(n % 2)
        samples += world.place(n % 2, (n * 2) % 6)
        samples += world.bump()
    runs = []
    for _ in range(5):
        reader = Reader(dice=2, boot="bench")
        reader.boot(0)
        t0 = time.perf_counter()
        for die, t, x, y, z in samples:
            reader.sample(die, t, x, y, z)
        runs.append((time.perf_counter() - t0) / len(samples) * 1e6)
        rolls = reader.take_output().count(b"\nROLL ")
        assert rolls == 80, rolls
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=200_000)
    args = parser.parse_args()
    data = stream(args.lines, random.Random(1))
    chunks = [data[i : i + 4096] for i in range(0, len(data), 4096)]
    codec, driver = [], []
    for _ in range(5):
        splitter = LineSplitter()
        t0 = time.perf_counter()
        count = 0
        for chunk in chunks:
            for line in splitter.feed(chunk):
                parse_line(line)
                count += 1
        codec.append(count / (time.perf_counter() - t0))
        assert count == args.lines
        handler, splitter = _Driver(), LineSplitter()
        t0 = time.perf_counter()
        for chunk in chunks:
            for line in splitter.feed(chunk):
                handler._handle(line)
        driver.append(args.lines / (time.perf_counter() - t0))
    print(
        f"RESULT codec (split + parse): median {statistics.median(codec):,.0f} lines/s "
        f"(min {min(codec):,.0f}, max {max(codec):,.0f}; 5 x {args.lines:,} lines, "
        f"{len(data) / args.lines:.0f} bytes/line)"
    )
    print(
        f"RESULT firmware Reader under CPython: median {statistics.median(firmware()):.1f} "
        f"us per accelerometer sample (5 runs)"
    )
    print(
        f"RESULT host driver (parse, sequence, dedup, events): median "
        f"{statistics.median(driver):,.0f} lines/s (min {min(driver):,.0f}, "
        f"max {max(driver):,.0f})"
    )


if __name__ == "__main__":
    main()
