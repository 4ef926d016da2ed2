"""The PN532 NFC driver on fake buses (``pn532_fake``): corrupt answers, a reader that goes
silent, a port that goes away or cannot be opened; several readers, the options, and what
importing it loads (``test_nfc_pn532_wire.py`` checks the frames, UIDs and the debounce)."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time

import pytest
from pn532_fake import NO_ANSWER, WAKEUP, Corrupt, FakeSerialPort
from pn532_fixtures import (  # noqa: F401 (make, readers and serial_port are fixtures)
    FAST,
    NTAG,
    OTHER,
    connected,
    disconnected,
    library,
    make,
    readers,
    serial_port,
    taps,
)

from companion.devices.events import DeviceNoise, DeviceStatus, TagTapped
from companion.devices.factory import DeviceSetupError
from companion.devices.nfc import NfcReader
from companion.devices.nfc_pn532 import Pn532Reader, Pn532SetupError, interface_of

# -- corrupt answers, lost and found -------------------------------------------------------------


@pytest.mark.parametrize("kind", ["dcs", "lcs", "ack", "preamble", "short", "target"])
def test_a_corrupt_answer_is_noise_not_a_tap_and_polling_goes_on(
    serial_port, make, events, kind
) -> None:
    serial_port.emulator.script([Corrupt(kind, NTAG), None, OTHER])
    reader = make(serial_port)
    serial_port.emulator.wait_script()
    reader.close()
    happened = events.pending()
    noise = [e for e in happened if isinstance(e, DeviceNoise)]
    assert len(noise) == 1 and noise[0].detail.startswith(
        "corrupt answer from the PN532, poll skipped: "
    )
    assert taps(happened) == [("board", OTHER)]  # the corrupt poll's tag is not taken
    statuses = [e for e in happened if isinstance(e, DeviceStatus)]
    assert statuses == [
        DeviceStatus("board", True, "PN532 firmware 1.6 on /dev/serial0"),
        DeviceStatus("board", False, "closed"),
    ]  # no reconnection
    assert serial_port.opened == 1 and serial_port.emulator.errors == []


def test_the_checksum_error_is_named(serial_port, make, events) -> None:
    serial_port.emulator.script([Corrupt("dcs")])
    make(serial_port)
    _, noise = events.until(lambda e: isinstance(e, DeviceNoise))
    assert "checksum" in noise.detail


def test_corrupt_answers_in_a_row_reconnect(serial_port, make, events) -> None:
    serial_port.emulator.script([Corrupt("dcs")] * 3)
    make(serial_port, max_failures=3)
    events.until(connected)
    before, lost = events.until(disconnected)
    assert len([e for e in before if isinstance(e, DeviceNoise)]) == 3
    assert lost.detail == "lost the PN532 on /dev/serial0: corrupt answers to 3 polls in a row"
    events.until(connected)
    assert serial_port.opened == 2
    assert serial_port.written.count(WAKEUP) == 2  # woken up and configured again


def test_a_silent_reader_is_lost_and_found_again(serial_port, make, events) -> None:
    serial_port.emulator.script([NO_ANSWER] * 3)
    make(serial_port)
    events.until(connected)
    _, lost = events.until(disconnected)
    assert lost.detail == (
        "lost the PN532 on /dev/serial0: no answer within 0.05 s to 3 polls in a row"
    )
    events.until(connected)


def test_a_vanished_port_is_reported_then_reopened(serial_port, make, events) -> None:
    serial_port.emulator.place(NTAG)
    make(serial_port)
    events.until(connected)
    events.until(lambda e: isinstance(e, TagTapped))
    serial_port.unplug()
    _, lost = events.until(disconnected)
    assert lost.detail.startswith("lost /dev/serial0: ")
    time.sleep(0.1)  # several attempts to reopen it, not reported again
    assert events.pending() == []
    serial_port.plug()
    events.until(connected)
    assert serial_port.opened == 2
    serial_port.emulator.wait_polls(serial_port.emulator.polls + 5)
    assert taps(events.pending()) == []  # the tag stayed on the reader: not a new tap
    serial_port.emulator.remove()
    serial_port.emulator.wait_polls(serial_port.emulator.polls + 5)
    serial_port.emulator.place(OTHER)
    assert events.until(lambda e: isinstance(e, TagTapped))[1] == TagTapped("board", OTHER)


def test_a_port_that_cannot_be_opened_is_reported_once(serial_port, make, events) -> None:
    serial_port.unplug()
    make(serial_port)
    _, status = events.until(disconnected)
    assert status.detail.startswith("cannot open /dev/serial0: ")
    assert "No such file or directory" in status.detail
    time.sleep(0.1)
    assert events.pending() == []
    serial_port.plug()
    events.until(connected)


def test_a_garbled_pn532_at_connection_is_reported_once_and_retried(
    serial_port, make, events
) -> None:
    serial_port.emulator.garble(2)
    make(serial_port)
    before, status = events.until(connected)
    assert before == [
        DeviceStatus(
            "board",
            False,
            "no PN532 answers on /dev/serial0: Did not receive expected ACK from PN532!",
        )
    ]
    assert serial_port.opened == 3
    assert all(not c.is_open for c in serial_port.connections[:2])


# -- several readers, options, imports -----------------------------------------------------------


def test_two_readers_each_with_its_name_and_port(make, make_events) -> None:
    library()
    board, seat = FakeSerialPort(path="/dev/serial0"), FakeSerialPort(path="/dev/ttyUSB0")
    collected = make_events()
    board_reader = make(board, "board", emit=collected.emit)
    make(seat, "seat-1", emit=collected.emit)
    board.emulator.place(NTAG)
    seat.emulator.place(OTHER)
    got = set()
    while len(got) < 2:
        got.add(collected.until(lambda e: isinstance(e, TagTapped))[1])
    assert got == {TagTapped("board", NTAG), TagTapped("seat-1", OTHER)}
    board_reader.close()
    polls = seat.emulator.polls
    seat.emulator.remove()
    seat.emulator.wait_polls(polls + 5)
    seat.emulator.place(NTAG)
    assert collected.until(lambda e: isinstance(e, TagTapped))[1] == TagTapped("seat-1", NTAG)


def test_the_reader_is_an_nfc_reader_and_a_context_manager(serial_port, events) -> None:
    with Pn532Reader("board", events.emit, open_bus=serial_port.open, **FAST) as reader:
        assert isinstance(reader, NfcReader) and reader.name == "board"
        events.until(connected)
    assert not reader._thread.is_alive()
    assert events.pending()[-1] == DeviceStatus("board", False, "closed")


def test_passive_retries_are_sent(serial_port, make, events) -> None:
    make(serial_port, passive_retries=5)
    events.until(connected)
    assert serial_port.emulator.max_retries == b"\xff\x01\x05"


@pytest.mark.parametrize(
    "options",
    [
        {"poll_interval": -1},
        {"poll_timeout": 0},
        {"release_polls": 0},
        {"release_seconds": -0.1},
        {"passive_retries": 0xFF},
        {"max_failures": 0},
        {"address": 0x80},
        {"reconnect_interval": 0},
        {"release_polls": True},
    ],
)
def test_bad_options_are_refused(serial_port, options) -> None:
    with pytest.raises(Pn532SetupError) as caught:
        Pn532Reader("board", lambda e: None, open_bus=serial_port.open, **options)
    assert isinstance(caught.value, DeviceSetupError)
    assert next(iter(options)) in str(caught.value)


def test_an_i2c_bus_other_than_1_is_refused() -> None:
    with pytest.raises(Pn532SetupError, match="bus 1"):
        Pn532Reader("board", lambda e: None, port="/dev/i2c-3")


def test_interfaces_follow_the_port() -> None:
    assert interface_of("/dev/i2c-1") == "i2c"
    for port in (
        "/dev/serial0",
        "/dev/ttyAMA0",
        "/dev/ttyUSB0",
        "/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A10K-if00-port0",
    ):
        assert interface_of(port) == "uart"


def test_without_the_library_the_reader_says_how_to_install_it(monkeypatch) -> None:
    for module in (
        "adafruit_pn532",
        "adafruit_pn532.adafruit_pn532",
        "adafruit_pn532.uart",
        "adafruit_pn532.i2c",
    ):
        monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(Pn532SetupError, match=re.escape("pip install 'companion[pi]'")):
        Pn532Reader("board", lambda e: None, open_bus=lambda: None)
    assert not [t for t in threading.enumerate() if t.name == "nfc reader board"]


def test_importing_the_driver_loads_no_hardware_library() -> None:
    code = (
        "import sys, companion.devices.nfc_pn532\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('adafruit_pn532', "
        "'serial', 'board', 'busio', 'digitalio', 'microcontroller', 'adafruit_blinka', "
        "'adafruit_bus_device'))\n"
        "print(loaded)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "[]"
