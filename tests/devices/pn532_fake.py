"""A PN532 on fake buses, for driving Adafruit's real ``adafruit_pn532`` code with no reader.

* :class:`Pn532Emulator` plays the PN532's side of the protocol (PN532 User Manual, UM0701-02): it
  checks every frame the host writes (preamble ``00 00 FF``, LEN and LCS, TFI ``D4``, DCS,
  postamble ``00``; on UART the wake-up ``55 55`` and 15 zeros), records it, and answers with the
  ACK ``00 00 FF 00 FF 00`` and a response frame (TFI ``D5``) with correct checksums:
  ``GetFirmwareVersion`` (a PN532 v1.6), ``SAMConfiguration``, ``RFConfiguration`` and
  ``InListPassiveTarget``, whose answer follows a script: per poll, a tag's UID, ``None`` (no
  tag), :data:`NO_ANSWER` or a :class:`Corrupt` answer; without a script, the tag lying on it
  (``place``/``remove``). ``garble(n)`` answers the next ``n`` frames with a wrong ACK.
* :class:`FakeSerialPort` is a serial port with the emulator behind it: ``open()`` gives a
  pyserial-like connection (``write``, ``read``, ``in_waiting``, ``reset_input_buffer``,
  ``close``); ``unplug()`` breaks the open connection (pyserial's own errors: ``termios.error``,
  ``SerialException``, ``OSError``) and refuses new ones until ``plug()``.
* :class:`FakeI2cPort`: the same on I2C: ``open()`` gives a ``busio.I2C``-like bus (``try_lock``,
  ``unlock``, ``writeto``, ``readfrom_into``, ``deinit``) on which the PN532 answers at 0x24,
  every read starting with its status byte (``01``: ready); unplugged, it does not answer
  (``OSError`` 121, as Linux says for an I2C address without a device).
* :class:`PtyPn532` puts the emulator behind a pseudo-terminal with a stable path (a symlink),
  so that the driver opens it with pyserial as it opens a real serial port; ``unplug()`` closes
  the terminal and removes the path, ``plug()`` makes them again.
* :class:`RecordingSerial` and :class:`RecordingI2c` wrap a real bus, recording what the host
  writes, so the same tests check the bytes a real reader is sent.

:class:`FakeSerial`'s reads return what has arrived at once, where pyserial waits for its timeout
when fewer bytes than asked are there: the same bytes, sooner. Its errors once unplugged are
pyserial's on a terminal whose other side is gone (seen on a pty): ``reset_input_buffer`` raises
``termios.error`` (EIO), ``in_waiting`` ``OSError`` (EIO), ``write`` and ``read``
``SerialException``, and opening the vanished path ``SerialException`` (ENOENT).
"""

from __future__ import annotations

import errno
import os
import select
import termios
import threading
import tty
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import serial

PREAMBLE = b"\x00\x00\xff"
ACK = b"\x00\x00\xff\x00\xff\x00"
WAKEUP = b"\x55\x55" + bytes(15)  #: what the library sends on UART before its first frame
HOST, PN532 = 0xD4, 0xD5  #: the TFI of frames to and from the PN532
ADDRESS = 0x24

GET_FIRMWARE_VERSION = 0x02
SAM_CONFIGURATION = 0x14
RF_CONFIGURATION = 0x32
IN_LIST_PASSIVE_TARGET = 0x4A

SYNTAX_ERROR = b"\x00\x00\xff\x01\xff\x7f\x81\x00"  #: the PN532's answer to a frame it refuses
NO_ANSWER = "no answer"  #: a script step: no ACK, no answer (a PN532 gone silent)

#: ATQA (SENS_RES) and SAK (SEL_RES) of a tag, by UID length: MIFARE Classic 1K, NTAG21x, and a
#: triple-size UID
TAG_KINDS = {4: (b"\x00\x04", 0x08), 7: (b"\x00\x44", 0x00), 10: (b"\x00\x84", 0x00)}


