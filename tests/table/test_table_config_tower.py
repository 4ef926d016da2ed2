"""Configuration of Dork Tower's LED ring and its optional tower motor (``[devices]``)."""

from __future__ import annotations

import pytest
from test_table_config import config_error, toml

from companion.config import Config, load


def test_by_default_the_ring_has_16_pixels_and_there_is_no_motor(tmp_path):
    config = load(None, data_dir=tmp_path)
    assert config.tower_pixels == 16
    assert config.tower_motor_pins == () and config.tower_motor_steps == 4096


def test_a_file_sets_the_ring_and_the_motor(tmp_path):
    path = toml(
        tmp_path,
        "[devices]\ntower_pixels = 8\ntower_motor_pins = [4, 17, 27, 22]\n"
        "tower_motor_steps = 4080\n",
    )
    config = load(path, data_dir=tmp_path)
    assert config == Config(
        data_dir=tmp_path, tower_pixels=8, tower_motor_pins=(4, 17, 27, 22), tower_motor_steps=4080
    )


def test_an_empty_pin_list_means_no_motor(tmp_path):
    config = load(toml(tmp_path, "[devices]\ntower_motor_pins = []\n"), data_dir=tmp_path)
    assert config.tower_motor_pins == ()


@pytest.mark.parametrize(
    "text, problem",
    [
        ("tower_pixels = 12", "multiple of 8"),
        ("tower_pixels = 0", "multiple of 8"),
        ("tower_pixels = -8", "multiple of 8"),
        ("tower_motor_pins = [4, 17, 27]", "4 BCM pins"),
        ("tower_motor_pins = [4, 17, 27, 22, 23]", "4 BCM pins"),
        ("tower_motor_pins = [4, 17, 27, 4]", "twice"),
        ("tower_motor_pins = [4, 17, 27, 40]", "0 to 27"),
        ("tower_motor_pins = [4, 17, 27, 5]", "button_pins both use pin 5"),
        ("tower_motor_steps = 4095", "multiple of 8"),
        ("tower_motor_steps = 0", "multiple of 8"),
    ],
    ids=[
        "12 pixels",
        "no pixels",
        "negative pixels",
        "3 pins",
        "5 pins",
        "a pin twice",
        "not a GPIO",
        "a seat button's pin",
        "steps not in eighths",
        "no steps",
    ],
)
def test_bad_values_are_errors_naming_file_and_key(tmp_path, text, problem):
    path = toml(tmp_path, f"[devices]\n{text}\n")
    message = config_error(path, tmp_path)
    key = text.split(" = ")[0]
    assert message.startswith(f"{path}: devices.") and key in message and problem in message


@pytest.mark.parametrize(
    "text, key",
    [
        ("tower_pixels = 16.0", "tower_pixels"),
        ("tower_pixels = true", "tower_pixels"),
        ("tower_motor_pins = 4", "tower_motor_pins"),
        ('tower_motor_pins = [4, "17", 27, 22]', "tower_motor_pins"),
        ('tower_motor_steps = "4096"', "tower_motor_steps"),
    ],
)
def test_mistyped_values_are_errors_naming_file_and_key(tmp_path, text, key):
    path = toml(tmp_path, f"[devices]\n{text}\n")
    message = config_error(path, tmp_path)
    assert message.startswith(f"{path}: ") and key in message


def test_a_pin_of_a_seat_that_is_not_used_may_drive_the_motor(tmp_path):
    """With 3 seats only the first 3 button pins are used; the others are free."""
    path = toml(tmp_path, "[devices]\nseats = 3\ntower_motor_pins = [19, 26, 20, 21]\n")
    assert load(path, data_dir=tmp_path).tower_motor_pins == (19, 26, 20, 21)
