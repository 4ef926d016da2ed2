"""Configuration: defaults that run a complete simulated table, overridable by a TOML file.

Example ``companion.toml`` (every key optional)::

    [server]
    host = "0.0.0.0"
    port = 8080
    threads = 8                 # worker threads for requests (streams need none)
    host_pin = "2468"           # the host's PIN; without it one is made up and shown on the table

    [devices]
    mode = "simulated"          # or "real" on a Raspberry Pi
    seats = 5
    button_pins = [5, 6, 13, 19, 26]  # BCM pins, seat 1 first
    button_hold = 1.0           # seconds for a long press (undo)
    dice_port = "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6614c311b7e6f35-if00"
    dice_speed = 1.0            # simulated dice: 1 = as long as a real throw, 0 = instant
    brightness = 0.5
    seed = 2014                 # the simulated devices' random source
    tower_pixels = 16           # the tower's LED ring: a multiple of 8 (pixels per eighth = n / 8)
    tower_motor_pins = []       # optional stepper turning the tower: 4 BCM pins (ULN2003 IN1..IN4)
    tower_motor_steps = 4096    # the stepper's half-steps per full turn of the tower
    nfc_port = "/dev/serial0"   # the PN532's port: the UART; "/dev/i2c-1" on I2C; or a USB adapter
    nfc_readers = { seat1 = "/dev/ttyUSB0" }  # optional: a PN532 of its own at a seat, by USB
    led_chain = ["table", "score", "tower"]   # the strips on the LED data line, in wiring order

    [games.GAME]                # GAME: a game's id (``companion/games/<id>``)
    data_set = "my-data-set"    # the game's data set (docs/<game>-data.md); a relative path is
                                # relative to this file. Also: [games] GAME_data = "..."

The tower ring and motor are described in ``hardware/README.md``; the motor is off unless
``tower_motor_pins`` names its four pins.

The defaults of ``button_pins``, ``tower_motor_pins``, ``leds`` (the LED bus), ``nfc_port`` and
``led_chain`` are
not written here: they come from the table's pin map, ``hardware/pinmap.toml``
(:mod:`companion.pinmap`), read once at import, so that the software and the wiring cannot
disagree (the values above are the shipped map's). A file may still set them; ``Config.check``
refuses a pin that collides with another of the pin map's uses, naming both. A pin map that cannot
be wired is refused by ``check`` and ``load``, with its problem.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from . import pinmap as _pinmap
from .devices.nfc import reader_seat


class ConfigError(ValueError):
    """The configuration cannot be used; the message names the file, the key and the problem."""


#: The table's pin map, read once; None when it is refused (``PINMAP_PROBLEM`` says why).
PINMAP: _pinmap.PinMap | None
PINMAP_PROBLEM: str | None
try:
    PINMAP, PINMAP_PROBLEM = _pinmap.load(), None
except _pinmap.PinMapError as _exc:
    PINMAP, PINMAP_PROBLEM = None, f"the pin map is refused: {_exc}"
_PINS: dict[str, Any] = (
    PINMAP.config_defaults()
    if PINMAP is not None
    else {
        "button_pins": (),
        "tower_motor_pins": (),
        "leds": "none",
        "nfc_port": None,
        "led_chain": _pinmap.STRIPS,
    }
)
#: The ports on the Pi's header (its UART and I2C bus 1): the board reader's, never a seat's.
HEADER_PORTS = (*_pinmap.UART_PORTS, _pinmap.NFC_PORTS["i2c"])


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return Path(base) / "companion"


@dataclass(frozen=True)
class Config:
    data_dir: Path
    host: str = "0.0.0.0"
    port: int = 8080
    #: worker threads that run requests (the event streams are served without threads)
    threads: int = 8
    host_pin: str | None = None  #: the host's PIN (4-12 digits); None: one is made up and shown
    mode: str = "simulated"
    seats: int = 5
    button_pins: tuple[int, ...] = _PINS["button_pins"]  #: from the pin map
    button_hold: float = 1.0
    dice_port: str | None = None
    dice_speed: float = 1.0
    nfc: str = "pn532"  #: the real NFC reader: "pn532" (on ``nfc_port``) or "none"
    leds: str = _PINS["leds"]  #: real LEDs: "spi" (NeoPixel over SPI), "pwm", "pi5" or "none"
    led_max_brightness: float = 0.5  #: a hard ceiling on every channel, even the test pattern
    led_supply_amps: float = 2.0  #: what the 5 V supply can spare for the LEDs
    led_over_budget: str = "refuse"  #: or "cap": start anyway and dim the brightest frames
    led_pixel_order: str = "GRB"
    button_factory: str = "lgpio"  #: gpiozero's pin factory on a Pi: "lgpio" or "rpigpio"
    brightness: float = 0.5
    seed: int = 2014
    tower_pixels: int = 16
    tower_motor_pins: tuple[int, ...] = _PINS["tower_motor_pins"]  #: from the pin map
    tower_motor_steps: int = 4096
    nfc_port: str | None = _PINS["nfc_port"]  #: the PN532's port, from the pin map
    #: more PN532 readers, one at a seat each: ("seat1", port), ... (names seat1 to seat8)
    nfc_readers: tuple[tuple[str, str], ...] = ()
    led_chain: tuple[str, ...] = _PINS["led_chain"]  #: the strips in wiring order, from the pin map
    #: each game's data set folder, (game id, folder); a game not named plays its bundled set
    data_sets: tuple[tuple[str, str], ...] = ()

    @property
    def simulated(self) -> bool:
        return self.mode == "simulated"

    @property
    def database(self) -> Path:
        return self.data_dir / "companion.db"

    def check(self) -> Config:
        if PINMAP_PROBLEM:
            raise ConfigError(PINMAP_PROBLEM)
        if self.mode not in ("simulated", "real"):
            raise ConfigError(f'devices.mode must be "simulated" or "real", not {self.mode!r}')
        if not 2 <= self.seats <= 8:
            raise ConfigError(f"devices.seats must be 2 to 8, not {self.seats}")
        if len(self.button_pins) < self.seats:
            raise ConfigError(
                f"devices.button_pins lists {len(self.button_pins)} pins for {self.seats} seats"
            )
        if not 0.0 < self.brightness <= 1.0:
            raise ConfigError(
                f"devices.brightness must be above 0 and at most 1, not {self.brightness}"
            )
        if not 0.0 <= self.dice_speed <= 10.0:
            raise ConfigError(
                f"devices.dice_speed must be 0 (instant) to 10, not {self.dice_speed}"
            )
        if self.tower_pixels < 8 or self.tower_pixels % 8:
            raise ConfigError(
                f"devices.tower_pixels must be a multiple of 8 (the same number of "
                f"pixels for each of the 8 wedges), at least 8, not "
                f"{self.tower_pixels}"
            )
        self._check_tower_motor()
        self._check_leds()
        if self.nfc not in ("pn532", "none", "simulated"):
            raise ConfigError(
                f'devices.nfc must be "pn532" (a PN532 on devices.nfc_port) or '
                f'"none", not {self.nfc!r}'
            )
        self._check_readers()
        self._check_pins()
        if self.button_factory not in ("lgpio", "rpigpio"):
            raise ConfigError(
                f'devices.button_factory must be "lgpio" (every Pi, the Pi 5 '
                f'too) or "rpigpio" (Pi 3/4 on older systems), not '
                f"{self.button_factory!r}"
            )
        if not 0 <= self.port <= 65535:
            raise ConfigError(f"server.port must be 0 (any free port) to 65535, not {self.port}")
        if self.host_pin is not None and not (
            self.host_pin.isascii() and self.host_pin.isdigit() and 4 <= len(self.host_pin) <= 12
        ):
            raise ConfigError('server.host_pin must be 4 to 12 digits (as a string: "2468")')
        if not 2 <= self.threads <= 64:
            raise ConfigError(
                "server.threads must be 2 to 64 (worker threads for requests; the "
                "event streams need none)"
            )
        from .games import ids

        for game, _ in self.data_sets:
            if game not in ids():
                raise ConfigError(
                    f"games: no game called {game!r} has a data set (known games: "
                    f"{', '.join(ids())})"
                )
        return self

    def _check_leds(self) -> None:
        if self.leds not in ("spi", "pwm", "pi5", "none", "simulated"):
            raise ConfigError(
                f'devices.leds must be "spi" (NeoPixel over SPI, the default), '
                f'"pwm", "pi5" or "none", not {self.leds!r}'
            )
        if not 0.0 < self.led_max_brightness <= 1.0:
            raise ConfigError(
                f"devices.led_max_brightness must be above 0 and at most 1, not "
                f"{self.led_max_brightness}"
            )
        if self.led_supply_amps <= 0:
            raise ConfigError(
                f"devices.led_supply_amps must be above 0, not {self.led_supply_amps}"
            )
        if self.led_over_budget not in ("refuse", "cap"):
            raise ConfigError(
                f'devices.led_over_budget must be "refuse" or "cap", not {self.led_over_budget!r}'
            )
        strips = _pinmap.STRIPS
        if (
            not self.led_chain
            or len(set(self.led_chain)) != len(self.led_chain)
            or any(name not in strips for name in self.led_chain)
        ):
            raise ConfigError(
                f"devices.led_chain must list the strips on the LED data line in "
                f"wiring order, each once, from {', '.join(strips)}; not "
                f"{list(self.led_chain)}"
            )
        if sorted(self.led_pixel_order) != sorted("RGB") or len(self.led_pixel_order) != 3:
            raise ConfigError(
                f"devices.led_pixel_order must be an order of R, G and B such as "
                f"GRB, not {self.led_pixel_order!r}"
            )

    def _check_readers(self) -> None:
        names = [name for name, _ in self.nfc_readers]
        ports = [port for _, port in self.nfc_readers]
        for name in names:
            seat = reader_seat(name)
            if seat is None or seat >= self.seats:
                raise ConfigError(
                    f"devices.nfc_readers: a seat's reader is named seat1 to "
                    f"seat{self.seats} (one per seat of devices.seats), not "
                    f"{name!r}"
                )
        if self.nfc == "none" and names:
            raise ConfigError(
                'devices.nfc_readers needs devices.nfc = "pn532": "none" turns every reader off'
            )
        for name, port in self.nfc_readers:
            if not port:
                raise ConfigError(f"devices.nfc_readers: {name} has no port")
            if port in HEADER_PORTS:
                raise ConfigError(
                    f"devices.nfc_readers: {name} on {port}: the header's UART and "
                    f"I2C are the board reader's (devices.nfc_port); connect a "
                    f"seat's reader by USB, e.g. /dev/ttyUSB0"
                )
            if port == self.nfc_port or ports.count(port) > 1:
                other = (
                    "the board reader (devices.nfc_port)"
                    if port == self.nfc_port
                    else "another seat's reader"
                )
                raise ConfigError(f"devices.nfc_readers: {name} and {other} both use {port}")

    def _check_tower_motor(self) -> None:
        pins = self.tower_motor_pins
        if pins and len(pins) != 4:
            raise ConfigError(
                f"devices.tower_motor_pins must list 4 BCM pins (ULN2003 IN1 to "
                f"IN4), or none for no tower motor, not {len(pins)}"
            )
        if len(set(pins)) != len(pins):
            raise ConfigError(f"devices.tower_motor_pins lists a pin twice: {list(pins)}")
        bad = [p for p in pins if not 0 <= p <= 27]
        if bad:
            raise ConfigError(
                f"devices.tower_motor_pins must be BCM GPIO pins 0 to 27, not {bad[0]}"
            )
        clash = sorted(set(pins) & set(self.button_pins[: self.seats]))
        if clash:
            raise ConfigError(
                f"devices.tower_motor_pins and devices.button_pins both use pin "
                f"{', '.join(map(str, clash))}"
            )
        if self.tower_motor_steps <= 0 or self.tower_motor_steps % 8:
            raise ConfigError(
                f"devices.tower_motor_steps must be a positive multiple of 8 (the "
                f"tower turns in 8 equal steps), not {self.tower_motor_steps}"
            )

    def _check_pins(self) -> None:
        """This configuration's pins against the pin map's other uses (the LEDs' and the NFC
        reader's unless they are "none")."""
        if PINMAP is None:
            return
        try:
            PINMAP.with_config(
                button_pins=self.button_pins[: self.seats],
                tower_motor_pins=self.tower_motor_pins,
                leds=(
                    None
                    if self.leds == "none"
                    else _pinmap.AS_MAPPED
                    if self.leds == "simulated"
                    else self.leds
                ),
                nfc_port=None if self.nfc == "none" else self.nfc_port,
            )
        except _pinmap.PinMapError as exc:
            changed = [f"devices.{k}" for k, v in _PINS.items() if getattr(self, k) != v]
            keys = [exc.key] if exc.key else [u.config for u in exc.uses if u.config]
            key = next((k for k in keys if k in changed), keys[0] if keys else "devices")
            where = " (see the pin map, hardware/pinmap.toml)" if exc.uses else ""
            raise ConfigError(f"{key}: {exc.problem}{where}") from None


_KEYS = {
    "server": {"host": str, "port": int, "threads": int, "host_pin": str},
    "devices": {
        "mode": str,
        "seats": int,
        "button_pins": list,
        "button_hold": float,
        "dice_port": str,
        "dice_speed": float,
        "nfc": str,
        "leds": str,
        "led_max_brightness": float,
        "led_supply_amps": float,
        "led_over_budget": str,
        "led_pixel_order": str,
        "button_factory": str,
        "brightness": float,
        "seed": int,
        "tower_pixels": int,
        "tower_motor_pins": list,
        "tower_motor_steps": int,
        "nfc_port": str,
        "nfc_readers": dict,
        "led_chain": list,
    },
}
DATA_SET = "data_set"  #: [games.<id>] data_set = "DIR"
LEGACY_DATA_SET = "_data"  #: [games] <id>_data = "DIR", as before games had sections of their own


def _typed(path: Path, section: str, key: str, value: Any) -> Any:
    """A list or table of the file as the configuration keeps it (tuples, of the right type)."""
    if key == "led_chain":
        if not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{path}: [{section}] {key} must be a list of strip names")
        return tuple(value)
    if key == "nfc_readers":
        if not all(isinstance(v, str) for v in value.values()):
            raise ConfigError(
                f"{path}: [{section}] {key} must map each seat to a port, e.g. "
                f'{{ seat1 = "/dev/ttyUSB0" }}'
            )
        return tuple(sorted(value.items(), key=lambda kv: (reader_seat(kv[0]) or 0, kv[0])))
    if isinstance(value, list):
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise ConfigError(f"{path}: [{section}] {key} must be a list of integers")
        return tuple(value)
    return value


def _data_sets(path: Path, games: dict[str, Any]) -> dict[str, str]:
    """The ``[games]`` section: ``[games.<id>] data_set = "DIR"`` (or, as before, ``[games]
    <id>_data = "DIR"``); each folder relative to the file."""
    from .games import ids

    found: dict[str, str] = {}
    for key, value in games.items():
        if isinstance(value, dict):
            game, unknown = key, sorted(set(value) - {DATA_SET})
            if unknown:
                raise ConfigError(f"{path}: [games.{key}] has no key {unknown[0]!r}")
            value, where = value.get(DATA_SET), f"[games.{key}] {DATA_SET}"
            if value is None:
                continue
        elif key.endswith(LEGACY_DATA_SET):
            game, where = key[: -len(LEGACY_DATA_SET)], f"[games] {key}"
        else:
            raise ConfigError(
                f"{path}: [games] has no key {key!r} (a game's data set is "
                f'[games.<game>] {DATA_SET} = "DIR")'
            )
        if game not in ids():
            raise ConfigError(
                f"{path}: [games] no game called {game!r} (known games: {', '.join(ids())})"
            )
        if not isinstance(value, str):
            raise ConfigError(f"{path}: {where} must be a str")
        found[game] = str(Path(path).parent / Path(value).expanduser())
    return found


def load(path: Path | None, data_dir: Path | None = None, **overrides: Any) -> Config:
    """The configuration from ``path`` (if given), then ``overrides`` (from the command line)."""
    if PINMAP_PROBLEM:  # the defaults themselves cannot be had: not the file's fault
        raise ConfigError(PINMAP_PROBLEM)
    config = Config(data_dir=Path(data_dir) if data_dir else default_data_dir())
    values: dict[str, Any] = {}
    if path is not None:
        try:
            with open(path, "rb") as f:
                raw = tomllib.load(f)
        except OSError as exc:
            raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: not valid TOML: {exc}") from None
        data_sets: dict[str, str] = {}
        for section, body in raw.items():
            if section == "games" and isinstance(body, dict):
                data_sets.update(_data_sets(path, body))
                continue
            if section not in _KEYS or not isinstance(body, dict):
                raise ConfigError(f"{path}: unknown section [{section}]")
            for key, value in body.items():
                kind = _KEYS[section].get(key)
                if kind is None:
                    raise ConfigError(f"{path}: [{section}] has no key {key!r}")
                if kind is float and isinstance(value, int) and not isinstance(value, bool):
                    value = float(value)
                if not isinstance(value, kind) or isinstance(value, bool):
                    raise ConfigError(f"{path}: [{section}] {key} must be a {kind.__name__}")
                values[key] = _typed(path, section, key, value)
        if data_sets:
            values["data_sets"] = tuple(sorted(data_sets.items()))
        try:  # the file's own values must make a usable configuration
            replace(config, **values).check()
        except ConfigError as exc:
            raise ConfigError(f"{path}: {exc}") from None
    values.update({k: v for k, v in overrides.items() if v is not None})
    known = {f.name for f in fields(Config)}
    unknown = set(values) - known
    if unknown:
        raise ConfigError(f"unknown settings: {', '.join(sorted(unknown))}")
    return replace(config, **values).check()
