"""SerialDiceReader against a raw pty: the test plays the reader on the master side. What the
reader says: connecting, rolls, what the dice do besides rolls, and its other lines
(``test_serial_dice_reader_commands.py`` has profiles, commands and the port)."""

from __future__ import annotations

import time
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
    summary,
)

from companion.devices.dice import DiceReader, SerialDiceReader
from companion.devices.dice_protocol import Message, encode
from companion.devices.events import DeviceNoise, DeviceStatus, DieRolled, DieState

# -- connecting -------------------------------------------------------------------------


def test_connecting_sends_hello_and_the_readers_hello_makes_it_ready(pty, connect, events) -> None:
    reader = connect(name="left dice")
    assert isinstance(reader, DiceReader)
    assert not reader.wait_ready(0) and not reader.connected
    pty.write(hello(0, why="power"))
    assert events.get() == DeviceStatus("left dice", True, FIRMWARE)  # the first: no restart
    assert pty.read_message() == Message("STATUS", 1, {})
    assert reader.wait_ready(3) and reader.connected
    assert reader.info == {
        "proto": "1",
        "fw": "1.0.0",
        "board": "pico",
        "uid": "E66138935F4B1234",
        "boot": "b00t",
        "dice": "2",
        "why": "power",
    }


def test_send_writes_a_checksummed_line_with_its_own_numbering(pty, connect) -> None:
    reader = connect()
    assert reader.send("PING") == 1
    assert reader.send("FLASH", die=2) == 2
    assert pty.read_message() == Message("PING", 1, {})
    assert pty.read_message() == Message("FLASH", 2, {"die": "2"})
    with pytest.raises(ValueError):
        reader.send("PING", note="two words")
    with pytest.raises(ValueError):
        reader.send("ping")


# -- rolls ------------------------------------------------------------------------------


def test_rolls_become_die_rolled_events(pty, ready, events) -> None:
    reader = ready()
    reader.set_profile(1, "triwizard")
    pty.write(
        encode("ROLL", 2, die=0, roll=3, face=4, profile="d6", value=4)
        + encode("ROLL", 3, die=1, roll=1, face="CLOAK", profile="triwizard", value=0)
    )
    assert [events.get() for _ in range(2)] == [
        DieRolled(0, "4", 2, "dice", value=4, roll=3, profile="d6"),
        DieRolled(1, "CLOAK", 3, "dice", value=0, roll=1, profile="triwizard"),
    ]
    reader.set_profile(0, "battle")
    reader.set_profile(1, "rotation")
    pty.write(
        encode("ROLL", 4, die=0, roll=4, face="2P", profile="battle", value=2, again=1)
        + encode("ROLL", 5, die=1, roll=2, face="forest", profile="rotation")
    )
    assert [events.get() for _ in range(2)] == [
        DieRolled(0, "2P", 4, "dice", value=2, roll=4, profile="battle", again=True),
        DieRolled(1, "forest", 5, "dice", value=None, roll=2, profile="rotation"),
    ]
    reader.set_profile(0, "custom", ("x", "y", "z", "7", "8", "9"))
    reader.set_profile(1, "triwizard")
    pty.write(
        encode("ROLL", 6, die=1, roll=3, face="CLOAK")  # value, profile, again are optional:
        + encode("ROLL", 7, die=0, roll=5, face="x", again=0)  # the asked profile's
    )
    assert [events.get() for _ in range(2)] == [
        DieRolled(1, "CLOAK", 6, "dice", value=0, roll=3),
        DieRolled(0, "x", 7, "dice", value=None, roll=5),
    ]
    assert events.pending() == []


def test_an_int_face_becomes_its_label() -> None:
    assert DieRolled(0, 4, 0) == DieRolled(0, "4", 0, value=4)


def test_lines_arriving_byte_by_byte_and_with_crlf_parse(pty, ready, events) -> None:
    ready()
    for byte in roll(2, 1, 1, 3)[:-1] + b"\r\n":
        pty.write(bytes([byte]))
    assert events.get() == DieRolled(1, "3", 2, "dice", value=3, roll=1, profile="d6")


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"ROLL 2 die=0 roll=1 face=4*00\n", "bad checksum"),
        (b"ROLL 2 die=0 roll=1 face=4\n", "no checksum"),
        (b"\xff\xfe garbage\n", "non-ASCII"),
        (b"ROLL 2\tdie=0*00\n", "control byte"),
        (b"\n", "empty line"),
        (b"\r\n", "empty line"),
        (b"R" * 300 + b"\n", "too long: 300 bytes"),
        (encode("ROLL", 2, die=0, roll=1, face=4)[:-6] + b"\n", "no checksum"),  # cut short
    ],
)
def test_rejected_lines_are_noise_and_the_next_roll_still_counts(
    pty, ready, events, line, reason
) -> None:
    ready()
    pty.write(line + roll(2, 1, 1, 2))
    noise = events.get()
    assert isinstance(noise, DeviceNoise) and noise.device == "dice"
    assert noise.detail.startswith(f"rejected line: {reason}")
    assert events.get() == DieRolled(1, "2", 2, value=2, roll=1, profile="d6")
    assert events.pending() == []


