"""``open_devices`` in real mode, on a machine with no Pi: the buttons get the configured pin
factory (never a silent mock), and the LED strips are NeoPixels over SPI, one chain in wiring
order, here on a recording SPI bus."""

from __future__ import annotations

import sys

import pytest
from spi_fake import RecordingSpi, decode

from companion.config import Config
from companion.devices import factory, leds_neopixel
from companion.devices.factory import DeviceSetupError, open_devices

pytest.importorskip(
    "neopixel_spi",
    reason="adafruit-circuitpython-neopixel-spi is not installed: pip install -e '.[test]'",
)

LENGTHS = {"table": 35, "score": 8, "tower": 16}


def real(tmp_path, **more) -> Config:
    return Config(data_dir=tmp_path, mode="real", nfc="none", **more).check()


def test_without_lgpio_the_buttons_refuse_to_start_and_say_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", None)
    with pytest.raises(DeviceSetupError, match=r"lgpio pin factory cannot start .*companion\[pi\]"):
        open_devices(real(tmp_path, leds="none"), lambda e: None, LENGTHS)


def test_the_strips_are_one_neopixel_chain_over_spi(tmp_path, monkeypatch):
    from gpiozero.pins.mock import MockFactory

    monkeypatch.setattr(factory, "pin_factory", lambda name: MockFactory())
    bus = RecordingSpi()
    opened = leds_neopixel.open_neopixel_strips
    monkeypatch.setattr(
        leds_neopixel, "open_neopixel_strips", lambda *a, **k: opened(*a, **k, spi=[bus])
    )
    devices = open_devices(real(tmp_path), lambda e: None, LENGTHS)
    try:
        assert set(devices.strips) == set(LENGTHS)
        for name, n in LENGTHS.items():
            devices.strips[name].show([(200, 100, 0)] * n)
        pixels = decode(bus.writes[-1])
        assert len(pixels) == 59  # table, score and tower in one write, in wiring order
        assert pixels[0] == (100, 50, 0)  # led_max_brightness 0.5 caps every channel
    finally:
        devices.close()


def test_the_chain_follows_devices_led_chain(tmp_path, monkeypatch):
    """The strips are written in the configured wiring order; a strip not on the chain has no
    LEDs (and its pixels are not counted in the power budget)."""
    from gpiozero.pins.mock import MockFactory

    monkeypatch.setattr(factory, "pin_factory", lambda name: MockFactory())
    bus = RecordingSpi()
    opened = leds_neopixel.open_neopixel_strips
    monkeypatch.setattr(
        leds_neopixel, "open_neopixel_strips", lambda *a, **k: opened(*a, **k, spi=[bus])
    )
    devices = open_devices(real(tmp_path, led_chain=("tower", "table")), lambda e: None, LENGTHS)
    try:
        assert set(devices.strips) == {"tower", "table"}
        devices.strips["tower"].show([(2, 0, 0)] * 16)
        devices.strips["table"].show([(0, 0, 4)] * 35)
        pixels = decode(bus.writes[-1])
        assert pixels == [(1, 0, 0)] * 16 + [(0, 0, 2)] * 35  # the tower first: wiring order
    finally:
        devices.close()


def test_the_board_reader_is_a_pn532_on_the_configured_port(tmp_path, monkeypatch):
    from gpiozero.pins.mock import MockFactory

    from companion.devices import nfc_pn532

    made = []

    class Recorded:
        def __init__(self, name, emit, *, port):
            made.append((name, port))

        def close(self):
            pass

    monkeypatch.setattr(factory, "pin_factory", lambda name: MockFactory())
    monkeypatch.setattr(nfc_pn532, "Pn532Reader", Recorded)
    config = Config(
        data_dir=tmp_path, mode="real", leds="none", nfc="pn532", nfc_port="/dev/ttyUSB0"
    ).check()
    devices = open_devices(config, lambda e: None, LENGTHS)
    devices.close()
    assert made == [("board", "/dev/ttyUSB0")]
    # one more at two of the seats: a reader each, named after its seat
    made.clear()
    config = Config(
        data_dir=tmp_path,
        mode="real",
        leds="none",
        nfc="pn532",
        nfc_port="/dev/serial0",
        nfc_readers=(("seat1", "/dev/ttyUSB0"), ("seat3", "/dev/ttyUSB1")),
    ).check()
    devices = open_devices(config, lambda e: None, LENGTHS)
    assert set(devices.nfc) == {"board", "seat1", "seat3"}
    devices.close()
    assert made == [("board", "/dev/serial0"), ("seat1", "/dev/ttyUSB0"), ("seat3", "/dev/ttyUSB1")]


def test_the_simulated_table_has_the_seat_readers_too(tmp_path):
    config = Config(data_dir=tmp_path, nfc_readers=(("seat2", "/dev/ttyUSB0"),)).check()
    devices = open_devices(config, lambda e: None, LENGTHS)
    try:
        assert set(devices.nfc) == {"board", "seat2"}
    finally:
        devices.close()
