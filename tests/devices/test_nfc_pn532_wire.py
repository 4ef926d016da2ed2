"""The PN532 NFC driver: Adafruit's real ``adafruit_pn532`` code on fake buses (``pn532_fake``),
checking the exact bytes of every frame and its checksums, UIDs, the debounce of a tag left on
the reader and closing (corrupt answers, a port that goes away, several readers and the
options: ``test_nfc_pn532_faults.py``).

With ``COMPANION_TEST_PN532_PORT`` set (``/dev/serial0``, a USB adapter's path, or ``/dev/i2c-1``)
on a Raspberry Pi with a PN532 wired to it, the tests marked "fake and real" run once more on the
real reader, recorded on the way: the same bytes must go out. Leave the reader bare, or lay one
tag on it and set ``COMPANION_TEST_PN532_TAG`` to its UID (hex) for the tag test.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator

import pytest
from pn532_fake import (
    ACK,
    WAKEUP,
    FakeI2cPort,
    FakeSerialPort,
    PtyPn532,
    RecordingI2c,
    RecordingSerial,
    parse_host_frame,
)
from pn532_fixtures import (  # noqa: F401 (make, readers and serial_port are fixtures)
    FIRMWARE,
    FIRMWARE_ANSWER,
    NO_TAG_ANSWER,
    NTAG,
    NTAG_ANSWER,
    OTHER,
    POLL,
    REAL_PORT,
    REAL_TAG,
    RETRIES,
    SAM,
    Rig,
    connected,
    disconnected,
    library,
    make,
    readers,
    serial_port,
    taps,
)

from companion.devices.events import DeviceNoise, DeviceStatus, TagTapped
from companion.devices.nfc_pn532 import (
    FrameError,
    Pn532Reader,
    TagDebouncer,
    interface_of,
    open_i2c,
    open_uart,
    parse_passive_target,
)


@pytest.fixture(params=["fake", "real"])
def rig(request) -> Rig:
    """The reader's bus: a fake serial port with a fake PN532, or the real one, recorded."""
    library()
    if request.param == "fake":
        fake = FakeSerialPort()
        return Rig(fake.path, fake.open, emulator=fake.emulator, fake=fake)
    port = os.environ.get(REAL_PORT)
    if not port:
        pytest.skip(
            f"real PN532 not tested: set {REAL_PORT}=/dev/serial0 (or a USB adapter's "
            f"path, or /dev/i2c-1) on a Raspberry Pi with a PN532 wired to it"
        )
    log: list[bytes] = []
    if interface_of(port) == "i2c":
        return Rig(port, lambda: RecordingI2c(open_i2c(port), log), log)
    return Rig(port, lambda: RecordingSerial(open_uart(port), log), log)


@pytest.fixture
def i2c_port() -> FakeI2cPort:
    library()
    return FakeI2cPort()


def checksums_hold(frame: bytes) -> bool:
    """00 00 FF, LEN + LCS = 0, TFI + data + DCS = 0 (mod 256), postamble 00."""
    length = frame[3]
    return (
        frame[:3] == b"\x00\x00\xff"
        and (length + frame[4]) & 0xFF == 0
        and len(frame) == length + 7
        and sum(frame[5 : 6 + length]) & 0xFF == 0
        and frame[-1] == 0
    )


# -- the bytes on the wire (fake and real) -------------------------------------------------------


def test_the_expected_frames_are_well_formed() -> None:
    for frame in (SAM, FIRMWARE, RETRIES, POLL, FIRMWARE_ANSWER, NO_TAG_ANSWER, NTAG_ANSWER):
        assert checksums_hold(frame), frame.hex(" ")
    for frame in (SAM, FIRMWARE, RETRIES, POLL):
        assert frame[5] == 0xD4  # host to PN532
    assert parse_host_frame(POLL) == (0x4A, b"\x01\x00")
    assert WAKEUP == b"\x55\x55" + bytes(15)


def test_connecting_wakes_configures_and_checks_the_pn532_then_polls(rig, make, events) -> None:
    reader = make(rig)
    _, status = events.until(connected)
    rig.run(3)
    reader.close()
    written = rig.written
    first = b"" if interface_of(rig.port) == "i2c" else WAKEUP  # the I2C probe; the UART wake-up
    # The library's constructor: wake-up, SAMConfiguration, GetFirmwareVersion; the driver:
    # GetFirmwareVersion again (reported), RFConfiguration MaxRetries; then polls only
    assert written[:5] == [first, SAM, FIRMWARE, FIRMWARE, RETRIES]
    assert len(written) >= 8 and set(written[5:]) == {POLL}
    assert all(checksums_hold(frame) for frame in written[1:])
    assert re.fullmatch(rf"PN532 firmware \d+\.\d+ on {re.escape(rig.port)}", status.detail)
    assert reader.firmware is not None and reader.firmware[0] == 0x32
    if not rig.real:
        assert status == DeviceStatus("board", True, "PN532 firmware 1.6 on /dev/serial0")
        assert reader.firmware == (0x32, 1, 6, 7)
        assert rig.emulator.errors == []
        answered = rig.emulator.answered  # an ACK, then an answer, for each frame
        assert answered[:2] == [ACK, bytes.fromhex("0000ff02fe d515 16 00")]
        assert answered[2:4] == answered[4:6] == [ACK, FIRMWARE_ANSWER]
        assert answered[6:8] == [ACK, bytes.fromhex("0000ff02fe d533 f8 00")]
        assert answered[8:10] == [ACK, NO_TAG_ANSWER]


