"""Hidden information is enforced on the server (ABR-HID-1..4): proved over every endpoint.

At every step of real games, every page, API endpoint and stream is fetched as every player, as
the table display and as the host; then the server's state is changed in exactly what that viewer
may not see (their own rack, the reserve, the secret stones still face down, other players'
acquired secret stones), and everything is fetched again. Any byte of difference would be a leak.
A control test plants a leak and checks that this method finds it.
"""

from __future__ import annotations

import json
import random

import pytest
from support import Bot, Server, fetch, first_snapshot, hidden_changed, request

from companion.games.abracadawhat.rules import AbracadaWhat
from companion.rules import HOST, TABLE


def endpoints(server: Server, tokens: dict[str, str], viewer: str) -> dict[str, str]:
    """Everything ``viewer`` can fetch, by name."""
    base = server.base
    if viewer == TABLE:
        return {
            "table page": fetch(f"{base}/table"),
            "table api": fetch(f"{base}/api/table"),
            "table stream": first_snapshot(f"{base}/api/table/stream"),
        }
    if viewer == HOST:
        host = server.host
        return {
            "host page": fetch(host),
            "host api": fetch(f"{host}/api/state"),
            "host setup": fetch(f"{host}/api/setup"),
            "host stream": first_snapshot(f"{host}/stream"),
        }
    page = f"{base}/p/{tokens[viewer]}"
    return {
        "player page": fetch(page),
        "player api": fetch(f"{page}/api/state"),
        "player stream": first_snapshot(f"{page}/stream"),
    }


def check_step(server: Server, tokens: dict[str, str], rng: random.Random) -> None:
    viewers = [*tokens, TABLE, HOST]
    for viewer in viewers:
        for _ in range(5):  # a device may report (a die's state, the supply) between the fetches
            version = server.table.version
            seen = endpoints(server, tokens, viewer)
            with hidden_changed(server, viewer, rng):
                changed = endpoints(server, tokens, viewer)
            if server.table.version == version:
                break
        else:
            raise AssertionError("the table kept changing while it was being compared")
        for name in seen:
            assert seen[name] == changed[name], f"{name} leaks hidden information to {viewer}"
    for player in tokens:  # structurally, too: no own rack, no foreign private event
        snap = json.loads(fetch(f"{server.base}/p/{tokens[player]}/api/state").split(" ", 1)[1])
        assert snap["view"]["players"][player]["rack"] is None
        for other, seen in snap["view"]["players"].items():
            assert (seen["secret"] is None) == (other != player)
        for event in snap["events"]:
            assert "private" not in event or player in event["audience"]


def play_and_check(tmp_path, players, options, seed, steps):
    server = Server.start(tmp_path)
    try:
        links = server.new_game(players, options, seed=seed)
        tokens = {p: url.rsplit("/", 1)[1] for p, url in links.items()}
        bot = Bot(server.host, links, seed=seed)
        rng = random.Random(seed)
        kinds = set()
        for _ in range(steps):
            check_step(server, tokens, rng)
            view = server.table.referee_view()
            kinds.add(view["phase"])
            if bot.step() is None:
                break
        return kinds, server.table.referee_view()
    finally:
        server.stop()


@pytest.mark.slow
def test_no_endpoint_shows_a_player_their_own_stones_three_players(tmp_path):
    """ABR-HID-1, ABR-HID-2, ABR-HID-3, ABR-HID-4: pages, APIs and streams, every role, every step."""
    phases, final = play_and_check(tmp_path, ["Elena", "Denise", "Marta"], {}, seed=11, steps=70)
    # the game went through the phases where secrets matter most
    assert {"deal", "declare", "refill"} <= phases
    assert final["round"] >= 1


@pytest.mark.slow
def test_no_endpoint_leaks_with_five_players_and_secret_stones(tmp_path):
    """ABR-HID-3: acquired secret stones reach their owner only, with five players."""
    phases, final = play_and_check(
        tmp_path,
        ["Ann", "Bo", "Cy", "Di", "Ed"],
        {"order_violation": "require_objection"},
        seed=4,
        steps=60,
    )
    assert "declare" in phases


def test_the_check_finds_a_planted_leak(tmp_path, monkeypatch):
    """The method can fail: a view that shows a player one of their own stones is caught."""
    real_view = AbracadaWhat.view

    def leaky(self, state, viewer):
        v = real_view(self, state, viewer)
        if viewer in state["players"]:
            seat = state["players"].index(viewer)
            v["hint"] = state["racks"][seat][:1]  # a subtle leak: the lowest own stone
        return v

    monkeypatch.setattr(AbracadaWhat, "view", leaky)
    server = Server.start(tmp_path)
    try:
        links = server.new_game(["Elena", "Denise", "Marta"], seed=2)
        tokens = {p: url.rsplit("/", 1)[1] for p, url in links.items()}
        bot = Bot(server.host, links, seed=2)
        for _ in range(20):  # deal the round
            bot.step()
        with pytest.raises(AssertionError, match="leaks hidden information to Elena"):
            for attempt in range(20):  # a shuffle can by chance keep the lowest stone: retry
                check_step(server, tokens, random.Random(attempt))
    finally:
        server.stop()


def test_wrong_tokens_get_nothing(tmp_path):
    """A made-up player token or host token gets a refusal and no game data."""
    server = Server.start(tmp_path)
    try:
        server.new_game(["Elena", "Denise", "Marta"])
        for path in ("/p/not-a-token", "/p/not-a-token/api/state", "/p/not-a-token/stream"):
            status, value, _ = request(server.base + path)
            assert status == 403
            assert "Elena" not in json.dumps(value)
        for path in ("", "/api/state", "/api/setup", "/stream", "/sim/world", "/tags.json"):
            status, value, _ = request(f"{server.base}/host/wrong{path}")
            assert status == 403, path
            assert "Elena" not in json.dumps(value)
        status, _, _ = request(
            f"{server.base}/p/not-a-token/api/action", "POST", {"type": "cast", "spell": 1}
        )
        assert status == 403
    finally:
        server.stop()
