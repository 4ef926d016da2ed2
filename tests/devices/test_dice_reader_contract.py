"""What every dice reader must do for the host driver, checked on the simulated reader and, when
``COMPANION_TEST_DICE_PORT`` names a real reader's serial port (e.g. its /dev/serial/by-id path),
on that real board too. Nothing here needs a die to be touched."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from companion.devices.dice import ReaderError, SerialDiceReader
from companion.devices.dice_sim import SimulatedDiceReader
from companion.devices.events import DieState

REAL_PORT = os.environ.get("COMPANION_TEST_DICE_PORT")


@pytest.fixture(params=["simulated", "real"])
def reader(request, events) -> Iterator[SerialDiceReader]:
    """A connected host driver, on the simulated reader or on the real one."""
    simulator = None
    if request.param == "real":
        if not REAL_PORT:
            pytest.skip("real dice reader not tested: set COMPANION_TEST_DICE_PORT to its port")
        port = REAL_PORT
    else:
        simulator = SimulatedDiceReader(seed=5).start()
        port = simulator.port
    driver = SerialDiceReader(port, events.emit)
    try:
        assert driver.wait_ready(5.0), f"no HELLO from the reader on {port}"
        assert driver.ping(5.0)
        yield driver
    finally:
        driver.close()
        if simulator is not None:
            simulator.close()


def dice_count(reader: SerialDiceReader) -> int:
    return int(reader.info["dice"])


def test_the_reader_introduces_itself(reader) -> None:
    info = reader.info
    assert info["proto"] == "1"
    assert info["fw"] and info["board"]
    assert dice_count(reader) >= 1
    assert info["why"] in ("power", "host")


def test_status_reports_every_die(reader, events) -> None:
    events.pending()
    assert reader.request("STATUS").fields["cmd"] == "STATUS"
    reader.ping(3.0)
    reported = {e.die for e in events.pending() if isinstance(e, DieState)}
    assert reported == set(range(dice_count(reader)))


def test_a_profile_is_set_and_reported(reader, events) -> None:
    events.pending()
    try:
        answer = reader.request("PROFILE", die=0, name="battle")
        assert (answer.fields["cmd"], answer.fields["die"]) == ("PROFILE", "0")
        reader.ping(3.0)
        states = [e for e in events.pending() if isinstance(e, DieState) and e.die == 0]
        assert states and states[-1].detail == "profile battle"
        answer = reader.request("PROFILE", die=0, name="custom", faces="A,B,C,D,E,F")
        assert answer.verb == "OK"
    finally:
        reader.request("PROFILE", die=0, name="d6")


def test_identify_and_flash_answer(reader) -> None:
    assert reader.identify(300).fields["fw"] == reader.info["fw"]
    try:
        assert reader.flash(0, 200).fields["cmd"] == "FLASH"
    except ReaderError as refused:
        assert refused.code == "no-led"  # a build without an LED in the die says so


@pytest.mark.parametrize(
    ("verb", "fields", "code"),
    [
        ("LEVITATE", {}, "verb"),
        ("PROFILE", {"die": 0, "name": "d20"}, "profile"),
        ("PROFILE", {"die": 99, "name": "d6"}, "die"),
        ("FLASH", {}, "field"),
        ("IDENTIFY", {"ms": 999999}, "field"),
    ],
)
def test_bad_commands_are_refused_with_their_code(reader, verb, fields, code) -> None:
    with pytest.raises(ReaderError) as refused:
        reader.request(verb, **fields)
    assert refused.value.code == code
    assert reader.ping(3.0)  # and the reader goes on


def test_every_command_is_safe_to_repeat(reader) -> None:
    for _ in range(3):
        assert reader.request("PROFILE", die=0, name="d6").verb == "OK"
        assert reader.request("STATUS").verb == "OK"
