"""Synthetic accelerometer traces of dice: what the dice reader's sensors would see.

A seeded generator of the samples an LIS3DH inside a die reports (range +-8 g, 100 Hz,
high-resolution mode: 4 mg per digit), for the firmware's tests and the simulated dice reader.

``World`` is several dice on one clock, each a :class:`~.dice_physics.DieWorld` (one die: the
model of what its sensor reads, its acts); a trace file is CSV with a comment line saying what
happened and what a tracker should say. Same seed, same calls: same samples.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterable, Mapping, Sequence

from .dice_physics import (
    AXES,
    FULL_SCALE_MG,
    G_MG,
    LEAD_MS,
    OPPOSITE,
    SAMPLE_MS,
    SLOT_NAMES,
    TAIL_MS,
    DieWorld,
    Sample,
    Vec,
    WorldSample,
    neighbours,
    slot_vector,
)

#: re-exported: the firmware's tests, the simulator and the benchmarks know them from here
__all__ = [
    "AXES",
    "CSV_HEADER",
    "FULL_SCALE_MG",
    "G_MG",
    "LEAD_MS",
    "OPPOSITE",
    "SAMPLE_MS",
    "SLOT_NAMES",
    "TAIL_MS",
    "DieWorld",
    "Sample",
    "Vec",
    "World",
    "WorldSample",
    "main",
    "neighbours",
    "read_trace_csv",
    "slot_vector",
    "synthetic_trace",
    "trace_csv",
]


class World:
    """Several dice on one clock (``t_ms``); every act returns ``(die, t_ms, x, y, z)`` samples.

    The dice start at rest on slots drawn from ``seed``, unless ``slots`` gives them. After
    each act every die's clock is the same: the dice that did not take part (or finished
    first) lie still meanwhile. Samples are in time order, and die order within a time.
    """

    def __init__(
        self,
        dice: int = 2,
        seed: int = 0,
        *,
        slots: Sequence[int] | None = None,
        noise_mg: float = 3.0,
        lsb_mg: int = 4,
    ) -> None:
        if dice < 1:
            raise ValueError("a world needs at least one die")
        master = random.Random(seed)
        self.rng = random.Random(master.getrandbits(64))
        if slots is None:
            slots = [master.randrange(6) for _ in range(dice)]
        if len(slots) != dice:
            raise ValueError(f"{dice} dice but {len(slots)} slots")
        self.dice = [
            DieWorld(
                random.Random(master.getrandbits(64)), slot, 0, noise_mg=noise_mg, lsb_mg=lsb_mg
            )
            for slot in slots
        ]

    @property
    def t_ms(self) -> int:
        return self.dice[0].t_ms

    def die(self, n: int) -> DieWorld:
        return self.dice[n]

    def _merge(self, traces: Mapping[int, list[Sample]]) -> list[WorldSample]:
        end = max(d.t_ms for d in self.dice)
        merged: list[WorldSample] = []
        for n, die in enumerate(self.dice):
            samples = list(traces.get(n, ()))
            samples += die.rest(end - die.t_ms)
            merged += [(n, *sample) for sample in samples]
        merged.sort(key=lambda s: (s[1], s[0]))
        return merged

    def rest(self, ms: int) -> list[WorldSample]:
        """Every die lies still for ``ms``."""
        return self._merge({n: die.rest(ms) for n, die in enumerate(self.dice)})

    def throw(self, slots: Mapping[int, int]) -> list[WorldSample]:
        """The dice in ``slots`` thrown together (within 40 ms), each landing on its slot."""
        lead = self.rng.randrange(LEAD_MS[0], LEAD_MS[1] + 1, SAMPLE_MS)
        traces = {}
        for n, slot in sorted(slots.items()):
            traces[n] = self.dice[n].throw(
                slot, lead_ms=lead + self.rng.randrange(0, 50, SAMPLE_MS)
            )
        return self._merge(traces)

    def throw_crooked(self, die: int) -> list[WorldSample]:
        """Die ``die`` thrown, ending up leaning against something."""
        return self._merge({die: self.dice[die].throw_crooked()})

    def place(self, die: int, slot: int) -> list[WorldSample]:
        """Die ``die`` turned by hand to ``slot``."""
        return self._merge({die: self.dice[die].place(slot)})

    def pick_up_and_set_down(self, die: int) -> list[WorldSample]:
        """Die ``die`` lifted and put back on the same face."""
        return self._merge({die: self.dice[die].pick_up_and_set_down()})

    def bump(self) -> list[WorldSample]:
        """The table is jolted: every die feels it (more or less), none moves."""
        lead = self.rng.randrange(LEAD_MS[0], LEAD_MS[1] + 1, SAMPLE_MS)
        return self._merge(
            {
                n: die.bump(lead_ms=lead, strength=self.rng.uniform(0.5, 1.0))
                for n, die in enumerate(self.dice)
            }
        )


# --- trace files: CSV with a comment line saying what happened and what a tracker should say ---

CSV_HEADER = "t_ms,x_mg,y_mg,z_mg"


def trace_csv(samples: Iterable[Sample], comment: str) -> str:
    """A trace as CSV text: ``# comment``, the header, then one sample a line."""
    lines = [f"# {comment}", CSV_HEADER]
    lines += [f"{t},{x},{y},{z}" for t, x, y, z in samples]
    return "\n".join(lines) + "\n"


