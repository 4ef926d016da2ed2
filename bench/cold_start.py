"""Cold start of ``companion run`` until it serves (goal: under 2 s).

Time from spawning the process to the first 200 from /healthz, for a first start (empty data
directory) and for a restart that resumes a game with a long log.

    python bench/cold_start.py [--repeat 10]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import common
from common import http_json, join_links


def time_start(data: Path) -> float:
    started = time.perf_counter()
    proc, base, _ = common.start_companion(data)
    try:
        while True:
            try:
                if http_json(f"{base}/healthz")[0] == 200:
                    return time.perf_counter() - started
            except OSError:
                time.sleep(0.005)
    finally:
        proc.terminate()
        proc.wait(10)


def long_game(data: Path, actions: int) -> int:
    """Play until the log holds about ``actions`` entries, then stop."""
    proc, base, host = common.start_companion(data)
    try:
        http_json(
            f"{host}/api/new_game",
            "POST",
            {
                "confirm": True,
                "game": "abracadawhat",
                "players": ["A", "B", "C", "D", "E"],
                "seed": 9,
            },
        )
        links = join_links(host)
        entries = 0
        while entries < actions:
            view = http_json(f"{base}/api/table")[1]["view"]
            if view["finished"]:
                break
            if view["phase"] in ("deal", "refill"):
                entries += len(http_json(f"{host}/sim/draw_all", "POST", {})[1]["outcomes"])
            elif view["phase"] == "remove":
                http_json(f"{host}/sim/remove", "POST", {})
                entries += 1
            elif view["phase"] == "roll":
                http_json(f"{host}/sim/roll", "POST", {"face": 2})
                entries += 1
            elif view["phase"] == "secret":
                http_json(f"{links[view['active']]}/api/action", "POST", {"type": "decline_secret"})
                entries += 1
            else:
                http_json(
                    f"{links[view['active']]}/api/action", "POST", {"type": "cast", "spell": 7}
                )
                entries += 1
        return entries
    finally:
        proc.terminate()
        proc.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    try:
        first = [time_start(work / f"fresh{i}") for i in range(args.repeat)]
        entries = long_game(work / "resume", 400)
        resumed = [time_start(work / "resume") for _ in range(args.repeat)]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(
        f"RESULT cold start, first run: median {statistics.median(first):.2f} s, "
        f"max {max(first):.2f} s over {args.repeat}"
    )
    print(
        f"RESULT cold start, resuming a game of {entries} log entries: median "
        f"{statistics.median(resumed):.2f} s, max {max(resumed):.2f} s over {args.repeat}"
    )


if __name__ == "__main__":
    main()
