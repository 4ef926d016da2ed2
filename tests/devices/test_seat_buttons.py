"""Seat buttons, on gpiozero's MockFactory.

Set ``COMPANION_TEST_BUTTON_PINS`` to comma-separated BCM pins (buttons wired
to ground, none pressed) to also run the tests that need no press against
the real pins of a Raspberry Pi.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory

from companion.devices.buttons import SeatButtons, simulated_buttons
from companion.devices.events import ButtonPressed

REAL_PINS_VARIABLE = "COMPANION_TEST_BUTTON_PINS"
HOLD_TIME = 0.1  # a short hold time keeps the long-press tests quick


@pytest.fixture
def buttons(events) -> Iterator[SeatButtons]:
    buttons = simulated_buttons(3, events.emit, hold_time=HOLD_TIME)
    yield buttons
    buttons.close()


@pytest.fixture(params=["mock", "real"])
def pin_setup(request) -> Iterator[tuple[object, list[int]]]:
    """(pin factory, pins): a MockFactory, or the real one when asked for."""
    if request.param == "mock":
        factory = MockFactory()
        yield factory, [5, 6, 13]
        factory.close()
        return
    pins = os.environ.get(REAL_PINS_VARIABLE)
    if not pins:
        pytest.skip(f"real GPIO pins not tested: set {REAL_PINS_VARIABLE}=5,6 (BCM) on a Pi")
    yield None, [int(pin) for pin in pins.split(",")]


def test_a_short_press_emits_one_event_on_release(buttons, events) -> None:
    buttons.press(1)
    assert events.pending() == [ButtonPressed(1)]


def test_every_press_gives_exactly_one_event(buttons, events) -> None:
    for _ in range(40):
        buttons.press(0)
    assert events.pending() == [ButtonPressed(0)] * 40


def test_a_press_shorter_than_the_hold_time_is_short(buttons, events) -> None:
    buttons.press(2, hold=HOLD_TIME / 4)
    assert events.pending() == [ButtonPressed(2)]


def test_a_long_press_emits_once_while_held_and_not_on_release(buttons, events) -> None:
    buttons.press(0, hold=HOLD_TIME * 2.5)
    assert events.pending() == [ButtonPressed(0, long=True)]
    buttons.press(0)
    assert events.pending() == [ButtonPressed(0)]


def test_each_seat_reports_its_own_presses(buttons, events) -> None:
    for seat in (2, 0, 1, 2):
        buttons.press(seat)
    assert events.pending() == [ButtonPressed(s) for s in (2, 0, 1, 2)]
    assert buttons.seats == 3


def test_a_closed_button_set_emits_nothing_and_refuses_presses(buttons, events) -> None:
    buttons.close()
    buttons.close()
    with pytest.raises(RuntimeError, match="closed"):
        buttons.press(0)
    assert events.pending() == []


def test_press_checks_the_seat(buttons) -> None:
    with pytest.raises(IndexError, match="no seat 3"):
        buttons.press(3)


def test_buttons_need_pins_and_a_positive_hold_time(events) -> None:
    with pytest.raises(ValueError, match="at least one pin"):
        SeatButtons([], events.emit, pin_factory=MockFactory())
    with pytest.raises(ValueError, match="hold_time"):
        simulated_buttons(2, events.emit, hold_time=0)
    with pytest.raises(ValueError, match="seats"):
        simulated_buttons(0, events.emit)


def test_seat_buttons_on_an_explicit_mock_factory(events) -> None:
    factory = MockFactory()
    with SeatButtons([17, 27], events.emit, pin_factory=factory, bounce_time=None) as buttons:
        buttons.press(1)
        factory.pin(17).drive_low()  # what press() does, by hand
        factory.pin(17).drive_high()
    assert events.pending() == [ButtonPressed(1), ButtonPressed(0)]
    factory.close()


def test_pins_are_held_while_open_and_released_on_close(pin_setup, events) -> None:
    factory, pins = pin_setup
    buttons = SeatButtons(pins, events.emit, pin_factory=factory)
    with pytest.raises(GPIOPinInUse):
        SeatButtons(pins[:1], events.emit, pin_factory=factory)
    buttons.close()
    SeatButtons(pins, events.emit, pin_factory=factory).close()
    assert events.pending() == []


def test_press_is_for_mock_pins_only(pin_setup, events) -> None:
    factory, pins = pin_setup
    with SeatButtons(pins, events.emit, pin_factory=factory) as buttons:
        if factory is None:
            with pytest.raises(RuntimeError, match="simulated buttons only"):
                buttons.press(0)
        else:
            buttons.press(0)
            assert events.pending() == [ButtonPressed(0)]
