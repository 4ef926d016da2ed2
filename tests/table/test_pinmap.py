"""The pin map (``hardware/pinmap.toml``): the wiring the default configuration and the wiring
diagram both come from, its checks, and the rest of ``hardware/`` (the diagram, the parts list)."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from decimal import Decimal
from pathlib import Path

import pytest
from test_table_config import config_error, toml

from companion import pinmap
from companion.config import Config, load
from companion.pinmap import PinMapError, parse, render_svg

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"
PINMAP = HARDWARE / "pinmap.toml"
SHIPPED = PINMAP.read_text(encoding="utf-8")

STEPPER = """\
  { header = 7,  bcm = 4,  use = "stepper", input = "IN1" },
  { header = 11, bcm = 17, use = "stepper", input = "IN2" },
  { header = 13, bcm = 27, use = "stepper", input = "IN3" },
  { header = 15, bcm = 22, use = "stepper", input = "IN4" },
  { header = 9,  use = "GND", device = "stepper" },
"""


def edited(old: str, new: str, text: str = SHIPPED) -> str:
    """The shipped pin map with one line (or block) changed: it must be there exactly once."""
    assert text.count(old) == 1, old
    return text.replace(old, new)


def with_stepper(pins: str = STEPPER) -> str:
    return edited("pins = [\n", "pins = [\n" + pins)


def refusal(text: str) -> str:
    with pytest.raises(PinMapError) as info:
        parse(text, "pinmap.toml")
    return str(info.value)


SEAT_5 = '  { header = 37, bcm = 26, use = "button", seat = 5, config = "devices.button_pins" },\n'


# -- the shipped map and the configuration's defaults ------------------------------------------


def test_the_shipped_map_gives_the_documented_defaults():
    """hardware/README.md and companion/config.py's example name these pins: a change to the
    shipped map must change them too."""
    shipped = pinmap.load(PINMAP)
    assert shipped.button_pins == (5, 6, 13, 19, 26)
    assert shipped.tower_motor_pins == ()
    assert shipped.led_bus == "spi" and shipped.led_data_pin == 10
    assert shipped.nfc_interface == "uart" and shipped.nfc_port == "/dev/serial0"
    assert shipped.led_chain == ("table", "score", "tower")
    assert [u.header for u in shipped.uses if u.use == "button"] == [29, 31, 33, 35, 37]


def test_the_configuration_defaults_are_the_pin_maps(tmp_path):
    defaults = pinmap.load().config_defaults()
    assert defaults == {
        "button_pins": (5, 6, 13, 19, 26),
        "tower_motor_pins": (),
        "leds": "spi",
        "nfc_port": "/dev/serial0",
        "led_chain": ("table", "score", "tower"),
    }
    config = load(None, data_dir=tmp_path)
    assert {key: getattr(config, key) for key in defaults} == defaults
    assert config == Config(data_dir=tmp_path)


def test_the_default_pin_map_is_the_one_in_hardware(monkeypatch, tmp_path):
    monkeypatch.delenv(pinmap.ENV, raising=False)
    assert pinmap.default_path() == PINMAP
    monkeypatch.setenv(pinmap.ENV, str(tmp_path / "mine.toml"))
    assert pinmap.default_path() == tmp_path / "mine.toml"


def defaults_under(path: Path) -> dict:
    """``Config``'s pin defaults in a fresh interpreter reading the pin map ``path``."""
    code = (
        "from companion.config import Config, PINMAP_PROBLEM\n"
        "c = Config(data_dir='.')\n"
        "print(repr((c.button_pins, c.tower_motor_pins, c.leds, c.nfc_port,\n"
        "            c.led_chain, PINMAP_PROBLEM)))\n"
    )
    env = dict(os.environ, **{pinmap.ENV: str(path)})
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    buttons, motor, leds, nfc_port, chain, problem = eval(done.stdout)
    return {
        "button_pins": buttons,
        "tower_motor_pins": motor,
        "leds": leds,
        "nfc_port": nfc_port,
        "led_chain": chain,
        "problem": problem,
    }


