"""The table's pin map: which Raspberry Pi header pin goes to which device, in one file.

``hardware/pinmap.toml`` lists every wire on the Pi's 40-pin header: its physical pin, its BCM
number, its use (a seat button, the LED data line, the PN532's UART or I2C lines, a tower stepper
input, or 5 V, 3.3 V or ground for a device) and the configuration key it feeds. This module loads
and checks it, gives :mod:`companion.config` its defaults (``button_pins``, ``tower_motor_pins``,
``leds``: the LED bus, ``nfc_port``), checks a configuration's own pins against the map's other
uses, and draws the wiring diagram ``hardware/wiring.svg``::

    python -m companion.pinmap                              # check the map, print its pins
    python -m companion.pinmap --svg hardware/wiring.svg    # redraw the diagram

A map that cannot be wired is refused with a :class:`PinMapError` naming both uses, e.g.
``BCM 13 is used twice: seat 3 button and tower stepper IN2``.

Only the standard library: the configuration imports this module, with or without hardware.
"""

from __future__ import annotations

import argparse
import os
import sys
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from xml.sax.saxutils import escape

#: The environment variable naming another pin map file (the default: ``hardware/pinmap.toml``).
ENV = "COMPANION_PINMAP"

#: The command that redraws the diagram (said by the test that finds it out of date).
SVG_COMMAND = "python -m companion.pinmap --svg hardware/wiring.svg"

# --------------------------------------------------------------------------------------------
# The Raspberry Pi's 40-pin header (every Pi since the B+, the Pi 4 and Pi 5 included)

#: Physical pin -> its BCM GPIO number, or its power rail.
HEADER: dict[int, int | str] = {
    1: "3V3",
    2: "5V",
    3: 2,
    4: "5V",
    5: 3,
    6: "GND",
    7: 4,
    8: 14,
    9: "GND",
    10: 15,
    11: 17,
    12: 18,
    13: 27,
    14: "GND",
    15: 22,
    16: 23,
    17: "3V3",
    18: 24,
    19: 10,
    20: "GND",
    21: 9,
    22: 25,
    23: 11,
    24: 8,
    25: "GND",
    26: 7,
    27: 0,
    28: 1,
    29: 5,
    30: "GND",
    31: 6,
    32: 12,
    33: 13,
    34: "GND",
    35: 19,
    36: 16,
    37: 26,
    38: 20,
    39: "GND",
    40: 21,
}
#: BCM GPIO number -> physical pin.
BCM_HEADER: dict[int, int] = {bcm: pin for pin, bcm in HEADER.items() if isinstance(bcm, int)}
RAILS = ("5V", "3V3", "GND")

#: BCM pins with a special function: their name on the header.
SPECIAL = {
    0: "ID_SD",
    1: "ID_SC",
    2: "I2C1 SDA",
    3: "I2C1 SCL",
    7: "SPI0 CE1",
    8: "SPI0 CE0",
    9: "SPI0 MISO",
    10: "SPI0 MOSI",
    11: "SPI0 SCLK",
    14: "UART TXD",
    15: "UART RXD",
    18: "PWM0",
}
#: The pins a bus takes from plain GPIO use while it is on.
SPI0_PINS = (7, 8, 9, 10, 11)
ID_EEPROM_PINS = (0, 1)  # the HAT ID EEPROM's I2C bus: reserved on every Pi

# --------------------------------------------------------------------------------------------
# Devices and uses


@dataclass(frozen=True)
class Device:
    title: str
    rails: tuple[str, ...]  #: the power rails it may take from the header


DEVICES: dict[str, Device] = {
    "buttons": Device("seat buttons", ("GND",)),
    "leds": Device("LED level shifter (74AHCT125)", ("5V", "GND")),
    "nfc": Device("PN532 NFC reader", ("3V3", "5V", "GND")),
    "stepper": Device("tower stepper (ULN2003)", ("5V", "GND")),
}

#: A signal use -> (its device, the configuration key it feeds).
SIGNALS: dict[str, tuple[str, str]] = {
    "button": ("buttons", "devices.button_pins"),
    "led data": ("leds", "devices.leds"),
    "nfc txd": ("nfc", "devices.nfc_port"),
    "nfc rxd": ("nfc", "devices.nfc_port"),
    "nfc sda": ("nfc", "devices.nfc_port"),
    "nfc scl": ("nfc", "devices.nfc_port"),
    "stepper": ("stepper", "devices.tower_motor_pins"),
}
#: Uses bound to one pin: the Pi's UART and I2C bus 1.
FIXED = {"nfc txd": 14, "nfc rxd": 15, "nfc sda": 2, "nfc scl": 3}
#: The LED data pin -> the LED bus (``devices.leds``) a pin map's wiring means.
LED_DATA = {10: "spi", 18: "pwm"}
#: A LED bus -> its data pin: NeoPixel over SPI0 MOSI, PWM, or the Pi 5's PIO (on any pin; the
#: LED driver's default is BCM 10, so a chain wired for SPI works unchanged).
LED_BUS_PIN = {"spi": 10, "pwm": 18, "pi5": 10}
LED_BUS_NAMES = {"spi": "SPI0 MOSI", "pwm": "PWM", "pi5": "Pi 5 PIO"}
#: with_config's "as the pin map has it".
AS_MAPPED = "as mapped"
STRIPS = ("table", "score", "tower")
STEPPER_INPUTS = ("IN1", "IN2", "IN3", "IN4")
MAX_SEATS = 8
#: The PN532's port by interface, and the ports whose pins are on the header.
NFC_PORTS = {"uart": "/dev/serial0", "i2c": "/dev/i2c-1"}
UART_PORTS = ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0")
_ENTRY_KEYS = ("header", "bcm", "use", "seat", "input", "device", "config")


