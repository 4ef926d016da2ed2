"""The dice reader's board layer under CPython: the LIS3DH driver against a fake register file,
and ``firmware/main.py``'s loop against a fake ``machine`` module, a fake clock and a fake USB
link, with a small fake reader and (when it can be imported) the real ``Reader``."""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from companion.devices.dice_protocol import encode, parse_line
from companion_dice import lis3dh
from companion_dice.lis3dh import LIS3DH

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
MAIN_PY = FIRMWARE / "main.py"


def load_main() -> Any:
    """``firmware/main.py`` as a fresh module (it is not in a package)."""
    spec = importlib.util.spec_from_file_location("dice_reader_main", MAIN_PY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def board_main() -> Any:
    return load_main()


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


# -- The driver -----------------------------------------------------------------------------------


def test_configuration_writes_the_datasheet_values() -> None:
    chip = FakeLIS3DH()
    LIS3DH(chip)
    written = dict(chip.writes)
    assert written[0x20] == b"\x57"  # CTRL_REG1
    assert written[0x23] == b"\xa8"  # CTRL_REG4
    assert all(len(data) == 1 for _, data in chip.writes)
    reg1, reg4 = written[0x20][0], written[0x23][0]
    assert reg1 >> 4 == 0b0101  # ODR: 100 Hz
    assert reg1 & 0x08 == 0  # LPen off: normal / high-resolution
    assert reg1 & 0x07 == 0b111  # Zen, Yen, Xen
    assert reg4 & 0x80  # BDU
    assert reg4 & 0x40 == 0  # BLE: low byte at the lower address
    assert (reg4 >> 4) & 0b11 == 0b10  # FS: +-8 g
    assert reg4 & 0x08  # HR
    assert reg4 & 0x07 == 0  # no self-test, 4-wire SPI bit unused
    # the filter, interrupt and FIFO registers are cleared, and CTRL_REG1 (which starts the
    # sensor) is written last
    assert written[0x21] == written[0x22] == written[0x24] == b"\x00"
    assert chip.writes[-1][0] == 0x20
    assert chip.regs[0x20] == 0x57 and chip.regs[0x23] == 0xA8


def test_a_chip_that_is_not_an_lis3dh_is_refused_before_any_write() -> None:
    chip = FakeLIS3DH(who_am_i=0x32)
    with pytest.raises(OSError) as refused:
        LIS3DH(chip)
    message = str(refused.value)
    assert message.startswith(lis3dh.WRONG_CHIP + ":")
    assert "WHO_AM_I" in message and "0x32" in message and "0x33" in message
    assert chip.writes == []


def test_a_missing_chip_raises_the_buses_oserror() -> None:
    chip = FakeLIS3DH(address=0x19)
    with pytest.raises(OSError) as missing:
        LIS3DH(chip)
    assert missing.value.args == (5,)
    assert LIS3DH(chip, address=0x19).address == 0x19


def test_a_chip_that_does_not_keep_its_settings_is_refused() -> None:
    with pytest.raises(OSError) as refused:
        LIS3DH(FakeLIS3DH(keeps_writes=False))
    assert str(refused.value).startswith(lis3dh.LOST_SETTINGS + ":")


def test_check_notices_a_chip_that_restarted() -> None:
    chip = FakeLIS3DH()
    sensor = LIS3DH(chip)
    sensor.check()
    chip.power_on()
    with pytest.raises(OSError) as lost:
        sensor.check()
    assert str(lost.value).startswith(lis3dh.LOST_SETTINGS + ":")


@pytest.mark.parametrize(
    ("raw", "mg"),
    [
        (0x0000, 0),
        (0x0FA0, 1000),  # 250 digits of 4 mg, left-justified
        (0x0FAF, 1000),  # the low four bits are not data
        (0xF060, -1000),
        (0x0010, 4),
        (0xFFF0, -4),
        (0x7FF0, 8188),  # saturated: +2047 digits
        (0x8000, -8192),  # saturated: -2048 digits
    ],
)
def test_register_bytes_become_milli_g(raw: int, mg: int) -> None:
    assert lis3dh.raw_to_mg(raw & 0xFF, raw >> 8) == mg
    chip = FakeLIS3DH()
    sensor = LIS3DH(chip)
    chip.set_raw(raw, -raw, raw)
    x, y, z = sensor.read_mg()
    assert (x, z) == (mg, mg)
    assert y == lis3dh.raw_to_mg((-raw) & 0xFF, ((-raw) & 0xFFFF) >> 8)
    assert all(type(v) is int for v in (x, y, z))


def test_one_read_takes_all_six_output_bytes_with_auto_increment() -> None:
    chip = FakeLIS3DH()
    sensor = LIS3DH(chip)
    chip.set_mg(-8, 1000, -2000)
    chip.reads.clear()
    assert sensor.read_mg() == (-8, 1000, -2000)
    assert chip.reads == [(0x28 | 0x80, 6)]  # OUT_X_L with the auto-increment bit


def test_to_mg_reads_x_y_z_in_register_order() -> None:
    assert lis3dh.to_mg(bytes([0xA0, 0x0F, 0x60, 0xF0, 0x00, 0x80])) == (1000, -1000, -8192)
    assert lis3dh.to_mg(bytes([0xFF, 0xA0, 0x0F, 0x60, 0xF0, 0x00, 0x80]), 1) == (
        1000,
        -1000,
        -8192,
    )


def test_read_new_mg_gives_only_new_readings_in_one_transfer() -> None:
    chip = FakeLIS3DH()
    sensor = LIS3DH(chip)
    chip.set_mg(4, -4, 996)
    chip.reads.clear()
    assert sensor.read_new_mg() == (4, -4, 996)
    assert chip.reads == [(0x27 | 0x80, 7)]  # STATUS_REG, then OUT_X_L .. OUT_Z_H
    chip.fresh = False
    assert sensor.read_new_mg() is None
    chip.fresh = True
    chip.power_on()  # restarted: powered down, no new data
    assert sensor.read_new_mg() is None


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


# -- The loop -------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", READERS)
def test_the_loop_on_a_pico(board_main: Any, kind: str) -> None:
    base = reader_class(kind)
    chips = {0: FakeLIS3DH(), 1: FakeLIS3DH()}
    chips[0].set_mg(0, 0, 1000)
    chips[1].set_mg(0, 0, -1000)
    ping = encode("PING", 0) + encode("FLASH", 1, die=0, ms=500)

    def replug_die_1() -> None:
        chips[1].replug()
        chips[1].set_mg(12, -8, 1000)

    events = [
        (1000, chips[1].unplug),  # die 1's cable pulled out...
        (1500, lambda: table.stdin.feed(ping)),
        (2500, replug_die_1),  # ... and plugged back in
        (3050, chips[0].power_on),  # die 0's sensor restarts (a supply glitch on its cable)
    ]
    # the clock starts 2 s before ticks_ms wraps
    table = Table(chips, start=FakeTime.PERIOD - 2000, events=events)
    assert table.run(board_main, base, loops=600) is None
    reader = table.reader
    start = FakeTime.PERIOD - 2000

    def at(elapsed: int) -> int:
        return start + elapsed

    # the reader as this board describes it
    boot = reader.kwargs.pop("boot")
    assert reader.kwargs == {"dice": 2, "board": "pico", "uid": UID.hex(), "leds": (True, True)}
    assert len(boot) == 8 and int(boot, 16) >= 0
    # the buses, pins and ADC of the wiring table
    assert {bus: i2c.config for bus, i2c in table.machine.buses.items()} == {
        0: (4, 5, 100000),
        1: (6, 7, 100000),
    }
    assert set(table.machine.pins) == {14, 15, 25}
    assert table.machine.adcs == [29, 4]  # VSYS; the temperature sensor for the boot id
    # Ctrl-C off while the loop runs, on again after it
    assert table.interrupts == [-1, 3]

    # HELLO goes out first, and boot comes before anything else
    assert reader.calls[0][0] == "boot"
    first = bytes(table.stdout.data).split(b"\n", 1)[0]
    assert first.startswith(b"HELLO ")
    if kind == "real":
        assert parse_line(first + b"\n").verb == "HELLO"

    # time never goes backwards, across the wrap of ticks_ms
    ticks = [args[0] for args in table.calls("tick")]
    assert ticks == sorted(ticks) and len(set(ticks)) == len(ticks)
    assert ticks[0] == start and ticks[-1] >= at(5990)
    assert all(b - a <= 20 for a, b in pairwise(ticks))

    samples = table.calls("sample")
    die0 = [s for s in samples if s[0] == 0]
    die1 = [s for s in samples if s[0] == 1]
    # no reading before the sensor has settled after its configuration
    assert min(s[1] for s in samples) >= at(board_main.SETTLE_MS)
    assert all(s[2:] == (0, 0, 1000) for s in die0)

    # die 1 unplugged: reported once, at the first failed read; die 0 goes on meanwhile
    failures = table.calls("sensor_failed")
    assert failures[0][0] == 1 and failures[0][2] == "i2c-no-answer"
    assert at(1000) <= failures[0][1] <= at(1010)
    assert not [s for s in die1 if failures[0][1] <= s[1] < at(2500)]
    assert len([s for s in die0 if at(1100) <= s[1] < at(2400)]) >= 120
    # ... and back, with its new readings, within a retry period of being plugged in again
    back = [s for s in die1 if s[1] >= at(2500)]
    assert back and back[0][1] <= at(2500 + board_main.RETRY_MS + board_main.SETTLE_MS + 20)
    assert all(s[2:] == (12, -8, 1000) for s in back)
    assert len(back) >= 200

    # die 0's restart is noticed when its readings stop, then it is opened again
    assert failures[1][0] == 0 and failures[1][2] == "sensor-stalled"
    assert at(3050) <= failures[1][1] <= at(3050 + board_main.STALL_MS + 10)
    assert len(failures) == 2
    again = [s for s in die0 if s[1] > failures[1][1]]
    assert again[0][1] <= failures[1][1] + board_main.RETRY_MS + board_main.SETTLE_MS + 10

    # host bytes reach the reader as they came, and its answer goes out
    host = table.calls("host_bytes")
    assert [args[0] for args in host] == [ping]
    assert at(1500) <= host[0][1] <= at(1510)
    assert b"PONG" in table.stdout.data
    # everything the reader queued went out
    assert table.reader.inner.take_output() == b""

    # the supply, about once a second: 32768 / 65535 * 3.3 V * 3
    power = table.calls("power")
    assert 5 <= len(power) <= 7 and all(args == (4950, "usb") for args in power)
    assert 5 <= table.collections <= 7

    # the LEDs follow die_led / status_led, and are off once the loop is over
    for pin, method, wanted in (
        (14, "die_led", (0,)),
        (15, "die_led", (1,)),
        (25, "status_led", ()),
    ):
        said = [
            bool(result)
            for name, args, result in reader.calls
            if name == method and args[: len(wanted)] == wanted
        ]
        assert len(said) == 600
        shown = table.machine.pins[pin].history
        assert runs([bool(v) for v in shown]) == runs([False] + said + [False])
        assert table.machine.pins[pin].level == 0
    status = [result for name, _, result in reader.calls if name == "status_led"]
    assert len(runs(status)) >= 3  # the heartbeat blinks
    # FLASH (the real reader) or any host bytes (the fake one) light die 0's LED for a while
    lit = [
        args[1]
        for name, args, result in reader.calls
        if name == "die_led" and args[0] == 0 and result
    ]
    assert lit and at(1500) <= lit[0] <= at(1650) and lit[-1] <= at(2010)
    assert 1 in table.machine.pins[14].history and 1 not in table.machine.pins[15].history


@pytest.mark.parametrize("kind", READERS)
def test_a_die_missing_at_power_on_is_reported_once_and_found_when_plugged_in(
    board_main: Any, kind: str
) -> None:
    chips = {0: FakeLIS3DH(), 1: FakeLIS3DH()}
    chips[1].unplug()
    table = Table(chips, events=[(2500, chips[1].replug)])
    table.run(board_main, reader_class(kind), loops=400)
    names = [name for name, _, _ in table.reader.calls]
    assert names[:2] == ["boot", "sensor_failed"]
    assert table.calls("sensor_failed") == [(1, 0, "i2c-no-answer")]
    die1 = [s for s in table.calls("sample") if s[0] == 1]
    assert die1 and 2500 < die1[0][1] <= 2500 + board_main.RETRY_MS + board_main.SETTLE_MS + 20
    assert bytes(table.stdout.data).startswith(b"HELLO ")


@pytest.mark.parametrize("kind", READERS)
def test_a_wrong_chip_is_reported_and_never_read(board_main: Any, kind: str) -> None:
    chips = {0: FakeLIS3DH(), 1: FakeLIS3DH(who_am_i=0x44)}
    table = Table(chips)
    table.run(board_main, reader_class(kind), loops=250)
    assert table.calls("sensor_failed") == [(1, 0, "wrong-chip")]
    assert {s[0] for s in table.calls("sample")} == {0}
    assert chips[1].writes == []


def test_a_sensor_that_skips_a_reading_now_and_then_is_not_a_failure(board_main: Any) -> None:
    chips = {0: FakeLIS3DH(), 1: FakeLIS3DH()}

    def every_third_stale(t: int) -> Callable[[], None]:
        return lambda: setattr(chips[0], "fresh", t % 30 != 0)

    table = Table(chips, events=[(t, every_third_stale(t)) for t in range(200, 1000, 10)])
    table.run(board_main, FakeReader, loops=100)
    assert table.calls("sensor_failed") == []
    assert 50 <= len([s for s in table.calls("sample") if s[0] == 0]) < 90


@pytest.mark.parametrize("kind", READERS)
def test_ctrl_c_from_the_host_ends_the_loop_for_the_prompt(board_main: Any, kind: str) -> None:
    chips = {0: FakeLIS3DH(), 1: FakeLIS3DH()}
    ping = encode("PING", 0)
    table = Table(chips, events=[(300, lambda: table.stdin.feed(ping + b"\r\x03\r\x01"))])
    assert table.run(board_main, reader_class(kind), loops=1000) == board_main.STOPPED
    assert [args[0] for args in table.calls("host_bytes")] == [ping + b"\r"]
    assert bytes(table.stdin.pending) == b"\r\x01"  # left for MicroPython's prompt (mpremote)
    assert table.stdout.data.endswith(board_main.STOP_MESSAGE)
    assert table.interrupts == [-1, 3]
    assert all(pin.level == 0 for pin in table.machine.pins.values())
    assert table.time.elapsed() < 400


@pytest.mark.parametrize("kind", READERS)
def test_a_pico_w_uses_its_led_pin_and_measures_no_supply(board_main: Any, kind: str) -> None:
    table = Table({0: FakeLIS3DH(), 1: FakeLIS3DH()}, machine_name=PICO_W)
    table.run(board_main, reader_class(kind), loops=150)
    assert table.reader.kwargs["board"] == "pico_w"
    assert set(table.machine.pins) == {14, 15, "LED"}
    assert table.machine.adcs == [4] and table.calls("power") == []
    said = [bool(r) for name, _, r in table.reader.calls if name == "status_led"]
    assert runs([bool(v) for v in table.machine.pins["LED"].history]) == runs(
        [False] + said + [False]
    )


@pytest.mark.parametrize("kind", READERS)
def test_one_die_without_its_led(
    board_main: Any, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    monkeypatch.setattr(board_main, "DICE", 1)
    monkeypatch.setattr(board_main, "DIE_LEDS_FITTED", (False, True))
    table = Table({0: FakeLIS3DH()})
    table.run(board_main, reader_class(kind), loops=150)
    assert table.reader.kwargs["dice"] == 1 and table.reader.kwargs["leds"] == (False,)
    assert set(table.machine.buses) == {0}
    assert set(table.machine.pins) == {25}
    assert not [args for args in table.calls("die_led")]
    assert {s[0] for s in table.calls("sample")} == {0}


def test_the_loop_keeps_its_pace_and_takes_at_most_rx_limit_bytes_a_pass(board_main: Any) -> None:
    table = Table({0: FakeLIS3DH(), 1: FakeLIS3DH()})
    table.stdin.feed(b"x" * 600)
    table.run(board_main, FakeReader, loops=100)
    sizes = [len(args[0]) for args in table.calls("host_bytes")]
    assert sizes == [256, 256, 88]
    assert table.time.elapsed() == 100 * board_main.LOOP_MS


def test_describe_gives_short_words(board_main: Any) -> None:
    assert board_main.describe(OSError(5)) == "i2c-no-answer"
    assert board_main.describe(OSError(110)) == "i2c-timeout"
    assert board_main.describe(OSError(19)) == "i2c-errno-19"
    assert board_main.describe(OSError("wrong-chip: WHO_AM_I ...")) == "wrong-chip"
    assert board_main.describe(OSError("sensor-reset: ...")) == "sensor-reset"
    assert board_main.describe(OSError("something else")) == "sensor-error"
    assert board_main.describe(OSError()) == "sensor-error"


def test_the_boot_id_changes_with_the_adc_noise(board_main: Any) -> None:
    noise = iter(range(1000))
    machine = SimpleNamespace(ADC=lambda channel: SimpleNamespace(read_u16=lambda: next(noise)))
    ids = {board_main.draw_boot_id(machine, FakeTime()) for _ in range(5)}
    assert len(ids) == 5 and all(len(i) == 8 for i in ids)


def test_importing_main_under_cpython_does_not_start_the_loop(board_main: Any) -> None:
    assert callable(board_main.main) and callable(board_main.run)
    assert board_main.is_wireless(PICO_W) and not board_main.is_wireless(PICO)
    assert board_main.is_wireless("Raspberry Pi Pico 2 W with RP2350")


# -- What MicroPython cannot run ------------------------------------------------------------------

MAIN_MAY_IMPORT = {"machine", "micropython", "sys", "select", "time", "gc", "companion_dice"}


@pytest.mark.parametrize(
    "path", [MAIN_PY, FIRMWARE / "companion_dice" / "lis3dh.py"], ids=["main.py", "lis3dh.py"]
)
def test_only_what_micropython_runs(path: Path) -> None:
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        where = f"{path.name}:{getattr(node, 'lineno', '?')}"
        assert not isinstance(node, (ast.AnnAssign, ast.NamedExpr, ast.Match, ast.JoinedStr)), where
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            arguments = node.args.args + node.args.kwonlyargs + node.args.posonlyargs
            assert all(a.annotation is None for a in arguments), where
            assert getattr(node, "returns", None) is None, where
        if isinstance(node, ast.Import):
            modules = {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            modules = {(node.module or "").split(".")[0]}
        else:
            continue
        allowed = MAIN_MAY_IMPORT if path == MAIN_PY else set()
        assert modules <= allowed, f"{where} imports {modules}"
