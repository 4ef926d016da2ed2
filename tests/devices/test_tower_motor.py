"""The optional tower motor (a 28BYJ-48 stepper on a ULN2003 board), on gpiozero's MockFactory."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from gpiozero import OutputDevice
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory, MockPin

from companion.devices.factory import open_devices
from companion.devices.tower_motor import TowerMotor, simulated_tower_motor

PINS = [4, 17, 27, 22]  # IN1..IN4
# The 28BYJ-48's half-step sequence (IN1..IN4), written out here independently of the driver.
SEQUENCE = [
    (1, 0, 0, 0),
    (1, 1, 0, 0),
    (0, 1, 0, 0),
    (0, 1, 1, 0),
    (0, 0, 1, 0),
    (0, 0, 1, 1),
    (0, 0, 0, 1),
    (1, 0, 0, 1),
]
WAIT = 10.0


class Recorder:
    """A MockFactory whose pins log every change, in order, across all four pins."""

    def __init__(self) -> None:
        log: list[tuple[str, bool]] = []

        class RecordingPin(MockPin):
            def _change_state(self, value):
                changed = super()._change_state(value)
                if changed:
                    log.append((self.info.name, bool(value)))
                return changed

        self.log = log
        self.factory = MockFactory(pin_class=RecordingPin)

    def snapshots(self) -> list[tuple[int, ...]]:
        """IN1..IN4 after each change of any pin."""
        names = [self.factory.pin(p).info.name for p in PINS]
        state = dict.fromkeys(names, 0)
        seen = []
        for name, value in self.log:
            if name in state:
                state[name] = int(value)
                seen.append(tuple(state[n] for n in names))
        return seen


@pytest.fixture
def recorder() -> Iterator[Recorder]:
    r = Recorder()
    yield r
    r.factory.close()


def motor_on(recorder: Recorder, **kwargs) -> TowerMotor:
    motor = TowerMotor(PINS, pin_factory=recorder.factory, delay=0, **kwargs)
    recorder.log.clear()
    return motor


def test_one_tower_step_is_an_eighth_turn_of_half_steps_then_the_coils_go_off(recorder):
    """4096 half-steps per turn: one step of the tower drives IN1..IN4 through the half-step
    sequence 512 times (64 cycles), then switches every coil off."""
    motor = motor_on(recorder)
    motor.advance()
    assert motor.wait(WAIT)
    assert motor.position == 1 and motor.half_steps_per_step == 512
    expected = [SEQUENCE[i % 8] for i in range(512)] + [(0, 0, 0, 1), (0, 0, 0, 0)]
    assert recorder.snapshots() == expected
    assert [recorder.factory.pin(p).state for p in PINS] == [0, 0, 0, 0]
    motor.close()


def test_the_next_step_goes_on_in_the_same_sequence(recorder):
    """With 3 half-steps per tower step, the second step starts where the first stopped."""
    motor = motor_on(recorder, steps_per_turn=24)
    motor.advance()
    assert motor.wait(WAIT)
    recorder.log.clear()
    motor.advance()
    assert motor.wait(WAIT)
    # the coils were off: IN2 and IN3 come on for half-step 3, then 4 and 5, then off again
    assert recorder.snapshots() == [
        (0, 1, 0, 0),
        (0, 1, 1, 0),
        (0, 0, 1, 0),
        (0, 0, 1, 1),
        (0, 0, 0, 1),
        (0, 0, 0, 0),
    ]
    motor.close()


def test_several_steps_run_back_to_back_and_the_position_is_remembered(recorder):
    motor = motor_on(recorder, steps_per_turn=64, position=5)
    assert motor.position == 5
    motor.advance(3)
    assert motor.position == 8
    assert motor.wait(WAIT) and not motor.moving
    snapshots = recorder.snapshots()
    assert snapshots[:24] == [SEQUENCE[i % 8] for i in range(24)]  # no pause between steps
    assert snapshots[-1] == (0, 0, 0, 0)
    motor.advance(0)
    assert motor.position == 8
    motor.close()


@pytest.mark.parametrize("steps", [-1, 1.5, True])
def test_the_tower_only_turns_whole_steps_clockwise(recorder, steps):
    motor = motor_on(recorder)
    with pytest.raises(ValueError, match="clockwise"):
        motor.advance(steps)
    assert motor.position == 0
    motor.close()


def test_advance_returns_at_once_while_the_motor_turns(recorder):
    motor = TowerMotor(PINS, pin_factory=recorder.factory, steps_per_turn=800, delay=0.002)
    started = time.monotonic()
    motor.advance()
    assert time.monotonic() - started < 0.05
    assert motor.moving and motor.position == 1
    assert motor.wait(WAIT) and not motor.moving
    motor.close()


def test_close_finishes_the_steps_asked_for_and_releases_the_pins(recorder):
    motor = TowerMotor(PINS, pin_factory=recorder.factory, steps_per_turn=80, delay=0.001)
    motor.advance(2)
    motor.close()
    assert len(recorder.snapshots()) >= 20  # both steps were taken (10 half-steps each)
    assert [recorder.factory.pin(p).state for p in PINS] == [0, 0, 0, 0]
    with pytest.raises(RuntimeError, match="closed"):
        motor.advance()
    motor.close()
    OutputDevice(PINS[0], pin_factory=recorder.factory).close()  # the pin is free again


@pytest.mark.parametrize(
    "pins, steps, problem",
    [
        ([4, 17, 27], 4096, "4 distinct pins"),
        ([4, 17, 27, 4], 4096, "4 distinct pins"),
        (PINS, 4100, "multiple of 8"),
        (PINS, 0, "multiple of 8"),
    ],
)
def test_bad_settings_are_refused(recorder, pins, steps, problem):
    with pytest.raises(ValueError, match=problem):
        TowerMotor(pins, steps_per_turn=steps, pin_factory=recorder.factory)


def test_a_pin_in_use_is_refused_and_nothing_stays_reserved(recorder):
    held = OutputDevice(27, pin_factory=recorder.factory)
    with pytest.raises(GPIOPinInUse):
        TowerMotor(PINS, pin_factory=recorder.factory)
    held.close()
    TowerMotor(PINS, pin_factory=recorder.factory).close()


def test_gpiozero_is_not_imported_with_the_module():
    code = "import sys, companion.devices.tower_motor; print('gpiozero' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_simulated_motor_owns_its_mock_pins():
    motor = simulated_tower_motor(PINS, steps_per_turn=64, delay=0)
    factory = motor._owned_factory
    assert isinstance(factory, MockFactory)
    motor.advance(2)
    assert motor.wait(WAIT) and motor.position == 2
    motor.close()
    assert motor._owned_factory is None


def config(tmp_path, pins=()) -> SimpleNamespace:
    return SimpleNamespace(
        simulated=True,
        seats=2,
        button_hold=1.0,
        seed=1,
        dice_speed=0.0,
        data_dir=tmp_path,
        tower_motor_pins=tuple(pins),
        tower_motor_steps=64,
        nfc_readers=(),
    )


def test_the_factory_opens_a_motor_only_when_pins_are_configured(tmp_path, events):
    devices = open_devices(config(tmp_path), events.emit, {"tower": 16})
    try:
        assert devices.tower_motor is None and devices.strips["tower"].length == 16
    finally:
        devices.close()
    devices = open_devices(config(tmp_path, PINS), events.emit, {"tower": 16})
    try:
        motor = devices.tower_motor
        assert isinstance(motor, TowerMotor) and motor.steps_per_turn == 64
        motor.advance()
        assert motor.wait(WAIT)
    finally:
        devices.close()
    with pytest.raises(RuntimeError, match="closed"):
        motor.advance()
