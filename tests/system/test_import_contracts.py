"""The architecture holds: import-linter's contracts (``[tool.importlinter]`` in
``pyproject.toml``: games independent of each other, rules cores importing no table, web or
devices, generic layers importing no game, the web reaching games and devices only through the
table), and no game's name anywhere in the generic layers (only the registry lists them)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games import GAME_IDS

ROOT = Path(__file__).resolve().parents[2]
#: Everything that is not a game's: the generic Python, the templates, the shared scripts and CSS.
GENERIC = [
    *[path for path in (ROOT / "companion").rglob("*.py") if "games" not in path.parts],
    *(ROOT / "web" / "templates").glob("*.html"),
    *(ROOT / "web" / "static" / "js").glob("*.js"),
    *(ROOT / "web" / "static").glob("*.css"),
    *(ROOT / "web" / "static").glob("*.js"),
]


def names_of_games() -> re.Pattern[str]:
    """Every shipped game's id and the stems of its title ("abracada", "dork")."""
    words = {game_id for game_id in GAME_IDS} | {"abracada", "dork"}
    return re.compile("|".join(sorted(map(re.escape, words))), re.IGNORECASE)


def test_the_import_contracts_hold():
    lint = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    if not Path(lint).exists():
        pytest.fail("import-linter is not installed: pip install -e '.[test]' (make test does it)")
    done = subprocess.run([lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr
    assert "4 kept, 0 broken" in done.stdout, done.stdout[-2000:]


def test_no_generic_file_names_a_game():
    assert len(GENERIC) > 60, "the generic folders were not found"
    pattern = names_of_games()
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()[:90]}"
        for path in GENERIC
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert not found, "\n".join(found)


def test_the_check_finds_a_game_named_in_a_generic_file():
    """The pattern bites: a line naming a shipped game is found, one that does not is not."""
    pattern = names_of_games()
    assert all(pattern.search(f'if (view.game === "{game_id}")') for game_id in GAME_IDS)
    assert pattern.search("# Abracada...What? draws lives") and pattern.search("Dork Tower's ring")
    assert not pattern.search("the game's own page module, loaded by id")
