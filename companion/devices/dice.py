"""Dice readers: something that reports dice coming to rest.

``SerialDiceReader`` is the host driver for a reader speaking the line
protocol of ``dice_protocol`` over a serial port (a pty in simulation; see
``dice_sim``).  It runs one daemon thread that opens the port, reads and
parses lines and emits events, and reopens the port whenever it is lost.
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from typing import Any

from .dice_protocol import (
    LINE_IDLE_TIMEOUT,
    PROTOCOL_VERSION,
    SEQ_MODULUS,
    LineSplitter,
    Message,
    ProtocolError,
    SequenceTracker,
    encode,
    parse_line,
)
from .events import DeviceNoise, DeviceStatus, DieRolled, Emit

_READ_TIMEOUT = 0.1  # seconds a read waits, which bounds how slowly close() can stop
_NOISE_SAMPLE = 40  # bytes of a rejected line quoted in its DeviceNoise


class DiceReader(ABC):
    """A source of ``DieRolled`` events, identified by ``name``."""

    name: str

    @abstractmethod
    def close(self) -> None:
        """Stop reading and release the reader; calling it again does nothing."""


def _int_field(message: Message, key: str) -> int | None:
    """The field ``key`` as a non-negative decimal int, or None if absent or not one."""
    value = message.fields.get(key)
    if value is None or not value.isascii() or not value.isdigit():
        return None
    return int(value)


class SerialDiceReader(DiceReader):
    """Host driver for a dice reader on serial port ``port``.

    Emits ``DieRolled`` for each valid ``ROLL``; ``DeviceNoise`` for each
    rejected line, incomplete line, sequence gap, malformed ``ROLL`` and
    ``ERR`` from the reader; ``DeviceStatus(name, True, ...)`` on connecting,
    on ``HELLO`` and on ``PONG``; ``DeviceStatus(name, False, reason)`` when
    the port cannot be opened (once per outage), is lost, or is closed.
    Unknown verbs and fields are ignored.  On connecting, the driver sends
    ``HELLO`` so that the reader introduces itself even if its power-on
    ``HELLO`` was sent before the port was open (opening a port discards
    unread input).  ``send`` writes host commands; ``ping`` is a round trip.
    """

    def __init__(
        self,
        port: str,
        emit: Emit,
        *,
        name: str = "dice",
        baudrate: int = 115200,
        reconnect_interval: float = 0.5,
    ) -> None:
        self.name = name
        self.port = port
        self.baudrate = baudrate
        self.reconnect_interval = reconnect_interval
        self._emit = emit
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._pong = threading.Event()
        self._lock = threading.Lock()  # guards _serial and _tx_seq
        self._serial: Any = None
        self._tx_seq = 0
        self._tracker = SequenceTracker()
        self._thread = threading.Thread(
            target=self._run, name=f"dice reader {name}", daemon=True
        )
        self._thread.start()

    # -- public ---------------------------------------------------------------

    def send(self, verb: str, **fields: object) -> None:
        """Write one host command line (e.g. ``send("PING")``) to the reader.

        Raises ``ConnectionError`` if the port is not open or the write fails,
        and ``ValueError`` if the command does not fit the protocol.
        """
        import serial

        with self._lock:
            if self._serial is None:
                raise ConnectionError(f"dice reader {self.name!r} is not connected")
            line = encode(verb, self._tx_seq, **fields)
            self._tx_seq = (self._tx_seq + 1) % SEQ_MODULUS
            try:
                self._serial.write(line)
            except (serial.SerialException, OSError) as error:
                raise ConnectionError(f"dice reader {self.name!r}: {error}") from error

    def wait_ready(self, timeout: float) -> bool:
        """Wait until the reader has said HELLO on the current connection."""
        return self._ready.wait(timeout)

    def ping(self, timeout: float) -> bool:
        """Send ``PING`` and wait for a ``PONG``; False if none came in ``timeout`` s.

        The reader answers in order, so a ``PONG`` also means that everything
        it sent before has arrived.  Raises ``ConnectionError`` like ``send``.
        """
        self._pong.clear()
        self.send("PING")
        return self._pong.wait(timeout)

    def close(self) -> None:
        """Stop the thread (within about 0.1 s) and close the port."""
        self._stop.set()
        with self._lock:
            if self._serial is not None:
                self._serial.cancel_read()
        if self._thread is not threading.current_thread():
            self._thread.join()

    def __enter__(self) -> SerialDiceReader:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- the reader thread ------------------------------------------------------

    def _run(self) -> None:
        import serial

        outage: str | None = None  # why the port is unusable, once reported
        try:
            while not self._stop.is_set():
                try:
                    port = serial.Serial(
                        self.port, self.baudrate, timeout=_READ_TIMEOUT, write_timeout=0.5
                    )
                except (serial.SerialException, OSError, ValueError) as error:
                    reason = f"cannot open {self.port}: {error}"
                    if outage is None:
                        self._emit(DeviceStatus(self.name, False, reason))
                        outage = reason
                    self._stop.wait(self.reconnect_interval)
                    continue
                outage = None
                try:
                    self._session(port)
                except (serial.SerialException, OSError) as error:
                    outage = f"lost {self.port}: {error}"
                finally:
                    self._ready.clear()
                    with self._lock:
                        self._serial = None
                    port.close()
                if outage is not None:
                    self._emit(DeviceStatus(self.name, False, outage))
                    self._stop.wait(self.reconnect_interval)
        finally:
            self._emit(DeviceStatus(self.name, False, "closed"))

    def _session(self, port: Any) -> None:
        """Read from an open port until ``close()``; errors end the session."""
        with self._lock:
            self._serial = port
            self._tx_seq = 0
        self._tracker.reset()
        splitter = LineSplitter(on_overlong=self._overlong)
        self._emit(DeviceStatus(self.name, True, f"connected on {self.port}"))
        self.send("HELLO", proto=PROTOCOL_VERSION)
        last_byte = time.monotonic()
        while not self._stop.is_set():
            data = port.read(port.in_waiting or 1)
            if data:
                last_byte = time.monotonic()
                for line in splitter.feed(data):
                    self._handle(line)
            elif splitter.pending and time.monotonic() - last_byte >= LINE_IDLE_TIMEOUT:
                dropped = splitter.discard_pending()
                self._noise(
                    f"incomplete line discarded: {dropped} bytes and no newline "
                    f"for {LINE_IDLE_TIMEOUT} s"
                )

    def _overlong(self, length: int) -> None:
        self._noise(f"rejected line: too long: {length} bytes")

    def _noise(self, detail: str) -> None:
        self._emit(DeviceNoise(self.name, detail))

    def _handle(self, line: bytes) -> None:
        try:
            message = parse_line(line)
        except ProtocolError as error:
            self._noise(f"rejected line: {error}: {line[:_NOISE_SAMPLE]!r}")
            return
        if message.verb == "HELLO":
            self._tracker.reset()
        missed = self._tracker.check(message.seq)
        if missed:
            self._noise(f"sequence gap: {missed} message(s) missed before seq {message.seq}")
        if message.verb == "ROLL":
            die, face = _int_field(message, "die"), _int_field(message, "face")
            if die is None or face is None:
                self._noise(f"ROLL {message.seq} without integer die and face: {message.fields}")
            else:
                self._emit(DieRolled(die, face, message.seq, self.name))
        elif message.verb == "HELLO":
            proto = message.fields.get("proto", "?")
            firmware = message.fields.get("fw", "?")
            detail = f"reader firmware {firmware}, protocol {proto}"
            self._emit(DeviceStatus(self.name, True, detail))
            self._ready.set()
        elif message.verb == "PONG":
            self._emit(DeviceStatus(self.name, True, "pong"))
            self._pong.set()
        elif message.verb == "ERR":
            self._noise(f"reader reports error: {message.fields.get('msg', '?')}")
        # Any other verb is from a newer protocol: ignored.
