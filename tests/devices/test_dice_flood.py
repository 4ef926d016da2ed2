"""A dice reader that floods the host: its noise is counted and summed up, its lines are parsed
within a budget, and the driver's memory stays flat whatever it sends.

Each test plays a misbehaving reader on a pty (``dice_pty``) and writes to the master side as
fast as the pty takes it, far faster than the 115200-baud line of a real reader allows. Once a
second's budget is spent the driver reads nothing until the next second, so the writer soon
waits on a full pty (as a real reader's USB buffer would fill): a flood costs the host no CPU.
"""

from __future__ import annotations

import math
import os
import random
import select
import time
import tracemalloc

import pytest
from dice_pty import (  # noqa: F401 (connect, open_readers, pty and ready are fixtures)
    Pty,
    connect,
    open_readers,
    pty,
    ready,
    roll,
    summary,
)

from companion.devices.dice import (
    MAX_BYTES_PER_SECOND,
    MAX_LINES_PER_SECOND,
    NOISE_REPORT_INTERVAL,
    SerialDiceReader,
)
from companion.devices.dice_protocol import MAX_LINE_LENGTH, ProtocolError, parse_line
from companion.devices.events import DeviceNoise, DieRolled

SEED = 20_250_101
FLOOD_SECONDS = 2.0  # how long a flood lasts at most
FLOOD_BYTES = 8 << 20  # and how much it writes at most
MEMORY_PEAK = 4 << 20  # bytes the driver may allocate at once while flooded (old: hundreds of MB)
MEMORY_LEFT = 256 << 10  # bytes it may still hold once the flood is over
PTY_SLACK = 256 << 10  # what a pty buffers while the driver waits out a flooded second


def garbage(rng: random.Random, size: int) -> bytes:
    """About ``size`` bytes of lines no parser accepts, each ended by a newline: random bytes,
    printable lines that look like the protocol, empty lines, and a few over-long runs; about 60
    bytes a line. No ``\\r``, so that the driver counts every byte but the newlines."""
    lines = []
    total = 0
    while total < size:
        kind = rng.random()
        if kind < 0.05:
            body = b""
        elif kind < 0.6:
            body = rng.randbytes(rng.randrange(1, 80))
        elif kind < 0.99:
            body = f"ROLL {rng.randrange(70_000)} die={rng.randrange(9)}*{rng.randrange(256):02X}".encode()
        else:
            body = rng.randbytes(rng.randrange(MAX_LINE_LENGTH + 1, 5_000))
        body = body.replace(b"\n", b"?").replace(b"\r", b"?")
        try:
            parse_line(body)
            continue  # a valid line by chance: not garbage
        except ProtocolError:
            pass
        lines.append(body + b"\n")
        total += len(body) + 1
    return b"".join(lines)


GARBAGE = garbage(random.Random(SEED), 1 << 20)


def flood(pty: Pty, data: bytes, *, seconds: float, limit: int) -> tuple[int, float]:
    """Write ``data`` to the reader's side over and over, as fast as the pty takes it, until
    ``limit`` bytes are written or ``seconds`` are over; the bytes written and the seconds."""
    view = memoryview(data)
    written = offset = 0
    started = time.monotonic()
    os.set_blocking(pty.master, False)
    try:
        while written < limit and time.monotonic() - started < seconds:
            select.select([], [pty.master], [], 0.05)
            try:
                count = os.write(pty.master, view[offset : offset + limit - written])
            except BlockingIOError:
                continue
            written += count
            offset = (offset + count) % len(data)
    finally:
        os.set_blocking(pty.master, True)
    return written, time.monotonic() - started


def noise_of(events: list[object]) -> list[DeviceNoise]:
    return [event for event in events if isinstance(event, DeviceNoise)]


def test_a_garbage_flood_is_told_a_few_times_and_memory_stays_flat(pty, ready, events) -> None:
    reader = ready()
    began = time.monotonic()
    tracemalloc.start()
    try:
        baseline = tracemalloc.get_traced_memory()[0]
        written, seconds = flood(pty, GARBAGE, seconds=FLOOD_SECONDS, limit=FLOOD_BYTES)
        # Within the flood's last second input is discarded; then a cut line is dropped (0.2 s).
        time.sleep(1.0 + 0.3)
        pty.write(roll(2, 0, 1, 5))
        before, rolled = events.until(lambda event: isinstance(event, DieRolled))
        left, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # A genuine roll after the flood is delivered.
    assert rolled == DieRolled(0, "5", 2, roll=1, profile="d6")
    # Megabytes were sent, but the noise was told at most once a second (plus the first).
    time.sleep(NOISE_REPORT_INTERVAL + 0.3)  # a summary still due is told
    told = noise_of(before) + noise_of(events.pending())
    assert written > MAX_LINES_PER_SECOND * 30  # more than a second's budget of lines came
    # the driver does not keep up with a flood: past the budget it stops reading (no CPU spent)
    assert written < (MAX_BYTES_PER_SECOND + PTY_SLACK) * (math.ceil(seconds) + 1)
    assert 2 <= len(told) <= (time.monotonic() - began) / NOISE_REPORT_INTERVAL + 1
    assert peak - baseline < MEMORY_PEAK
    assert left - baseline < MEMORY_LEFT
    # Lines were parsed within the budget, the rest was discarded unparsed, and all counted.
    totals = reader.noise_totals()
    assert totals.lines <= MAX_LINES_PER_SECOND * (math.ceil(seconds) + 1)
    assert totals.flooded > 0 and totals.kinds["flood"] >= 1
    assert any("flooded: " in noise.detail for noise in told)
    assert totals.bytes == written - totals.lines + totals.kinds.get("incomplete line", 0)
    assert (reader.noise_lines, reader.noise_bytes) == (totals.lines, totals.bytes)


