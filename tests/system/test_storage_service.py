"""The systemd unit restarts the companion after a failure, but not after a storage failure,
whose exit code is EXIT_STORAGE: restarting cannot fix a card, and would loop."""

from __future__ import annotations

from pathlib import Path

from companion.table.storage import EXIT_STORAGE

UNIT = Path(__file__).resolve().parents[2] / "hardware" / "install" / "companion.service"


def test_the_unit_does_not_restart_after_a_storage_failure_but_does_after_others():
    lines = [line.strip() for line in UNIT.read_text(encoding="utf-8").splitlines()]
    service = lines[lines.index("[Service]") : lines.index("[Install]")]
    assert "Restart=on-failure" in service
    prevented = [
        line.split("=", 1)[1].split()
        for line in service
        if line.startswith("RestartPreventExitStatus=")
    ]
    assert prevented == [[str(EXIT_STORAGE)]]
