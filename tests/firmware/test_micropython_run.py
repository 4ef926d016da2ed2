"""The firmware logic does the same under a real MicroPython as under CPython, byte for byte.

An optional local check, skipped unless a MicroPython binary is at hand: the one named by
``COMPANION_MICROPYTHON``, else ``micropython`` on PATH (the unix port, built from the
MicroPython sources, will do). The inputs are made here, in CPython: accelerometer traces from
``companion.devices.dice_world.World`` and host lines (good ones, bad ones, split and glued
ones). ``mpy_runner.py`` feeds them to a ``companion_dice.reader.Reader`` under each
interpreter and prints what it sends and how its LEDs are lit; the two transcripts must be
identical. This catches what no reading of the source can: dict order, float formatting,
``bool`` that is no ``int``, different error messages, missing methods on a path the code
really takes.

The unix port computes in double precision, like CPython; the RP2040 build of MicroPython
uses single-precision floats. To check that too, point ``COMPANION_MICROPYTHON`` at a unix port
built with ``CFLAGS_EXTRA=-DMICROPY_FLOAT_IMPL=MICROPY_FLOAT_IMPL_FLOAT``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
RUNNER = Path(__file__).resolve().parent / "mpy_runner.py"
TIMEOUT = 300


def find_micropython() -> tuple[str | None, str]:
    """(the binary, or None) and why not."""
    named = os.environ.get("COMPANION_MICROPYTHON")
    if named:
        if os.path.isfile(named) and os.access(named, os.X_OK):
            return named, ""
        return None, f"COMPANION_MICROPYTHON={named} is not an executable file"
    found = shutil.which("micropython")
    if found:
        return found, ""
    return None, (
        "no MicroPython: set COMPANION_MICROPYTHON to a MicroPython binary (e.g. the "
        "unix port) or put micropython on PATH"
    )


@pytest.fixture(scope="module")
def micropython() -> str:
    binary, why = find_micropython()
    if binary is None:
        pytest.skip(why)
    done = subprocess.run(
        [binary, "-c", "import sys; print(sys.implementation.name)"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.stdout.strip() == "micropython", (binary, done.stdout, done.stderr)
    return binary


def mpy_env() -> dict[str, str]:
    # MICROPYPATH replaces the default path, whose ".frozen" holds any frozen modules
    return dict(os.environ, MICROPYPATH=os.pathsep.join([str(FIRMWARE), ".frozen"]))


def cpython_env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(FIRMWARE))


# -- the inputs -----------------------------------------------------------------------------


def host(verb: str, seq: int, **fields: object) -> bytes:
    from companion_dice.protocol import encode

    return encode(verb, seq, **fields)


class Script:
    """The runner's commands on the world's clock: the dice are sampled every 10 ms, with a tick
    after every step and the LEDs every 50 ms; host bytes arrive between two steps."""

    def __init__(self, world, dice: int, leds: str, uid: str = "-", boot: str = "-"):
        self.world = world
        self.lines = [f"READER {dice} pico {uid} {leds} {boot}", "BOOT 0", "P 5012 usb"]
        self.t = 0

    def samples(self, samples: list[tuple[int, int, int, int, int]]) -> None:
        for i, (die, t, x, y, z) in enumerate(samples):
            assert t >= self.t
            self.lines.append(f"S {die} {t} {x} {y} {z}")
            if i + 1 == len(samples) or samples[i + 1][1] != t:
                self.lines.append(f"T {t}")
                if t % 50 == 0:
                    self.lines.append(f"L {t}")
                self.t = t

    def wait(self, ms: int) -> None:
        """The dice lie still for ``ms``."""
        self.samples(self.world.rest(ms))

    def host(self, data: bytes) -> None:
        """``data`` arrives from the host 5 ms after the last sample; 10 ms pass."""
        self.lines.append(f"H {self.t + 5} {data.hex()}")
        self.wait(10)

    def add(self, command: str) -> None:
        self.lines.append(command)

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def make_script(seed: int) -> str:
    from companion.devices.dice_world import World

    world = World(dice=2, seed=seed)
    script = Script(world, 2, "11", uid=f"e66{seed:05d}", boot=f"b{seed}")
    seq = 0

    def send(verb: str, **fields: object) -> None:
        nonlocal seq
        script.host(host(verb, seq, **fields))
        seq += 1

    script.wait(300)
    send("HELLO", proto=1)
    send("PING")
    send("STATUS")
    script.samples(world.throw({0: 2, 1: 5}))
    send("PROFILE", die=0, name="battle")
    send("PROFILE", die=1, name="custom", faces="A,B,C,D,E,F")
    script.samples(world.throw({0: 2, 1: 3}))
    script.samples(world.throw({0: 4}))
    send("PROFILE", die=1, name="rotation")
    send("IDENTIFY", ms=500)
    send("FLASH", die=1, ms=500)
    script.samples(world.throw({1: 0}))
    script.samples(world.throw_crooked(0))
    send("FLASH", die=0)
    script.samples(world.place(1, 4))
    script.samples(world.pick_up_and_set_down(0))
    script.samples(world.bump())
    # what a host may get wrong
    send("PROFILE", die=1, name="nope")
    send("PROFILE", die=7, name="d6")
    send("PROFILE", die=0)
    send("FLASH", die=0, ms="abc")
    send("IDENTIFY", ms=99999999)
    send("FROB", x=1)
    script.host(b"PING 3*00\n")  # bad checksum
    script.host(b"\xff\xfe\x80 noise\n")  # not ASCII
    script.host("PING 4 x=\u00e9*00\n".encode())  # valid UTF-8, not ASCII
    script.host(b"\n\r\n")  # empty lines
    script.host(b"Z" * 300 + b"\n")  # too long
    ping = host("PING", seq)
    seq += 1
    script.host(ping[:4])  # one line in two pieces
    script.host(ping[4:])
    script.host(host("PING", seq)[:-1] + b"\r\n")  # CRLF
    seq += 1
    script.host(host("PING", seq) + host("STATUS", seq + 1))  # two lines at once
    seq += 2
    script.host(b"PING 9")  # left incomplete ...
    script.wait(300)  # ... and dropped
    # a sensor drops out, and comes back with the next reading
    script.add(f"F 1 {script.t} i2c-timeout")
    script.samples(world.throw({0: 1}))
    script.add("P 4711 battery")
    script.samples(world.throw({0: 3, 1: 2}))
    send("STATUS")
    # long enough for the reader's own POWER report
    script.wait(30000)
    send("PING")
    return script.text()


# -- running it -----------------------------------------------------------------------------


def run(command: list[str], env: dict[str, str], script: Path) -> str:
    done = subprocess.run(
        command + [str(RUNNER), str(script)],
        capture_output=True,
        env=env,
        timeout=TIMEOUT,
        cwd=script.parent,
        check=False,
    )
    assert done.returncode == 0 and not done.stderr, (
        f"{command[0]} failed ({done.returncode}):\n{done.stderr.decode(errors='replace')}"
        f"\n--- last output ---\n{done.stdout.decode(errors='replace')[-2000:]}"
    )
    return done.stdout.decode()


def sent_bytes(transcript: str) -> bytes:
    return b"".join(
        bytes.fromhex(line.split()[2])
        for line in transcript.splitlines()
        if line.startswith("OUT ")
    )


def readable(transcript: str) -> list[str]:
    """The transcript with the output bytes as text, for a readable difference."""
    lines = []
    for line in transcript.splitlines():
        if line.startswith("OUT "):
            _, t, data = line.split()
            lines += [f"OUT {t} {sent!r}" for sent in bytes.fromhex(data).splitlines()]
        else:
            lines.append(line)
    return lines


def first_difference(mpy: list[str], cpy: list[str]) -> str:
    for i, (a, b) in enumerate(zip(mpy, cpy)):
        if a != b:
            context = "\n".join(cpy[max(0, i - 3) : i])
            return (
                f"transcripts differ at line {i + 1}:\n{context}\n"
                f"MicroPython: {a}\nCPython:     {b}"
            )
    return f"one transcript is longer: MicroPython {len(mpy)} lines, CPython {len(cpy)}"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_reader_does_the_same_under_micropython(
    micropython: str, seed: int, tmp_path: Path
) -> None:
    script = tmp_path / "inputs.txt"
    script.write_text(make_script(seed))
    cpy = run([sys.executable], cpython_env(), script)
    mpy = run([micropython], mpy_env(), script)
    sent = sent_bytes(cpy)
    assert sent.count(b"\nROLL ") + sent.startswith(b"ROLL ") >= 5, sent.decode()
    for verb in (b"HELLO ", b"PONG ", b"OK ", b"ERR ", b"DIE ", b"POWER "):
        assert b"\n" + verb in sent, verb
    assert "LED" in cpy and cpy.endswith("\n") and "\nEND " in cpy
    if mpy != cpy:
        pytest.fail(first_difference(readable(mpy), readable(cpy)))


def firmware_sources() -> list[Path]:
    files = sorted(
        p for p in (FIRMWARE / "companion_dice").rglob("*.py") if "__pycache__" not in p.parts
    )
    if (FIRMWARE / "main.py").exists():
        files.append(FIRMWARE / "main.py")
    return files


def test_micropython_compiles_every_firmware_file(micropython: str) -> None:
    """Syntax MicroPython rejects, in every file, main.py included (which only the board runs)."""
    code = (
        "import sys\n"
        "for path in sys.argv[1:]:\n"
        "    with open(path) as f:\n"
        "        source = f.read()\n"
        "    try:\n"
        "        compile(source, path, 'exec')\n"
        "    except SyntaxError as e:\n"
        "        print(path, 'SyntaxError', e)\n"
    )
    paths = [str(p.relative_to(ROOT)) for p in firmware_sources()]
    done = subprocess.run(
        [micropython, "-c", code, *paths],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=mpy_env(),
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 0 and not done.stdout and not done.stderr, done.stdout + done.stderr


def test_micropython_imports_every_firmware_module(micropython: str) -> None:
    modules = sorted(
        p.stem for p in (FIRMWARE / "companion_dice").glob("*.py") if p.stem != "__init__"
    )
    code = (
        "import sys\n"
        "bad = 0\n"
        "for name in sys.argv[1:]:\n"
        "    try:\n"
        "        __import__('companion_dice.' + name)\n"
        "    except Exception as e:\n"
        "        bad += 1\n"
        "        print(name, type(e).__name__, e)\n"
        "        sys.print_exception(e)\n"
        "sys.exit(1 if bad else 0)\n"
    )
    done = subprocess.run(
        [micropython, "-c", code, *modules],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=mpy_env(),
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
