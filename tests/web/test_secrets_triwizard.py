"""The Triwizard Maze Game's waits tell nothing of a hand (issue 16, ``docs/secrets.md``).

Albus Dumbledore played at a cloaked piece opens a window in which only its owner may counter
with a Dumbledore of his own (TW-RES-DUMB-2); the table closes it when its countdown ends. Every
role's pages, the countdown in every snapshot, must be the same whether the target holds a
Dumbledore or not: the secrets harness (``tests/secrets_harness.py``) fetches everything as every
role in the window and again with the tiles dealt anew (``indistinguishable``). A Four Point
Spell's peek is served to its caster alone. A planted leak, a countdown that waits longer for a
target who holds the counter, is caught."""

from __future__ import annotations

import random

import pytest
from secrets_harness import Harness, Leak
from support import Server

from companion.games import get_game
from companion.rules import HOST, TABLE

PLAYERS = ["Ann", "Bo", "Cid"]
HANDS = {
    "Ann": ["red-5-3", "blue-2-4", "green-4-2", "green-1-5"],
    "Bo": ["red-1-2", "red-2-3", "blue-1-3", "orange-1-2"],
    "Cid": ["blue-5-3", "green-2-2", "orange-2-3", "orange-3-4"],
}


def options(bo_tiles: list[str]) -> dict:
    return {
        "data_set": "corridor-k",
        "counter_seconds": 10,
        "scenario": {
            "pieces": {"Ann": "K3", "Bo": "K14", "Cid": "K1"},
            "cloak": "Bo",
            "active": "Ann",
            "hands": HANDS,
            "tiles": {"Ann": ["dumbledore-1", "four-point-1"], "Bo": bo_tiles, "Cid": []},
        },
    }


@pytest.fixture
def server(tmp_path):
    s = Server.start(tmp_path, threads=24)
    s.companion.app.config["SSE_KEEPALIVE"] = 0.3
    yield s
    s.stop()


def in_window(server: Server, bo_tiles: list[str]) -> Harness:
    """A harness whose game waits for Bo's answer to Ann's Dumbledore."""
    harness = Harness(server, get_game("triwizard"), PLAYERS, seed=11, options=options(bo_tiles))
    harness.start()
    harness.claim_seats()
    table = server.table
    action = {"type": "play_tile", "player": "Ann", "tile": "dumbledore-1", "target": "Bo"}
    answer = table.call("action", "test", action=action)
    assert answer["ok"], answer
    assert table.history.game.view(table.history.state, TABLE)["interrupt"]["kind"] == "dumbledore"
    return harness


@pytest.mark.parametrize(
    "bo_tiles", [["dumbledore-2", "cloak-1"], ["cloak-1", "reductor-1"]], ids=["holds", "none"]
)
def test_the_dumbledore_window_is_the_same_whatever_the_target_holds(server, bo_tiles):
    """TW-RES-DUMB-1, TW-RES-DUMB-2, TW-CLOAK-9: every role's pages and the countdown stay the
    same when the tiles they may not see are dealt anew; the deadline is the same for every
    re-deal and every viewer, and the table's snapshot shows the same countdown to all."""
    harness = in_window(server, bo_tiles)
    table = server.table
    shown = table.snapshot(TABLE)["countdown"]
    assert shown is not None and shown["seconds"] == 10 and shown["ends_at"] is not None
    assert all(table.snapshot(v)["countdown"] == shown for v in [*PLAYERS, HOST])
    game, state = table.history.game, table.history.state
    rng = random.Random(5)
    redealt = 0
    for viewer in ["Ann", "Cid", TABLE, HOST]:
        for _ in range(20):
            other = game.indistinguishable(state, viewer, rng)
            redealt += other["tiles"] != state["tiles"]
            assert game.deadline(other) == game.deadline(state)
    assert redealt > 40  # Bo's tiles were dealt anew, not kept
    for _ in range(2):
        harness.check()


def test_a_peek_reaches_its_caster_alone(server):
    """TW-RES-4PT-1, TW-RES-4PT-2, TW-AMB-31: after Ann's Four Point Spell the Cup Tile she saw
    is in her pages only; every other role's pages stay the same when the peek is dealt anew."""
    harness = Harness(server, get_game("triwizard"), PLAYERS, seed=12, options=options([]))
    harness.start()
    harness.claim_seats()
    table = server.table
    for action in (
        {"type": "play_tile", "player": "Ann", "tile": "four-point-1", "slot": "2"},
        {"type": "peek", "player": "Ann", "slot": "2", "tile": "cup"},
    ):
        answer = table.call("action", "test", action=action)
        assert answer["ok"], answer
    game, state = table.history.game, table.history.state
    assert [c["peeked"] for c in game.view(state, "Ann")["cups"]] == [None, "cup", None, None]
    for viewer in ["Bo", "Cid", TABLE, HOST]:
        assert all(c["peeked"] is None for c in game.view(state, viewer)["cups"])
    for _ in range(2):
        harness.check()


def test_a_countdown_that_waits_for_a_held_counter_is_caught(server, monkeypatch):
    """The harness can fail: a deadline five seconds longer while the target holds a Dumbledore
    (the leak issue 16 forbids) shows in the countdown, and is caught."""
    harness = in_window(server, ["dumbledore-2", "cloak-1"])
    game = get_game("triwizard")
    real = type(game).deadline

    def leaky(self, state):
        found = real(self, state)
        if found is None:
            return None
        counters = [a for a in self.legal_actions(state) if a["type"] == "counter"]
        return found | {"seconds": found["seconds"] + (5 if counters else 0)}

    monkeypatch.setattr(type(game), "deadline", leaky)
    with server.table._lock:
        server.table.forget_cached()
    with pytest.raises(Leak, match="leaks to"):
        for _ in range(6):
            harness.check()
