"""SerialDiceReader against a raw pty: the test plays the reader on the master side."""

from __future__ import annotations

import os
import select
import time
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.devices.dice import DiceReader, SerialDiceReader
from companion.devices.dice_protocol import Message, encode, parse_line
from companion.devices.events import DeviceNoise, DeviceStatus, DieRolled


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
def connect(pty, events, open_readers):
    """Start a reader on the pty, wait until it is connected and has said HELLO."""

    def connect(**options) -> SerialDiceReader:
        reader = SerialDiceReader(pty.path, events.emit, **options)
        open_readers.append(reader)
        assert events.get() == DeviceStatus(reader.name, True, f"connected on {pty.path}")
        hello = pty.read_message()
        assert (hello.verb, hello.fields) == ("HELLO", {"proto": "1"})
        return reader

    return connect


def roll(seq: int, die: int, face: int) -> bytes:
    return encode("ROLL", seq, die=die, face=face)


def test_connecting_sends_hello_and_the_readers_hello_makes_it_ready(pty, connect, events) -> None:
    reader = connect(name="left dice")
    assert isinstance(reader, DiceReader)
    assert not reader.wait_ready(0)
    pty.write(encode("HELLO", 0, proto=1, fw="v0.3"))
    assert events.get() == DeviceStatus("left dice", True, "reader firmware v0.3, protocol 1")
    assert reader.wait_ready(0)


def test_rolls_become_die_rolled_events(pty, connect, events) -> None:
    connect()
    pty.write(roll(0, 0, 4) + roll(1, 2, 6))
    assert events.get() == DieRolled(0, 4, 0)
    assert events.get() == DieRolled(2, 6, 1)


def test_lines_arriving_byte_by_byte_and_with_crlf_parse(pty, connect, events) -> None:
    connect()
    for byte in roll(5, 1, 3)[:-1] + b"\r\n":
        pty.write(bytes([byte]))
    assert events.get() == DieRolled(1, 3, 5)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"ROLL 0 die=0 face=4*00\n", "bad checksum"),
        (b"ROLL 0 die=0 face=4\n", "no checksum"),
        (b"\xff\xfe garbage\n", "non-ASCII"),
        (b"\n", "empty line"),
        (b"R" * 300 + b"\n", "too long: 300 bytes"),
    ],
)
def test_rejected_lines_are_noise_and_the_next_roll_still_counts(
    pty, connect, events, line, reason
) -> None:
    connect()
    pty.write(line + roll(0, 1, 2))
    noise = events.get()
    assert isinstance(noise, DeviceNoise) and noise.device == "dice"
    assert noise.detail.startswith(f"rejected line: {reason}")
    assert events.get() == DieRolled(1, 2, 0)


def test_sequence_gaps_are_noise_and_wrap_and_hello_are_not(pty, connect, events) -> None:
    connect()
    pty.write(roll(65534, 0, 1) + roll(65535, 0, 2) + roll(0, 0, 3) + roll(3, 0, 4))
    assert [events.get() for _ in range(5)] == [
        DieRolled(0, 1, 65534),
        DieRolled(0, 2, 65535),
        DieRolled(0, 3, 0),
        DeviceNoise("dice", "sequence gap: 2 message(s) missed before seq 3"),
        DieRolled(0, 4, 3),
    ]
    pty.write(encode("HELLO", 100, proto=1, fw="x") + roll(101, 0, 5))
    assert events.get() == DeviceStatus("dice", True, "reader firmware x, protocol 1")
    assert events.get() == DieRolled(0, 5, 101)


@pytest.mark.parametrize(
    "fields",
    [{"die": 0}, {"face": 3}, {}, {"die": 0, "face": "six"}, {"die": "-1", "face": 2}],
)
def test_a_roll_without_integer_die_and_face_is_noise(pty, connect, events, fields) -> None:
    connect()
    pty.write(encode("ROLL", 0, **fields) + roll(1, 0, 1))
    noise = events.get()
    assert isinstance(noise, DeviceNoise)
    assert noise.detail.startswith("ROLL 0 without integer die and face")
    assert events.get() == DieRolled(0, 1, 1)


