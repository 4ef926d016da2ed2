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
"""

from __future__ import annotations

import errno
import os
import random
import re
import select
import threading
import time
import tty
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.devices.dice import NOISE_REPORT_INTERVAL, SerialDiceReader
from companion.devices.dice_protocol import (
    MAX_LINE_LENGTH,
    SEQ_MODULUS,
    LineSplitter,
    Message,
    ProtocolError,
    encode,
    parse_line,
)
from companion.devices.events import DeviceNoise, DeviceStatus, DieRolled, DieState

SEED = 20_240_611
GARBAGE_TOTAL = 1 << 20  # bytes of random garbage lines, over the whole run
REPLUG_EVERY = 100_000  # bytes of garbage between two unplugs
NAME = "fault dice"
WAIT = 10.0  # seconds the driver gets to catch up with what was written
NO_BUDGET = {"line_budget": 10**9, "byte_budget": 10**12}  # see the module docstring

#: face labels, values and "roll again" of the profiles the generator rolls
PROFILES: dict[str, list[tuple[str, int | None, bool]]] = {
    "d6": [(str(n), n, False) for n in range(1, 7)],
    "triwizard": [("CLOAK", 0, False)] + [(str(n), n, False) for n in range(1, 6)],
    "battle": [
        ("1", 1, False),
        ("2", 2, False),
        ("2P", 2, True),
        ("3", 3, False),
        ("4", 4, False),
        ("5", 5, False),
    ],
    "rotation": [
        (label, None, False) for label in ("ice", "forest", "desert", "lake", "mountain", "meadow")
    ],
    # a custom die whose reader leaves the value out: the driver derives it from "7"
    "custom": [
        ("red", None, False),
        ("gold.coin", None, False),
        ("7", None, False),
        ("skull-2", None, False),
        ("Z_z", None, False),
        ("0", None, False),
    ],
}
#: the profile the host asks for each die the reader declares (die 0 keeps the default d6)
DIE_PROFILES = ("d6", "battle", "triwizard", "rotation", "custom")
DICE = len(DIE_PROFILES)

#: the details the driver gives a piece of noise it tells on its own, by the kind it counts
NOISE_DETAILS = {
    "rejected line": re.compile(r"rejected line: "),
    "incomplete line": re.compile(r"incomplete line discarded: \d+ bytes"),
    "sequence gap": re.compile(r"sequence gap: \d+ message\(s\) missed before seq \d+$"),
    "stale roll": re.compile(
        r"ROLL \d+ ignored: die \d+ roll \d+ (was already delivered$|is "
        r"neither within \d+ after roll \d+)"
    ),
    "malformed": re.compile(r"ROLL \d+ rejected: "),
    "undeclared die": re.compile(r"(ROLL|MOVING) \d+ ignored: die \d+ is not one of the 5 dice"),
    "wrong face": re.compile(r"ROLL \d+ ignored: die \d+(?: reads profile|: it was read|: value)"),
    "reader error": re.compile(r"reader reports error line: "),
}
SUMMARY = re.compile(r"noise in the last \d+\.\d s: .*; first: (.*)$")


def noise_size(body: bytes, ending: bytes) -> int:
    """The bytes the driver counts for a rejected line: what its line splitter hands over (an
    over-long line's every byte before the newline; else the line without its ending)."""
    before_newline = body + ending[:-1]
    if len(before_newline) > MAX_LINE_LENGTH + 1:
        return len(before_newline)
    return len(before_newline) - before_newline.endswith(b"\r")


@dataclass
class Pause:
    """Write ``prefix`` (part of a line, no newline) and wait until the driver drops it.

    ``counts`` is what the driver must have reported by then (``Expected.counts()``).
    """

    prefix: bytes
    counts: tuple[object, ...]


@dataclass
class Expected:
    """What the driver must report, counted by the generator as it writes."""

    rolls: list[DieRolled] = field(default_factory=list)
    noise: Counter[str] = field(default_factory=Counter)  # by the driver's kinds
    noise_lines: int = 0
    noise_bytes: int = 0
    missed: int = 0  # messages lost, over all sequence gaps
    gaps: list[int] = field(default_factory=list)  # the size of each sequence gap
    states: int = 0  # DieState events
    power: int = 0  # "power: ..." statuses
    hellos: list[str] = field(default_factory=list)  # details of the HELLO statuses

    def counts(self) -> tuple[object, ...]:
        return (
            len(self.rolls),
            sorted(self.noise.items()),
            self.noise_lines,
            self.noise_bytes,
            self.missed,
            self.states,
            self.power,
            len(self.hellos),
        )

    def rejected(self, kind: str, size: int) -> None:
        """One line the driver must reject as ``kind``, of ``size`` bytes."""
        self.noise[kind] += 1
        self.noise_lines += 1
        self.noise_bytes += size


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


class FaultyReader:
    """A reader's side of the wire, with faults: it generates the bytes and the expectations.

    Sequence numbers are the reader's: every line it sends uses one, including the lines that
    get corrupted on the way (so the driver sees a gap after them). Random garbage is line noise,
    not the reader's, and uses none. The driver's ``SequenceTracker`` starts afresh on every
    connection and every ``HELLO``, so a gap is expected at a line that parses when lines were
    lost since the previous line that parsed on the same count.
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.expected = Expected()
        self.seq = 65_400  # the reader has been up for a while: its numbers wrap in the first part
        self.boot = "b0"
        self.boots = 0
        self.rolls = [0] * DICE  # each die's last roll number this boot
        self.delivered: list[tuple[int, int]] = []  # (die, roll) delivered this boot
        self.counting = False  # whether the driver's tracker has a previous number
        self.lost = 0  # lines lost since the last line that parsed
        self.garbage_bytes = 0
        self.parts: list[bytes | Pause] = []

    # -- the reader's numbering and the driver's view of it --------------------------------

    def _take_seq(self) -> int:
        seq = self.seq
        self.seq = (self.seq + 1) % SEQ_MODULUS
        return seq

    def _arrives(self, line: bytes, verb: str, noise: str | None) -> None:
        """A line that parses reaches the driver, which rejects it as ``noise`` if given."""
        if verb == "HELLO":
            self.counting = False
        if self.counting and self.lost:
            self.expected.gaps.append(self.lost)
            self.expected.noise["sequence gap"] += 1
            self.expected.missed += self.lost
        self.counting, self.lost = True, 0
        if noise is not None:
            self.expected.rejected(noise, len(line) - 1)
        if self.rng.random() < 0.1:
            line = line[:-1] + b"\r\n"  # a receiver accepts CRLF
        self.parts.append(line)

    def _is_lost(self, line: bytes, *, partial: bool = False) -> None:
        """A line of the reader's is corrupted on the way: the driver rejects it."""
        self.lost += 1
        if partial:  # cut short, and the rest never comes
            prefix = line[: self.rng.randrange(1, len(line) - 1)]
            self.expected.rejected("incomplete line", len(prefix))
            self.parts.append(Pause(prefix, self.expected.counts()))
        elif self.rng.random() < 0.5:  # one byte flipped (never into a newline)
            at = self.rng.randrange(len(line) - 1)
            flipped = line[at] ^ self.rng.randrange(1, 256)
            while flipped == 0x0A:
                flipped = line[at] ^ self.rng.randrange(1, 256)
            self._garbage_line(line[:at] + bytes([flipped]) + line[at + 1 : -1])
        else:  # cut short, then a newline (the reader restarted mid-line, say)
            self._garbage_line(line[: self.rng.randrange(0, len(line) - 1)])

    def _garbage_line(self, body: bytes) -> None:
        """One line that no parser accepts: one "rejected line" noise."""
        assert b"\n" not in body
        ending = b"\r\n" if self.rng.random() < 0.1 else b"\n"
        with pytest.raises(ProtocolError):
            parse_line(body + ending)
        self.parts.append(body + ending)
        self.expected.rejected("rejected line", noise_size(body, ending))

    def _send(
        self,
        verb: str,
        fields: dict[str, object],
        *,
        fate: str = "arrives",
        noise: str | None = None,
    ) -> None:
        line = encode(verb, self._take_seq(), **fields)
        if fate == "arrives":
            self._arrives(line, verb, noise)
        else:
            self._is_lost(line, partial=fate == "incomplete")

    def _fate(self) -> str:
        return "arrives" if self.rng.random() < 0.9 else "corrupted"

    # -- what it writes ---------------------------------------------------------------------

    def hello(self, new_boot: bool) -> None:
        """The answer to the driver's HELLO; a new boot restarts sequence and roll numbers."""
        restarted = new_boot and bool(self.expected.hellos)
        if new_boot:
            self.boots += 1
            self.boot = f"b{self.boots}"
            self.seq = 1  # its power-on HELLO, number 0, went before the host opened the port
            self.rolls = [0] * DICE
            self.delivered = []
        self._send(
            "HELLO",
            {
                "proto": 1,
                "fw": "2.0.0",
                "board": "pico",
                "boot": self.boot,
                "dice": DICE,
                "why": "host",
            },
        )
        self.expected.hellos.append(
            "reader firmware 2.0.0, protocol 1" + (", restarted" if restarted else "")
        )

    def _face(self, die: int) -> tuple[str, int | None, bool]:
        """A random face of die ``die``'s profile: label, value, roll again."""
        return self.rng.choice(PROFILES[DIE_PROFILES[die]])

    def roll(self, fate: str | None = None, *, unseen: int = 0) -> None:
        """A die is thrown: maybe MOVING and ROLLING, then its ROLL (which may get lost).

        ``unseen`` rolls went before it that the host never heard of (it was away, say): then
        the roll number jumps, and its ROLLING, which vouches for it, always arrives.
        """
        die = self.rng.randrange(DICE)
        self.rolls[die] += 1 + unseen
        number = self.rolls[die]
        if self.rng.random() < 0.3:
            self._send("MOVING", {"die": die}, fate="arrives")
            self.expected.states += 1
        if unseen or self.rng.random() < 0.3:
            self._send("ROLLING", {"die": die, "roll": number}, fate="arrives")
            self.expected.states += 1
        profile = DIE_PROFILES[die]
        label, value, again = self._face(die)
        fields: dict[str, object] = {"die": die, "roll": number, "face": label, "profile": profile}
        if value is not None:
            fields["value"] = value
        if again:
            fields["again"] = 1
        if self.rng.random() < 0.1:
            fields["tilt"] = self.rng.randrange(90)  # a field from a newer protocol
        if self.rng.random() < 0.2:
            keys = list(fields)
            self.rng.shuffle(keys)  # fields may come in any order
            fields = {key: fields[key] for key in keys}
        fate = "arrives" if unseen else fate or self._fate()
        seq = self.seq
        self._send("ROLL", fields, fate=fate)
        if fate == "arrives":
            self.expected.rolls.append(
                DieRolled(
                    die, label, seq, NAME, value=value, roll=number, profile=profile, again=again
                )
            )
            self.delivered.append((die, number))

    def crooked(self) -> None:
        die = self.rng.randrange(DICE)
        self.rolls[die] += 1
        self._send("ROLLING", {"die": die, "roll": self.rolls[die]})
        self._send("CROOKED", {"die": die, "roll": self.rolls[die]})
        self.expected.states += 2

    def repeat_roll(self) -> None:
        """A ROLL whose number was already delivered this boot (say, sent twice)."""
        if not self.delivered:
            return
        die, number = self.rng.choice(self.delivered)
        label, _, _ = self._face(die)
        self._send(
            "ROLL",
            {"die": die, "roll": number, "face": label, "profile": DIE_PROFILES[die]},
            noise="stale roll",
        )

    def bad_roll(self) -> None:
        """A well-formed ROLL line that is not a roll: never delivered."""
        die = self.rng.randrange(DICE)
        fields = self.rng.choice(
            [
                {"die": die, "face": "3", "profile": "d6"},  # no roll number
                {"die": "one", "roll": 1, "face": "3"},
                {"die": die, "roll": "-2", "face": "3"},
                {"die": die, "roll": 99, "face": "three,four"},
                {"die": die, "roll": 99, "face": "much-too-long-label"},
                {"die": die, "roll": 99, "face": "3", "value": "three"},
                {"die": die, "roll": 99},
            ]
        )
        self._send("ROLL", fields, noise="malformed")

    def lie(self) -> None:
        """A well-formed line that no real reader sends: a die it never declared, a face its die
        does not have, or a forged roll number. Never an event, and it changes nothing."""
        die = self.rng.randrange(DICE)
        label, value, _ = self._face(die)
        profile, number = DIE_PROFILES[die], self.rolls[die] + 1
        kind = self.rng.randrange(5)
        if kind == 0:
            self._send("MOVING", {"die": DICE + self.rng.randrange(30_000)}, noise="undeclared die")
        elif kind == 1:
            self._send(
                "ROLL",
                {"die": DICE + self.rng.randrange(30_000), "roll": 1, "face": label},
                noise="undeclared die",
            )
        elif kind == 2:  # a face it lacks, read with another profile, or another face's value
            other = "d6" if profile != "d6" else "battle"
            wrong = self.rng.choice(
                [{"face": "NOPE"}, {"profile": other}, {"value": (value or 0) + 1}]
            )
            self._send(
                "ROLL",
                {"die": die, "roll": number, "face": label, "profile": profile} | wrong,
                noise="wrong face",
            )
        elif any(known == die for known, _ in self.delivered):  # a roll number out of nowhere
            self._send(
                "ROLL",
                {"die": die, "roll": 999_999_999, "face": label, "profile": profile},
                noise="stale roll",
            )

    def other_line(self) -> None:
        """A valid line that is not a roll."""
        die = self.rng.randrange(DICE)
        kind = self.rng.randrange(8)
        label, _, _ = self._face(die)
        if kind == 0:
            self._send("PLACED", {"die": die})
        elif kind == 1:
            self._send("PLACED", {"die": die, "face": label})
        elif kind == 2:
            faces = ",".join(face for face, _, _ in PROFILES[DIE_PROFILES[die]])
            self._send(
                "DIE",
                {
                    "die": die,
                    "state": "rest",
                    "profile": DIE_PROFILES[die],
                    "faces": faces,
                    "face": label,
                    "led": 1,
                },
            )
        elif kind == 3:
            self._send("ERR", {"code": "sensor", "die": die, "msg": "no-answer"})
        if kind <= 3:
            self.expected.states += 1
        elif kind == 4:
            self._send("POWER", {"src": "usb", "mv": self.rng.randrange(4700, 5300)})
            self.expected.power += 1
        elif kind == 5:
            self._send("TEMPERATURE", {"c": self.rng.randrange(15, 40)})  # ignored
        elif kind == 6:
            self._send("OK", {"ref": self.rng.randrange(1000, 2000), "cmd": "STATUS"})  # ignored
        else:
            self._send("ERR", {"code": "line", "msg": "bad-checksum"}, noise="reader error")

    def garbage(self) -> None:
        """A line of garbage that is no reader's line: one "rejected line" noise."""
        rng = self.rng
        kind = rng.random()
        if kind < 0.05:
            body = b""  # an empty line
        elif kind < 0.50:
            body = rng.randbytes(rng.randrange(1, MAX_LINE_LENGTH + 2))  # non-ASCII, controls
        elif kind < 0.80:  # printable, and looking like a line
            words = [
                rng.choice(["ROLL", "roll", "DIE", "HELLO", "", "*", "R0LL"]),
                str(rng.randrange(70_000)),
            ]
            words += [
                f"{rng.choice(['die', 'face', 'Die', ''])}={rng.randrange(10)}"
                for _ in range(rng.randrange(4))
            ]
            body = " ".join(words).encode() + b"*" + f"{rng.randrange(256):02X}".encode()
        elif kind < 0.98:
            body = rng.randbytes(rng.randrange(MAX_LINE_LENGTH + 1, 2000))  # over-long
        else:
            body = rng.randbytes(rng.randrange(2000, 20_000))  # a long run of noise
        body = body.replace(b"\n", b"?")
        while True:  # no garbage line may be a valid line
            try:
                parse_line(body)
            except ProtocolError:
                break
            body += b"~"
        self.garbage_bytes += len(body) + 1
        self._garbage_line(body)

    def part(self, *, pause: bool) -> list[bytes | Pause]:
        """The lines of one part of the run, up to the next unplug; the last is a roll."""
        self.parts = []
        goal = min(self.garbage_bytes + REPLUG_EVERY, GARBAGE_TOTAL)
        while self.garbage_bytes < goal:
            step = self.rng.random()
            if step < 0.45:
                self.garbage()
            elif step < 0.74:
                self.roll()
            elif step < 0.75:
                self.roll(unseen=self.rng.randrange(2000, 9000))
            elif step < 0.78:
                self.crooked()
            elif step < 0.81:
                self.repeat_roll()
            elif step < 0.83:
                self.bad_roll()
            elif step < 0.87:
                self.lie()
            else:
                self.other_line()
            if pause and self.garbage_bytes > goal - REPLUG_EVERY // 2:
                self.roll(fate="incomplete")
                pause = False
        self.roll(fate="arrives")  # when it arrives, the driver has read everything before it
        return self.parts

    def plugged(self) -> None:
        """A new connection: the driver's tracker starts afresh."""
        self.counting, self.lost = False, 0


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


# -- the parser path, for any bytes -------------------------------------------------------

junk = st.one_of(
    st.binary(max_size=300),
    st.binary(min_size=MAX_LINE_LENGTH - 5, max_size=800),
    st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=250).map(str.encode),
    st.lists(
        st.sampled_from(
            [
                b"ROLL",
                b" ",
                b"1",
                b"die=",
                b"*",
                b"0A",
                b"\r",
                b"\n",
                b"=",
                b"face=CLOAK",
                b"\xff",
                b"\x00",
            ]
        ),
        max_size=60,
    ).map(b"".join),
)


