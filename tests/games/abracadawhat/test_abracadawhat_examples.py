"""Abracada...What?: the worked examples of spec section 5 (ABR-EX-1..9)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from abr_support import (
    GAME,
    active,
    arrange,
    cast,
    deal_action,
    end_turn,
    events,
    kinds,
    life,
    play,
    rack,
    refill,
    remove,
    roll,
    scores,
    seated,
    step,
)

from companion.rules import HOST, TABLE

REPO = Path(__file__).resolve().parents[2]

# -- ABR-EX-1: Elena, Marta, Denise -------------------------------------------------------------

SEATS = ["Elena", "Denise", "Marta"]  # clockwise: Denise on Elena's left, Marta on her right


def ex1_start(m0: int, d0: int, s0: int, removal: str, holds_4: bool = True) -> dict:
    """Elena's turn begins: 4 life, a rack of ``s0`` stones with a 3, a 5 and (or not) a 4.

    Without the 4 she holds a 7 instead and the 4 lies among the secret stones, so the two
    starting states differ only in Elena's own rack and in a face-down secret stone. A rack below
    5 at the start of a turn means the reserve was already empty (ABR-ENDT-5).
    """
    elena = [3, 5, 4 if holds_4 else 7] + [8, 7][: s0 - 3]
    racks = {"Elena": elena, "Denise": [6, 6, 7, 8, 8], "Marta": [6, 6, 7, 8, 8]}
    secret = [7 if holds_4 else 4, 1, 2, 2]
    return arrange(
        racks,
        life={"Elena": 4, "Marta": m0, "Denise": d0},
        secret=secret,
        removed=[3, 3, 4, 4, 5, 5],
        reserve=None if s0 == 5 else 0,
        options={"removal": removal},
        active="Elena",
    )


def seated_names(state: dict) -> list[str]:
    return state["players"]


def ex1_cast_and_remove(state: dict, spell: int, removal: str) -> tuple[dict, list]:
    """Steps 1-3 (and 5-6): Elena declares, Marta removes the stone; returns the state and all
    events."""
    first = step(state, cast("Elena", spell))
    evs = list(first.events)
    state = first.state
    succeeded = events(first, "cast_succeeded")[0]
    assert succeeded["remover"] == "Marta"
    if removal == "tap":
        assert state["phase"] == "remove"
        assert GAME.view(state, TABLE)["pending"] == {"spell": spell, "remover": "Marta"}
        assert GAME.view(state, TABLE)["waiting_for"] == ["Marta"]
        second = step(state, remove(spell, "Marta"))
        evs += second.events
        state = second.state
    assert "stone_removed" in [e["type"] for e in evs]
    return state, evs


def ex1_until_step_6(m0, d0, s0, removal, holds_4=True) -> dict:
    state = ex1_start(m0, d0, s0, removal, holds_4)
    state, _ = ex1_cast_and_remove(state, 3, removal)
    state = play(state, roll(3, "Elena"))
    state, _ = ex1_cast_and_remove(state, 5, removal)
    return state


@pytest.mark.parametrize("removal", ["auto", "tap"])
@pytest.mark.parametrize("s0", [3, 4, 5])
@pytest.mark.parametrize("d0", [2, 4, 6])
@pytest.mark.parametrize("m0", [2, 3, 6])
def test_ex1_elena_marta_denise(m0, d0, s0, removal):
    """ABR-EX-1, ABR-AMB-18: the rulebook's example, row by row through the API, for Marta's and
    Denise's starting life m0, d0 >= 2 and Elena's rack size s0 (ABR-CAST-4: Marta removes;
    ABR-SPELL-3: the heal is capped; ABR-SPELL-5: both neighbours lose 1; ABR-CAST-8: the lower 4
    costs 1 life and ends the turn; ABR-ENDT-6: Denise plays next and Elena removes for her)."""
    # step 0: Elena's turn begins
    state = ex1_start(m0, d0, s0, removal)
    assert seated_names(state) == SEATS
    assert (active(state), state["last_cast"], life(state)["Elena"]) == ("Elena", None, 4)
    assert len(rack(state, "Elena")) == s0
    board = list(state["cast"])
    # steps 1-3: "3! Sweet Dreams!"; the rack has a 3; Marta lays it at board area 3
    state, evs = ex1_cast_and_remove(state, 3, removal)
    assert len(rack(state, "Elena")) == s0 - 1
    board[2] += 1
    assert state["cast"] == board
    assert state["phase"] == "roll" and GAME.chance(state).player == "Elena"
    # step 4: Elena rolls 3 and takes only 2 tokens
    result = step(state, roll(3, "Elena"))
    assert [(e["player"], e["delta"]) for e in events(result, "life")] == [("Elena", 2)]
    state = result.state
    assert life(state)["Elena"] == 6 and state["last_cast"] == 3
    # steps 5-6: "5! Lightning Storm!" (5 >= 3); Marta lays the 5; both neighbours lose 1
    state, evs = ex1_cast_and_remove(state, 5, removal)
    assert "out_of_order" not in [e["type"] for e in evs]
    board[4] += 1
    assert state["cast"] == board
    assert len(rack(state, "Elena")) == s0 - 2
    assert life(state) == {"Elena": 6, "Denise": d0 - 1, "Marta": m0 - 1}
    assert state["last_cast"] == 5 and state["last_round"] is None
    # step 7: "4! Night Singer!" after a 5: penalty, no removal, no secret stone
    rack_before = list(rack(state, "Elena"))
    result = step(state, cast("Elena", 4))
    assert kinds(result)[:3] == ["declared", "out_of_order", "life"]
    assert "stone_removed" not in kinds(result) and "secret_taken" not in kinds(result)
    state = result.state
    assert life(state) == {"Elena": 5, "Denise": d0 - 1, "Marta": m0 - 1}
    assert rack(state, "Elena") == rack_before and 4 in rack_before
    assert state["cast"] == board and state["acquired"] == [[], [], []]
    # step 8: the turn ends; no stones-out win; refill min(5 - (s0 - 2), reserve)
    assert state["last_round"] is None and state["round"] == 1
    reserve = GAME.view(ex1_start(m0, d0, s0, removal), TABLE)["reserve_size"]
    expected_refill = min(5 - (s0 - 2), reserve)
    if expected_refill:
        assert state["phase"] == "refill" and state["refill_left"] == expected_refill == 2
        state = play(state, refill("Elena", 6, 7))
        assert len(rack(state, "Elena")) == 5
    else:
        assert s0 < 5 and len(rack(state, "Elena")) == s0 - 2
    # step 9: Denise's turn; Elena (on Denise's right) removes her stones
    assert active(state) == "Denise" and state["last_cast"] is None
    denise = step(state, cast("Denise", 6))
    assert events(denise, "cast_succeeded")[0]["remover"] == "Elena"
    if removal == "tap":
        assert GAME.view(denise.state, TABLE)["pending"]["remover"] == "Elena"


@pytest.mark.parametrize("removal", ["auto", "tap"])
@pytest.mark.parametrize("s0", [3, 5])
@pytest.mark.parametrize("m0,d0", [(2, 2), (6, 6), (3, 5)])
def test_ex1_step_7_gives_no_hint(m0, d0, s0, removal):
    """ABR-EX-1, ABR-CAST-8, ABR-HID-7: at step 7 the engine's output is identical whether or not
    Elena held a 4: the same events, the same state apart from her own rack and a face-down secret
    stone, and the same view for her, the table and the host."""
    with_4 = ex1_until_step_6(m0, d0, s0, removal, holds_4=True)
    without = ex1_until_step_6(m0, d0, s0, removal, holds_4=False)
    a, b = step(with_4, cast("Elena", 4)), step(without, cast("Elena", 4))
    assert a.events == b.events
    for viewer in ("Elena", TABLE, HOST):
        assert GAME.view(a.state, viewer) == GAME.view(b.state, viewer)
    masked_a, masked_b = dict(a.state), dict(b.state)
    for s in (masked_a, masked_b):
        s["racks"] = s["racks"][1:]
        s["secret"] = s["secret"][1:]
    assert masked_a == masked_b
    assert 4 in rack(a.state, "Elena") and 4 not in rack(b.state, "Elena")


# -- ABR-EX-1 through `companion replay` ---------------------------------------------------------

EX1_DEAL = deal_action(
    {"Elena": [3, 4, 5, 7, 7], "Denise": [6, 6, 8, 8, 8], "Marta": [2, 6, 8, 8, 8]},
    secret=[4, 5, 5, 5],
    removed=[1, 2, 3, 3, 4, 4],
)


def ex1_replay_lines() -> list[dict]:
    """The example as a recorded game: two turns bring Elena to 4 life, then her turn."""
    return [
        {"game": "abracadawhat", "players": SEATS},
        {"type": "undo"},  # line 2: nothing to undo yet
        EX1_DEAL,
        cast("Elena", 8),  # she holds no 8: 5 life
        cast("Denise", 6),
        end_turn("Denise"),
        refill("Denise", 7),  # Blizzard: Marta 5
        cast("Marta", 6),
        end_turn("Marta"),
        refill("Marta", 7),  # Blizzard: Elena 4
        cast("Marta", 3),  # line 11: not Marta's turn any more
        cast("Elena", 3),
        roll(3, "Elena"),  # steps 1-4: Elena 6
        cast("Elena", 5),
        {"type": "undo"},
        cast("Elena", 5),  # steps 5-6 (once undone)
        cast("Elena", 4),  # step 7: Elena 5, the turn ends
        refill("Elena", 6, 8),  # step 8
    ]


def run_replay(tmp_path: Path, lines: list[dict], *args: str) -> dict:
    path = tmp_path / "ex1.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(path), *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_ex1_through_the_replay_command(tmp_path):
    """ABR-EX-1, ABR-TURN-1: the example replayed by ``companion replay``: step 9's state (Denise
    to play, Elena 5, Denise 5, Marta 4, no points yet), with the refused lines reported by their
    1-based line numbers."""
    out = run_replay(tmp_path, ex1_replay_lines())
    assert out["round"] == 1
    assert out["active"] == "Denise" and out["phase"] == "declare"
    assert {p: v["life"] for p, v in out["players"].items()} == {
        "Elena": 5,
        "Denise": 5,
        "Marta": 4,
    }
    assert {p: v["score"] for p, v in out["players"].items()} == {
        "Elena": 0,
        "Denise": 0,
        "Marta": 0,
    }
    assert out["players"]["Elena"]["rack"] == [4, 6, 7, 7, 8]
    assert out["board"]["cast"] == [0, 0, 1, 0, 1, 2, 0, 0]
    assert [(r["line"], r["rule"]) for r in out["rejections"]] == [
        (2, "TABLE-UNDO-1"),
        (11, "ABR-TURN-1"),
    ]


def test_ex1_replay_as_seen_by_elena(tmp_path):
    """ABR-EX-1, ABR-HID-1: ``--view Elena`` shows the others' racks but never her own, nor the
    reserve or the secret stones."""
    out = run_replay(tmp_path, ex1_replay_lines(), "--view", "Elena")
    assert out["viewer"] == "Elena"
    assert out["players"]["Elena"]["rack"] is None
    assert out["players"]["Elena"]["rack_size"] == 5
    assert out["players"]["Marta"]["rack"] == [2, 7, 8, 8, 8]
    assert "reserve" not in out and "secret" not in out and "tags" not in out
    assert len(out["rejections"]) == 2


# -- ABR-EX-2..9 ---------------------------------------------------------------------------------


def test_ex2_magic_potion_trap():
    """ABR-EX-2, ABR-SPELL-8: at 4 life the caster heals with 8 (5 life); his following 6 is lower:
    4 life, the turn ends and his 6 stays in his rack. After an 8 only an 8 is a normal cast."""
    state = play(seated(4, {"Ann": [8, 8, 6, 5, 7]}, life={"Ann": 4}), cast("Ann", 8))
    assert life(state)["Ann"] == 5 and state["last_cast"] == 8
    for lower in range(1, 8):
        assert "out_of_order" in kinds(step(state, cast("Ann", lower)))
    assert "cast_succeeded" in kinds(step(state, cast("Ann", 8)))
    after = play(state, cast("Ann", 6))
    assert life(after)["Ann"] == 4
    assert 6 in rack(after, "Ann")
    assert after["phase"] == "refill"


def test_ex3_lightning_storm_with_two_players():
    """ABR-EX-3: two players, B at 6; A's Lightning Storm costs B exactly 1."""
    state = seated(2, {"Ann": [5, 6, 7, 8, 8]})
    assert life(play(state, cast("Ann", 5))) == {"Ann": 6, "Ben": 5}


