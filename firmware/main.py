"""The dice reader's board layer: MicroPython on an RP2040 board (Raspberry Pi Pico or Pico W).

MicroPython runs this file at power-on. It builds the two I2C buses, the dice's accelerometers,
the LEDs and a ``companion_dice.reader.Reader``, then loops every 10 ms: read each die's sensor,
pass the host's bytes in, let the reader keep time, send what it queued to the host, and light
the LEDs as it says. All the logic is in ``companion_dice``; this file only touches the board.

Everything a build may change is a constant below (pins, which dice have an LED). The board
modules are passed to ``main`` so that the tests run the same loop under CPython with fakes;
on the board, ``main()`` imports the real ones.

Ctrl-C is switched off on the USB input so that no host byte can interrupt the loop. A Ctrl-C
byte (0x03), which the companion never sends, instead ends the loop cleanly and gives the
MicroPython prompt back, so that ``mpremote`` can still copy new files; Ctrl-D at the prompt
(or a reset) starts the reader again.
"""

import sys

from companion_dice.lis3dh import LIS3DH, LOST_SETTINGS, TURN_ON_MS, WRONG_CHIP

# -- The build: change these to match the wiring ------------------------------------------------

DICE = 2  # dice wired to the board (1 or 2)
DIE_I2C = ((0, 4, 5), (1, 6, 7))  # per die: (I2C bus, SDA pin, SCL pin); one bus per die
I2C_FREQ = 100000  # Hz
LIS3DH_ADDRESS = 0x18  # SDO/SA0 to GND; 0x19 if the breakout ties it high
DIE_LED_PINS = (14, 15)  # per die: the pin of the LED inside the die
DIE_LEDS_FITTED = (True, True)  # per die: whether that LED is fitted
BOARD_LED_PIN = 25  # Pico: the board's own LED
BOARD_LED_PIN_W = "LED"  # Pico W: the board's LED hangs off the wireless chip
VSYS_ADC_PIN = 29  # ADC3 on a Pico: VSYS through a 3:1 divider (not usable on a Pico W)
VSYS_DIVIDER = 3
ADC_VREF_MV = 3300
ADC_SAMPLES = 8  # readings averaged per supply measurement
NOISE_ADC = 4  # the temperature sensor's ADC channel: its lowest bits are noise

# -- Timing -------------------------------------------------------------------------------------

LOOP_MS = 10  # one pass: read the dice, the host, the clock, the LEDs (the sensors run at 100 Hz)
RETRY_MS = 1000  # a missing or failed sensor is tried again this often (a re-plugged die)
STALL_MS = 100  # a sensor with no new reading for this long has failed (it restarted, say)
SETTLE_MS = TURN_ON_MS + 3 * LOOP_MS  # readings dropped after a sensor is (re)configured
POWER_MS = 1000  # the supply is measured this often
RX_LIMIT = 256  # host bytes taken per pass, at most

STOP_BYTE = 0x03  # Ctrl-C from the host: leave the loop for the MicroPython prompt
STOPPED = "stopped"
STOP_MESSAGE = b"\r\ndice reader stopped; Ctrl-D restarts it\r\n"

# errno of MicroPython's I2C errors on the RP2040, as short words for the host
I2C_ERRORS = {5: "i2c-no-answer", 110: "i2c-timeout"}
STALLED = "sensor-stalled"


def describe(error):
    """A short word for a sensor's OSError: what went wrong, without spaces."""
    args = error.args
    if args and isinstance(args[0], int):
        return I2C_ERRORS.get(args[0], "i2c-errno-%d" % args[0])
    text = str(args[0]) if args else ""
    code = text.split(":", 1)[0]
    if code in (WRONG_CHIP, LOST_SETTINGS):
        return code
    return "sensor-error"


def is_wireless(machine_name):
    """Whether ``sys.implementation._machine`` names a Pico W (or Pico 2 W)."""
    return "Pico W" in machine_name or "Pico 2 W" in machine_name


def draw_boot_id(machine, time):
    """A name for this power-on (the reader's ``boot``), so that the host can tell a restarted
    reader: ADC noise and the microsecond clock, mixed (FNV-1a), as 8 hex digits."""
    adc = machine.ADC(NOISE_ADC)
    value = 0x811C9DC5
    for _ in range(64):
        value = ((value ^ adc.read_u16() ^ (time.ticks_us() & 0xFFFF)) * 0x01000193) & 0xFFFFFFFF
    return "%08x" % value


