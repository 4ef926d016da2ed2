"""Fixtures and frames shared by the tests of the PN532 NFC driver (``test_nfc_pn532_wire.py``,
``test_nfc_pn532_faults.py``), imported by name, as pytest finds fixtures in a module's
globals: the exact bytes the host sends and the fake PN532 answers, fake serial ports and
readers made on them (closed after the test), fast unless real."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from pn532_fake import FakeSerialPort, Pn532Emulator

from companion.devices.events import DeviceStatus, TagTapped
from companion.devices.nfc_pn532 import Pn532Reader

REAL_PORT = "COMPANION_TEST_PN532_PORT"
REAL_TAG = "COMPANION_TEST_PN532_TAG"

# What the host sends, byte for byte: 00 00 FF, LEN, LCS, D4, command, data, DCS, 00
SAM = bytes.fromhex("0000ff05fb d4140114 01 02 00")  # SAMConfiguration: normal, 1 s, IRQ
FIRMWARE = bytes.fromhex("0000ff02fe d402 2a 00")  # GetFirmwareVersion
RETRIES = bytes.fromhex("0000ff06fa d43205ff0101 f4 00")  # RFConfiguration MaxRetries FF 01 01
POLL = bytes.fromhex("0000ff04fc d44a0100 e1 00")  # InListPassiveTarget: 1 target, type A
# What the fake PN532 answers
FIRMWARE_ANSWER = bytes.fromhex("0000ff06fa d503 32010607 e8 00")  # PN532, v1.6, support 7
NO_TAG_ANSWER = bytes.fromhex("0000ff03fd d54b 00 e0 00")
NTAG = "04A1B2C3D4E5F6"
NTAG_ANSWER = bytes.fromhex("0000ff0ff1 d54b 01 01 0044 00 07 04a1b2c3d4e5f6 ca 00")
OTHER = "04112233445566"

FAST = {
    "poll_interval": 0.002,
    "poll_timeout": 0.05,
    "reconnect_interval": 0.02,
    "release_seconds": 0.0,
}


def library() -> None:
    try:
        import adafruit_pn532.i2c  # noqa: F401
        import adafruit_pn532.uart  # noqa: F401
    except Exception as error:  # ImportError, or Blinka refusing this machine
        pytest.skip(
            f"Adafruit's PN532 library cannot be imported here ({error!r}): "
            f"pip install -e '.[test]'"
        )


@dataclass
class Rig:
    """A bus the driver opens, fake or real, and the log of what the host wrote on it."""

    port: str
    open: Callable[[], Any]
    log: list[bytes] = field(default_factory=list)
    emulator: Pn532Emulator | None = None
    fake: Any = None

    @property
    def real(self) -> bool:
        return self.emulator is None

    @property
    def written(self) -> list[bytes]:
        return self.log if self.real else self.emulator.frames_written()  # type: ignore[union-attr]

    def run(self, polls: int) -> None:
        """Let the reader poll ``polls`` more times (a real one: for as long as that takes)."""
        if self.real:
            time.sleep(polls * 0.15)  # a poll and the pause after it, about
        else:
            self.emulator.wait_polls(self.emulator.polls + polls)  # type: ignore[union-attr]


@pytest.fixture
def serial_port() -> FakeSerialPort:
    library()
    return FakeSerialPort()


@pytest.fixture
def readers() -> Iterator[list[Pn532Reader]]:
    """Readers made by a test, closed after it whatever happens."""
    made: list[Pn532Reader] = []
    yield made
    for reader in made:
        reader.close()


@pytest.fixture
def make(readers, events) -> Callable[..., Pn532Reader]:
    """A reader on a rig or a fake port, feeding ``events``, fast unless real."""

    def make(bus: Any, name: str = "board", emit: Any = None, **options: Any) -> Pn532Reader:
        real = isinstance(bus, Rig) and bus.real
        settings = ({"poll_interval": 0.05} if real else dict(FAST)) | options
        reader = Pn532Reader(
            name,
            emit or events.emit,
            port=bus.port if isinstance(bus, Rig) else bus.path,
            open_bus=bus.open,
            **settings,
        )
        readers.append(reader)
        return reader

    return make


def connected(event: Any) -> bool:
    return isinstance(event, DeviceStatus) and event.connected


def disconnected(event: Any) -> bool:
    return isinstance(event, DeviceStatus) and not event.connected


def taps(events_list: list[Any]) -> list[tuple[str, str]]:
    return [(e.reader, e.uid) for e in events_list if isinstance(e, TagTapped)]
