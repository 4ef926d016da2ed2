"""LED strips: a row of RGB pixels, set one whole frame at a time.

``LedStrip.show`` validates a frame and hands it to the driver's ``_write``.
Only the simulated strip lives here for now; it records the frames it is
shown so that tests and the phone UI can see them.
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import TypeAlias

Pixel: TypeAlias = tuple[int, int, int]
"""One pixel's (red, green, blue), each 0..255."""

OFF: Pixel = (0, 0, 0)

#: The LED test pattern: every strip red, green, blue, then white (the doctor shows it, and so
#: does the host's LED test on the running table).
TEST_PATTERN: tuple[Pixel, ...] = ((255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255))


@dataclass(frozen=True)
class Frame:
    """A frame a strip showed: its number, when (``time.monotonic()``), its pixels."""

    seq: int
    at: float
    pixels: tuple[Pixel, ...]


def _check_pixel(index: int, pixel: object) -> Pixel:
    if not isinstance(pixel, Sequence) or isinstance(pixel, (str, bytes)) or len(pixel) != 3:
        raise ValueError(f"pixel {index} must be (r, g, b), got {pixel!r}")
    for channel in pixel:
        if not isinstance(channel, int) or isinstance(channel, bool) or not 0 <= channel <= 255:
            raise ValueError(f"pixel {index} {tuple(pixel)!r}: channels must be ints 0..255")
    r, g, b = pixel
    return (r, g, b)


def checked_frame(pixels: Sequence[object]) -> tuple[Pixel, ...]:
    """``pixels`` as a tuple of (r, g, b) tuples of ints 0..255, or ``ValueError`` naming the
    first bad pixel. A frame that is already such tuples (every frame the table draws) is
    checked at C speed, without a Python call per pixel: the animator shows 20 frames a second."""
    frame = tuple(pixels)
    if set(map(type, frame)) == {tuple} and set(map(len, frame)) == {3}:
        channels = tuple(chain.from_iterable(frame))
        if set(map(type, channels)) == {int} and 0 <= min(channels) and max(channels) <= 255:
            return frame  # type: ignore[return-value]
    return tuple(_check_pixel(index, pixel) for index, pixel in enumerate(frame))


class LedStrip(ABC):
    """A strip of ``length`` pixels, identified by ``name``."""

    def __init__(self, name: str, length: int) -> None:
        if not isinstance(length, int) or length < 1:
            raise ValueError(f"strip length must be a positive int, got {length!r}")
        self.name = name
        self.length = length

    def show(self, pixels: Sequence[Pixel]) -> None:
        """Show one frame: exactly ``length`` pixels of ints 0..255.

        Raises ``ValueError`` for a frame of the wrong length or a bad pixel.
        """
        if len(pixels) != self.length:
            raise ValueError(
                f"strip {self.name!r} has {self.length} pixels, frame has {len(pixels)}"
            )
        self._write(checked_frame(pixels))

    @abstractmethod
    def _write(self, pixels: tuple[Pixel, ...]) -> None:
        """Send a validated frame to the strip."""

    @abstractmethod
    def close(self) -> None:
        """Release the strip; calling it again does nothing."""


class SimStrip(LedStrip):
    """A strip that records frames instead of lighting LEDs; thread-safe.

    Keeps the last ``keep`` frames, counts all of them, and calls
    ``on_frame(name, frame)`` after recording each one.
    """

    def __init__(
        self,
        name: str,
        length: int,
        *,
        keep: int = 2000,
        on_frame: Callable[[str, Frame], None] | None = None,
    ) -> None:
        super().__init__(name, length)
        if keep < 1:
            raise ValueError(f"keep must be >= 1, got {keep}")
        self._on_frame = on_frame
        self._lock = threading.Lock()
        self._frames: deque[Frame] = deque(maxlen=keep)
        self._count = 0
        self._closed = False

    def _write(self, pixels: tuple[Pixel, ...]) -> None:
        with self._lock:
            if self._closed:
                raise RuntimeError(f"LED strip {self.name!r} is closed")
            frame = Frame(self._count, time.monotonic(), pixels)
            self._frames.append(frame)
            self._count += 1
        if self._on_frame is not None:
            self._on_frame(self.name, frame)

    @property
    def frames(self) -> tuple[Frame, ...]:
        """The frames kept, oldest first (a snapshot)."""
        with self._lock:
            return tuple(self._frames)

    @property
    def count(self) -> int:
        """How many frames were ever shown."""
        with self._lock:
            return self._count

    def latest(self) -> Frame | None:
        """The last frame shown, or None before the first."""
        with self._lock:
            return self._frames[-1] if self._frames else None

    def close(self) -> None:
        """Refuse further frames; the recorded ones stay readable."""
        with self._lock:
            self._closed = True
