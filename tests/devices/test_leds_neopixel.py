"""The NeoPixel drivers: the exact bytes Adafruit's libraries send, the brightness limit, the power
budget, chains of named strips, and closing.

The SPI tests run Adafruit's real ``neopixel_spi`` on a recording fake bus (``spi_fake``). With
``COMPANION_TEST_LED_SPI=1`` on a Raspberry Pi whose NeoPixel strip has its data line on GPIO10
(SPI0 MOSI, SPI enabled) they run once more on the real bus, recorded on the way: the same bytes
must go out, and the strip's first pixels flash briefly. ``COMPANION_TEST_LED_PWM=1`` (a Pi 4, as
root, data on GPIO18) and ``COMPANION_TEST_LED_PI5=1`` (a Pi 5, data on GPIO10) do the same for
the other two drivers; ``COMPANION_TEST_LED_PIN`` overrides their pin.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from spi_fake import RecordingSpi, RecordingWrite, decode, recording_neopixel_class

from companion.devices.factory import DeviceSetupError
from companion.devices.leds import SimStrip
from companion.devices.leds_neopixel import (
    Chain,
    ChainSegment,
    NeoPixelPi5Strip,
    NeoPixelPwmStrip,
    NeoPixelSetupError,
    NeoPixelSpiStrip,
    PowerBudget,
    PowerBudgetError,
    check_power_budget,
    frame_amps,
    open_neopixel_strips,
    spi_frame_bytes,
)

RED, GREEN, BLUE, WHITE, OFF = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255), (0, 0, 0)

RESET = bytes(64)  # neopixel_spi: 80 us low at 6.4 MHz, before and after every frame
LIBRARY_MISSING = "adafruit-circuitpython-neopixel-spi is not installed: pip install -e '.[test]'"


def real(variable: str, what: str) -> None:
    if os.environ.get(variable) != "1":
        pytest.skip(
            f"real {what} not tested: set {variable}=1 on a Raspberry Pi with a NeoPixel "
            f"strip wired for it"
        )


def real_pin(default: int) -> int:
    return int(os.environ.get("COMPANION_TEST_LED_PIN", default))


@pytest.fixture(params=["fake", "real"])
def spi(request) -> Iterator[RecordingSpi]:
    """A recording SPI bus: a fake, or the Pi's SPI0 (``board.SPI()``) recorded on the way."""
    pytest.importorskip("neopixel_spi", reason=LIBRARY_MISSING)
    if request.param == "fake":
        yield RecordingSpi()
        return
    real("COMPANION_TEST_LED_SPI", "SPI LEDs (data line on GPIO10)")
    import board

    bus = board.SPI()
    try:
        yield RecordingSpi(bus)
    finally:
        try:
            NeoPixelSpiStrip("cleanup", 60, spi=bus).close()  # every pixel a test lit: off
        finally:
            bus.deinit()


@pytest.fixture(params=["fake", "real"])
def neopixel_class(request) -> tuple[Any, Any]:
    """(a recording ``neopixel.NeoPixel`` class, the pin to give it)."""
    pytest.importorskip("adafruit_pixelbuf", reason=LIBRARY_MISSING)
    if request.param == "fake":
        return recording_neopixel_class(), 18
    real("COMPANION_TEST_LED_PWM", "PWM LEDs (a Pi 4, as root, data line on GPIO18)")
    import board
    import neopixel

    return recording_neopixel_class(neopixel.NeoPixel), getattr(board, f"D{real_pin(18)}")


@pytest.fixture(params=["fake", "real"])
def pi5_write(request) -> tuple[RecordingWrite, Any]:
    """(a recording ``neopixel_write``, the pin to give it)."""
    if request.param == "fake":
        return RecordingWrite(), "GPIO10"
    real("COMPANION_TEST_LED_PI5", "Pi 5 LEDs (data line on GPIO10)")
    import board
    from adafruit_raspberry_pi5_neopixel_write import free_pio, neopixel_write

    return RecordingWrite(neopixel_write, free_pio), getattr(board, f"D{real_pin(10)}")


def spi_strip(spi: RecordingSpi, length: int, **options: Any) -> NeoPixelSpiStrip:
    return NeoPixelSpiStrip("spi0", length, spi=spi, **options)


# -- the bytes on the wire -------------------------------------------------------------------