@dataclass(frozen=True)
class Use:
    """One wire on the header (or, inside a check, a pin a bus takes)."""

    header: int
    use: str  #: one of SIGNALS, RAILS, or "bus" (a pin a bus takes)
    bcm: int | None = None
    seat: int | None = None  #: for "button"
    input: str | None = None  #: for "stepper"
    device: str | None = None  #: for power and ground
    note: str | None = None  #: for "bus": what takes it
    bus: str | None = None  #: for "led data": "spi", "pwm" or "pi5"

    @property
    def owner(self) -> str | None:
        """The device this wire belongs to."""
        if self.use in SIGNALS:
            return SIGNALS[self.use][0]
        return self.device

    @property
    def config(self) -> str | None:
        """The configuration key this pin feeds."""
        if self.use in SIGNALS:
            return SIGNALS[self.use][1]
        if self.use == "bus" and self.bcm in SPI0_PINS:
            return "devices.leds"
        return None

    @property
    def label(self) -> str:
        """What the wire is for, in a few words: ``seat 3 button``, ``tower stepper IN2``."""
        if self.use == "button":
            return f"seat {self.seat} button"
        if self.use == "stepper":
            return f"tower stepper {self.input}"
        if self.use == "led data":
            return f"LED data ({LED_BUS_NAMES.get(self.bus or '', 'SPI0 MOSI')})"
        if self.use in ("nfc txd", "nfc rxd"):
            return f"NFC reader (UART {self.use[-3:].upper()})"
        if self.use in ("nfc sda", "nfc scl"):
            return f"NFC reader (I2C {self.use[-3:].upper()})"
        if self.use == "bus":
            return f"{SPECIAL.get(self.bcm, 'BCM ' + str(self.bcm))} ({self.note})"
        device = DEVICES[self.device].title if self.device in DEVICES else self.device
        return f"{_rail(self.use)} for the {device}"


def _rail(rail: str) -> str:
    return {"5V": "5 V", "3V3": "3.3 V", "GND": "GND"}[rail]


class PinMapError(ValueError):
    """A pin map that cannot be wired. ``problem`` says why, naming the uses involved;
    ``source`` is the file; ``uses`` are the wires in question; ``key`` is the configuration key
    at fault, when a configuration's value is."""

    def __init__(
        self,
        problem: str,
        source: str | None = None,
        uses: Sequence[Use] = (),
        key: str | None = None,
    ):
        super().__init__(f"{source}: {problem}" if source else problem)
        self.problem = problem
        self.source = source
        self.uses = tuple(uses)
        self.key = key


# --------------------------------------------------------------------------------------------
# The map


@dataclass(frozen=True)
class PinMap:
    """A checked pin map: its wires in the file's order, and the LED chain's order."""

    uses: tuple[Use, ...]
    led_chain: tuple[str, ...] = STRIPS
    source: str = "pinmap.toml"

    def of(self, device: str) -> tuple[Use, ...]:
        """The wires of one device (``"buttons"``, ``"leds"``, ``"nfc"``, ``"stepper"``)."""
        return tuple(u for u in self.uses if u.owner == device)

    @property
    def button_pins(self) -> tuple[int, ...]:
        """The seat buttons' BCM pins, seat 1 first."""
        buttons = sorted((u for u in self.uses if u.use == "button"), key=lambda u: u.seat or 0)
        return tuple(u.bcm for u in buttons if u.bcm is not None)

    @property
    def tower_motor_pins(self) -> tuple[int, ...]:
        """The tower stepper's BCM pins for IN1 to IN4; empty when it is not fitted."""
        inputs = {u.input: u.bcm for u in self.uses if u.use == "stepper"}
        return tuple(inputs[i] for i in STEPPER_INPUTS if inputs.get(i) is not None)

    @property
    def led_data_pin(self) -> int | None:
        return next((u.bcm for u in self.uses if u.use == "led data"), None)

    @property
    def led_bus(self) -> str | None:
        """``"spi"`` (data on SPI0 MOSI, BCM 10), ``"pwm"`` (BCM 18), or None (no LEDs)."""
        return next((u.bus for u in self.uses if u.use == "led data"), None)

    @property
    def nfc_interface(self) -> str | None:
        """``"uart"``, ``"i2c"``, or None (no reader on the header)."""
        uses = {u.use for u in self.uses}
        if uses & {"nfc txd", "nfc rxd"}:
            return "uart"
        if uses & {"nfc sda", "nfc scl"}:
            return "i2c"
        return None

    @property
    def nfc_port(self) -> str | None:
        """The PN532's port: ``/dev/serial0`` on the UART, ``/dev/i2c-1`` on I2C."""
        interface = self.nfc_interface
        return NFC_PORTS[interface] if interface else None

    def config_defaults(self) -> dict[str, object]:
        """The configuration's defaults taken from this map (``companion.config.Config``'s
        ``button_pins``, ``tower_motor_pins``, ``leds``, ``nfc_port`` and ``led_chain``)."""
        return {
            "button_pins": self.button_pins,
            "tower_motor_pins": self.tower_motor_pins,
            "leds": self.led_bus or "none",
            "nfc_port": self.nfc_port,
            "led_chain": self.led_chain,
        }

    def with_config(
        self,
        *,
        button_pins: Sequence[int],
        tower_motor_pins: Sequence[int],
        leds: str | None = AS_MAPPED,
        nfc_port: str | None = AS_MAPPED,
    ) -> PinMap:
        """This map with a configuration's pins in place of its own, checked for conflicts.

        ``button_pins`` are the pins of the seats in use. ``leds`` is the LED bus (``"spi"``,
        ``"pwm"``, ``"pi5"``), None for no LEDs, or ``AS_MAPPED``; ``nfc_port`` the NFC reader's
        port, None for no reader, or ``AS_MAPPED``. A device switched off leaves the map with its
        wires; an ``nfc_port`` not on the header (a USB adapter) takes no pins. Raises
        :class:`PinMapError` naming both uses of a pin used twice.
        """
        uses = [u for u in self.uses if u.use not in ("button", "stepper")]
        for seat, bcm in enumerate(button_pins, start=1):
            uses.append(Use(_header_of(bcm, "devices.button_pins"), "button", bcm, seat=seat))
        for name, bcm in zip(STEPPER_INPUTS, tower_motor_pins):
            uses.append(
                Use(_header_of(bcm, "devices.tower_motor_pins"), "stepper", bcm, input=name)
            )
        if leds is None:
            uses = [u for u in uses if u.owner != "leds"]
        elif leds != AS_MAPPED and leds != self.led_bus:
            if leds not in LED_BUS_PIN:
                raise PinMapError(
                    f"the LED bus must be {', '.join(map(repr, LED_BUS_PIN))}, not {leds!r}",
                    key="devices.leds",
                )
            pin = LED_BUS_PIN[leds]
            uses = [u for u in uses if u.use != "led data"]
            uses.append(Use(BCM_HEADER[pin], "led data", pin, bus=leds))
        interface = self.nfc_interface if nfc_port == AS_MAPPED else nfc_interface_of(nfc_port)
        if interface != self.nfc_interface:
            uses = [u for u in uses if u.owner != "nfc" or (interface and u.use in RAILS)]
            lines = {"uart": ("nfc txd", "nfc rxd"), "i2c": ("nfc sda", "nfc scl")}
            for use in lines.get(interface or "", ()):
                uses.append(Use(BCM_HEADER[FIXED[use]], use, FIXED[use]))
        _check_conflicts(uses)
        return replace(self, uses=tuple(uses))

    def describe(self) -> str:
        """The map as a table of text, one wire a line, in header order."""
        width = max([len(u.label) for u in self.uses] + [3])
        lines = [f"{'pin':>3}  {'BCM':>3}  {'use':<{width}}  config"]
        for u in sorted(self.uses, key=lambda u: u.header):
            lines.append(
                f"{u.header:>3}  {'' if u.bcm is None else u.bcm:>3}  "
                f"{u.label:<{width}}  {u.config or ''}".rstrip()
            )
        lines.append(f"LED chain: {' -> '.join(self.led_chain)}")
        return "\n".join(lines)


