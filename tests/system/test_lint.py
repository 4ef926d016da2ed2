"""The linter runs with the tests: pyflakes' checks (undefined and unused names and imports) and
syntax errors, over every Python file of the project (the rules: ``[tool.ruff]`` in
``pyproject.toml``)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_ruff_finds_nothing():
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if not Path(ruff).exists():
        pytest.fail("ruff is not installed: pip install -e '.[test]' (make test does it)")
    done = subprocess.run([ruff, "check", "companion", "tests", "bench", "firmware"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
