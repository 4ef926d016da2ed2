"""The scroll windows' countdown tells nothing of a hand (issue 15, ``docs/secrets.md``).

Dork Tower's rivals' windows (before the fighter's roll, and after a winning one) close when
every rival has passed or when the table's countdown ends; every page shows the countdown. The
secrets harness (``tests/secrets_harness.py``) fetches everything as every role in both windows
and again with the hands dealt anew (``indistinguishable``): nothing may differ, the countdown
included. A planted leak, a deadline that depends on the scrolls the rivals could play, is
caught."""

from __future__ import annotations

import random

import pytest
from secrets_harness import Harness, Leak
from support import Server

from companion.games import get_game
from companion.rules import HOST, TABLE

PLAYERS = ["Ann", "Bo", "Cid"]
OPTIONS = {
    "start_roll": False,
    "scroll_window_seconds": 8,
    "scenario": {
        "heroes": {
            "Ann": {
                "character": "topdeck",
                "home": "rv-city",
                "items": [{"card": "dagger"}, {"card": "chain-mail"}],
            },
            "Bo": {"character": "lumpin", "home": "th-city", "scrolls": ["twist-of-fate", "hex"]},
            "Cid": {"character": "grimnir", "home": "sm-city", "scrolls": ["aegis"]},
        },
        "monsters": {"rv-wood": ["mummy"]},
    },
}


@pytest.fixture
def server(tmp_path):
    s = Server.start(tmp_path, threads=24)
    s.companion.app.config["SSE_KEEPALIVE"] = 0.3
    yield s
    s.stop()


def in_window(server: Server, after: bool) -> Harness:
    """A harness whose game stands in the rivals' window before Ann's roll, or after her
    winning roll (4+3 against the 5 she needs)."""
    harness = Harness(server, get_game("dorktower"), PLAYERS, seed=11, options=OPTIONS)
    harness.start()
    harness.claim_seats()
    table = server.table
    actions = [{"type": "step", "player": "Ann", "to": "rv-wood"}]
    if after:
        actions += [
            {"type": "pass", "player": "Bo"},
            {"type": "pass", "player": "Cid"},
            {"type": "roll", "values": [4, 3]},
        ]
    for action in actions:
        answer = table.call("action", "test", action=action)
        assert answer["ok"], answer
    assert table.history.state["phase"] == ("scrolls_after" if after else "scrolls_others")
    return harness


@pytest.mark.parametrize("after", [False, True], ids=["before-the-roll", "after-the-roll"])
def test_the_countdown_is_the_same_whatever_the_hands_hold(server, after):
    """DT-AMB-30, DT-COMBAT-4, DT-COMBAT-8: in both rivals' windows every role's pages, the
    countdown in every snapshot with them, stay the same when the hands it may not see are dealt
    anew; the game's deadline is the same for every re-deal, for every viewer."""
    harness = in_window(server, after)
    table = server.table
    shown = table.snapshot(TABLE)["countdown"]
    assert shown is not None and shown["seconds"] == 8 and shown["ends_at"] is not None
    assert all(table.snapshot(v)["countdown"] == shown for v in [*PLAYERS, HOST])
    game, state = table.history.game, table.history.state
    rng = random.Random(5)
    redealt = 0
    for viewer in [*PLAYERS, TABLE, HOST]:
        for _ in range(20):
            other = game.indistinguishable(state, viewer, rng)
            redealt += other["heroes"] != state["heroes"]
            assert game.deadline(other) == game.deadline(state)
    assert redealt > 50  # the hands were dealt anew, not kept
    for _ in range(2):
        harness.check()


def test_a_countdown_that_depends_on_the_playable_scrolls_is_caught(server, monkeypatch):
    """The harness can fail: a deadline that waits longer while a rival holds a scroll he could
    play (the leak issue 15 forbids) shows in the countdown, and is caught."""
    harness = in_window(server, after=True)
    game = get_game("dorktower")
    real = type(game).deadline

    def leaky(self, state):
        found = real(self, state)
        if found is None:
            return None
        plays = [a for a in self.legal_actions(state) if a["type"] == "play_scroll"]
        return found | {"seconds": found["seconds"] + (5 if plays else 0)}

    monkeypatch.setattr(type(game), "deadline", leaky)
    with server.table._lock:
        server.table.forget_cached()
    with pytest.raises(Leak, match="leaks to"):
        for _ in range(6):  # each check deals the hands anew once per role
            harness.check()