def test_unknown_verbs_and_fields_are_ignored(pty, connect, events) -> None:
    connect()
    pty.write(
        encode("SHAKE", 0, strength=9)
        + encode("ROLL", 1, die=1, face=5, tilt=3)
        + encode("BATTERY", 2, mv=3700)
        + roll(3, 0, 6)
    )
    assert events.get() == DieRolled(1, 5, 1)
    assert events.get() == DieRolled(0, 6, 3)  # the unknown verbs counted in the sequence


def test_reader_errors_and_pongs_are_reported(pty, connect, events) -> None:
    connect()
    pty.write(encode("ERR", 0, msg="bad-checksum") + encode("PONG", 1))
    assert events.get() == DeviceNoise("dice", "reader reports error: bad-checksum")
    assert events.get() == DeviceStatus("dice", True, "pong")


def test_an_incomplete_line_is_discarded_after_a_pause(pty, connect, events) -> None:
    connect()
    fragment = roll(0, 0, 3)[:9]
    pty.write(fragment)
    noise = events.get()
    assert noise == DeviceNoise(
        "dice", "incomplete line discarded: 9 bytes and no newline for 0.2 s"
    )
    pty.write(roll(1, 0, 2))
    assert events.get() == DieRolled(0, 2, 1)


def test_send_writes_a_checksummed_line_with_its_own_numbering(pty, connect) -> None:
    reader = connect()
    reader.send("PING")
    reader.send("ROLL", die=2)
    assert pty.read_message() == Message("PING", 1, {})
    assert pty.read_message() == Message("ROLL", 2, {"die": "2"})
    with pytest.raises(ValueError):
        reader.send("PING", note="two words")


def test_the_port_lost_is_reported_and_close_is_prompt(pty, connect, events) -> None:
    reader = connect(reconnect_interval=10)
    pty.hang_up()
    status = events.get()
    assert isinstance(status, DeviceStatus) and not status.connected
    assert status.detail.startswith(f"lost {pty.path}")
    with pytest.raises(ConnectionError, match="not connected"):
        reader.send("PING")
    started = time.monotonic()
    reader.close()
    assert time.monotonic() - started < 0.5
    assert events.get() == DeviceStatus("dice", False, "closed")


def test_close_while_reading_is_prompt(connect, events) -> None:
    reader = connect()
    started = time.monotonic()
    reader.close()
    reader.close()
    assert time.monotonic() - started < 0.5
    assert events.get() == DeviceStatus("dice", False, "closed")


def test_a_missing_port_is_reported_once_and_retried_until_it_appears(
    tmp_path: Path, events, no_leaked_fds
) -> None:
    link = tmp_path / "dice"  # a path of our own, pointed at successive ptys
    reader = SerialDiceReader(str(link), events.emit, reconnect_interval=0.05)
    first, second = Pty(), Pty()
    try:
        status = events.get()
        assert isinstance(status, DeviceStatus) and not status.connected
        assert status.detail.startswith(f"cannot open {link}")
        link.symlink_to(first.path)
        # Retries every 0.05 s, but the outage is reported only once.
        assert events.get() == DeviceStatus("dice", True, f"connected on {link}")
        assert first.read_message().verb == "HELLO"

        first.hang_up()  # its slave stays open, so its pty number is not reused
        lost = events.get()
        assert isinstance(lost, DeviceStatus) and lost.detail.startswith("lost")
        link.unlink()
        link.symlink_to(second.path)
        assert events.get() == DeviceStatus("dice", True, f"connected on {link}")
        second.write(roll(0, 3, 3))
        assert events.get() == DieRolled(3, 3, 0)
    finally:
        started = time.monotonic()
        reader.close()
        assert time.monotonic() - started < 0.5
        first.close()
        second.close()