def test_a_two_pixel_frame_is_grb_one_spi_byte_per_bit_between_resets(spi) -> None:
    strip = spi_strip(spi, 2)
    # opening asks the bus for its actual rate (for the reset's length): lock, configure, unlock
    assert spi.configures == [{"baudrate": 6_400_000, "polarity": 0, "phase": 0, "bits": 8}]
    assert spi.writes == [] and not spi.locked

    strip.show([(255, 0, 0), (0x0F, 0xA5, 0x01)])

    zero, full = b"\xc0" * 8, b"\xf0" * 8  # 0b11000000 is a WS2812 0 bit, 0b11110000 a 1 bit
    expected = (
        RESET
        + zero
        + full
        + zero  # pixel 0: G 0x00, R 0xFF, B 0x00
        + bytes([0xF0, 0xC0, 0xF0, 0xC0, 0xC0, 0xF0, 0xC0, 0xF0])  # pixel 1: G 0xA5
        + bytes([0xC0, 0xC0, 0xC0, 0xC0, 0xF0, 0xF0, 0xF0, 0xF0])  # R 0x0F
        + b"\xc0" * 7
        + b"\xf0"  # B 0x01
        + RESET
    )
    assert spi.writes == [expected]
    assert len(expected) == spi_frame_bytes(2) == 2 * 24 + 2 * 64
    # every frame: lock, configure at the library's rate, one write, unlock
    assert spi.events[-4:] == ["lock", "configure", "write", "unlock"]
    assert spi.configures[-1]["baudrate"] == 6_400_000 and not spi.locked
    strip.close()


def test_the_reset_follows_the_bus_actual_rate() -> None:
    pytest.importorskip("neopixel_spi", reason=LIBRARY_MISSING)
    spi = RecordingSpi(actual_hz=3_200_000)  # a bus that can only reach half the rate
    strip = spi_strip(spi, 1)
    strip.show([BLUE])
    assert decode(spi.writes[-1], reset=32) == [BLUE]


def test_another_pixel_order(spi) -> None:
    strip = spi_strip(spi, 2, pixel_order="RGB")
    strip.show([RED, (1, 2, 3)])
    assert decode(spi.writes[-1], "RGB") == [RED, (1, 2, 3)]
    assert spi.writes[-1][64:72] == b"\xf0" * 8  # red first
    with pytest.raises(NeoPixelSetupError, match="pixel order must be one of"):
        spi_strip(RecordingSpi(), 2, pixel_order="RGBW")


def test_other_bit_patterns_are_passed_to_the_library(spi) -> None:
    strip = spi_strip(spi, 1, bit0=0b10000000)
    strip.show([(0, 0, 0x80)])
    assert spi.writes[-1][64:88] == b"\x80" * 16 + b"\xf0" + b"\x80" * 7
    assert decode(spi.writes[-1], bit0=0b10000000) == [(0, 0, 0x80)]


def test_a_frame_longer_than_one_spidev_write_is_refused(monkeypatch) -> None:
    pytest.importorskip("neopixel_spi", reason=LIBRARY_MISSING)
    monkeypatch.delenv("SPI_BUFSIZE", raising=False)
    bus = RecordingSpi()
    assert spi_frame_bytes(165) == 4088
    spi_strip(bus, 165).close()
    with pytest.raises(
        NeoPixelSetupError,
        match=r"166 pixels take 4112 bytes .* at most 165 "
        r"pixels .* spidev.bufsiz",
    ):
        spi_strip(RecordingSpi(), 166)
    monkeypatch.setenv("SPI_BUFSIZE", "65536")  # as Adafruit_PureIO reads it
    spi_strip(RecordingSpi(), 166).close()


# -- the brightness limit ----------------------------------------------------------------------


def test_the_brightness_limit_scales_every_channel(spi) -> None:
    strip = spi_strip(spi, 3, max_brightness=0.5)  # level 128 of 255
    strip.show([WHITE, (100, 2, 1), (0, 0, 0)])
    assert decode(spi.writes[-1]) == [(128, 128, 128), (50, 1, 1), OFF]
    assert strip.sent == ((128, 128, 128), (50, 1, 1), OFF)

    full = spi_strip(spi, 1, max_brightness=1.0)  # the default: frames go out as they are
    full.show([(1, 254, 255)])
    assert decode(spi.writes[-1]) == [(1, 254, 255)]
    for bad in (0, 0.0, -0.1, 1.01, True, "1"):
        with pytest.raises(NeoPixelSetupError, match="max brightness must be above 0"):
            spi_strip(RecordingSpi(), 1, max_brightness=bad)