def frame(
    tfi: int, command: int, data: bytes = b"", *, lcs_error: int = 0, dcs_error: int = 0
) -> bytes:
    """A normal information frame: ``00 00 FF LEN LCS TFI command data DCS 00``."""
    body = bytes([tfi, command]) + bytes(data)
    length = len(body)
    return (
        PREAMBLE
        + bytes([length, (-length + lcs_error) & 0xFF])
        + body
        + bytes([(-sum(body) + dcs_error) & 0xFF, 0x00])
    )


def host_frame(command: int, params: bytes = b"") -> bytes:
    return frame(HOST, command, params)


def answer_frame(command: int, data: bytes = b"") -> bytes:
    return frame(PN532, command + 1, data)


def target_data(uid: str) -> bytes:
    """``InListPassiveTarget``'s data for one type A tag with ``uid`` (hex)."""
    raw = bytes.fromhex(uid)
    atqa, sak = TAG_KINDS[len(raw)]
    return bytes([1, 1]) + atqa + bytes([sak, len(raw)]) + raw


def parse_host_frame(data: bytes) -> tuple[int, bytes]:
    """(command, params) of a host frame; ``ValueError`` saying what is wrong with it."""
    if data[:3] != PREAMBLE:
        raise ValueError("no preamble 00 00 FF")
    if len(data) < 9:
        raise ValueError("too short")
    length, lcs = data[3], data[4]
    if (length + lcs) & 0xFF:
        raise ValueError(f"LCS {lcs:02X} does not match LEN {length:02X}")
    if len(data) != length + 7:
        raise ValueError(f"{len(data)} bytes for LEN {length}")
    body, dcs, postamble = data[5 : 5 + length], data[5 + length], data[6 + length]
    if (sum(body) + dcs) & 0xFF:
        raise ValueError(f"DCS {dcs:02X} wrong")
    if postamble != 0:
        raise ValueError(f"postamble {postamble:02X}")
    if body[0] != HOST:
        raise ValueError(f"TFI {body[0]:02X}, not D4")
    return body[1], bytes(body[2:])


@dataclass(frozen=True)
class Corrupt:
    """A script step: an answer damaged in one way.

    ``dcs``/``lcs``: a wrong data/length checksum; ``ack``: a wrong ACK; ``preamble``: no
    ``00 FF``; ``short``: cut after LEN; ``target``: a good frame with a 5-byte UID.
    """

    kind: str
    uid: str = "04A1B2C3D4E5F6"