def nfc_interface_of(port: str | None) -> str | None:
    """Which header pins an NFC port takes: ``"uart"``, ``"i2c"`` or None (none: USB, off)."""
    if port in UART_PORTS:
        return "uart"
    if port == NFC_PORTS["i2c"]:
        return "i2c"
    return None


def _header_of(bcm: int, key: str) -> int:
    if bcm not in BCM_HEADER:
        raise PinMapError(
            f"BCM {bcm} is not a GPIO pin of the 40-pin header (BCM 0 to 27)", key=key
        )
    return BCM_HEADER[bcm]


# --------------------------------------------------------------------------------------------
# Reading and checking


def default_path() -> Path:
    """``$COMPANION_PINMAP``, else ``hardware/pinmap.toml`` of this source tree, else a copy
    carried inside the package (``companion/pinmap.toml``, as a wheel would carry it)."""
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    here = Path(__file__).resolve().parent
    tree = here.parent / "hardware" / "pinmap.toml"
    packaged = here / "pinmap.toml"
    return packaged if not tree.is_file() and packaged.is_file() else tree


def load(path: str | os.PathLike | None = None) -> PinMap:
    """Read and check a pin map file (the default one if ``path`` is None)."""
    path = Path(path) if path is not None else default_path()
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        hint = (
            f" (an installed package carries it as companion/pinmap.toml; ${ENV} may name "
            f"another file)"
            if isinstance(exc, FileNotFoundError)
            else ""
        )
        raise PinMapError(f"cannot read the pin map: {exc.strerror}{hint}", str(path)) from None
    return parse(text, str(path))


def parse(text: str, source: str = "pinmap.toml") -> PinMap:
    """Check a pin map's text; every problem is a :class:`PinMapError` naming ``source``."""
    try:
        raw = tomllib.loads(text)
        return _parse(raw)
    except tomllib.TOMLDecodeError as exc:
        raise PinMapError(f"not valid TOML: {exc}", source) from None
    except PinMapError as exc:
        raise PinMapError(exc.problem, source, exc.uses) from None


