"""Chains of named strips on one physical NeoPixel strip (:mod:`.leds_neopixel` opens them).

**Chains.** The renderer draws named strips (``table``, ``score``, ``tower``); a maker usually
daisy-chains them on one data line. A :class:`Chain` maps those names to consecutive offsets of one
physical strip, in wiring order from the Pi, and sends the whole chain once per frame: each named
strip is a :class:`ChainSegment`, whose ``show`` updates its part of the chain's frame; the chain
sends when every open segment has been shown since its last send (the table shows every strip on
every frame, so: once per frame), or at once when a segment is shown again before the others (so a
caller that draws only some segments still lights them). :meth:`Chain.show` sends several
segments at once. A second chain needs a second output (SPI bus 1, or another pin on a Pi 5); the
PWM driver has only one. One chain is the default and the recommended wiring.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence

from .errors import NeoPixelSetupError
from .leds import OFF, LedStrip, Pixel, checked_frame


class ChainSegment(LedStrip):
    """A named strip that is ``length`` pixels of a :class:`Chain`, from ``offset``."""

    def __init__(self, chain: Chain, name: str, offset: int, length: int) -> None:
        super().__init__(name, length)
        self.chain = chain
        self.offset = offset

    def _write(self, pixels: tuple[Pixel, ...]) -> None:
        self.chain._update({self.name: pixels})

    def close(self) -> None:
        """Turn this segment's pixels off; the last segment closed closes the physical strip."""
        self.chain._close_segment(self.name)


class Chain:
    """Named strips end to end on one physical ``strip``, in wiring order from the Pi.

    ``segments`` lists (name, length); their lengths add up to the strip's. ``self.segments``
    maps each name to its :class:`ChainSegment`. The chain sends the whole strip once per frame
    (see the module's notes); thread-safe.
    """

    def __init__(self, strip: LedStrip, segments: Sequence[tuple[str, int]]) -> None:
        names = [name for name, _ in segments]
        if not names:
            raise NeoPixelSetupError(f"LED chain {strip.name!r} has no strips")
        if len(set(names)) != len(names):
            raise NeoPixelSetupError(f"LED chain {strip.name!r} lists a strip twice: {names}")
        total = sum(n for _, n in segments)
        if total != strip.length:
            raise NeoPixelSetupError(
                f"LED chain {strip.name!r}: its strips have {total} pixels, "
                f"the physical strip {strip.length}"
            )
        self.strip = strip
        self.segments: dict[str, ChainSegment] = {}
        offset = 0
        for name, n in segments:
            self.segments[name] = ChainSegment(self, name, offset, n)
            offset += n
        self._frame: list[Pixel] = [OFF] * strip.length
        self._open = set(names)
        self._pending: set[str] = set()
        self._lock = threading.Lock()

    @property
    def frame(self) -> tuple[Pixel, ...]:
        """The whole chain's current frame (before the strip's brightness limit and cap)."""
        with self._lock:
            return tuple(self._frame)

    def show(self, frames: Mapping[str, Sequence[Pixel]]) -> None:
        """Show several segments' frames, then send the chain once."""
        checked = {}
        for name, pixels in frames.items():
            segment = self.segments.get(name)
            if segment is None:
                raise ValueError(f"LED chain {self.strip.name!r} has no strip {name!r}")
            if len(pixels) != segment.length:
                raise ValueError(
                    f"strip {name!r} has {segment.length} pixels, frame has {len(pixels)}"
                )
            checked[name] = checked_frame(pixels)
        self._update(checked, send=True)

    def flush(self) -> None:
        """Send now what segments have shown since the last send."""
        with self._lock:
            if self._pending:
                self._send()

    def close(self) -> None:
        """Turn the whole chain off and release it."""
        for name in list(self.segments):
            self._close_segment(name)

    def _update(self, frames: Mapping[str, tuple[Pixel, ...]], send: bool = False) -> None:
        with self._lock:
            for name in frames:
                if name not in self._open:
                    raise RuntimeError(f"LED strip {name!r} is closed")
            for name, pixels in frames.items():
                segment = self.segments[name]
                self._frame[segment.offset : segment.offset + segment.length] = pixels
                if name in self._pending:
                    send = True  # a new frame began before the others were shown
                self._pending.add(name)
            if send or self._pending >= self._open:
                self._send()

    def _send(self) -> None:
        self._pending.clear()
        self.strip.show(self._frame)

    def _close_segment(self, name: str) -> None:
        with self._lock:
            if name not in self._open:
                return
            segment = self.segments[name]
            self._open.discard(name)
            self._pending.discard(name)
            self._frame[segment.offset : segment.offset + segment.length] = [OFF] * segment.length
            if self._open:
                self._send()
                return
        self.strip.close()