class Pn532Emulator:
    """The PN532's side of the protocol; thread-safe, every exchange recorded."""

    def __init__(self, firmware: tuple[int, int, int, int] = (0x32, 1, 6, 7)) -> None:
        self.firmware = firmware
        self.tag: str | None = None  #: the tag lying on the reader, when no script says
        self.written: list[bytes] = []  #: every host write, in order (the I2C probe is b"")
        self.answered: list[bytes] = []  #: every frame sent back, ACKs too
        self.commands: list[tuple[int, bytes]] = []  #: (command, params) of every host frame
        self.errors: list[str] = []  #: host writes that are not good frames
        self.polls = 0  #: InListPassiveTarget frames received
        self.max_retries: bytes | None = None  #: the last RFConfiguration MaxRetries data
        self._script: deque[Any] = deque()
        self._garble = 0
        self._changed = threading.Condition()

    # -- what the test does -----------------------------------------------------------------------

    def place(self, uid: str) -> None:
        with self._changed:
            self.tag = uid

    def remove(self) -> None:
        with self._changed:
            self.tag = None

    def script(self, steps: Iterable[Any]) -> None:
        """What the next polls find: a UID, None, ``NO_ANSWER`` or a ``Corrupt``, one each."""
        with self._changed:
            self._script.extend(steps)

    def garble(self, frames: int) -> None:
        """Answer the next ``frames`` host frames with a wrong ACK."""
        with self._changed:
            self._garble += frames

    def wait_polls(self, count: int, timeout: float = 3.0) -> None:
        """Wait until ``count`` polls have been received in all (AssertionError if not)."""
        with self._changed:
            if not self._changed.wait_for(lambda: self.polls >= count, timeout):
                raise AssertionError(f"{self.polls} polls within {timeout} s, not {count}")

    def wait_script(self, timeout: float = 3.0) -> None:
        """Wait until the script is used up, and one more poll (so its last step is handled)."""
        with self._changed:
            if not self._changed.wait_for(lambda: not self._script, timeout):
                raise AssertionError(f"script not used up within {timeout} s")
            polls = self.polls
        self.wait_polls(polls + 1, timeout)

    def frames_written(self) -> list[bytes]:
        with self._changed:
            return list(self.written)

    # -- the bus side ---------------------------------------------------------------------------

    def host_write(self, data: bytes) -> list[bytes]:
        """Take one write of the host; returns the frames the PN532 sends back, in order."""
        data = bytes(data)
        with self._changed:
            self.written.append(data)
            if data in (WAKEUP, b""):  # the UART wake-up; the I2C probe
                return []
            try:
                command, params = parse_host_frame(data)
            except ValueError as error:
                self.errors.append(f"{data.hex(' ')}: {error}")
                return []
            self.commands.append((command, params))
            replies = self._answer(command, params)
            self.answered.extend(replies)
            self._changed.notify_all()
            return replies

    def _answer(self, command: int, params: bytes) -> list[bytes]:
        if command == IN_LIST_PASSIVE_TARGET:
            self.polls += 1
        if self._garble:
            self._garble -= 1
            return [b"\x00\x00\xff\x00\xfe\x00"]
        if command == GET_FIRMWARE_VERSION:
            return [ACK, answer_frame(command, bytes(self.firmware))]
        if command == SAM_CONFIGURATION:
            if params != b"\x01\x14\x01":
                self.errors.append(f"SAMConfiguration {params.hex(' ')}")
            return [ACK, answer_frame(command)]
        if command == RF_CONFIGURATION:
            if params[:1] == b"\x05":
                self.max_retries = params[1:]
            return [ACK, answer_frame(command)]
        if command == IN_LIST_PASSIVE_TARGET:
            if params != b"\x01\x00":
                self.errors.append(f"InListPassiveTarget {params.hex(' ')}")
            step = self._script.popleft() if self._script else self.tag
            return self._poll_answer(step)
        self.errors.append(f"unexpected command {command:02X}")
        return [ACK, SYNTAX_ERROR]

    def _poll_answer(self, step: Any) -> list[bytes]:
        if step is None:
            return [ACK, answer_frame(IN_LIST_PASSIVE_TARGET, b"\x00")]
        if step == NO_ANSWER:
            return []
        if isinstance(step, str):
            return [ACK, answer_frame(IN_LIST_PASSIVE_TARGET, target_data(step))]
        data = target_data(step.uid)
        good = answer_frame(IN_LIST_PASSIVE_TARGET, data)
        if step.kind == "dcs":
            return [ACK, frame(PN532, IN_LIST_PASSIVE_TARGET + 1, data, dcs_error=1)]
        if step.kind == "lcs":
            return [ACK, frame(PN532, IN_LIST_PASSIVE_TARGET + 1, data, lcs_error=1)]
        if step.kind == "ack":
            return [b"\x00\x00\xff\xff\x00\x00", good]
        if step.kind == "preamble":
            return [ACK, bytes(len(good))]
        if step.kind == "short":
            return [ACK, good[:4]]
        if step.kind == "target":
            return [ACK, answer_frame(IN_LIST_PASSIVE_TARGET, data[:5] + b"\x05" + data[6:11])]
        raise ValueError(f"unknown corruption {step.kind!r}")


# -- UART ------------------------------------------------------------------------------------------


class FakeSerialPort:
    """A serial port path with a PN532 behind it; ``open`` is what the driver's ``open_bus`` is."""

    def __init__(self, emulator: Pn532Emulator | None = None, path: str = "/dev/serial0") -> None:
        self.emulator = emulator or Pn532Emulator()
        self.path = path
        self.present = True
        self.opened = 0
        self.connections: list[FakeSerial] = []

    @property
    def written(self) -> list[bytes]:
        return self.emulator.frames_written()

    def open(self) -> FakeSerial:
        if not self.present:
            raise serial.SerialException(
                errno.ENOENT,
                f"could not open port {self.path}: [Errno 2] No such file or "
                f"directory: '{self.path}'",
            )
        self.opened += 1
        connection = FakeSerial(self)
        self.connections.append(connection)
        return connection

    def unplug(self) -> None:
        """The adapter is pulled out: open connections fail, new ones cannot be opened."""
        self.present = False
        for connection in self.connections:
            connection.broken = True

    def plug(self) -> None:
        self.present = True


