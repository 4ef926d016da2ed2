"""SerialDiceReader against a raw pty: the test plays the reader on the master side. What the
host asks: profiles, commands that wait for an answer, and the port lost and found
(``test_serial_dice_reader_lines.py`` has what the reader says)."""

from __future__ import annotations

import time
from concurrent.futures import Future
from pathlib import Path

import pytest
from dice_pty import (  # noqa: F401 (connect, open_readers, pool, pty and ready are fixtures)
    FIRMWARE,
    Pty,
    answer,
    connect,
    hello,
    open_readers,
    pool,
    pty,
    ready,
    roll,
)

from companion.devices.dice import ReaderError, SerialDiceReader
from companion.devices.dice_protocol import Message, encode
from companion.devices.events import DeviceNoise, DeviceStatus, DieRolled, DieState

# -- profiles -------------------------------------------------------------------------------


def test_set_profile_is_sent_at_once_when_ready_and_only_when_it_changes(pty, ready) -> None:
    reader = ready()
    reader.set_profile(1, "battle")
    assert pty.read_message() == Message("PROFILE", 2, {"die": "1", "name": "battle"})
    reader.set_profile(1, "battle")  # the same again: nothing to send
    reader.set_profile(0, "custom", ("red", "red", "blue", "blue", "gold", "skull"))
    assert pty.read_message() == Message(
        "PROFILE", 3, {"die": "0", "name": "custom", "faces": "red,red,blue,blue,gold,skull"}
    )
    pty.assert_silent()


def test_profiles_are_sent_after_every_hello_and_then_status(pty, ready, events) -> None:
    reader = ready()
    reader.set_profile(1, "rotation")
    reader.set_profile(0, "triwizard")
    assert pty.read_message().fields == {"die": "1", "name": "rotation"}
    assert pty.read_message().fields == {"die": "0", "name": "triwizard"}
    pty.write(hello(0, boot="other", why="power"))  # the reader restarted: it forgot them
    assert events.get() == DeviceStatus("dice", True, FIRMWARE + ", restarted")
    assert [pty.read_message() for _ in range(3)] == [
        Message("PROFILE", 4, {"die": "0", "name": "triwizard"}),
        Message("PROFILE", 5, {"die": "1", "name": "rotation"}),
        Message("STATUS", 6, {}),
    ]
    assert reader.connected


def test_a_profile_asked_before_the_reader_is_ready_is_sent_after_its_hello(
    pty, connect, events
) -> None:
    reader = connect()
    reader.set_profile(0, "battle")
    pty.assert_silent(0.1)
    pty.write(hello(0))
    assert events.get() == DeviceStatus("dice", True, FIRMWARE)
    assert pty.read_message() == Message("PROFILE", 1, {"die": "0", "name": "battle"})
    assert pty.read_message() == Message("STATUS", 2, {})


@pytest.mark.parametrize(
    ("name", "faces"),
    [
        ("two words", None),
        ("d6*", None),
        ("custom", ("a", "b c", "d", "e", "f", "g")),
        ("custom", ("x" * 40,) * 6),
    ],
)
def test_a_profile_that_cannot_be_sent_is_refused_at_once(
    pty, connect, events, name, faces
) -> None:
    reader = connect()
    with pytest.raises(ValueError):
        reader.set_profile(0, name, faces)
    # It was not kept: the next HELLO does not try to send it (which used to kill the thread).
    pty.write(hello(0))
    assert events.get() == DeviceStatus("dice", True, FIRMWARE)
    assert pty.read_message() == Message("STATUS", 1, {})
    with pytest.raises(ValueError):
        reader.set_profile(0, name, faces)
    reader.set_profile(0, "battle")
    assert pty.read_message() == Message("PROFILE", 2, {"die": "0", "name": "battle"})
    pty.write(roll(1, 0, 1, "2P", "battle", value=2, again=1))
    assert events.get() == DieRolled(0, "2P", 1, roll=1, profile="battle", value=2, again=True)


def test_a_refused_profile_is_noise(pty, ready, events) -> None:
    reader = ready()
    reader.set_profile(1, "d20")
    command = answer(pty, "PROFILE", None, die="1", name="d20")
    pty.write(encode("ERR", 2, code="profile", ref=command.seq, die=1, msg="unknown-d20"))
    assert events.get() == DeviceNoise("dice", "reader reports error profile: unknown-d20")


# -- commands that wait for an answer --------------------------------------------------------


