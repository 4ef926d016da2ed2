"""Dice readers: something that reports dice being rolled.

``SerialDiceReader`` is the host driver for a reader speaking the line protocol of
``docs/dice-protocol.md`` over a serial port: the firmware in ``firmware/`` on a real board, or
the simulated reader (``dice_sim``) behind a pty. It runs one daemon thread that opens the port by
its stable path, reads and parses lines, emits events, and reopens the port whenever it is lost
(unplugged, the board restarted), within ``reconnect_interval`` of the port coming back.
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
    int_field,
    parse_line,
)
from .events import DIE_STATES, DeviceNoise, DeviceStatus, DieRolled, DieState, Emit

_READ_TIMEOUT = 0.1  # seconds a read waits, which bounds how slowly close() can stop
_NOISE_SAMPLE = 40  # bytes of a rejected line quoted in its DeviceNoise
#: the reader verbs that report a die's state (besides ROLL), and the state each one means
_STATE_VERBS = {"MOVING": "moving", "ROLLING": "rolling", "CROOKED": "crooked",
                "PLACED": "placed"}


def _profile_fields(die: int, name: str, faces: tuple[str, ...] | None) -> dict[str, object]:
    """The fields of the ``PROFILE`` command for die ``die``."""
    if faces is None:
        return {"die": die, "name": name}
    return {"die": die, "name": name, "faces": ",".join(faces)}


class ReaderError(Exception):
    """The reader refused a command (``ERR``): ``code`` and ``msg`` are its own words."""

    def __init__(self, code: str, msg: str) -> None:
        super().__init__(f"{code}: {msg}")
        self.code = code
        self.msg = msg


class DiceReader(ABC):
    """A source of ``DieRolled`` and ``DieState`` events, identified by ``name``."""

    name: str

    def set_profile(self, die: int, name: str, faces: tuple[str, ...] | None = None) -> None:
        """Ask the reader to read die ``die`` with profile ``name`` (kept across reconnects)."""

    @abstractmethod
    def close(self) -> None:
        """Stop reading and release the reader; calling it again does nothing."""


class SerialDiceReader(DiceReader):
    """Host driver for a dice reader on serial port ``port`` (best a ``/dev/serial/by-id`` path).

    Emits:

    * ``DieRolled`` for each ``ROLL`` with an integer ``die`` and ``roll`` and a valid ``face``,
      once: a repeated roll number of the same reader boot is reported as noise instead;
    * ``DieState`` for ``MOVING``, ``ROLLING``, ``CROOKED``, ``PLACED``, for each die's state
      report (``DIE``) and for a die whose sensor failed (``ERR code=sensor``);
    * ``DeviceNoise`` for each rejected line, discarded partial line, sequence gap, malformed
      message and other ``ERR``;
    * ``DeviceStatus(name, True, ...)`` on connecting, on ``HELLO`` (saying whether the reader
      restarted), on ``POWER`` and on ``PONG``; ``DeviceStatus(name, False, reason)`` when the port
      cannot be opened (once per outage), is lost, or is closed.

    Unknown verbs and fields are ignored. On connecting the driver says ``HELLO`` (opening a port
    discards unread input, so the reader's power-on ``HELLO`` may be lost), and after every
    ``HELLO`` from the reader it sends the profiles asked with ``set_profile`` and ``STATUS``.
    Every command is safe to repeat.
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
        self.info: dict[str, str] = {}  #: the fields of the reader's last HELLO
        self._emit = emit
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._pong = threading.Event()
        self._lock = threading.Lock()  # guards _serial, _tx_seq, _profiles and _waiting
        self._serial: Any = None
        self._tx_seq = 0
        self._tracker = SequenceTracker()
        self._profiles: dict[int, tuple[str, tuple[str, ...] | None]] = {}
        self._waiting: dict[int, list[Any]] = {}  # host seq -> [event, answer]
        self._boot: str | None = None  # the boot id of the reader's last HELLO
        self._last_roll: dict[int, int] = {}  # die -> last roll number delivered this boot
        self._thread = threading.Thread(
            target=self._run, name=f"dice reader {name}", daemon=True
        )
        self._thread.start()

    # -- public ---------------------------------------------------------------------------------

    def send(self, verb: str, **fields: object) -> int:
        """Write one host command line (e.g. ``send("PING")``); returns its sequence number.

        Raises ``ConnectionError`` if the port is not open or the write fails, and
        ``ValueError`` if the command does not fit the protocol.
        """
        return self._send(verb, fields, None)

    def _send(self, verb: str, fields: dict[str, object], waiter: list[Any] | None) -> int:
        import serial

        with self._lock:
            if self._serial is None:
                raise ConnectionError(f"dice reader {self.name!r} is not connected")
            seq = self._tx_seq
            line = encode(verb, seq, **fields)
            self._tx_seq = (self._tx_seq + 1) % SEQ_MODULUS
            if waiter is not None:
                self._waiting[seq] = waiter
            try:
                self._serial.write(line)
            except (serial.SerialException, OSError) as error:
                self._waiting.pop(seq, None)
                raise ConnectionError(f"dice reader {self.name!r}: {error}") from error
        return seq

    def request(self, verb: str, timeout: float = 2.0, **fields: object) -> Message:
        """Send a command and wait for the reader's ``OK`` (returned) or ``ERR`` (raised).

        Raises ``ReaderError`` for an ``ERR``, ``TimeoutError`` if no answer came, and
        ``ConnectionError`` like ``send``.
        """
        waiter: list[Any] = [threading.Event(), None]
        seq = self._send(verb, fields, waiter)
        try:
            if not waiter[0].wait(timeout):
                raise TimeoutError(f"dice reader {self.name!r} did not answer {verb}")
        finally:
            with self._lock:
                self._waiting.pop(seq, None)
        answer: Message | None = waiter[1]
        if answer is None:
            raise ConnectionError(f"dice reader {self.name!r} went away before answering {verb}")
        if answer.verb == "ERR":
            raise ReaderError(answer.fields.get("code", "?"), answer.fields.get("msg", "?"))
        return answer

    def set_profile(self, die: int, name: str, faces: tuple[str, ...] | None = None) -> None:
        """Read die ``die`` with profile ``name`` (``faces`` for a custom one) from now on.

        Sent now if connected, and again after every ``HELLO``, so a restarted reader gets it
        back. A reader that refuses it answers ``ERR``, which is reported as noise. Raises
        ``ValueError`` (and keeps nothing) if the command does not fit the protocol.
        """
        wanted = (name, tuple(faces) if faces is not None else None)
        # Checked now: a line that cannot be encoded would stop the reader thread at a HELLO.
        encode("PROFILE", 0, **_profile_fields(die, *wanted))
        with self._lock:
            if self._profiles.get(die) == wanted:
                return
            self._profiles[die] = wanted
        if self._ready.is_set():
            try:
                self._send_profile(die, *wanted)
            except ConnectionError:
                pass  # sent on the next HELLO

    def profile(self, die: int) -> tuple[str, tuple[str, ...] | None]:
        """The profile asked for die ``die`` (``("d6", None)`` unless ``set_profile`` said)."""
        with self._lock:
            return self._profiles.get(die, ("d6", None))

    def _send_profile(self, die: int, name: str, faces: tuple[str, ...] | None) -> None:
        self.send("PROFILE", **_profile_fields(die, name, faces))

    def identify(self, ms: int = 3000) -> Message:
        """Blink the reader's own LED for ``ms`` milliseconds; returns its ``OK``."""
        return self.request("IDENTIFY", ms=ms)

    def flash(self, die: int, ms: int = 1000) -> Message:
        """Flash the LED in die ``die``; ``ReaderError`` (``no-led``) if it has none."""
        return self.request("FLASH", die=die, ms=ms)

    def wait_ready(self, timeout: float) -> bool:
        """Wait until the reader has said HELLO on the current connection."""
        return self._ready.wait(timeout)

    @property
    def connected(self) -> bool:
        """Whether the reader is connected and has said HELLO."""
        return self._ready.is_set()

    def ping(self, timeout: float) -> bool:
        """Send ``PING`` and wait for a ``PONG``; False if none came in ``timeout`` s.

        The reader answers in order, so a ``PONG`` also means that everything it sent before has
        arrived. Raises ``ConnectionError`` like ``send``.
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

    # -- the reader thread -----------------------------------------------------------------------

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
                        for waiter in self._waiting.values():
                            waiter[0].set()  # its answer stays None: see request()
                        self._waiting.clear()
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
        try:
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
        finally:
            if splitter.pending:
                dropped = splitter.discard_pending()
                self._noise(f"incomplete line discarded: {dropped} bytes when the port closed")

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
        verb, fields = message.verb, message.fields
        if verb == "HELLO":
            self._tracker.reset()
        missed = self._tracker.check(message.seq)
        if missed:
            self._noise(f"sequence gap: {missed} message(s) missed before seq {message.seq}")
        if verb == "ROLL":
            self._roll(message)
        elif verb in _STATE_VERBS:
            self._state(message, _STATE_VERBS[verb])
        elif verb == "DIE":
            state = fields.get("state", "")
            if state in DIE_STATES:
                self._state(message, state, f"profile {fields.get('profile', '?')}")
        elif verb == "HELLO":
            self._hello(message)
        elif verb == "POWER":
            volts = int_field(message, "mv")
            supply = fields.get("src", "?") + (f" {volts / 1000:.2f} V" if volts else "")
            self._emit(DeviceStatus(self.name, True, f"power: {supply}"))
        elif verb == "PONG":
            self._emit(DeviceStatus(self.name, True, "pong"))
            self._pong.set()
        elif verb in ("OK", "ERR"):
            self._answer(message)
        # Any other verb is from a newer protocol: ignored.

    def _hello(self, message: Message) -> None:
        fields = message.fields
        boot = fields.get("boot", "")
        restarted = self._boot is not None and (
            boot != self._boot or fields.get("why") == "power")
        if boot != self._boot or fields.get("why") == "power":
            self._last_roll.clear()  # roll numbers start again at every boot
        self._boot = boot
        self.info = dict(fields)
        detail = (f"reader firmware {fields.get('fw', '?')}, protocol {fields.get('proto', '?')}"
                  + (", restarted" if restarted else ""))
        self._emit(DeviceStatus(self.name, True, detail))
        with self._lock:
            profiles = dict(self._profiles)
        for die, (name, faces) in sorted(profiles.items()):
            self._send_profile(die, name, faces)
        self.send("STATUS")
        self._ready.set()

    def _roll(self, message: Message) -> None:
        fields = message.fields
        die, roll = int_field(message, "die"), int_field(message, "roll")
        face = fields.get("face")
        value = fields.get("value")
        try:
            if die is None or roll is None or face is None:
                raise ValueError("without integer die and roll and a face")
            if value is not None and not (value.isdigit() or
                                          (value[:1] == "-" and value[1:].isdigit())):
                raise ValueError(f"with a value that is not a number: {value!r}")
            event = DieRolled(die, face, message.seq, self.name,
                              value=int(value) if value is not None else None, roll=roll,
                              profile=fields.get("profile"), again=fields.get("again") == "1")
        except (TypeError, ValueError) as error:
            self._noise(f"ROLL {message.seq} rejected: {error}: {fields}")
            return
        last = self._last_roll.get(die)
        if last is not None and roll <= last:
            self._noise(f"ROLL {message.seq} ignored: die {die} roll {roll} is not after "
                        f"roll {last}, already delivered")
            return
        self._last_roll[die] = roll
        self._emit(event)

    def _state(self, message: Message, state: str, detail: str = "") -> None:
        die = int_field(message, "die")
        face = message.fields.get("face")
        try:
            if die is None:
                raise ValueError("without an integer die")
            event = DieState(die, state, self.name, face=face, roll=int_field(message, "roll"),
                             detail=detail)
        except ValueError as error:
            self._noise(f"{message.verb} {message.seq} rejected: {error}: {message.fields}")
            return
        self._emit(event)

    def _answer(self, message: Message) -> None:
        fields = message.fields
        ref = int_field(message, "ref")
        with self._lock:
            waiter = self._waiting.pop(ref, None) if ref is not None else None
        if waiter is not None:
            waiter[1] = message
            waiter[0].set()
        if message.verb == "OK":
            return
        code, msg = fields.get("code", "?"), fields.get("msg", "?")
        die = int_field(message, "die")
        if code == "sensor" and die is not None:
            self._emit(DieState(die, "missing", self.name, detail=f"sensor error: {msg}"))
        elif waiter is None:
            self._noise(f"reader reports error {code}: {msg}")