def test_a_tag_left_on_the_reader_taps_once(rig, make, events) -> None:
    if rig.real:
        uid = os.environ.get(REAL_TAG)
        if not uid:
            pytest.skip(f"lay a tag on the real reader and set {REAL_TAG} to its UID (hex)")
    else:
        uid = NTAG
        rig.emulator.place(NTAG)
    reader = make(rig)
    events.until(connected)
    rig.run(20)
    reader.close()
    happened = events.pending()
    assert taps(happened) == [("board", uid.upper())]
    assert not [e for e in happened if isinstance(e, DeviceNoise)]


def test_closing_stops_polling_closes_the_bus_and_says_so(rig, make, events) -> None:
    reader = make(rig)
    events.until(connected)
    rig.run(2)
    reader.close()
    assert not reader._thread.is_alive()
    assert events.pending()[-1] == DeviceStatus("board", False, "closed")
    count = len(rig.written)
    time.sleep(0.1)
    assert len(rig.written) == count  # nothing more is sent
    if not rig.real:
        assert [c.is_open for c in rig.fake.connections] == [False]
    reader.close()  # again: nothing happens
    assert events.pending() == []


# -- a real serial port: pyserial on a pseudo-terminal -----------------------------------------


@pytest.fixture
def pty(tmp_path) -> Iterator[PtyPn532]:
    library()
    pn532 = PtyPn532(tmp_path / "pn532")
    yield pn532
    pn532.close()


def test_through_pyserial_on_a_serial_port_lost_and_found(pty, readers, events) -> None:
    """The driver's own opener: pyserial at 115200 baud with its 0.1 s timeout."""
    pty.emulator.script([None, None, NTAG])
    reader = Pn532Reader(
        "board",
        events.emit,
        port=pty.path,
        poll_interval=0.0,
        reconnect_interval=0.05,
        release_seconds=0.0,
    )
    readers.append(reader)
    assert events.until(connected)[1].detail == f"PN532 firmware 1.6 on {pty.path}"
    assert events.until(lambda e: isinstance(e, TagTapped))[1] == TagTapped("board", NTAG)
    assert pty.written[:6] == [WAKEUP, SAM, FIRMWARE, FIRMWARE, RETRIES, POLL]
    pty.unplug()
    _, lost = events.until(disconnected)
    # mostly "Input/output error" (flushing the port); pyserial's words when a read was waiting
    assert lost.detail.startswith(f"lost {pty.path}: ")
    pty.plug()
    events.until(connected)
    reader.close()
    assert events.pending()[-1] == DeviceStatus("board", False, "closed")
    assert pty.written.count(WAKEUP) == 2 and pty.emulator.errors == []


# -- I2C -----------------------------------------------------------------------------------------


def test_on_i2c_the_same_frames_go_out_without_the_wake_up(i2c_port, make, events) -> None:
    i2c_port.emulator.script([NTAG])
    reader = make(i2c_port)
    assert events.until(connected)[1].detail == "PN532 firmware 1.6 on /dev/i2c-1"
    assert events.until(lambda e: isinstance(e, TagTapped))[1] == TagTapped("board", NTAG)
    i2c_port.emulator.wait_polls(3)
    reader.close()
    written = i2c_port.written
    assert written[:5] == [b"", SAM, FIRMWARE, FIRMWARE, RETRIES]  # b"": I2CDevice's probe
    assert set(written[5:]) == {POLL}
    # every read starts with the PN532's status byte, 01 when an answer is ready
    assert bytes.fromhex("01") + ACK in i2c_port.reads
    assert bytes.fromhex("01") + NTAG_ANSWER in [r[: len(NTAG_ANSWER) + 1] for r in i2c_port.reads]
    assert [b.deinited for b in i2c_port.buses] == [True]
    assert i2c_port.emulator.errors == []


def test_an_i2c_reader_that_stops_answering_is_lost_and_found_again(i2c_port, make, events) -> None:
    make(i2c_port)
    events.until(connected)
    i2c_port.unplug()
    _, lost = events.until(disconnected)
    # mostly: "lost the PN532 on /dev/i2c-1: no answer within 0.05 s to 3 polls in a row" (the
    # library takes a failed transfer for "not ready"); "lost /dev/i2c-1: Remote I/O error" when
    # it fails between the status byte and the frame
    assert lost.detail.startswith(("lost the PN532 on /dev/i2c-1: ", "lost /dev/i2c-1: "))
    i2c_port.plug()
    events.until(connected)
    assert i2c_port.opened >= 2 and all(b.deinited for b in i2c_port.buses[:-1])


