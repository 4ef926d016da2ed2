"""The table's pin map: which Raspberry Pi header pin goes to which device, in one file.

``hardware/pinmap.toml`` lists every wire on the Pi's 40-pin header: its physical pin, its BCM
number, its use (a seat button, the LED data line, the PN532's UART or I2C lines, a tower stepper
input, or 5 V, 3.3 V or ground for a device) and the configuration key it feeds. This module loads
and checks it, gives :mod:`companion.config` its defaults (``button_pins``, ``tower_motor_pins``,
``leds``: the LED bus, ``nfc_port``), checks a configuration's own pins against the map's other
uses, and draws the wiring diagram ``hardware/wiring.svg``::

    python -m companion.pinmap                              # check the map, print its pins
    python -m companion.pinmap --svg hardware/wiring.svg    # redraw the diagram

The model of a map (the header, the devices, :class:`PinMap`) is :mod:`companion.pinmap_model`;
the diagram is drawn by :mod:`companion.pinmap_svg` (laid out by :mod:`companion.pinmap_layout`).
Every public name of those is importable from here.

A map that cannot be wired is refused with a :class:`PinMapError` naming both uses, e.g.
``BCM 13 is used twice: seat 3 button and tower stepper IN2``.

Only the standard library: the configuration imports this module, with or without hardware.
"""

from __future__ import annotations

import argparse
import os
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path

from .pinmap_model import (
    AS_MAPPED,
    BCM_HEADER,
    DEVICES,
    FIXED,
    HEADER,
    ID_EEPROM_PINS,
    LED_BUS_NAMES,
    LED_BUS_PIN,
    LED_DATA,
    MAX_SEATS,
    NFC_PORTS,
    RAILS,
    SIGNALS,
    SPECIAL,
    SPI0_PINS,
    STEPPER_INPUTS,
    STRIPS,
    UART_PORTS,
    Device,
    PinMap,
    PinMapError,
    Use,
    check_conflicts,
    nfc_interface_of,
    rail_name,
)
from .pinmap_svg import SVG_COMMAND, render_svg

__all__ = [
    "AS_MAPPED",
    "BCM_HEADER",
    "DEVICES",
    "ENV",
    "FIXED",
    "HEADER",
    "ID_EEPROM_PINS",
    "LED_BUS_NAMES",
    "LED_BUS_PIN",
    "LED_DATA",
    "MAX_SEATS",
    "NFC_PORTS",
    "RAILS",
    "SIGNALS",
    "SPECIAL",
    "SPI0_PINS",
    "STEPPER_INPUTS",
    "STRIPS",
    "SVG_COMMAND",
    "UART_PORTS",
    "Device",
    "PinMap",
    "PinMapError",
    "Use",
    "default_path",
    "load",
    "main",
    "nfc_interface_of",
    "parse",
    "render_svg",
]

#: The environment variable naming another pin map file (the default: ``hardware/pinmap.toml``).
ENV = "COMPANION_PINMAP"
_ENTRY_KEYS = ("header", "bcm", "use", "seat", "input", "device", "config")


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
    check_conflicts(uses)
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
                f"{' or '.join(rail_name(r) for r in DEVICES[device].rails)} from the "
                f"header, not {rail_name(use)}"
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