class Clock:
    """Milliseconds that never wrap: MicroPython's ``ticks_ms`` wraps, so its steps are added
    up with ``ticks_diff``."""

    def __init__(self, time):
        self._time = time
        self._last = time.ticks_ms()
        self._now = self._last

    def now_ms(self):
        ticks = self._time.ticks_ms()
        step = self._time.ticks_diff(ticks, self._last)
        self._last = ticks
        if step > 0:
            self._now += step
        return self._now

    def sleep_ms(self, ms):
        self._time.sleep_ms(ms)


class Usb:
    """The USB serial link to the host: MicroPython's standard input and output."""

    def __init__(self, system, select, stop_byte=STOP_BYTE):
        self._poll = select.poll()
        self._poll.register(system.stdin, select.POLLIN)
        self._in = system.stdin.buffer
        self._out = system.stdout.buffer
        self.stop_byte = stop_byte
        self.stopped = False

    def read(self, limit=RX_LIMIT):
        """The bytes waiting now, up to ``limit``; never waits. Stops at the stop byte (which is
        not returned) and leaves what follows it for the MicroPython prompt."""
        data = bytearray()
        while len(data) < limit and self._poll.poll(0):
            byte = self._in.read(1)
            if not byte:
                break
            if byte[0] == self.stop_byte:
                self.stopped = True
                break
            data += byte
        return bytes(data)

    def write(self, data):
        if data:
            self._out.write(data)


class Board:
    """The pins, buses, LEDs and supply measurement of one board, made from the ``machine``
    module given (the real one on the board, a fake in the tests)."""

    def __init__(self, machine, machine_name="", dice=DICE, leds=DIE_LEDS_FITTED):
        Pin = machine.Pin
        self.wireless = is_wireless(machine_name)
        self.name = "pico_w" if self.wireless else "pico"
        self.uid = "".join("%02x" % b for b in machine.unique_id())
        self.leds = tuple(bool(leds[die]) for die in range(dice))
        self.buses = []
        self.die_led_pins = []
        for die in range(dice):
            bus, sda, scl = DIE_I2C[die]
            self.buses.append(machine.I2C(bus, sda=Pin(sda), scl=Pin(scl), freq=I2C_FREQ))
            pin = Pin(DIE_LED_PINS[die], Pin.OUT, value=0) if self.leds[die] else None
            self.die_led_pins.append(pin)
        self.status_pin = Pin(BOARD_LED_PIN_W if self.wireless else BOARD_LED_PIN, Pin.OUT,
                              value=0)
        # On a Pico W, GP29 is also the wireless chip's SPI clock (and drives the board's LED),
        # so the supply is not measured there.
        self.adc = None if self.wireless else machine.ADC(VSYS_ADC_PIN)
        self._lit = {}

    def open_sensor(self, die):
        """Die ``die``'s accelerometer, identified and configured; raises OSError."""
        return LIS3DH(self.buses[die], LIS3DH_ADDRESS)

    def supply_mv(self):
        """VSYS in millivolts, or None where it cannot be measured."""
        if self.adc is None:
            return None
        total = 0
        for _ in range(ADC_SAMPLES):
            total += self.adc.read_u16()
        return total * ADC_VREF_MV * VSYS_DIVIDER // (65535 * ADC_SAMPLES)

    def _light(self, pin, on):
        if self._lit.get(id(pin)) != on:
            pin.value(1 if on else 0)
            self._lit[id(pin)] = on

    def show(self, reader, now):
        """Light the dice's LEDs and the board's LED as ``reader`` says."""
        for die in range(len(self.die_led_pins)):
            pin = self.die_led_pins[die]
            if pin is not None:
                self._light(pin, bool(reader.die_led(die, now)))
        self._light(self.status_pin, bool(reader.status_led(now)))

    def leds_off(self):
        for pin in self.die_led_pins + [self.status_pin]:
            if pin is not None:
                self._light(pin, False)


