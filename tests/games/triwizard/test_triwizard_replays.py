"""Triwizard scenario files, replayed through ``companion replay`` (docs/replay-triwizard.md).

The files in ``replays`` double as documentation: each starts from an arranged position (the
option ``scenario``) or from the set-up, and plays one worked example of the specification, one
action per line, on the Corridor K data set. Every file must replay without a rejected line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tw_support import registered

from companion.cli import main

REPLAYS = Path(__file__).resolve().parent / "replays"
pytestmark = pytest.mark.usefixtures(registered.__name__)
__all__ = ["registered"]


def replay(name: str, capsys: pytest.CaptureFixture[str], *view: str) -> dict[str, Any]:
    """The referee's view (or ``view``'s) after ``companion replay``; no line is rejected."""
    capsys.readouterr()
    args = ["replay", str(REPLAYS / name), *(("--view", view[0]) if view else ())]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "triwizard"
    assert out["rejections"] == []
    return out


def spaces(out: dict[str, Any]) -> dict[str, str]:
    return {name: p["space"] for name, p in out["players"].items()}


def test_setup_and_deal(capsys):
    """TW-SETUP-1, TW-SETUP-6, TW-SETUP-8, TW-SETUP-9, TW-SETUP-10, TW-COMP-11, TW-AMB-25: placed,
    the deal named card by card, a tie (2-2, then Cloak-4: Bob starts), Bob's first move; Ann's
    turn opens with the piles at 32, 32 and 16."""
    out = replay("setup-and-deal.jsonl", capsys)
    assert (out["phase"], out["active"], out["turn"]) == ("open", "Ann", 2)
    assert spaces(out) == {"Ann": "K0", "Bob": "K4"}
    p = out["piles"]
    assert (p["battle"], p["tiles"], p["obstacles"]) == (32, 32, 16)
    assert [c["card"] for c in out["players"]["Ann"]["hand"]] == [
        "red-5-3",
        "blue-2-4",
        "green-4-2",
        "green-1-5",
    ]
    assert [e["card"] for e in out["lineup"]] == [
        "o-red-orange-8-2",
        "o-blue-9-1",
        "o-orange-6-1",
        "o-green-5-1",
    ]


def test_battle_won_on_a_tie(capsys):
    """EX-TW-2, TW-BATTLE-4, TW-BATTLE-WIN-1, TW-BATTLE-WIN-2, TW-OCARD-3, TW-AMB-9: 5+3 = 8, the
    advance to the Gold Mist K8, 2 reward tiles and 1 for the Mist; O2 is current; Bob's turn."""
    out = replay("battle-won-tie.jsonl", capsys)
    ann = out["players"]["Ann"]
    assert (ann["space"], ann["tile_count"], ann["hand_count"]) == ("K8", 4, 3)
    assert (out["current"], out["lineup"][0]["face_up"], out["piles"]["battle_discard"]) == (
        2,
        False,
        1,
    )
    assert (out["phase"], out["active"]) == ("open", "Bob")


def test_battle_lost_after_double_die(capsys):
    """EX-TW-3, TW-RES-DDIE-1, TW-AMB-15, TW-BATTLE-LOSE-1, TW-TURN-9: the Cloak (0) and 2 after
    the Double Die: 7 < 9; Dee pushes Ann back to K2."""
    out = replay("battle-lost-double-die.jsonl", capsys)
    f = out["fight"]
    assert (f["rolls"], f["total"], f["strength"], f["result"]) == (["cloak", 2], 7, 9, "lost")
    assert out["players"]["Ann"]["space"] == "K2" and out["current"] == 2
    assert (out["piles"]["battle_discard"], out["piles"]["tiles_discard"]) == (1, 1)
    assert (out["phase"], out["turn_state"]["tile_played"]) == ("post", True)


