"""The host's LED test pattern in the table itself: drawn by frames() for a moment, on a clock."""

from __future__ import annotations

import pytest

from companion.devices.leds import SimStrip
from companion.doctor import PATTERN
from companion.lights import Layout
from companion.table.runtime import LED_TEST_STEP, Table
from companion.table.store import Store


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def table(tmp_path):
    store = Store(tmp_path / "t.db")
    layout = Layout(seats=4)
    clock = Clock()
    t = Table(
        store,
        layout=layout,
        brightness=0.4,
        clock=clock,
        strips={name: SimStrip(name, n) for name, n in layout.strips().items()},
    )
    t.start()
    t.test_clock = clock
    yield t
    t.close()
    store.close()


def test_the_pattern_is_red_green_blue_white_then_the_normal_frames(table):
    normal = table.frames()
    assert table.led_test_colour(table.clock()) is None
    answer = table.call("led_test", "host")
    assert answer == {"ok": True, "seconds": len(PATTERN) * LED_TEST_STEP}
    start = table.test_clock.t
    for i, colour in enumerate(PATTERN):
        for into in (0.0, 0.25, LED_TEST_STEP - 0.001):
            t = start + i * LED_TEST_STEP + into
            assert table.led_test_colour(t) == colour
            lit = tuple(round(c * 0.4) for c in colour)  # at the table's brightness
            frames = table.frames(t)
            assert {name: len(p) for name, p in frames.items()} == table.layout.strips()
            assert all(set(p) == {lit} for p in frames.values())
    end = start + len(PATTERN) * LED_TEST_STEP
    assert table.led_test_colour(end) is None
    assert table.frames(end) == normal
    # the request showed the first colour at once, on every strip
    assert set(table.strips["score"].latest().pixels) == {(102, 0, 0)}
    notes = [e["event"] for e in table.events if e["event"]["type"] == "led_test"]
    assert len(notes) == 1 and "red, green, blue, then white" in notes[0]["text"]


def test_a_new_test_starts_the_pattern_again(table):
    table.call("led_test", "host")
    table.test_clock.t += 1.2  # blue by now
    assert table.led_test_colour(table.clock()) == PATTERN[2]
    table.call("led_test", "host")
    assert table.led_test_colour(table.clock()) == PATTERN[0]