def _parse(raw: dict) -> PinMap:
    unknown = sorted(set(raw) - {"pins", "leds"})
    if unknown:
        raise PinMapError(f"unknown key {unknown[0]!r} (a pin map has pins = [...] and [leds])")
    pins = raw.get("pins", [])
    if not isinstance(pins, list):
        raise PinMapError("pins must be a list of { header = ..., use = ... } entries")
    uses = [_entry(i, entry) for i, entry in enumerate(pins)]
    _check_conflicts(uses)
    _check_complete(uses)
    leds = raw.get("leds", {})
    if not isinstance(leds, dict) or set(leds) - {"chain"}:
        raise PinMapError('[leds] has one key: chain = ["table", "score", "tower"]')
    chain = leds.get("chain", list(STRIPS))
    if (
        not isinstance(chain, list)
        or not chain
        or len(set(map(str, chain))) != len(chain)
        or any(s not in STRIPS for s in chain)
    ):
        raise PinMapError(
            f"[leds] chain must list the strips on the data line in their order, "
            f"each once, of {', '.join(STRIPS)}; not {chain!r}"
        )
    return PinMap(tuple(uses), tuple(chain))


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _entry(i: int, entry: object) -> Use:
    where = f"pins[{i}]"
    if not isinstance(entry, dict):
        raise PinMapError(f"{where} must be a table {{ header = ..., use = ... }}")
    unknown = sorted(set(entry) - set(_ENTRY_KEYS))
    if unknown:
        raise PinMapError(f"{where} has no key {unknown[0]!r} (keys: {', '.join(_ENTRY_KEYS)})")
    header, use, bcm = entry.get("header"), entry.get("use"), entry.get("bcm")
    if not _int(header) or not 1 <= header <= 40:
        raise PinMapError(f"{where}: header must be a header pin number, 1 to 40, not {header!r}")
    where = f"{where} (header {header})"
    if use not in SIGNALS and use not in RAILS:
        raise PinMapError(
            f"{where}: use must be one of "
            f"{', '.join(repr(u) for u in (*SIGNALS, *RAILS))}, not {use!r}"
        )
    on_header = HEADER[header]
    if use in RAILS:
        extra = sorted(k for k in ("bcm", "seat", "input", "config") if k in entry)
        if extra:
            raise PinMapError(f"{where}: a {use} pin has no {extra[0]}")
        if on_header != use:
            what = f"BCM {on_header}" if isinstance(on_header, int) else f"a {on_header} pin"
            raise PinMapError(f"{where}: header pin {header} is {what}, not {use}")
        device = entry.get("device")
        if device not in DEVICES:
            raise PinMapError(
                f"{where}: device must be one of "
                f"{', '.join(repr(d) for d in DEVICES)}, not {device!r}"
            )
        if use not in DEVICES[device].rails:
            raise PinMapError(
                f"{where}: the {DEVICES[device].title} takes "
                f"{' or '.join(_rail(r) for r in DEVICES[device].rails)} from the "
                f"header, not {_rail(use)}"
            )
        return Use(header, use, device=device)
    if "device" in entry:
        raise PinMapError(
            f"{where}: device is only for power and ground pins (a {use!r} pin "
            f"belongs to the {DEVICES[SIGNALS[use][0]].title})"
        )
    if not _int(bcm):
        raise PinMapError(f"{where}: bcm must be the pin's BCM GPIO number, not {bcm!r}")
    if bcm not in BCM_HEADER:
        raise PinMapError(
            f"{where}: BCM {bcm} is not a GPIO pin of the 40-pin header (BCM 0 to 27)"
        )
    if on_header != bcm:
        what = f"BCM {on_header}" if isinstance(on_header, int) else f"a {on_header} pin"
        raise PinMapError(
            f"{where}: header pin {header} is {what}, not BCM {bcm} (BCM {bcm} is "
            f"header pin {BCM_HEADER[bcm]})"
        )
    config = entry.get("config")
    if config is not None and config != SIGNALS[use][1]:
        raise PinMapError(f"{where}: a {use!r} pin feeds {SIGNALS[use][1]}, not {config!r}")
    seat, name = entry.get("seat"), entry.get("input")
    if use == "button":
        if not _int(seat) or not 1 <= seat <= MAX_SEATS:
            raise PinMapError(f"{where}: a button needs seat = 1 to {MAX_SEATS}, not {seat!r}")
    elif seat is not None:
        raise PinMapError(f"{where}: only a button has a seat")
    if use == "stepper":
        if name not in STEPPER_INPUTS:
            raise PinMapError(
                f"{where}: a stepper pin needs input = "
                f"{', '.join(repr(n) for n in STEPPER_INPUTS)}, not {name!r}"
            )
    elif name is not None:
        raise PinMapError(f"{where}: only a stepper pin has an input")
    if use in FIXED and bcm != FIXED[use]:
        raise PinMapError(
            f"{where}: {use!r} must be BCM {FIXED[use]} ({SPECIAL[FIXED[use]]}), not BCM {bcm}"
        )
    if use == "led data" and bcm not in LED_DATA:
        raise PinMapError(
            f"{where}: the LED data must be on BCM 10 (SPI0 MOSI, devices.leds = "
            f'"spi") or BCM 18 (PWM, "pwm"), not BCM {bcm}'
        )
    return Use(
        header, use, bcm, seat=seat, input=name, bus=LED_DATA[bcm] if use == "led data" else None
    )


def _twice(what: str, a: Use, b: Use) -> PinMapError:
    return PinMapError(f"{what} is used twice: {a.label} and {b.label}", uses=[a, b])


def _check_conflicts(uses: Iterable[Use]) -> None:
    """A header pin or BCM pin used twice, or a pin its bus takes, naming both uses."""
    uses = list(uses)
    by_header: dict[int, Use] = {}
    by_bcm: dict[int, Use] = {}
    for u in uses:
        if u.header in by_header:
            first = by_header[u.header]
            what = (
                f"BCM {u.bcm}"
                if u.bcm is not None
                else f"header pin {u.header} ({_rail(str(HEADER[u.header]))})"
            )
            raise _twice(what, first, u)
        by_header[u.header] = u
        if u.bcm is not None:
            by_bcm[u.bcm] = u
    taken = [
        Use(BCM_HEADER[b], "bus", b, note="reserved for the HAT ID EEPROM") for b in ID_EEPROM_PINS
    ]
    if any(u.use == "led data" and u.bus == "spi" for u in uses):
        taken += [
            Use(BCM_HEADER[b], "bus", b, note="SPI0 is on for the LED data")
            for b in SPI0_PINS
            if b != LED_BUS_PIN["spi"]
        ]
    for bus in taken:
        if bus.bcm in by_bcm:
            raise _twice(f"BCM {bus.bcm}", by_bcm[bus.bcm], bus)


def _check_complete(uses: Sequence[Use]) -> None:
    """Everything a device needs to work: whole sets of pins, a ground for every device."""
    seats: dict[int, Use] = {}
    for u in uses:
        if u.use == "button":
            if u.seat in seats:
                raise PinMapError(
                    f"seat {u.seat} has two buttons: BCM {seats[u.seat].bcm} and BCM {u.bcm}",
                    uses=[seats[u.seat], u],
                )
            seats[u.seat] = u  # type: ignore[index]
    missing = [s for s in range(1, max(seats, default=0) + 1) if s not in seats]
    if missing:
        raise PinMapError(
            f"seat {missing[0]} has no button, but seat {max(seats)} has one "
            f"(the seats are numbered from 1 without gaps)"
        )
    inputs: dict[str, Use] = {}
    for u in uses:
        if u.use == "stepper":
            if u.input in inputs:
                raise PinMapError(
                    f"the tower stepper's {u.input} is wired twice: BCM "
                    f"{inputs[u.input].bcm} and BCM {u.bcm}",
                    uses=[inputs[u.input], u],
                )
            inputs[u.input] = u  # type: ignore[index]
    if inputs and len(inputs) != 4:
        lacking = [n for n in STEPPER_INPUTS if n not in inputs]
        raise PinMapError(
            f"the tower stepper needs all four inputs IN1 to IN4; {lacking[0]} "
            f"has no pin (or remove its other pins: no stepper)"
        )
    kinds = {u.use for u in uses}
    if len([u for u in uses if u.use == "led data"]) > 1:
        raise PinMapError("the LED data is on one pin, not two (one chain of strips)")
    for pair in (("nfc txd", "nfc rxd"), ("nfc sda", "nfc scl")):
        if len(set(pair) & kinds) == 1:
            lacking = next(p for p in pair if p not in kinds)
            raise PinMapError(
                f"the NFC reader has no {lacking!r} pin ({pair[0]!r} and {pair[1]!r} go together)"
            )
    if {"nfc txd", "nfc sda"} <= kinds:
        raise PinMapError("the NFC reader is wired to the UART and to I2C: choose one")
    for name, device in DEVICES.items():
        wires = [u for u in uses if u.owner == name]
        signals = [u for u in wires if u.use in SIGNALS]
        if wires and not signals:
            raise PinMapError(
                f"power on header pin {wires[0].header} for the {device.title}, but "
                f"none of its signal pins: remove the power line, or add its pins",
                uses=wires,
            )
        if signals and not any(u.use == "GND" for u in wires):
            raise PinMapError(
                f"no GND pin for the {device.title}: add "
                f'{{ header = ..., use = "GND", device = "{name}" }}',
                uses=signals,
            )


