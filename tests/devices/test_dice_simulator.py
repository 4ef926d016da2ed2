"""The simulated dice reader process, end to end through the host driver."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
import tty
from collections.abc import Callable, Iterator

import pytest

from companion.devices.dice import SerialDiceReader
from companion.devices.dice_protocol import encode, parse_line
from companion.devices.dice_sim import (
    FIRMWARE,
    DiceFirmware,
    SimulatedDiceReader,
    start_simulated_dice,
)
from companion.devices.events import DeviceEvent, DeviceNoise, DeviceStatus, DieRolled

PONG = DeviceStatus("dice", True, "pong")


def process_gone(pid: int) -> bool:
    return not os.path.exists(f"/proc/{pid}")


Started = tuple[SimulatedDiceReader, SerialDiceReader, list[DeviceEvent]]


@pytest.fixture
def start(events, no_leaked_fds) -> Iterator[Callable[..., Started]]:
    """Start simulators wired to readers; close them all (readers first) afterwards.

    Returns the simulator, the reader and the greeting events (connection,
    HELLO, PONG), which it takes off the collector.
    """
    started: list[tuple[SimulatedDiceReader, SerialDiceReader]] = []

    def start(seed: int = 1, collector=None, **options) -> Started:
        collector = collector or events
        simulator, reader = start_simulated_dice(collector.emit, seed=seed, **options)
        started.append((simulator, reader))
        return simulator, reader, collector.pending()

    yield start
    for simulator, reader in started:
        reader.close()
        simulator.close()
        assert not simulator.running
        assert process_gone(simulator.pid)


def sync(reader: SerialDiceReader, collector) -> list[DeviceEvent]:
    """PING, wait for the PONG and return the events that came before it."""
    assert reader.ping(3.0)
    *before, pong = collector.pending()
    assert pong == PONG
    return before


def rolls(events: list[DeviceEvent]) -> list[DieRolled]:
    return [event for event in events if isinstance(event, DieRolled)]


def test_start_returns_after_the_greeting(start, events) -> None:
    simulator, reader, greeting = start()
    assert reader.wait_ready(0)
    assert simulator.running and simulator.port.startswith("/dev/")
    hello = DeviceStatus("dice", True, f"reader firmware {FIRMWARE}, protocol 1")
    assert greeting[0] == DeviceStatus("dice", True, f"connected on {simulator.port}")
    # The power-on HELLO is lost if it came before the port was open.
    assert greeting[1:] in ([hello, PONG], [hello, hello, PONG])
    assert sync(reader, events) == []


def test_roll_with_a_face_reports_that_face(start, events) -> None:
    simulator, reader, _ = start()
    simulator.roll(2, 5)
    (event,) = sync(reader, events)
    assert (event.die, event.value, event.reader) == (2, 5, "dice")


def test_random_faces_are_drawn_from_the_faces_and_fixed_by_the_seed(start, make_events) -> None:
    def faces(seed: int, noisy: bool = False) -> list[int]:
        own = make_events()
        simulator, reader, _ = start(seed=seed, collector=own, faces=(10, 20, 30))
        for _ in range(12):
            if noisy:  # noise has a generator of its own: the faces stay the same
                simulator.garbage(20)
                simulator.bad_checksum()
            simulator.roll()
        return [event.value for event in rolls(sync(reader, own))]

    first = faces(7)
    assert len(first) == 12 and set(first) <= {10, 20, 30}
    assert faces(7) == first
    assert faces(7, noisy=True) == first
    assert faces(8) != first


def test_after_garbage_a_roll_arrives_exactly_once(start, events) -> None:
    simulator, reader, _ = start()
    simulator.garbage(300)
    simulator.roll(1, 6)
    *noise, roll = sync(reader, events)
    assert (roll.die, roll.value) == (1, 6)
    assert noise and all(isinstance(e, DeviceNoise) for e in noise)


def test_a_bad_checksum_is_noise_and_leaves_a_gap(start, events) -> None:
    simulator, reader, _ = start()
    simulator.bad_checksum()
    simulator.roll(0, 3)
    bad, *rest = sync(reader, events)
    assert bad.detail.startswith("rejected line: bad checksum")
    roll = rest[-1]
    assert rest == [
        DeviceNoise("dice", f"sequence gap: 1 message(s) missed before seq {roll.seq}"),
        DieRolled(0, 3, roll.seq),
    ]


def test_a_partial_line_is_discarded_and_the_next_line_parses(start, events) -> None:
    simulator, reader, _ = start()
    simulator.partial()
    noise = events.get()
    assert noise.detail.startswith("incomplete line discarded")
    simulator.roll(1, 2)
    gap, roll = sync(reader, events)
    assert gap.detail.startswith("sequence gap: 1 message(s) missed")
    assert (roll.die, roll.value) == (1, 2)


def test_ping_is_answered_with_pong(start, events) -> None:
    _, reader, _ = start()
    for _ in range(3):
        reader.send("PING")
        assert events.get() == PONG
        assert reader.ping(3.0)
        assert events.get() == PONG


def test_the_host_can_ask_the_simulator_for_rolls_and_garbage(start, events) -> None:
    _, reader, _ = start()
    reader.send("ROLL", die=4, face=1)
    reader.send("ROLL", die=0)
    reader.send("DANCE")
    reader.send("GARBAGE", n=50)
    first, second, error, *noise = sync(reader, events)
    assert (first.die, first.value) == (4, 1)
    assert second.die == 0 and second.value in range(1, 7)
    assert error == DeviceNoise("dice", "reader reports error: unknown-verb-DANCE")
    assert noise and all(isinstance(e, DeviceNoise) for e in noise)


def test_the_host_notices_the_process_dying_and_closes_promptly(start, events) -> None:
    simulator, reader, _ = start()
    simulator.kill()
    status = events.get()
    assert status.detail.startswith(f"lost {simulator.port}")
    with pytest.raises(RuntimeError, match="exited"):
        simulator.roll()
    started = time.monotonic()
    reader.close()
    assert time.monotonic() - started < 0.5
    assert events.get() == DeviceStatus("dice", False, "closed")


def test_close_ends_the_process_and_frees_the_pty(start) -> None:
    simulator, reader, _ = start()
    pid = simulator.pid
    reader.close()
    simulator.close()
    simulator.close()
    assert process_gone(pid)
    with pytest.raises(RuntimeError, match="not started"):
        simulator.roll()


def test_the_simulator_program_on_its_own(no_leaked_fds) -> None:
    """Run the module as documented: bad commands are reported, end of input ends it."""
    master, slave = os.openpty()
    tty.setraw(slave)
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.devices.dice_sim", "--fd", str(master), "--seed", "3"],
        stdin=subprocess.PIPE,
        stderr=subprocess.PIPE,
        pass_fds=(master,),
    )
    try:
        os.close(master)
        process.stdin.write(b"jump\nroll 1 4\n")
        process.stdin.flush()
        output = b""
        deadline = time.monotonic() + 10
        while output.count(b"\n") < 2 and time.monotonic() < deadline:
            if select.select([slave], [], [], 0.1)[0]:
                output += os.read(slave, 1024)
        lines = [parse_line(line) for line in output.splitlines()]
        assert [(m.verb, m.seq, m.fields) for m in lines] == [
            ("HELLO", 0, {"proto": "1", "fw": FIRMWARE}),
            ("ROLL", 1, {"die": "1", "face": "4"}),
        ]
        process.stdin.close()  # end of input: the simulator exits
        assert process.wait(10) == 0
        assert b"unknown command 'jump'" in process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdin.close()
        process.stderr.close()
        os.close(slave)


def test_the_firmware_answers_host_lines() -> None:
    firmware = DiceFirmware(seed=1)
    assert parse_line(firmware.host_line(encode("PING", 0))).verb == "PONG"
    hello = parse_line(firmware.host_line(encode("HELLO", 1, proto=1)))
    assert (hello.verb, hello.fields["fw"]) == ("HELLO", FIRMWARE)
    assert parse_line(firmware.host_line(b"PING 0*99")).fields["msg"].startswith("bad-checksum")
    assert parse_line(firmware.host_line(encode("ROLL", 2))).verb == "ERR"
    assert firmware.host_line(encode("GARBAGE", 3, n=10)).endswith(b"\n")
    with pytest.raises(ValueError, match="unknown command"):
        firmware.stdin_command("roll one")
    assert firmware.stdin_command("quit") is None