@settings(max_examples=300, deadline=None)
@given(
    junk=junk,
    seq=st.integers(0, SEQ_MODULUS - 1),
    die=st.integers(0, 9),
    ending=st.sampled_from([b"\n", b"\r\n"]),
    data=st.data(),
)
def test_the_parser_path_survives_any_bytes_and_recovers_at_the_next_line(
    junk: bytes, seq: int, die: int, ending: bytes, data: st.DataObject
) -> None:
    valid = encode("ROLL", seq, die=die, roll=1, face="2P", profile="battle", value=2, again=1)
    stream = junk + ending + valid
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=12)))
    chunks = [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)])]
    # The receiver may drop a pending fragment (after a pause) at any point of the junk.
    idle_at = data.draw(st.none() | st.integers(0, len(chunks)))

    dropped: list[int] = []
    splitter = LineSplitter(on_overlong=dropped.append)
    messages: list[Message] = []
    for index, chunk in enumerate(chunks):
        if index == idle_at and sum(map(len, chunks[:index])) <= len(junk):
            splitter.discard_pending()
        for line in splitter.feed(chunk):
            try:
                messages.append(parse_line(line))
            except ProtocolError:
                pass  # anything else fails the test
    assert splitter.pending == 0
    assert messages and messages[-1] == Message(
        "ROLL",
        seq,
        {
            "die": str(die),
            "roll": "1",
            "face": "2P",
            "profile": "battle",
            "value": "2",
            "again": "1",
        },
    )
