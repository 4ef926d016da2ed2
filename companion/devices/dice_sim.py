"""A simulated dice reader: a separate process speaking the protocol over a pty.

The process (``python -m companion.devices.dice_sim --fd N --seed S``) plays
the reader's firmware on the pty master ``N``: it writes ``HELLO`` at start,
answers the host's ``HELLO`` and ``PING``, and obeys the simulator-only host
commands ``ROLL`` and ``GARBAGE``.  Its stdin takes one command per line from
whoever runs it:

``roll <die> [face]``
    report die ``die`` showing ``face`` (any non-negative integer), or a
    face drawn from ``--faces`` with the seeded RNG;
``garbage <nbytes>``
    ``nbytes`` random bytes (many of them newlines), then a newline;
``badsum``
    a ROLL line with a wrong checksum;
``partial``
    the first half of a ROLL line and never the rest;
``quit``
    exit (so does end of stdin, or the pty being closed on the host side).

Faces and noise come from separate RNGs seeded from ``--seed``, so the faces
depend only on the seed and the order of rolls.  ``SimulatedDiceReader`` runs
the process from the host side; ``start_simulated_dice`` also connects a
``SerialDiceReader`` to it.
"""

from __future__ import annotations

import argparse
import errno
import os
import random
import re
import select
import subprocess
import sys
import tty
from collections.abc import Sequence
from contextlib import suppress

from .dice import SerialDiceReader
from .dice_protocol import (
    PROTOCOL_VERSION,
    SEQ_MODULUS,
    LineSplitter,
    ProtocolError,
    checksum,
    encode,
    parse_line,
)
from .events import Emit

FIRMWARE = "companion-sim-1"
DEFAULT_FACES = (1, 2, 3, 4, 5, 6)
_NEWLINE_ODDS = 16  # about one garbage byte in this many is a newline
_UNSAFE = re.compile(r"[^A-Za-z0-9._:-]")


class DiceFirmware:
    """What the simulated reader says; each method returns the bytes to send."""

    def __init__(self, seed: int, faces: Sequence[int] = DEFAULT_FACES) -> None:
        if not faces:
            raise ValueError("a die needs at least one face")
        self.faces = tuple(faces)
        self._faces_rng = random.Random(seed)
        self._noise_rng = random.Random(f"{seed}:noise")
        self._seq = 0

    def _line(self, verb: str, **fields: object) -> bytes:
        line = encode(verb, self._seq, **fields)
        self._seq = (self._seq + 1) % SEQ_MODULUS
        return line

    def hello(self) -> bytes:
        """The HELLO line."""
        return self._line("HELLO", proto=PROTOCOL_VERSION, fw=FIRMWARE)

    def roll(self, die: int, face: int | None = None) -> bytes:
        """A ROLL line; ``face`` is drawn from ``faces`` when None."""
        if face is None:
            face = self._faces_rng.choice(self.faces)
        return self._line("ROLL", die=die, face=face)

    def garbage(self, nbytes: int) -> bytes:
        """``nbytes`` random bytes, about one in 16 a newline, then a newline."""
        rng = self._noise_rng
        noise = bytes(
            0x0A if rng.randrange(_NEWLINE_ODDS) == 0 else rng.randrange(256)
            for _ in range(nbytes)
        )
        return noise + b"\n"

    def bad_checksum(self) -> bytes:
        """A ROLL line (using up a sequence number) whose checksum is wrong."""
        line = self.roll(0, self._noise_rng.choice(self.faces))
        body = line[: line.rindex(b"*")]
        wrong = f"{int(checksum(body), 16) ^ 0x5A:02X}".encode("ascii")
        return body + b"*" + wrong + b"\n"

    def partial(self) -> bytes:
        """The first half of a ROLL line (using up a sequence number)."""
        line = self.roll(0, self._noise_rng.choice(self.faces))
        return line[: len(line) // 2]

    def error(self, reason: str) -> bytes:
        """An ERR line; ``reason`` is squeezed into the allowed characters."""
        return self._line("ERR", msg=_UNSAFE.sub("-", reason)[:120] or "-")

    def host_line(self, line: bytes) -> bytes:
        """The reply to one line the host sent (possibly nothing)."""
        try:
            message = parse_line(line)
        except ProtocolError as err:
            return self.error(str(err))
        fields = message.fields
        if message.verb == "HELLO":
            return self.hello()
        if message.verb == "PING":
            return self._line("PONG")
        if message.verb == "ROLL":
            die, face = fields.get("die", ""), fields.get("face")
            if not die.isdigit() or (face is not None and not face.isdigit()):
                return self.error("ROLL needs die=<int> and optionally face=<int>")
            return self.roll(int(die), None if face is None else int(face))
        if message.verb == "GARBAGE":
            count = fields.get("n", "")
            if not count.isdigit():
                return self.error("GARBAGE needs n=<int>")
            return self.garbage(int(count))
        return self.error(f"unknown verb {message.verb}")

    def stdin_command(self, text: str) -> bytes | None:
        """The bytes for one stdin command, or None for ``quit``.

        Raises ``ValueError`` for a command it does not understand.
        """
        words = text.split()
        match words:
            case ["roll", die] if die.isdigit():
                return self.roll(int(die))
            case ["roll", die, face] if die.isdigit() and face.isdigit():
                return self.roll(int(die), int(face))
            case ["garbage", count] if count.isdigit():
                return self.garbage(int(count))
            case ["badsum"]:
                return self.bad_checksum()
            case ["partial"]:
                return self.partial()
            case ["quit"]:
                return None
        raise ValueError(f"unknown command {text!r}")


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data) :]


