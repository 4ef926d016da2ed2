"""Dork Tower scenario files, replayed through ``companion replay`` (docs/replay.md).

The files in ``scenarios`` double as documentation: each starts from an arranged position
(the option ``scenario``) and plays one worked example of the specification, one action per line.
Every file must replay without a single rejected line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main

SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def replay(name: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """The referee's view after ``companion replay`` of a scenario file; no line is rejected."""
    capsys.readouterr()
    assert main(["replay", str(SCENARIOS / name)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "dorktower"
    assert out["rejections"] == []
    return out


def tokens(out: dict[str, Any]) -> dict[str, list[str]]:
    return {space: [m["token"] for m in group] for space, group in out["monsters"].items()}


def cards(player: dict[str, Any]) -> list[str]:
    return [slot["card"] for slot in player["slots"] if slot["card"]]


def test_topdeck_win(capsys):
    """DT-EX-1 step 7, DT-COMBAT-5, DT-COMBAT-7, DT-REWARD-1, DT-REWARD-2: Topdeck (11) against
    the Mummy and the Orc Shaman (12) needs 8 and rolls 5+3: both die, 6 XP, and one treasure die
    each (20 gold twice); then the tower turns to Bo."""
    out = replay("topdeck-win.jsonl", capsys)
    ann = out["players"]["Ann"]
    assert (ann["xp"], ann["gold"], ann["space"]) == (6, 100, "rv-wood")
    assert tokens(out) == {}
    fight = out["last_combat"]
    assert (fight["totals"]["player"], fight["totals"]["monsters"]) == (11, 12)
    assert (fight["totals"]["target"], fight["dice"], fight["won"]) == (8, [5, 3], True)
    assert (out["phase"], out["active"], out["tower"]["step"]) == ("move", "Bo", 1)


def test_topdeck_lose(capsys):
    """DT-EX-1 step 7', DT-DEFEAT-1, DT-DEFEAT-2, DT-DEFEAT-3, DT-DEFEAT-4, DT-GROUP-1: 4+3 misses
    the 8; Second Chance re-rolls, 2+2 misses again; Topdeck flees home to Ravensteel Keep and his
    turn ends. The two monsters stay in Ravenwood; he gained nothing."""
    out = replay("topdeck-lose.jsonl", capsys)
    ann = out["players"]["Ann"]
    assert (ann["space"], ann["xp"], ann["gold"], ann["scroll_count"]) == ("rv-city", 0, 60, 0)
    assert not ann["dead"] and cards(ann) == ["dagger", "chain-mail"]
    assert tokens(out) == {"rv-wood": ["mummy", "orc-shaman"]}
    assert (out["last_combat"]["dice"], out["last_combat"]["won"]) == ([2, 2], False)
    assert (out["phase"], out["active"]) == ("move", "Bo")


def test_topdeck_six(capsys):
    """DT-EX-1 step 7'', DT-COMBAT-6: 4 XP turn one die into a 6 before the roll; the other die
    shows 2: 8 wins. The XP spent come back with the monsters' 6."""
    out = replay("topdeck-six.jsonl", capsys)
    ann = out["players"]["Ann"]
    assert (ann["xp"], ann["gold"]) == (4 - 4 + 6, 60 + 40 + 10)
    assert (out["last_combat"]["dice"], out["last_combat"]["won"]) == ([6, 2], True)
    assert tokens(out) == {}


def test_death_in_dungeon(capsys):
    """DT-EX-5, DT-SPACE-8, DT-DEATH-1, DT-DEATH-2, DT-DEATH-3: high-level Topdeck (3 items,
    2 scrolls, 130 gold, 7 XP) loses in the Goblin Warren and cannot flee: he dies. Back at
    Brambleholt with nothing but 7 XP and his level, he is given 50 gold at his next turn; the
    Troll, Ogre and Mummy still hold the dungeon."""
    out = replay("death-in-dungeon.jsonl", capsys)
    ann = out["players"]["Ann"]
    assert (ann["space"], ann["level"], ann["gold"], ann["xp"]) == ("bh-city", "high", 50, 7)
    assert (ann["scroll_count"], cards(ann), ann["backpack"], ann["dead"]) == (0, [], [], False)
    assert tokens(out) == {"bh-warren": ["troll", "ogre", "mummy"]}
    assert (out["phase"], out["active"], out["tower"]["step"]) == ("move", "Ann", 2)


def test_quest_forest_night(capsys):
    """DT-EX-6, DT-QUEST-2, DT-QUEST-4, DT-QUEST-6, DT-ENC-4: the quest in Ravenwood by night:
    3 tokens, the Merchant first (a Buckler), then the Orc and the Goblin. The win pays 3 XP,
    20 gold of treasure, the quest's scroll and 5 XP; the quest moves to Sucking Mire (7)."""
    out = replay("quest-forest-night.jsonl", capsys)
    ann = out["players"]["Ann"]
    assert (ann["xp"], ann["gold"], ann["scroll_count"]) == (2 + 1 + 5, 80, 1)
    assert cards(ann) == ["dagger", "chain-mail", "buckler"]
    assert out["quests"] == ["mf-mire", "mf-reeds"] and tokens(out) == {}
    assert (out["phase"], out["active"]) == ("move", "Bo")


def test_quest_forest_night_lost(capsys):
    """DT-EX-6, DT-QUEST-5, DT-QUEST-6, DT-QUEST-1: the same quest lost on snake eyes: no reward
    (the Merchant's Buckler was his before the fight), the Orc and the Goblin stay, and the quest
    still moves (12: Crypt of Ravens); two quests remain."""
    out = replay("quest-forest-night-lost.jsonl", capsys)
    ann = out["players"]["Ann"]
    assert (ann["space"], ann["xp"], ann["gold"], ann["scroll_count"]) == ("rv-port", 0, 60, 0)
    assert cards(ann) == ["dagger", "chain-mail", "buckler"]
    assert tokens(out) == {"rv-wood": ["orc", "goblin"]}
    assert out["quests"] == ["rv-crypt", "mf-reeds"]


def test_zmindrik_victory(capsys):
    """DT-WIZ-1, DT-WIZ-2, DT-WIZ-4, DT-GAME-1: Ann enters by the door; Z'Mindrik's Merchant is
    ignored and redrawn; Bo's Hex helps the five monsters (16 against 11, 10 needed); 6+4 wins
    the game."""
    out = replay("zmindrik-victory.jsonl", capsys)
    assert (out["phase"], out["finished"], out["winners"]) == ("over", True, ["Ann"])
    fight = out["last_combat"]
    assert fight["monsters"] == ["goblin", "orc", "wolf", "bandit", "skeleton"]
    assert (fight["totals"]["monsters"], fight["totals"]["against"], fight["totals"]["target"]) == (
        16,
        1,
        10,
    )
    assert tokens(out) == {} and out["players"]["Bo"]["scroll_count"] == 0
