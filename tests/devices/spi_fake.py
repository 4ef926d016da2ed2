"""Stand-ins for what the NeoPixel drivers write to, recording every byte they are given.

Each can wrap the real thing (``inner``/``base``), forwarding every call after recording it, so
that the same tests check the bytes a real strip on a Raspberry Pi is sent.

* :class:`RecordingSpi`: a ``busio.SPI`` (``try_lock``, ``configure``, ``write``, ``unlock``,
  ``frequency``, ``deinit``), as ``adafruit_bus_device.spi_device.SPIDevice`` uses it;
* :func:`recording_neopixel_class`: a ``neopixel.NeoPixel`` (an Adafruit ``PixelBuf`` on a pin);
* :class:`RecordingWrite`: the Pi 5's ``neopixel_write(pin, buf)`` and ``free_pio()``.

:func:`decode` turns neopixel_spi's SPI bytes back into pixels, checking every byte on the way.
"""

from __future__ import annotations

from typing import Any, ClassVar

Pixel = tuple[int, int, int]

BIT0, BIT1 = 0b11000000, 0b11110000  # neopixel_spi's defaults
RESET = 64  # zero bytes before and after a frame: 80 us at 6.4 MHz


class RecordingSpi:
    """A busio-like SPI bus that records ``configure`` calls and written bytes.

    Like Blinka's bus it refuses ``configure`` and ``write`` without the lock, and its
    ``frequency`` is the last configured baud rate (``actual_hz`` overrides it, as a bus whose
    clock divider cannot reach the rate exactly would).
    """

    def __init__(self, inner: Any = None, *, actual_hz: int | None = None) -> None:
        self.inner = inner
        self.actual_hz = actual_hz
        self.configures: list[dict[str, int]] = []
        self.writes: list[bytes] = []
        self.events: list[str] = []  #: "lock", "configure", "write", "unlock", "deinit"
        self.locked = False
        self.deinited = False
        self._baudrate: int | None = None

    def try_lock(self) -> bool:
        if self.locked or (self.inner is not None and not self.inner.try_lock()):
            return False
        self.locked = True
        self.events.append("lock")
        return True

    def unlock(self) -> None:
        if not self.locked:
            raise RuntimeError("unlock() without the lock")
        self.locked = False
        self.events.append("unlock")
        if self.inner is not None:
            self.inner.unlock()

    def configure(
        self, baudrate: int = 100000, polarity: int = 0, phase: int = 0, bits: int = 8
    ) -> None:
        if not self.locked:
            raise RuntimeError("First call try_lock()")
        self.configures.append(
            {"baudrate": baudrate, "polarity": polarity, "phase": phase, "bits": bits}
        )
        self.events.append("configure")
        self._baudrate = baudrate
        if self.inner is not None:
            self.inner.configure(baudrate=baudrate, polarity=polarity, phase=phase, bits=bits)

    @property
    def frequency(self) -> int:
        if self.inner is not None:
            return self.inner.frequency
        if self.actual_hz is not None:
            return self.actual_hz
        if self._baudrate is None:
            raise AttributeError("frequency: the bus was never configured")
        return self._baudrate

    def write(self, buf: Any, start: int = 0, end: int | None = None) -> None:
        if not self.locked:
            raise RuntimeError("write() without the lock")
        self.writes.append(bytes(buf[start:end]))
        self.events.append("write")
        if self.inner is not None:
            self.inner.write(buf, start, end)

    def deinit(self) -> None:
        self.deinited = True
        self.events.append("deinit")
        if self.inner is not None:
            self.inner.deinit()


def decode(
    data: bytes, order: str = "GRB", *, reset: int = RESET, bit0: int = BIT0, bit1: int = BIT1
) -> list[Pixel]:
    """The pixels in one neopixel_spi write: the resets are checked, every SPI byte must be
    ``bit0`` or ``bit1`` (one WS2812 bit, MSB first), and each pixel's bytes are in ``order``."""
    assert data[:reset] == bytes(reset), "no reset (zero bytes) before the frame"
    assert data[-reset:] == bytes(reset), "no reset (zero bytes) after the frame"
    body = data[reset : len(data) - reset]
    assert len(body) % 24 == 0, f"{len(body)} bytes are not whole pixels (24 SPI bytes each)"
    values = []
    for i in range(0, len(body), 8):
        value = 0
        for byte in body[i : i + 8]:
            assert byte in (bit0, bit1), f"SPI byte {byte:#010b} is neither a 0 nor a 1 bit"
            value = value << 1 | (byte == bit1)
        values.append(value)
    return [_from_order(values[i : i + 3], order) for i in range(0, len(values), 3)]


def _from_order(channels: list[int], order: str) -> Pixel:
    by_name = dict(zip(order, channels, strict=True))
    return (by_name["R"], by_name["G"], by_name["B"])


def recording_neopixel_class(base: Any = None) -> Any:
    """A ``neopixel.NeoPixel``-like class that records every buffer it transmits
    (``transmitted``), its options and whether it was ``deinit``-ed; ``instances`` lists them.

    Without ``base`` it is a bare Adafruit ``PixelBuf`` on no pin; with ``base`` (the real
    ``neopixel.NeoPixel``) it also lights the strip.
    """
    import adafruit_pixelbuf

    if base is None:

        class Base(adafruit_pixelbuf.PixelBuf):
            def __init__(
                self,
                pin: Any,
                n: int,
                *,
                bpp: int = 3,
                brightness: float = 1.0,
                auto_write: bool = True,
                pixel_order: str = "GRB",
            ) -> None:
                self.pin = pin
                super().__init__(
                    n, brightness=brightness, byteorder=pixel_order, auto_write=auto_write
                )

            def _transmit(self, buffer: bytearray) -> None:
                pass

            def deinit(self) -> None:
                self.fill(0)
                self.show()

        base = Base

    class Recording(base):  # type: ignore[misc, valid-type]
        instances: ClassVar[list[Any]] = []

        def __init__(self, pin: Any, n: int, **options: Any) -> None:
            self.transmitted: list[bytes] = []
            self.deinited = False
            self.options = dict(options)
            super().__init__(pin, n, **options)
            Recording.instances.append(self)

        def _transmit(self, buffer: bytearray) -> None:
            self.transmitted.append(bytes(buffer))
            super()._transmit(buffer)

        def deinit(self) -> None:
            super().deinit()
            self.deinited = True

    return Recording


class RecordingWrite:
    """The Pi 5's ``neopixel_write(pin, buf)``: records (pin, bytes); ``release`` stands for
    ``free_pio`` and counts its calls."""

    def __init__(self, inner: Any = None, inner_release: Any = None) -> None:
        self.inner, self.inner_release = inner, inner_release
        self.writes: list[tuple[Any, bytes]] = []
        self.released = 0

    def __call__(self, pin: Any, buf: bytearray) -> None:
        self.writes.append((pin, bytes(buf)))
        if self.inner is not None:
            self.inner(pin, buf)

    def release(self) -> None:
        self.released += 1
        if self.inner_release is not None:
            self.inner_release()
