"""Run every benchmark and print its RESULT lines (``make bench``; about 20 minutes, most of it
the three 10-minute soaks, one at a time). docs/benchmarks.md records them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = [
    ["throughput.py", "--game", "abracadawhat"],
    ["throughput.py", "--game", "dorktower", "--games", "40"],
    ["dice_parser.py"],
    ["dice_latency.py"],
    ["dice_tally.py"],
    ["cold_start.py"],
    ["memory.py"],
    ["hostile_wifi.py"],
    ["soak.py"],
    ["soak.py", "--refusal-flood"],
    ["soak.py", "--serial-flood"],
]


def main() -> int:
    failed = 0
    for script, *arguments in SCRIPTS:
        print(f"$ python bench/{' '.join([script, *arguments])}", flush=True)
        done = subprocess.run(
            [sys.executable, str(HERE / script), *arguments], capture_output=True, text=True
        )
        for line in done.stdout.splitlines():
            if line.startswith("RESULT"):
                print("  " + line[len("RESULT ") :])
        if done.returncode:
            failed += 1
            print(done.stderr, file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