class FakeSerial:
    """A pyserial ``Serial`` as ``PN532_UART`` uses it."""

    def __init__(self, port: FakeSerialPort) -> None:
        self._port = port
        self._rx = bytearray()
        self._lock = threading.Lock()
        self.broken = False
        self.is_open = True

    def _check(self) -> None:
        if not self.is_open:
            raise serial.PortNotOpenError()

    def write(self, data: bytes) -> int:
        self._check()
        if self.broken:
            raise serial.SerialException("write failed: [Errno 5] Input/output error")
        replies = self._port.emulator.host_write(data)
        with self._lock:
            for reply in replies:
                self._rx += reply
        return len(data)

    def read(self, size: int = 1) -> bytes:
        self._check()
        if self.broken:
            raise serial.SerialException(
                "device reports readiness to read but returned no data "
                "(device disconnected or multiple access on port?)"
            )
        with self._lock:
            data = bytes(self._rx[:size])
            del self._rx[:size]
        return data

    @property
    def in_waiting(self) -> int:
        self._check()
        if self.broken:
            raise OSError(errno.EIO, "Input/output error")
        with self._lock:
            return len(self._rx)

    def reset_input_buffer(self) -> None:
        self._check()
        if self.broken:
            raise termios.error(errno.EIO, "Input/output error")
        with self._lock:
            self._rx.clear()

    def close(self) -> None:
        self.is_open = False


def split_host_bytes(buffer: bytearray) -> Iterator[bytes]:
    """Take the complete units off the front of ``buffer``, the bytes a serial port received: the
    wake-up, frames (by their LEN), and any other byte alone (which the emulator refuses)."""
    while buffer:
        if buffer[0] == 0x55:
            size = len(WAKEUP)
        elif buffer[:3] == PREAMBLE:
            if len(buffer) < 5:
                return
            size = buffer[3] + 7
        elif len(buffer) < 3 and PREAMBLE.startswith(bytes(buffer)):
            return
        else:
            size = 1
        if len(buffer) < size:
            return
        unit = bytes(buffer[:size])
        del buffer[:size]
        yield unit


class PtyPn532:
    """The emulator behind a pseudo-terminal, reached by the path ``link`` (a symlink to it)."""

    def __init__(self, link: Path, emulator: Pn532Emulator | None = None) -> None:
        self.emulator = emulator or Pn532Emulator()
        self.link = link
        self.path = str(link)
        self._fds: tuple[int, int] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.plug()

    @property
    def written(self) -> list[bytes]:
        return self.emulator.frames_written()

    def plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no translation: 8-bit clean both ways
        self._fds = (master, slave)
        self.link.symlink_to(os.ttyname(slave))
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._serve, args=(master, self._stop), name="pty pn532", daemon=True
        )
        self._thread.start()

    def unplug(self) -> None:
        """Gone: the terminal closes (the driver's open port fails) and its path disappears."""
        if self._fds is None:
            return
        self._stop.set()
        assert self._thread is not None
        self._thread.join()
        self.link.unlink()
        for fd in self._fds:
            os.close(fd)
        self._fds = None

    close = unplug

    def _serve(self, master: int, stop: threading.Event) -> None:
        received = bytearray()
        while not stop.is_set():
            ready, _, _ = select.select([master], [], [], 0.02)
            if not ready:
                continue
            try:
                received += os.read(master, 4096)
            except OSError:  # no one has the port open at the moment
                stop.wait(0.01)
                continue
            for unit in split_host_bytes(received):
                for reply in self.emulator.host_write(unit):
                    os.write(master, reply)


# -- I2C -------------------------------------------------------------------------------------------


