"""Browser tests skip loudly without Chromium, and fail instead when CI requires them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_browser_tests(**env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/browser"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=dict(os.environ, COMPANION_CHROMIUM="/nonexistent/chromium", **env),
    )


def test_without_chromium_browser_tests_skip_loudly():
    env = {k: v for k, v in os.environ.items() if k != "COMPANION_REQUIRE_BROWSER"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/browser"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=dict(env, COMPANION_CHROMIUM="/nonexistent/chromium"),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "BROWSER TESTS NOT RUN" in done.stdout + done.stderr
    assert "skipped" in done.stdout


def test_ci_turns_the_skip_into_a_failure():
    done = run_browser_tests(COMPANION_REQUIRE_BROWSER="1")
    assert done.returncode != 0
    assert "BROWSER TESTS NOT RUN" in done.stdout + done.stderr


def test_ci_script_installs_chromium_and_runs_make_test():
    script = (ROOT / ".ci" / "run").read_text()
    assert "apt-get install" in script and "chromium" in script
    assert "COMPANION_REQUIRE_BROWSER=1" in script and "make test" in script
    assert os.access(ROOT / ".ci" / "run", os.X_OK)
