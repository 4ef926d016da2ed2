"""The LIS3DH accelerometer in a die, over I2C.

``LIS3DH(i2c)`` checks that the chip answers as an LIS3DH, configures it and reads it back;
``read_mg()`` returns the latest (x, y, z) reading in milli-g, and ``read_new_mg()`` the same
only if the chip made it since the last read (else None). ``i2c`` is anything with MicroPython's
``machine.I2C`` methods ``readfrom_mem(addr, reg, n)`` and ``writeto_mem(addr, reg, buf)``; this
module imports no board module, so the tests run it against a fake register file.

Register names, addresses and bit layouts are those of ST's LIS3DH datasheet (DocID17530),
section "Register mapping" and the register descriptions after it. Every failure is an
``OSError``: either the I2C object's own (no answer, bus timeout) or one raised here with a
message saying what was wrong.
"""

ADDRESS = 0x18  # 7-bit address with SDO/SA0 tied low (0x19 when it is high)

# Register addresses
WHO_AM_I = 0x0F  # WHO_AM_I: device identification, reads 0x33
CTRL_REG1 = 0x20  # CTRL_REG1: ODR3..0, LPen, Zen, Yen, Xen
CTRL_REG2 = 0x21  # CTRL_REG2: high-pass filter
CTRL_REG3 = 0x22  # CTRL_REG3: interrupts routed to INT1
CTRL_REG4 = 0x23  # CTRL_REG4: BDU, BLE, FS1..0, HR, ST1..0, SIM
CTRL_REG5 = 0x24  # CTRL_REG5: BOOT, FIFO_EN, interrupt latching, 4D detection
STATUS_REG = 0x27  # STATUS_REG: ZYXOR, ZOR, YOR, XOR, ZYXDA, ZDA, YDA, XDA
OUT_X_L = 0x28  # OUT_X_L, OUT_X_H, OUT_Y_L, OUT_Y_H, OUT_Z_L, OUT_Z_H follow in that order

ZYXDA = 0x08  # STATUS_REG: a new set of X, Y and Z data is available

# On I2C, the most significant bit of the register sub-address asks the chip to increment the
# address after each byte, so that one read returns OUT_X_L .. OUT_Z_H together.
AUTO_INCREMENT = 0x80

WHO_AM_I_VALUE = 0x33

# The short words that start the messages of this module's OSErrors, for a caller that reports
# a failure in a word (an OSError from the I2C object itself carries an errno number instead).
WRONG_CHIP = "wrong-chip"
LOST_SETTINGS = "sensor-reset"

# CTRL_REG1: ODR = 0101 (100 Hz), LPen = 0 (normal or high-resolution mode, not low-power),
# Zen = Yen = Xen = 1 (all three axes on).
CTRL_REG1_VALUE = 0x57
# CTRL_REG4: BDU = 1 (the output registers are not updated between reading the low and the high
# byte), BLE = 0 (low byte at the lower address), FS = 10 (+-8 g), HR = 1 (high-resolution,
# 12-bit output), ST = 00 (self-test off), SIM = 0.
CTRL_REG4_VALUE = 0xA8
# CTRL_REG2, CTRL_REG3, CTRL_REG5: 0 (no high-pass filter, no interrupts, no FIFO), written in case
# the chip kept other settings from an earlier program while the board restarted.
CLEARED_REGISTERS = (CTRL_REG2, CTRL_REG3, CTRL_REG5)

# High-resolution mode, FS = +-8 g: 12-bit two's complement, left-justified in 16 bits, 4 mg per
# digit (the datasheet's sensitivity table; ST's reference driver divides by 16, times 4).
MG_PER_DIGIT = 4

# Entering high-resolution mode takes 7/ODR (datasheet, "Turn-on time for operating mode
# transition"), 70 ms at 100 Hz: a caller should drop readings taken sooner after configure().
TURN_ON_MS = 70


def raw_to_mg(low, high):
    """One axis: the OUT_x_L and OUT_x_H bytes, as milli-g (an int from -8192 to 8188)."""
    value = (high << 8) | low
    if value & 0x8000:
        value -= 0x10000
    return (value >> 4) * MG_PER_DIGIT  # arithmetic shift: keeps the sign


def to_mg(data, start=0):
    """Six bytes read from OUT_X_L onwards (at ``start`` in ``data``), as (x, y, z) milli-g."""
    return (
        raw_to_mg(data[start], data[start + 1]),
        raw_to_mg(data[start + 2], data[start + 3]),
        raw_to_mg(data[start + 4], data[start + 5]),
    )


class LIS3DH:
    """One LIS3DH at ``address`` on ``i2c``: identified and configured when made."""

    def __init__(self, i2c, address=ADDRESS):
        self.i2c = i2c
        self.address = address
        self.configure()

    def _read(self, register):
        return self.i2c.readfrom_mem(self.address, register, 1)[0]

    def _write(self, register, value):
        self.i2c.writeto_mem(self.address, register, bytes((value,)))

    def configure(self):
        """Check WHO_AM_I, set 100 Hz / all axes / high resolution / +-8 g / BDU, and read the
        settings back. Raises OSError if the chip is not an LIS3DH or did not keep them."""
        found = self._read(WHO_AM_I)
        if found != WHO_AM_I_VALUE:
            raise OSError(
                "%s: WHO_AM_I of the chip at 0x%02X reads 0x%02X, an LIS3DH reads 0x%02X "
                "(another chip at that address, or a bad cable)"
                % (WRONG_CHIP, self.address, found, WHO_AM_I_VALUE)
            )
        for register in CLEARED_REGISTERS:
            self._write(register, 0x00)
        self._write(CTRL_REG4, CTRL_REG4_VALUE)
        self._write(CTRL_REG1, CTRL_REG1_VALUE)
        self.check()

    def check(self):
        """Read CTRL_REG1 and CTRL_REG4 back; raise OSError if they lost their settings (for
        example because the die's supply dropped for a moment and the chip restarted)."""
        reg1 = self._read(CTRL_REG1)
        reg4 = self._read(CTRL_REG4)
        if reg1 != CTRL_REG1_VALUE or reg4 != CTRL_REG4_VALUE:
            raise OSError(
                "%s: the LIS3DH at 0x%02X lost its settings: CTRL_REG1=0x%02X (want "
                "0x%02X), CTRL_REG4=0x%02X (want 0x%02X)"
                % (LOST_SETTINGS, self.address, reg1, CTRL_REG1_VALUE, reg4, CTRL_REG4_VALUE)
            )

    def read_mg(self):
        """The latest reading as (x, y, z) ints in milli-g."""
        return to_mg(self.i2c.readfrom_mem(self.address, OUT_X_L | AUTO_INCREMENT, 6))

    def read_new_mg(self):
        """The reading as (x, y, z) ints in milli-g if the chip has made a new one since the
        last read (ZYXDA set in STATUS_REG), else None: STATUS_REG and the six OUT registers in
        one transfer. A chip that stops converting (it restarted, so it is powered down) gives
        None from then on, which the caller can notice."""
        data = self.i2c.readfrom_mem(self.address, STATUS_REG | AUTO_INCREMENT, 7)
        if not data[0] & ZYXDA:
            return None
        return to_mg(data, 1)
