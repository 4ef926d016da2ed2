"""Fault injection: the dice reader's host driver under a megabyte of garbage and re-plugging.

The test plays a reader on a pty behind a stable path, as ``/dev/serial/by-id`` gives one. A
seeded generator writes valid lines (rolls, die states, power reports, verbs from a newer
protocol) mixed with garbage: random bytes, over-long runs, empty lines, lines with one byte
flipped, lines cut short, and lines left incomplete until the driver gives up on them; and with
well-formed lies: dice the reader never declared, faces its dice do not have, forged roll numbers.
It writes in random-size chunks, so lines are split across writes, and every ~100 kB it unplugs
the reader and plugs it back in, sometimes as a restarted board. The generator keeps its own
account of what the driver must report, and the test compares that with what the driver did:
every roll, and the noise counted line by line and byte by byte in ``noise_totals()``, while the
noise events stay a handful per second.

The driver's parse budget is lifted here: this test writes far faster than any reader, and what
it checks is the accounting of faults, not floods (``test_dice_flood.py`` does those).

The generator is in ``dice_faults_generator.py``; ``test_dice_faults_parser.py`` feeds the
parser path any bytes.
"""

from __future__ import annotations

import errno
import os
import random
import select
import threading
import time
import tty
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from dice_faults_generator import (
    DICE,
    DIE_PROFILES,
    GARBAGE_TOTAL,
    NAME,
    NO_BUDGET,
    NOISE_DETAILS,
    PROFILES,
    SEED,
    SUMMARY,
    WAIT,
    FaultyReader,
    Pause,
)

from companion.devices.dice import NOISE_REPORT_INTERVAL, SerialDiceReader
from companion.devices.dice_protocol import Message, parse_line
from companion.devices.events import DeviceNoise, DeviceStatus, DieRolled, DieState


@dataclass
class Observed:
    """What the driver reported, sorted the same way; its noise comes from ``noise_totals()``."""

    reader: SerialDiceReader
    rolls: list[DieRolled] = field(default_factory=list)
    noise_events: list[DeviceNoise] = field(default_factory=list)
    states: int = 0
    power: int = 0
    hellos: list[str] = field(default_factory=list)
    links: list[DeviceStatus] = field(default_factory=list)  # connected, lost, closed
    unexpected: list[object] = field(default_factory=list)

    def add(self, event: object) -> None:
        if isinstance(event, DieRolled):
            self.rolls.append(event)
        elif isinstance(event, DieState):
            self.states += 1
        elif isinstance(event, DeviceNoise) and event.device == NAME:
            summary = SUMMARY.match(event.detail)
            single = summary[1] if summary else event.detail
            if summary is None and not any(
                pattern.match(single) for pattern in NOISE_DETAILS.values()
            ):
                self.unexpected.append(event)
            self.noise_events.append(event)
        elif isinstance(event, DeviceStatus) and event.device == NAME:
            if event.detail.startswith("power: "):
                self.power += 1
            elif event.detail.startswith("reader firmware "):
                self.hellos.append(event.detail)
            elif event.detail.startswith(("connected on ", "lost ")) or event.detail == "closed":
                self.links.append(event)
            else:
                self.unexpected.append(event)
        else:
            self.unexpected.append(event)

    def counts(self) -> tuple[object, ...]:
        totals = self.reader.noise_totals()
        return (
            len(self.rolls),
            sorted(totals.kinds.items()),
            totals.lines,
            totals.bytes,
            totals.missed,
            self.states,
            self.power,
            len(self.hellos),
        )


class Wire:
    """The reader's end of a pty behind ``link``, written without ever blocking for long."""

    def __init__(self, link: Path, rng: random.Random) -> None:
        self.rng = rng
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.host = b""  # what the driver wrote
        link.symlink_to(os.ttyname(self.slave))

    def _read_host(self) -> None:
        try:
            self.host += os.read(self.master, 4096)
        except BlockingIOError:
            pass
        except OSError as error:  # EIO: the driver has closed its end for now
            if error.errno != errno.EIO:
                raise

    def write(self, data: bytes, deadline: float) -> None:
        """Write ``data`` in random-size chunks, reading whatever the driver writes meanwhile."""
        view = memoryview(data)
        while view:
            if time.monotonic() > deadline:
                pytest.fail(f"the driver stopped reading: {len(view)} bytes left to write")
            readable, writable, _ = select.select([self.master], [self.master], [], 0.5)
            if readable:
                self._read_host()
            if writable:
                size = self.rng.choice(
                    [
                        self.rng.randrange(1, 16),
                        self.rng.randrange(16, 512),
                        self.rng.randrange(512, 4096),
                    ]
                )
                try:
                    view = view[os.write(self.master, view[:size]) :]
                except BlockingIOError:
                    pass

    def host_message(self, timeout: float = 3.0) -> Message:
        """The next line the driver wrote, parsed."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.host:
            left = deadline - time.monotonic()
            if left <= 0:
                pytest.fail(f"the driver wrote no line within {timeout} s")
            if select.select([self.master], [], [], left)[0]:
                self._read_host()
        line, self.host = self.host.split(b"\n", 1)
        return parse_line(line)

    def unplug(self, link: Path) -> None:
        """Pull the cable: the stable path goes, and so does the reader's end."""
        link.unlink()
        os.close(self.master)
        self.master = -1

    def close(self) -> None:
        if self.master >= 0:
            os.close(self.master)
            self.master = -1
        os.close(self.slave)


