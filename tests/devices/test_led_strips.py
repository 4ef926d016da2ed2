"""The simulated LED strip."""

from __future__ import annotations

import threading
import time

import pytest

from companion.devices.leds import Frame, LedStrip, SimStrip

RED, GREEN, OFF = (255, 0, 0), (0, 255, 0), (0, 0, 0)


def test_show_records_frames_in_order() -> None:
    strip = SimStrip("ring", 3)
    assert strip.latest() is None and strip.count == 0 and strip.frames == ()
    before = time.monotonic()
    strip.show([RED, GREEN, OFF])
    strip.show([[0, 0, 1], (2, 3, 4), OFF])  # any 3-sequence is accepted and stored as a tuple
    after = time.monotonic()
    first, second = strip.frames
    assert (first.seq, first.pixels) == (0, (RED, GREEN, OFF))
    assert (second.seq, second.pixels) == (1, ((0, 0, 1), (2, 3, 4), OFF))
    assert before <= first.at <= second.at <= after
    assert strip.latest() == second
    assert strip.count == 2
    assert isinstance(strip, LedStrip) and (strip.name, strip.length) == ("ring", 3)


def test_only_the_last_frames_are_kept_but_all_are_counted() -> None:
    strip = SimStrip("ring", 1, keep=3)
    for level in range(10):
        strip.show([(level, level, level)])
    assert [frame.seq for frame in strip.frames] == [7, 8, 9]
    assert strip.count == 10
    assert strip.latest().pixels == ((9, 9, 9),)


def test_on_frame_is_called_after_recording() -> None:
    seen: list[tuple[str, Frame, Frame | None]] = []

    def on_frame(name: str, frame: Frame) -> None:
        seen.append((name, frame, strip.latest()))

    strip = SimStrip("bar", 2, on_frame=on_frame)
    strip.show([RED, RED])
    ((name, frame, latest),) = seen
    assert name == "bar" and frame.pixels == (RED, RED) and latest == frame


@pytest.mark.parametrize(
    ("pixels", "reason"),
    [
        ([RED], "has 2 pixels, frame has 1"),
        ([RED, RED, RED], "has 2 pixels, frame has 3"),
        ([RED, (256, 0, 0)], r"pixel 1 \(256, 0, 0\): channels must be ints 0..255"),
        ([(-1, 0, 0), RED], "pixel 0"),
        ([RED, (1.0, 0, 0)], "channels must be ints"),
        ([RED, (True, 0, 0)], "channels must be ints"),
        ([RED, (0, 0)], r"pixel 1 must be \(r, g, b\)"),
        ([RED, "red"], r"must be \(r, g, b\)"),
        ([RED, 7], r"must be \(r, g, b\)"),
    ],
)
def test_bad_frames_are_refused_and_not_recorded(pixels, reason) -> None:
    strip = SimStrip("bar", 2)
    with pytest.raises(ValueError, match=reason):
        strip.show(pixels)
    assert strip.count == 0


@pytest.mark.parametrize(("length", "keep"), [(0, 1), (-3, 1), (2, 0)])
def test_bad_sizes_are_refused(length, keep) -> None:
    with pytest.raises(ValueError):
        SimStrip("bar", length, keep=keep)


def test_a_closed_strip_refuses_frames_but_keeps_its_record() -> None:
    strip = SimStrip("bar", 1)
    strip.show([RED])
    strip.close()
    with pytest.raises(RuntimeError, match="closed"):
        strip.show([GREEN])
    assert strip.count == 1 and strip.latest().pixels == (RED,)


def test_frames_from_many_threads_are_all_recorded_once() -> None:
    strip = SimStrip("ring", 4, keep=10_000)
    start = threading.Barrier(8)

    def painter(level: int) -> None:
        start.wait()
        for _ in range(200):
            strip.show([(level, 0, 0)] * 4)

    threads = [threading.Thread(target=painter, args=(level,)) for level in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    frames = strip.frames
    assert strip.count == len(frames) == 1600
    assert [frame.seq for frame in frames] == list(range(1600))
    assert all(a.at <= b.at for a, b in zip(frames, frames[1:]))