# -- the power budget --------------------------------------------------------------------------


def test_the_start_up_check_refuses_a_worst_case_over_the_supply() -> None:
    # 80 pixels at full white, brightness 0.5 (level 128/255): 80 * 60 mA * 128/255 = 2.41 A
    with pytest.raises(PowerBudgetError) as refused:
        check_power_budget(80, 0.5, 2.0)
    message = str(refused.value)
    assert "80 pixels at full white and max brightness 0.50 draw up to 2.41 A" in message
    assert "(60 mA per pixel at full white)" in message
    assert "more than the supply's 2.00 A (devices.led_supply_amps)" in message
    assert "lower devices.led_max_brightness to 0.41 or less" in message
    assert "a supply that spares at least 2.5 A" in message
    assert 'devices.led_over_budget = "cap"' in message
    assert isinstance(refused.value, ValueError) and isinstance(refused.value, DeviceSetupError)
    # the suggested brightness does fit; exactly the budget fits
    assert check_power_budget(80, 0.41, 2.0) <= 2.0
    assert check_power_budget(2, 1.0, 0.12) == pytest.approx(0.12)
    with pytest.raises(PowerBudgetError, match="positive number of amperes"):
        check_power_budget(2, 1.0, 0)


def test_a_strip_over_the_budget_is_refused_before_its_bus_is_touched() -> None:
    bus = RecordingSpi()
    budget = PowerBudget(0.1)
    with pytest.raises(
        PowerBudgetError, match="2 pixels at full white and max brightness 1.00 draw up to 0.12 A"
    ):
        spi_strip(bus, 2, budget=budget)
    assert bus.events == []
    # strips sharing one supply are counted together
    pytest.importorskip("neopixel_spi", reason=LIBRARY_MISSING)
    shared = PowerBudget(0.12)
    first = spi_strip(RecordingSpi(), 1, budget=shared)
    with pytest.raises(PowerBudgetError, match="3 pixels"):
        spi_strip(RecordingSpi(), 2, budget=shared)
    spi_strip(RecordingSpi(), 1, budget=shared)  # the refused one was not counted
    first.close()


def test_frames_over_the_budget_are_scaled_down_to_fit(spi) -> None:
    budget = PowerBudget(0.12, refuse=False)  # 2 pixels' worth of full white
    strip = spi_strip(spi, 4, budget=budget)
    strip.show([WHITE, WHITE, OFF, OFF])  # exactly the budget: untouched
    assert decode(spi.writes[-1]) == [WHITE, WHITE, OFF, OFF] and budget.capped == 0

    strip.show([WHITE] * 4)  # 0.24 A: every channel halved, rounded down
    assert decode(spi.writes[-1]) == [(127, 127, 127)] * 4
    assert budget.capped == 1
    assert frame_amps(strip.sent) == pytest.approx(4 * 3 * 127 / 12750) and strip.amps <= 0.12
    assert budget.drawn_amps <= 0.12

    strip.show([RED, (255, 255, 0), BLUE, WHITE])  # 0.14 A: scaled by 1530/1785 units
    assert decode(spi.writes[-1]) == [(218, 0, 0), (218, 218, 0), (0, 0, 218), (218, 218, 218)]
    assert strip.amps <= 0.12


def test_the_cap_counts_every_strip_on_the_supply() -> None:
    pytest.importorskip("neopixel_spi", reason=LIBRARY_MISSING)
    budget = PowerBudget(0.12, refuse=False)
    a_bus, b_bus = RecordingSpi(), RecordingSpi()
    a, b = spi_strip(a_bus, 2, budget=budget), spi_strip(b_bus, 2, budget=budget)
    a.show([WHITE, WHITE])  # the whole budget
    b.show([WHITE, WHITE])
    assert decode(b_bus.writes[-1]) == [OFF, OFF]
    a.show([WHITE, OFF])
    b.show([WHITE, WHITE])
    assert decode(b_bus.writes[-1]) == [(127, 127, 127)] * 2
    a.close()  # a closed strip draws nothing
    b.show([WHITE, WHITE])
    assert decode(b_bus.writes[-1]) == [WHITE, WHITE]


