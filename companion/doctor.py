"""``companion doctor``: is every configured device there and working? In plain words, with fixes.

First the table's storage: its data directory can be written, its database passes SQLite's quick
check and every entry its checksum, and the log holds all that its mark says was acknowledged
(``table/storage_checks.py``; no database is created where there is none). Then the checks that
need no device open: the serial ports exist and may be opened, SPI and I2C are on, the serial
console does not hold the PN532's UART, which gpiozero pin factory the buttons get. Then every
device is opened as ``companion run`` would open it, the LED strips show a test pattern, and the
doctor waits for a tag, a button press and a die roll. In simulation the doctor makes those
itself, through the same simulated devices a simulated table uses, so that every step runs
anywhere.

What the checks read of the machine goes through :class:`System`, so tests can give a fake one.
"""

from __future__ import annotations

import os
import queue
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .config import Config
from .devices.events import ButtonPressed, DeviceStatus, DieRolled, TagTapped
from .devices.leds import TEST_PATTERN

BOOT_CONFIGS = ("boot/firmware/config.txt", "boot/config.txt")  # Bookworm, then older systems
SERIAL_CONSOLES = ("console=serial0", "console=ttyAMA0", "console=ttyS0")
PATTERN = TEST_PATTERN  #: every strip red, green, blue, then white


@dataclass(frozen=True)
class Finding:
    """One check's answer: ``ok``, what was found, and how to fix it when it is not ok."""

    device: str
    ok: bool
    what: str
    fix: str | None = None

    def line(self) -> str:
        mark = "ok  " if self.ok else "FAIL"
        text = f"  {mark}  {self.device:<14} {self.what}"
        if self.fix:
            text += f"\n        fix: {self.fix}"
        return text


