"""The PN532 NFC reader on a Raspberry Pi, through Adafruit's ``adafruit_pn532`` library.

:class:`Pn532Reader` is an :class:`~companion.devices.nfc.NfcReader`: one daemon thread per reader
opens its bus, wakes the PN532 up and checks it, then polls for a tag and emits
``TagTapped(name, uid)`` once per placement. Several readers (one at the board, one per seat) are
several instances, each with its own name and bus.

**Buses.** ``port`` says which: ``/dev/i2c-1`` is I2C bus 1 (header pins 3 and 5, the PN532 at
``address`` 0x24, through Blinka's ``busio.I2C(board.SCL, board.SDA)``); anything else is a serial
port at 115200 baud (``/dev/serial0``, the header's UART, the default; or a USB serial adapter,
best by its ``/dev/serial/by-id/`` path), opened with pyserial, which is what Adafruit's examples
give ``PN532_UART`` on a Raspberry Pi (Blinka's own ``busio.UART`` wraps pyserial too). The reader's
interface switches must match (UART/HSU: both off; I2C: SEL0 on, SEL1 off). PN532s on I2C all
answer at 0x24, so a second reader needs its own UART (a Pi 4 or 5 has more, ``dtoverlay=uart2``
...) or a USB serial adapter. The UART is the wiring to prefer: the PN532 stretches the I2C clock,
which the Raspberry Pi's I2C controller handles poorly (Adafruit's I2C example also wires the
PN532's reset and P32/H_REQUEST pins; this driver uses neither, and takes the resulting failures
as noise or a lost reader, and tries again). On UART each poll lasts about ``UART_TIMEOUT``: the
library asks for more bytes than an answer has, and pyserial waits out its timeout.

**On the wire** (every frame ``00 00 FF LEN LCS D4 command data... DCS 00``, LCS making
``LEN + LCS`` and DCS making ``D4 + command + data + DCS`` zero modulo 256; the PN532 answers each
frame with the ACK ``00 00 FF 00 FF 00`` and then a frame of its own, ``D5 command+1 ...``):

1. on UART only, the wake-up ``55 55`` and 15 zero bytes;
2. ``SAMConfiguration`` (``14``: normal mode, 1 s, IRQ), sent by the library's constructor;
3. ``GetFirmwareVersion`` (``02``), sent by the library's constructor and once more by the
   driver, which reports the answer (``PN532 firmware 1.6``) in its ``DeviceStatus``;
4. ``RFConfiguration`` item 5, MaxRetries (``32 05 FF 01 rr``): the PN532 gives up looking for a
   tag after ``passive_retries + 1`` attempts, so each poll ends with an answer, "no tag" too,
   instead of a command left running that the next one interrupts;
5. then, every ``poll_interval``, ``InListPassiveTarget`` for one ISO 14443 type A tag at
   106 kbit/s (``4A 01 00``), answered ``D5 4B 00`` (no tag) or ``D5 4B 01 01 ATQA(2) SAK
   len uid...``.

The library frames and checks every exchange (ACK, LEN/LCS, DCS, the answer's command).
``InListPassiveTarget`` goes through its ``call_function``, with the same bytes as its
``read_passive_target``, whose parsing of the answer is not used: it refuses 10-byte UIDs and
takes the PN532's "no tag" answer (``NbTg`` 0) for "more than one card". The driver reads the
target data itself (:func:`parse_passive_target`): 4-, 7- (NTAG stickers) and 10-byte UIDs, as
upper-case hex. A 4-byte UID starting with ``08`` is random, new at every activation (a phone
emulating a card): it is reported once per presence as noise, never as a tap.

**Debounce** (:class:`TagDebouncer`): a tag counts as a new tap when it was not on the reader;
it stays "on the reader" until it has been missing from ``release_polls`` polls in a row and for
at least ``release_seconds`` since it was last seen, so a tag left on the reader taps once, a
missed read now and then (PN532s are reported to miss every other read of some 7-byte tags left
on them) does not tap again, and a different tag taps at once. A corrupt poll counts neither way.
What is on the reader is kept across reconnections: a tag that stayed on the reader while it was
away does not tap again.

**Status and noise**, like :class:`~companion.devices.dice.SerialDiceReader`:
``DeviceStatus(name, True, "PN532 firmware 1.6 on /dev/serial0")`` on connecting;
``DeviceStatus(name, False, reason)`` when the bus cannot be opened or no PN532 answers on it
(once per outage), when the reader is lost (the port went away; ``max_failures`` polls in a row
unanswered or corrupt), and on ``close()``. The thread tries again every ``reconnect_interval``.
Each corrupt answer (a bad checksum, a wrong ACK, a truncated frame, malformed target data) is a
``DeviceNoise`` and the poll is skipped.

Hardware libraries are imported only in this module's functions, never when it is imported: the
library (``adafruit-circuitpython-pn532``, the ``pi`` extra) when a reader is made, pyserial or
Blinka's ``board``/``busio`` when its bus is opened. ``open_bus`` replaces the opening of the bus
(the tests give it a fake that plays the PN532's side of the protocol), so the library's real code
runs on the fakes, with no Pi and no reader.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from typing import Any

from .errors import DeviceSetupError
from .events import UID_LENGTHS, DeviceNoise, DeviceStatus, Emit, TagTapped
from .nfc import NfcReader

DEFAULT_PORT = "/dev/serial0"  #: the header's UART (pins 8 and 10)
I2C_ADDRESS = 0x24  #: the PN532's I2C address (fixed by the chip)
BAUDRATE = 115200  #: the PN532's HSU speed after power-on
UART_TIMEOUT = 0.1  #: seconds a serial read waits (as in Adafruit's examples): a poll's length
I2C_BUS = 1  #: the header's I2C bus (SDA on pin 3, SCL on pin 5)

# PN532 commands (PN532 User Manual, UM0701-02, chapter 7)
RF_CONFIGURATION = 0x32
RF_MAX_RETRIES = 0x05  #: RFConfiguration item: MxRtyATR, MxRtyPSL, MxRtyPassiveActivation
IN_LIST_PASSIVE_TARGET = 0x4A
ISO14443A_106 = 0x00  #: BrTy: 106 kbit/s type A (MIFARE, NTAG)
RANDOM_UID_FIRST_BYTE = 0x08  #: a 4-byte NFCID1 starting with 08 is random (ISO/IEC 14443-3)
_TARGET_BYTES = 64  #: the most target data read from an InListPassiveTarget answer (as the library)

_I2C_PORT = re.compile(r"/dev/i2c-(\d+)")
RANDOM = "random"  #: the debouncer's key for tags with random UIDs


class Pn532SetupError(DeviceSetupError, ValueError):
    """A PN532 reader cannot be set up as asked: the message says what to change."""


class FrameError(Exception):
    """An answer from the PN532 that is well framed but makes no sense."""


class _NoAnswer(Exception):
    """The PN532 did not answer a poll within ``poll_timeout``."""


def interface_of(port: str) -> str:
    """``"i2c"`` for ``/dev/i2c-N``, else ``"uart"`` (the header's UART or a USB adapter)."""
    return "i2c" if _I2C_PORT.fullmatch(port) else "uart"


def parse_passive_target(data: bytes | bytearray) -> bytes | None:
    """The UID in the data of an ``InListPassiveTarget`` answer for one type A target, or None
    when no tag answered. The data: ``NbTg`` (0 or 1), then ``Tg``, ``SENS_RES`` (2 bytes),
    ``SEL_RES``, ``NFCIDLength`` and the NFCID1 (``ATS`` may follow). Raises ``FrameError``."""
    if not data:
        raise FrameError("InListPassiveTarget answer without data")
    count = data[0]
    if count == 0:
        return None
    if count != 1:
        raise FrameError(f"InListPassiveTarget listed {count} targets; 1 was asked")
    if len(data) < 6:
        raise FrameError(f"InListPassiveTarget answer too short: {bytes(data).hex(' ')}")
    length = data[5]
    if length not in UID_LENGTHS:
        raise FrameError(f"tag UID of {length} bytes (4, 7 or 10 expected): {bytes(data).hex(' ')}")
    if len(data) < 6 + length:
        raise FrameError(f"tag UID cut short: {bytes(data).hex(' ')}")
    return bytes(data[6 : 6 + length])


def describe(error: BaseException) -> str:
    """An exception in a few words: ``OSError``, pyserial's and termios's errors carry
    ``(errno, message)``; the library raises ``RuntimeError("text: ", value)``."""
    args = error.args
    if len(args) == 2 and isinstance(args[0], int) and isinstance(args[1], str):
        return args[1]
    text = " ".join(str(arg).strip() for arg in args)
    return text or type(error).__name__


class TagDebouncer:
    """Which polls bring a new tap. ``observe(uid, now)`` is given each poll's result (a UID, or
    None for no tag) and says whether it is a tap: a UID that was not on the reader. A tag leaves
    the reader after ``release_polls`` polls in a row without it, ``release_seconds`` or more
    after it was last seen. Each tag is followed on its own, so two tags on the reader, read in
    turn, tap once each."""

    def __init__(self, release_polls: int = 3, release_seconds: float = 0.3) -> None:
        self.release_polls = release_polls
        self.release_seconds = release_seconds
        self._present: dict[str, tuple[int, float]] = {}  # uid -> (polls missed, last seen)

    @property
    def present(self) -> frozenset[str]:
        """The tags counted as on the reader."""
        return frozenset(self._present)

    def observe(self, uid: str | None, now: float) -> bool:
        new = uid is not None and uid not in self._present
        for other, (missed, seen) in list(self._present.items()):
            if other == uid:
                continue
            missed += 1
            if missed >= self.release_polls and now - seen >= self.release_seconds:
                del self._present[other]
            else:
                self._present[other] = (missed, seen)
        if uid is not None:
            self._present[uid] = (0, now)
        return new

    def clear(self) -> None:
        self._present.clear()


def open_uart(port: str, baudrate: int = BAUDRATE, timeout: float = UART_TIMEOUT) -> Any:
    """The serial port for ``PN532_UART``: a pyserial ``Serial`` (what the library reads with
    ``read``, ``in_waiting`` and ``reset_input_buffer``)."""
    import serial

    return serial.Serial(port, baudrate, timeout=timeout, write_timeout=0.5)


def _check_i2c_bus(port: str) -> None:
    match = _I2C_PORT.fullmatch(port)
    if match is None or int(match.group(1)) != I2C_BUS:
        raise Pn532SetupError(
            f"NFC reader on {port!r}: a PN532 on I2C must be on bus {I2C_BUS} "
            f"(/dev/i2c-{I2C_BUS}, header pins 3 and 5); a second reader needs "
            f"a UART of its own or a USB serial adapter"
        )


def open_i2c(port: str) -> Any:
    """Blinka's ``busio.I2C`` on the header's I2C bus 1, for ``PN532_I2C``."""
    _check_i2c_bus(port)
    import busio

    from .blinka import import_board

    board = import_board()

    return busio.I2C(board.SCL, board.SDA)


def _load_library(interface: str) -> tuple[Any, tuple[type[BaseException], ...]]:
    """The library's class for ``interface`` and the errors it raises for a corrupt answer."""
    try:
        from adafruit_pn532.adafruit_pn532 import BusyError

        if interface == "i2c":
            from adafruit_pn532.i2c import PN532_I2C as pn532_class
        else:
            from adafruit_pn532.uart import PN532_UART as pn532_class
    except ImportError as exc:
        raise Pn532SetupError(
            f"the PN532 driver needs Adafruit's library ({exc}): install the companion with its "
            f"Raspberry Pi extra, pip install 'companion[pi]'"
        ) from exc
    except (NotImplementedError, RuntimeError) as exc:  # Blinka cannot drive this board's pins
        raise Pn532SetupError(f"Adafruit's PN532 library cannot start here: {exc}") from exc
    # RuntimeError: a wrong ACK, preamble, length checksum, data checksum or answer; BusyError:
    # nothing to read; IndexError: a frame cut short; FrameError: target data that makes no sense
    return pn532_class, (RuntimeError, BusyError, IndexError, FrameError)


def _positive(what: str, value: float, *, zero: bool = False) -> None:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or value < 0
        or (value == 0 and not zero)
    ):
        raise Pn532SetupError(
            f"NFC reader: {what} must be a number {'>= 0' if zero else '> 0'}, not {value!r}"
        )


