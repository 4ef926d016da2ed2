"""The dice reader's board layer under CPython: the LIS3DH driver against a fake register file
(``board_fakes.FakeLIS3DH``); ``test_board_loop.py`` runs ``firmware/main.py``'s loop."""

from __future__ import annotations

import pytest
from board_fakes import FakeLIS3DH

from companion_dice import lis3dh
from companion_dice.lis3dh import LIS3DH

# -- The driver -----------------------------------------------------------------------------------


def test_configuration_writes_the_datasheet_values() -> None:
    chip = FakeLIS3DH()
    LIS3DH(chip)
    written = dict(chip.writes)
    assert written[0x20] == b"\x57"  # CTRL_REG1
    assert written[0x23] == b"\xa8"  # CTRL_REG4
    assert all(len(data) == 1 for _, data in chip.writes)
    reg1, reg4 = written[0x20][0], written[0x23][0]
    assert reg1 >> 4 == 0b0101  # ODR: 100 Hz
    assert reg1 & 0x08 == 0  # LPen off: normal / high-resolution
    assert reg1 & 0x07 == 0b111  # Zen, Yen, Xen
    assert reg4 & 0x80  # BDU
    assert reg4 & 0x40 == 0  # BLE: low byte at the lower address
    assert (reg4 >> 4) & 0b11 == 0b10  # FS: +-8 g
    assert reg4 & 0x08  # HR
    assert reg4 & 0x07 == 0  # no self-test, 4-wire SPI bit unused
    # the filter, interrupt and FIFO registers are cleared, and CTRL_REG1 (which starts the
    # sensor) is written last
    assert written[0x21] == written[0x22] == written[0x24] == b"\x00"
    assert chip.writes[-1][0] == 0x20
    assert chip.regs[0x20] == 0x57 and chip.regs[0x23] == 0xA8


def test_a_chip_that_is_not_an_lis3dh_is_refused_before_any_write() -> None:
    chip = FakeLIS3DH(who_am_i=0x32)
    with pytest.raises(OSError) as refused:
        LIS3DH(chip)
    message = str(refused.value)
    assert message.startswith(lis3dh.WRONG_CHIP + ":")
    assert "WHO_AM_I" in message and "0x32" in message and "0x33" in message
    assert chip.writes == []


def test_a_missing_chip_raises_the_buses_oserror() -> None:
    chip = FakeLIS3DH(address=0x19)
    with pytest.raises(OSError) as missing:
        LIS3DH(chip)
    assert missing.value.args == (5,)
    assert LIS3DH(chip, address=0x19).address == 0x19


def test_a_chip_that_does_not_keep_its_settings_is_refused() -> None:
    with pytest.raises(OSError) as refused:
        LIS3DH(FakeLIS3DH(keeps_writes=False))
    assert str(refused.value).startswith(lis3dh.LOST_SETTINGS + ":")


def test_check_notices_a_chip_that_restarted() -> None:
    chip = FakeLIS3DH()
    sensor = LIS3DH(chip)
    sensor.check()
    chip.power_on()
    with pytest.raises(OSError) as lost:
        sensor.check()
    assert str(lost.value).startswith(lis3dh.LOST_SETTINGS + ":")


@pytest.mark.parametrize(
    ("raw", "mg"),
    [
        (0x0000, 0),
        (0x0FA0, 1000),  # 250 digits of 4 mg, left-justified
        (0x0FAF, 1000),  # the low four bits are not data
        (0xF060, -1000),
        (0x0010, 4),
        (0xFFF0, -4),
        (0x7FF0, 8188),  # saturated: +2047 digits
        (0x8000, -8192),  # saturated: -2048 digits
    ],
)
def test_register_bytes_become_milli_g(raw: int, mg: int) -> None:
    assert lis3dh.raw_to_mg(raw & 0xFF, raw >> 8) == mg
    chip = FakeLIS3DH()
    sensor = LIS3DH(chip)
    chip.set_raw(raw, -raw, raw)
    x, y, z = sensor.read_mg()
    assert (x, z) == (mg, mg)
    assert y == lis3dh.raw_to_mg((-raw) & 0xFF, ((-raw) & 0xFFFF) >> 8)
    assert all(type(v) is int for v in (x, y, z))


def test_one_read_takes_all_six_output_bytes_with_auto_increment() -> None:
    chip = FakeLIS3DH()
    sensor = LIS3DH(chip)
    chip.set_mg(-8, 1000, -2000)
    chip.reads.clear()
    assert sensor.read_mg() == (-8, 1000, -2000)
    assert chip.reads == [(0x28 | 0x80, 6)]  # OUT_X_L with the auto-increment bit


def test_to_mg_reads_x_y_z_in_register_order() -> None:
    assert lis3dh.to_mg(bytes([0xA0, 0x0F, 0x60, 0xF0, 0x00, 0x80])) == (1000, -1000, -8192)
    assert lis3dh.to_mg(bytes([0xFF, 0xA0, 0x0F, 0x60, 0xF0, 0x00, 0x80]), 1) == (
        1000,
        -1000,
        -8192,
    )


def test_read_new_mg_gives_only_new_readings_in_one_transfer() -> None:
    chip = FakeLIS3DH()
    sensor = LIS3DH(chip)
    chip.set_mg(4, -4, 996)
    chip.reads.clear()
    assert sensor.read_new_mg() == (4, -4, 996)
    assert chip.reads == [(0x27 | 0x80, 7)]  # STATUS_REG, then OUT_X_L .. OUT_Z_H
    chip.fresh = False
    assert sensor.read_new_mg() is None
    chip.fresh = True
    chip.power_on()  # restarted: powered down, no new data
    assert sensor.read_new_mg() is None