def test_brightness_is_limited_before_the_cap(spi) -> None:
    budget = PowerBudget(0.12, refuse=False)
    strip = spi_strip(spi, 4, max_brightness=0.5, budget=budget)
    strip.show([WHITE] * 4)  # 4 * 3 * 128 = 1536 units > 1530: capped, just
    assert decode(spi.writes[-1]) == [(127, 127, 127)] * 4


# -- chains --------------------------------------------------------------------------------------


def test_a_chain_maps_named_strips_to_offsets_and_sends_once_per_frame(spi) -> None:
    physical = spi_strip(spi, 5)
    chain = Chain(physical, [("table", 2), ("score", 1), ("tower", 2)])
    table, score, tower = chain.segments.values()
    assert [(s.name, s.offset, s.length) for s in (table, score, tower)] == [
        ("table", 0, 2),
        ("score", 2, 1),
        ("tower", 3, 2),
    ]
    assert all(isinstance(s, ChainSegment) for s in (table, score, tower))

    sent = len(spi.writes)
    table.show([RED, GREEN])
    score.show([BLUE])
    assert len(spi.writes) == sent  # waiting for the rest of the frame
    tower.show([WHITE, (1, 2, 3)])
    assert len(spi.writes) == sent + 1
    assert decode(spi.writes[-1]) == [RED, GREEN, BLUE, WHITE, (1, 2, 3)]

    # the next frame, in any order: one send again
    tower.show([OFF, OFF])
    table.show([BLUE, BLUE])
    score.show([OFF])
    assert len(spi.writes) == sent + 2
    assert decode(spi.writes[-1]) == [BLUE, BLUE, OFF, OFF, OFF]
    assert chain.frame == (BLUE, BLUE, OFF, OFF, OFF)


def test_a_segment_shown_again_before_the_others_sends_at_once(spi) -> None:
    chain = Chain(spi_strip(spi, 3), [("table", 2), ("score", 1)])
    table, score = chain.segments["table"], chain.segments["score"]
    sent = len(spi.writes)
    table.show([RED, RED])
    table.show([GREEN, GREEN])  # a new frame began: send what there is
    assert len(spi.writes) == sent + 1 and decode(spi.writes[-1]) == [GREEN, GREEN, OFF]
    score.show([BLUE])
    chain.flush()
    assert decode(spi.writes[-1]) == [GREEN, GREEN, BLUE]
    chain.flush()  # nothing pending: nothing sent
    assert len(spi.writes) == sent + 2


def test_a_chain_of_one_strip_sends_every_frame(spi) -> None:
    chain = Chain(spi_strip(spi, 2), [("tower", 2)])
    chain.segments["tower"].show([RED, GREEN])
    assert decode(spi.writes[-1]) == [RED, GREEN]
    chain.segments["tower"].show([GREEN, RED])
    assert decode(spi.writes[-1]) == [GREEN, RED]


def test_chain_show_sends_several_strips_at_once_and_checks_them() -> None:
    physical = SimStrip("chain", 4)  # a chain works on any LedStrip
    chain = Chain(physical, [("a", 1), ("b", 3)])
    chain.show({"b": [RED, GREEN, BLUE]})
    assert physical.count == 1 and physical.latest().pixels == (OFF, RED, GREEN, BLUE)
    for frames, problem in [
        ({"c": [RED]}, "has no strip 'c'"),
        ({"a": [RED, RED]}, "has 1 pixels, frame has 2"),
        ({"a": [(256, 0, 0)]}, "channels must be ints 0..255"),
    ]:
        with pytest.raises(ValueError, match=problem):
            chain.show(frames)
    with pytest.raises(ValueError, match="channels must be ints"):
        chain.segments["b"].show([RED, RED, (0, 0, -1)])
    assert physical.count == 1
    for segments, problem in [
        ([("a", 1), ("b", 2)], ("its strips have 3 pixels, the physical strip 4")),
        ([("a", 2), ("a", 2)], "lists a strip twice"),
        ([], "has no strips"),
    ]:
        with pytest.raises(NeoPixelSetupError, match=problem):
            Chain(SimStrip("chain", 4), segments)


