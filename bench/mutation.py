"""Mutation testing of a game's rules core (Dork Tower's, or The Triwizard Maze Game's): do its
tests bite?

mutmut (the optional extra ``mutation``: ``pip install -e '.[mutation]'``) mutates every function
of the game's ``rules/`` folder (``companion/games/<game>/rules/``, its data set loading
included); this script draws a seeded sample of those mutants, runs each against the game's
rules tests that cover it (mutmut runs only the tests that call the mutated function, fastest
first, stopping at the first failure) and reports how many the tests kill. The survivors are
printed (file, line, diff) so that a developer can write the missing tests.

    python bench/mutation.py [--game dorktower|triwizard] [--seed 15] [--sample 300]
                             [--workdir var/mutation] [--jobs 1]

The score is over the mutants that change behaviour. Left out of it, and not run:

* **message wording**: a mutant whose only change is to string literals that are message texts:
  the message id of ``t(...)``; the message of ``_Refuse(rule, message)`` (its second argument,
  when it is a literal); the problem of a data set mistake (``reader.fail(place, problem)``'s
  second argument, ``DataError(file, place, problem)``'s third); a docstring. Both functions are
  parsed and compared with those literals blanked out but their ``{placeholders}`` kept: equal
  means wording only (a message that loses or renames a placeholder is behaviour). A rule ID, a
  dictionary key, a value, a ``place`` in a data set or a t(...) parameter is behaviour.
* **equivalent mutants** checked by hand, listed with the reason for each in
  ``bench/mutation_equivalent.toml`` (an entry holds only while the mutant's changed line is the
  one recorded, so a rewritten function drops it).

The tests (``TARGETS``): the game's ``tests/games/<game>`` without the tests of a running server,
the catalogs (they check wording, which is left out) and the replay doc's key list, and without
the random whole games that assert only that nothing breaks or that a game ends (Dork Tower's 30
in ``test_dorktower_trading.py`` took 85 of the 94 seconds of the selection under mutmut, and
assert no rule ID or value: every survivor would cost them).
A timeout counts as killed, a mutant no selected test reaches as survived. The work (a copy of
the tree and mutmut's ``mutants/``) is in ``--workdir``, emptied first; ``cd`` there and
``mutmut browse`` to look at the results. The rules must import ``companion.i18n`` and
``companion.rules``: the whole ``companion`` package is copied, only the rules core mutated.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import os
import random
import shutil
import string
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Target:
    """A game's rules core and the tests that bite it."""

    rules: str  #: the folder mutated
    tests: str  #: the tests run
    left_out_tests: tuple[str, ...]  #: files of ``tests`` not about the rules' behaviour
    left_out_cases: str  #: a ``-k`` expression of slow cases that assert no rule ID or value


TARGETS = {
    "dorktower": Target(
        "companion/games/dorktower/rules",
        "tests/games/dorktower",
        # the web tests, the catalogs and the replay doc's key list
        ("test_dorktower_web.py", "test_dorktower_i18n.py", "test_dorktower_replay_doc.py"),
        "test_random_games_never_break_and_never_leak_a_hand",  # 90 % of the time
    ),
    "triwizard": Target(
        "companion/games/triwizard/rules",
        "tests/games/triwizard",
        # a running server; the replay doc's key list; the data sets' files (not the rules)
        ("test_triwizard_table_server.py", "test_triwizard_replay_doc.py"),
        "random_games",  # whole random games that assert only that they end
    ),
}
EQUIVALENT = Path(__file__).resolve().with_name("mutation_equivalent.toml")


def mutmut_config(target: Target) -> str:
    selection = [f'"{target.tests}"', '"-k"', f'"not {target.left_out_cases}"']
    selection += [f'"--ignore={target.tests}/{name}"' for name in target.left_out_tests]
    return f"""
[tool.mutmut]
source_paths = ["companion"]
only_mutate = ["{target.rules}/*"]
pytest_add_cli_args = ["-p", "no:cacheprovider", "-p", "no:xdist"]
timeout_multiplier = 4.0
pytest_add_cli_args_test_selection = [{", ".join(selection)}]
use_git_change_detection = false
also_copy = ["docs", "hardware", "web"]
"""


KILLED = {"killed", "timeout", "segfault"}


