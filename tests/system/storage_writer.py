"""A process that appends acknowledged entries, for tests/system/test_storage_wal_loss.py.

``python storage_writer.py DATABASE COUNT`` starts a game (printing ``game ID``) and appends COUNT
entries (COUNT 0: until killed), printing ``acked SEQ`` after each append has returned (so after
its commit and its mark), then ``ready``, and waits to be killed.
"""

from __future__ import annotations

import sys
import time

from companion.table.store import Store


def main(database: str, count: int) -> None:
    store = Store(database)
    game = store.start_game("abracadawhat", ["Ann", "Ben"], {"removal": "tap"}, 7, {})
    print(f"game {game.id}", flush=True)
    seq = 0
    while count == 0 or seq < count:
        seq += 1
        store.append(
            game.id,
            seq,
            {"type": "cast", "player": "Ann", "spell": seq % 8 + 1},
            "phone:Ann",
            finished=False,
        )
        print(f"acked {seq}", flush=True)
    print("ready", flush=True)
    while True:
        time.sleep(60)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
