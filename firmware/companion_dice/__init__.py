"""The dice reader's firmware logic, for an RP2040 board running MicroPython.

Everything in this package is plain Python that runs unchanged on the board and under CPython
(where the tests, the host driver and the simulated reader import it): no I/O, no clock, no
pins. Time is passed in as milliseconds, sensor readings as milli-g, and output leaves as bytes.
Only ``firmware/main.py`` touches the board (I2C, USB serial, LEDs, the supply voltage).

Modules: ``protocol`` (the line codec of ``docs/dice-protocol.md``), ``profiles`` (die faces),
``sensing`` (one die's motion and settle logic), ``reader`` (the reader: dice, profiles and the
protocol together) and ``lis3dh`` (the accelerometer's registers, given an I2C object).
"""

FIRMWARE_VERSION = "1.0.0"