# -- tags ----------------------------------------------------------------------------------------


def test_an_ntag_uid_comes_in_one_answer(serial_port, make, events) -> None:
    serial_port.emulator.script([NTAG])
    make(serial_port)
    _, tap = events.until(lambda e: isinstance(e, TagTapped))
    assert tap == TagTapped("board", "04A1B2C3D4E5F6")
    poll = serial_port.emulator.commands.index((0x4A, b"\x01\x00"))
    assert serial_port.emulator.answered[2 * poll : 2 * poll + 2] == [ACK, NTAG_ANSWER]


@pytest.mark.parametrize("uid", ["0a1b2c3d", "04a1b2c3d4e5f6", "04a1b2c3d4e5f6a7b8c9"])
def test_4_7_and_10_byte_uids_are_upper_case_hex(serial_port, make, events, uid) -> None:
    serial_port.emulator.script([uid])
    make(serial_port)
    assert events.until(lambda e: isinstance(e, TagTapped))[1].uid == uid.upper()


def test_debounce_left_on_removed_replaced_and_another_tag(serial_port, make, events) -> None:
    serial_port.emulator.script([NTAG] * 10 + [None] * 3 + [NTAG] * 2 + [OTHER] + [None] * 3)
    reader = make(serial_port, release_polls=3)
    serial_port.emulator.wait_script()
    reader.close()
    # left on for 10 polls: one tap; removed for 3 polls and put back: a second; another tag: a
    # third at once
    assert taps(events.pending()) == [("board", NTAG), ("board", NTAG), ("board", OTHER)]


def test_missed_reads_of_a_tag_left_on_do_not_tap_again(serial_port, make, events) -> None:
    serial_port.emulator.script([NTAG, None, NTAG, None, None, NTAG, None, NTAG, None, None])
    reader = make(serial_port, release_polls=3)
    serial_port.emulator.wait_script()
    reader.close()
    assert taps(events.pending()) == [("board", NTAG)]


def test_a_tag_must_be_away_for_release_seconds(serial_port, make, events) -> None:
    serial_port.emulator.script([NTAG] + [None] * 5 + [NTAG])
    reader = make(serial_port, release_polls=1, release_seconds=30.0)
    serial_port.emulator.wait_script()
    reader.close()
    assert taps(events.pending()) == [("board", NTAG)]


def test_a_random_uid_is_noise_once_never_a_tap(serial_port, make, events) -> None:
    serial_port.emulator.script(["08123456", "08ABCDEF", "08777777"])
    reader = make(serial_port)
    serial_port.emulator.wait_script()
    reader.close()
    happened = events.pending()
    assert taps(happened) == []
    noise = [e for e in happened if isinstance(e, DeviceNoise)]
    assert [n.detail for n in noise] == [
        "a tag with a random UID (08123456), a phone perhaps, ignored"
    ]


def test_the_debouncer_follows_each_tag_on_its_own() -> None:
    debounce = TagDebouncer(release_polls=2, release_seconds=0.0)
    seen = [
        debounce.observe(uid, t)
        for t, uid in enumerate(["A", "B", "A", "B", "A", None, "A", None, None, "A"])
    ]
    # two tags read in turn tap once each (B leaves after polls 4 and 5); A missed once (poll 5)
    # stays; missed twice in a row (polls 7 and 8) it leaves, and taps again
    assert seen == [True, True, False, False, False, False, False, False, False, True]
    assert debounce.present == {"A"}


def test_the_debouncer_waits_release_seconds_since_the_tag_was_last_seen() -> None:
    debounce = TagDebouncer(release_polls=1, release_seconds=0.5)
    assert debounce.observe("A", 10.0)
    assert not debounce.observe(None, 10.2)
    assert not debounce.observe("A", 10.4)  # away for 0.2 s only
    assert not debounce.observe(None, 10.8)  # 0.4 s since last seen: still on
    assert debounce.present == {"A"}
    assert not debounce.observe(None, 10.9)  # 0.5 s: gone
    assert debounce.present == set()
    assert debounce.observe("A", 11.0)


def test_parse_passive_target() -> None:
    assert parse_passive_target(b"\x00") is None
    assert parse_passive_target(bytes.fromhex("01 01 0044 00 07 04a1b2c3d4e5f6")) == bytes.fromhex(
        "04a1b2c3d4e5f6"
    )
    with_ats = bytes.fromhex("01 01 0344 20 07 04a1b2c3d4e5f6 067577810280")
    assert parse_passive_target(with_ats) == bytes.fromhex("04a1b2c3d4e5f6")
    for bad in (
        b"",
        b"\x02",
        bytes.fromhex("01 01 0044 00"),
        bytes.fromhex("01 01 0044 00 05"),
        bytes.fromhex("01 01 0044 00 07 04a1b2"),
    ):
        with pytest.raises(FrameError):
            parse_passive_target(bad)
