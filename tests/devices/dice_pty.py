"""The reader's side of a pty for the tests of ``SerialDiceReader``: the test plays the reader
on the master side, the driver opens the slave. Fixtures and line builders shared by the test
modules of the driver (imported by name, as pytest finds fixtures in a module's globals)."""

from __future__ import annotations

import os
import re
import select
import time
import tty
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from companion.devices.dice import SerialDiceReader
from companion.devices.dice_protocol import Message, encode, parse_line
from companion.devices.events import DeviceStatus

FIRMWARE = "reader firmware 1.0.0, protocol 1"  # the detail of the status a hello() gives


class Pty:
    """A pty whose master the test reads and writes; the host opens ``path``."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self._pending = b""

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def read_message(self, timeout: float = 3.0) -> Message:
        """The next line the host wrote, parsed."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self._pending:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.master], [], [], max(left, 0))
            if not ready:
                pytest.fail(f"the host wrote no line within {timeout} s")
            self._pending += os.read(self.master, 1024)
        line, self._pending = self._pending.split(b"\n", 1)
        return parse_line(line)

    def assert_silent(self, wait: float = 0.3) -> None:
        """Fail if the host writes anything within ``wait`` seconds."""
        ready, _, _ = select.select([self.master], [], [], wait)
        if ready or self._pending:
            data = self._pending + (os.read(self.master, 1024) if ready else b"")
            pytest.fail(f"the host wrote {data!r}")

    def hang_up(self) -> None:
        """Close the master, as when the reader's end goes away."""
        if self.master >= 0:
            os.close(self.master)
            self.master = -1

    def close(self) -> None:
        self.hang_up()
        os.close(self.slave)


@pytest.fixture
def pty(no_leaked_fds) -> Iterator[Pty]:
    pty = Pty()
    yield pty
    pty.close()


@pytest.fixture
def open_readers() -> Iterator[list[SerialDiceReader]]:
    """Readers to close at the end of the test, before any pty goes away."""
    readers: list[SerialDiceReader] = []
    yield readers
    for reader in readers:
        reader.close()


@pytest.fixture
def pool() -> Iterator[ThreadPoolExecutor]:
    """Runs the calls that wait for the reader's answer while the test plays the reader."""
    with ThreadPoolExecutor(1) as pool:
        yield pool


@pytest.fixture
def connect(pty, events, open_readers):
    """Start a reader on the pty, wait until it is connected and has said HELLO."""

    def connect(**options) -> SerialDiceReader:
        reader = SerialDiceReader(pty.path, events.emit, **options)
        open_readers.append(reader)
        assert events.get() == DeviceStatus(reader.name, True, f"connected on {pty.path}")
        hello = pty.read_message()
        assert (hello.verb, hello.seq, hello.fields) == ("HELLO", 0, {"proto": "1"})
        return reader

    return connect


@pytest.fixture
def ready(pty, connect, events):
    """``connect``, then answer with the reader's HELLO: the driver is ready and asked STATUS."""

    def ready(**options) -> SerialDiceReader:
        reader = connect(**options)
        pty.write(hello(1))  # the reader's number 0 was its power-on HELLO, lost: not a gap
        assert events.get() == DeviceStatus(reader.name, True, FIRMWARE)
        assert pty.read_message() == Message("STATUS", 1, {})
        assert reader.wait_ready(3)
        return reader

    return ready


def hello(seq: int, boot: str = "b00t", why: str = "host", dice: int = 2) -> bytes:
    """The reader's HELLO, as the firmware writes it."""
    return encode(
        "HELLO",
        seq,
        proto=1,
        fw="1.0.0",
        board="pico",
        uid="E66138935F4B1234",
        boot=boot,
        dice=dice,
        why=why,
    )


def roll(
    seq: int, die: int, number: int, face: str | int, profile: str = "d6", **extra: object
) -> bytes:
    """The reader's ROLL: die ``die`` came to rest on ``face`` after its roll ``number``."""
    fields: dict[str, object] = {"die": die, "roll": number, "face": face, "profile": profile}
    if str(face).isdigit():
        fields["value"] = face
    return encode("ROLL", seq, **(fields | extra))


def summary(
    first: str | None,
    *,
    lines: int = 0,
    size: int = 0,
    gaps: int = 0,
    missed: int = 0,
    flooded: bool = False,
) -> str:
    """The detail of a ``DeviceNoise`` that sums up folded noise: ``lines`` rejected lines of
    ``size`` bytes, ``gaps`` sequence gaps missing ``missed`` messages, bytes discarded unparsed
    if ``flooded`` (any number of them), and the ``first`` piece's own detail. It equals any
    detail that says so, whatever the seconds it gives."""
    parts = []
    if lines:
        parts.append(re.escape(f"{lines} line(s) ({size} bytes) rejected"))
    if gaps:
        parts.append(re.escape(f"{gaps} sequence gap(s) ({missed} message(s) missed)"))
    if flooded:
        parts.append(r"flooded: \d+ bytes discarded unparsed")
    return DetailPattern(
        r"noise in the last \d+\.\d s: "
        + ", ".join(parts)
        + (re.escape(f"; first: {first}") if first is not None else "")
    )


class DetailPattern(str):
    """A regular expression that equals every string it matches in full (for comparing events
    whose detail holds a measured time)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and re.fullmatch(str(self), other) is not None

    __hash__ = str.__hash__


def answer(
    pty: Pty, verb: str, reply: bytes | Callable[[int], bytes] | None = None, **fields: str
) -> Message:
    """Read the host's next command, check it is ``verb`` with ``fields``, and write ``reply``
    (or ``reply(seq)``, given the command's sequence number to refer to)."""
    command = pty.read_message()
    assert (command.verb, command.fields) == (verb, fields)
    if callable(reply):
        reply = reply(command.seq)
    if reply is not None:
        pty.write(reply)
    return command
