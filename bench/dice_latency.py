"""Latency from a settled roll's line written to the pty to the rules core, to the LED frame and
to 8 phones (goal: p99 under 10 ms to the LEDs and under 50 ms to all 8 clients, the SQLite commit
included).

A complete simulated companion runs in this process (waitress, table loop, SQLite with
synchronous=FULL). A second dice reader is attached to a pty owned by this script; the game is
put where a die roll is expected; then, many times: write one ROLL line to the pty (as the
firmware writes it when a die has settled) and time (a) the moment the rules core accepts the
roll, (b) the first LED frame the table loop shows after it and (c) the moment each of 8
connected SSE clients (3 player pages, 5 table displays) receives the new snapshot; undo, and
repeat.

    python bench/dice_latency.py [--rolls 300]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import tempfile
import threading
import time
import tty
from pathlib import Path

from common import CLAIMS, SSEClient, summary

from companion.config import Config
from companion.devices.dice import SerialDiceReader
from companion.devices.dice_protocol import encode
from companion.server import Companion


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rolls", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(1)
    data = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    companion = Companion(Config(data_dir=data, host="127.0.0.1", port=0).check())
    companion.start()
    threading.Thread(target=companion.serve_forever, daemon=True).start()
    table, sim = companion.table, companion.sim
    base = f"http://127.0.0.1:{companion.port}"

    led_times: list[float] = []
    strip = table.strips["table"]
    show = strip.show

    def timed_show(pixels):
        show(pixels)
        if threading.current_thread().name == "table-loop":
            led_times.append(time.perf_counter())

    strip.show = timed_show

    master, slave = os.openpty()
    tty.setraw(slave)
    reader = SerialDiceReader(os.ttyname(slave), table.emit, name="bench-dice")
    seq = 0

    def line(verb, **fields):
        nonlocal seq
        os.write(master, encode(verb, seq, **fields))
        seq += 1

    # Like a reader's firmware: greet until the host has opened the port and heard it (opening a
    # port discards whatever was already waiting).
    for _ in range(50):
        line("HELLO", proto=1, fw="bench", boot="bench", why="power")
        if reader.wait_ready(0.1):
            break
    else:
        raise SystemExit("the bench's dice reader did not connect")

    players = ["Elena", "Denise", "Marta"]
    table.call("new_game", "bench", game="abracadawhat", players=players, seed=5)
    sim.game_act("draw_all")
    table.call(
        "action", "bench", action={"type": "cast", "player": "Elena", "spell": 1}, player="Elena"
    )
    if table.referee_view()["phase"] == "remove":
        sim.game_act("remove")
    assert table.referee_view()["phase"] == "roll", table.referee_view()["phase"]

    rules_times: list[float] = []
    check = table.history.check

    def timed_check(action):
        result = check(action)
        if action.get("type") == "roll":
            rules_times.append(time.perf_counter())
        return result

    table.history.check = timed_check
    tokens = table.record.tokens
    for token in tokens.values():  # each player's page, on the phone that claimed the seat
        CLAIMS[f"/p/{token}"] = companion.access.seat_claim(token)
    clients = [SSEClient(f"{base}/p/{tokens[p]}/stream") for p in players] + [
        SSEClient(f"{base}/api/table/stream") for _ in range(5)
    ]
    for c in clients:
        c.start()
    for c in clients:
        c.ready.wait(5)

    to_rules, to_leds, to_all, to_each = [], [], [], []
    for n in range(args.rolls):
        deadline = time.monotonic() + 5
        while any(c.latest() != table.version for c in clients) and time.monotonic() < deadline:
            time.sleep(0.001)
        time.sleep(0.005)
        v0, n0, r0 = table.version, len(led_times), len(rules_times)
        face = rng.randint(1, 6)
        t0 = time.perf_counter()
        line("ROLL", die=0, roll=n + 1, face=face, profile="d6", value=face)
        arrivals = [c.first_after(v0) for c in clients]
        while len(led_times) == n0:
            time.sleep(0.0002)
        to_leds.append(led_times[n0] - t0)
        to_rules.append(rules_times[r0] - t0)
        to_each += [a - t0 for a in arrivals]
        to_all.append(max(arrivals) - t0)
        table.call("undo", "bench")

    reader.close()
    os.close(master)
    os.close(slave)
    companion.close()
    shutil.rmtree(data, ignore_errors=True)
    print(f"RESULT pty -> rules core: {summary(to_rules)}")
    print(f"RESULT pty -> LED frame: {summary(to_leds)}")
    print(f"RESULT pty -> all 8 SSE clients: {summary(to_all)}")
    print(f"RESULT pty -> each SSE client: {summary(to_each)}")


if __name__ == "__main__":
    main()
