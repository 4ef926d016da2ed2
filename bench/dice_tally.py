"""What keeping every roll for the fairness test costs the table loop (docs/dice-fairness.md).

(a) ``Store.keep_rolls`` alone, one read roll per call, on a store already holding 1000 rolls of
the die (so every call also deletes the oldest kept roll): its durable commit, without a mark;
(b) ``Store.append`` alone, the log entry an accepted roll costs anyway, for comparison;
(c) a roll through the table loop (emit -> handled, a roll nobody asked for: refused and kept)
with the keeping and without it, interleaved.

    python bench/dice_tally.py [--rolls 500]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from common import summary

from companion.devices.events import DieRolled
from companion.table.dice_store import READ, Roll
from companion.table.runtime import Table
from companion.table.store import Store, now

FACES = ("1", "2", "3", "4", "5", "6")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rolls", type=int, default=500)
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    try:
        store = Store(data / "companion.db")
        for n in range(1000):
            store.keep_rolls([Roll("dice", 0, "d6", FACES, FACES[n % 6], READ)], now())
        keep, append = [], []
        record = store.start_game("bench", ["Ann", "Ben"], {}, 1, {})
        for n in range(args.rolls):
            start = time.perf_counter()
            store.keep_rolls([Roll("dice", 0, "d6", FACES, FACES[n % 6], READ)], now())
            keep.append(time.perf_counter() - start)
            start = time.perf_counter()
            store.append(record.id, n + 1, {"type": "roll", "value": 1}, "dice:dice", False)
            append.append(time.perf_counter() - start)
        store.end_game(record.id)
        print(f"RESULT keep_rolls (one read roll, the oldest of 1000 deleted): {summary(keep)}")
        print(f"RESULT append (a log entry and its mark, for comparison): {summary(append)}")

        table = Table(store)
        table.start()
        kept_tally = table._tally_read
        with_tally, without = [], []
        for n in range(args.rolls):
            for keeping, times in ((True, with_tally), (False, without)):
                table._tally_read = kept_tally if keeping else (lambda roll: None)
                start = time.perf_counter()
                table.emit(DieRolled(0, FACES[n % 6], (2 * n + keeping) % 65536, profile="d6"))
                table.sync()
                times.append(time.perf_counter() - start)
        table.close()
        store.close()
        print(f"RESULT a roll through the table loop, kept: {summary(with_tally)}")
        print(f"RESULT a roll through the table loop, not kept: {summary(without)}")
    finally:
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
