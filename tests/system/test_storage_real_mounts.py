"""On a real full and a real read-only file system (a tmpfs in a private mount namespace), the
store says ``full`` and ``readonly``, saves nothing of a failed entry, and works again once space
is freed. Machines that do not allow the mount (CI's unprivileged container) skip it loudly: the
same behaviour is proven there through the seams of tests/table/test_storage_*.py.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HELPER = Path(__file__).with_name("storage_mounts.py")
CANNOT_MOUNT = 77


@pytest.fixture(scope="module")
def found(tmp_path_factory) -> dict:
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip(
            "REAL MOUNT TEST SKIPPED: `unshare` is not installed; the read-only and "
            "full file systems are tested through seams only"
        )
    directory = tmp_path_factory.mktemp("mount")
    done = subprocess.run(
        [
            unshare,
            "--mount",
            "--propagation",
            "private",
            sys.executable,
            str(HELPER),
            str(directory),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if done.returncode == CANNOT_MOUNT or "Operation not permitted" in done.stderr:
        pytest.skip(
            "REAL MOUNT TEST SKIPPED: this machine does not allow mounting a tmpfs in "
            "a private namespace (no CAP_SYS_ADMIN); the read-only and full file "
            f"systems are tested through seams only ({done.stderr.strip()[:200]})"
        )
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


def test_a_really_full_disk_is_full_and_loses_nothing_acknowledged(found):
    assert found["appended"] > 0
    assert found["full_kind"] == "full", found
    assert "is full" in found["full_what"]
    assert found["entries_after_failure"] == found["appended"]
    assert found["entries_after_freeing"] == found["appended"] + 1


def test_opening_on_a_completely_full_disk_is_full(found):
    assert found["open_full_kind"] == "full", found


def test_opening_on_a_really_read_only_mount_is_readonly(found):
    assert found["remounted_ro"] is True
    assert found["open_readonly_kind"] == "readonly", found
    assert found["open_after_rw"] is None