def test_a_flood_of_valid_rolls_is_parsed_within_budget(pty, ready, events) -> None:
    reader = ready()
    count = 20_000  # ROLL lines, seq 2 onwards, each a roll after the one before
    lines = b"".join(roll(1 + number, 0, number, number % 6 + 1) for number in range(1, count + 1))
    written, seconds = flood(pty, lines, seconds=2 * FLOOD_SECONDS, limit=len(lines))
    time.sleep(1.0 + 0.3)  # the flooded second ends
    pty.write(roll(2 + count, 1, 1, 3))  # another die: still heard
    before, rolled = events.until(lambda event: isinstance(event, DieRolled) and event.die == 1)
    rolls = [event for event in before if isinstance(event, DieRolled)]
    assert written >= MAX_LINES_PER_SECOND * 20  # over a second's budget of lines came
    assert 0 < len(rolls) <= MAX_LINES_PER_SECOND * (math.ceil(seconds) + 1) < count
    assert [event.roll for event in rolls] == sorted({event.roll for event in rolls})
    assert rolled == DieRolled(1, "3", 2 + count, roll=1, profile="d6")
    totals = reader.noise_totals()
    assert totals.kinds["flood"] >= 1 and totals.flooded > 0
    # Every line was parsed or discarded unparsed, and the sequence numbers account for the
    # discarded ones (a parsed roll may be stale: its number jumped over the discarded ones).
    assert totals.missed == count - len(rolls) - totals.kinds.get("stale roll", 0)


def test_a_byte_flood_without_newlines_is_budgeted_too(pty, connect, events) -> None:
    """One endless line: the splitter keeps none of it, and past the byte budget it is not even
    looked at."""
    reader = connect(line_budget=10**9)  # only the byte budget applies
    written, seconds = flood(pty, b"x" * (1 << 20), seconds=FLOOD_SECONDS, limit=FLOOD_BYTES)
    time.sleep(1.0 + 0.3)
    totals = reader.noise_totals()
    assert written > MAX_BYTES_PER_SECOND  # past the budget...
    assert written < (MAX_BYTES_PER_SECOND + PTY_SLACK) * (math.ceil(seconds) + 1)  # ...no more
    assert totals.flooded > 0
    assert totals.bytes == written  # parsed (and dropped as incomplete) or discarded unparsed


def test_noise_is_told_at_once_after_a_quiet_spell_and_else_summed_up(pty, ready, events) -> None:
    reader = ready(noise_interval=0.5)
    pty.write(b"\xff first\n" + b"bad\n" + b"\n" + b"R" * 300 + b"\n")
    assert events.get() == DeviceNoise(
        "dice", "rejected line: non-ASCII byte 0xFF at offset 0: b'\\xff first'"
    )
    started = time.monotonic()
    assert events.get() == DeviceNoise(
        "dice",
        summary(
            "rejected line: no checksum: the line does not end in '*HH': b'bad'",
            lines=3,
            size=3 + 0 + 300,
        ),
    )
    assert 0.2 < time.monotonic() - started < 0.5 + 1.0  # not at once: when the interval ends
    time.sleep(0.6)  # quiet: the next one is told at once, on its own
    pty.write(b"bad again\n" + roll(2, 0, 1, 4))
    assert events.get() == DeviceNoise(
        "dice", "rejected line: no checksum: the line does not end in '*HH': b'bad again'"
    )
    assert events.get() == DieRolled(0, "4", 2, roll=1, profile="d6")
    assert events.pending() == []
    totals = reader.noise_totals()
    assert (totals.lines, totals.bytes, totals.kinds) == (
        5,
        7 + 3 + 0 + 300 + 9,
        {"rejected line": 5},
    )


def test_the_last_summary_is_told_when_the_port_closes(pty, ready, events) -> None:
    reader = ready(noise_interval=60)
    pty.write(b"one\ntwo\nthree\n")
    assert (
        events.get().detail == "rejected line: no checksum: the line does not end in '*HH': b'one'"
    )
    reader.close()
    assert events.get() == DeviceNoise(
        "dice",
        summary(
            "rejected line: no checksum: the line does not end in '*HH': b'two'", lines=2, size=8
        ),
    )


@pytest.mark.parametrize("interval", [0, -1])
def test_a_noise_interval_must_be_positive(interval: float, events) -> None:
    with pytest.raises(ValueError, match="noise_interval"):
        SerialDiceReader("/nonexistent", events.emit, noise_interval=interval)
