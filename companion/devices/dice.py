"""Dice readers: something that reports dice being rolled.

``SerialDiceReader`` is the host driver for a reader speaking the line protocol of
``docs/dice-protocol.md`` over a serial port: the firmware in ``firmware/`` on a real board, or
the simulated reader (``dice_sim``) behind a pty. It runs one daemon thread that opens the port by
its stable path, reads and parses lines, emits events, and reopens the port whenever it is lost
(unplugged, the board restarted), within ``reconnect_interval`` of the port coming back.

A reader can misbehave (a broken board, a glitching cable, a fake device): whatever it sends, the
driver's memory and the number of events it emits stay bounded. Noise is counted and summarised
(``NOISE_REPORT_INTERVAL``), parsing is budgeted (``MAX_LINES_PER_SECOND``), and only the dice the
reader declared, with the faces of the profiles the host asked, become events.

The meaning of each line the reader sends is :mod:`.dice_messages`'s.
"""

from __future__ import annotations

import os
import threading
import time
from abc import ABC, abstractmethod
from typing import Any

from ..i18n import t
from .dice_guard import (
    MAX_BYTES_PER_SECOND,
    MAX_LINES_PER_SECOND,
    NOISE_KINDS,
    NOISE_REPORT_INTERVAL,
    ROLL_MEMORY,
    ROLL_WINDOW,
    AskedProfile,
    LineBudget,
    NoiseLedger,
    NoiseTotals,
    RollBook,
)
from .dice_messages import DEFAULT_DICE, MAX_DICE, ReaderMessages
from .dice_protocol import (
    LINE_IDLE_TIMEOUT,
    PROTOCOL_VERSION,
    SEQ_MODULUS,
    LineSplitter,
    Message,
    SequenceTracker,
    encode,
)
from .events import DeviceNoise, DeviceStatus, Emit

_READ_TIMEOUT = 0.1  # seconds a read waits: bounds how slowly close() stops and noise is told
_READ_CHUNK = 4096  # bytes read at once for parsing: bounds the lines handled between checks
WRITE_STALL = 0.5  # seconds a command may wait for the port to take a byte before it fails


def write_within(port: Any, data: bytes, stall: float = WRITE_STALL) -> None:
    """Write all of ``data`` to an open pyserial port, or raise if it takes nothing for ``stall`` s.

    pyserial's own ``write_timeout`` counts from the call: a thread that is descheduled just after
    its bytes went out (a busy Pi) reports a timeout for a command the reader did receive. This
    fails only when the port stops accepting bytes, which is what the bound is for: a reader that
    stopped reading must not hold the table's thread.
    """
    import select

    import serial

    descriptor = port.fileno()  # pyserial opens it non-blocking
    pending = memoryview(data)
    while pending:
        try:
            pending = pending[os.write(descriptor, pending) :]
        except BlockingIOError:
            pass
        if pending and not select.select([], [descriptor], [], stall)[1]:
            raise serial.SerialTimeoutException(
                f"write stalled: the port took no byte for {stall} s"
            )


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


_D6 = AskedProfile.of("d6", None)
__all__ = [
    "DEFAULT_DICE",
    "MAX_BYTES_PER_SECOND",
    "MAX_DICE",
    "MAX_LINES_PER_SECOND",
    "NOISE_KINDS",
    "NOISE_REPORT_INTERVAL",
    "ROLL_MEMORY",
    "ROLL_WINDOW",
    "DiceReader",
    "NoiseTotals",
    "ReaderError",
    "SerialDiceReader",
]


class DiceReader(ABC):
    """A source of ``DieRolled`` and ``DieState`` events, identified by ``name``."""

    name: str

    def set_profile(self, die: int, name: str, faces: tuple[str, ...] | None = None) -> None:
        """Ask the reader to read die ``die`` with profile ``name`` (kept across reconnects)."""

    @abstractmethod
    def close(self) -> None:
        """Stop reading and release the reader; calling it again does nothing."""