def test_a_megabyte_of_faults_and_replugging_loses_no_roll_and_invents_none(
    tmp_path: Path, events, no_leaked_fds
) -> None:
    rng = random.Random(SEED)
    link = tmp_path / "usb-MicroPython_Board_in_FS_mode_e6613893-if00"
    reader_side = FaultyReader(rng)
    wires = [Wire(link, rng)]
    began = time.monotonic()
    reader = SerialDiceReader(
        str(link), events.emit, name=NAME, reconnect_interval=0.05, **NO_BUDGET
    )
    observed = Observed(reader)
    for die, profile in enumerate(DIE_PROFILES):  # the driver sends them after every HELLO
        if die:
            faces = tuple(label for label, _, _ in PROFILES[profile])
            reader.set_profile(die, profile, faces if profile == "custom" else None)
    host_commands: list[list[Message]] = []

    def collect() -> None:
        for event in events.pending():
            observed.add(event)

    def catch_up(what: str, counts: tuple[object, ...]) -> None:
        """Wait until the driver has reported what the generator ``counts`` so far."""
        deadline = time.monotonic() + WAIT
        collect()
        while observed.counts() != counts:
            if time.monotonic() > deadline:
                assert observed.counts() == counts, what
            time.sleep(0.01)
            collect()

    def greet(new_boot: bool) -> None:
        """Answer the driver's HELLO, and check what it asks of the reader after it."""
        wire = wires[-1]
        assert wire.host_message() == Message("HELLO", 0, {"proto": "1"})
        reader_side.plugged()
        reader_side.parts = []
        reader_side.hello(new_boot)
        wire.write(b"".join(reader_side.parts), time.monotonic() + WAIT)  # type: ignore[arg-type]
        host_commands.append([wire.host_message() for _ in range(DICE)])

    try:
        greet(new_boot=False)  # the reader has been up for a while
        plugs, part = 0, 0
        while reader_side.garbage_bytes < GARBAGE_TOTAL:
            for piece in reader_side.part(pause=part % 3 == 0):
                deadline = time.monotonic() + WAIT
                if isinstance(piece, Pause):
                    wires[-1].write(piece.prefix, deadline)
                    catch_up("an incomplete line", piece.counts)  # after 0.2 s without a byte
                else:
                    wires[-1].write(piece, deadline)
            catch_up(f"part {part}", reader_side.expected.counts())
            part += 1
            if reader_side.garbage_bytes >= GARBAGE_TOTAL:
                break
            # Unplug, and plug back in: every other time as a restarted board.
            wires[-1].unplug(link)
            deadline = time.monotonic() + WAIT
            while not any(status.detail.startswith("lost") for status in observed.links[-1:]):
                assert time.monotonic() < deadline, "the driver did not see the reader go"
                time.sleep(0.01)
                collect()
            assert not reader.connected
            wires.append(Wire(link, rng))
            plugs += 1
            greet(new_boot=plugs % 2 == 1)
            assert reader.wait_ready(WAIT)
        collect()
        assert reader.connected
        assert [
            thread
            for thread in threading.enumerate()
            if thread.name == f"dice reader {NAME}" and thread.is_alive()
        ]
    finally:
        reader.close()
        for wire in wires:
            wire.close()
    elapsed = time.monotonic() - began
    collect()

    expected = reader_side.expected
    assert reader_side.garbage_bytes >= GARBAGE_TOTAL
    assert observed.unexpected == []
    # Every valid roll exactly once, in order, and nothing else.
    assert len(expected.rolls) > 1000
    assert observed.rolls == expected.rolls
    # ... including roll numbers delivered again after the reader restarted
    assert len({(roll.die, roll.roll) for roll in expected.rolls}) < len(expected.rolls)
    # ... and rolls numbered far ahead, the host having missed thousands, vouched by ROLLING
    assert any(roll.roll > 2000 for roll in expected.rolls)
    # Every corrupt line counted, each kind of noise on its own, byte by byte.
    assert expected.noise["rejected line"] > 2000 and expected.noise["incomplete line"] >= 3
    assert (
        min(
            expected.noise[kind]
            for kind in ("stale roll", "malformed", "undeclared die", "wrong face", "reader error")
        )
        > 10
    )
    assert len(expected.gaps) > 100 and max(expected.gaps) > 1
    totals = reader.noise_totals()
    assert totals.kinds == dict(expected.noise)
    assert (totals.lines, totals.bytes, totals.missed, totals.flooded) == (
        expected.noise_lines,
        expected.noise_bytes,
        sum(expected.gaps),
        0,
    )
    # ... and told in a handful of reports: at most one a second, and one as each connection ends
    occurrences = sum(expected.noise.values())
    assert 0 < len(observed.noise_events) <= elapsed / NOISE_REPORT_INTERVAL + 1 + (plugs + 1)
    assert occurrences > 50 * len(observed.noise_events)
    assert (observed.states, observed.power) == (expected.states, expected.power)
    # Each re-plug: lost, then connected; a restarted board is shown as such.
    assert plugs >= 9
    assert observed.hellos == expected.hellos
    assert sum(hello.endswith(", restarted") for hello in observed.hellos) == (plugs + 1) // 2
    assert [(status.connected, status.detail.split(" ")[0]) for status in observed.links] == (
        [(True, "connected")] + [(False, "lost"), (True, "connected")] * plugs + [(False, "closed")]
    )
    # After every HELLO the driver gave the reader its profiles back and asked its status.
    assert host_commands == [
        [
            Message("PROFILE", 1, {"die": "1", "name": "battle"}),
            Message("PROFILE", 2, {"die": "2", "name": "triwizard"}),
            Message("PROFILE", 3, {"die": "3", "name": "rotation"}),
            Message(
                "PROFILE",
                4,
                {"die": "4", "name": "custom", "faces": "red,gold.coin,7,skull-2,Z_z,0"},
            ),
            Message("STATUS", 5, {}),
        ]
    ] * (plugs + 1)