def test_ex4_dragon_knock_out():
    """ABR-EX-4: 4 players; A's dragon rolls 4: B 6 -> 2, C 3 -> 0, D 4 -> 0; A wins; A 3, C 0,
    D 0, B 1 plus his secret stone."""
    state = seated(4, {"Ann": [1, 5, 6, 7, 8]}, life={"Cid": 3, "Dee": 4}, acquired={"Ben": [4]})
    state = play(state, cast("Ann", 1), roll(4))
    assert state["last_round"]["life"] == {"Ann": 6, "Ben": 2, "Cid": 0, "Dee": 0}
    assert state["last_round"]["winner"] == "Ann"
    assert state["last_round"]["losers"] == ["Cid", "Dee"]
    assert scores(state) == {"Ann": 3, "Ben": 2, "Cid": 0, "Dee": 0}


def test_ex5_stones_out():
    """ABR-EX-5: A casts his last stone: the round ends, all others at 0 life; A 3 plus his
    secret stones, everybody else 0 (no secret bonus)."""
    state = seated(3, {"Ann": [7]}, acquired={"Ann": [4, 4], "Ben": [4]}, reserve=0)
    state = play(state, cast("Ann", 7))
    assert state["last_round"]["life"] == {"Ann": 6, "Ben": 0, "Cid": 0}
    assert scores(state) == {"Ann": 5, "Ben": 0, "Cid": 0}


