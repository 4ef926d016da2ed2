"""Seat buttons: one push button per seat, read through gpiozero.

Each button is wired between a GPIO pin and ground and uses the pin's pull-up,
so a pressed button drives the pin low.  A short press is reported when the
button is released; a press held for ``hold_time`` seconds is reported once, as
a long press, while it is still held, and its release is then not reported.

gpiozero is imported only when buttons are created.  ``simulated_buttons``
uses gpiozero's ``MockFactory``, whose pins ``SeatButtons.press`` can drive.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from enum import Enum
from functools import partial
from typing import Any

from .events import ButtonPressed, Emit


class _State(Enum):
    """Where one seat's button is in a press."""

    UP = "up"
    DOWN = "down"  # pressed, not yet held long enough
    HELD = "held"  # long press already reported


class SeatButtons:
    """The seat buttons; seat ``i`` is the button on ``pins[i]``.

    ``pin_factory`` is passed to gpiozero (``None`` selects gpiozero's
    default, i.e. the real GPIO on a Pi).  ``bounce_time`` is gpiozero's
    debounce time in seconds (``None`` for none).  Events are emitted from
    gpiozero's threads.
    """

    def __init__(
        self,
        pins: Sequence[int | str],
        emit: Emit,
        *,
        pin_factory: Any = None,
        bounce_time: float | None = 0.02,
        hold_time: float = 1.0,
    ) -> None:
        from gpiozero import Button

        if not pins:
            raise ValueError("SeatButtons needs at least one pin")
        if hold_time <= 0:
            raise ValueError(f"hold_time must be > 0, got {hold_time}")
        self._emit = emit
        self.hold_time = hold_time
        self._lock = threading.Lock()
        self._states = [_State.UP] * len(pins)
        self._held = [threading.Event() for _ in pins]
        self._owned_factory: Any = None
        self._buttons: list[Any] = []
        try:
            for seat, pin in enumerate(pins):
                button = Button(
                    pin,
                    pull_up=True,
                    bounce_time=bounce_time,
                    hold_time=hold_time,
                    pin_factory=pin_factory,
                )
                self._buttons.append(button)
                button.when_pressed = partial(self._on_pressed, seat)
                button.when_held = partial(self._on_held, seat)
                button.when_released = partial(self._on_released, seat)
        except BaseException:
            self.close()
            raise

    @property
    def seats(self) -> int:
        """How many seats (buttons) there are."""
        return len(self._states)

    def _on_pressed(self, seat: int) -> None:
        with self._lock:
            self._states[seat] = _State.DOWN
            self._held[seat].clear()

    def _on_held(self, seat: int) -> None:
        with self._lock:
            if self._states[seat] is not _State.DOWN:
                return  # released before the hold was noticed: a short press
            self._states[seat] = _State.HELD
        self._emit(ButtonPressed(seat, long=True))
        self._held[seat].set()

    def _on_released(self, seat: int) -> None:
        with self._lock:
            was = self._states[seat]
            self._states[seat] = _State.UP
        if was is _State.DOWN:
            self._emit(ButtonPressed(seat))

    def press(self, seat: int, hold: float = 0.0) -> None:
        """Simulation only: press the button of ``seat`` for ``hold`` seconds.

        Drives the mock pin low, waits ``hold`` seconds if any, then drives it
        high again.  When ``hold`` reaches ``hold_time`` the release also waits
        (up to a second more) until the long press has been emitted, so that a
        slow machine cannot turn a simulated long press into a short one.
        Raises ``RuntimeError`` unless the buttons use a ``MockFactory``.
        """
        from gpiozero.pins.mock import MockFactory

        if not 0 <= seat < self.seats:
            raise IndexError(f"no seat {seat}; seats are 0..{self.seats - 1}")
        button = self._buttons[seat]
        if button.closed:
            raise RuntimeError("seat buttons are closed")
        if not isinstance(button.pin_factory, MockFactory):
            raise RuntimeError(
                "press() is for simulated buttons only (the pin factory is not a MockFactory)"
            )
        button.pin.drive_low()
        try:
            if hold > 0:
                time.sleep(hold)
                if hold >= self.hold_time:
                    self._held[seat].wait(1.0)
        finally:
            button.pin.drive_high()

    def close(self) -> None:
        """Close every button (releasing its pin); calling it again does nothing."""
        for button in self._buttons:
            button.close()
        if self._owned_factory is not None:
            self._owned_factory.close()
            self._owned_factory = None

    def __enter__(self) -> SeatButtons:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def simulated_buttons(
    seats: int, emit: Emit, *, first_pin: int = 5, hold_time: float = 1.0
) -> SeatButtons:
    """Buttons for ``seats`` seats on mock pins ``first_pin``, ``first_pin + 1``, ...

    Uses a private gpiozero ``MockFactory`` (closed with the buttons) and no
    debounce, so that each ``press()`` produces exactly one event.
    """
    from gpiozero.pins.mock import MockFactory

    if seats < 1:
        raise ValueError(f"seats must be >= 1, got {seats}")
    factory = MockFactory()
    try:
        buttons = SeatButtons(
            range(first_pin, first_pin + seats),
            emit,
            pin_factory=factory,
            bounce_time=None,
            hold_time=hold_time,
        )
    except BaseException:
        factory.close()
        raise
    buttons._owned_factory = factory
    return buttons