def prepare(workdir: Path, target: Target) -> None:
    """A copy of the tree mutmut works in: the package, the tests, pyproject.toml with mutmut's
    configuration."""
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    junk = shutil.ignore_patterns("__pycache__", "*.pyc", "artifacts", "browser", ".hypothesis")
    shutil.copytree(ROOT / "companion", workdir / "companion", ignore=junk)
    shutil.copytree(ROOT / "tests", workdir / "tests", ignore=junk)
    for folder in ("docs", "hardware", "web"):  # tests read the docs, the pin map, the web assets
        shutil.copytree(ROOT / folder, workdir / folder, ignore=junk)
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    text = text.split("\n[tool.mutmut]")[0] + mutmut_config(target)
    (workdir / "pyproject.toml").write_text(text, encoding="utf-8")


def mutmut(workdir: Path, *args: str) -> None:
    """``mutmut ARGS`` in the work directory, its output in ``mutmut.log`` there."""
    exe = Path(sys.executable).with_name("mutmut")
    command = [str(exe) if exe.exists() else "mutmut", *args]
    with open(workdir / "mutmut.log", "w", encoding="utf-8") as log:
        done = subprocess.run(command, cwd=workdir, stdout=log, stderr=subprocess.STDOUT)
    if done.returncode:
        sys.exit(f"mutmut {args[0]} failed ({done.returncode}): see {workdir / 'mutmut.log'}")


GENERATE = """
from mutmut.__main__ import copy_also_copy_files, copy_src_dir, create_mutants
from pathlib import Path
Path("mutants").mkdir(exist_ok=True)
copy_src_dir()
copy_also_copy_files()
create_mutants(1)
"""


def generate(workdir: Path) -> None:
    """Every mutant of the rules core, written into ``mutants/`` (nothing run yet)."""
    done = subprocess.run([sys.executable, "-c", GENERATE], cwd=workdir, stdout=subprocess.DEVNULL)
    if done.returncode:
        sys.exit("mutmut could not generate the mutants")


def results(workdir: Path, rules: str) -> dict[str, tuple[str, int | None]]:
    """Each mutant's name -> (its source file, mutmut's exit code or None)."""
    out: dict[str, tuple[str, int | None]] = {}
    for meta in sorted((workdir / "mutants" / rules).rglob("*.py.meta")):
        source = str(meta.relative_to(workdir / "mutants"))[: -len(".meta")]
        for name, code in json.loads(meta.read_text())["exit_code_by_key"].items():
            out[name] = (source, code)
    return out


# -- what a mutant changes --------------------------------------------------------------------


def _call_name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


#: Calls whose argument at this position is a message text.
MESSAGE_ARGUMENT = {"t": 0, "_Refuse": 1, "Refuse": 1, "fail": 1, "DataError": 2}


def _blank(node: ast.AST) -> None:
    """Blank the string literals of ``node`` (a literal or an f-string's literal parts), all but
    their ``{placeholders}``: a message that loses or renames one is behaviour, since it no
    longer shows its parameter (or fails to render)."""
    for part in ast.walk(node):
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            try:
                fields = sorted(f for _, f, _, _ in string.Formatter().parse(part.value) if f)
            except ValueError:
                fields = ["(broken)"]
            part.value = "…" + ",".join(fields)


def _without_wording(code: str) -> str:
    tree = ast.parse(code)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module)):
            first = body[0] if body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                _blank(first.value)
        if isinstance(node, ast.Call):
            at = MESSAGE_ARGUMENT.get(_call_name(node))
            if at is not None and len(node.args) > at:
                argument = node.args[at]
                if isinstance(argument, (ast.Constant, ast.JoinedStr)):
                    _blank(argument)
    return ast.dump(tree)


def functions(workdir: Path, name: str, source: str) -> tuple[str, str]:
    """The original function of a mutant and the mutant, as source."""
    import libcst as cst
    from mutmut.mutation.diff_apply import (
        read_functions_from_index,
        read_mutant_function,
        read_mutants_module,
        read_original_function,
    )

    found = read_functions_from_index(name, source)
    if found is None:
        module = read_mutants_module(source)
        found = (read_original_function(module, name), read_mutant_function(module, name))
    return tuple(cst.Module([f]).code.strip() for f in found)  # type: ignore[return-value]