@pytest.mark.parametrize(
    "change, old, new, expect",
    [
        (
            "seat 3's button moved to BCM 16",
            '{ header = 33, bcm = 13, use = "button", seat = 3,',
            '{ header = 36, bcm = 16, use = "button", seat = 3,',
            {"button_pins": (5, 6, 16, 19, 26)},
        ),
        ("seat 5's button removed", SEAT_5, "", {"button_pins": (5, 6, 13, 19)}),
        ("the stepper fitted", "  # { header = 7,", "  { header = 7,", None),
        (
            "the LED data moved to PWM",
            '{ header = 19, bcm = 10, use = "led data"',
            '{ header = 12, bcm = 18, use = "led data"',
            {"leds": "pwm"},
        ),
        (
            "the PN532 moved to I2C",
            (
                '  { header = 8,  bcm = 14, use = "nfc txd", config = "devices.nfc_port" },  # Pi TXD -> '
                'PN532 RXD\n  { header = 10, bcm = 15, use = "nfc rxd", config = "devices.nfc_port" },  # Pi '
                "RXD <- PN532 TXD\n"
            ),
            '  { header = 3, bcm = 2, use = "nfc sda" },\n  { header = 5, bcm = 3, use = "nfc scl" },\n',
            {"nfc_port": "/dev/i2c-1"},
        ),
        (
            "the LED chain reordered",
            'chain = ["table", "score", "tower"]',
            'chain = ["tower", "table"]',
            {"led_chain": ("tower", "table")},
        ),
    ],
)
def test_changing_or_removing_a_pin_changes_the_diagram_and_the_defaults_together(
    tmp_path, change, old, new, expect
):
    """The issue's check: a pin changed or removed in (a copy of) the pin map changes both the
    wiring diagram drawn from it and the configuration's defaults."""
    text = edited(old, new)
    if change == "the stepper fitted":
        for line in (
            "  # { header = 11,",
            "  # { header = 13,",
            "  # { header = 15,",
            '  # { header = 4,  use = "5V"',
            '  # { header = 9,  use = "GND"',
        ):
            text = edited(line, line.replace("# ", "", 1), text)
        expect = {"tower_motor_pins": (4, 17, 27, 22)}
    copy = tmp_path / "pinmap.toml"
    copy.write_text(text, encoding="utf-8")
    before, after = pinmap.load(PINMAP), pinmap.load(copy)
    assert render_svg(after) != render_svg(before), change
    shipped = defaults_under(PINMAP)
    changed = defaults_under(copy)
    assert changed["problem"] is None and shipped["problem"] is None
    assert {k: v for k, v in changed.items() if v != shipped[k]} == expect
    assert after.config_defaults() == {k: v for k, v in changed.items() if k != "problem"}


def test_the_diagram_shows_what_the_map_says():
    svg = render_svg(pinmap.load(PINMAP))
    for label in (
        "seat 1 button · BCM 5",
        "seat 5 button · BCM 26",
        "LED data · BCM 10 (SPI0 MOSI)",
        "NFC UART TXD · BCM 14",
        "NFC UART RXD · BCM 15",
        "3.3 V · PN532",
        "5 V · level shifter",
        "GND · buttons",
        "Dice reader: Raspberry Pi Pico",
        "Tower stepper (ULN2003)",
        "optional, not fitted",
        "Legend",
    ):
        assert label in svg, label
    without = render_svg(parse(edited(SEAT_5, "")))
    assert "seat 5 button" not in without and "BCM 26" in without  # now an unused pin's name
    fitted = render_svg(parse(with_stepper()))
    assert "tower stepper IN2 · BCM 17" in fitted and "optional, not fitted" not in fitted