class SerialDiceReader(ReaderMessages, DiceReader):
    """Host driver for a dice reader on serial port ``port`` (best a ``/dev/serial/by-id`` path).

    Emits:

    * ``DieRolled`` for each new ``ROLL`` of a declared die (below) with an integer ``roll`` and
      a ``face`` of the profile asked for that die (``set_profile``, else ``d6``); a ``profile``
      field naming another profile, or a ``value`` or ``again`` that is not that face's, is noise.
      The event's ``value`` and ``again`` are the profile's;
    * ``DieState`` for ``MOVING``, ``ROLLING``, ``CROOKED``, ``PLACED``, each die's state report
      (``DIE``) and a die whose sensor failed (``ERR code=sensor``), of declared dice only; a
      ``PLACED`` face must be the asked profile's, and so must a ``DIE`` face when the ``DIE``
      names that profile (one naming another, sent before the reader obeyed, loses its face);
    * ``DeviceNoise`` for rejected lines, discarded partial lines, sequence gaps, malformed or
      refused messages, floods and other ``ERR``: the first after a quiet
      ``noise_interval`` at once, the rest summed up in at most one more per ``noise_interval``
      (how many lines and bytes, and the first of them); ``noise_totals()`` counts it all;
    * ``DeviceStatus(name, True, ...)`` on connecting, on ``HELLO`` (saying whether the reader
      restarted), on ``POWER`` and on ``PONG``; ``DeviceStatus(name, False, reason)`` when the port
      cannot be opened (once per outage), is lost, or is closed.

    **Declared dice.** ``dice_count`` is the ``dice`` of the reader's last ``HELLO`` (at most
    ``MAX_DICE``; ``DEFAULT_DICE`` until a HELLO says). Reports of other die numbers are noise.

    **Roll numbers.** The firmware numbers each die's rolls from 1 at every boot and sends the
    ``ROLLING`` of a number before its ``ROLL``. A ``ROLL`` is delivered when its number is not
    one of the die's last ``ROLL_MEMORY`` delivered ones and either it is at most ``ROLL_WINDOW``
    after the last delivered one (any number, before the first), or it is the number of the die's
    latest ``ROLLING``. Anything else is noise and changes nothing: a replayed ``ROLL`` is dropped,
    and a forged huge number cannot hide the next genuine roll, whose ``ROLLING`` vouches for it.
    A host that reconnects to a reader that kept counting is back in step at the next roll (in the
    window, or vouched for); only a roll far past the window whose ``ROLLING`` was lost is lost
    too. A new boot (``HELLO`` with another ``boot`` or ``why=power``) starts every count again.

    **Budget.** At most ``line_budget`` lines and ``byte_budget`` bytes are parsed per second;
    past that, the rest of the second is read and discarded unparsed, as noise.

    Unknown verbs and fields are ignored. On connecting the driver says ``HELLO`` (opening a port
    discards unread input, so the reader's power-on ``HELLO`` may be lost), and after every
    ``HELLO`` from the reader it sends the profiles asked with ``set_profile`` for declared dice,
    then ``STATUS``. Every command is safe to repeat.
    """

    def __init__(
        self,
        port: str,
        emit: Emit,
        *,
        name: str = "dice",
        baudrate: int = 115200,
        reconnect_interval: float = 0.5,
        noise_interval: float = NOISE_REPORT_INTERVAL,
        line_budget: int = MAX_LINES_PER_SECOND,
        byte_budget: int = MAX_BYTES_PER_SECOND,
    ) -> None:
        if noise_interval <= 0:
            raise ValueError(f"noise_interval must be more than 0 s, not {noise_interval}")
        self.name = name
        self.port = port
        self.baudrate = baudrate
        self.reconnect_interval = reconnect_interval
        self.info: dict[str, str] = {}  #: the fields of the reader's last HELLO
        self.dice_count = DEFAULT_DICE  #: the dice the reader declared (see the class docstring)
        self._emit = emit
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._pong = threading.Event()
        self._lock = threading.Lock()  # guards _serial, _tx_seq, _profiles and _waiting
        self._serial: Any = None
        self._tx_seq = 0
        self._tracker = SequenceTracker()
        self._profiles: dict[int, AskedProfile] = {}
        self._waiting: dict[int, list[Any]] = {}  # host seq -> [event, answer]
        self._boot: str | None = None  # the boot id of the reader's last HELLO
        self._rolls: dict[int, RollBook] = {}  # declared die -> its roll numbers this boot
        self._ledger = NoiseLedger(noise_interval)
        self._budget = LineBudget(line_budget, byte_budget)
        self._splitter = LineSplitter(on_overlong=self._overlong)
        self._resync = False  # a flood ended mid-line: skip to the next newline
        self._thread = threading.Thread(target=self._run, name=f"dice reader {name}", daemon=True)
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
                write_within(self._serial, line)
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

        Kept for any die, and from now on the faces of die ``die``'s reports must be this
        profile's. Sent now if connected and the reader declared die ``die``, and again after
        every ``HELLO`` that declares it, so a restarted reader gets it back. A reader that
        refuses it answers ``ERR``, which is reported as noise. Raises ``ValueError`` (and keeps
        nothing) if the command does not fit the protocol.
        """
        wanted = AskedProfile.of(name, tuple(faces) if faces is not None else None)
        # Checked now: a line that cannot be encoded would stop the reader thread at a HELLO.
        encode("PROFILE", 0, **_profile_fields(die, name, wanted.faces))
        with self._lock:
            if self._profiles.get(die) == wanted:
                return
            self._profiles[die] = wanted
        if self._ready.is_set() and self._declared(die):
            try:
                self._send_profile(die, wanted)
            except ConnectionError:
                pass  # sent on the next HELLO

    def profile(self, die: int) -> tuple[str, tuple[str, ...] | None]:
        """The profile asked for die ``die`` (``("d6", None)`` unless ``set_profile`` said)."""
        asked = self._asked(die)
        return asked.name, asked.faces

    def _asked(self, die: int) -> AskedProfile:
        with self._lock:
            return self._profiles.get(die, _D6)

    def _declared(self, die: int) -> bool:
        return 0 <= die < self.dice_count

    def _send_profile(self, die: int, asked: AskedProfile) -> None:
        self.send("PROFILE", **_profile_fields(die, asked.name, asked.faces))

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

    def noise_totals(self) -> NoiseTotals:
        """Everything discarded as noise since the driver was created."""
        return self._ledger.totals()

    @property
    def noise_lines(self) -> int:
        """Lines rejected or ignored as noise since the driver was created."""
        return self._ledger.totals().lines

    @property
    def noise_bytes(self) -> int:
        """Bytes rejected or discarded as noise since the driver was created."""
        return self._ledger.totals().bytes

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
                    port = serial.Serial(self.port, self.baudrate, timeout=_READ_TIMEOUT)
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
        self._splitter.discard_pending()
        self._resync = False
        self._emit(DeviceStatus(self.name, True, t("connected on {port}", port=self.port)))
        self.send("HELLO", proto=PROTOCOL_VERSION)
        last_byte = time.monotonic()
        try:
            while not self._stop.is_set():
                if self._budget.exhausted(time.monotonic()):
                    # Flooded: read nothing until this second's budget renews (the port's own
                    # buffer holds what comes meanwhile, and a sender on a full buffer waits),
                    # then discard what waits unparsed, in one read: no CPU spent on a flood.
                    self._stop.wait(self._budget.remaining(time.monotonic()))
                    waiting = port.in_waiting
                    data = port.read(waiting) if waiting else b""
                    if data:
                        last_byte = time.monotonic()
                        self._flooded(last_byte, len(data), not data.endswith(b"\n"))
                else:
                    data = port.read(min(port.in_waiting or 1, _READ_CHUNK))
                    if data:
                        last_byte = time.monotonic()
                        self._take(data, last_byte)
                    elif time.monotonic() - last_byte >= LINE_IDLE_TIMEOUT:
                        self._idle()
                self._tell_noise(time.monotonic())
        finally:
            if self._splitter.pending:
                dropped = self._splitter.discard_pending()
                self._noise(
                    "incomplete line",
                    f"incomplete line discarded: {dropped} bytes when the port closed",
                    size=dropped,
                )
            self._tell_noise(time.monotonic(), force=True)

    def _take(self, data: bytes, now: float) -> None:
        """Parse ``data`` within this second's budget; what is over it is a flood."""
        if self._resync:  # the rest of a line cut by a flood (it counts in the budget too)
            cut = data.find(b"\n")
            skipped = len(data) if cut < 0 else cut + 1
            self._budget.spend(now, size=skipped)
            self._ledger.record(now, "flood", None, lines=0, flooded=skipped)
            self._resync = cut < 0
            data = data[cut + 1 :] if cut >= 0 else b""
            if not data:
                return
        if not self._budget.spend(now, size=len(data)):
            self._flooded(
                now, len(data) + self._splitter.discard_pending(), not data.endswith(b"\n")
            )
            return
        start = 0
        while start < len(data):  # one line at a time: its noise is told in the order it came
            end = data.find(b"\n", start)
            if end < 0:
                self._splitter.feed(data[start:])  # the start of a line
                return
            if not self._budget.spend(now, lines=1):
                self._flooded(
                    now,
                    len(data) - start + self._splitter.discard_pending(),
                    not data.endswith(b"\n"),
                )
                return
            for line in self._splitter.feed(data[start : end + 1]):
                self._handle(line)
            start = end + 1

    def _idle(self) -> None:
        """Nothing arrived for ``LINE_IDLE_TIMEOUT``: a line left incomplete is over."""
        self._resync = False
        if self._splitter.pending:
            dropped = self._splitter.discard_pending()
            self._noise(
                "incomplete line",
                f"incomplete line discarded: {dropped} bytes and no "
                f"newline for {LINE_IDLE_TIMEOUT} s",
                size=dropped,
            )

    def _flooded(self, now: float, size: int, mid_line: bool) -> None:
        """``size`` bytes discarded unparsed; ``mid_line`` if they ended inside a line."""
        self._resync = mid_line
        budget = self._budget
        detail = None
        if not budget.flood_told:
            budget.flood_told = True
            detail = (
                f"flooded: over {budget.max_lines} lines or {budget.max_bytes} bytes in a "
                f"second; the rest of the second is discarded unparsed"
            )
        self._ledger.record(now, "flood", detail, lines=0, flooded=size)

    def _overlong(self, length: int) -> None:
        self._noise("rejected line", f"rejected line: too long: {length} bytes", size=length)

    def _noise(
        self, kind: str, detail: str, *, lines: int = 1, size: int = 0, missed: int = 0
    ) -> None:
        told = self._ledger.record(
            time.monotonic(), kind, detail, lines=lines, size=size, missed=missed
        )
        if told is not None:
            self._emit(DeviceNoise(self.name, told))

    def _tell_noise(self, now: float, *, force: bool = False) -> None:
        summary = self._ledger.due(now, force=force)
        if summary is not None:
            self._emit(DeviceNoise(self.name, summary))
