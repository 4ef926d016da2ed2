"""``docs/replay.md`` names every key of Dork Tower's replay output and every value of ``phase``.

The doc's table "Dork Tower's output, key by key" is read (``a.b`` a key of ``a``'s object,
``a[]`` each entry of a list, ``<name>`` a key that varies, *as a whole* a value described as one);
the output of the scenario files replayed by ``companion replay`` (the referee's view and each
player's), and of seeded playouts through every phase, must have no key the table does not name.
The phases the rules can reach (the ``PHASES`` constant and every ``phase`` the rules' source
assigns), and those the playouts visit, must each be listed in "The values of ``phase``".
"""

from __future__ import annotations

import functools
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.games import get_game
from companion.games.dorktower.rules.constants import PHASES
from companion.rules import EVERYTHING, Accepted

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "replay.md").read_text(encoding="utf-8")
RULES = ROOT / "companion" / "games" / "dorktower" / "rules"
SCENARIOS = Path(__file__).resolve().parent / "scenarios"
GAME = get_game("dorktower")


def _section(title: str) -> str:
    start = DOC.index(f"### {title}")
    end = DOC.find("\n#", start + 4)
    return DOC[start : end if end != -1 else len(DOC)]


def _rows(title: str) -> list[tuple[str, str]]:
    """The (first cell without its backticks, second cell) of the section's table rows."""
    return re.findall(r"^\| `([^`]+)` \| (.*) \|$", _section(title), re.M)


KEYS = _rows("Dork Tower's output, key by key")
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


@functools.lru_cache(maxsize=4096)
def documented(path: str) -> str | None:
    """The doc's key that names ``path`` (``players.Ann.gold`` -> ``players.<name>.gold``)."""
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
    """The tables are found, and the keys the issue names are among them."""
    names = {key for key, _ in KEYS}
    for key in (
        "players.<name>.scroll_count",
        "players.<name>.dead",
        "players.<name>.home",
        "moves_left",
        "tower.wedges[].day",
        "last_combat.totals",
        "decks",
        "bowl",
    ):
        assert key in names, key
    assert documented("players.Ann.slots[].accepts") == "players.<name>.slots[].accepts"
    assert documented("players.Ann.nope") is None
    assert PHASE_VALUES >= {"start_roll", "move", "over"}


def test_the_check_finds_an_undocumented_key():
    """A key the doc does not name is found, nested in lists and dicts of dicts."""
    found = undocumented(
        {"players": {"Ann": {"gold": 1, "slots": [{"card": "x", "glow": 1}]}}, "secret": 1}
    )
    assert found == {"players.Ann.slots[].glow", "secret"}
    assert undocumented({"options": {"anything": {"at": "all"}}}) == set()  # as a whole


@pytest.mark.parametrize("name", sorted(p.name for p in SCENARIOS.glob("*.jsonl")))
def test_every_key_of_a_scenarios_output_is_documented(name, capsys):
    capsys.readouterr()
    assert main(["replay", str(SCENARIOS / name)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert undocumented(out) == set()
    assert out["phase"] in PHASE_VALUES
    for player in out["players"]:
        assert main(["replay", str(SCENARIOS / name), "--view", player]) == 0
        assert undocumented(json.loads(capsys.readouterr().out)) == set()


def _offer(s: dict[str, Any]) -> dict[str, Any] | None:
    """In a trade window, an offer of 1 gold from the active hero to one on his space."""
    if s["phase"] != "trade" or s["offer"] is not None:
        return None
    me = s["active"]
    here = s["heroes"][me]["space"]
    other = next(
        (n for n, h in enumerate(s["heroes"]) if n != me and h["space"] == here and not h["dead"]),
        None,
    )
    if other is None:
        return None
    return {
        "type": "offer",
        "player": s["players"][me],
        "with": s["players"][other],
        "give": {"gold": 1, "items": [], "scrolls": []},
        "take": {"gold": 0, "items": [], "scrolls": 0},
    }


def test_playouts_reach_only_documented_keys_and_phases():
    """Seeded games through legal actions (offers made in trade windows): every view of every
    step names only documented keys, and every phase met is documented."""
    met: set[str] = set()
    offers = 0
    for seed in range(10):
        rng = random.Random(seed)
        players = ["Ann", "Bo", "Cy", "Di"][: 2 + seed % 3]
        s = GAME.new(players, {"start_roll": seed % 2 == 0}, seed=seed)
        for _ in range(250):
            met.add(s["phase"])
            for viewer in (EVERYTHING, players[0]):
                assert undocumented(GAME.view(s, viewer)) == set(), (seed, s["phase"])
            if GAME.outcome(s).finished:
                break
            offer = _offer(s)
            if GAME.chance(s) is not None:
                action = GAME.sample(s)
            elif offer is not None and rng.random() < 0.5:
                action = offer
            else:
                choices = GAME.legal_actions(s)
                if not choices:
                    break
                action = rng.choice(choices)
            result = GAME.apply(s, action)
            if not isinstance(result, Accepted):
                assert action is offer, (seed, action, result)
                continue
            offers += action is offer
            s = result.state
    assert offers > 0
    assert met <= PHASE_VALUES, met - PHASE_VALUES
    assert len(met) >= 10


def test_every_phase_the_rules_assign_is_documented():
    """The phases named by the rules' source: the constant and every assignment."""
    assigned: set[str] = set()
    for source in RULES.glob("*.py"):
        text = source.read_text(encoding="utf-8")
        assigned |= set(re.findall(r"""\["phase"\]\s*=\s*"(\w+)\"""", text))
        assigned |= set(re.findall(r""""phase":\s*"(\w+)\"""", text))
    assert {"move", "over", "setup"} <= assigned
    assert (set(PHASES) | assigned) <= PHASE_VALUES, (set(PHASES) | assigned) - PHASE_VALUES
