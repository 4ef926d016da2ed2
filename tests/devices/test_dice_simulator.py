"""The simulated dice reader: the real firmware logic, fed synthetic dice, behind a pty, read by the
real host driver."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
import tty
from collections.abc import Callable, Iterator

import pytest

from companion.devices.dice import ReaderError, SerialDiceReader
from companion.devices.dice_protocol import encode, parse_line
from companion.devices.dice_sim import SimulatedBoard, SimulatedDiceReader, start_simulated_dice
from companion.devices.events import DeviceEvent, DeviceNoise, DeviceStatus, DieRolled, DieState

PONG = DeviceStatus("dice", True, "pong")


def process_gone(pid: int) -> bool:
    return not os.path.exists(f"/proc/{pid}")


Started = tuple[SimulatedDiceReader, SerialDiceReader, list[DeviceEvent]]


@pytest.fixture
def start(events, no_leaked_fds) -> Iterator[Callable[..., Started]]:
    """Start simulators wired to readers; close them all (readers first) afterwards.

    Returns the simulator, the reader and the greeting events, which it takes off the collector.
    """
    started: list[tuple[SimulatedDiceReader, SerialDiceReader]] = []

    def start(seed: int = 1, collector=None, **options) -> Started:
        collector = collector or events
        simulator, reader = start_simulated_dice(collector.emit, seed=seed, **options)
        started.append((simulator, reader))
        # The host says STATUS after each HELLO (the power-on one and the answer to its own), so
        # the second answer may follow the first PONG: a second PING comes after all of it.
        greeting, _ = collector.until(lambda e: e == PONG)  # start_simulated_dice's own PING
        return simulator, reader, greeting + sync(reader, collector) + sync(reader, collector)

    yield start
    for simulator, reader in started:
        reader.close()
        simulator.close()
        assert not simulator.running
        assert process_gone(simulator.pid)


def sync(reader: SerialDiceReader, collector, timeout: float = 5.0) -> list[DeviceEvent]:
    """Let the simulator finish what it was doing, then PING; the events before the PONG."""
    time.sleep(0.15)
    assert reader.ping(timeout)
    before, _ = collector.until(lambda e: e == PONG, timeout)
    return before


def of(kind, events: list[DeviceEvent]) -> list:
    return [e for e in events if isinstance(e, kind)]


def test_start_returns_after_the_greeting_with_every_die_at_rest(start) -> None:
    simulator, reader, greeting = start()
    assert simulator.running and reader.connected
    assert any(
        isinstance(e, DeviceStatus) and e.detail.startswith("reader firmware") for e in greeting
    )
    assert reader.info["board"] == "sim" and reader.info["dice"] == "2"
    rests = {e.die for e in of(DieState, greeting) if e.state == "rest"}
    assert rests == {0, 1}  # the STATUS answer: both dice lie still, their faces known


def test_a_throw_is_moving_rolling_and_one_roll_with_the_asked_face(start, events) -> None:
    simulator, reader, _ = start()
    simulator.roll(0, 5)
    got = sync(reader, events)
    states = [e.state for e in of(DieState, got) if e.die == 0]
    assert states == ["moving", "rolling"]
    (roll,) = of(DieRolled, got)
    assert roll == DieRolled(0, "5", roll.seq, value=5, roll=1, profile="d6")


def test_two_dice_thrown_together_give_two_rolls(start, events) -> None:
    """Dork Tower rolls 2d6: both dice tumble at once and each is reported once."""
    simulator, reader, _ = start()
    simulator.throw({0: 6, 1: 2})
    rolls = of(DieRolled, sync(reader, events))
    assert sorted((r.die, r.face) for r in rolls) == [(0, "6"), (1, "2")]


def test_random_faces_are_fixed_by_the_seed(start, make_events) -> None:
    faces = []
    for _ in range(2):
        collector = make_events()
        simulator, reader, _ = start(seed=7, collector=collector)
        for _ in range(4):
            simulator.roll(0)
        faces.append([r.face for r in of(DieRolled, sync(reader, collector))])
    assert faces[0] == faces[1] and len(faces[0]) == 4
    assert set(faces[0]) <= {"1", "2", "3", "4", "5", "6"}


def test_a_crooked_die_is_reported_and_never_a_roll(start, events) -> None:
    simulator, reader, _ = start()
    simulator.crooked(1)
    got = sync(reader, events)
    assert [e.state for e in of(DieState, got)] == ["moving", "rolling", "crooked"]
    assert not of(DieRolled, got)


@pytest.mark.parametrize("face", [None, 3])
def test_a_die_set_down_by_hand_is_placed_and_never_a_roll(start, events, face) -> None:
    simulator, reader, _ = start()
    simulator.place(0, face)
    got = sync(reader, events)
    states = of(DieState, got)
    assert [e.state for e in states] == ["moving", "placed"]
    if face is not None:
        assert states[-1].face == "3"
    assert not of(DieRolled, got)


def test_a_bumped_table_reports_nothing(start, events) -> None:
    simulator, reader, _ = start()
    simulator.bump()
    assert sync(reader, events) == []


def test_profiles_set_by_the_host_give_labelled_faces(start, events) -> None:
    """The Triwizard cloak, the purple 2 of the battle die and a region of the rotation die."""
    simulator, reader, _ = start()
    reader.set_profile(0, "battle")
    reader.set_profile(1, "triwizard")
    sync(reader, events)
    simulator.throw({0: "2P", 1: "CLOAK"})
    rolls = {r.die: r for r in of(DieRolled, sync(reader, events))}
    assert (rolls[0].face, rolls[0].value, rolls[0].again, rolls[0].profile) == (
        "2P",
        2,
        True,
        "battle",
    )
    assert (rolls[1].face, rolls[1].value, rolls[1].profile) == ("CLOAK", 0, "triwizard")
    reader.set_profile(0, "rotation")
    sync(reader, events)
    simulator.roll(0, "forest")
    (roll,) = of(DieRolled, sync(reader, events))
    assert (roll.face, roll.value) == ("forest", None)


def test_host_commands_are_answered(start, events) -> None:
    simulator, reader, _ = start()
    ok = reader.identify(500)
    assert (ok.verb, ok.fields["cmd"], ok.fields["board"]) == ("OK", "IDENTIFY", "sim")
    assert reader.flash(1, 200).fields["cmd"] == "FLASH"
    with pytest.raises(ReaderError) as refused:
        reader.flash(7)
    assert refused.value.code == "die"
    with pytest.raises(ReaderError) as refused:
        reader.request("PROFILE", die=0, name="d20")
    assert refused.value.code == "profile"
    with pytest.raises(ReaderError) as refused:
        reader.request("LEVITATE")
    assert refused.value.code == "verb"


def test_garbage_and_corrupt_lines_are_noise_and_the_next_roll_counts(start, events) -> None:
    simulator, reader, _ = start()
    before = reader.noise_totals()
    simulator.garbage(300)
    simulator.bad_checksum("ROLL")
    simulator.roll(0, 2)  # its ROLL line goes out corrupt: no roll
    simulator.roll(0, 4)
    got = sync(reader, events)
    assert of(DieRolled, got) == [r for r in of(DieRolled, got) if r.face == "4"]
    assert len(of(DieRolled, got)) == 1
    # Every garbage line and the corrupt ROLL counted; the gap it left too.
    totals = reader.noise_totals()
    rejected = totals.kinds["rejected line"] - before.kinds.get("rejected line", 0)
    assert rejected >= 2
    assert totals.kinds["sequence gap"] - before.kinds.get("sequence gap", 0) == 1
    assert totals.missed - before.missed == 1
    # ... and told in at most two reports: the first line at once, the rest summed up.
    told = of(DeviceNoise, got)
    if not any(noise.detail.startswith("noise in the last ") for noise in told):
        told.append(events.until(lambda event: isinstance(event, DeviceNoise), timeout=3)[1])
    assert 1 <= len(told) <= 2
    assert told[-1].detail.startswith("noise in the last ")


def test_a_partial_line_is_noise(start, events) -> None:
    simulator, reader, _ = start()
    simulator.partial("ROLL")
    simulator.roll(1, 6)
    time.sleep(0.4)  # the half line waits for the idle timeout
    got = sync(reader, events)
    assert not of(DieRolled, got)
    assert any(e.detail.startswith("incomplete line discarded") for e in of(DeviceNoise, got))


def test_a_reboot_mid_game_is_seen_and_roll_numbers_restart(start, events) -> None:
    simulator, reader, _ = start()
    simulator.roll(0, 1)
    assert of(DieRolled, sync(reader, events))[0].roll == 1
    simulator.reboot()
    got = sync(reader, events)
    assert any(isinstance(e, DeviceStatus) and e.detail.endswith(", restarted") for e in got)
    simulator.roll(0, 3)
    (roll,) = of(DieRolled, sync(reader, events))
    assert (roll.face, roll.roll) == ("3", 1)  # a new boot: numbered from 1 again, delivered


def test_the_profile_survives_a_reboot(start, events) -> None:
    """The host sends its profiles again after every HELLO."""
    simulator, reader, _ = start()
    reader.set_profile(0, "triwizard")
    simulator.reboot()
    sync(reader, events)
    simulator.roll(0, "CLOAK")
    assert of(DieRolled, sync(reader, events))[0].face == "CLOAK"


def test_an_unplugged_die_is_missing_and_comes_back(start, events) -> None:
    simulator, reader, _ = start()
    simulator.sensor(1, False)
    simulator.roll(1, 2)  # nobody can read it
    got = sync(reader, events)
    assert [e.state for e in of(DieState, got)] == ["missing"]
    assert not of(DieRolled, got)
    simulator.sensor(1, True)
    simulator.roll(1, 2)
    got = sync(reader, events)
    assert of(DieRolled, got)[0].face == "2"


def test_unplugging_the_reader_and_plugging_it_back(start, events) -> None:
    """The stable path comes back with a freshly booted board; the host is back within 2 s."""
    simulator, reader, _ = start()
    simulator.unplug()
    lost = events.until(lambda e: isinstance(e, DeviceStatus) and not e.connected)[1]
    assert lost.detail.startswith("lost")
    simulator.plug()
    plugged = time.monotonic()
    assert reader.wait_ready(2.0)
    assert time.monotonic() - plugged < 2.0
    got = sync(reader, events)
    assert any(isinstance(e, DeviceStatus) and e.detail.endswith(", restarted") for e in got)
    simulator.roll(0, 6)
    assert [r.face for r in of(DieRolled, sync(reader, events))] == ["6"]


def test_a_process_that_dies_is_noticed_and_close_is_prompt(start, events) -> None:
    simulator, reader, _ = start()
    simulator.kill()
    lost = events.until(lambda e: isinstance(e, DeviceStatus) and not e.connected)[1]
    assert lost.detail.startswith("lost")
    started = time.monotonic()
    reader.close()
    assert time.monotonic() - started < 0.5


def test_real_time_speed_takes_as_long_as_a_real_throw(start, events) -> None:
    simulator, reader, _ = start(speed=1.0)
    began = time.monotonic()
    simulator.roll(0, 3)
    events.until(lambda e: isinstance(e, DieRolled), timeout=6)
    assert time.monotonic() - began > 0.8  # the die flies, tumbles and settles for a while


def test_the_simulator_program_on_its_own(no_leaked_fds) -> None:
    """``python -m companion.devices.dice_sim`` greets, obeys stdin and the host, and quits."""
    master, slave = os.openpty()
    tty.setraw(slave)
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.devices.dice_sim", "--fd", str(master), "--seed", "3"],
        stdin=subprocess.PIPE,
        stderr=subprocess.PIPE,
        pass_fds=(master,),
    )
    os.close(master)
    pending = b""

    def lines(until: str, timeout: float = 5.0) -> list:
        nonlocal pending
        got = []
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                got.append(parse_line(line))
                if got[-1].verb == until:
                    return got
            ready, _, _ = select.select([slave], [], [], max(0.0, deadline - time.monotonic()))
            assert ready, f"no {until} within {timeout} s: {got}"
            pending += os.read(slave, 4096)

    try:
        assert lines("HELLO")[0].fields["why"] == "power"
        assert process.stdin is not None
        process.stdin.write(b"throw 0=4\nfly away\n")
        process.stdin.flush()
        roll = lines("ROLL")[-1]
        assert (roll.fields["die"], roll.fields["face"]) == ("0", "4")
        os.write(slave, encode("PING", 0))
        assert lines("PONG")[-1].fields == {"ref": "0"}
        process.stdin.write(b"quit\n")
        process.stdin.close()
        assert process.wait(5) == 0
        assert b"unknown command 'fly away'" in process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stderr.close()
        os.close(slave)


def test_the_board_runs_the_firmware_without_any_io() -> None:
    """SimulatedBoard on a fake clock: the same seed and commands give the same bytes."""
    outputs = []
    for _ in range(2):
        now = [0.0]
        board = SimulatedBoard(9, clock=lambda: now[0])
        out = board.step()
        for command in ("throw 0 1", "crooked 0", "place 1 6", "bump", "reboot"):
            board.command(command)
            out += board.step()
            now[0] += 0.5
        board.host(encode("STATUS", 0))
        out += board.step()
        outputs.append(out)
    assert outputs[0] == outputs[1]
    verbs = [parse_line(line).verb for line in outputs[0].splitlines()]
    assert verbs.count("ROLL") == 2 and verbs.count("CROOKED") == 1
    assert verbs.count("PLACED") == 1 and verbs.count("HELLO") == 2
    with pytest.raises(ValueError, match="unknown command"):
        SimulatedBoard(1).command("juggle 3")
    with pytest.raises(ValueError, match="no die 5"):
        SimulatedBoard(1).command("throw 5")