def diff(source: str, original: str, mutant: str, name: str) -> tuple[int, str]:
    """The first changed line's number in ``source`` and a short diff."""
    import difflib

    old, new = original.splitlines(), mutant.splitlines()
    lines = [
        line
        for line in difflib.unified_diff(old, new, lineterm="", n=0)
        if line[:1] in "+-" and line[:3] not in ("+++", "---")
    ]
    changed = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
    text = (ROOT / source).read_text(encoding="utf-8").splitlines()
    head = old[0].strip() if old else ""
    start = next((i for i, line in enumerate(text) if line.strip() == head), 0)
    return start + changed + 1, "\n".join(lines)


def equivalent() -> dict[str, dict[str, str]]:
    if not EQUIVALENT.exists():
        return {}
    entries = tomllib.loads(EQUIVALENT.read_text(encoding="utf-8")).get("equivalent", [])
    return {e["mutant"]: e for e in entries}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(TARGETS), default="dorktower")
    parser.add_argument("--seed", type=int, default=15, help="the sample's seed (15)")
    parser.add_argument("--sample", type=int, default=300, help="mutants drawn (300)")
    parser.add_argument("--jobs", type=int, default=1, help="mutmut's max children (1)")
    parser.add_argument(
        "--workdir", type=Path, default=ROOT / "var" / "mutation", help="emptied, then used"
    )
    args = parser.parse_args()
    if importlib.util.find_spec("mutmut") is None:
        sys.exit("mutmut is missing: pip install -e '.[mutation]'")
    workdir = args.workdir.resolve()
    started = time.monotonic()

    target = TARGETS[args.game]
    prepare(workdir, target)
    generate(workdir)
    everything = results(workdir, target.rules)
    names = sorted(everything)
    sample = sorted(random.Random(args.seed).sample(names, min(args.sample, len(names))))

    os.chdir(workdir)  # mutmut's helpers read the configuration and mutants/ from here
    known = equivalent()
    wording, excluded, behaviour, changes = [], [], [], {}
    for name in sample:
        source = everything[name][0]
        original, mutant = functions(workdir, name, source)
        changes[name] = diff(source, original, mutant, name)
        entry = known.get(name)
        if _without_wording(original) == _without_wording(mutant):
            wording.append(name)
        elif entry and entry.get("line", "").strip() and entry["line"].strip() in changes[name][1]:
            excluded.append(name)
        else:
            behaviour.append(name)

    print(f"running {len(behaviour)} mutants (mutmut's output: {workdir / 'mutmut.log'})")
    if behaviour:
        mutmut(workdir, "run", "--max-children", str(args.jobs), *behaviour)

    from mutmut.stats import status_by_exit_code

    after = results(workdir, target.rules)
    status = {name: status_by_exit_code[after[name][1]] for name in behaviour}
    killed = [n for n in behaviour if status[n] == "killed"]
    timeouts = [n for n in behaviour if status[n] in ("timeout", "segfault")]
    survived = [n for n in behaviour if status[n] not in KILLED]
    minutes = (time.monotonic() - started) / 60

    print()
    print("Surviving mutants that change behaviour (write a test that fails on each):")
    for name in survived:
        line, text = changes[name]
        print(f"\n{everything[name][0]}:{line}  {name}  [{status[name]}]")
        print(text)
    print()
    print(
        f"mutants in {args.game}'s rules core: {len(names)}; seed {args.seed}, sampled {len(sample)}"
    )
    print(f"left out as message wording: {len(wording)}; as equivalent: {len(excluded)}")
    print(f"changing behaviour: {len(behaviour)}")
    print(f"killed: {len(killed)}; timeouts: {len(timeouts)}; survived: {len(survived)}")
    score = 100.0 * (len(killed) + len(timeouts)) / len(behaviour) if behaviour else 100.0
    print(f"score: {score:.1f}% of the mutants that change behaviour killed ({minutes:.1f} min)")
    print(
        f"RESULT {args.game} mutation_score={score:.1f}% killed={len(killed) + len(timeouts)}"
        f" behaviour={len(behaviour)} sampled={len(sample)} seed={args.seed}"
    )


if __name__ == "__main__":
    main()
