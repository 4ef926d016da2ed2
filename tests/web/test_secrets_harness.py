"""Secrets, proven, for every registered game (``docs/secrets.md``).

Random legal games of every game the rules registry knows are played through the server (the
players' phones; the table's devices: stickers tapped on the board's reader, dice rolled on the
dice reader, and the devices' other reports); at every step every GET endpoint of the app is
fetched as every role (each player, the table display, the host, a phone without a token or with a
wrong one), the server is swapped for one the role cannot tell apart (``indistinguishable``, the
stickers' UIDs renamed, the devices' diagnostics scrambled for all but the host), everything is
fetched again, and any difference fails the test (``tests/secrets_harness.py``,
``tests/secrets_swap.py``). A game registered tomorrow is played here without a line of this file
changing.

The control tests plant leaks (a view that shows one player something of their own, a view of
events that forgets the audience, an endpoint that serves the referee's view, a page that does not
check its token, a stream that serves the table another viewer's snapshot, a snapshot that shows
what a device sensed, a status page that names a sticker by its UID, the PIN in the table's API,
the sticker map exported during a game) and check that the harness fails on each, naming the role
and the endpoint.
"""

from __future__ import annotations

import json

import pytest
from flask import Response, jsonify
from secrets_arguments import DIE_PAGE, NO_DIE
from secrets_compare import UNDECIDED, leak_at
from secrets_harness import (
    COPIED,
    NOBODY,
    PLAYING_WORLD,
    Harness,
    Leak,
    player_counts,
    run,
)
from secrets_swap import Swap
from support import Server, post

from companion.devices.events import DeviceStatus
from companion.games import games, get_game
from companion.rules import EVERYTHING, HOST, TABLE
from companion.table.device_reports import DeviceReports
from companion.table.dice_store import Roll
from companion.web.access import Access

SEATS = 5  # the simulated table's seats (devices.seats)

#: (players, seed, steps, check every n-th step): the smallest table checked at every step, the
#: largest at every other one; sized to keep this file near a minute on two cores with three
#: games. Each run also hands a seat over half way.
RUNS = [("min", 1, 22, 1), ("max", 3, 22, 2)]


def cases():
    for game in games():
        counts = player_counts(game, SEATS)
        for size, seed, steps, every in RUNS:
            players = counts[0] if size == "min" else counts[-1]
            yield pytest.param(
                game.id, players, seed, steps, every, id=f"{game.id}-{players}p-seed{seed}"
            )


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
    # the sensors' actions came through the devices, which reported other things too
    assert report.taps + report.rolls > sum(report.direct.values()), report
    assert report.refused == 0, report  # a tap or a roll the rules accept is not refused
    assert len(report.chatter) >= 3, report
    assert {
        "/p/<token>/api/state",
        "/api/table/stream",
        "/p/<token>/stream",
        "/host/<token>/stream",
        "/host/<token>/status/stream",
        "/host/<token>/status/api",
        "/host/<token>/tags.json",
        "/host/<token>/dice",
        DIE_PAGE,
        "/table/<key>",
        "/join/<code>",
        PLAYING_WORLD,  # the simulated world of a host who plays each seat
    } <= report.endpoints
    assert report.streams >= report.checks, report  # every role reads a stream at every check
    if game_id == "abracadawhat":  # its undos say what to put back: checked while it shows
        assert report.put_back_checks >= roles, report


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
        plan = harness.plan(role)
        planned = {f.rule for f in plan}
        if role == TABLE:  # no token: every page without one, the display link its own
            assert planned == {r for r in checked if "<token>" not in r}
            assert [f.own for f in plan if f.rule == "/table/<key>"] == [True]
        elif role in harness.playing:  # and the simulated world of a host who plays the seat
            assert planned == checked | {PLAYING_WORLD}
            assert [f.own for f in plan if f.rule == PLAYING_WORLD] == [True]
        else:  # a phone without a token has no display cookie either: it fetches everything
            assert planned == checked
            assert {f.own for f in plan if f.rule == "/table/<key>"} == {False}
        if role == NOBODY:  # a made-up token, join code and display key, refused
            assert {
                f.own for f in plan if f.rule in ("/p/<token>", "/host/<token>", "/join/<code>")
            } == {False}
        if role == COPIED:  # every seat's link without its claim: refused
            seats = [f for f in plan if f.rule == "/p/<token>"]
            assert len(seats) == 2 and {f.own for f in seats} == {False}
        # the Plays pages: the table display's own (its cookie) and the host's, with the play at
        # the table and its steps filled in; every other role is refused them
        shown = [f for f in plan if f.rule.startswith("/table/plays")]
        assert len(shown) >= 5 and {f.own for f in shown} == {role == TABLE}
        steps = [f for f in plan if f.rule == "/host/<token>/plays/<int:play>/steps/<int:step>"]
        assert {f.own for f in steps} <= {role == HOST, False}
        assert all('"play": 1' in f.name for f in shown + steps if "<int:play>" in f.rule)
    harness.check()