def run(fd: int, firmware: DiceFirmware, stdin_fd: int = 0) -> int:
    """Serve the pty master ``fd`` until ``quit``, end of stdin or hang-up."""
    _write_all(fd, firmware.hello())
    commands, host = LineSplitter(), LineSplitter()
    while True:
        ready, _, _ = select.select([stdin_fd, fd], [], [])
        if stdin_fd in ready:
            data = os.read(stdin_fd, 4096)
            if not data:
                return 0
            for line in commands.feed(data):
                try:
                    reply = firmware.stdin_command(line.decode("ascii", "replace"))
                except ValueError as error:
                    print(f"dice_sim: {error}", file=sys.stderr, flush=True)
                    continue
                if reply is None:
                    return 0
                _write_all(fd, reply)
        if fd in ready:
            try:
                data = os.read(fd, 4096)
            except OSError as error:
                if error.errno == errno.EIO:  # every slave fd is closed
                    return 0
                raise
            for line in host.feed(data):
                _write_all(fd, firmware.host_line(line))


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point of the simulator process."""
    parser = argparse.ArgumentParser(
        prog="python -m companion.devices.dice_sim",
        description="Simulated dice reader on an inherited pty master fd.",
    )
    parser.add_argument("--fd", type=int, required=True, help="pty master file descriptor")
    parser.add_argument("--seed", type=int, required=True, help="seed for the faces")
    parser.add_argument(
        "--faces",
        default=",".join(map(str, DEFAULT_FACES)),
        help="comma-separated faces of a die (default: %(default)s)",
    )
    args = parser.parse_args(argv)
    try:
        faces = tuple(int(face) for face in args.faces.split(","))
    except ValueError:
        parser.error(f"--faces must be comma-separated integers, not {args.faces!r}")
    try:
        return run(args.fd, DiceFirmware(args.seed, faces))
    except KeyboardInterrupt:  # Ctrl-C reaches the whole process group
        return 130


class SimulatedDiceReader:
    """Runs the simulator process on a fresh pty; the host opens ``port``.

    Use ``start()`` (or ``with``), then ``roll()`` etc., then ``close()``.
    """

    def __init__(self, *, seed: int, faces: Sequence[int] = DEFAULT_FACES) -> None:
        self.seed = seed
        self.faces = tuple(faces)
        self.port = ""
        self.pid: int | None = None  # of the last process started; kept after close()
        self._slave: int | None = None
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> SimulatedDiceReader:
        """Create the pty and start the process; sets ``port``."""
        if self._process is not None:
            raise RuntimeError("simulated dice reader already started")
        master, slave = os.openpty()
        try:
            tty.setraw(slave)  # no echo, no newline translation
            self.port = os.ttyname(slave)
            self._process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "companion.devices.dice_sim",
                    "--fd",
                    str(master),
                    "--seed",
                    str(self.seed),
                    "--faces",
                    ",".join(map(str, self.faces)),
                ],
                stdin=subprocess.PIPE,
                pass_fds=(master,),
            )
        except BaseException:
            os.close(slave)
            raise
        finally:
            os.close(master)
        self.pid = self._process.pid
        # Holding a slave fd keeps the pty up while the host closes and reopens it.
        self._slave = slave
        return self

    @property
    def running(self) -> bool:
        """Whether the process is alive."""
        return self._process is not None and self._process.poll() is None

    def _command(self, text: str) -> None:
        if self._process is None or self._process.stdin is None:
            raise RuntimeError("simulated dice reader is not started")
        try:
            self._process.stdin.write(text.encode("ascii") + b"\n")
            self._process.stdin.flush()
        except BrokenPipeError as error:
            raise RuntimeError("simulated dice reader process has exited") from error

    def roll(self, die: int = 0, face: int | None = None) -> None:
        """Make die ``die`` show ``face`` (or a seeded random face)."""
        self._command(f"roll {die}" if face is None else f"roll {die} {face}")

    def garbage(self, n: int) -> None:
        """Send ``n`` random bytes and a newline."""
        self._command(f"garbage {n}")

    def bad_checksum(self) -> None:
        """Send a ROLL line with a wrong checksum."""
        self._command("badsum")

    def partial(self) -> None:
        """Send the first half of a ROLL line and never the rest."""
        self._command("partial")

    def kill(self) -> None:
        """Kill the process, as if the reader were unplugged; ``close()`` still needed."""
        if self._process is not None:
            self._process.kill()
            self._process.wait()

    def close(self, timeout: float = 2.0) -> None:
        """Ask the process to quit, kill it if it has not within ``timeout``, free the pty."""
        process, self._process = self._process, None
        if process is not None:
            if process.stdin is not None:
                with suppress(BrokenPipeError):
                    if process.poll() is None:
                        process.stdin.write(b"quit\n")
                with suppress(BrokenPipeError):
                    process.stdin.close()  # closes the pipe even if the flush fails
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._slave is not None:
            os.close(self._slave)
            self._slave = None

    def __enter__(self) -> SimulatedDiceReader:
        return self.start() if self._process is None else self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def start_simulated_dice(
    emit: Emit,
    *,
    seed: int,
    faces: Sequence[int] = DEFAULT_FACES,
    name: str = "dice",
    timeout: float = 5.0,
) -> tuple[SimulatedDiceReader, SerialDiceReader]:
    """Start a simulator and a ``SerialDiceReader`` on its pty, emitting to ``emit``.

    Returns once the reader has said HELLO and answered a PING, so that the
    greetings are over (their events already emitted) and nothing sent
    afterwards is lost.  Raises ``RuntimeError`` (having closed both) if that
    takes more than ``timeout`` seconds each.  Close the reader before the
    simulator.
    """
    simulator = SimulatedDiceReader(seed=seed, faces=faces).start()
    try:
        reader = SerialDiceReader(simulator.port, emit, name=name)
    except BaseException:
        simulator.close()
        raise
    try:
        greeted = reader.wait_ready(timeout) and reader.ping(timeout)
    except ConnectionError:
        greeted = False
    if not greeted:
        reader.close()
        simulator.close()
        raise RuntimeError(f"simulated dice reader did not greet the host within {timeout} s")
    return simulator, reader


if __name__ == "__main__":
    sys.exit(main())