def test_sequence_gaps_are_noise_and_wrap_and_hello_are_not(pty, connect, events) -> None:
    connect()
    pty.write(hello(65533))
    assert events.get() == DeviceStatus("dice", True, FIRMWARE)
    pty.write(roll(65534, 0, 1, 1) + roll(65535, 0, 2, 2) + roll(0, 0, 3, 3) + roll(3, 0, 4, 4))
    assert [events.get() for _ in range(5)] == [
        DieRolled(0, "1", 65534, roll=1, profile="d6"),
        DieRolled(0, "2", 65535, roll=2, profile="d6"),
        DieRolled(0, "3", 0, roll=3, profile="d6"),
        DeviceNoise("dice", "sequence gap: 2 message(s) missed before seq 3"),
        DieRolled(0, "4", 3, roll=4, profile="d6"),
    ]
    pty.write(hello(100) + roll(101, 0, 5, 5))  # the same boot: rolls go on
    assert events.get() == DeviceStatus("dice", True, FIRMWARE)
    assert events.get() == DieRolled(0, "5", 101, roll=5, profile="d6")
    assert events.pending() == []


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"roll": 1, "face": 3}, "without integer die and roll and a face"),
        ({"die": 0, "face": 3}, "without integer die and roll and a face"),
        ({"die": 0, "roll": 1}, "without integer die and roll and a face"),
        ({}, "without integer die and roll and a face"),
        ({"die": "-1", "roll": 1, "face": 2}, "without integer die and roll and a face"),
        ({"die": "x", "roll": 1, "face": 2}, "without integer die and roll and a face"),
        ({"die": 0, "roll": "1.5", "face": 2}, "without integer die and roll and a face"),
        ({"die": 0, "roll": 1, "face": "a,b"}, "face must be"),
        ({"die": 0, "roll": 1, "face": "thirteen_char"}, "face must be"),
        ({"die": 0, "roll": 1, "face": 3, "value": "three"}, "with a value that is not a number"),
        ({"die": 0, "roll": 1, "face": 3, "value": "-"}, "with a value that is not a number"),
    ],
)
def test_a_roll_without_integer_die_and_roll_and_a_valid_face_is_noise(
    pty, ready, events, fields, reason
) -> None:
    ready()
    pty.write(encode("ROLL", 2, **fields) + roll(3, 0, 1, 1))
    noise = events.get()
    assert isinstance(noise, DeviceNoise)
    assert noise.detail.startswith(f"ROLL 2 rejected: {reason}")
    # The rejected roll did not use up its number: roll 1 of die 0 still counts.
    assert events.get() == DieRolled(0, "1", 3, roll=1, profile="d6")
    assert events.pending() == []


def test_a_repeated_roll_number_is_noise_not_a_second_roll(pty, ready, events) -> None:
    reader = ready(noise_interval=0.3)
    repeated, older = roll(5, 0, 3, 6), roll(6, 0, 2, 1)
    pty.write(
        roll(2, 0, 3, 4)
        + roll(3, 0, 3, 4)  # the same roll again
        + roll(4, 1, 3, 5)  # the same number, another die: its own roll
        + repeated  # the same number, another face: still the same roll
        + older  # an older number
        + roll(7, 0, 4, 2)
    )
    assert [events.get() for _ in range(5)] == [
        DieRolled(0, "4", 2, roll=3, profile="d6"),
        DeviceNoise("dice", "ROLL 3 ignored: die 0 roll 3 was already delivered"),  # at once
        DieRolled(1, "5", 4, roll=3, profile="d6"),
        DieRolled(0, "2", 7, roll=4, profile="d6"),
        # the rest of the burst, summed up once the interval is over
        DeviceNoise(
            "dice",
            summary(
                "ROLL 5 ignored: die 0 roll 3 was already delivered",
                lines=2,
                size=len(repeated + older) - 2,
            ),
        ),
    ]
    assert events.pending() == []
    assert reader.noise_totals().kinds == {"stale roll": 3}


