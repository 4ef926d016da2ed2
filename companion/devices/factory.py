"""Open the table's devices as the configuration says: simulated by default, real on a Pi.

Hardware libraries are imported only here, inside the branch that needs them, and only by the real
drivers' own modules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import DeviceSetupError
from .events import Emit
from .leds import LedStrip, SimStrip
from .nfc import NfcReader, SimNfcReader

#: DeviceSetupError (``errors.py``) is re-exported: the command line and the doctor import it here
__all__ = [
    "PIN_FACTORY_EXTRAS",
    "DeviceSetupError",
    "Devices",
    "open_devices",
    "pin_factory",
    "pin_factory_class",
]


@dataclass
class Devices:
    nfc: dict[str, NfcReader] = field(default_factory=dict)
    buttons: Any = None  #: SeatButtons
    dice: Any = None  #: a DiceReader
    sim_dice: Any = None  #: the SimulatedDiceReader behind ``dice`` in simulation
    strips: dict[str, LedStrip] = field(default_factory=dict)
    tower_motor: Any = None  #: a TowerMotor, only when ``tower_motor_pins`` are configured
    simulated: bool = True

    def close(self) -> None:
        for closable in (
            self.dice,
            self.sim_dice,
            self.buttons,
            self.tower_motor,
            *self.nfc.values(),
            *self.strips.values(),
        ):
            if closable is not None:
                try:
                    closable.close()
                except Exception:  # closing must go on for the others
                    pass


def open_devices(
    config: Any, emit: Emit, strip_lengths: dict[str, int], on_frame: Any = None
) -> Devices:
    """Every device of ``config`` (a :class:`companion.config.Config`), feeding ``emit``."""
    devices = Devices(simulated=config.simulated)
    try:
        if config.simulated:
            from .buttons import simulated_buttons
            from .dice_sim import start_simulated_dice

            devices.nfc["board"] = SimNfcReader("board", emit)
            for name, _port in config.nfc_readers:  # the seats' own readers, simulated too
                devices.nfc[name] = SimNfcReader(name, emit)
            devices.buttons = simulated_buttons(config.seats, emit, hold_time=config.button_hold)
            devices.sim_dice, devices.dice = start_simulated_dice(
                emit, seed=config.seed, speed=config.dice_speed, folder=config.data_dir / "sim"
            )
            devices.strips = {
                name: SimStrip(name, n, on_frame=on_frame) for name, n in strip_lengths.items()
            }
            if config.tower_motor_pins:  # the stepper turning the tower: on mock pins
                from .tower_motor import simulated_tower_motor

                devices.tower_motor = simulated_tower_motor(
                    config.tower_motor_pins, steps_per_turn=config.tower_motor_steps
                )
            return devices
        from .buttons import SeatButtons
        from .dice import SerialDiceReader

        devices.buttons = SeatButtons(
            list(config.button_pins[: config.seats]),
            emit,
            hold_time=config.button_hold,
            pin_factory=pin_factory(config.button_factory),
        )
        if config.dice_port:
            devices.dice = SerialDiceReader(config.dice_port, emit)
        if config.tower_motor_pins:
            from .tower_motor import TowerMotor

            devices.tower_motor = TowerMotor(
                list(config.tower_motor_pins), steps_per_turn=config.tower_motor_steps
            )
        if config.nfc not in ("none", "simulated"):
            from .nfc_pn532 import Pn532Reader

            if config.nfc_port:
                devices.nfc["board"] = Pn532Reader("board", emit, port=config.nfc_port)
            for name, port in config.nfc_readers:  # a seat's own reader (by USB)
                devices.nfc[name] = Pn532Reader(name, emit, port=port)
        if config.leds not in ("none", "simulated"):
            from .leds_neopixel import open_neopixel_strips

            devices.strips = open_neopixel_strips(
                config.leds,
                strip_lengths,
                chains=[config.led_chain],
                max_brightness=config.led_max_brightness,
                supply_amps=config.led_supply_amps,
                over_budget=config.led_over_budget,
                pixel_order=config.led_pixel_order,
            )
        return devices
    except BaseException:
        devices.close()
        raise


#: gpiozero's pin factories by name, and the extra that installs each one's library
PIN_FACTORY_EXTRAS = {"lgpio": "pi", "rpigpio": "rpigpio"}


def pin_factory_class(name: str) -> type:
    """The class of the pin factory called ``name``; ``ImportError`` when its library is
    missing: ``lgpio`` works on every model (the Pi 5 too); ``rpigpio`` (the extra of its own,
    ``companion[rpigpio]``) suits a Pi 3 or 4 on an older system."""
    if name == "rpigpio":
        from gpiozero.pins.rpigpio import RPiGPIOFactory

        return RPiGPIOFactory
    from gpiozero.pins.lgpio import LGPIOFactory

    return LGPIOFactory


def pin_factory(name: str) -> Any:
    """gpiozero's pin factory for the seat buttons on a Pi, chosen by name, never a silent
    fallback."""
    try:
        return pin_factory_class(name)()
    except Exception as exc:  # the library is missing, or this is not a Pi
        raise DeviceSetupError(
            f"seat buttons: gpiozero's {name} pin factory cannot start ({exc}); on a Pi install "
            f"the extra (pip install 'companion[{PIN_FACTORY_EXTRAS[name]}]'), or run with "
            f"simulated devices"
        ) from exc