class Pn532Reader(NfcReader):
    """A PN532 on ``port`` (``/dev/serial0``, a USB serial adapter, or ``/dev/i2c-1``), emitting
    ``TagTapped(name, uid)`` from its own thread; see the module's description.

    Raises :class:`Pn532SetupError` (a ``DeviceSetupError``) at once for an argument out of range,
    an I2C bus other than bus 1, or a missing library; everything that can come and go (the port,
    the reader, its answers) is reported by events and retried.
    """

    def __init__(
        self,
        name: str,
        emit: Emit,
        *,
        port: str = DEFAULT_PORT,
        address: int = I2C_ADDRESS,
        baudrate: int = BAUDRATE,
        poll_interval: float = 0.1,
        poll_timeout: float = 0.5,
        release_polls: int = 3,
        release_seconds: float = 0.3,
        passive_retries: int = 1,
        max_failures: int = 3,
        reconnect_interval: float = 0.5,
        open_bus: Callable[[], Any] | None = None,
    ) -> None:
        if not isinstance(name, str) or not name:
            raise Pn532SetupError(f"NFC reader: a name is needed, not {name!r}")
        if not isinstance(port, str) or not port:
            raise Pn532SetupError(f"NFC reader {name!r}: a port is needed, not {port!r}")
        _positive("poll_interval", poll_interval, zero=True)
        _positive("poll_timeout", poll_timeout)
        _positive("release_seconds", release_seconds, zero=True)
        _positive("reconnect_interval", reconnect_interval)
        for what, value, low, high in (
            ("release_polls", release_polls, 1, 1000),
            ("max_failures", max_failures, 1, 1000),
            ("passive_retries", passive_retries, 0, 0xFE),
            ("address", address, 0x08, 0x77),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise Pn532SetupError(
                    f"NFC reader {name!r}: {what} must be an integer from "
                    f"{low} to {high}, not {value!r}"
                )
        self.name = name
        self.port = port
        self.interface = interface_of(port)
        self.address = address
        self.baudrate = baudrate
        self.poll_interval = poll_interval
        self.poll_timeout = poll_timeout
        self.passive_retries = passive_retries
        self.max_failures = max_failures
        self.reconnect_interval = reconnect_interval
        #: the last GetFirmwareVersion answer: (IC, Ver, Rev, Support), None before the first
        self.firmware: tuple[int, int, int, int] | None = None
        if open_bus is None:
            if self.interface == "i2c":
                _check_i2c_bus(port)
                open_bus = lambda: open_i2c(port)  # noqa: E731
            else:
                open_bus = lambda: open_uart(port, baudrate)  # noqa: E731
        self._open_bus = open_bus
        self._pn532_class, self._corrupt = _load_library(self.interface)
        self._emit = emit
        self._debounce = TagDebouncer(release_polls, release_seconds)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"nfc reader {name}", daemon=True)
        self._thread.start()

    # -- public ---------------------------------------------------------------------------------

    def close(self) -> None:
        """Stop the thread (within a poll, at most ``poll_timeout`` and a serial read) and close
        the bus; calling it again does nothing."""
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join()

    def __enter__(self) -> Pn532Reader:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- the thread -----------------------------------------------------------------------------

    def _run(self) -> None:
        outage: str | None = None  # why the reader is unusable, once reported
        try:
            while not self._stop.is_set():
                try:
                    bus = self._open_bus()
                except Exception as error:  # noqa: BLE001 - pyserial, Blinka: any reason
                    if outage is None:
                        outage = f"cannot open {self.port}: {describe(error)}"
                        self._emit(DeviceStatus(self.name, False, outage))
                    self._stop.wait(self.reconnect_interval)
                    continue
                lost: str | None = None
                try:
                    try:
                        pn532 = self._connect(bus)
                    except Exception as error:  # noqa: BLE001 - no PN532, or a garbled one
                        if outage is None:
                            outage = f"no PN532 answers on {self.port}: {describe(error)}"
                            self._emit(DeviceStatus(self.name, False, outage))
                    else:
                        outage = None
                        try:
                            lost = self._poll(pn532)
                        except Exception as error:  # noqa: BLE001 - the port went away
                            lost = f"lost {self.port}: {describe(error)}"
                finally:
                    self._close_bus(bus)
                if lost is not None:
                    outage = lost
                    self._emit(DeviceStatus(self.name, False, lost))
                self._stop.wait(self.reconnect_interval)
        finally:
            self._emit(DeviceStatus(self.name, False, "closed"))

    def _connect(self, bus: Any) -> Any:
        """Wake the PN532 up and configure it (the library's constructor: wake-up,
        SAMConfiguration, GetFirmwareVersion), then report its firmware and bound its retries."""
        if self.interface == "i2c":
            pn532 = self._pn532_class(bus, address=self.address, debug=False)
        else:
            pn532 = self._pn532_class(bus, debug=False)
        ic, version, revision, support = pn532.firmware_version
        answer = pn532.call_function(
            RF_CONFIGURATION,
            params=[RF_MAX_RETRIES, 0xFF, 0x01, self.passive_retries],
            timeout=self.poll_timeout,
        )
        if answer is None:
            raise RuntimeError("no answer to RFConfiguration (MaxRetries)")
        self.firmware = (ic, version, revision, support)
        self._emit(
            DeviceStatus(
                self.name, True, f"PN5{ic:02X} firmware {version}.{revision} on {self.port}"
            )
        )
        return pn532

    def _poll(self, pn532: Any) -> str | None:
        """Poll until ``close()`` (None) or until the reader is lost (why)."""
        failures = 0
        while not self._stop.is_set():
            try:
                uid = self._read_uid(pn532)
            except _NoAnswer:
                failures += 1
                why = f"no answer within {self.poll_timeout} s"
            except self._corrupt as error:
                if self._stop.is_set():
                    break
                failures += 1
                why = "corrupt answers"
                self._emit(
                    DeviceNoise(
                        self.name, f"corrupt answer from the PN532, poll skipped: {describe(error)}"
                    )
                )
            else:
                failures = 0
                self._observe(uid)
                self._stop.wait(self.poll_interval)
                continue
            if failures >= self.max_failures:
                return f"lost the PN532 on {self.port}: {why} to {failures} polls in a row"
            self._stop.wait(self.poll_interval)
        return None

    def _read_uid(self, pn532: Any) -> bytes | None:
        answer = pn532.call_function(
            IN_LIST_PASSIVE_TARGET,
            response_length=_TARGET_BYTES,
            params=[0x01, ISO14443A_106],
            timeout=self.poll_timeout,
        )
        if answer is None:
            raise _NoAnswer
        return parse_passive_target(answer)

    def _observe(self, uid: bytes | None) -> None:
        key: str | None = None
        if uid is not None:
            random = len(uid) == 4 and uid[0] == RANDOM_UID_FIRST_BYTE
            key = RANDOM if random else uid.hex().upper()
        if not self._debounce.observe(key, time.monotonic()):
            return
        assert uid is not None and key is not None
        if key == RANDOM:
            self._emit(
                DeviceNoise(
                    self.name,
                    f"a tag with a random UID ({uid.hex().upper()}), a phone perhaps, ignored",
                )
            )
        else:
            self._emit(TagTapped(self.name, key))

    def _close_bus(self, bus: Any) -> None:
        try:
            if self.interface == "i2c":
                bus.deinit()
            else:
                bus.close()
        except Exception:  # noqa: BLE001 - a bus that went away may not close cleanly
            pass