def test_the_diagram_is_deterministic_well_formed_svg():
    first = render_svg(pinmap.load(PINMAP))
    assert render_svg(pinmap.load(PINMAP)) == first
    root = ET.fromstring(first)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert str(ROOT) not in first and "/home/" not in first and "/tmp/" not in first


def test_the_checked_in_diagram_is_drawn_from_the_checked_in_pin_map():
    drawn = render_svg(pinmap.load(PINMAP))
    checked_in = (HARDWARE / "wiring.svg").read_text(encoding="utf-8")
    assert checked_in == drawn, (
        f"hardware/wiring.svg is out of date with hardware/pinmap.toml: run "
        f".venv/bin/{pinmap.SVG_COMMAND} and check in the result"
    )


# -- a map that cannot be wired is refused, naming both uses -----------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        (
            with_stepper(STEPPER.replace("header = 11, bcm = 17", "header = 33, bcm = 13")),
            "BCM 13 is used twice: tower stepper IN2 and seat 3 button",
        ),
        (
            edited("{ header = 31, bcm = 6,", "{ header = 33, bcm = 13,"),
            "BCM 13 is used twice: seat 2 button and seat 3 button",
        ),
        (
            edited("{ header = 33, bcm = 13,", "{ header = 19, bcm = 10,"),
            "BCM 10 is used twice: LED data (SPI0 MOSI) and seat 3 button",
        ),
        (
            edited("{ header = 33, bcm = 13,", "{ header = 21, bcm = 9,"),
            "BCM 9 is used twice: seat 3 button and SPI0 MISO (SPI0 is on for the LED data)",
        ),
        (
            edited("{ header = 33, bcm = 13,", "{ header = 8, bcm = 14,"),
            "BCM 14 is used twice: NFC reader (UART TXD) and seat 3 button",
        ),
        (
            edited("{ header = 33, bcm = 13,", "{ header = 27, bcm = 0,"),
            "BCM 0 is used twice: seat 3 button and ID_SD (reserved for the HAT ID EEPROM)",
        ),
        (
            edited(
                '{ header = 25, use = "GND", device = "leds" }',
                '{ header = 39, use = "GND", device = "leds" }',
            ),
            (
                "header pin 39 (GND) is used twice: GND for the LED level shifter (74AHCT125) and GND for "
                "the seat buttons"
            ),
        ),
    ],
    ids=[
        "stepper on a button's pin",
        "two buttons on one pin",
        "a button on the LED data line",
        "a button on SPI0 while the LEDs use it",
        "a button on the NFC reader's UART",
        "a button on the HAT EEPROM's pin",
        "a ground pin used twice",
    ],
)
def test_a_pin_used_twice_is_refused_naming_both_uses(text, message):
    assert refusal(text) == f"pinmap.toml: {message}"


def test_a_bus_pin_is_free_while_its_bus_is_off():
    """BCM 9 (SPI0 MISO) is a plain GPIO when the LEDs are on PWM; BCM 14 when the PN532 is on
    I2C."""
    text = edited(
        '{ header = 19, bcm = 10, use = "led data"', '{ header = 12, bcm = 18, use = "led data"'
    )
    assert parse(edited("{ header = 33, bcm = 13,", "{ header = 21, bcm = 9,", text))
    text = edited(
        '  { header = 8,  bcm = 14, use = "nfc txd", config = "devices.nfc_port" },',
        '  { header = 3, bcm = 2, use = "nfc sda" },',
    )
    text = edited(
        '  { header = 10, bcm = 15, use = "nfc rxd", config = "devices.nfc_port" },',
        '  { header = 5, bcm = 3, use = "nfc scl" },',
        text,
    )
    assert parse(
        edited("{ header = 33, bcm = 13,", "{ header = 8, bcm = 14,", text)
    ).button_pins == (5, 6, 14, 19, 26)


