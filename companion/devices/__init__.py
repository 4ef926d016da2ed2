"""The device layer: everything the companion senses or lights.

Devices know nothing about games.  Each input device is given an ``emit``
callable and calls it from its own thread with a small immutable event
(``events``): ``TagTapped`` from an NFC reader, ``ButtonPressed`` from the
seat buttons, ``DieRolled`` and ``DieState`` from the dice reader, plus ``DeviceStatus`` and
``DeviceNoise``, which are shown and logged but are never game actions.  The
table passes ``queue.put``, so all devices feed one queue.  LED strips take
whole frames through ``LedStrip.show``.

Simulated devices are the default, and nothing that needs a Raspberry Pi is
imported when this package is: ``SimNfcReader``; ``simulated_buttons`` (gpiozero's
``MockFactory``, imported when buttons are made); the dice reader simulator,
a separate process speaking the dice protocol (``dice_protocol``,
``docs/dice-protocol.md``) over a pty to the real host driver
``SerialDiceReader``; and ``SimStrip``, which records frames.

The simulator's names are loaded on first use, so that running
``python -m companion.devices.dice_sim`` does not import that module twice.
"""

from __future__ import annotations

from typing import Any

from .buttons import SeatButtons, simulated_buttons
from .dice import DiceReader, SerialDiceReader
from .dice_protocol import (
    LineSplitter,
    Message,
    ProtocolError,
    SequenceTracker,
    checksum,
    encode,
    parse_line,
)
from .events import (
    ButtonPressed,
    DeviceEvent,
    DeviceNoise,
    DeviceStatus,
    DieRolled,
    DieState,
    Emit,
    TagTapped,
    normalise_uid,
)
from .leds import Frame, LedStrip, Pixel, SimStrip
from .nfc import NfcReader, SimNfcReader

_SIMULATOR_NAMES = ("SimulatedDiceReader", "start_simulated_dice")

__all__ = [
    "ButtonPressed",
    "DeviceEvent",
    "DeviceNoise",
    "DeviceStatus",
    "DiceReader",
    "DieRolled",
    "DieState",
    "Emit",
    "Frame",
    "LedStrip",
    "LineSplitter",
    "Message",
    "NfcReader",
    "Pixel",
    "ProtocolError",
    "SeatButtons",
    "SequenceTracker",
    "SerialDiceReader",
    "SimNfcReader",
    "SimStrip",
    "SimulatedDiceReader",
    "TagTapped",
    "checksum",
    "encode",
    "normalise_uid",
    "parse_line",
    "simulated_buttons",
    "start_simulated_dice",
]


def __getattr__(name: str) -> Any:
    """Load the dice simulator's names on first use (PEP 562)."""
    if name in _SIMULATOR_NAMES:
        from . import dice_sim

        return getattr(dice_sim, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
