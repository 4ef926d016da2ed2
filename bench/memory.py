"""Resident memory of ``companion run`` while serving 8 clients (goal: under 80 MB).

Starts the companion as its own process, connects 8 SSE clients (3 player pages, 5 table
displays), plays a game through the HTTP API for a while, and reads VmRSS and VmHWM (the peak)
from /proc. The simulated dice reader is a separate process that a real table does not run; its
memory is reported apart.

    python bench/memory.py [--actions 300] [--plays]

``--plays`` also reads the host's pages of the table's memory before measuring: the Plays pages
(the list, the play at the table's every fifth step, the downloads: ``docs/plays.md``), the
Statistics page with that play's chart (``docs/statistics.md``) and the dice list
(``docs/dice-fairness.md``).
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
from pathlib import Path

from common import SSEClient, _request, http_json, join_links, start_companion


def memory(pid: int) -> dict[str, int]:
    values = {}
    with open(f"/proc/{pid}/status") as f:
        for row in f:
            key, _, rest = row.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(rest.split()[0])  # kB
    return values


def children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument(
        "--plays", action="store_true", help="read the Plays, Statistics and dice pages too"
    )
    args = parser.parse_args()
    rng = random.Random(2)
    work = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    proc, base, host = start_companion(work / "data")
    try:
        players = ["Elena", "Denise", "Marta"]
        http_json(
            f"{host}/api/new_game",
            "POST",
            {"confirm": True, "game": "abracadawhat", "players": players, "seed": 3},
        )
        links = join_links(host)
        clients = [SSEClient(f"{links[p]}/stream") for p in players] + [
            SSEClient(f"{base}/api/table/stream") for _ in range(5)
        ]
        for c in clients:
            c.start()
        done = 0
        while done < args.actions:
            view = http_json(f"{base}/api/table")[1]["view"]
            if view["finished"]:
                http_json(
                    f"{host}/api/new_game",
                    "POST",
                    {"confirm": True, "game": "abracadawhat", "players": players, "seed": done},
                )
                links = join_links(host)
                continue
            phase, active = view["phase"], view["active"]
            if phase in ("deal", "refill"):
                http_json(f"{host}/sim/draw", "POST", {})
            elif phase == "remove":
                http_json(f"{host}/sim/remove", "POST", {})
            elif phase == "roll":
                http_json(f"{host}/sim/roll", "POST", {"face": rng.randint(1, 6)})
            elif phase == "secret":
                http_json(f"{links[active]}/api/action", "POST", {"type": "decline_secret"})
            else:
                http_json(
                    f"{links[active]}/api/action",
                    "POST",
                    {"type": "cast", "spell": rng.randint(1, 8)},
                )
            done += 1
        if args.plays:  # every play listed, the one at the table stepped through, downloaded
            listed = http_json(f"{host}/plays/api")[1]["plays"]
            for play in listed:
                http_json(f"{host}/plays/{play['id']}/api")
            current = listed[0]
            for step in range(0, current["actions"] + 1, 5):
                http_json(f"{host}/plays/{current['id']}/steps/{step}")
            http_json(f"{host}/plays/plays.json")
            for page in ("statistics", f"statistics?play={current['id']}", "dice"):
                status, _, _ = _request(f"{host}/{page}", "GET", None, {}, 30.0)
                assert status == 200, (page, status)
        live = sum(1 for c in clients if c.is_alive())
        main_mem = memory(proc.pid)
        sims = [memory(child) for child in children(proc.pid)]
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(work, ignore_errors=True)
    print(
        f"RESULT resident memory with {live} live clients after {done} actions: "
        f"{main_mem['VmRSS'] / 1024:.1f} MB now, {main_mem['VmHWM'] / 1024:.1f} MB peak"
    )
    for sim in sims:
        print(
            f"RESULT simulated dice reader process (not on a real table): "
            f"{sim['VmRSS'] / 1024:.1f} MB"
        )


if __name__ == "__main__":
    main()
