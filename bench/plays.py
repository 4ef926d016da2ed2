"""The Plays list of a table that kept many plays (goal: a page lists in well under a second).

Builds a store of ``--plays`` plays (default 1,000): the recorded replays of every game
(``tests/games/<id>/replays/game-*.jsonl``, 64 to 401 entries each, a few with undos) recorded
once through the store, then copied under new game ids with their checksums (the copies are
written in one transaction: the bench times the list, not the writing). Then, with a fresh
:class:`companion.table.plays.Plays` each time it says "cold":

* the first page (50 newest plays), cold and warm; a page filtered by a player;
* every play (what the downloads and the statistics read), cold and warm;
* after a restart (a new ``Plays``): the plays that left the table kept their summaries in the
  store, so the first page and every play are read, not replayed;
* stepping through the longest play (a step from its checkpoint) and its score series;
* the Python memory the kept summaries and replays take (tracemalloc).

    python bench/plays.py [--plays 1000]
"""

from __future__ import annotations

import argparse
import glob
import json
import sqlite3
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

import common  # noqa: F401  (puts the project on the path)

from companion.games import get_game
from companion.rules import Accepted
from companion.table.history import History
from companion.table.plays import Plays
from companion.table.store import Store, entry_crc

ROOT = Path(__file__).resolve().parents[1]


def record(store: Store, path: str) -> int:
    lines = [line for line in Path(path).read_text().splitlines() if line.strip()]
    header = json.loads(lines[0])
    game = get_game(header["game"])
    options, seed = header.get("options") or {}, header.get("seed", 0)
    rec = store.start_game(header["game"], header["players"], options, seed, {})
    history, seq = History(game, header["players"], options, seed), 0
    for line in lines[1:]:
        action = json.loads(line)
        if isinstance(history.submit(action), Accepted):
            seq += 1
            store.append(rec.id, seq, action, "bench", game.outcome(history.state).finished)
    return rec.id


def build(directory: Path, count: int) -> tuple[Path, int]:
    """A store of ``count`` plays; its path and how many entries it holds."""
    path = directory / "table.db"
    store = Store(path)
    originals = [
        record(store, p)
        for p in sorted(glob.glob(str(ROOT / "tests/games/*/replays/game-*.jsonl")))
    ]
    store.close()
    db = sqlite3.connect(path)
    columns = "game, players, options, seed, tokens, started_at, finished_at, abandoned, joins, colours, ended, progress, paused"
    with db:
        for n in range(count - len(originals)):
            source = originals[n % len(originals)]
            cur = db.execute(
                f"INSERT INTO games ({columns}) SELECT {columns} FROM games WHERE id = ?", (source,)
            )
            new = cur.lastrowid
            rows = db.execute(
                "SELECT seq, action, source, at FROM entries WHERE game_id = ?", (source,)
            ).fetchall()
            db.executemany(
                "INSERT INTO entries (game_id, seq, action, source, at, crc) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (new, seq, action, src, at, entry_crc(new, seq, action, src, at))
                    for seq, action, src, at in rows
                ],
            )
        # as at a real table, one game at most is at the table (the newest): the others left it
        db.execute(
            "UPDATE games SET finished_at = started_at, abandoned = 1 "
            "WHERE finished_at IS NULL AND id != (SELECT max(id) FROM games)"
        )
        entries = db.execute("SELECT count(*) FROM entries").fetchone()[0]
        db.execute("UPDATE meta SET value = ? WHERE key = 'entries'", (entries,))
    db.close()
    return path, entries


def timed(what, repeat: int = 1) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = what()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plays", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        path, entries = build(Path(tmp), args.plays)
        print(
            f"store: {args.plays} plays, {entries} entries, built in {time.perf_counter() - started:.1f} s"
        )
        store = Store(path)
        seconds, (page, total) = timed(lambda: Plays(store).listing())
        print(f"first page, cold: {seconds * 1000:.0f} ms ({len(page)} of {total} plays)")
        plays = Plays(store)
        plays.listing()
        seconds, _ = timed(lambda: plays.listing(), repeat=5)
        print(f"first page, warm: {seconds * 1000:.1f} ms")
        seconds, (page, total) = timed(lambda: Plays(store).listing(player="P3"))
        print(f"a player's first page, cold: {seconds * 1000:.0f} ms ({len(page)} of {total})")
        tracemalloc.start()
        everything = Plays(store)
        seconds, found = timed(everything.all)
        kept, _peak = tracemalloc.get_traced_memory()
        print(
            f"every play, cold: {seconds:.2f} s ({len(found)} plays, {everything.replayed} replays)"
        )
        seconds, _ = timed(everything.all, repeat=3)
        print(f"every play, warm: {seconds * 1000:.0f} ms; summaries kept: {kept / 1e6:.1f} MB")
        seconds, (page, total) = timed(lambda: Plays(store).listing())
        print(f"after a restart, first page: {seconds * 1000:.0f} ms")
        restarted = Plays(store)
        seconds, found = timed(restarted.all)
        print(
            f"after a restart, every play: {seconds * 1000:.0f} ms ({restarted.replayed} replays)"
        )
        longest = max(found, key=lambda p: p.actions)
        seconds, _ = timed(lambda: everything.replay(longest.id))
        print(
            f"longest play ({longest.game}, {longest.actions} actions) replayed in {seconds * 1000:.0f} ms"
        )
        steps = [everything.step(longest.id, k) for k in (0, longest.actions)]  # warm it
        seconds, _ = timed(
            lambda: [everything.step(longest.id, k) for k in range(0, longest.actions, 7)]
        )
        count = len(range(0, longest.actions, 7))
        print(
            f"a step of it: {seconds / count * 1000:.1f} ms on average ({count} steps, {len(steps)} warmed)"
        )
        seconds, series = timed(lambda: everything.series(longest.id))
        print(f"its series ({len(series)} points): {seconds * 1000:.0f} ms")
        tracemalloc.stop()
        store.close()


if __name__ == "__main__":
    main()
