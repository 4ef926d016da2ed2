"""What a pin map is (:mod:`companion.pinmap` reads one from ``hardware/pinmap.toml``): the
Raspberry Pi's 40-pin header, the devices wired to it, one wire (:class:`Use`), a checked map
(:class:`PinMap`: the configuration's defaults, a configuration's own pins put in) and the
conflicts no map may have (a pin used twice, a pin a bus takes).

Only the standard library: the configuration imports it, with or without hardware.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

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
        return f"{rail_name(self.use)} for the {device}"


def rail_name(rail: str) -> str:
    """A power rail as a label writes it: ``5 V``, ``3.3 V``, ``GND``."""
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
        check_conflicts(uses)
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
# Conflicts


def _twice(what: str, a: Use, b: Use) -> PinMapError:
    return PinMapError(f"{what} is used twice: {a.label} and {b.label}", uses=[a, b])


def check_conflicts(uses: Iterable[Use]) -> None:
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
                else f"header pin {u.header} ({rail_name(str(HEADER[u.header]))})"
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
