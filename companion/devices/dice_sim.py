"""The simulated dice reader: the real firmware logic, fed synthetic sensor traces, behind a pty.

``python -m companion.devices.dice_sim --fd N --seed S`` is a separate process that plays the
reader board on the pty master ``N``. It runs the firmware's own ``companion_dice.reader.Reader``
(the code a real board runs) and feeds it accelerometer samples from ``dice_world.World``, a
seeded model of dice being thrown, set down by hand, bumped, or landing crooked. So the host sees
exactly the lines real firmware would send, and its driver (``SerialDiceReader``) is the real one.

Whoever runs the process drives the physical world through its standard input, one command per
line (``SimulatedDiceReader`` has a method for each):

``throw <die>[=<face>] ...``
    throw these dice together (each showing ``face``, or a seeded random face);
``crooked <die>``
    throw a die that comes to rest leaning against something (unreadable);
``place <die> [face]``
    pick a die up and set it down by hand on ``face`` (or on the face it showed);
``bump``
    jolt the table: no die turns over;
``sensor <die> off|on``
    unplug or re-plug a die's cable (its sensor stops answering);
``garbage <nbytes>``
    ``nbytes`` random bytes (many of them newlines), then a newline;
``badsum [VERB]`` / ``partial [VERB]``
    the next line of that verb (default ``ROLL``) goes out with a wrong checksum / cut in half
    and never finished (it still uses up its sequence number, as a line lost on the wire does);
``reboot``
    the board restarts: a new boot, sequence numbers and roll numbers from the start;
``quit``
    exit (so does end of stdin, or the pty being closed on the host side).

``--speed 0`` (the default) plays every act instantly; ``--speed 1`` plays it in real time, so a
throw takes as long as a real one (about 1.5 s) and pages show the die rolling.
"""

from __future__ import annotations

import argparse
import errno
import os
import random
import select
import shutil
import subprocess
import sys
import tempfile
import time
import tty
from collections import deque
from collections.abc import Callable, Sequence
from contextlib import suppress
from pathlib import Path

from companion_dice.protocol import checksum
from companion_dice.reader import Reader

from .dice import SerialDiceReader
from .dice_world import World
from .events import Emit

BOARD = "sim"
_NEWLINE_ODDS = 16  # about one garbage byte in this many is a newline
SLOTS = 6
SETTLE_MS = 500  # still dice after a (re)boot or a re-plugged sensor: more than the settle window