# -- closing -------------------------------------------------------------------------------------


def test_close_turns_every_pixel_off(spi) -> None:
    strip = spi_strip(spi, 3)
    strip.show([RED, GREEN, BLUE])
    strip.close()
    assert decode(spi.writes[-1]) == [OFF, OFF, OFF] and strip.sent == (OFF,) * 3
    writes = len(spi.writes)
    strip.close()  # again: nothing
    assert len(spi.writes) == writes
    with pytest.raises(RuntimeError, match="is closed"):
        strip.show([RED, RED, RED])
    assert not spi.deinited  # a bus it was given stays open


def test_closing_a_segment_darkens_it_and_the_last_closes_the_strip(spi) -> None:
    physical = spi_strip(spi, 3)
    chain = Chain(physical, [("table", 2), ("score", 1)])
    chain.show({"table": [RED, GREEN], "score": [BLUE]})
    chain.segments["score"].close()
    assert decode(spi.writes[-1]) == [RED, GREEN, OFF]
    with pytest.raises(RuntimeError, match="'score' is closed"):
        chain.segments["score"].show([BLUE])
    chain.segments["table"].show([GREEN, GREEN])  # the open segments go on
    assert decode(spi.writes[-1]) == [GREEN, GREEN, OFF]
    chain.segments["table"].close()
    assert decode(spi.writes[-1]) == [OFF, OFF, OFF]
    with pytest.raises(RuntimeError, match="is closed"):
        physical.show([RED] * 3)
    chain.close()  # everything already closed: nothing more


# -- the other drivers ---------------------------------------------------------------------------


def test_the_pwm_driver_gives_neopixel_grb_frames(neopixel_class) -> None:
    cls, pin = neopixel_class
    strip = NeoPixelPwmStrip("gpio18", 2, pin=pin, neopixel_class=cls, max_brightness=0.5)
    (pixels,) = cls.instances
    assert pixels.options == {"pixel_order": "GRB", "auto_write": False, "brightness": 1.0}
    strip.show([(255, 0, 0), (0x0F, 0xA5, 0x01)])
    assert pixels.transmitted[-1] == bytes([0, 128, 0, 0x53, 0x08, 0x01])
    strip.close()
    assert pixels.transmitted[-1] == bytes(6) and pixels.deinited
    with pytest.raises(NeoPixelSetupError, match="drives GPIO 12, 13, 18, 19, 21, not 4"):
        NeoPixelPwmStrip("gpio4", 2, pin=4)


def test_the_pi5_driver_writes_grb_bytes(pi5_write) -> None:
    write, pin = pi5_write
    strip = NeoPixelPi5Strip("gpio10", 2, pin=pin, write=write, release=write.release)
    strip.show([(255, 0, 0), (0x0F, 0xA5, 0x01)])
    assert write.writes[-1] == (pin, bytes([0, 255, 0, 0xA5, 0x0F, 0x01]))
    rgb = NeoPixelPi5Strip("gpio10", 1, pin=pin, write=write, pixel_order="RGB")
    rgb.show([(1, 2, 3)])
    assert write.writes[-1] == (pin, bytes([1, 2, 3]))
    strip.close()
    assert write.writes[-1] == (pin, bytes(6)) and write.released == 1


# -- opening what the configuration asks for ----------------------------------------------------

LENGTHS = {"table": 35, "score": 8, "tower": 16}


def test_open_strips_chains_the_named_strips_on_one_bus(spi) -> None:
    strips = open_neopixel_strips("spi", LENGTHS, spi=[spi])  # brightness 0.5, 2 A by default
    assert list(strips) == ["table", "score", "tower"]
    segments = list(strips.values())
    assert all(isinstance(s, ChainSegment) for s in segments)
    chain = segments[0].chain
    assert all(s.chain is chain for s in segments) and chain.strip.length == 59
    assert [s.offset for s in segments] == [0, 35, 43]
    assert len(spi.configures) == 1  # one bus opened once

    for name, strip in strips.items():
        strip.show([WHITE if name == "score" else OFF] * strip.length)
    assert len(spi.writes) == 1 and len(spi.writes[0]) == spi_frame_bytes(59)
    assert decode(spi.writes[0]) == [OFF] * 35 + [(128, 128, 128)] * 8 + [OFF] * 16
    for strip in strips.values():
        strip.close()
    assert decode(spi.writes[-1]) == [OFF] * 59