def test_ex6_self_knock_out_by_dragon():
    """ABR-EX-6: A at 2 attempts 1 without it and rolls 5: A at 0; no winner; A 0, every other
    player 1 plus his own secret stones."""
    state = seated(3, {"Ann": [3, 5, 6, 7, 8]}, life={"Ann": 2}, acquired={"Cid": [4]})
    state = play(state, cast("Ann", 1), roll(5))
    assert state["last_round"]["life"]["Ann"] == 0
    assert state["last_round"]["winner"] is None
    assert scores(state) == {"Ann": 0, "Ben": 1, "Cid": 2}


def test_ex7_tie_at_eight():
    """ABR-EX-7: A at 5 wins a round (+3 -> 8) while B at 7 survives (+1 -> 8): A gained more and
    wins. Two survivors reaching 8 with +1 each: the one with more life wins; equal life shares."""
    state = seated(3, {"Ann": [7, 5, 6, 8, 8]}, life={"Cid": 1}, score={"Ann": 5, "Ben": 7})
    state = play(state, cast("Ann", 7))
    assert scores(state) == {"Ann": 8, "Ben": 8, "Cid": 0}
    assert state["winners"] == ["Ann"]
    for ann_life, winners in [(5, ["Ann"]), (3, ["Ben"]), (4, ["Ann", "Ben"])]:
        state = seated(
            3,
            {"Cid": [3, 5, 6, 7, 8]},
            active="Cid",
            score={"Ann": 7, "Ben": 7},
            life={"Cid": 1, "Ann": ann_life, "Ben": 4},
        )
        state = play(state, cast("Cid", 1), roll(1))  # Cid's failed dragon ends him
        assert scores(state) == {"Ann": 8, "Ben": 8, "Cid": 0}
        assert state["winners"] == winners


