"""The errors of a device that cannot be opened or is set up wrongly.

Every one is a :class:`DeviceSetupError`, whose message says which device and how to fix it: the
companion refuses to start with it (``companion.cli``) and the doctor reports it. They live here,
below every driver, so that the factory (which opens the drivers) and the drivers (which raise
them) import them without importing each other.
"""

from __future__ import annotations


class DeviceSetupError(RuntimeError):
    """A configured device cannot be opened; the message says which and how to fix it."""


class NeoPixelSetupError(DeviceSetupError):
    """A NeoPixel strip cannot be opened or is set up wrongly: the message says how to fix it."""


class PowerBudgetError(NeoPixelSetupError, ValueError):
    """The configured pixels could draw more current than the supply's budget."""
