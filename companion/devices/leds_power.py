"""The NeoPixel strips' brightness limit and power budget (:mod:`.leds_neopixel` applies them).

**Brightness limit.** ``max_brightness`` (0..1) scales every channel of every frame, on top of the
renderer's own ``brightness``: it is the hardware's ceiling, whatever is drawn (the doctor's white
test pattern too). It is quantised to 1/255 steps: channel ``c`` becomes
``round(c * level / 255)`` with ``level = round(max_brightness * 255)``.

**Power budget.** The estimate: 20 mA per colour channel at 255, linear in the value, so 60 mA per
pixel at full white (Adafruit's rule of thumb for a 5 V WS2812B; measured pixels draw somewhat
less, which also covers the ~1 mA each pixel draws when dark). At start
(:func:`check_power_budget`), the worst case, every configured pixel full white at
``max_brightness``, must not exceed the supply's budget (``supply_amps``: what the 5 V supply can
spare for the LEDs); otherwise :class:`PowerBudgetError` says by how much and how to fix it, unless
the budget is told to cap instead. Every frame is capped too (:class:`PowerBudget`): when its
estimate, with the last frames of the other chains on the same supply, exceeds the budget, its
channels are scaled down (rounded down) to fit.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Sequence

from .errors import NeoPixelSetupError, PowerBudgetError
from .leds import LedStrip, Pixel

AMPS_PER_CHANNEL = 0.020  #: one colour channel at 255
AMPS_PER_PIXEL = 3 * AMPS_PER_CHANNEL  #: a pixel at full white: 60 mA
UNITS_PER_AMP = 255 / AMPS_PER_CHANNEL  #: channel-value units (0..255 per channel) per ampere
EPSILON = 1e-9  #: amperes: a worst case equal to the budget fits it


def brightness_level(max_brightness: float) -> int:
    """``max_brightness`` (above 0, at most 1) as the integer level 1..255 that scales channels."""
    if (
        isinstance(max_brightness, bool)
        or not isinstance(max_brightness, (int, float))
        or not 0.0 < max_brightness <= 1.0
    ):
        raise NeoPixelSetupError(
            f"LED max brightness must be above 0 and at most 1, not {max_brightness!r}"
        )
    return max(1, round(max_brightness * 255))


def limit_brightness(pixels: Iterable[Pixel], level: int) -> tuple[Pixel, ...]:
    """Every channel scaled by ``level / 255``, rounded half up."""
    if level >= 255:
        return tuple(pixels)
    return tuple(
        ((r * level + 127) // 255, (g * level + 127) // 255, (b * level + 127) // 255)
        for r, g, b in pixels
    )


def frame_units(pixels: Iterable[Pixel]) -> int:
    """The sum of every channel of ``pixels``: the frame's current in channel-value units."""
    return sum(r + g + b for r, g, b in pixels)


def frame_amps(pixels: Iterable[Pixel]) -> float:
    """The estimated current of a frame: 20 mA per channel at 255, linear."""
    return frame_units(pixels) / UNITS_PER_AMP


def budget_units(supply_amps: float) -> int:
    """The most channel-value units that ``supply_amps`` allows (rounded down)."""
    return math.floor(supply_amps * UNITS_PER_AMP + 1e-6)  # 0.3 A is 3825, not 3824.99...