def test_a_hello_of_the_same_boot_keeps_the_roll_numbers(pty, ready, events) -> None:
    ready()
    pty.write(roll(2, 0, 1, 4) + hello(10) + roll(11, 0, 1, 4) + roll(12, 0, 2, 4))
    assert events.get() == DieRolled(0, "4", 2, roll=1, profile="d6")
    assert events.get() == DeviceStatus("dice", True, FIRMWARE)  # not restarted
    assert events.get() == DeviceNoise(
        "dice", "ROLL 11 ignored: die 0 roll 1 was already delivered"
    )
    assert events.get() == DieRolled(0, "4", 12, roll=2, profile="d6")


@pytest.mark.parametrize(
    "restart",
    [
        hello(0, boot="n3w", why="host"),
        hello(0, boot="n3w", why="power"),
        hello(0, boot="b00t", why="power"),
    ],
    ids=["new boot", "new boot at power-on", "power-on"],
)
def test_a_restarted_reader_is_shown_and_its_roll_numbers_start_again(
    pty, ready, events, restart
) -> None:
    reader = ready()
    pty.write(roll(2, 0, 1, 4) + roll(3, 1, 1, 2))
    assert events.get() == DieRolled(0, "4", 2, roll=1, profile="d6")
    assert events.get() == DieRolled(1, "2", 3, roll=1, profile="d6")
    pty.write(restart)
    assert events.get() == DeviceStatus("dice", True, FIRMWARE + ", restarted")
    assert pty.read_message() == Message("STATUS", 2, {})
    assert reader.connected
    pty.write(roll(1, 0, 1, 6) + roll(2, 1, 1, 6))  # roll 1 again: a new roll of a new boot
    assert events.get() == DieRolled(0, "6", 1, roll=1, profile="d6")
    assert events.get() == DieRolled(1, "6", 2, roll=1, profile="d6")
    assert events.pending() == []


def test_a_reader_that_restarted_while_unplugged_is_shown(
    tmp_path: Path, events, no_leaked_fds
) -> None:
    link = tmp_path / "dice"
    first, second = Pty(), Pty()
    link.symlink_to(first.path)
    reader = SerialDiceReader(str(link), events.emit, reconnect_interval=0.05)
    try:
        assert events.get() == DeviceStatus("dice", True, f"connected on {link}")
        answer(first, "HELLO", hello(0, boot="one"), proto="1")
        assert events.get() == DeviceStatus("dice", True, FIRMWARE)
        first.write(roll(1, 0, 1, 3))
        assert events.get() == DieRolled(0, "3", 1, roll=1, profile="d6")
        first.hang_up()
        link.unlink()
        assert events.get().detail.startswith("lost")
        link.symlink_to(second.path)
        assert events.get() == DeviceStatus("dice", True, f"connected on {link}")
        answer(second, "HELLO", hello(1, boot="two"), proto="1")  # power-on HELLO was lost
        assert events.get() == DeviceStatus("dice", True, FIRMWARE + ", restarted")
        second.write(roll(2, 0, 1, 5))
        assert events.get() == DieRolled(0, "5", 2, roll=1, profile="d6")
    finally:
        reader.close()
        first.close()
        second.close()


# -- what the dice do, besides rolls ------------------------------------------------------


@pytest.mark.parametrize(
    ("verb", "fields", "expected"),
    [
        pytest.param("MOVING", {"die": 1}, DieState(1, "moving"), id="MOVING"),
        pytest.param(
            "ROLLING", {"die": 0, "roll": 7}, DieState(0, "rolling", roll=7), id="ROLLING"
        ),
        pytest.param(
            "CROOKED", {"die": 1, "roll": 7}, DieState(1, "crooked", roll=7), id="CROOKED"
        ),
        pytest.param(
            "PLACED", {"die": 0, "face": "6"}, DieState(0, "placed", face="6"), id="PLACED"
        ),
        pytest.param("PLACED", {"die": 0}, DieState(0, "placed"), id="PLACED without face"),
        pytest.param(
            "DIE",
            {
                "die": 1,
                "state": "rest",
                "profile": "d6",
                "faces": "1,2,3,4,5,6",
                "face": "5",
                "led": 1,
            },
            DieState(1, "rest", face="5", detail="profile d6"),
            id="DIE rest",
        ),
        pytest.param(
            "DIE",
            {"die": 0, "state": "moving", "profile": "d6", "faces": "1,2,3,4,5,6", "led": 0},
            DieState(0, "moving", detail="profile d6"),
            id="DIE moving",
        ),
        pytest.param(
            "DIE",
            {"die": 0, "state": "missing", "profile": "d6", "faces": "1,2,3,4,5,6", "led": 0},
            DieState(0, "missing", detail="profile d6"),
            id="DIE missing",
        ),
        pytest.param(
            "DIE",
            {"die": 0, "state": "unknown", "profile": "d6", "led": 0},
            None,
            id="DIE unknown: nothing to report",
        ),
        pytest.param(
            "ERR",
            {"code": "sensor", "die": 1, "msg": "no-answer"},
            DieState(1, "missing", detail="sensor error: no-answer"),
            id="ERR sensor",
        ),
    ],
)
def test_what_a_die_does_becomes_die_state(pty, ready, events, verb, fields, expected) -> None:
    ready()
    pty.write(encode(verb, 2, **fields) + roll(3, 0, 1, 1))
    if expected is not None:
        assert events.get() == expected
    assert events.get() == DieRolled(0, "1", 3, roll=1, profile="d6")
    assert events.pending() == []