def test_the_dice_pages_are_the_hosts_alone(server):
    """The dice's fairness pages name the reader and each die's index on it (device data): the
    host's own, refused to every other role, for every die kept (before any: a die no one has)."""
    harness = Harness(server, get_game("abracadawhat"), ["Xanthe", "Yorick"], seed=1)
    harness.start()
    harness.claim_seats()
    before = [f for f in harness.plan(HOST) if f.rule == DIE_PAGE]
    assert [(f.url.rsplit("/", 1)[1], f.own) for f in before] == [(str(NO_DIE), None)]
    server.table.store.keep_rolls(
        [Roll("dice", d, "d6", tuple("123456"), "4", "read") for d in (0, 1)], "t"
    )
    for role in harness.roles():
        pages = [f for f in harness.plan(role) if f.rule in (DIE_PAGE, "/host/<token>/dice")]
        if role == TABLE:  # the display has no token to put in a host's link
            assert pages == []
            continue
        assert len(pages) >= 3 and len(pages) % 3 == 0, (role, pages)  # the list, two dice
        assert {f.own for f in pages} == {role == HOST}, role
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


def test_a_blind_simulated_world_that_shows_a_stone_of_ones_own_rack_fails(server, monkeypatch):
    """The simulated world of a host who plays a seat is that player's: one that tells the host
    the lowest stone of their own rack (by number, no UID) is caught, for that player."""
    from companion.games.abracadawhat.sim import AbracadaHands

    real_world = AbracadaHands.world

    def leaky(self, viewer=None):
        found = real_world(self, viewer)
        if viewer is not None:
            rack = self._sensed()["places"].get(f"rack:{viewer}", [])
            found["hint"] = [s["stone"] for s in rack][:1]
        return found

    monkeypatch.setattr(AbracadaHands, "world", leaky)
    with pytest.raises(
        Leak, match=r"(?s)/host/<token>/sim/world \(a host who plays \w+\).* leaks to"
    ):
        run(server, get_game("abracadawhat"), 3, seed=4, steps=10)


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
        Harness(server, game, ["Xanthe", "Yorick"], seed=6, options={"start_roll": False}).play(
            steps=12
        )


def test_an_endpoint_serving_the_referees_view_fails(server):
    """A new endpoint is fetched without being named anywhere: one that serves the whole state
    is caught."""
    app = server.companion.app
    app.add_url_rule(
        "/api/test/referee", "test_referee", lambda: jsonify(server.table.referee_view())
    )
    with pytest.raises(Leak, match=r"/api/test/referee leaks to"):
        run(server, get_game("abracadawhat"), 2, seed=7, steps=10)


