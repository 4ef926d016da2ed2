"""NeoPixel (WS2812) strips on a Raspberry Pi, through Adafruit's drivers.

Three drivers light a physical strip; each is an :class:`~companion.devices.leds.LedStrip`:

* :class:`NeoPixelSpiStrip` (``"spi"``, the default): ``neopixel_spi.NeoPixel_SPI`` on a Blinka
  ``busio.SPI`` bus. The strip's data line is SPI0's MOSI, GPIO10 (header pin 19); bus 1 is
  GPIO20. It needs no root (the user must be in the ``spi`` group) and works on a Pi 4 and a Pi 5.
  Every WS2812 bit goes out as one SPI byte at 6.4 MHz (``0b11000000`` for a 0, ``0b11110000``
  for a 1: 0.31 us or 0.63 us high in a 1.25 us bit), the pixel's bytes in its colour order
  (GRB for WS2812), MSB first, with 80 us of zero bytes (64 bytes) before and after each frame
  as the reset/latch. A frame must fit one spidev transfer (4096 bytes unless ``spidev.bufsiz``
  and ``SPI_BUFSIZE`` are raised), that is 165 pixels per bus: a longer frame is split into
  several transfers, and the pause between them latches the strip halfway. On a Pi 4 the SPI
  clock follows the VPU core clock, which scales: ``core_freq=500`` and ``core_freq_min=500`` in
  ``config.txt`` keep the bit timing steady (the Pi 5's SPI has its own clock).
* :class:`NeoPixelPwmStrip` (``"pwm"``, the documented alternative): ``neopixel.NeoPixel`` on a
  PWM pin (GPIO18 by default). On a Pi 4 Blinka drives it through ``rpi_ws281x`` (DMA and the PWM
  peripheral): it needs root, silences the analogue audio, and drives one strip only.
* :class:`NeoPixelPi5Strip` (``"pi5"``): the Pi 5's RP1 PIO, through
  ``adafruit_raspberry_pi5_neopixel_write.neopixel_write`` (the package
  ``Adafruit-Blinka-Raspberry-Pi5-Neopixel``); any GPIO (GPIO10 by default, so a strip wired for
  SPI works unchanged), no root once ``/dev/pio0`` belongs to the ``gpio`` group.

Hardware libraries are imported only inside these constructors; this module imports none, and
every constructor takes its bus, its ``neopixel`` class or its write function as an argument, so
that the tests drive the real Adafruit code on fakes, with no Pi. Blinka's ``import board`` offers
to pip-install missing platform packages when run in a terminal, and waits for an answer: the
drivers set ``BLINKA_SKIP_DEPENDENCY_CHECK=1`` (unless it is set) before importing it, so the
companion never stops at that prompt; the ``pi`` extra installs what they need.

The named strips a chain maps onto one physical strip are :mod:`.leds_chain`'s; the brightness
limit and the power budget, applied to every frame a driver sends, are :mod:`.leds_power`'s. The
chains, the budget and the setup errors (:mod:`.errors`) are importable from here too.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .errors import NeoPixelSetupError, PowerBudgetError
from .leds import OFF, LedStrip, Pixel
from .leds_chain import Chain, ChainSegment
from .leds_power import (
    PowerBudget,
    brightness_level,
    check_power_budget,
    frame_amps,
    limit_brightness,
)

#: this module's public names, and those of the chains and the budget known from here
__all__ = [
    "DEFAULT_CHAINS",
    "DEFAULT_PINS",
    "DRIVERS",
    "PIXEL_ORDERS",
    "PWM_PINS",
    "SPI_MOSI",
    "Chain",
    "ChainSegment",
    "NeoPixelPi5Strip",
    "NeoPixelPwmStrip",
    "NeoPixelSetupError",
    "NeoPixelSpiStrip",
    "NeoPixelStrip",
    "PowerBudget",
    "PowerBudgetError",
    "check_power_budget",
    "encode",
    "frame_amps",
    "open_neopixel_strips",
    "spi_chunk_bytes",
    "spi_frame_bytes",
    "spi_reset_bytes",
]

SPI_HZ = 6_400_000  #: neopixel_spi's default: 8 SPI bits per WS2812 bit at 800 kHz
SPI_BIT0 = 0b11000000  #: neopixel_spi's default pattern for a WS2812 0 bit
SPI_BIT1 = 0b11110000  #: neopixel_spi's default pattern for a WS2812 1 bit
SPI_RESET_SECONDS = 80e-6  #: neopixel_spi's default reset: low before and after each frame
SPI_CHUNK_BYTES = 4096  #: spidev's default bufsiz; Adafruit_PureIO splits longer writes
SPI_MOSI = {0: 10, 1: 20}  #: SPI bus -> its MOSI GPIO (the strip's data line)

DRIVERS = ("spi", "pwm", "pi5")
DEFAULT_PINS = {"pwm": 18, "pi5": 10}
PWM_PINS = (12, 13, 18, 19, 21)  #: the pins rpi_ws281x can drive on a Pi 4 (PWM0/1, PCM)
PIXEL_ORDERS = ("GRB", "RGB", "BRG", "RBG", "GBR", "BGR")
DEFAULT_CHAINS = (("table", "score", "tower"),)


def encode(pixels: Iterable[Pixel], order: str = "GRB") -> bytearray:
    """The pixels' bytes as a WS2812 strip takes them: each pixel's channels in ``order``."""
    index = ["RGB".index(channel) for channel in order]
    return bytearray(pixel[i] for pixel in pixels for i in index)


def spi_reset_bytes(hz: int = SPI_HZ) -> int:
    """How many zero bytes neopixel_spi sends before and after a frame at ``hz``."""
    return round(hz * SPI_RESET_SECONDS / 8)


def spi_frame_bytes(pixels: int, hz: int = SPI_HZ) -> int:
    """The bytes of one frame on the SPI bus: 8 per colour byte, and both resets."""
    return 24 * pixels + 2 * spi_reset_bytes(hz)


def spi_chunk_bytes() -> int:
    """The largest single spidev write: ``SPI_BUFSIZE`` (read by Adafruit_PureIO), else 4096."""
    try:
        return int(os.environ.get("SPI_BUFSIZE", SPI_CHUNK_BYTES))
    except ValueError:
        return SPI_CHUNK_BYTES


def _check_order(pixel_order: str) -> str:
    if pixel_order not in PIXEL_ORDERS:
        raise NeoPixelSetupError(
            f"LED pixel order must be one of {', '.join(PIXEL_ORDERS)}, not {pixel_order!r}"
        )
    return pixel_order


def _import_board() -> Any:
    """Blinka's ``board``, without its offer to pip-install packages at run time (which waits on
    a prompt in a terminal): the ``pi`` extra installs what the drivers need."""
    from .blinka import import_board

    try:
        board = import_board()
    except ImportError as e:
        raise NeoPixelSetupError(
            f"the NeoPixel drivers need Adafruit Blinka ({e}): install the companion with its "
            f"Raspberry Pi extra, pip install 'companion[pi]'"
        ) from e
    except (NotImplementedError, RuntimeError) as e:
        raise NeoPixelSetupError(f"Adafruit Blinka cannot drive this board's pins: {e}") from e
    return board


def _board_pin(board: Any, gpio: int) -> Any:
    pin = getattr(board, f"D{gpio}", None)
    if pin is None:
        raise NeoPixelSetupError(f"GPIO{gpio} is not a pin of this board")
    return pin


# -- physical strips ---------------------------------------------------------------------------


class NeoPixelStrip(LedStrip):
    """A physical NeoPixel strip: each frame is limited to ``max_brightness``, capped to the
    ``budget``, then sent by the driver's ``_send``. ``sent`` is the last frame sent."""

    driver = ""

    def __init__(
        self,
        name: str,
        length: int,
        *,
        max_brightness: float = 1.0,
        budget: PowerBudget | None = None,
        pixel_order: str = "GRB",
    ) -> None:
        super().__init__(name, length)
        self.level = brightness_level(max_brightness)
        self.max_brightness = max_brightness
        self.pixel_order = _check_order(pixel_order)
        self.budget = budget
        self.sent: tuple[Pixel, ...] = (OFF,) * length
        self._lock = threading.Lock()
        self._closed = False
        if budget is not None:
            budget.register(self, max_brightness)

    def _opened(self, open_hardware: Callable[[], None]) -> None:
        """Run the driver's ``open_hardware``; if it fails, leave the budget as it was."""
        try:
            open_hardware()
        except BaseException:
            if self.budget is not None:
                self.budget.forget(self)
            raise

    def _write(self, pixels: tuple[Pixel, ...]) -> None:
        with self._lock:
            if self._closed:
                raise RuntimeError(f"LED strip {self.name!r} is closed")
            frame = limit_brightness(pixels, self.level)
            if self.budget is not None:
                frame = self.budget.cap(self, frame)
            self._send(frame)
            self.sent = frame

    @property
    def amps(self) -> float:
        """The estimated current of the last frame sent."""
        return frame_amps(self.sent)

    def close(self) -> None:
        """Turn every pixel off and release the output; calling it again does nothing."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                off = (OFF,) * self.length
                self._send(off)
                self.sent = off
            finally:
                try:
                    self._release()
                finally:
                    if self.budget is not None:
                        self.budget.forget(self)

    def _send(self, frame: tuple[Pixel, ...]) -> None:
        raise NotImplementedError

    def _release(self) -> None:
        """Release the output after the last frame."""


class _PixelBufStrip(NeoPixelStrip):
    """A strip driven through an Adafruit ``PixelBuf`` (``NeoPixel_SPI``, ``NeoPixel``), kept at
    ``brightness=1.0`` and ``auto_write=False``: this class limits the brightness itself."""

    _pixels: Any = None

    def _send(self, frame: tuple[Pixel, ...]) -> None:
        self._pixels[0 : self.length] = list(frame)
        self._pixels.show()


class NeoPixelSpiStrip(_PixelBufStrip):
    """A NeoPixel strip on an SPI bus's MOSI through ``neopixel_spi.NeoPixel_SPI`` (the default).

    ``spi`` is a busio-like bus (``try_lock``, ``configure``, ``write``, ``unlock``); without it
    the strip opens SPI bus ``bus`` through Blinka (0: ``board.SPI()``, MOSI GPIO10; 1: MOSI
    GPIO20, with ``dtoverlay=spi1-1cs``) and releases it on close. ``bit0``/``bit1`` are the SPI
    byte patterns of a WS2812 0 and 1 bit (neopixel_spi's defaults; some Pi Zero setups need
    ``bit0=0b10000000``). A frame longer than one spidev write (``max_spi_bytes``: ``SPI_BUFSIZE``
    or 4096) is refused.
    """

    driver = "spi"

    def __init__(
        self,
        name: str,
        length: int,
        *,
        spi: Any = None,
        bus: int = 0,
        max_brightness: float = 1.0,
        budget: PowerBudget | None = None,
        pixel_order: str = "GRB",
        bit0: int = SPI_BIT0,
        bit1: int = SPI_BIT1,
        max_spi_bytes: int | None = None,
    ) -> None:
        limit = max_spi_bytes if max_spi_bytes is not None else spi_chunk_bytes()
        need = spi_frame_bytes(length)
        if need > limit:
            most = (limit - 2 * spi_reset_bytes()) // 24
            raise NeoPixelSetupError(
                f"LED strip {name!r}: {length} pixels take {need} bytes on the SPI bus, more "
                f"than one spidev write of {limit} bytes (the pause between two writes would "
                f"latch the strip halfway): chain at most {most} pixels on one SPI bus, or add "
                f"spidev.bufsiz=65536 to /boot/firmware/cmdline.txt and run the companion with "
                f"SPI_BUFSIZE=65536"
            )
        super().__init__(
            name, length, max_brightness=max_brightness, budget=budget, pixel_order=pixel_order
        )
        self.bus = bus
        self._owned_spi = spi is None
        self._spi = spi

        def open_hardware() -> None:
            if self._spi is None:
                self._spi = self._open_bus(bus)
            try:
                try:
                    import neopixel_spi
                except ImportError as e:
                    raise NeoPixelSetupError(
                        f"the SPI NeoPixel driver needs adafruit-circuitpython-neopixel-spi "
                        f"({e}): pip install 'companion[pi]'"
                    ) from e
                self._pixels = neopixel_spi.NeoPixel_SPI(
                    self._spi,
                    length,
                    pixel_order=self.pixel_order,
                    auto_write=False,
                    brightness=1.0,
                    frequency=SPI_HZ,
                    bit0=bit0,
                    bit1=bit1,
                )
            except BaseException:
                self._release()
                raise

        self._opened(open_hardware)

    @staticmethod
    def _open_bus(bus: int) -> Any:
        if bus not in SPI_MOSI:
            raise NeoPixelSetupError(
                f"SPI bus {bus}: the LEDs can use SPI bus 0 (MOSI GPIO10) or 1 (MOSI GPIO20)"
            )
        board = _import_board()
        device = f"/dev/spidev{bus}.0"
        enable = (
            "sudo raspi-config nonint do_spi 0 (or dtparam=spi=on in /boot/firmware/config.txt)"
            if bus == 0
            else "dtoverlay=spi1-1cs in /boot/firmware/config.txt"
        )
        pins = ("SCLK", "MOSI") if bus == 0 else ("SCK_1", "MOSI_1")
        if not all(getattr(board, pin, None) is not None for pin in pins) or (
            bus == 0 and not hasattr(board, "SPI")
        ):
            raise NeoPixelSetupError(
                f"SPI bus {bus}: Blinka knows no such bus on this board "
                f"({getattr(board, 'board_id', 'unknown')}); the SPI LED driver needs a "
                f"Raspberry Pi"
            )
        try:
            if bus == 0:
                return board.SPI()
            import busio

            return busio.SPI(board.SCK_1, MOSI=board.MOSI_1)
        except (OSError, ValueError) as e:
            raise NeoPixelSetupError(
                f"SPI bus {bus} ({device}, MOSI GPIO{SPI_MOSI[bus]}) cannot be opened for the "
                f"LEDs: {e}. Enable it with {enable} and reboot; the companion's user must be "
                f"in the 'spi' group"
            ) from e

    def _release(self) -> None:
        if self._owned_spi and self._spi is not None:
            spi, self._spi = self._spi, None
            deinit = getattr(spi, "deinit", None)
            if deinit is not None:
                deinit()


class NeoPixelPwmStrip(_PixelBufStrip):
    """A NeoPixel strip on a PWM pin through ``neopixel.NeoPixel`` (the documented alternative).

    On a Pi 4 it runs through ``rpi_ws281x``: root only, one strip only, pins 12, 13, 18
    (default), 19 or 21. ``neopixel_class`` replaces ``neopixel.NeoPixel`` (tests); with it,
    ``pin`` is passed to it as given.
    """

    driver = "pwm"

    def __init__(
        self,
        name: str,
        length: int,
        *,
        pin: Any = DEFAULT_PINS["pwm"],
        neopixel_class: Callable[..., Any] | None = None,
        max_brightness: float = 1.0,
        budget: PowerBudget | None = None,
        pixel_order: str = "GRB",
    ) -> None:
        if neopixel_class is None and pin not in PWM_PINS:
            raise NeoPixelSetupError(
                f"the PWM NeoPixel driver drives GPIO {', '.join(map(str, PWM_PINS))}, not {pin!r}"
            )
        super().__init__(
            name, length, max_brightness=max_brightness, budget=budget, pixel_order=pixel_order
        )
        self.pin = pin

        def open_hardware() -> None:
            make, where = neopixel_class, pin
            if make is None:
                board = _import_board()
                try:
                    import neopixel
                except ImportError as e:
                    raise NeoPixelSetupError(
                        f"the PWM NeoPixel driver needs adafruit-circuitpython-neopixel and, on "
                        f"a Pi 4, rpi_ws281x ({e}): pip install 'companion[pi]'"
                    ) from e
                except (NotImplementedError, RuntimeError) as e:
                    raise NeoPixelSetupError(f"the PWM NeoPixel driver: {e}") from e
                make, where = neopixel.NeoPixel, _board_pin(board, pin)
            self._pixels = make(
                where, length, pixel_order=self.pixel_order, auto_write=False, brightness=1.0
            )

        self._opened(open_hardware)

    def _send(self, frame: tuple[Pixel, ...]) -> None:
        try:
            super()._send(frame)
        except RuntimeError as e:
            if "sudo" in str(e):
                raise NeoPixelSetupError(
                    f"the PWM NeoPixel driver needs root on a Pi 4 ({e}); the SPI driver "
                    f'(devices.leds = "spi", data on GPIO10) does not'
                ) from e
            raise

    def _release(self) -> None:
        pixels, self._pixels = self._pixels, None
        deinit = getattr(pixels, "deinit", None)
        if deinit is not None:
            deinit()


class NeoPixelPi5Strip(NeoPixelStrip):
    """A NeoPixel strip on any GPIO of a Raspberry Pi 5, through its RP1 PIO
    (``adafruit_raspberry_pi5_neopixel_write``): GPIO10 by default.

    ``write(pin, buf)`` replaces the library's ``neopixel_write`` (tests) and ``release()`` its
    ``free_pio``; with ``write``, ``pin`` is passed to it as given.
    """

    driver = "pi5"

    def __init__(
        self,
        name: str,
        length: int,
        *,
        pin: Any = DEFAULT_PINS["pi5"],
        write: Callable[[Any, bytearray], None] | None = None,
        release: Callable[[], None] | None = None,
        max_brightness: float = 1.0,
        budget: PowerBudget | None = None,
        pixel_order: str = "GRB",
    ) -> None:
        super().__init__(
            name, length, max_brightness=max_brightness, budget=budget, pixel_order=pixel_order
        )
        self.pin = pin
        self._write_buf, self._free = write, release
        self._pin: Any = pin

        def open_hardware() -> None:
            if self._write_buf is not None:
                return
            board = _import_board()
            try:
                from adafruit_raspberry_pi5_neopixel_write import (
                    free_pio,
                    neopixel_write,
                )
            except ImportError as e:
                raise NeoPixelSetupError(
                    f"the Pi 5 NeoPixel driver needs Adafruit-Blinka-Raspberry-Pi5-Neopixel "
                    f"({e}): pip install 'companion[pi]'"
                ) from e
            self._pin = _board_pin(board, pin)
            self._write_buf, self._free = neopixel_write, free_pio

        self._opened(open_hardware)

    def _send(self, frame: tuple[Pixel, ...]) -> None:
        assert self._write_buf is not None
        try:
            self._write_buf(self._pin, encode(frame, self.pixel_order))
        except RuntimeError as e:
            raise NeoPixelSetupError(
                f"the Pi 5 NeoPixel driver cannot write to GPIO{self.pin} ({e}): check that "
                f"/dev/pio0 exists (current firmware and kernel) and belongs to the 'gpio' "
                f"group"
            ) from e

    def _release(self) -> None:
        if self._free is not None:
            self._free()


# -- opening what the configuration asks for ---------------------------------------------------


def open_neopixel_strips(
    driver: str,
    lengths: Mapping[str, int],
    *,
    chains: Sequence[Sequence[str]] = DEFAULT_CHAINS,
    max_brightness: float = 0.5,
    supply_amps: float = 2.0,
    over_budget: str = "refuse",
    pixel_order: str = "GRB",
    pins: Sequence[int] = (),
    spi: Sequence[Any] | None = None,
) -> dict[str, LedStrip]:
    """The named strips of ``chains`` (each a list of names from ``lengths``, in wiring order),
    each chain one physical strip on its own output: SPI bus ``i`` (``"spi"``; ``spi[i]`` when
    given), or ``pins[i]`` (``"pwm"``: one chain only; ``"pi5"``). Names of ``lengths`` in no
    chain have no LEDs and are left out. Everything is checked before any output is opened; on
    an error, whatever was opened is closed again.
    """
    if driver not in DRIVERS:
        raise NeoPixelSetupError(f"LED driver must be one of {', '.join(DRIVERS)}, not {driver!r}")
    if over_budget not in ("refuse", "cap"):
        raise NeoPixelSetupError(
            f'devices.led_over_budget must be "refuse" or "cap", not {over_budget!r}'
        )
    _check_order(pixel_order)
    layout = [list(chain) for chain in chains if chain]
    named = [name for chain in layout for name in chain]
    if not layout:
        raise NeoPixelSetupError("devices.led_chain lists no strips")
    unknown = [name for name in named if name not in lengths]
    if unknown:
        raise NeoPixelSetupError(
            f"devices.led_chain names {unknown[0]!r}, which the table "
            f"does not draw; it draws {', '.join(lengths)}"
        )
    twice = sorted({name for name in named if named.count(name) > 1})
    if twice:
        raise NeoPixelSetupError(f"the LED chains list strip {twice[0]!r} twice")
    outputs: list[Any]
    if driver == "spi":
        if len(layout) > len(SPI_MOSI):
            raise NeoPixelSetupError(
                f"the SPI driver has {len(SPI_MOSI)} buses for "
                f"{len(layout)} chains: chain the strips on fewer lines"
            )
        outputs = list(range(len(layout)))
    else:
        outputs = list(pins) or [DEFAULT_PINS[driver]]
        if driver == "pwm" and len(layout) > 1:
            raise NeoPixelSetupError(
                "the PWM driver drives one strip only: chain every strip "
                "on one data line (devices.led_chain)"
            )
        if len(outputs) < len(layout):
            raise NeoPixelSetupError(
                f"{len(outputs)} data pins were given for {len(layout)} chains"
            )
        if len(set(outputs[: len(layout)])) < len(layout):
            raise NeoPixelSetupError(f"the LED data pins list a pin twice: {list(outputs)}")
    pixels = sum(lengths[name] for name in named)
    refuse = over_budget == "refuse"
    if refuse:
        check_power_budget(pixels, max_brightness, supply_amps)
    budget = PowerBudget(supply_amps, refuse=refuse)
    opened: list[LedStrip] = []
    strips: dict[str, LedStrip] = {}
    try:
        for i, chain in enumerate(layout):
            length = sum(lengths[name] for name in chain)
            options: dict[str, Any] = {
                "max_brightness": max_brightness,
                "budget": budget,
                "pixel_order": pixel_order,
            }
            physical: NeoPixelStrip
            if driver == "spi":
                bus = outputs[i]
                physical = NeoPixelSpiStrip(
                    f"spi{bus}", length, bus=bus, spi=spi[i] if spi is not None else None, **options
                )
            elif driver == "pwm":
                physical = NeoPixelPwmStrip(f"gpio{outputs[i]}", length, pin=outputs[i], **options)
            else:
                physical = NeoPixelPi5Strip(f"gpio{outputs[i]}", length, pin=outputs[i], **options)
            opened.append(physical)
            strips.update(Chain(physical, [(name, lengths[name]) for name in chain]).segments)
    except BaseException:
        for strip in opened:
            with contextlib.suppress(Exception):  # closing must go on for the others
                strip.close()
        raise
    return strips