@pytest.mark.parametrize(
    ("verb", "fields", "reason"),
    [
        ("MOVING", {}, "without an integer die"),
        ("PLACED", {"die": "one"}, "without an integer die"),
        ("PLACED", {"die": 0, "face": "no,face"}, "face must be"),
        ("DIE", {"die": 0, "state": "rest", "face": "x" * 13}, "face must be"),
    ],
)
def test_a_malformed_die_report_is_noise(pty, ready, events, verb, fields, reason) -> None:
    ready()
    pty.write(encode(verb, 2, **fields))
    noise = events.get()
    assert isinstance(noise, DeviceNoise)
    assert noise.detail.startswith(f"{verb} 2 rejected: {reason}")


# -- the reader's other lines -------------------------------------------------------------


def test_power_and_pongs_are_reported(pty, ready, events) -> None:
    reader = ready()
    pty.write(encode("POWER", 2, src="usb", mv=5020) + encode("POWER", 3, src="usb"))
    assert events.get() == DeviceStatus("dice", True, "power: usb 5.02 V")
    assert events.get() == DeviceStatus("dice", True, "power: usb")
    assert reader.send("PING") == 2
    answer(pty, "PING")
    pty.write(encode("PONG", 4, ref=2))
    assert events.get() == DeviceStatus("dice", True, "pong")


def test_ping_waits_for_the_pong(pty, ready, pool) -> None:
    reader = ready()
    pinged = pool.submit(reader.ping, 3.0)
    answer(pty, "PING", lambda ref: encode("PONG", 2, ref=ref))
    assert pinged.result(timeout=3) is True
    started = time.monotonic()
    assert reader.ping(0.2) is False  # no answer this time
    assert time.monotonic() - started < 1.0


def test_reader_errors_are_noise(pty, ready, events) -> None:
    reader = ready(noise_interval=0.3)
    folded = encode("ERR", 3, code="verb", ref=40, msg="unknown-verb-FOO") + encode("ERR", 4)
    pty.write(encode("ERR", 2, code="line", msg="bad-checksum") + folded)
    assert events.get() == DeviceNoise("dice", "reader reports error line: bad-checksum")
    assert events.get() == DeviceNoise(
        "dice",
        summary("reader reports error verb: unknown-verb-FOO", lines=2, size=len(folded) - 2),
    )
    assert reader.noise_totals().kinds == {"reader error": 3}


def test_unknown_verbs_and_fields_are_ignored(pty, ready, events) -> None:
    ready()
    pty.write(
        encode("SHAKE", 2, strength=9)
        + encode("ROLL", 3, die=1, roll=1, face=5, tilt=3, mood=":-)")
        + encode("BATTERY_V2", 4, mv=3700)
        + encode("MOVING", 5, die=0, speed="fast")
        + encode("POWER", 6, src="usb", mv=5000, temp=40)
        + encode("OK", 7, ref=999, cmd="NEWTHING")  # answers nothing the host waits for
        + roll(8, 0, 1, 6)
    )
    assert [events.get() for _ in range(4)] == [
        DieRolled(1, "5", 3, roll=1),
        DieState(0, "moving"),
        DeviceStatus("dice", True, "power: usb 5.00 V"),
        DieRolled(0, "6", 8, roll=1, profile="d6"),  # the unknown verbs counted in the sequence
    ]
    assert events.pending() == []


def test_an_incomplete_line_is_discarded_after_a_pause(pty, ready, events) -> None:
    reader = ready(noise_interval=0.5)
    pty.write(roll(2, 0, 1, 3)[:9])
    assert events.get() == DeviceNoise(
        "dice", "incomplete line discarded: 9 bytes and no newline for 0.2 s"
    )
    pty.write(roll(3, 0, 1, 2))
    assert events.get() == DieRolled(0, "2", 3, roll=1, profile="d6")
    assert events.get() == DeviceNoise(  # folded: less than 0.5 s after the first report
        "dice", summary("sequence gap: 1 message(s) missed before seq 3", gaps=1, missed=1)
    )
    totals = reader.noise_totals()
    assert (totals.lines, totals.bytes, totals.missed) == (1, 9, 1)