def read_trace_csv(text: str) -> tuple[list[str], list[Sample]]:
    """``(comments, samples)`` from CSV text: comment lines (without "# "), then int samples."""
    comments: list[str] = []
    samples: list[Sample] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        if line.startswith("#"):
            comments.append(line[1:].strip())
            continue
        if line.replace(" ", "") == CSV_HEADER:
            continue
        fields = line.split(",")
        if len(fields) != 4:
            raise ValueError(f"line {number}: expected 4 fields, got {len(fields)}")
        try:
            t, x, y, z = (int(field) for field in fields)
        except ValueError:
            raise ValueError(f"line {number}: not 4 integers: {line!r}") from None
        samples.append((t, x, y, z))
    return comments, samples


def _event_text(slot: int | None) -> str:
    return "none" if slot is None else str(slot)


def synthetic_trace(
    act: str, seed: int = 0, slot: int = 2, start: int = 4
) -> tuple[str, list[Sample]]:
    """One die lying on ``start``, then one act; returns ``(comment, samples)``.

    The comment reads ``synthetic: <what happened>, expect <events>``, the events being what a
    tracker must report, in order: ``rest:<slot>`` (its first rest), ``moving``, ``rolling``,
    ``roll:<slot>``, ``crooked``, ``placed:<slot>`` (a slot may be ``none``).
    """
    die = DieWorld(random.Random(seed), slot=start)
    samples = die.rest(500)
    expect = [f"rest:{start}"]
    if act == "throw":
        samples += die.throw(slot)
        what = f"die thrown onto {SLOT_NAMES[slot]} (slot {slot})"
        expect += ["moving", "rolling", f"roll:{slot}"]
    elif act == "crooked":
        samples += die.throw_crooked()
        what = "die thrown, ends leaning against a wall"
        expect += ["moving", "rolling", "crooked"]
    elif act == "place":
        samples += die.place(slot)
        what = f"die turned by hand from {SLOT_NAMES[start]} to {SLOT_NAMES[slot]} (slot {slot})"
        expect += ["moving", f"placed:{_event_text(slot)}"]
    elif act == "pickup":
        samples += die.pick_up_and_set_down()
        what = "die picked up and set down on the same face"
        expect += ["moving", f"placed:{start}"]
    elif act == "bump":
        samples += die.bump()
        what = "table bumped, die stays put"
    else:
        raise ValueError(f"unknown act {act!r}")
    return f"synthetic: {what} (dice_world seed {seed}), expect {' '.join(expect)}", samples


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m companion.devices.dice_world ACT`` prints a synthetic trace as CSV."""
    parser = argparse.ArgumentParser(description="Print a synthetic die trace as CSV.")
    parser.add_argument("act", choices=("throw", "crooked", "place", "pickup", "bump"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--slot", type=int, default=2, help="where a throw or place ends (0..5)")
    parser.add_argument("--start", type=int, default=4, help="the slot the die starts on (0..5)")
    args = parser.parse_args(argv)
    comment, samples = synthetic_trace(args.act, args.seed, args.slot, args.start)
    sys.stdout.write(trace_csv(samples, comment))
    return 0


if __name__ == "__main__":
    sys.exit(main())