class System:
    """The machine the checks look at; ``root`` is "/" except in tests."""

    def __init__(self, root: str | Path = "/"):
        self.root = Path(root)

    def path(self, path: str) -> Path:
        return self.root / path.lstrip("/")

    def exists(self, path: str) -> bool:
        return self.path(path).exists()

    def may_open(self, path: str) -> bool:
        return os.access(self.path(path), os.R_OK | os.W_OK)

    def read(self, path: str) -> str | None:
        try:
            return self.path(path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None

    def model(self) -> str | None:
        """The Raspberry Pi's model, or None on any other machine."""
        text = self.read("/proc/device-tree/model")
        return text.strip("\x00\n ") if text and "Raspberry Pi" in text else None

    def boot_config(self) -> tuple[str, str] | None:
        for name in BOOT_CONFIGS:
            text = self.read(name)
            if text is not None:
                return "/" + name, text
        return None


# ----------------------------------------------------------------------------------------------
# The storage


def storage(config: Config, disk: Any = None) -> Finding:
    """The data directory, the database's checks and the mark against the log, with the fix;
    ``disk``: a :class:`~companion.table.storage.Disk` (tests give one that fails)."""
    from .table.storage import StorageError
    from .table.storage_checks import check_storage

    try:
        report = check_storage(config.database, disk)
    except StorageError as exc:
        fix = exc.fix.removeprefix("Fix: ")
        return Finding("storage", False, exc.what, fix[:1].lower() + fix[1:])
    return Finding("storage", True, report.summary())


# ----------------------------------------------------------------------------------------------
# Checks that open nothing


def serial_port(device: str, port: str, system: System, *, missing_fix: str) -> Finding:
    """A serial port the configuration names: there, and openable by this user."""
    if not system.exists(port):
        return Finding(device, False, f"{port} not found", missing_fix)
    if not system.may_open(port):
        return Finding(
            device,
            False,
            f"{port}: permission denied",
            "add this user to the group that owns the port: sudo usermod -aG dialout "
            "$USER, then log out and in (the installed service already is)",
        )
    return Finding(device, True, f"{port} is there and may be opened")


def serial_console(system: System) -> Finding:
    """The Pi's serial console must not hold the UART a PN532 is wired to."""
    cmdline = system.read("/proc/cmdline") or ""
    found = [
        c
        for c in SERIAL_CONSOLES
        for word in cmdline.split()
        if word == c or word.startswith(c + ",")
    ]  # console=serial0,115200
    if found:
        return Finding(
            "serial console",
            False,
            f"the kernel still has a serial console on the UART ({found[0]})",
            "sudo raspi-config nonint do_serial_cons 1, then "
            "reboot (or remove it from /boot/firmware/cmdline.txt)",
        )
    return Finding("serial console", True, "off: the UART is free for the NFC reader")


def bus(device: str, node: str, param: str, system: System, raspi: str) -> Finding:
    """SPI (for the LEDs) or I2C (for an I2C PN532): its device node, and config.txt's line."""
    if system.exists(node):
        return Finding(device, True, f"{node} is there")
    boot = system.boot_config()
    where = boot[0] if boot else "/boot/firmware/config.txt"
    said = boot is not None and f"dtparam={param}=on" in boot[1].replace(" ", "")
    what = (
        f"{node} not found although {where} says dtparam={param}=on (reboot to apply it)"
        if said
        else f"{param.upper()} is disabled in {where}"
    )
    return Finding(
        device,
        False,
        what,
        f"sudo raspi-config nonint {raspi} 0 (or add dtparam={param}=on to {where}), then reboot",
    )


def pin_factory(config: Config, system: System) -> Finding:
    """Which gpiozero pin factory the seat buttons get; on a Pi never a silent mock."""
    if config.simulated:
        return Finding(
            "buttons",
            True,
            f"{config.seats} seat buttons on BCM "
            f"{', '.join(map(str, config.button_pins[: config.seats]))}; pin factory: "
            f"MockFactory (simulated)",
        )
    from .devices.factory import PIN_FACTORY_EXTRAS, pin_factory_class

    name = config.button_factory
    try:
        pin_factory_class(name)
    except ImportError as exc:
        extra = PIN_FACTORY_EXTRAS[name]
        return Finding(
            "buttons",
            False,
            f"the {name} pin factory cannot be loaded ({exc})",
            f"install the extra: pip install 'companion[{extra}]' (the installer "
            f"installs the pi extra)",
        )
    model = system.model()
    if model is None:
        return Finding(
            "buttons",
            False,
            "this machine is not a Raspberry Pi: there are no GPIO pins for the buttons",
            "run the doctor on the table's Pi, or without --real to check the simulated table",
        )
    return Finding(
        "buttons",
        True,
        f"{config.seats} seat buttons on BCM "
        f"{', '.join(map(str, config.button_pins[: config.seats]))}; pin factory: "
        f"{name} ({model})",
    )


def power_budget(config: Config, pixels: int) -> Finding:
    """The LEDs' worst case (every pixel white at the brightness ceiling) against the supply."""
    from .devices.leds_neopixel import PowerBudgetError, check_power_budget

    try:
        amps = check_power_budget(pixels, config.led_max_brightness, config.led_supply_amps)
    except PowerBudgetError as exc:
        return Finding(
            "leds (power)",
            config.led_over_budget == "cap",
            str(exc),
            None
            if config.led_over_budget == "cap"
            else "see the numbers above; hardware/README.md sizes the supply",
        )
    return Finding(
        "leds (power)",
        True,
        f"{pixels} pixels draw at most {amps:.2f} A at "
        f"brightness {config.led_max_brightness:.2f}; the supply spares "
        f"{config.led_supply_amps:.2f} A",
    )


def static_checks(config: Config, system: System, pixels: int = 0) -> list[Finding]:
    """Everything that can be known without opening a device; ``pixels``: the LEDs' count."""
    found = [pin_factory(config, system)]
    if config.simulated:
        for name in ("board", *(name for name, _ in config.nfc_readers)):
            found.append(Finding(f"nfc {name}", True, "simulated reader"))
        found.append(Finding("leds", True, "simulated strips, drawn on the host page"))
        found.append(Finding("dice", True, "simulated dice reader (a separate process on a pty)"))
        return found
    if config.nfc not in ("none", "simulated") and config.nfc_port:
        if config.nfc_port.startswith("/dev/i2c"):
            found.append(bus("nfc (I2C)", config.nfc_port, "i2c_arm", system, "do_i2c"))
        else:
            found.append(
                serial_port(
                    "nfc board",
                    config.nfc_port,
                    system,
                    missing_fix=(
                        "turn the UART on: sudo raspi-config nonint do_serial_hw 0 (enable_uart=1 in "
                        "config.txt), then reboot; or set devices.nfc_port to the reader's port"
                    ),
                )
            )
        if config.nfc_port in ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0"):
            found.append(serial_console(system))
    for name, port in config.nfc_readers if config.nfc != "none" else ():
        found.append(
            serial_port(
                f"nfc {name}",
                port,
                system,
                missing_fix=(
                    f"plug the seat's reader in by USB and set devices.nfc_readers.{name} to its path "
                    f"in /dev/serial/by-id/ (ls /dev/serial/by-id/)"
                ),
            )
        )
    if config.leds == "spi":
        found.append(bus("leds (SPI)", "/dev/spidev0.0", "spi", system, "do_spi"))
    if config.leds not in ("none", "simulated"):
        found.append(power_budget(config, pixels))
    if config.dice_port:
        found.append(
            serial_port(
                "dice",
                config.dice_port,
                system,
                missing_fix=(
                    "plug the dice reader in by USB and set devices.dice_port to its path in "
                    "/dev/serial/by-id/ (ls /dev/serial/by-id/)"
                ),
            )
        )
    else:
        found.append(
            Finding("dice", True, "no dice reader configured: rolls are made on the phones")
        )
    return found


# ----------------------------------------------------------------------------------------------
# Opening the devices, the LED pattern, and waiting for a tag, a button and a roll


class Live:
    """The devices opened as ``companion run`` opens them, with their events in a queue."""

    def __init__(self, config: Config, strips: dict[str, int]):
        from .devices.factory import open_devices

        self.events: queue.Queue = queue.Queue()
        self.devices = open_devices(config, self.events.put, strips)

    def close(self) -> None:
        self.devices.close()

    def wait(self, kind: type, seconds: float) -> Any | None:
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                event = self.events.get(timeout=left)
            except queue.Empty:
                return None
            if isinstance(event, kind):
                return event
        return None


def nfc_answer(name: str, reader: Any, seconds: float = 3.0) -> Finding:
    """Whether the PN532 ``reader`` answered (its firmware version) within ``seconds``."""
    deadline = time.monotonic() + seconds
    while reader.firmware is None and time.monotonic() < deadline:
        time.sleep(0.05)
    if reader.firmware is not None:
        ic, version, revision, _ = reader.firmware
        return Finding(
            f"nfc {name}", True, f"PN5{ic:02X} firmware {version}.{revision} on {reader.port}"
        )
    return Finding(
        f"nfc {name}",
        False,
        f"no PN532 answers on {reader.port}",
        "check its interface switches (UART: both off; I2C: SEL0 on), that TX and "
        "RX are crossed (Pi TXD to the reader's RXD), and its 3.3 V supply",
    )


def led_pattern(live: Live, step: float, say: Callable[[str], None]) -> Finding:
    """Every strip red, green, blue, white, then dark: a broken pixel or data line shows."""
    strips = live.devices.strips
    if not strips:
        return Finding("leds", True, "no LED strips configured")
    say("  LED test pattern: every strip red, green, blue, white, then dark ...")
    for colour in PATTERN:
        for strip in strips.values():
            strip.show([colour] * strip.length)
        time.sleep(step)
    for strip in strips.values():
        strip.show([(0, 0, 0)] * strip.length)
    sizes = ", ".join(f"{name} ({strip.length})" for name, strip in strips.items())
    return Finding("leds", True, f"test pattern shown on {sizes}: check that every pixel lit")


class _Report(list):
    """Findings, each printed the moment it is made."""

    def __init__(self, say: Callable[[str], None]):
        super().__init__()
        self.say = say

    def append(self, finding: Finding) -> None:
        super().append(finding)
        self.say(finding.line())


def live_checks(
    config: Config, strips: dict[str, int], wait: float, step: float, say: Callable[[str], None]
) -> list[Finding]:
    found = _Report(say)
    from .devices.factory import DeviceSetupError

    try:
        live = Live(config, strips)
    except (DeviceSetupError, OSError, RuntimeError, ValueError) as exc:
        found.append(Finding("devices", False, f"cannot be opened: {exc}"))
        return found
    try:
        dice = live.devices.dice
        if dice is not None:
            status = live.wait(DeviceStatus, 3.0) if not dice.connected else None
            if dice.connected:
                found.append(Finding("dice", True, f"reader connected on {dice.port}"))
            else:
                found.append(
                    Finding(
                        "dice",
                        False,
                        f"no reader answers on {dice.port}"
                        + (f" ({status.detail})" if status else ""),
                        "check the USB cable and that the reader runs its "
                        "firmware (firmware/README.md)",
                    )
                )
        for name, reader in live.devices.nfc.items():
            if hasattr(reader, "firmware"):  # a real PN532: it answers once connected
                found.append(nfc_answer(name, reader))
        found.append(led_pattern(live, step, say))
        if wait <= 0:
            return found
        sim = config.simulated
        found.append(
            _wait_for(
                live,
                "nfc",
                "a tag",
                TagTapped,
                wait,
                say,
                (lambda: live.devices.nfc["board"].tap("04A1B2C3D4E5F6")) if sim else None,
                lambda e: f"tag {e.uid} on the {e.reader} reader",
            )
        )
        if live.devices.buttons is not None:
            found.append(
                _wait_for(
                    live,
                    "buttons",
                    "a seat button",
                    ButtonPressed,
                    wait,
                    say,
                    (lambda: live.devices.buttons.press(0)) if sim else None,
                    lambda e: f"seat {e.seat + 1} pressed",
                )
            )
        if dice is not None and dice.connected:
            found.append(
                _wait_for(
                    live,
                    "dice",
                    "a roll",
                    DieRolled,
                    wait,
                    say,
                    (lambda: live.devices.sim_dice.roll(0, 4)) if sim else None,
                    lambda e: f"die {e.die} rolled {e.face}",
                )
            )
    finally:
        live.close()
    return found


def _wait_for(
    live: Live,
    device: str,
    what: str,
    kind: type,
    wait: float,
    say: Callable[[str], None],
    simulate: Callable[[], None] | None,
    describe: Callable[[Any], str],
) -> Finding:
    if simulate is None:
        say(f"  Waiting up to {wait:.0f} s for {what} ...")
    else:
        say(f"  Waiting for {what} (the simulated table makes one) ...")
        simulate()
    event = live.wait(kind, wait)
    if event is None:
        return Finding(
            device,
            False,
            f"no {what[2:]} within {wait:.0f} s",
            "tap, press or roll while the doctor waits; if nothing comes, check the "
            "wiring in hardware/README.md",
        )
    return Finding(device, True, describe(event) + (" (simulated)" if simulate else ""))


def run(
    config: Config,
    strips: dict[str, int],
    *,
    system: System | None = None,
    wait: float = 30.0,
    step: float = 0.4,
    say: Callable[[str], None] = print,
) -> int:
    """Run every check, print the findings; 0 when everything is fine, 1 otherwise."""
    from . import __version__

    system = system or System()
    mode = "simulated devices" if config.simulated else "real devices"
    say(f"companion doctor {__version__}: {mode}")
    findings = [storage(config)] + static_checks(
        config, system, sum(n for name, n in strips.items() if name in config.led_chain)
    )
    for f in findings:
        say(f.line())
    if not all(f.ok for f in findings) and not config.simulated:
        say("  (opening the devices anyway, to report each one)")
    more = live_checks(config, strips, wait, step, say)
    problems = [f for f in findings + more if not f.ok]
    if problems:
        say(f"{len(problems)} problem{'s' if len(problems) != 1 else ''} found.")
        return 1
    say("Every check passed.")
    return 0