def test_a_page_that_does_not_check_its_token_fails(server):
    """A page under a player's token that answers any token is caught for the wrong token."""
    app = server.companion.app
    app.add_url_rule("/p/<token>/test/peek", "test_peek", lambda token: jsonify({"ok": True}))
    with pytest.raises(AssertionError, match=r"reaches /p/<token>/test/peek, which is not its"):
        run(server, get_game("abracadawhat"), 2, seed=8, steps=3)


def test_a_seat_that_does_not_check_the_phones_claim_fails(server, monkeypatch):
    """A seat's pages that answer the link without the claim of the phone that took the seat
    are caught for the phone with a copied link."""
    monkeypatch.setattr(Access, "claim_ok", lambda self, token, given: True)
    with pytest.raises(AssertionError, match=r"with a player's link but not the seat's claim"):
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


# -- the devices, the PIN and the sticker map ------------------------------------------------------


def dealt(server, players=("Xanthe", "Yorick", "Zephyrine")) -> Harness:
    """A game of Abracada...What? dealt sticker by sticker on the board's reader (its UIDs in the
    state), every device having reported something, the seats claimed: ready to be checked."""
    harness = Harness(
        server, get_game("abracadawhat"), list(players), seed=11, options={"removal": "tap"}
    )
    harness.start()
    harness.chatter(every_kind=True)
    harness.claim_seats()
    for _ in range(60):
        if harness.state()["phase"] != "deal" or not harness.step():
            break
    assert harness.state()["tags"] and harness.report.taps, harness.report
    return harness


def test_the_swap_renames_every_uid_and_scrambles_the_diagnostics_but_for_the_host(server):
    """While swapped, every enrolled UID has another name wherever the server holds it (the
    registry, the state, the journal, the devices' reports); the devices' diagnostics are
    scrambled for the table display, and left alone (but for the UIDs) for the host; what the
    table may see of the devices is the same. Everything is back afterwards."""
    harness = dealt(server)
    table = server.table
    registry, state = dict(table.tags._tags), table.history.state
    reports, public, journal = (
        table.reports.diagnostics(),
        table.reports.public(),
        [dict(j) for j in table.journal],
    )
    dealt_uids = set(state["tags"])
    assert any(j.get("action", {}).get("tag") in dealt_uids for j in journal)
    assert any(registry[uid].name in str(reports) or uid in str(reports) for uid in registry)
    for viewer in (TABLE, HOST):
        swap = Swap(harness, viewer)
        with swap:
            renamed = table.tags._tags
            assert not set(renamed) & set(registry)
            assert sorted(c.name for c in renamed.values()) == sorted(
                c.name for c in registry.values()
            )
            assert set(table.history.state["tags"]) <= set(renamed)
            assert not {j.get("action", {}).get("tag") for j in table.journal} & dealt_uids
            assert table.reports.public() == public
            shown = table.reports.diagnostics()
            if viewer == HOST:  # a noise line named a sticker: only that UID changed
                assert shown == swap.renaming.value(reports) != reports
            else:
                for device, entry in reports.items():
                    assert {k: v for k, v in shown[device].items() if k != "dice"} != {
                        k: v for k, v in entry.items() if k != "dice"
                    }
                    assert shown[device]["connected"] == entry["connected"]
        assert table.tags._tags == registry and table.history.state is state
        assert table.reports.diagnostics() == reports
        assert [dict(j) for j in table.journal][: len(journal)] == journal


def test_a_device_report_that_comes_in_during_a_swap_is_kept(server):
    """A device may report while the server is swapped: what it said reaches the real reports
    when the swap ends, and the comparison is made again (``disturbed``)."""
    harness = dealt(server)
    swap = Swap(harness, TABLE)
    with swap:
        server.table.emit(DeviceStatus("board", True, "PN532 firmware 1.7 on uart9"))
        harness.settle()
    assert swap.disturbed
    assert server.table.reports.diagnostics()["board"]["detail"] == "PN532 firmware 1.7 on uart9"