class Sensors:
    """The dice's accelerometers: read each working one, report failures, retry missing ones."""

    def __init__(self, board, reader):
        self.board = board
        self.reader = reader
        count = len(board.buses)
        self.sensors = [None] * count
        self.ready_at = [0] * count  # readings before this are dropped (sensor starting)
        self.fresh_at = [0] * count  # when the sensor last had a new reading
        self.retry_at = [0] * count  # next attempt to open a missing sensor

    def start(self, now):
        """Open every sensor; tell the reader about those that fail."""
        for die in range(len(self.sensors)):
            self._open(die, now, True)

    def _open(self, die, now, report):
        try:
            sensor = self.board.open_sensor(die)
        except OSError as error:
            self.retry_at[die] = now + RETRY_MS
            if report:
                self.reader.sensor_failed(die, now, describe(error))
            return
        self.sensors[die] = sensor
        self.ready_at[die] = self.fresh_at[die] = now + SETTLE_MS

    def _fail(self, die, now, why):
        self.sensors[die] = None
        self.retry_at[die] = now + RETRY_MS
        self.reader.sensor_failed(die, now, why)

    def poll(self, now):
        """Each working sensor's new reading, if it has one. A failure (an I2C error, or no new
        reading for STALL_MS) is reported once; then the sensor is tried again every RETRY_MS
        until it answers, and is reported again only if it fails again after working."""
        for die in range(len(self.sensors)):
            sensor = self.sensors[die]
            if sensor is None:
                if now >= self.retry_at[die]:
                    self._open(die, now, False)
                continue
            if now < self.ready_at[die]:
                continue
            try:
                reading = sensor.read_new_mg()
            except OSError as error:
                self._fail(die, now, describe(error))
                continue
            if reading is None:
                if now - self.fresh_at[die] >= STALL_MS:
                    self._fail(die, now, STALLED)
                continue
            self.fresh_at[die] = now
            x, y, z = reading
            self.reader.sample(die, now, x, y, z)


def run(board, reader, clock, usb, loops=None, collect=None):
    """The reader's loop: ``loops`` passes (None: for ever). Returns STOPPED if the host sent
    the stop byte, else None. ``collect`` (the garbage collector) runs once a second, so that
    its pauses stay short."""
    now = clock.now_ms()
    reader.boot(now)
    sensors = Sensors(board, reader)
    sensors.start(now)
    power_at = now
    next_at = now
    passes = 0
    while loops is None or passes < loops:
        passes += 1
        now = clock.now_ms()
        sensors.poll(now)
        data = usb.read()
        if data:
            reader.host_bytes(data, now)
        if now >= power_at:
            power_at = now + POWER_MS
            mv = board.supply_mv()
            if mv is not None:
                reader.power(mv, "usb")
            if collect is not None:
                collect()
        reader.tick(now)
        usb.write(reader.take_output())
        board.show(reader, now)
        if usb.stopped:
            return STOPPED
        next_at += LOOP_MS
        wait = next_at - clock.now_ms()
        if wait > 0:
            clock.sleep_ms(wait)
        elif wait < -LOOP_MS:
            next_at = clock.now_ms()  # far behind (a slow sensor): do not rush to catch up
    return None


def main(machine=None, time=None, select=None, micropython=None, gc=None, system=None,
         reader_class=None, loops=None):
    """Build the board and the reader and run the loop; the arguments default to the board's
    own modules and ``companion_dice.reader.Reader``."""
    if machine is None:
        import machine
    if time is None:
        import time
    if select is None:
        import select
    if micropython is None:
        import micropython
    if gc is None:
        import gc
    if system is None:
        system = sys
    if reader_class is None:
        from companion_dice.reader import Reader as reader_class
    board = Board(machine, getattr(system.implementation, "_machine", ""), DICE, DIE_LEDS_FITTED)
    reader = reader_class(dice=DICE, board=board.name, uid=board.uid, leds=board.leds,
                          boot=draw_boot_id(machine, time))
    clock = Clock(time)
    usb = Usb(system, select)
    micropython.kbd_intr(-1)
    try:
        result = run(board, reader, clock, usb, loops, gc.collect)
    finally:
        micropython.kbd_intr(3)
        board.leds_off()
    if result == STOPPED:
        usb.write(STOP_MESSAGE)
    return result


# MicroPython runs this file at boot; under CPython (the tests) importing it only defines it.
if sys.implementation.name == "micropython":
    main()
