"""Every rule ID of every registered game's specification is cited by at least one test.

A test cites a rule by naming its ID (``ABR-CAST-4``) in the docstring of a test function or a
test class anywhere under ``tests/``. The specifications live in the shared rules folder, next to
the repository (``<repo>/../shared/rules/``), or wherever ``COMPANION_RULES_DIR`` points.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterable
from pathlib import Path

import pytest

from companion.games import games

REPO = Path(__file__).resolve().parents[2]
TESTS = REPO / "tests"
#: PREFIX-GROUP-N, e.g. ABR-CAST-4; a bare group name such as "ABR-SCORE-" has no number
RULE_ID = re.compile(r"\b[A-Z][A-Z0-9]*-[A-Z][A-Z0-9]*-[0-9]+\b")


def rules_dir() -> Path:
    configured = os.environ.get("COMPANION_RULES_DIR")
    return Path(configured) if configured else REPO.parent / "shared" / "rules"


def rule_ids(text: str) -> set[str]:
    return set(RULE_ID.findall(text))


def cited_ids(source: str) -> set[str]:
    """The rule IDs named in the docstrings of the test functions and test classes of a module."""
    cited: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            is_test = node.name.startswith("test")
        elif isinstance(node, ast.ClassDef):
            is_test = node.name.startswith("Test")
        else:
            continue
        docstring = ast.get_docstring(node) if is_test else None
        if docstring:
            cited |= rule_ids(docstring)
    return cited


def uncited(spec_text: str, sources: Iterable[str]) -> list[str]:
    """The rule IDs of a specification that no test cites, in the specification's order."""
    cited: set[str] = set()
    for source in sources:
        cited |= cited_ids(source)
    first: dict[str, int] = {}
    for match in RULE_ID.finditer(spec_text):
        first.setdefault(match.group(), match.start())
    return sorted(set(first) - cited, key=first.__getitem__)


def modules_under_tests() -> list[Path]:
    return sorted({*TESTS.rglob("test_*.py"), *TESTS.rglob("*_test.py")})


@pytest.mark.parametrize("game", games(), ids=lambda game: game.id)
def test_every_rule_of_the_specification_is_tested(game):
    folder = rules_dir()
    if not folder.is_dir():
        pytest.skip(
            f"!!! RULE COVERAGE NOT CHECKED: the shared rules folder {folder} is missing; "
            f"set COMPANION_RULES_DIR to the folder holding {game.spec} !!!"
        )
    spec = folder / game.spec
    assert spec.is_file(), f"{game.title}: its specification {game.spec} is not in {folder}"
    spec_text = spec.read_text(encoding="utf-8")
    assert rule_ids(spec_text), f"{game.spec} defines no rule IDs"
    sources, unreadable = [], []
    for path in modules_under_tests():
        source = path.read_text(encoding="utf-8")
        try:
            ast.parse(source)
        except SyntaxError:
            unreadable.append(str(path.relative_to(REPO)))
            continue
        sources.append(source)
    missing = uncited(spec_text, sources)
    note = f" (could not parse: {', '.join(unreadable)})" if unreadable else ""
    assert not missing, (
        f"{len(missing)} rule IDs of {game.spec} are cited by no test docstring"
        f"{note}: {', '.join(missing)}"
    )


FAKE_SPEC = """
## Things (FOO-THING-)
- **FOO-THING-1** one.
- **FOO-THING-2** two, see also FOO-THING-1.
- **FOO-THING-10** ten; FOO-THING-3..4 is a range, only its first ID counts.
"""

FAKE_TESTS = '''
def test_one():
    """FOO-THING-1: cited by a test function."""


def helper():
    """FOO-THING-2: a helper's docstring is not a test."""


class TestTen:
    """FOO-THING-10: cited by a test class."""

    def test_inside(self):
        """FOO-THING-3: cited by a test method."""


def test_comment():
    # FOO-THING-2 in a comment does not count
    assert "FOO-THING-2"
'''


def test_the_checker_extracts_rule_ids():
    """The extractor finds every PREFIX-GROUP-N and ignores a bare group name."""
    assert rule_ids(FAKE_SPEC) == {"FOO-THING-1", "FOO-THING-2", "FOO-THING-10", "FOO-THING-3"}
    assert rule_ids("ABR-SCORE- and ABR-SCORE-6, ABR-SPELL-1, -3") == {"ABR-SCORE-6", "ABR-SPELL-1"}


def test_the_checker_finds_an_uncited_rule():
    """Only docstrings of test functions, methods and classes cite a rule: the checker reports the
    ID that appears only in a helper, a comment and a string."""
    assert cited_ids(FAKE_TESTS) == {"FOO-THING-1", "FOO-THING-10", "FOO-THING-3"}
    assert uncited(FAKE_SPEC, [FAKE_TESTS]) == ["FOO-THING-2"]
    assert uncited(FAKE_SPEC, [FAKE_TESTS, 'def test_two():\n    """FOO-THING-2."""\n']) == []


def test_the_rules_folder_can_be_moved(monkeypatch, tmp_path):
    """COMPANION_RULES_DIR overrides the default shared rules folder."""
    monkeypatch.setenv("COMPANION_RULES_DIR", str(tmp_path))
    assert rules_dir() == tmp_path
    monkeypatch.delenv("COMPANION_RULES_DIR")
    assert rules_dir() == REPO.parent / "shared" / "rules"
