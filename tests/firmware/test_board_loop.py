"""The dice reader's board layer under CPython: ``firmware/main.py``'s loop against a fake
``machine`` module, a fake clock and a fake USB link (``board_fakes``), with a small fake
reader and (when it can be imported) the real ``Reader``; and what MicroPython cannot run.
``test_board_lis3dh.py`` tests the LIS3DH driver."""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from board_fakes import (
    PICO,
    PICO_W,
    READERS,
    UID,
    FakeLIS3DH,
    FakeReader,
    FakeTime,
    Table,
    reader_class,
    runs,
)

from companion.devices.dice_protocol import encode, parse_line

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