def test_a_snapshot_that_shows_what_a_device_sensed_fails(server, monkeypatch):
    """The attack the harness once missed: every snapshot carried the board reader's last read.
    The devices' public summary with ``last`` back in it is caught for a player, the table
    display and a phone without a token (not for the host, who may see diagnostics)."""
    real_public = DeviceReports.public

    def leaky(self):
        summary = real_public(self)
        with self._lock:
            for device, entry in self._entries.items():
                if "last" in entry:
                    summary[device]["last"] = entry["last"]
        return summary

    monkeypatch.setattr(DeviceReports, "public", leaky)
    harness = dealt(server)
    for role, name in (
        ("Yorick", "Yorick"),
        (TABLE, "the table display"),
        (NOBODY, "a phone without a token"),
    ):
        with pytest.raises(
            Leak,
            match=rf"(?s)(/api/table|/p/<token>)\S* leaks to {name}.*"
            r"first difference",
        ):
            harness.check_role(role)
    harness.check_role(HOST)


def test_a_status_page_that_names_a_sticker_by_its_uid_fails(server, monkeypatch):
    """The host's status page may show what the board's reader read, but never an enrolled
    sticker's UID: the host is usually a player too."""
    monkeypatch.setattr(
        DeviceReports,
        "tag_read",
        lambda self, reader, uid, enrolled: self.sensed(f"nfc:{reader}", f"tag {uid}"),
    )
    harness = dealt(server)
    with pytest.raises(
        Leak,
        match=r"(?s)/host/<token>/status\S* leaks to the host.*"
        r"first difference",
    ):
        harness.check_role(HOST)


def test_a_uid_in_any_form_of_case_is_found_in_any_response(server):
    """Besides the swap, every response is searched for the enrolled UIDs (upper or lower
    case): a UID read from somewhere the swap does not rename (the database) is caught too."""
    harness = dealt(server)
    uid = min(harness.state()["tags"])
    fetch = next(f for f in harness.plan(HOST) if f.rule == "/host/<token>/status/api")
    harness.check_uids(fetch, HOST, b'{"last": "nothing"}')
    with pytest.raises(Leak, match=r"/host/<token>/status/api shows the host the UID"):
        harness.check_uids(fetch, HOST, b'{"last": "tag ' + uid.lower().encode() + b'"}')


def test_the_pin_in_the_tables_api_fails(server, monkeypatch):
    """The made-up PIN is on the table display's own page only: ``/api/table`` is read by
    anyone on the table's network. An API that carries it fails, for every role."""
    from companion.web import public

    real_display = public._display
    monkeypatch.setattr(public, "_display", lambda: real_display() | {"pin": public.access().pin})
    harness = dealt(server)
    for role, name in (
        (TABLE, "the table display"),
        ("Xanthe", "Xanthe"),
        (NOBODY, "a phone without a token"),
    ):
        with pytest.raises(Leak, match=rf"/api/table\S* shows {name}.* the host's PIN"):
            harness.check_role(role)


def test_the_pin_is_on_the_display_page_alone(server):
    """The check is not vacuous: the display's own ``/table`` (with its cookie) shows the PIN,
    the same page without the cookie does not."""
    harness = dealt(server)
    pin = harness.access.pin.encode()
    for role, shown in ((TABLE, True), (NOBODY, False), ("Xanthe", False)):
        page = next(f for f in harness.plan(role) if f.rule == "/table")
        assert (pin in harness.fetch(page, role)[1]) is shown, role


def test_the_sticker_map_exported_during_a_game_fails(server):
    """While a game is played the sticker map (UID -> stone) names every hidden stone to whoever
    taps one: its export is refused (409). One that answers is caught for the host."""
    server.companion.app.view_functions["host.export_tags"] = lambda token: Response(
        json.dumps(server.table.tags.export()), mimetype="application/json"
    )
    harness = dealt(server)
    with pytest.raises(
        Leak,
        match=r"(?s)/host/<token>/tags\.json leaks to the host.*"
        r"first difference",
    ):
        harness.check_role(HOST)


