"""A command to the dice reader fails only when the port stops taking bytes (``write_within``)."""

from __future__ import annotations

import os
import threading
import time

import pytest
import serial

from companion.devices.dice import write_within


class PipePort:
    """The part of a pyserial port ``write_within`` uses, over a non-blocking pipe."""

    def __init__(self) -> None:
        self.read_end, self.write_end = os.pipe()
        os.set_blocking(self.write_end, False)

    def fileno(self) -> int:
        return self.write_end

    def drain(self) -> bytes:
        os.set_blocking(self.read_end, False)
        taken = bytearray()
        try:
            while chunk := os.read(self.read_end, 65536):
                taken += chunk
        except BlockingIOError:
            pass
        return bytes(taken)

    def close(self) -> None:
        os.close(self.read_end)
        os.close(self.write_end)


@pytest.fixture
def port():
    pipe = PipePort()
    yield pipe
    pipe.close()


def test_a_line_is_written_whole(port) -> None:
    write_within(port, b"ROLL 1 die=1\n")
    assert port.drain() == b"ROLL 1 die=1\n"


def test_a_port_that_takes_nothing_fails_after_the_stall_not_before(port) -> None:
    while True:  # fill the pipe: the reader stopped reading
        try:
            os.write(port.write_end, b"x" * 65536)
        except BlockingIOError:
            break
    started = time.monotonic()
    with pytest.raises(serial.SerialTimeoutException, match="took no byte for 0.2 s"):
        write_within(port, b"FLASH 2 die=1\n", stall=0.2)
    assert 0.2 <= time.monotonic() - started < 2.0


def test_a_slow_port_that_keeps_taking_bytes_gets_everything(port) -> None:
    data = bytes(range(256)) * 2048  # 512 KB: several times what a pipe holds
    received = bytearray()

    def read_slowly() -> None:
        while len(received) < len(data):
            time.sleep(0.01)
            received.extend(port.drain())

    reader = threading.Thread(target=read_slowly)
    reader.start()
    write_within(port, data, stall=0.5)
    reader.join(timeout=10)
    assert bytes(received) == data


def test_a_late_thread_is_not_a_stall(port, monkeypatch) -> None:
    # pyserial's write_timeout counts from the call, so a thread descheduled after its bytes went
    # out reported a timeout for a line the reader had. Time passing is not a stall here.
    real_write = os.write

    def write_then_sleep(descriptor: int, data) -> int:
        written = real_write(descriptor, data)
        time.sleep(0.3)
        return written

    monkeypatch.setattr(os, "write", write_then_sleep)
    write_within(port, b"IDENTIFY 3 ms=500\n", stall=0.1)
    assert port.drain() == b"IDENTIFY 3 ms=500\n"