@pytest.mark.parametrize(
    "old, new, problem",
    [
        (
            "{ header = 33, bcm = 13,",
            "{ header = 33, bcm = 30,",
            "BCM 30 is not a GPIO pin of the 40-pin header",
        ),
        (
            "{ header = 33, bcm = 13,",
            "{ header = 33, bcm = 12,",
            "header pin 33 is BCM 13, not BCM 12 (BCM 12 is header pin 32)",
        ),
        ("{ header = 33, bcm = 13,", "{ header = 34, bcm = 13,", "header pin 34 is a GND pin"),
        (
            "{ header = 33, bcm = 13,",
            "{ header = 41, bcm = 13,",
            "header must be a header pin number",
        ),
        (
            '{ header = 2,  use = "5V",  device = "leds" }',
            '{ header = 1,  use = "5V",  device = "leds" }',
            "header pin 1 is a 3V3 pin, not 5V",
        ),
        (
            '{ header = 2,  use = "5V",  device = "leds" }',
            '{ header = 17, use = "3V3", device = "leds" }',
            "the LED level shifter (74AHCT125) takes 5 V or GND from the header, not 3.3 V",
        ),
        (
            '{ header = 39, use = "GND", device = "buttons" },',
            "",
            "no GND pin for the seat buttons",
        ),
        ("seat = 3,", "seat = 6,", "seat 3 has no button, but seat 6 has one"),
        ("seat = 3,", "seat = 2,", "seat 2 has two buttons: BCM 6 and BCM 13"),
        ("seat = 3,", "seat = 9,", "a button needs seat = 1 to 8"),
        ('use = "button", seat = 3,', 'use = "buton", seat = 3,', "use must be one of"),
        (
            'seat = 3, config = "devices.button_pins"',
            'seat = 3, config = "devices.tower_motor_pins"',
            "a 'button' pin feeds devices.button_pins, not 'devices.tower_motor_pins'",
        ),
        ("seat = 3,", 'seat = 3, colour = "red",', "has no key 'colour'"),
        (
            '{ header = 8,  bcm = 14, use = "nfc txd"',
            '{ header = 12, bcm = 18, use = "nfc txd"',
            "'nfc txd' must be BCM 14 (UART TXD), not BCM 18",
        ),
        (
            '  { header = 10, bcm = 15, use = "nfc rxd", config = "devices.nfc_port" },',
            "",
            "the NFC reader has no 'nfc rxd' pin",
        ),
        (
            '{ header = 19, bcm = 10, use = "led data"',
            '{ header = 7, bcm = 4, use = "led data"',
            "the LED data must be on BCM 10 (SPI0 MOSI",
        ),
        (
            'chain = ["table", "score", "tower"]',
            'chain = ["table", "table"]',
            "[leds] chain must list the strips",
        ),
        ("pins = [", "pin = [", "unknown key 'pin'"),
        ("pins = [", "pins = [[", "not valid TOML"),
    ],
)
def test_a_map_that_cannot_be_wired_is_refused_saying_why(old, new, problem):
    assert problem in refusal(edited(old, new))


def test_a_stepper_needs_all_four_inputs_and_a_ground():
    assert "IN4 has no pin" in refusal(
        with_stepper("\n".join(STEPPER.splitlines()[:3] + [STEPPER.splitlines()[4]]) + "\n")
    )
    assert "no GND pin for the tower stepper (ULN2003)" in refusal(
        with_stepper("\n".join(STEPPER.splitlines()[:4]) + "\n")
    )
    assert (
        "power on header pin 4 for the tower stepper (ULN2003), but none of its signal"
        in refusal(with_stepper('  { header = 4, use = "5V", device = "stepper" },\n'))
    )
    assert "wired twice" in refusal(with_stepper(STEPPER.replace('input = "IN4"', 'input = "IN3"')))