# --------------------------------------------------------------------------------------------
# The wiring diagram
#
# The header stands in the middle, pin 1 at the top left. Each device is a box on the side where
# most of its pins are, its ports level with their pins where it can be; a wire from a pin on the
# other side runs over (or under) the header and into the box's outer edge. Everything is in whole
# pixels and in a fixed order, so the same map always gives the same bytes.

WIDTH = 1400
PITCH = 30  #: between header rows, and between a box's ports
TOP = 190  #: y of header row 1
MIN_TOP = TOP - 20  #: no box above this (the wires over the header run higher)
X_PIN = {1: 685, 0: 715}  #: odd pins' column, even pins' column
BOX_X, BOX_W = 70, 300  #: a left box's x and width (mirrored on the right)
GAP = 20  #: between boxes
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
GREY = "#9A9A9A"
COLOURS = {
    "5V": "#D55E00",
    "3V3": "#E69F00",
    "GND": "#222222",
    "buttons": "#0072B2",
    "leds": "#009E73",
    "nfc": "#CC79A7",
    "stepper": "#8C6D1F",
    "usb": "#777777",
}
TITLES = {
    "buttons": "Seat buttons",
    "leds": "LED level shifter: 74AHCT125",
    "nfc": "PN532 NFC reader",
    "stepper": "Tower stepper (ULN2003)",
}
SHORT = {"buttons": "buttons", "leds": "level shifter", "nfc": "PN532", "stepper": "ULN2003"}
_SIDE = {"buttons": -1, "leds": -1, "stepper": -1, "nfc": 1}  #: usual sides: -1 is left


def _row(pin: int) -> int:
    return (pin + 1) // 2


def _y(pin: int) -> int:
    return TOP + (_row(pin) - 1) * PITCH


def _side_of_pin(pin: int) -> int:
    return -1 if pin % 2 else 1


def _mx(side: int, x: int) -> int:
    """x on ``side`` for a left-side x (the drawing is symmetric about the header)."""
    return x if side < 0 else WIDTH - x


def _colour(u: Use) -> str:
    return COLOURS[u.use] if u.use in RAILS else COLOURS[u.owner or "usb"]