def cap_frame(pixels: Sequence[Pixel], units: int) -> tuple[Pixel, ...]:
    """``pixels`` scaled down (each channel rounded down) so that their units are at most
    ``units``; unchanged when they already are."""
    total = frame_units(pixels)
    if total <= units:
        return tuple(pixels)
    allowed = max(0, units)
    return tuple(
        (r * allowed // total, g * allowed // total, b * allowed // total) for r, g, b in pixels
    )


def worst_case_amps(pixels: int, max_brightness: float) -> float:
    """Every one of ``pixels`` at full white, limited to ``max_brightness``."""
    return pixels * AMPS_PER_PIXEL * brightness_level(max_brightness) / 255


def _fitting_brightness(pixels: int, supply_amps: float) -> float:
    """The largest max brightness in steps of 0.01 whose worst case fits ``supply_amps``."""
    hundredths = min(100, math.floor(100 * supply_amps / (pixels * AMPS_PER_PIXEL)))
    while hundredths > 0 and worst_case_amps(pixels, hundredths / 100) > supply_amps + EPSILON:
        hundredths -= 1
    return hundredths / 100


def check_power_budget(pixels: int, max_brightness: float, supply_amps: float) -> float:
    """The worst-case current of ``pixels`` at ``max_brightness``; raises
    :class:`PowerBudgetError` when it exceeds ``supply_amps``."""
    if (
        isinstance(supply_amps, bool)
        or not isinstance(supply_amps, (int, float))
        or not supply_amps > 0
    ):
        raise PowerBudgetError(
            f"the LED supply's budget must be a positive number of amperes, not {supply_amps!r}"
        )
    worst = worst_case_amps(pixels, max_brightness)
    if worst > supply_amps + EPSILON:
        fits = _fitting_brightness(pixels, supply_amps)
        lower = (
            f"lower devices.led_max_brightness to {fits:.2f} or less"
            if fits > 0
            else "the supply cannot light even one step of brightness"
        )
        raise PowerBudgetError(
            f"LED power budget exceeded: {pixels} pixels at full white and max brightness "
            f"{max_brightness:.2f} draw up to {worst:.2f} A ({AMPS_PER_PIXEL * 1000:.0f} mA per "
            f"pixel at full white), more than the supply's {supply_amps:.2f} A "
            f"(devices.led_supply_amps). Either {lower}, use a supply that spares at least "
            f"{math.ceil(worst * 10) / 10:.1f} A for the LEDs and set devices.led_supply_amps, or "
            f'set devices.led_over_budget = "cap" to dim the brightest frames to '
            f"{supply_amps:.2f} A"
        )
    return worst


class PowerBudget:
    """The LED supply's current, shared by every physical strip it feeds; thread-safe.

    ``register`` checks the worst case of every registered strip at start (unless ``refuse`` is
    False); ``cap`` scales a frame down so that it and the other strips' last frames stay within
    ``supply_amps``.
    """

    def __init__(self, supply_amps: float, *, refuse: bool = True) -> None:
        if (
            isinstance(supply_amps, bool)
            or not isinstance(supply_amps, (int, float))
            or not supply_amps > 0
        ):
            raise PowerBudgetError(
                f"the LED supply's budget must be a positive number of amperes, not {supply_amps!r}"
            )
        self.supply_amps = float(supply_amps)
        self.refuse = refuse
        self.units = budget_units(supply_amps)
        self._lock = threading.Lock()
        self._strips: dict[int, tuple[int, float]] = {}  # id -> (pixels, max brightness)
        self._drawn: dict[int, int] = {}  # id -> units of its last frame
        self.capped = 0  #: how many frames were dimmed to fit

    def register(self, strip: LedStrip, max_brightness: float) -> None:
        with self._lock:
            strips = {**self._strips, id(strip): (strip.length, max_brightness)}
            if self.refuse:
                worst = sum(worst_case_amps(n, b) for n, b in strips.values())
                if worst > self.supply_amps + EPSILON:
                    pixels = sum(n for n, _ in strips.values())
                    brightest = max(b for _, b in strips.values())
                    check_power_budget(pixels, brightest, self.supply_amps)
            self._strips = strips

    def forget(self, strip: LedStrip) -> None:
        with self._lock:
            self._strips.pop(id(strip), None)
            self._drawn.pop(id(strip), None)

    def cap(self, strip: LedStrip, pixels: Sequence[Pixel]) -> tuple[Pixel, ...]:
        with self._lock:
            others = sum(u for key, u in self._drawn.items() if key != id(strip))
            frame = tuple(pixels)
            if frame_units(frame) > self.units - others:
                frame = cap_frame(frame, self.units - others)
                self.capped += 1
            self._drawn[id(strip)] = frame_units(frame)
            return frame

    @property
    def drawn_amps(self) -> float:
        """The estimated current of every strip's last frame."""
        with self._lock:
            return sum(self._drawn.values()) / UNITS_PER_AMP
