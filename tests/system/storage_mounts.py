"""Real full and read-only file systems, for tests/system/test_storage_real_mounts.py.

``unshare --mount --propagation private python storage_mounts.py DIR`` mounts a small tmpfs on
DIR (in a private mount namespace, so the mount vanishes with this process), makes it full and
then read-only for real, and prints one JSON object of what the store said. Exit code 77 means
the machine does not allow the mount.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from companion.table.storage import StorageError
from companion.table.store import Store

CANNOT_MOUNT = 77


def mount(*args: str) -> bool:
    return subprocess.run(["mount", *args], capture_output=True).returncode == 0


def kind_of_opening(path: Path) -> str | None:
    try:
        Store(path).close()
    except StorageError as exc:
        return exc.kind
    return None


def main(directory: Path) -> int:
    if not mount("-t", "tmpfs", "-o", "size=4m", "tmpfs", str(directory)):
        return CANNOT_MOUNT
    found: dict[str, object] = {}
    data = directory / "data"
    path = data / "companion.db"
    store = Store(path)
    game = store.start_game("abracadawhat", ["Ann", "Ben"], {}, 1, {})
    filler = directory / "filler"
    filler.write_bytes(b"\0" * 3_300_000)  # most of the disk, to free later
    seq = 0
    try:
        while seq < 1000:
            store.append(game.id, seq + 1, {"type": "cast", "note": "x" * 30_000}, "x", False)
            seq += 1
    except StorageError as exc:
        found["full_kind"] = exc.kind
        found["full_what"] = exc.what
    found["appended"] = seq
    found["entries_after_failure"] = len(store.entries(game.id))
    filler.unlink()
    store.probe()
    store.append(game.id, seq + 1, {"type": "cast", "note": "small"}, "x", False)
    found["entries_after_freeing"] = len(store.entries(game.id))
    store.close()

    # completely full: even the directory probe has no room
    for number in range(10_000):
        try:
            with open(directory / f"more-{number}", "wb") as more:
                more.write(b"\0" * 65536)
        except OSError:
            break
    found["open_full_kind"] = kind_of_opening(path)
    for more in directory.glob("more-*"):
        more.unlink()

    found["remounted_ro"] = mount("-o", "remount,ro", str(directory))
    found["open_readonly_kind"] = kind_of_opening(path)
    mount("-o", "remount,rw", str(directory))
    found["open_after_rw"] = kind_of_opening(path)
    print(json.dumps(found))
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
