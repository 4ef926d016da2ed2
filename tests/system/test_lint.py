"""The linter and the formatter run with the tests: pyflakes' checks (undefined and unused names
and imports), syntax errors and the order of imports, and ``ruff format``'s layout, over every
Python file of the project (the rules: ``[tool.ruff]`` in ``pyproject.toml``)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ["companion", "tests", "bench", "firmware"]


def ruff() -> str:
    found = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if not Path(found).exists():
        pytest.fail("ruff is not installed: pip install -e '.[test]' (make test does it)")
    return found


def test_ruff_finds_nothing():
    done = subprocess.run([ruff(), "check", *FOLDERS], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_file_is_formatted():
    done = subprocess.run(
        [ruff(), "format", "--check", *FOLDERS], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, (
        "run `ruff format companion tests bench firmware`:\n" + done.stdout + done.stderr
    )
