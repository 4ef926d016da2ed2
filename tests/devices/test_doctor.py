"""``companion doctor``: every check in plain words with its fix, on a fake machine; and in
simulation the whole run, LED pattern, tag, button and roll included."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from companion.cli import main
from companion.config import Config
from companion.doctor import System, bus, pin_factory, serial_console, serial_port, static_checks


class FakeSystem(System):
    """A machine under ``root``; ``closed`` lists the paths this user may not open."""

    def __init__(self, root: Path, closed: tuple[str, ...] = ()):
        super().__init__(root)
        self.closed = closed

    def may_open(self, path: str) -> bool:
        return path not in self.closed and super().may_open(path)

    def add(self, path: str, text: str = "") -> None:
        target = self.path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


@pytest.fixture
def pi(tmp_path) -> FakeSystem:
    system = FakeSystem(tmp_path)
    system.add("/proc/device-tree/model", "Raspberry Pi 5 Model B Rev 1.0\x00")
    system.add("/proc/cmdline", "coherent_pool=1M 8250.nr_uarts=1 console=tty1 root=PARTUUID=x")
    system.add("/boot/firmware/config.txt", "[all]\nenable_uart=1\n")
    return system


def test_in_simulation_every_device_is_checked_and_the_doctor_makes_a_tag_button_and_roll(
    tmp_path, capsys
):
    code = main(["doctor", "--data", str(tmp_path), "--wait", "5"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "simulated devices" in out
    for line in (
        f"ok    storage        {tmp_path} is writable; no database yet: it is created "
        f"on first start",
        "ok    buttons        5 seat buttons on BCM 5, 6, 13, 19, 26; pin factory: "
        "MockFactory (simulated)",
        "ok    nfc board      simulated reader",
        "ok    dice           reader connected on",
        "ok    leds           test pattern shown on table (35), score (8), tower (16)",
        "ok    nfc            tag 04A1B2C3D4E5F6 on the board reader (simulated)",
        "ok    buttons        seat 1 pressed (simulated)",
        "ok    dice           die 0 rolled 4 (simulated)",
        "Every check passed.",
    ):
        assert line in out, line


def test_a_missing_serial_port_and_one_the_user_may_not_open(pi):
    missing = serial_port("dice", "/dev/serial/by-id/usb-pico", pi, missing_fix="plug it in")
    assert not missing.ok and missing.what == "/dev/serial/by-id/usb-pico not found"
    assert missing.fix == "plug it in"
    pi.add("/dev/ttyACM0")
    closed = FakeSystem(pi.root, closed=("/dev/ttyACM0",))
    denied = serial_port("dice", "/dev/ttyACM0", closed, missing_fix="-")
    assert not denied.ok and denied.what == "/dev/ttyACM0: permission denied"
    assert "usermod -aG dialout" in denied.fix
    assert serial_port("dice", "/dev/ttyACM0", pi, missing_fix="-").ok


def test_the_serial_console_still_on_the_uart_is_found(pi):
    assert serial_console(pi).ok
    pi.add("/proc/cmdline", "console=serial0,115200 console=tty1 root=PARTUUID=x")
    found = serial_console(pi)
    assert not found.ok and "console=serial0" in found.what
    assert "raspi-config nonint do_serial_cons 1" in found.fix


def test_spi_disabled_in_config_txt_or_waiting_for_a_reboot(pi):
    off = bus("leds (SPI)", "/dev/spidev0.0", "spi", pi, "do_spi")
    assert not off.ok and off.what == "SPI is disabled in /boot/firmware/config.txt"
    assert off.fix.startswith("sudo raspi-config nonint do_spi 0")
    pi.add("/boot/firmware/config.txt", "[all]\ndtparam=spi=on\n")
    pending = bus("leds (SPI)", "/dev/spidev0.0", "spi", pi, "do_spi")
    assert "says dtparam=spi=on (reboot to apply it)" in pending.what
    pi.add("/dev/spidev0.0")
    assert bus("leds (SPI)", "/dev/spidev0.0", "spi", pi, "do_spi").ok


def test_the_pin_factory_is_named_and_never_a_mock_on_a_pi(pi, tmp_path, monkeypatch):
    real = Config(data_dir=tmp_path, mode="real")
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", None)  # lgpio not installed
    missing = pin_factory(real, pi)
    assert not missing.ok and "lgpio pin factory cannot be loaded" in missing.what
    assert "companion[pi]" in missing.fix
    monkeypatch.setitem(
        sys.modules, "gpiozero.pins.lgpio", types.SimpleNamespace(LGPIOFactory=object)
    )
    found = pin_factory(real, pi)
    assert found.ok and found.what.endswith("pin factory: lgpio (Raspberry Pi 5 Model B Rev 1.0)")
    laptop = pin_factory(real, FakeSystem(tmp_path / "laptop"))
    assert not laptop.ok and "not a Raspberry Pi" in laptop.what
    assert "MockFactory (simulated)" in pin_factory(Config(data_dir=tmp_path), pi).what


def test_real_mode_checks_every_configured_device_before_opening_any(pi, tmp_path):
    config = Config(data_dir=tmp_path, mode="real", dice_port="/dev/serial/by-id/usb-pico")
    found = {f.device: f for f in static_checks(config, pi)}
    assert set(found) >= {"buttons", "serial console", "leds (SPI)", "dice"}
    assert not found["dice"].ok and "ls /dev/serial/by-id/" in found["dice"].fix


def test_the_leds_power_budget_is_checked_before_they_are_opened(pi, tmp_path):
    """Worst case: every pixel white at the brightness ceiling, 60 mA a pixel at full white."""
    config = Config(data_dir=tmp_path, mode="real", nfc="none", led_supply_amps=2.0)
    ok = {f.device: f for f in static_checks(config, pi, pixels=59)}["leds (power)"]
    assert ok.ok and ok.what.startswith("59 pixels draw at most 1.7")
    big = Config(data_dir=tmp_path, mode="real", nfc="none", led_supply_amps=1.0)
    over = {f.device: f for f in static_checks(big, pi, pixels=80)}["leds (power)"]
    assert not over.ok and "more than the supply's 1.00 A" in over.what


def test_the_nfc_readers_port_is_checked_with_the_uart_fix(pi, tmp_path):
    config = Config(
        data_dir=tmp_path, mode="real", leds="none", nfc="pn532", nfc_port="/dev/serial0"
    )
    found = {f.device: f for f in static_checks(config, pi)}
    assert not found["nfc board"].ok and found["nfc board"].what == "/dev/serial0 not found"
    assert "do_serial_hw 0" in found["nfc board"].fix
    assert found["serial console"].ok


def test_each_seat_readers_port_is_checked_too(pi, tmp_path):
    pi.add("/dev/ttyUSB0")
    config = Config(
        data_dir=tmp_path,
        mode="real",
        leds="none",
        nfc="pn532",
        nfc_port="/dev/serial0",
        nfc_readers=(("seat1", "/dev/ttyUSB0"), ("seat2", "/dev/ttyUSB1")),
    ).check()
    found = {f.device: f for f in static_checks(config, pi)}
    assert found["nfc seat1"].ok
    assert not found["nfc seat2"].ok and found["nfc seat2"].what == "/dev/ttyUSB1 not found"
    assert "devices.nfc_readers.seat2" in found["nfc seat2"].fix


def test_a_pn532_that_answers_is_named_with_its_firmware_and_one_that_does_not_with_the_fix():
    from companion.doctor import nfc_answer

    answered = types.SimpleNamespace(firmware=(0x32, 1, 6, 7), port="/dev/serial0")
    assert (
        nfc_answer("board", answered, 0.1).line().strip()
        == "ok    nfc board      PN532 firmware 1.6 on /dev/serial0"
    )
    silent = types.SimpleNamespace(firmware=None, port="/dev/ttyUSB0")
    finding = nfc_answer("seat1", silent, 0.1)
    assert not finding.ok and finding.what == "no PN532 answers on /dev/ttyUSB0"
    assert "interface switches" in finding.fix


def test_the_power_budget_counts_the_strips_on_the_chain_only(tmp_path, monkeypatch):
    from companion import doctor

    seen = []
    checks = doctor.static_checks
    monkeypatch.setattr(
        doctor, "static_checks", lambda c, s, pixels=0: seen.append(pixels) or checks(c, s, pixels)
    )
    config = Config(data_dir=tmp_path, led_chain=("table",)).check()
    doctor.run(config, {"table": 35, "score": 8, "tower": 16}, wait=0, step=0, say=lambda s: None)
    assert seen == [35]
