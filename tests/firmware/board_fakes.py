"""Fakes for the tests of the dice reader's board layer under CPython (``test_board_lis3dh.py``,
``test_board_loop.py``): an LIS3DH's register file as seen over I2C, and the board around
``firmware/main.py``: ``machine``, the clock, ``sys``, ``select``, ``micropython`` and ``gc``
(``Table`` runs ``main()`` on them), and a small fake reader (or, when it can be imported, the
real ``Reader``)."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from companion_dice import lis3dh

# -- A fake LIS3DH: its register file as seen over I2C ------------------------------------------


class FakeLIS3DH:
    """An LIS3DH behind ``readfrom_mem``/``writeto_mem``: registers with their power-on values,
    address auto-increment only when the sub-address has its top bit set, and output registers
    that hold the test's acceleration while the chip runs (ODR not 0) and 0 while it is powered
    down. Unplugged, it does not answer (OSError 5, as MicroPython's EIO)."""

    def __init__(self, who_am_i: int = 0x33, address: int = 0x18, keeps_writes: bool = True):
        self.who_am_i = who_am_i
        self.address = address
        self.keeps_writes = keeps_writes
        self.plugged = True
        self.raw = (0, 0, 0)
        self.fresh = True  # whether a running chip has a new reading at each read
        self.writes: list[tuple[int, bytes]] = []
        self.reads: list[tuple[int, int]] = []
        self.power_on()

    def power_on(self) -> None:
        """Registers as after the chip's power-on: powered down (CTRL_REG1 0x07)."""
        self.regs = {reg: 0 for reg in range(0x40)}
        self.regs[lis3dh.WHO_AM_I] = self.who_am_i
        self.regs[lis3dh.CTRL_REG1] = 0x07

    def unplug(self) -> None:
        self.plugged = False

    def replug(self) -> None:
        self.plugged = True
        self.power_on()

    def set_raw(self, x: int, y: int, z: int) -> None:
        """The acceleration, as the three signed 16-bit values of the OUT registers."""
        self.raw = (x, y, z)

    def set_mg(self, x: int, y: int, z: int) -> None:
        """The acceleration in milli-g (high resolution, +-8 g: 4 mg a digit, left-justified)."""
        self.set_raw(*((mg // 4) << 4 for mg in (x, y, z)))

    def running(self) -> bool:
        return self.regs[lis3dh.CTRL_REG1] >> 4 != 0  # ODR 0: powered down, no conversions

    def _register(self, register: int) -> int:
        if register == lis3dh.STATUS_REG:
            return 0x0F if self.running() and self.fresh else 0x00  # ZYXDA, ZDA, YDA, XDA
        if lis3dh.OUT_X_L <= register < lis3dh.OUT_X_L + 6:
            if not self.running():
                return 0
            value = self.raw[(register - lis3dh.OUT_X_L) // 2] & 0xFFFF
            return value >> 8 if register & 1 else value & 0xFF  # BLE = 0: low byte first
        return self.regs[register]

    def _answer(self, address: int) -> None:
        if not self.plugged or address != self.address:
            raise OSError(5)

    def readfrom_mem(self, address: int, register: int, count: int) -> bytes:
        self._answer(address)
        self.reads.append((register, count))
        if register & 0x80:
            registers = [(register & 0x7F) + i for i in range(count)]
        else:
            registers = [register] * count
        return bytes(self._register(r) for r in registers)

    def writeto_mem(self, address: int, register: int, data: bytes) -> None:
        self._answer(address)
        self.writes.append((register, bytes(data)))
        if self.keeps_writes:
            for i, value in enumerate(data):
                self.regs[(register & 0x7F) + i if register & 0x80 else register] = value


# -- Fakes of the board: machine, time, sys, select, micropython, gc ------------------------------


class FakePin:
    OUT = 1
    IN = 0

    def __init__(self, ident: Any, mode: int = -1, value: int | None = None, **_: Any) -> None:
        self.ident = ident
        self.mode = mode
        self.level = 0
        self.history: list[int] = []
        if value is not None:
            self.value(value)

    def value(self, level: Any = None) -> int | None:
        if level is None:
            return self.level
        self.level = 1 if level else 0
        self.history.append(self.level)
        return None


class FakeI2C:
    def __init__(
        self, machine: SimpleNamespace, bus: int, *, sda: FakePin, scl: FakePin, freq: int
    ) -> None:
        self.machine = machine
        self.bus = bus
        self.config = (sda.ident, scl.ident, freq)

    def _chip(self, address: int) -> FakeLIS3DH:
        chip = self.machine.chips.get(self.bus)
        if chip is None:
            raise OSError(5)
        return chip

    def readfrom_mem(self, address: int, register: int, count: int) -> bytes:
        return self._chip(address).readfrom_mem(address, register, count)

    def writeto_mem(self, address: int, register: int, data: bytes) -> None:
        self._chip(address).writeto_mem(address, register, data)


UID = bytes.fromhex("e6614c311b7e6f35")


def fake_machine(chips: dict[int, FakeLIS3DH | None], adc_u16: int = 32768) -> SimpleNamespace:
    machine = SimpleNamespace(chips=chips, pins={}, buses={}, adcs=[])

    class Pin(FakePin):
        def __init__(self, ident: Any, *args: Any, **kwargs: Any) -> None:
            super().__init__(ident, *args, **kwargs)
            if self.mode == FakePin.OUT:
                assert ident not in machine.pins, f"pin {ident} made an output twice"
                machine.pins[ident] = self

    def i2c(bus: int, **kwargs: Any) -> FakeI2C:
        machine.buses[bus] = made = FakeI2C(machine, bus, **kwargs)
        return made

    def adc(source: Any) -> SimpleNamespace:
        machine.adcs.append(source)
        return SimpleNamespace(read_u16=lambda: adc_u16)

    machine.Pin = Pin
    machine.I2C = i2c
    machine.ADC = adc
    machine.unique_id = lambda: UID
    return machine


class FakeTime:
    """MicroPython's ``time``: ``ticks_ms`` wraps at 2**30; ``sleep_ms`` moves the clock on and
    runs the events due (``at`` in ms after the start)."""

    PERIOD = 1 << 30

    def __init__(self, start: int = 0, events: list[tuple[int, Callable[[], None]]] = ()):
        self.start = self.t = start
        self.events = sorted(events, key=lambda event: event[0])
        self.sleeps: list[int] = []

    def elapsed(self) -> int:
        return self.t - self.start

    def ticks_ms(self) -> int:
        return self.t % self.PERIOD

    def ticks_diff(self, a: int, b: int) -> int:
        half = self.PERIOD // 2
        return ((a - b + half) % self.PERIOD) - half

    def ticks_us(self) -> int:
        return (self.t * 1000) % self.PERIOD

    def sleep_ms(self, ms: int) -> None:
        assert 0 < ms <= 10
        self.sleeps.append(ms)
        self.t += ms
        while self.events and self.events[0][0] <= self.elapsed():
            self.events.pop(0)[1]()


class FakeStdin:
    def __init__(self) -> None:
        self.pending = bytearray()
        self.buffer = self

    def feed(self, data: bytes) -> None:
        self.pending += data

    def read(self, count: int) -> bytes:
        assert 0 < len(self.pending), "a read that would block"
        taken = bytes(self.pending[:count])
        del self.pending[:count]
        return taken


class FakeStdout:
    def __init__(self) -> None:
        self.data = bytearray()
        self.buffer = self

    def write(self, data: bytes) -> int:
        assert isinstance(data, bytes) and data
        self.data += data
        return len(data)


class FakeSelect:
    POLLIN = 1

    def poll(self) -> SimpleNamespace:
        registered: list[Any] = []

        def register(stream: Any, mask: int) -> None:
            assert mask == self.POLLIN
            registered.append(stream)

        def poll(timeout: int = -1) -> list[tuple[Any, int]]:
            assert timeout == 0, "a poll that would wait"
            return [(s, self.POLLIN) for s in registered if s.pending]

        return SimpleNamespace(register=register, poll=poll)


PICO = "Raspberry Pi Pico with RP2040"
PICO_W = "Raspberry Pi Pico W with RP2040"


class Table:
    """One run of ``main()`` on a fake board."""

    def __init__(
        self,
        chips: dict[int, FakeLIS3DH | None],
        *,
        machine_name: str = PICO,
        start: int = 0,
        events: list[tuple[int, Callable[[], None]]] = (),
    ):
        self.machine = fake_machine(chips)
        self.time = FakeTime(start, events)
        self.stdin = FakeStdin()
        self.stdout = FakeStdout()
        self.system = SimpleNamespace(
            stdin=self.stdin,
            stdout=self.stdout,
            implementation=SimpleNamespace(name="micropython", _machine=machine_name),
        )
        self.interrupts: list[int] = []
        self.collections = 0
        self.reader: Spy | None = None

    def collect(self) -> None:
        self.collections += 1

    def run(self, main_module: Any, reader_base: type, loops: int) -> Any:
        def make_reader(**kwargs: Any) -> Spy:
            self.reader = Spy(reader_base(**kwargs), kwargs)
            return self.reader

        return main_module.main(
            machine=self.machine,
            time=self.time,
            select=FakeSelect(),
            micropython=SimpleNamespace(kbd_intr=self.interrupts.append),
            gc=SimpleNamespace(collect=self.collect),
            system=self.system,
            reader_class=make_reader,
            loops=loops,
        )

    def calls(self, name: str) -> list[tuple[Any, ...]]:
        assert self.reader is not None
        return [args for called, args, _ in self.reader.calls if called == name]


class Spy:
    """Passes every call on to ``inner`` and records (name, args, result)."""

    def __init__(self, inner: Any, kwargs: dict[str, Any]) -> None:
        self.inner = inner
        self.kwargs = kwargs
        self.calls: list[tuple[str, tuple[Any, ...], Any]] = []

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.inner, name)

        def call(*args: Any) -> Any:
            result = method(*args)
            self.calls.append((name, args, result))
            return result

        return call


class FakeReader:
    """The ``Reader`` API with made-up behaviour: HELLO at boot, a line per sensor failure,
    PONG for a PING; die 0's LED lit for 300 ms after host bytes, the board LED blinking at 1 Hz."""

    def __init__(
        self,
        dice: int = 2,
        board: str = "pico",
        uid: str = "",
        leds: tuple[bool, ...] = (True, True),
        settings: Any = None,
        boot: str = "",
    ) -> None:
        self.dice = dice
        self.out = bytearray()
        self.flash_until = [0] * dice

    def boot(self, now_ms: int) -> None:
        self.out += b"HELLO 0 proto=1*00\n"

    def sample(self, die: int, now_ms: int, x: int, y: int, z: int) -> None:
        pass

    def sensor_failed(self, die: int, now_ms: int, why: str) -> None:
        self.out += b"FAULT die=%d why=%s\n" % (die, why.encode())

    def host_bytes(self, data: bytes, now_ms: int) -> None:
        if b"PING" in data:
            self.out += b"PONG\n"
        self.flash_until[0] = now_ms + 300

    def power(self, mv: int, source: str = "usb") -> None:
        pass

    def tick(self, now_ms: int) -> None:
        pass

    def take_output(self) -> bytes:
        out, self.out = bytes(self.out), bytearray()
        return out

    def die_led(self, die: int, now_ms: int) -> bool:
        return now_ms < self.flash_until[die]

    def status_led(self, now_ms: int) -> bool:
        return (now_ms // 500) % 2 == 0


def real_reader() -> type:
    try:
        from companion_dice.reader import Reader
    except ImportError as missing:
        pytest.skip(f"companion_dice.reader is not importable yet: {missing}")
    return Reader


READERS = ["fake", "real"]


def reader_class(kind: str) -> type:
    return FakeReader if kind == "fake" else real_reader()


def runs(values: list[Any]) -> list[Any]:
    """``values`` with repeats in a row dropped."""
    return [v for i, v in enumerate(values) if i == 0 or v != values[i - 1]]