def test_a_stream_that_serves_the_table_a_players_view_fails(server):
    """Streams are compared like everything else (their encoded snapshots are cached per table
    version, which a swap does not move: the swap empties that cache). A table stream serving the
    first player's snapshot shows the other racks, and is caught."""
    from companion.web.common import sse

    server.companion.app.view_functions["public.stream"] = lambda: sse(
        lambda table: table.history.state["players"][0]
    )
    harness = dealt(server)
    with pytest.raises(Leak, match=r"/api/table/stream leaks to the table display"):
        harness.check_role(TABLE)


def test_the_sticker_map_is_the_hosts_again_once_the_game_ends(server):
    """With no game being played the export answers, with every UID (on purpose); it is read
    back with the real names under the swap, and is the host's alone."""
    harness = dealt(server)
    assert harness.server.table.call("end_game", "host")["ok"]
    export = next(f for f in harness.plan(HOST) if f.rule == "/host/<token>/tags.json")
    status, text = harness.fetch(export, HOST)
    assert status == 200 and export.uids_allowed
    assert min(harness.server.table.tags._tags).encode() in text
    for role in (HOST, TABLE, NOBODY):
        harness.check_role(role)


def test_a_seat_token_in_the_tables_api_fails(server, monkeypatch):
    """The keys to the roles do not change under a swap either, so they are looked for: a seat's
    token in ``/api/table`` (anyone may read it) is caught for every role but that seat's."""
    from companion.web import public

    real_display = public._display
    monkeypatch.setattr(
        public,
        "_display",
        lambda: real_display() | {"first": next(iter(public.table().record.tokens.values()))},
    )
    harness = dealt(server)
    for role, name in ((TABLE, "the table display"), ("Yorick", "Yorick"), (HOST, "the host")):
        with pytest.raises(Leak, match=rf"/api/table\S* shows {name}.* Xanthe's seat token"):
            harness.check_role(role)


# -- leaks the harness found in the product (fixed): they stay checked -------------------------


def test_a_tag_import_during_a_game_names_no_sticker(server):
    """The host (usually a player) reads a face-down stone's UID with a phone and imports it as
    some stone: during a game the import is refused without a word about the sticker (it would
    say which stone it is), and the status page does not show the UID."""
    harness = dealt(server)
    uid = min(harness.state()["tags"])
    status, answer = post(
        f"{server.host}/api/tags",
        {
            "data": {
                "format": "companion-tags/1",
                "tags": [{"uid": uid, "game": "abracadawhat", "component": "stone 9"}],
            }
        },
    )
    assert status == 409 and answer["rule"] == "TABLE-TAG-6"
    assert uid not in str(answer) and "stone" not in answer["reason"]
    status, answer = post(f"{server.host}/api/tags/forget", {"uid": uid})
    assert status == 409 and answer["rule"] == "TABLE-TAG-6"
    harness.check_role(HOST)


def test_a_sticker_enrolled_by_a_tap_is_not_shown_by_its_uid(server):
    """Enrolling shows the host the unknown sticker's UID (to help); once enrolled, a game
    begins, and the status page still shows it, until the next tap."""
    table = server.table
    uid = min(u for u, component in table.tags._tags.items() if component.name == "stone 5")
    assert post(f"{server.host}/api/tags/forget", {"uid": uid})[0] == 200
    assert (
        post(f"{server.host}/api/enrol", {"game": "abracadawhat", "component": "stone 5"})[0] == 200
    )
    assert post(f"{server.host}/sim/tap", {"uid": uid})[1]["ok"]
    harness = Harness(server, get_game("abracadawhat"), ["Xanthe", "Yorick"], seed=12)
    harness.start()
    harness.claim_seats()
    harness.check_role(HOST)
