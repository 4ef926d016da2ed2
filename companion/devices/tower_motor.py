"""The optional tower motor: a stepper that turns a game's real tower, through gpiozero.

Built for a 28BYJ-48 geared stepper on a ULN2003 driver board: four GPIO pins drive the board's
inputs IN1..IN4 (``pins`` in that order), energised in the half-step sequence ``HALF_STEP``.
``steps_per_turn`` half-steps turn the tower once round (4096 for a 28BYJ-48 turning the tower
directly); one tower step, an eighth of a turn, is ``steps_per_turn // 8`` half-steps. Listing
the pins in the opposite order turns the motor the other way.

``advance(steps)`` turns the tower that many steps clockwise (never backwards) and returns at once:
a worker thread drives the pins, so the table never waits for the motor. ``position`` counts the
tower steps asked for since the motor was opened (starting from the ``position`` given);
``wait()`` waits until the tower has got there. The coils are switched off whenever the tower
stands still (the gearbox holds it), so the motor does not heat.

gpiozero is imported only when a motor is created. ``simulated_tower_motor`` uses a private
``MockFactory``, whose pins record every state they pass through.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from typing import Any

log = logging.getLogger("companion.devices.tower_motor")

#: the ULN2003 inputs IN1..IN4 energised at each half-step of a 28BYJ-48, in turning order
HALF_STEP: tuple[tuple[int, int, int, int], ...] = (
    (1, 0, 0, 0),
    (1, 1, 0, 0),
    (0, 1, 0, 0),
    (0, 1, 1, 0),
    (0, 0, 1, 0),
    (0, 0, 1, 1),
    (0, 0, 0, 1),
    (1, 0, 0, 1),
)
TOWER_STEPS = 8  # the tower turns in eighths: one wedge of the map per step
DEFAULT_STEPS_PER_TURN = 4096
DEFAULT_DELAY = 0.002  # seconds per half-step: about one second per tower step at 4096


class TowerMotor:
    """A stepper on ``pins`` (BCM numbers or gpiozero pin names, IN1..IN4).

    ``pin_factory`` is passed to gpiozero (``None`` selects gpiozero's default, i.e. the real GPIO
    on a Pi). ``delay`` is the time between half-steps, in seconds.
    """

    def __init__(
        self,
        pins: Sequence[int | str],
        *,
        steps_per_turn: int = DEFAULT_STEPS_PER_TURN,
        delay: float = DEFAULT_DELAY,
        pin_factory: Any = None,
        position: int = 0,
    ) -> None:
        from gpiozero import OutputDevice

        if len(pins) != 4 or len(set(pins)) != 4:
            raise ValueError(f"a tower motor needs 4 distinct pins (IN1..IN4), got {list(pins)}")
        if steps_per_turn <= 0 or steps_per_turn % TOWER_STEPS:
            raise ValueError(
                f"steps_per_turn must be a positive multiple of {TOWER_STEPS}, got {steps_per_turn}"
            )
        if delay < 0:
            raise ValueError(f"delay must be >= 0, got {delay}")
        self.steps_per_turn = steps_per_turn
        self.delay = delay
        self._cond = threading.Condition()
        self._target = position  # tower steps asked for
        self._done = position  # tower steps finished
        self._phase = 0  # index in HALF_STEP of the next half-step
        self._closing = False
        self._owned_factory: Any = None
        self._outputs: list[Any] = []
        self._thread: threading.Thread | None = None
        try:
            for pin in pins:
                self._outputs.append(
                    OutputDevice(pin, initial_value=False, pin_factory=pin_factory)
                )
        except BaseException:
            self._release()
            raise
        self._thread = threading.Thread(target=self._run, name="tower-motor", daemon=True)
        self._thread.start()

    @property
    def half_steps_per_step(self) -> int:
        """Half-steps of the motor per tower step (an eighth of a turn)."""
        return self.steps_per_turn // TOWER_STEPS

    @property
    def position(self) -> int:
        """The tower steps asked for so far (where the tower is, or is going)."""
        with self._cond:
            return self._target

    @property
    def moving(self) -> bool:
        with self._cond:
            return self._done != self._target

    def advance(self, steps: int = 1) -> None:
        """Turn the tower ``steps`` steps clockwise; returns at once (the worker turns it)."""
        if not isinstance(steps, int) or isinstance(steps, bool) or steps < 0:
            raise ValueError(f"the tower turns a whole number of steps clockwise, not {steps!r}")
        with self._cond:
            if self._closing:
                raise RuntimeError("the tower motor is closed")
            self._target += steps
            self._cond.notify_all()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the tower stands where it was asked to; False if ``timeout`` ran out."""
        with self._cond:
            return (
                self._cond.wait_for(lambda: self._done == self._target or self._closing, timeout)
                and self._done == self._target
            )

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._done != self._target or self._closing)
                if self._done == self._target:  # closing and nothing left to do
                    return
            self._one_step()
            with self._cond:
                last = self._done + 1 == self._target
            if last:
                self._set((0, 0, 0, 0))  # standing still: coils off, the gearbox holds
            with self._cond:
                self._done += 1
                self._cond.notify_all()

    def _one_step(self) -> None:
        for _ in range(self.half_steps_per_step):
            self._set(HALF_STEP[self._phase])
            self._phase = (self._phase + 1) % len(HALF_STEP)
            if self.delay:
                time.sleep(self.delay)

    def _set(self, coils: tuple[int, int, int, int]) -> None:
        # switch off before switching on, so two opposite coils never pull at once
        for output, on in zip(self._outputs, coils):
            if not on:
                output.off()
        for output, on in zip(self._outputs, coils):
            if on:
                output.on()

    def close(self, timeout: float = 10.0) -> None:
        """Let the steps already asked for finish (up to ``timeout`` seconds: the table has
        recorded them as done), then switch the coils off and release the pins. Calling it again
        does nothing."""
        if self._thread is not None and self._thread.is_alive():
            if not self.wait(timeout):
                log.warning(
                    "tower motor closed %d steps short of where the game is",
                    self._target - self._done,
                )
            with self._cond:
                self._closing = True
                self._cond.notify_all()
            self._thread.join(timeout=timeout)
        with self._cond:
            self._closing = True
        self._release()

    def _release(self) -> None:
        for output in self._outputs:
            try:
                if not output.closed:
                    output.off()
            finally:
                output.close()
        self._outputs = []
        if self._owned_factory is not None:
            self._owned_factory.close()
            self._owned_factory = None

    def __enter__(self) -> TowerMotor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def simulated_tower_motor(
    pins: Sequence[int],
    *,
    steps_per_turn: int = DEFAULT_STEPS_PER_TURN,
    delay: float = DEFAULT_DELAY,
) -> TowerMotor:
    """A tower motor on the mock pins of a private gpiozero ``MockFactory`` (closed with it)."""
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    try:
        motor = TowerMotor(pins, steps_per_turn=steps_per_turn, delay=delay, pin_factory=factory)
    except BaseException:
        factory.close()
        raise
    motor._owned_factory = factory
    return motor
