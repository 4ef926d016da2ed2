"""Secrets, proven, for every registered game (``docs/secrets.md``).

Random legal games of every game the rules registry knows are played through the server (the
players' phones, the table's sensors); at every step every GET endpoint of the app is fetched as
every role (each player, the table display, the host, a phone without a token or with a wrong
one), the server's state is swapped for one the role cannot tell apart (``indistinguishable``),
everything is fetched again, and any difference fails the test (``tests/secrets_harness.py``). A
game registered tomorrow is played here without a line of this file changing.

The control tests plant leaks (a view that shows one player something of their own, a view of
events that forgets the audience, an endpoint that serves the referee's view, a page that does not
check its token) and check that the harness fails on each, naming the role and the endpoint.
"""

from __future__ import annotations

import pytest
from flask import jsonify

from companion.rules import EVERYTHING, TABLE, games, get_game
from secrets_harness import (NOBODY, UNDECIDED, Harness, Leak, leak_at, player_counts, run,
                             secret_arguments)
from support import Server

SEATS = 5  # the simulated table's seats (devices.seats)

#: (players, seed, steps, check every n-th step): sized to keep this file near a minute on two
#: cores. Each run also hands a seat over half way.
RUNS = [("min", 1, 22, 1), ("min", 2, 22, 1), ("max", 3, 22, 2)]


def cases():
    for game in games():
        counts = player_counts(game, SEATS)
        for size, seed, steps, every in RUNS:
            players = counts[0] if size == "min" else counts[-1]
            yield pytest.param(game.id, players, seed, steps, every,
                               id=f"{game.id}-{players}p-seed{seed}")


@pytest.fixture
def server(tmp_path):
    s = Server.start(tmp_path, threads=24)
    s.companion.app.config["SSE_KEEPALIVE"] = 0.3
    yield s
    s.stop()


