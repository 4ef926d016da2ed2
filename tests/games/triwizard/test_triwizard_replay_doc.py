"""``docs/replay-triwizard.md`` names every key of Triwizard's replay output and every value of ``phase``.

The doc's table "The output, key by key" is read (``a.b`` a key of ``a``'s object,
``a[]`` each entry of a list, ``<name>`` a key that varies, *as a whole* a value described as
one); the output of the scenario files replayed by ``companion replay`` (the referee's view and
each player's), and of seeded playouts on both bundled data sets, must have no key the table
does not name. The phases the rules can reach (the ``PHASES`` constant and every ``phase`` the
rules' source assigns), and those the playouts visit, must each be listed in "Triwizard's values
of ``phase``"; the options the game has, in "Triwizard's options".
"""

from __future__ import annotations

import functools
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from tw_support import GAME, NAMES, registered

from companion.cli import main
from companion.games.triwizard.rules.numbers import PHASES
from companion.rules import EVERYTHING, Accepted

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "replay-triwizard.md").read_text(encoding="utf-8")
RULES = ROOT / "companion" / "games" / "triwizard" / "rules"
REPLAYS = Path(__file__).resolve().parent / "replays"
__all__ = ["registered"]


def _section(title: str) -> str:
    start = DOC.index(f"\n## {title}\n")
    end = DOC.find("\n#", start + 4)
    return DOC[start : end if end != -1 else len(DOC)]


def _rows(title: str) -> list[tuple[str, str]]:
    """The (first cell without its backticks, second cell) of the section's table rows."""
    return re.findall(r"^\| `([^`]+)` \| (.*) \|$", _section(title), re.M)


KEYS = _rows("The output, key by key")
WHOLE = {key for key, meaning in KEYS if "*as a whole*" in meaning}
PATTERNS = [
    (
        key,
        re.compile(
            re.sub(r"<\w+>", r"[^.\\[\\]]+", re.escape(key).replace(r"\<", "<").replace(r"\>", ">"))
            + r"\Z"
        ),
    )
    for key, _ in KEYS
]
PHASE_VALUES = {key for key, _ in _rows("The values of `phase`")}
OPTION_NAMES = {key for key, _ in _rows("Options")}


@functools.lru_cache(maxsize=4096)
def documented(path: str) -> str | None:
    """The doc's key that names ``path`` (``players.Ann.hand`` -> ``players.<name>.hand``)."""
    return next((key for key, pattern in PATTERNS if pattern.match(path)), None)


def undocumented(value: Any, path: str = "") -> set[str]:
    """Every key path in ``value`` the doc does not name (not below a value *as a whole*)."""
    out: set[str] = set()
    if isinstance(value, dict):
        for key, inner in value.items():
            here = f"{path}.{key}" if path else str(key)
            name = documented(here)
            if name is None:
                out.add(here)
            elif name not in WHOLE:
                out |= undocumented(inner, here)
    elif isinstance(value, list):
        for inner in value:
            out |= undocumented(inner, f"{path}[]")
    return out


def test_the_doc_is_read():
    """The tables are found, and the keys the design names are among them."""
    names = {key for key, _ in KEYS}
    for key in (
        "players.<name>.hand_count",
        "players.<name>.uncleared",
        "cups[].peeked",
        "lineup[].face_up",
        "fight.result",
        "reach[].stops",
        "push_back.by",
        "interrupt.kind",
        "awaiting.why",
        "piles.obstacles_discard",
        "turn_state.tile_played",
    ):
        assert key in names, key
    assert documented("players.Ann.hand[].colour") == "players.<name>.hand[].colour"
    assert documented("players.Ann.nope") is None
    assert PHASE_VALUES >= {"setup", "open", "moving", "over"}
    assert "options" in WHOLE


def test_the_check_finds_an_undocumented_key():
    """A key the doc does not name is found, nested in lists and dicts of dicts."""
    found = undocumented(
        {"players": {"Ann": {"space": "K1", "hand": [{"card": "x", "glow": 1}]}}, "secret": 1}
    )
    assert found == {"players.Ann.hand[].glow", "secret"}
    assert undocumented({"options": {"anything": {"at": "all"}}}) == set()


@pytest.mark.usefixtures("registered")
@pytest.mark.parametrize("name", sorted(p.name for p in REPLAYS.glob("*.jsonl")))
def test_every_key_of_a_scenarios_output_is_documented(name, capsys):
    """Each scenario's referee output and each player's view name only documented keys."""
    capsys.readouterr()
    assert main(["replay", str(REPLAYS / name)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert undocumented(out) == set()
    assert out["phase"] in PHASE_VALUES
    for player in out["players"]:
        assert main(["replay", str(REPLAYS / name), "--view", player]) == 0
        assert undocumented(json.loads(capsys.readouterr().out)) == set()


def test_playouts_reach_only_documented_keys_and_phases():
    """Seeded games through legal actions on both data sets (and the declared maze): every view of every step names
    only documented keys, and every phase met is documented."""
    met: set[str] = set()
    for data_set, maze in (("example", "grid"), ("corridor-k", "grid"), ("corridor-k", "declared")):
        for seed in range(6):
            rng = random.Random(seed)
            players = NAMES[: 2 + seed % 3]
            s = GAME.new(players, {"data_set": data_set, "maze": maze}, seed=seed)
            for _ in range(300):
                met.add(s["phase"])
                for viewer in (EVERYTHING, players[0]):
                    assert undocumented(GAME.view(s, viewer)) == set(), (seed, s["phase"])
                if GAME.outcome(s).finished:
                    break
                offered = list(GAME.legal_actions(s))
                if GAME.chance(s) is not None:
                    offered.append(GAME.sample(s))
                result = GAME.apply(s, rng.choice(offered))
                assert isinstance(result, Accepted)
                s = result.state
    assert met <= PHASE_VALUES, met - PHASE_VALUES
    assert len(met) >= 12


def test_every_phase_the_rules_assign_is_documented():
    """The phases named by the rules' source: the constant and every assignment."""
    assigned: set[str] = set()
    for source in RULES.glob("*.py"):
        text = source.read_text(encoding="utf-8")
        assigned |= set(re.findall(r"""\["phase"\]\s*=\s*"(\w+)\"""", text))
        assigned |= set(re.findall(r""""phase":\s*"(\w+)\"""", text))
    assert {"open", "over", "setup"} <= assigned
    assert (set(PHASES) | assigned) <= PHASE_VALUES, (set(PHASES) | assigned) - PHASE_VALUES


def test_every_option_is_documented():
    """Each of the game's options has a row in "Triwizard's options"."""
    assert {option.name for option in GAME.options} <= OPTION_NAMES
