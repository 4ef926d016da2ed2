"""The reader's side of the fault-injection test (``test_dice_faults_megabyte.py``): a seeded
generator of valid lines mixed with garbage, well-formed lies, pauses and re-plugs
(``FaultyReader``), which keeps its own account of what the driver must report
(``Expected``)."""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field

import pytest

from companion.devices.dice_protocol import (
    MAX_LINE_LENGTH,
    SEQ_MODULUS,
    ProtocolError,
    encode,
    parse_line,
)
from companion.devices.events import DieRolled

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