def test_a_refused_pin_map_stops_the_companion_naming_both_uses(tmp_path):
    bad = tmp_path / "pinmap.toml"
    bad.write_text(
        with_stepper(STEPPER.replace("header = 11, bcm = 17", "header = 33, bcm = 13")),
        encoding="utf-8",
    )
    env = dict(os.environ, **{pinmap.ENV: str(bad)})
    done = subprocess.run(
        [sys.executable, "-m", "companion", "run", "--data", str(tmp_path / "data"), "--port", "0"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert "the pin map is refused" in done.stderr
    assert "BCM 13 is used twice: tower stepper IN2 and seat 3 button" in done.stderr
    assert not (tmp_path / "data" / "companion.db").exists()
    done = subprocess.run(
        [sys.executable, "-m", "companion.pinmap", "--pinmap", str(bad)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 2 and "BCM 13 is used twice" in done.stderr


def test_a_missing_pin_map_is_refused_saying_where(tmp_path):
    message = str(pytest.raises(PinMapError, pinmap.load, tmp_path / "none.toml").value)
    assert "none.toml: cannot read the pin map" in message and pinmap.ENV in message


# -- a configuration's own pins against the map ------------------------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "button_pins = [5, 6, 10, 19, 26]",
            "devices.button_pins: BCM 10 is used twice: LED data (SPI0 MOSI) and seat 3 button",
        ),
        (
            "button_pins = [5, 6, 9, 19, 26]",
            (
                "devices.button_pins: BCM 9 is used twice: seat 3 button and SPI0 MISO (SPI0 is on for the "
                "LED data)"
            ),
        ),
        (
            "tower_motor_pins = [4, 17, 27, 14]",
            "devices.tower_motor_pins: BCM 14 is used twice: NFC reader (UART TXD) and tower stepper IN4",
        ),
        (
            'button_pins = [5, 6, 18, 19, 26]\nleds = "pwm"',
            "devices.button_pins: BCM 18 is used twice: seat 3 button and LED data (PWM)",
        ),
        (
            'leds = "pwm"\ntower_motor_pins = [4, 17, 27, 18]',
            "devices.tower_motor_pins: BCM 18 is used twice: tower stepper IN4 and LED data (PWM)",
        ),
        (
            'nfc_port = "/dev/i2c-1"\nbutton_pins = [5, 6, 2, 19, 26]',
            "devices.button_pins: BCM 2 is used twice: seat 3 button and NFC reader (I2C SDA)",
        ),
        (
            "button_pins = [5, 6, 1, 19, 26]",
            (
                "devices.button_pins: BCM 1 is used twice: seat 3 button and ID_SC (reserved for the HAT "
                "ID EEPROM)"
            ),
        ),
        (
            "button_pins = [5, 6, 13, 19, 5]",
            "devices.button_pins: BCM 5 is used twice: seat 1 button and seat 5 button",
        ),
        (
            "button_pins = [5, 6, 13, 19, 28]",
            "devices.button_pins: BCM 28 is not a GPIO pin of the 40-pin header",
        ),
    ],
    ids=[
        "a button on the LED data line",
        "a button on SPI0",
        "the stepper on the UART",
        "a button on the PWM LED line",
        "the stepper on the PWM LED line",
        "a button on I2C with the PN532 there",
        "a button on the HAT EEPROM's pin",
        "two seats on one pin",
        "not a GPIO pin",
    ],
)
def test_a_configuration_pin_that_collides_with_the_map_is_refused_naming_both(
    tmp_path, text, message
):
    path = toml(tmp_path, f"[devices]\n{text}\n")
    assert config_error(path, tmp_path).startswith(f"{path}: {message}")


@pytest.mark.parametrize(
    "text",
    [
        'button_pins = [5, 6, 10, 19, 26]\nleds = "none"',
        'button_pins = [5, 6, 9, 19, 26]\nleds = "pi5"',
        'button_pins = [5, 6, 14, 19, 26]\nnfc = "none"',
        'button_pins = [5, 6, 14, 19, 26]\nnfc_port = "/dev/ttyUSB0"',
        'leds = "pwm"\nbutton_pins = [5, 6, 9, 19, 26]',
        "seats = 3\ntower_motor_pins = [19, 26, 20, 21]",
    ],
    ids=[
        "no LEDs frees their pin",
        "the Pi 5's PIO frees SPI0",
        "no NFC reader frees the UART",
        "a USB PN532 frees the UART",
        "PWM LEDs free SPI0",
        "an unused seat's pin",
    ],
)
def test_a_pin_whose_use_is_switched_off_is_free(tmp_path, text):
    path = toml(tmp_path, f"[devices]\n{text}\n")
    assert load(path, data_dir=tmp_path)


def test_a_refused_map_is_a_configuration_error_not_a_crash(tmp_path, monkeypatch):
    from companion import config as config_module

    monkeypatch.setattr(config_module, "PINMAP_PROBLEM", "the pin map is refused: x: y")
    assert config_error(None, tmp_path) == "the pin map is refused: x: y"
    path = toml(tmp_path, "[devices]\nseats = 4\n")
    assert config_error(path, tmp_path) == "the pin map is refused: x: y"  # not the file's fault


# -- the command line, the README and the parts list -------------------------------------------


def test_the_command_prints_the_map_and_writes_the_diagram(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "companion.pinmap"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert done.stdout == pinmap.load(PINMAP).describe() + "\n"
    out = tmp_path / "wiring.svg"
    subprocess.run(
        [sys.executable, "-m", "companion.pinmap", "--svg", str(out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    assert out.read_text(encoding="utf-8") == render_svg(pinmap.load(PINMAP))


def test_the_readme_shows_the_maps_pins():
    readme = (HARDWARE / "README.md").read_text(encoding="utf-8")
    assert f"```text\n{pinmap.load(PINMAP).describe()}\n```" in readme, (
        "hardware/README.md's pin table is out of date: paste the output of "
        "python -m companion.pinmap into it"
    )


def parts() -> tuple[list[dict[str, str]], dict[str, str]]:
    with open(HARDWARE / "parts.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return rows[:-1], rows[-1]


def test_the_parts_list_adds_up():
    items, total = parts()
    assert list(total) == [
        "part",
        "quantity",
        "example part number",
        "approximate price (EUR)",
        "note",
    ]
    assert total["part"] == "Total"
    for row in items:
        assert row["part"] and row["example part number"] and row["note"], row
        assert int(row["quantity"]) > 0 and Decimal(row["approximate price (EUR)"]) > 0, row
    summed = sum(int(r["quantity"]) * Decimal(r["approximate price (EUR)"]) for r in items)
    assert Decimal(total["approximate price (EUR)"]) == summed, (
        f"the Total row of hardware/parts.csv says {total['approximate price (EUR)']}, the rows "
        f"add up to {summed}"
    )


def test_the_parts_list_has_the_whole_table_and_the_readme_its_total():
    items, total = parts()
    names = " ".join(r["part"] for r in items).lower()
    for part in (
        "raspberry pi 5",
        "power supply",
        "microsd",
        "pn532",
        "ntag213",
        "ws2812b led strip",
        "ring, 16 pixels",
        "74ahct125",
        "1000 uf",
        "330 ohm",
        "push button",
        "wire",
        "pico",
        "lis3dh",
        "28byj-48",
    ):
        assert part in names, part
    buttons = next(r for r in items if "push button" in r["part"].lower())
    assert int(buttons["quantity"]) == len(pinmap.load(PINMAP).button_pins)
    readme = (HARDWARE / "README.md").read_text(encoding="utf-8")
    whole = Decimal(total["approximate price (EUR)"])
    optional = sum(
        int(r["quantity"]) * Decimal(r["approximate price (EUR)"])
        for r in items
        if r["note"].startswith("optional")
    )
    assert f"about **{whole:.0f} EUR** in all" in readme
    assert f"{whole - optional:.0f} EUR without the optional stepper" in readme
