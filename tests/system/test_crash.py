"""Pulling the plug loses nothing acknowledged (principle 3).

A real ``companion run`` process is played by a bot through the phones and the simulated table.
At 20 random moments it is killed with SIGKILL and started again. Every time, the log must begin
with exactly the actions whose acceptance a client had heard, hold at most one more (the action
committed while its answer was on the way), and the resumed game must equal the replay of them.
"""

from __future__ import annotations

import http.client
import json
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from urllib.parse import urlsplit

import pytest
from support import Bot, get, join_all, post

from companion.games import get_game
from companion.rules import TABLE
from companion.table.history import History

PLAYERS = ["Elena", "Denise", "Marta"]
KILLS = 20


class Process:
    def __init__(self, data):
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "companion",
                "run",
                "--data",
                str(data),
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--dice-speed",
                "0",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        lines = []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            found = re.search(r"Host \(console\)\s*:\s*(http://\S+/host/\S+)", line)
            if found:
                self.host = found.group(1)
                self.base = self.host.split("/host/")[0]
                break
        else:
            self.proc.kill()
            raise AssertionError("companion run did not start: " + "".join(lines))
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()  # keep the pipe empty

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


def log_of(data) -> tuple[int, list[dict]]:
    db = sqlite3.connect(data / "companion.db")
    try:
        game_id = db.execute("SELECT max(id) FROM games").fetchone()[0]
        rows = db.execute(
            "SELECT action FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        return game_id, [json.loads(a) for (a,) in rows]
    finally:
        db.close()


def heard(answer) -> list[dict]:
    """The actions a client was told were accepted, from one answer."""
    if "outcomes" in answer:
        return [o["action"] for o in answer["outcomes"] if o.get("ok") and "action" in o]
    return [answer["action"]] if answer.get("ok") and "action" in answer else []


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_nothing_acknowledged(tmp_path):
    rng = random.Random(2026)
    data = tmp_path / "data"
    proc = Process(data)
    seed = 100
    status, answer = post(
        f"{proc.host}/api/new_game",
        {"confirm": True, "game": "abracadawhat", "players": PLAYERS, "seed": seed},
    )
    assert status == 200, answer
    links = join_all(proc.host)
    acked: list[dict] = []
    games = 1
    try:
        for kill in range(KILLS):
            stop = threading.Event()

            failures: list[BaseException] = []

            def play(bot: Bot, failures: list[BaseException]) -> None:
                try:
                    while not stop.is_set():
                        try:
                            if rng.random() < 0.05 and acked:
                                status, answer = post(f"{proc.host}/api/undo")
                                acked.extend(heard(answer))
                                continue
                            step = bot.step()
                        except (OSError, http.client.HTTPException):  # the process is gone
                            return
                        if step is None:
                            return
                        acked.extend(heard(step[3]))
                except BaseException as exc:  # anything else fails the test, in the main thread
                    failures.append(exc)

            player = threading.Thread(
                target=play, args=(Bot(proc.host, links, seed=kill, base=proc.base), failures)
            )
            player.start()
            time.sleep(rng.uniform(0.05, 0.8))
            proc.kill()
            stop.set()
            player.join(20)
            assert not player.is_alive()
            if failures:
                raise failures[0]

            proc = Process(data)
            # the seats' tokens survive the crash: the same pages, at the new process's address
            links = {p: proc.base + urlsplit(url).path for p, url in links.items()}
            _, log = log_of(data)
            assert log[: len(acked)] == acked, f"kill {kill}: an acknowledged action was lost"
            assert len(log) - len(acked) in (0, 1), f"kill {kill}: unexplained entries"
            if len(log) > len(acked):
                acked.append(log[-1])  # committed, though its answer never arrived
            history = History(get_game("abracadawhat"), PLAYERS, {"removal": "tap"}, seed)
            for action in acked:
                history.submit(action)
            expected = history.state
            game = history.game
            assert get(f"{proc.base}/api/table")["view"] == game.view(expected, TABLE), kill
            for player_name, url in links.items():
                view = get(f"{url}/api/state")["view"]
                assert view == game.view(expected, player_name), (kill, player_name)
            if expected["phase"] == "over":  # a new game, so that the kills go on mid-game
                seed += 1
                games += 1
                status, _ = post(
                    f"{proc.host}/api/new_game",
                    {"confirm": True, "game": "abracadawhat", "players": PLAYERS, "seed": seed},
                )
                assert status == 200
                links = join_all(proc.host)
                acked = []
    finally:
        proc.kill()
    assert games > 1 or len(acked) > 50  # the kills really happened in the middle of play