class FakeI2cPort:
    """The I2C bus with a PN532 on it; ``open`` gives a ``busio.I2C``-like bus."""

    def __init__(
        self,
        emulator: Pn532Emulator | None = None,
        path: str = "/dev/i2c-1",
        address: int = ADDRESS,
    ) -> None:
        self.emulator = emulator or Pn532Emulator()
        self.path = path
        self.address = address
        self.present = True
        self.opened = 0
        self.buses: list[FakeI2c] = []
        self.reads: list[bytes] = []  #: every read transaction's bytes, status byte first

    @property
    def written(self) -> list[bytes]:
        return self.emulator.frames_written()

    def open(self) -> FakeI2c:
        self.opened += 1
        bus = FakeI2c(self)
        self.buses.append(bus)
        return bus

    def unplug(self) -> None:
        self.present = False

    def plug(self) -> None:
        self.present = True


class FakeI2c:
    """A ``busio.I2C`` as ``adafruit_bus_device.I2CDevice`` uses it."""

    def __init__(self, port: FakeI2cPort) -> None:
        self._port = port
        self._pending: deque[bytes] = deque()  # frames the PN532 has ready, oldest first
        self._lock = threading.Lock()
        self.locked = False
        self.deinited = False

    def try_lock(self) -> bool:
        with self._lock:
            if self.locked:
                return False
            self.locked = True
            return True

    def unlock(self) -> None:
        with self._lock:
            self.locked = False

    def _check(self, address: int) -> None:
        if self.deinited:
            raise RuntimeError("I2C bus used after deinit()")
        if not self.locked:
            raise RuntimeError("I2C bus used without its lock")
        if address != self._port.address or not self._port.present:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def writeto(self, address: int, buffer: Any, *, start: int = 0, end: int | None = None) -> None:
        self._check(address)
        replies = self._port.emulator.host_write(bytes(buffer[start:end]))
        if replies:  # a new command: what the PN532 had ready for the last one is gone
            self._pending.clear()
        self._pending.extend(replies)

    def readfrom_into(
        self, address: int, buffer: Any, *, start: int = 0, end: int | None = None
    ) -> None:
        """One read: the status byte (01 when a frame is ready), then that frame, which the read
        takes when it asks for more than the status byte."""
        self._check(address)
        end = len(buffer) if end is None else end
        count = end - start
        ready = bool(self._pending)
        data = bytes([0x01 if ready else 0x00])
        if count > 1 and ready:
            data += self._pending.popleft()
        data = (data + bytes(count))[:count]
        buffer[start:end] = data
        self._port.reads.append(data)

    def deinit(self) -> None:
        self.deinited = True


# -- recording a real bus --------------------------------------------------------------------------


class RecordingSerial:
    """A real pyserial ``Serial``, recording what the host writes into ``log``."""

    def __init__(self, inner: Any, log: list[bytes]) -> None:
        self.inner = inner
        self.log = log

    def write(self, data: bytes) -> int:
        self.log.append(bytes(data))
        return self.inner.write(data)

    def read(self, size: int = 1) -> bytes:
        return self.inner.read(size)

    @property
    def in_waiting(self) -> int:
        return self.inner.in_waiting

    def reset_input_buffer(self) -> None:
        self.inner.reset_input_buffer()

    def close(self) -> None:
        self.inner.close()


class RecordingI2c:
    """A real ``busio.I2C``, recording what the host writes into ``log``."""

    def __init__(self, inner: Any, log: list[bytes]) -> None:
        self.inner = inner
        self.log = log

    def try_lock(self) -> bool:
        return self.inner.try_lock()

    def unlock(self) -> None:
        self.inner.unlock()

    def writeto(self, address: int, buffer: Any, *, start: int = 0, end: int | None = None) -> None:
        self.log.append(bytes(buffer[start:end]))
        self.inner.writeto(address, buffer, start=start, end=end)

    def readfrom_into(
        self, address: int, buffer: Any, *, start: int = 0, end: int | None = None
    ) -> None:
        self.inner.readfrom_into(address, buffer, start=start, end=end)

    def deinit(self) -> None:
        self.inner.deinit()