def test_open_strips_with_two_chains_and_strips_left_out() -> None:
    pytest.importorskip("neopixel_spi", reason=LIBRARY_MISSING)
    bus0, bus1 = RecordingSpi(), RecordingSpi()
    strips = open_neopixel_strips(
        "spi",
        LENGTHS,
        chains=[["table"], ["tower"]],
        spi=[bus0, bus1],
        max_brightness=1.0,
        supply_amps=3.06,
    )
    assert list(strips) == ["table", "tower"]  # the score track has no LEDs here
    strips["tower"].show([RED] * 16)
    assert decode(bus1.writes[-1]) == [RED] * 16 and bus0.writes == []
    assert strips["table"].chain.strip.name == "spi0"
    assert strips["tower"].chain.strip.name == "spi1"


def test_open_strips_refuses_a_bad_configuration_before_opening_anything() -> None:
    bus = RecordingSpi()
    cases = [
        ({"driver": "ws281x"}, "LED driver must be one of spi, pwm, pi5"),
        (
            {"chains": [["table", "dice"]]},
            ("names 'dice', which the table does not draw; it draws table, score, tower"),
        ),
        ({"chains": [["table", "score"], ["score"]]}, "list strip 'score' twice"),
        ({"chains": []}, "lists no strips"),
        ({"chains": [["table"], ["score"], ["tower"]]}, "2 buses for 3 chains"),
        ({"driver": "pwm", "chains": [["table"], ["tower"]]}, "drives one strip only"),
        (
            {"driver": "pi5", "chains": [["table"], ["tower"]]},
            "1 data pins were given for 2 chains",
        ),
        ({"driver": "pi5", "chains": [["table"], ["tower"]], "pins": [10, 10]}, "a pin twice"),
        ({"over_budget": "ignore"}, 'must be "refuse" or "cap"'),
        ({"pixel_order": "WRGB"}, "pixel order must be one of"),
        (
            {"max_brightness": 1.0},
            (
                r"59 pixels at full white and max brightness 1.00 draw up "
                r"to 3.54 A .* 2.00 A .* 0.56 or less"
            ),
        ),
    ]
    for options, problem in cases:
        arguments: dict[str, Any] = {"driver": "spi", **options}
        driver = arguments.pop("driver")
        with pytest.raises(NeoPixelSetupError, match=problem):
            open_neopixel_strips(driver, LENGTHS, spi=[bus], **arguments)
    assert bus.events == []


def test_open_strips_caps_instead_of_refusing_when_told() -> None:
    pytest.importorskip("neopixel_spi", reason=LIBRARY_MISSING)
    bus = RecordingSpi()
    strips = open_neopixel_strips(
        "spi", LENGTHS, spi=[bus], max_brightness=1.0, supply_amps=2.0, over_budget="cap"
    )
    chain = strips["table"].chain
    chain.show({name: [WHITE] * n for name, n in LENGTHS.items()})  # 3.54 A asked
    assert frame_amps(decode(bus.writes[-1])) <= 2.0
    assert chain.strip.amps == pytest.approx(2.0, abs=0.01)


def test_a_failing_second_chain_closes_the_first() -> None:
    pytest.importorskip("neopixel_spi", reason=LIBRARY_MISSING)
    bus0 = RecordingSpi()
    with pytest.raises(NeoPixelSetupError, match="take 4112 bytes"):
        open_neopixel_strips(
            "spi",
            {"a": 1, "b": 166},
            chains=[["a"], ["b"]],
            spi=[bus0, RecordingSpi()],
            max_brightness=0.01,
        )
    assert decode(bus0.writes[-1]) == [OFF]  # the first chain was opened, then turned off


# -- hardware libraries stay out until a real driver is opened ----------------------------------


def test_importing_the_drivers_imports_no_hardware_library() -> None:
    code = (
        "import sys, companion.devices.leds_neopixel\n"
        "found = [m for m in ('board', 'busio', 'neopixel', 'neopixel_spi', "
        "'adafruit_pixelbuf', 'adafruit_bus_device', "
        "'adafruit_raspberry_pi5_neopixel_write', 'digitalio') if m in sys.modules]\n"
        "assert not found, found\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=30)