def _tint(colour: str) -> str:
    """A very light version of ``colour``, for a box's background."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#{:02X}{:02X}{:02X}".format(*(255 - (255 - c) // 10 for c in (r, g, b)))


def _port_name(u: Use) -> str:
    if u.use == "button":
        return f"seat {u.seat}"
    if u.use == "stepper":
        return str(u.input)
    names = {
        "led data": "1A: data in",
        "nfc txd": "RXD (from Pi TXD)",
        "nfc rxd": "TXD (to Pi RXD)",
        "nfc sda": "SDA",
        "nfc scl": "SCL",
    }
    if u.use in names:
        return names[u.use]
    if u.owner == "buttons":
        return "GND: every button"
    if u.owner == "stepper":
        return "+ (5 V)" if u.use == "5V" else "− (GND)"
    return {"5V": "VCC 5 V", "3V3": "VCC 3.3 V", "GND": "GND"}[u.use]


def _wire_label(u: Use) -> str:
    if u.use in RAILS:
        return f"{_rail(u.use)} · {SHORT[u.owner or '']}"
    if u.use in FIXED:
        return f"NFC {SPECIAL[FIXED[u.use]]} · BCM {u.bcm}"
    if u.use == "led data":
        return f"LED data · BCM {u.bcm} ({SPECIAL[u.bcm or 0]})"
    return f"{u.label} · BCM {u.bcm}"


def _notes(device: str, pinmap: PinMap) -> list[str]:
    if device == "buttons":
        return ["momentary push buttons, pin to GND;", "a press reads low (internal pull-ups)"]
    if device == "leds":
        return [
            f'powered at 5 V; devices.leds = "{pinmap.led_bus}"',
            "its pins 1, 4, 5, 7, 9, 10, 12, 13 to GND",
        ]
    if device == "nfc":
        if pinmap.nfc_interface == "i2c":
            return ["interface switches: I2C (SEL0/I0 on)", 'devices.nfc_port = "/dev/i2c-1"']
        return ["interface switches: UART (HSU), both off", 'devices.nfc_port = "/dev/serial0"']
    if not pinmap.of("stepper"):
        return [
            "optional, not fitted: uncomment its",
            "lines in hardware/pinmap.toml, then",
            "redraw this diagram",
        ]
    return ["28BYJ-48 (5 V) on the ULN2003 board", "devices.tower_motor_pins: IN1 to IN4"]


@dataclass
class _Wire:
    use: Use
    side: int  #: the side of the header its pin is on
    dest: int  #: the side its device's box is on
    over: bool = True  #: a cross wire: over the header (else under it)
    track: int = 0  #: a cross wire: the y of its run across
    port_y: int = 0
    slot: int = 0  #: the x of its vertical beside the header
    outer: int = 0  #: a cross wire: the x of its vertical outside the boxes

    @property
    def crosses(self) -> bool:
        return self.side != self.dest


@dataclass
class _Box:
    device: str
    side: int
    wires: list[_Wire]
    notes: list[str]
    top: int = 0
    extra: int = 0  #: rows for ports of no header wire (the level shifter's output)

    @property
    def rows(self) -> int:
        return len(self.wires) + self.extra

    @property
    def height(self) -> int:
        ports = 44 + PITCH * (self.rows - 1) + 14 if self.rows else 36
        return ports + 16 * len(self.notes) + 4

    def out_y(self) -> int:
        """The y of the level shifter's output port, on the edge facing away from the header:
        level with its last port on the other edge, else on a row of its own."""
        inner = [w.port_y for w in self.wires if not w.crosses]
        return inner[-1] if inner else self.top + 44 + PITCH * len(self.wires)

    @property
    def bottom(self) -> int:
        return self.top + self.height

    @property
    def left(self) -> int:
        return BOX_X if self.side < 0 else WIDTH - BOX_X - BOX_W

    def edge(self, inner: bool) -> int:
        """The x of the box's edge facing the header (``inner``) or facing away from it."""
        return _mx(self.side, BOX_X + BOX_W if inner else BOX_X)

    def desired_top(self) -> int | None:
        """The top that puts most of its ports level with their pins."""
        level = sorted(
            _y(w.use.header) - 44 - PITCH * i for i, w in enumerate(self.wires) if not w.crosses
        )
        return level[(len(level) - 1) // 2] if level else None


def _layout(pinmap: PinMap) -> tuple[list[_Box], list[_Wire]]:
    boxes: list[_Box] = []
    for name in DEVICES:
        uses = pinmap.of(name)
        lean = sum(_side_of_pin(u.header) for u in uses)
        side = (1 if lean > 0 else -1) if lean else _SIDE[name]
        wires = [_Wire(u, _side_of_pin(u.header), side, over=_row(u.header) <= 10) for u in uses]
        # Ports from the top: wires arriving over the header, the box's own side's wires in the
        # order of their pins, then wires arriving from under the header.
        wires.sort(
            key=lambda w: (
                0 if w.crosses and w.over else 2 if w.crosses else 1,
                w.use.header if w.crosses else _y(w.use.header),
            )
        )
        boxes.append(
            _Box(
                name,
                side,
                wires,
                _notes(name, pinmap),
                extra=int(name == "leds" and bool(wires) and all(w.crosses for w in wires)),
            )
        )
    fitted = [b for b in boxes if b.wires]
    for b in boxes:
        if not b.wires:  # a device not fitted: on the side with more room
            load = {s: sum(x.height for x in fitted if x.side == s) for s in (-1, 1)}
            b.side = min((-1, 1), key=lambda s: (load[s], s != _SIDE[b.device]))
    for side in (-1, 1):
        mine = sorted(
            (b for b in fitted if b.side == side),
            key=lambda b: (
                b.desired_top()
                if b.desired_top() is not None
                else MIN_TOP
                if b.wires[0].over
                else 10_000,
                b.device,
            ),
        )
        tops = [max(MIN_TOP, b.desired_top() or MIN_TOP) for b in mine]
        for i in reversed(range(len(mine) - 1)):  # move boxes up rather than down...
            tops[i] = min(tops[i], tops[i + 1] - GAP - mine[i].height)
        for i, box in enumerate(mine):  # ... but never above the top, nor onto each other
            floor = MIN_TOP if i == 0 else mine[i - 1].bottom + GAP
            box.top = max(tops[i], floor)
            for k, w in enumerate(box.wires):
                w.port_y = box.top + 44 + PITCH * k
        below = max((b.bottom for b in mine), default=MIN_TOP - GAP) + GAP
        for box in (b for b in boxes if not b.wires and b.side == side):
            box.top, below = below, below + box.height + GAP
    wires = [w for b in boxes for w in b.wires]
    cross = sorted((w for w in wires if w.crosses), key=lambda w: (w.side, w.use.header))
    over = [w for w in cross if w.over]
    under = [w for w in cross if not w.over]
    for k, w in enumerate(over):
        w.track = TOP - 44 - 9 * k
    lowest = max([b.bottom for b in boxes] + [_y(40) + 30])
    for k, w in enumerate(under):
        w.track = lowest + 24 + 9 * k
    for side in (-1, 1):
        # Beside the header: wires going up nearest to it, the topmost first; wires going down
        # further out, the topmost furthest. So no two wires of one box cross.
        mine = [w for w in wires if w.side == side]
        end = {id(w): w.track if w.crosses else w.port_y for w in mine}
        up = sorted(
            (w for w in mine if end[id(w)] < _y(w.use.header)), key=lambda w: _y(w.use.header)
        )
        down = sorted(
            (w for w in mine if end[id(w)] > _y(w.use.header)), key=lambda w: -_y(w.use.header)
        )
        step = max(5, min(9, 80 // max(1, len(up) + len(down))))
        for k, w in enumerate(up + down):
            w.slot = _mx(side, 452 - step * k)
        # Outside the boxes: the cross wires arriving on this side.
        arriving = [w for w in cross if w.dest == side]
        ordered = sorted((w for w in arriving if w.over), key=lambda w: w.port_y) + sorted(
            (w for w in arriving if not w.over), key=lambda w: -w.port_y
        )
        for k, w in enumerate(ordered):
            w.outer = _mx(side, 56 - 8 * k)
    return boxes, wires


class _Svg:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text)

    def text(
        self,
        x: int,
        y: int,
        s: str,
        *,
        size: int = 12,
        anchor: str = "start",
        bold: bool = False,
        fill: str = "#222222",
    ) -> None:
        weight = ' font-weight="bold"' if bold else ""
        self.add(
            f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}"{weight} '
            f'fill="{fill}">{escape(s)}</text>'
        )

    def line(
        self,
        points: Sequence[tuple[int, int]],
        colour: str,
        width: int = 3,
        dash: str | None = None,
        halo: bool = False,
    ) -> None:
        path = " ".join(f"{x},{y}" for x, y in points)
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        if halo:  # a white edge, so that a crossing reads clearly
            self.add(
                f'<polyline points="{path}" fill="none" stroke="#ffffff" '
                f'stroke-width="{width + 4}" stroke-linejoin="round"/>'
            )
        self.add(
            f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="{width}" '
            f'stroke-linejoin="round" stroke-linecap="round"{extra}/>'
        )

    def rect(
        self,
        x: int,
        y: int,
        w: int,
        h: int,
        *,
        stroke: str,
        fill: str = "#ffffff",
        rx: int = 8,
        dash: str | None = None,
        width: int = 2,
    ) -> None:
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(
            f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{rx}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{width}"{extra}/>'
        )

    def card(
        self,
        x: int,
        y: int,
        title: str,
        lines: Sequence[str],
        colour: str,
        height: int | None = None,
        dash: str | None = None,
    ) -> int:
        """A box with a title and lines of text; returns its height."""
        height = height or 40 + 17 * len(lines)
        self.rect(x, y, BOX_W, height, stroke=colour, fill=_tint(colour), dash=dash)
        self.text(x + 12, y + 22, title, size=14, bold=True, fill=colour)
        for i, line in enumerate(lines):
            self.text(x + 12, y + 42 + 17 * i, line, size=11, fill="#333333")
        return height


def render_svg(pinmap: PinMap) -> str:
    """The wiring diagram of ``pinmap`` as an SVG document; the same map gives the same bytes."""
    boxes, wires = _layout(pinmap)
    by_device = {b.device: b for b in boxes}
    leds = by_device["leds"] if pinmap.led_bus else None
    band = (
        max([b.bottom for b in boxes] + [w.track for w in wires if w.crosses] + [_y(40) + 30]) + 40
    )
    strips = [
        f"  {i}. "
        + {
            "table": "table strip: 7 pixels per seat",
            "score": "score strip: 8 pixels",
            "tower": "tower ring: devices.tower_pixels",
        }[s]
        for i, s in enumerate(pinmap.led_chain, start=1)
    ]
    strip_lines = [
        "DIN ← 330 Ω ← 1Y (pin 3) of the 74AHCT125",
        *strips,
        "5 V and GND from the LED supply (5 V, 6 A),",
        "1000 µF across it at the first strip;",
        "its GND joined to the Pi's GND",
    ]
    band_h = 40 + 17 * len(strip_lines)
    legend_y = band + band_h + 44
    height = legend_y + 130

    svg = _Svg()
    svg.add(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT}">'
    )
    svg.add(f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#ffffff"/>')
    svg.text(
        WIDTH // 2,
        38,
        "The table's wiring to the Raspberry Pi",
        size=22,
        anchor="middle",
        bold=True,
    )
    svg.text(
        WIDTH // 2,
        62,
        f"Drawn from hardware/pinmap.toml by {SVG_COMMAND}: change the file, not this drawing.",
        size=12,
        anchor="middle",
        fill="#555555",
    )
    svg.text(
        WIDTH // 2,
        80,
        "The 40-pin header seen from above with the Pi's USB ports facing "
        "down: pin 1 (square) at the top left, odd pins on the left.",
        size=12,
        anchor="middle",
        fill="#555555",
    )

    # The header's body, the wires from its pins, then the pins, each numbered (a pin not in use
    # shows its name).
    used = {u.header: u for u in pinmap.uses}
    svg.rect(X_PIN[1] - 22, TOP - 22, 74, PITCH * 19 + 44, stroke="#444444", fill="#2F2F2F", rx=4)

    # The wires, in the order of their pins.
    for w in sorted(wires, key=lambda w: w.use.header):
        u, side = w.use, w.side
        y0 = _y(u.header)
        box = by_device[u.owner or ""]
        points = [(X_PIN[u.header % 2], y0)]
        if not w.crosses and w.port_y == y0:
            points.append((box.edge(inner=True), y0))
        elif not w.crosses:
            points += [(w.slot, y0), (w.slot, w.port_y), (box.edge(inner=True), w.port_y)]
        else:
            points += [
                (w.slot, y0),
                (w.slot, w.track),
                (w.outer, w.track),
                (w.outer, w.port_y),
                (box.edge(inner=False), w.port_y),
            ]
        svg.line(points, _colour(u), halo=True)
        svg.text(
            _mx(side, 654),
            y0 - 6,
            _wire_label(u),
            size=11,
            anchor="end" if side < 0 else "start",
            bold=True,
            fill=_colour(u),
        )

    for pin in range(1, 41):
        x, y, side = X_PIN[pin % 2], _y(pin), _side_of_pin(pin)
        u = used.get(pin)
        fill = _colour(u) if u else GREY
        if pin == 1:
            svg.add(
                f'<rect x="{x - 10}" y="{y - 10}" width="20" height="20" rx="2" '
                f'fill="{fill}" stroke="#ffffff" stroke-width="1"/>'
            )
        else:
            svg.add(
                f'<circle cx="{x}" cy="{y}" r="10" fill="{fill}" stroke="#ffffff" '
                f'stroke-width="1"/>'
            )
        ink = "#000000" if fill in (COLOURS["3V3"], GREY) else "#ffffff"
        svg.text(x, y + 4, str(pin), size=10, anchor="middle", bold=True, fill=ink)
        if u is None:
            name = HEADER[pin]
            label = (
                _rail(name)
                if isinstance(name, str)
                else f"BCM {name}" + (f" {SPECIAL[name]}" if name in SPECIAL else "")
            )
            svg.text(
                _mx(side, 654),
                y + 4,
                label,
                size=11,
                anchor="end" if side < 0 else "start",
                fill="#8A8A8A",
            )

    # The device boxes.
    for box in boxes:
        colour = COLOURS[box.device]
        svg.rect(
            box.left,
            box.top,
            BOX_W,
            box.height,
            stroke=colour,
            fill=_tint(colour),
            dash=None if box.wires else "8 6",
        )
        svg.text(box.left + 12, box.top + 22, TITLES[box.device], size=14, bold=True, fill=colour)
        for w in box.wires:
            edge = box.edge(inner=not w.crosses)
            on_right = edge > box.left + BOX_W // 2
            svg.add(f'<circle cx="{edge}" cy="{w.port_y}" r="4" fill="{_colour(w.use)}"/>')
            svg.text(
                edge - 10 if on_right else edge + 10,
                w.port_y + 4,
                _port_name(w.use),
                size=12,
                anchor="end" if on_right else "start",
            )
        y = box.top + 44 + PITCH * box.rows
        for line in box.notes:
            svg.text(box.left + 12, y, line, size=11, fill="#333333")
            y += 16

    # Below: the LED strips (fed by the level shifter), the Pi, the dice reader on USB.
    pi_x, pi_w = WIDTH // 2 - 140, 280
    svg.rect(pi_x, band, pi_w, 112, stroke="#555555", fill="#F2F2F2")
    svg.text(WIDTH // 2, band + 24, "Raspberry Pi 4 / Pi 5", size=14, anchor="middle", bold=True)
    for i, line in enumerate(
        [
            "USB-C: its own supply (Pi 5: 27 W,",
            "Pi 4: 15.3 W); the header's 5 V",
            "pins are fed from it",
            "USB-A: the dice reader",
        ]
    ):
        svg.text(WIDTH // 2, band + 46 + 17 * i, line, size=11, anchor="middle")
    svg.line([(WIDTH // 2, TOP + PITCH * 19 + 22), (WIDTH // 2, band)], "#555555", 2, dash="3 5")
    strip_side = leds.side if leds else -1  # the strips below their level shifter
    dice_x = WIDTH - BOX_X - BOX_W if strip_side < 0 else BOX_X  # the dice reader opposite
    if leds:
        svg.card(
            WIDTH - BOX_X - BOX_W if strip_side > 0 else BOX_X,
            band,
            "LED strips: one data chain",
            strip_lines,
            COLOURS["leds"],
        )
        # 1Y of the level shifter -> 330 ohm -> the first strip's DIN, outside the other boxes.
        out_y, edge, lane = leds.out_y(), leds.edge(inner=False), _mx(strip_side, 24)
        svg.add(f'<circle cx="{edge}" cy="{out_y}" r="4" fill="{COLOURS["leds"]}"/>')
        svg.text(
            edge + 10 if strip_side < 0 else edge - 10,
            out_y + 4,
            "1Y: to the strips",
            size=12,
            anchor="start" if strip_side < 0 else "end",
        )
        svg.line(
            [(edge, out_y), (lane, out_y), (lane, band + 38), (_mx(strip_side, BOX_X), band + 38)],
            COLOURS["leds"],
            halo=True,
        )
    svg.card(
        dice_x,
        band,
        "Dice reader: Raspberry Pi Pico",
        [
            "on USB: no header pins",
            'devices.dice_port = "/dev/serial/by-id/…"',
            "parts, wiring, firmware: firmware/README.md",
        ],
        COLOURS["usb"],
    )
    pi_end, dice_end = (pi_x + pi_w, dice_x) if dice_x > pi_x else (pi_x, dice_x + BOX_W)
    svg.line([(pi_end, band + 96), (dice_end, band + 96)], COLOURS["usb"], 6)
    svg.text(
        (pi_end + dice_end) // 2, band + 88, "USB cable", size=11, anchor="middle", fill="#555555"
    )

    # The legend.
    svg.text(BOX_X, legend_y, "Legend", size=14, bold=True)
    entries = [
        ("5V", "5 V"),
        ("3V3", "3.3 V"),
        ("GND", "ground (GND)"),
        ("buttons", "seat buttons"),
        ("leds", "LED data"),
        ("nfc", "NFC reader (PN532)"),
        ("stepper", "tower stepper"),
        ("usb", "USB"),
    ]
    for i, (key, text) in enumerate(entries):
        x, y = BOX_X + (i % 4) * 320, legend_y + 28 + (i // 4) * 26
        svg.line([(x, y - 4), (x + 40, y - 4)], COLOURS[key], 4)
        svg.text(x + 52, y, text, size=12)
    y = legend_y + 88
    svg.add(f'<circle cx="{BOX_X + 20}" cy="{y - 4}" r="9" fill="{GREY}"/>')
    svg.text(BOX_X + 52, y, "a pin not in use, its name beside it", size=12)
    svg.add(f'<rect x="{BOX_X + 331}" y="{y - 13}" width="18" height="18" rx="2" fill="{GREY}"/>')
    svg.text(BOX_X + 372, y, "pin 1", size=12)
    svg.line([(BOX_X + 640, y - 4), (BOX_X + 680, y - 4)], COLOURS["stepper"], 2, dash="8 6")
    svg.text(BOX_X + 692, y, "a dashed box: a device not fitted", size=12)
    svg.text(
        BOX_X,
        y + 28,
        "BCM n is the GPIO number the software uses; the number on a pin is "
        "its place on the header. A box's ports are named as on that board.",
        size=12,
        fill="#555555",
    )
    svg.add("</svg>")
    return "\n".join(svg.parts) + "\n"


# --------------------------------------------------------------------------------------------
# Command line


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion.pinmap",
        description="Check the table's pin map and print it, or draw its wiring diagram.",
    )
    parser.add_argument(
        "--pinmap", metavar="FILE", help=f"the pin map (default: ${ENV}, else hardware/pinmap.toml)"
    )
    parser.add_argument(
        "--svg", metavar="FILE", help="write the wiring diagram here ('-': standard output)"
    )
    args = parser.parse_args(argv)
    try:
        pinmap = load(args.pinmap)
    except PinMapError as exc:
        print(f"companion.pinmap: {exc}", file=sys.stderr)
        return 2
    if args.svg:
        drawing = render_svg(pinmap)
        if args.svg == "-":
            sys.stdout.write(drawing)
        else:
            Path(args.svg).write_text(drawing, encoding="utf-8")
            print(f"wrote {args.svg}")
        return 0
    print(pinmap.describe())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