def test_no_match(capsys):
    """EX-TW-4, TW-BATTLE-2, TW-BATTLE-LOSE-2, TW-BATTLE-LOSE-4: no orange card: Bob pushes Ann
    back 4 to K1; her hand keeps its 4 cards."""
    out = replay("no-match.jsonl", capsys)
    assert out["players"]["Ann"]["space"] == "K1"
    assert (out["players"]["Ann"]["hand_count"], out["fight"]["result"]) == (4, "no_match")
    assert out["piles"]["battle_discard"] == 0 and out["lineup"][0]["face_up"] is True


def test_dumbledore_declined_and_countered(capsys):
    """EX-TW-8, TW-RES-DUMB-1, TW-RES-DUMB-2, TW-CLOAK-8, TW-CLOAK-9, TW-PEN-1: declined: the
    Cloak aside, Ann on the Penalty Space K12; countered: both tiles discarded, Ann keeps the
    Cloak on K14."""
    out = replay("dumbledore-declined.jsonl", capsys)
    assert (out["cloak"], out["players"]["Ann"]["space"], out["interrupt"]) == (None, "K12", None)
    out = replay("dumbledore-countered.jsonl", capsys)
    assert (out["cloak"], out["players"]["Ann"]["space"]) == ("Ann", "K14")
    assert out["piles"]["tiles_discard"] == 2


def test_cup_tiles(capsys):
    """EX-TW-11, TW-HEAD-1, TW-HEAD-2, TW-HEAD-3, TW-AMB-6, TW-END-2: Ann flips Headstone 2 and
    goes to K15; Bob is sent there too and picks K16; Cid flips the Cup and wins."""
    out = replay("cup-tiles.jsonl", capsys)
    assert spaces(out) == {"Ann": "K15", "Bob": "K16", "Cid": "C3"}
    assert [c["face_up"] for c in out["cups"]] == ["headstone-2", None, "cup", None]
    assert (out["phase"], out["finished"], out["winners"]) == ("over", True, ["Cid"])


def test_cloak_roll(capsys):
    """EX-TW-6, TW-TURN-3, TW-CLOAK-5, TW-CLOAK-1, TW-MIST-2: the Cloak face puts the Cloak on
    Ann; next turn she passes K5 and stops on the Gold Mist without a tile."""
    out = replay("cloak-roll.jsonl", capsys)
    ann = out["players"]["Ann"]
    assert (out["cloak"], ann["space"], ann["tile_count"], out["fight"]) == ("Ann", "K8", 0, None)
    assert (out["phase"], out["awaiting"]) == ("post", None)


def test_cloak_removal(capsys):
    """EX-TW-7, TW-CLOAK-6, TW-CLOAK-7, TW-TURN-1: Ann refills to 4, rolls 3 and puts the Cloak
    on Bob; the turn ends."""
    out = replay("cloak-removal.jsonl", capsys)
    assert (out["cloak"], out["active"], out["players"]["Ann"]["hand_count"]) == ("Bob", "Bob", 4)


def test_four_point_and_red_sparks(capsys):
    """TW-RES-4PT-1, TW-RES-4PT-2, TW-RES-SPARK-1, TW-AMB-31: Ann's peek at C2 is in her view and
    the referee's only; later her Red Sparks takes Bob's Veritaserum."""
    out = replay("four-point-and-sparks.jsonl", capsys)
    assert out["peeks"] == [{"seat": 0, "player": "Ann", "slot": "2", "tile": "headstone-3"}]
    assert [t["tile"] for t in out["players"]["Ann"]["tiles"]] == ["veritaserum-1"]
    assert [t["tile"] for t in out["players"]["Bob"]["tiles"]] == ["cloak-2"]
    ann = replay("four-point-and-sparks.jsonl", capsys, "Ann")
    bob = replay("four-point-and-sparks.jsonl", capsys, "Bob")
    assert ann["cups"][1]["peeked"] == "headstone-3" and bob["cups"][1]["peeked"] is None
    assert "headstone-3" not in json.dumps(bob) and bob["players"]["Ann"]["tiles"] is None