def test_ex8_empty_reserve():
    """ABR-EX-8: 5 players, the reserve empty; the active player ends his turn with 3 stones and
    keeps 3; on his next turn three casts take him out."""
    state = seated(5, {"Ann": [3, 5, 6, 7, 8]}, reserve=0)
    state = play(state, cast("Ann", 3), roll(1), cast("Ann", 5), end_turn("Ann"))
    assert len(rack(state, "Ann")) == 3
    assert state["phase"] == "declare" and active(state) == "Ben"
    for p in ("Ben", "Cid", "Dee", "Eve"):
        state = play(state, cast(p, 1), roll(1))  # nobody holds the dragon: each fails
    assert active(state) == "Ann"
    state = play(state, cast("Ann", 6), cast("Ann", 7), cast("Ann", 8))
    assert state["last_round"]["end"] == "stones_out"
    assert state["last_round"]["winner"] == "Ann"


def test_ex9_non_decreasing_repeats():
    """ABR-EX-9, ABR-CAST-7: after a successful 6 another 6 is legal; after a successful 1 the only
    repeat is 1, which must fail (only one exists) and costs a die roll. (A higher spell after a 1
    is an ordinary cast under ABR-CAST-7.)"""
    six = play(seated(3, {"Ann": [6, 6, 7, 8, 8]}), cast("Ann", 6))
    again = step(six, cast("Ann", 6))
    assert "cast_succeeded" in kinds(again) and "out_of_order" not in kinds(again)
    one = play(seated(3, {"Ann": [1, 5, 6, 7, 8]}), cast("Ann", 1), roll(1))
    assert one["last_cast"] == 1
    repeat = step(one, cast("Ann", 1))
    assert "cast_failed" in kinds(repeat) and repeat.state["phase"] == "roll"
    assert GAME.chance(repeat.state).rule == "ABR-CAST-3"
    assert life(play(repeat.state, roll(4)))["Ann"] == 2
    higher = step(one, cast("Ann", 5))
    assert "cast_succeeded" in kinds(higher) and "out_of_order" not in kinds(higher)