@pytest.mark.slow
@pytest.mark.parametrize("game_id, players, seed, steps, every", list(cases()))
def test_no_role_is_served_what_it_may_not_see(server, game_id, players, seed, steps, every):
    """Every page, API and stream, every role, every step (every other one at the largest table),
    one seat handed over half way: nothing changes when only what the role may not see does."""
    report = run(server, get_game(game_id), players, seed, steps, every)
    assert report.steps >= min(steps, 10), report  # the game was played, not stuck
    roles = players + 3
    assert report.checks >= roles * (report.steps // every), report
    # the swaps were not vacuous: most of them dealt hidden things anew
    assert report.changed >= report.checks // 2, report
    assert {"/p/<token>/api/state", "/api/table/stream", "/host/<token>/stream",
            "/join/<code>"} <= report.endpoints


def test_every_endpoint_is_fetched_by_every_role(server):
    """Every GET rule of the app but the static files and the simulated table is in each role's
    plan (a new endpoint joins without a change here); a page of another role gets refused."""
    harness = Harness(server, get_game("abracadawhat"), ["Xanthe", "Yorick"], seed=1)
    harness.start()
    harness.claim_seats()
    checked = {r.rule for r in harness.rules()}
    every = {r.rule for r in server.companion.app.url_map.iter_rules() if "GET" in r.methods}
    assert every - checked == {r for r in every if r.startswith(("/static/", "/host/<token>/sim"))}
    for role in harness.roles():
        planned = {f.name.split(" ")[0] for f in harness.plan(role)}
        if role == NOBODY:  # a wrong token or join code on every page that takes one
            assert planned == {r.rule for r in harness.rules() if secret_arguments(r)}
            assert {"/p/<token>", "/host/<token>", "/join/<code>"} <= planned
        elif role == TABLE:  # no token: every page without one
            assert planned == {r for r in checked if "<token>" not in r}
        else:
            assert planned == checked
    harness.check()


def test_a_view_that_shows_one_player_a_stone_of_their_own_rack_fails(server, monkeypatch):
    """The harness can fail: the second player's view carries the lowest stone of their own
    rack, a secret (ABR-HID-1) that no page may show them."""
    game = get_game("abracadawhat")
    real_view = type(game).view

    def leaky(self, state, viewer):
        v = real_view(self, state, viewer)
        if viewer == state["players"][1]:
            v["hint"] = state["racks"][1][:1]
        return v

    monkeypatch.setattr(type(game), "view", leaky)
    with pytest.raises(Leak, match=r"(?s)/p/<token>.* leaks to Yorick .*first difference"):
        run(server, game, 3, seed=4, steps=10)


@pytest.mark.parametrize("game_id", [g.id for g in games()])
def test_a_view_that_shows_one_player_everything_fails(server, monkeypatch, game_id):
    """For every registered game: a view that hands one player the referee's view is caught."""
    game = get_game(game_id)
    real_view = type(game).view

    def leaky(self, state, viewer):
        v = real_view(self, state, viewer)
        if viewer == state["players"][0]:
            v["hint"] = real_view(self, state, EVERYTHING)
        return v

    monkeypatch.setattr(type(game), "view", leaky)
    with pytest.raises(Leak, match="leaks to Xanthe"):
        run(server, game, game.min_players, seed=5, steps=30)


def test_events_shown_beyond_their_audience_fail(server, monkeypatch):
    """DT-CARD-6: a drawn scroll's event is private to its drawer; a view of events that forgets
    the audience is caught."""
    game = get_game("dorktower")
    monkeypatch.setattr(type(game), "view_event", lambda self, event, viewer: event)
    with pytest.raises(Leak, match="leaks to"):
        Harness(server, game, ["Xanthe", "Yorick"], seed=6,
                options={"start_roll": False}).play(steps=12)


def test_an_endpoint_serving_the_referees_view_fails(server):
    """A new endpoint is fetched without being named anywhere: one that serves the whole state
    is caught."""
    app = server.companion.app
    app.add_url_rule("/api/test/referee", "test_referee",
                     lambda: jsonify(server.table.referee_view()))
    with pytest.raises(Leak, match=r"/api/test/referee leaks to"):
        run(server, get_game("abracadawhat"), 2, seed=7, steps=10)


def test_a_page_that_does_not_check_its_token_fails(server):
    """A page under a player's token that answers any token is caught for the wrong token."""
    app = server.companion.app
    app.add_url_rule("/p/<token>/test/peek", "test_peek",
                     lambda token: jsonify({"ok": True}))
    with pytest.raises(AssertionError, match=r"reaches /p/<token>/test/peek, which is not its"):
        run(server, get_game("abracadawhat"), 2, seed=8, steps=3)


def test_a_clock_is_not_a_leak_but_a_secret_is():
    """What moves between readings of one state is not evidence; what the swapped state shows
    every time, and the real one never, is."""
    real = [b'{"uptime": 1.2, "rack": [1, 2]}', b'{"uptime": 1.3, "rack": [1, 2]}']
    assert leak_at(real, [b'{"uptime": 1.4, "rack": [1, 2]}']) is None
    at = leak_at(real, [b'{"uptime": 1.4, "rack": [5, 2]}', b'{"uptime": 1.5, "rack": [5, 2]}'])
    assert at == real[0].index(b"1,")
    # a time that jitters in the swapped readings only, differently each time: not a secret
    steady = [b'{"at": "19:36:07.497"}'] * 4
    assert leak_at(steady, [b'{"at": "19:36:07.498"}', b'{"at": "19:36:07.495"}']) is None
    # more in the swapped state, the same every time: a secret
    assert leak_at(steady, [b'{"at": "19:36:07.497", "x": 1}'] * 2) == len(b'{"at": "19:36:07.497"')
    assert leak_at([b"[1]", b"[1, 2]"], [b"[1]"]) == UNDECIDED


def test_an_endpoint_the_harness_cannot_fill_is_reported(server):
    """An endpoint with an argument the harness does not know is not skipped in silence."""
    server.companion.app.add_url_rule("/api/test/<thing>", "test_thing", lambda thing: "")
    with pytest.raises(AssertionError, match=r"does not know what to put for \['thing'\]"):
        run(server, get_game("abracadawhat"), 2, seed=9, steps=1)