def test_request_returns_the_ok(pty, ready, events, pool) -> None:
    reader = ready()
    asked: Future[Message] = pool.submit(reader.request, "STATUS")
    answer(
        pty,
        "STATUS",
        lambda ref: (
            encode("DIE", 2, die=0, state="rest", profile="d6", faces="1,2,3,4,5,6", face=3, led=1)
            + encode("POWER", 3, src="usb", mv=4980)
            + encode("OK", 4, ref=ref + 1, cmd="OTHER")  # not ours
            + encode("OK", 5, ref=ref, cmd="STATUS")
        ),
    )
    assert asked.result(timeout=3) == Message("OK", 5, {"ref": "2", "cmd": "STATUS"})
    assert events.get() == DieState(0, "rest", face="3", detail="profile d6")
    assert events.get() == DeviceStatus("dice", True, "power: usb 4.98 V")
    assert events.pending() == []


def test_request_raises_the_readers_error_which_is_not_noise(pty, ready, events, pool) -> None:
    reader = ready()
    asked = pool.submit(reader.request, "FROB", level=3)
    answer(
        pty,
        "FROB",
        lambda ref: encode("ERR", 2, code="verb", ref=ref, msg="unknown-FROB"),
        level="3",
    )
    with pytest.raises(ReaderError) as raised:
        asked.result(timeout=3)
    assert (raised.value.code, raised.value.msg) == ("verb", "unknown-FROB")
    assert str(raised.value) == "verb: unknown-FROB"
    pty.write(roll(3, 0, 1, 1))
    assert events.get() == DieRolled(0, "1", 3, roll=1, profile="d6")  # no noise before it


def test_request_times_out_and_a_late_answer_is_ignored(pty, ready, events) -> None:
    reader = ready()
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        reader.request("STATUS", timeout=0.2)
    assert 0.2 <= time.monotonic() - started < 1.0
    command = pty.read_message()
    pty.write(
        encode("OK", 2, ref=command.seq, cmd="STATUS")
        + encode("ERR", 3, code="field", ref=command.seq, msg="late")
    )
    assert events.get() == DeviceNoise("dice", "reader reports error field: late")
    assert events.pending() == []


def test_request_raises_connection_error_when_the_port_is_lost_while_waiting(
    pty, ready, events, pool
) -> None:
    reader = ready(reconnect_interval=10)
    asked = pool.submit(reader.request, "IDENTIFY", timeout=10)
    assert pty.read_message().verb == "IDENTIFY"
    started = time.monotonic()
    pty.hang_up()
    with pytest.raises(ConnectionError, match="went away before answering IDENTIFY"):
        asked.result(timeout=3)
    assert time.monotonic() - started < 1.0
    assert events.get().detail.startswith("lost")
    assert not reader.connected
    with pytest.raises(ConnectionError, match="not connected"):
        reader.request("STATUS")


def test_identify_returns_the_readers_ok(pty, ready, pool) -> None:
    reader = ready()
    asked = pool.submit(reader.identify)
    answer(
        pty,
        "IDENTIFY",
        lambda ref: encode("OK", 2, ref=ref, cmd="IDENTIFY", fw="1.0.0", board="pico", uid="E661"),
        ms="3000",
    )
    assert asked.result(timeout=3).fields == {
        "ref": "2",
        "cmd": "IDENTIFY",
        "fw": "1.0.0",
        "board": "pico",
        "uid": "E661",
    }
    asked = pool.submit(reader.identify, 500)
    answer(pty, "IDENTIFY", lambda ref: encode("ERR", 3, code="field", ref=ref, msg="ms"), ms="500")
    with pytest.raises(ReaderError, match="field"):
        asked.result(timeout=3)


def test_flash_returns_the_ok_or_raises_no_led(pty, ready, events, pool) -> None:
    reader = ready()
    asked = pool.submit(reader.flash, 1)
    answer(
        pty, "FLASH", lambda ref: encode("OK", 2, ref=ref, cmd="FLASH", die=1), die="1", ms="1000"
    )
    assert asked.result(timeout=3).fields["cmd"] == "FLASH"
    asked = pool.submit(reader.flash, 0, 0)
    answer(
        pty,
        "FLASH",
        lambda ref: encode("ERR", 3, code="no-led", ref=ref, die=0, msg="no-LED"),
        die="0",
        ms="0",
    )
    with pytest.raises(ReaderError) as raised:
        asked.result(timeout=3)
    assert raised.value.code == "no-led"
    assert events.pending() == []