class SimulatedBoard:
    """The simulated reader board without its I/O: the firmware, the dice and a clock.

    ``command()`` acts on one stdin command, ``host()`` takes bytes from the host, and
    ``step()`` releases the samples that are due and returns the bytes to send. Time is virtual:
    real time since the start plus however far instant acts have pushed it.
    """

    def __init__(
        self,
        seed: int,
        dice: int = 2,
        speed: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if speed < 0:
            raise ValueError("speed must be 0 (instant) or more")
        self.seed = seed
        self.speed = speed
        self._clock = clock
        self._start = clock()
        self._ahead = 0  # ms that instant acts pushed the virtual clock beyond real time
        self._rng = random.Random(f"{seed}:faces")
        self._noise = random.Random(f"{seed}:noise")
        self.world = World(dice, seed)
        self._offset = 0  # reader time = world time + offset
        self._samples: deque[tuple[int, int, int, int, int]] = deque()
        self._sensor_off: set[int] = set()
        self._faults: list[tuple[str, str]] = []  # (fault, verb) for the next matching lines
        self._raw: list[bytes] = []  # bytes to send that bypass the firmware (noise)
        self.boots = 0
        self.reader = self._boot()
        self._settle()

    # -- time ---------------------------------------------------------------------------------

    def now(self) -> int:
        """The virtual time in ms."""
        return int((self._clock() - self._start) * 1000) + self._ahead

    def _boot(self) -> Reader:
        self.boots += 1
        boot = f"{self._noise.getrandbits(32):08x}"
        reader = Reader(
            dice=len(self.world.dice),
            board=BOARD,
            uid=f"SIM{self.seed:X}",
            leds=(True,) * len(self.world.dice),
            boot=boot,
        )
        reader.boot(self.now())
        reader.power(5020 + self._noise.randrange(-40, 41))
        return reader

    def _settle(self) -> None:
        """The dice lie still for a moment, as they do when a board starts: the firmware learns
        which face each one shows before anything else happens."""
        self._play(self.world.rest(SETTLE_MS))

    def _play(self, samples: list[tuple[int, int, int, int, int]]) -> None:
        """Queue an act's samples, starting now (or after the act before it)."""
        if not samples:
            return
        last = self._samples[-1][1] if self._samples else None
        start = samples[0][1] + self._offset
        floor = self.now() if last is None else last + 1
        if start < floor:
            self._offset += floor - start
        self._samples.extend((d, t + self._offset, x, y, z) for d, t, x, y, z in samples)

    def next_due(self) -> float | None:
        """Seconds until the next sample is due (0 when instant), None if none is queued."""
        if not self._samples:
            return None
        if self.speed == 0:
            return 0.0
        return max(0.0, (self._samples[0][1] - self.now()) / 1000 / self.speed)

    # -- the world ----------------------------------------------------------------------------

    def _die(self, text: str) -> int:
        die = _int(text)
        if not 0 <= die < len(self.world.dice):
            raise ValueError(f"there is no die {die}")
        return die

    def _slot(self, die: int, face: str | None) -> int:
        """Where die ``die`` must land to show ``face`` (a seeded random face if None)."""
        if face is None:
            return self._rng.randrange(SLOTS)
        return self.reader.profile(die).slot_for(face)

    def command(self, text: str) -> bool:
        """Act on one command line; False for ``quit``. ``ValueError`` for a bad command."""
        words = text.split()
        if not words:
            return True
        verb, args = words[0], words[1:]
        if verb == "quit":
            return False
        if verb == "throw" and args:
            faces: dict[int, int] = {}
            for arg in args:
                text, _, face = arg.partition("=")
                die = self._die(text)
                faces[die] = self._slot(die, face or None)
            self._play(self.world.throw(faces))
        elif verb == "crooked" and len(args) == 1:
            self._play(self.world.throw_crooked(self._die(args[0])))
        elif verb == "place" and len(args) in (1, 2):
            die = self._die(args[0])
            if len(args) == 2:
                self._play(self.world.place(die, self._slot(die, args[1])))
            else:
                self._play(self.world.pick_up_and_set_down(die))
        elif verb == "bump" and not args:
            self._play(self.world.bump())
        elif verb == "sensor" and len(args) == 2 and args[1] in ("on", "off"):
            die = self._die(args[0])
            if args[1] == "off":
                self._sensor_off.add(die)
                self.reader.sensor_failed(die, self.now(), "no answer from the accelerometer")
            elif die in self._sensor_off:
                self._sensor_off.discard(die)
                self._settle()
        elif verb == "garbage" and len(args) == 1:
            self._raw.append(self._corrupt(self.reader.take_output()))  # keep the order
            self._raw.append(self._make_garbage(_int(args[0])))
        elif verb in ("badsum", "partial") and len(args) <= 1:
            self._faults.append((verb, args[0] if args else "ROLL"))
        elif verb == "reboot" and not args:
            self._raw.append(self._corrupt(self.reader.take_output()))  # said before it restarted
            self.reader = self._boot()
            self._settle()
        else:
            raise ValueError(f"unknown command {text.strip()!r}")
        return True

    def _make_garbage(self, nbytes: int) -> bytes:
        rng = self._noise
        return (
            bytes(
                0x0A if rng.randrange(_NEWLINE_ODDS) == 0 else rng.randrange(256)
                for _ in range(nbytes)
            )
            + b"\n"
        )

    def host(self, data: bytes) -> None:
        """Bytes the host wrote."""
        self.reader.host_bytes(data, self.now())

    def step(self) -> bytes:
        """Release the due samples, let time pass, and return what the board sends now."""
        if self.speed == 0 and self._samples:
            self._ahead += max(0, self._samples[-1][1] - self.now())
        now = self.now()
        while self._samples and self._samples[0][1] <= now:
            die, t, x, y, z = self._samples.popleft()
            if die in self._sensor_off:
                self.reader.sensor_failed(die, t, "no answer from the accelerometer")
            else:
                self.reader.sample(die, t, x, y, z)
        self.reader.tick(now)
        out = b"".join(self._raw) + self._corrupt(self.reader.take_output())
        self._raw = []
        return out

    def _corrupt(self, data: bytes) -> bytes:
        if not self._faults or not data:
            return data
        lines = data.split(b"\n")[:-1]
        out = []
        for line in lines:
            verb = line.split(b" ", 1)[0].decode("ascii", "replace")
            fault = next((f for f in self._faults if f[1] == verb), None)
            if fault is None:
                out.append(line + b"\n")
                continue
            self._faults.remove(fault)
            if fault[0] == "badsum":
                body = line[: line.rindex(b"*")]
                out.append(body + b"*" + f"{int(checksum(body), 16) ^ 0x5A:02X}".encode() + b"\n")
            else:
                out.append(line[: len(line) // 2])
        return b"".join(out)


def _int(text: str) -> int:
    if not text.isdigit():
        raise ValueError(f"{text!r} is not a die number")
    return int(text)


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data) :]


def run(fd: int, board: SimulatedBoard, stdin_fd: int = 0) -> int:
    """Serve the pty master ``fd`` until ``quit``, end of stdin or hang-up."""
    commands = b""
    while True:
        _write_all(fd, board.step())
        due = board.next_due()
        ready, _, _ = select.select([stdin_fd, fd], [], [], 0.05 if due is None else min(due, 0.05))
        if stdin_fd in ready:
            data = os.read(stdin_fd, 4096)
            if not data:
                return 0
            commands += data
            *lines, commands = commands.split(b"\n")
            for line in lines:
                try:
                    if not board.command(line.decode("ascii", "replace")):
                        _write_all(fd, board.step())
                        return 0
                except ValueError as error:
                    print(f"dice_sim: {error}", file=sys.stderr, flush=True)
        if fd in ready:
            try:
                data = os.read(fd, 4096)
            except OSError as error:
                if error.errno == errno.EIO:  # every slave fd is closed
                    return 0
                raise
            board.host(data)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point of the simulator process."""
    parser = argparse.ArgumentParser(
        prog="python -m companion.devices.dice_sim",
        description="Simulated dice reader (the real firmware logic) on an inherited pty master.",
    )
    parser.add_argument("--fd", type=int, required=True, help="pty master file descriptor")
    parser.add_argument("--seed", type=int, required=True, help="seed of the simulated world")
    parser.add_argument("--dice", type=int, default=2, help="dice on the reader (default 2)")
    parser.add_argument(
        "--speed",
        type=float,
        default=0.0,
        help="0 plays acts instantly, 1 in real time (default 0)",
    )
    args = parser.parse_args(argv)
    try:
        return run(args.fd, SimulatedBoard(args.seed, args.dice, args.speed))
    except KeyboardInterrupt:  # Ctrl-C reaches the whole process group
        return 130


class SimulatedDiceReader:
    """Runs the simulator process on a fresh pty, reached by a stable path like a real one.

    ``port`` is a symbolic link in a private folder, named like a ``/dev/serial/by-id`` entry,
    that points at the current pty: ``unplug()`` and ``plug()`` take the reader away and bring a
    freshly booted one back behind the same path, as pulling and re-inserting the USB cable does.
    Use ``start()`` (or ``with``), then the world's acts, then ``close()``.
    """

    LINK_NAME = "usb-companion_simulated_dice_reader-if00"

    def __init__(
        self, *, seed: int, dice: int = 2, speed: float = 0.0, folder: Path | None = None
    ) -> None:
        self.seed = seed
        self.dice = dice
        self.speed = speed
        # The link lives in ``folder`` (the table's data folder, so nothing is left behind even
        # if the process is killed), or in a private temporary folder removed by close().
        self._own_folder = folder is None
        self._folder = (
            Path(tempfile.mkdtemp(prefix="companion-dice-")) if folder is None else Path(folder)
        )
        self._folder.mkdir(parents=True, exist_ok=True)
        self.port = str(self._folder / self.LINK_NAME)
        self.pid: int | None = None  # of the last process started; kept after close()
        self.plugs = 0
        self._slave: int | None = None
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> SimulatedDiceReader:
        """Create the pty and the link, and start the process."""
        if self._process is not None:
            raise RuntimeError("simulated dice reader already started")
        master, slave = os.openpty()
        try:
            tty.setraw(slave)  # no echo, no newline translation
            self.plugs += 1
            self._process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "companion.devices.dice_sim",
                    "--fd",
                    str(master),
                    "--seed",
                    str(self.seed * 1000 + self.plugs),
                    "--dice",
                    str(self.dice),
                    "--speed",
                    str(self.speed),
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
        link = Path(self.port)
        with suppress(FileNotFoundError):
            link.unlink()
        link.symlink_to(os.ttyname(slave))
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

    def throw(self, faces: dict[int, str | int | None]) -> None:
        """Throw these dice together; each shows the given face, or a seeded random one."""
        words = [f"{die}" if face is None else f"{die}={face}" for die, face in faces.items()]
        self._command("throw " + " ".join(words))

    def roll(self, die: int = 0, face: str | int | None = None) -> None:
        """Throw one die."""
        self.throw({die: face})

    def crooked(self, die: int = 0) -> None:
        """Throw a die that lands leaning against something."""
        self._command(f"crooked {die}")

    def place(self, die: int = 0, face: str | int | None = None) -> None:
        """Set a die down by hand, on ``face`` or back on the face it showed."""
        self._command(f"place {die}" if face is None else f"place {die} {face}")

    def bump(self) -> None:
        """Jolt the table."""
        self._command("bump")

    def sensor(self, die: int, plugged: bool) -> None:
        """Unplug (``False``) or re-plug a die's cable."""
        self._command(f"sensor {die} {'on' if plugged else 'off'}")

    def garbage(self, n: int) -> None:
        """Send ``n`` random bytes and a newline."""
        self._command(f"garbage {n}")

    def bad_checksum(self, verb: str = "ROLL") -> None:
        """The next ``verb`` line goes out with a wrong checksum."""
        self._command(f"badsum {verb}")

    def partial(self, verb: str = "ROLL") -> None:
        """The next ``verb`` line goes out cut in half, never finished."""
        self._command(f"partial {verb}")

    def reboot(self) -> None:
        """Restart the board, as a brown-out or a reset button would."""
        self._command("reboot")

    def unplug(self) -> None:
        """Pull the USB cable: the process dies, the pty and the stable path go away."""
        self._stop(kill=True)
        with suppress(FileNotFoundError):
            Path(self.port).unlink()

    def plug(self) -> None:
        """Plug the reader back in: a new pty behind the same path, a freshly booted board."""
        self.start()

    def kill(self) -> None:
        """Kill the process, as if the board died; ``close()`` is still needed."""
        if self._process is not None:
            self._process.kill()
            self._process.wait()

    def _stop(self, kill: bool = False, timeout: float = 2.0) -> None:
        process, self._process = self._process, None
        if process is not None:
            if kill:
                process.kill()
            elif process.stdin is not None:
                with suppress(BrokenPipeError):
                    if process.poll() is None:
                        process.stdin.write(b"quit\n")
            if process.stdin is not None:
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

    def close(self, timeout: float = 2.0) -> None:
        """Ask the process to quit, kill it if it has not within ``timeout``, free the pty."""
        self._stop(timeout=timeout)
        if self._own_folder:
            shutil.rmtree(self._folder, ignore_errors=True)
        else:
            with suppress(FileNotFoundError):
                Path(self.port).unlink()

    def __enter__(self) -> SimulatedDiceReader:
        return self.start() if self._process is None else self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def start_simulated_dice(
    emit: Emit,
    *,
    seed: int,
    dice: int = 2,
    speed: float = 0.0,
    name: str = "dice",
    timeout: float = 5.0,
    folder: Path | None = None,
) -> tuple[SimulatedDiceReader, SerialDiceReader]:
    """Start a simulator and a ``SerialDiceReader`` on its stable path, emitting to ``emit``.

    Returns once the reader has said HELLO and answered a PING, so that the greetings are over
    (their events already emitted) and nothing sent afterwards is lost. Raises ``RuntimeError``
    (having closed both) if that takes more than ``timeout`` seconds each. Close the reader
    before the simulator.
    """
    simulator = SimulatedDiceReader(seed=seed, dice=dice, speed=speed, folder=folder).start()
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
