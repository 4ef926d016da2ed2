"""Device events and NFC tag uids."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest

from companion.devices.events import (
    ButtonPressed,
    DeviceNoise,
    DeviceStatus,
    DieRolled,
    DieState,
    TagTapped,
    normalise_uid,
)


@pytest.mark.parametrize(
    ("text", "uid"),
    [
        ("04a1b2c3", "04A1B2C3"),
        ("04:a1:b2:c3", "04A1B2C3"),
        ("04 A1 B2 C3", "04A1B2C3"),
        ("04-a1-b2-c3", "04A1B2C3"),
        ("  04a1b2c3\n", "04A1B2C3"),
        ("04:a1:b2:c3:d4:e5:f6", "04A1B2C3D4E5F6"),
        ("0102030405060708090a", "0102030405060708090A"),
    ],
)
def test_normalise_uid_accepts_common_spellings(text: str, uid: str) -> None:
    assert normalise_uid(text) == uid


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("04a1b2g3", "non-hex character 'g'"),
        ("04a1b2c", "odd number of hex digits"),
        ("04a1b2", "is 3 bytes long"),
        ("04a1b2c3d4", "is 5 bytes long"),
        ("04:a1:b2:c", "two hex digits each"),
        ("04::a1:b2:c3", "two hex digits each"),
        ("4:a1:b2:c3", "two hex digits each"),
        ("0x04a1b2c3", "non-hex character 'x'"),
    ],
)
def test_normalise_uid_rejects_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        normalise_uid(text)


def test_normalise_uid_wants_a_string() -> None:
    with pytest.raises(TypeError):
        normalise_uid(0x04A1B2C3)  # type: ignore[arg-type]


def test_tag_tapped_normalises_and_validates_its_uid() -> None:
    assert TagTapped("door", "04:a1:b2:c3").uid == "04A1B2C3"
    assert TagTapped("door", "04a1b2c3") == TagTapped("door", "04 A1 B2 C3")
    with pytest.raises(ValueError):
        TagTapped("door", "nope")


def test_events_are_frozen() -> None:
    event = ButtonPressed(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.seat = 2  # type: ignore[misc]


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (
            TagTapped("door", "04a1b2c3"),
            {"kind": "tag_tapped", "reader": "door", "uid": "04A1B2C3"},
        ),
        (ButtonPressed(2), {"kind": "button_pressed", "seat": 2, "long": False}),
        (ButtonPressed(0, long=True), {"kind": "button_pressed", "seat": 0, "long": True}),
        (
            DieRolled(1, 6, 65535),
            {
                "kind": "die_rolled",
                "die": 1,
                "face": "6",
                "seq": 65535,
                "reader": "dice",
                "value": 6,
                "roll": None,
                "profile": None,
                "again": False,
            },
        ),
        (
            DieRolled(0, "2P", 7, value=2, roll=3, profile="battle", again=True),
            {
                "kind": "die_rolled",
                "die": 0,
                "face": "2P",
                "seq": 7,
                "reader": "dice",
                "value": 2,
                "roll": 3,
                "profile": "battle",
                "again": True,
            },
        ),
        (
            DieState(1, "crooked", roll=4),
            {
                "kind": "die_state",
                "die": 1,
                "state": "crooked",
                "reader": "dice",
                "face": None,
                "roll": 4,
                "detail": "",
            },
        ),
        (
            DeviceStatus("dice", False, "gone"),
            {"kind": "device_status", "device": "dice", "connected": False, "detail": "gone"},
        ),
        (
            DeviceNoise("dice", "bad checksum"),
            {"kind": "device_noise", "device": "dice", "detail": "bad checksum"},
        ),
    ],
)
def test_to_json_has_the_kind_and_every_field(event, expected) -> None:
    assert event.to_json() == expected
    assert json.loads(json.dumps(event.to_json())) == expected


@pytest.mark.parametrize(
    ("make", "error"),
    [
        (lambda: ButtonPressed(-1), ValueError),
        (lambda: ButtonPressed(True), TypeError),
        (lambda: ButtonPressed("1"), TypeError),
        (lambda: DieRolled(-1, 3, 0), ValueError),
        (lambda: DieRolled(0, 3.0, 0), TypeError),
        (lambda: DieRolled(0, "", 0), ValueError),
        (lambda: DieRolled(0, "two words", 0), ValueError),
        (lambda: DieRolled(0, "3", 0, value="3"), TypeError),
        (lambda: DieRolled(0, 3, 0, roll=-1), ValueError),
        (lambda: DieState(0, "flying"), ValueError),
        (lambda: DieState(0, "placed", face="a*b"), ValueError),
        (lambda: DieRolled(0, 3, 65536), ValueError),
    ],
)
def test_event_fields_are_checked(make, error) -> None:
    with pytest.raises(error):
        make()


def test_importing_the_device_layer_imports_no_hardware_library() -> None:
    code = (
        "import sys, companion.devices\n"
        "loaded = {'gpiozero', 'serial', 'companion.devices.dice_sim'} & set(sys.modules)\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=30)