# -- the port ---------------------------------------------------------------------------------


def test_the_port_lost_is_reported_and_close_is_prompt(pty, ready, events) -> None:
    reader = ready(reconnect_interval=10)
    pty.hang_up()
    status = events.get()
    assert isinstance(status, DeviceStatus) and not status.connected
    assert status.detail.startswith(f"lost {pty.path}")
    assert not reader.connected
    with pytest.raises(ConnectionError, match="not connected"):
        reader.send("PING")
    reader.set_profile(0, "battle")  # kept for the next HELLO, no error
    started = time.monotonic()
    reader.close()
    assert time.monotonic() - started < 0.5
    assert events.get() == DeviceStatus("dice", False, "closed")
    assert events.pending() == []


def test_close_while_reading_is_prompt(connect, events) -> None:
    reader = connect()
    started = time.monotonic()
    with reader:
        pass
    reader.close()
    assert time.monotonic() - started < 0.5
    assert events.get() == DeviceStatus("dice", False, "closed")
    assert not reader.connected


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
        time.sleep(0.2)  # a few retries
        link.symlink_to(first.path)
        # Retries every 0.05 s, but the outage is reported only once.
        assert events.get() == DeviceStatus("dice", True, f"connected on {link}")
        answer(first, "HELLO", hello(0), proto="1")
        assert events.get() == DeviceStatus("dice", True, FIRMWARE)

        first.hang_up()  # its slave stays open, so its pty number is not reused
        lost = events.get()
        assert isinstance(lost, DeviceStatus) and lost.detail.startswith("lost")
        link.unlink()
        time.sleep(0.2)  # a few retries, which fail
        link.symlink_to(second.path)
        assert events.get() == DeviceStatus("dice", True, f"connected on {link}")
        answer(second, "HELLO", hello(0), proto="1")
        assert events.get() == DeviceStatus("dice", True, FIRMWARE)
        second.write(roll(1, 1, 1, 3))
        assert events.get() == DieRolled(1, "3", 1, roll=1, profile="d6")
    finally:
        started = time.monotonic()
        reader.close()
        assert time.monotonic() - started < 0.5
        first.close()
        second.close()


def test_a_reader_replugged_behind_its_stable_path_is_back_within_2_s(
    tmp_path: Path, events, no_leaked_fds
) -> None:
    link = tmp_path / "usb-MicroPython_Board_in_FS_mode_e66138935f4b1234-if00"
    plugged = Pty()
    link.symlink_to(plugged.path)
    ptys = [plugged]
    reader = SerialDiceReader(str(link), events.emit)  # the default retry interval
    try:
        assert events.get() == DeviceStatus("dice", True, f"connected on {link}")
        answer(plugged, "HELLO", hello(0, boot="boot1"), proto="1")
        assert events.get() == DeviceStatus("dice", True, FIRMWARE)
        answer(plugged, "STATUS")
        assert reader.wait_ready(3)
        reader.set_profile(0, "battle")
        answer(plugged, "PROFILE", None, die="0", name="battle")
        for plug in (2, 3):
            plugged.hang_up()  # unplugged: the pty goes and so does the by-id link
            link.unlink()
            lost = events.get()
            assert isinstance(lost, DeviceStatus) and lost.detail.startswith(f"lost {link}")
            assert not reader.connected
            time.sleep(0.3)
            plugged = Pty()
            ptys.append(plugged)
            link.symlink_to(plugged.path)
            back = time.monotonic()
            answer(plugged, "HELLO", hello(0, boot=f"boot{plug}", why="host"), proto="1")
            assert reader.wait_ready(2 - (time.monotonic() - back))
            assert time.monotonic() - back < 2
            assert events.get() == DeviceStatus("dice", True, f"connected on {link}")
            assert events.get() == DeviceStatus("dice", True, FIRMWARE + ", restarted")
            # the restarted reader gets its profile back, then is asked its status
            assert [plugged.read_message() for _ in range(2)] == [
                Message("PROFILE", 1, {"die": "0", "name": "battle"}),
                Message("STATUS", 2, {}),
            ]
            plugged.write(roll(1, 0, 1, "2P", "battle", value=2, again=1))
            assert events.get() == DieRolled(
                0, "2P", 1, roll=1, profile="battle", value=2, again=True
            )
    finally:
        reader.close()
        for pty in ptys:
            pty.close()
