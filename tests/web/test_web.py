"""The web layer over a real server: pages, phone actions, refusals, streams, the host's tools."""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from support import SSE, Bot, Server, csrf_for, get, post, request, wait_until

from companion.rules import HOST, TABLE

ROOT = Path(__file__).resolve().parents[2]


def referee(server):
    return server.table.referee_view()


def refusals_in_db(server):
    db = sqlite3.connect(server.companion.config.database)
    try:
        return db.execute("SELECT rule, source FROM refusals ORDER BY id").fetchall()
    finally:
        db.close()


# -- pages and assets ---------------------------------------------------------------------------


def test_pages_use_only_local_assets(server, game):
    """No CDN: every script, style and image a page refers to is served by the companion."""
    pages = [f"{server.base}/table", game["Elena"], server.host]
    for page in pages:
        html = get(page)
        refs = re.findall(r'(?:src|href)="([^"]+)"', html)
        assert refs, page
        for ref in refs:
            assert not re.match(r"^(https?:)?//", ref) or ref.startswith(server.base), (page, ref)
            if ref.startswith("/static/"):
                status, _, _ = request(server.base + ref)
                assert status == 200, ref
    for path in (ROOT / "web").rglob("*"):
        if path.suffix in (".js", ".css", ".html"):
            text = path.read_text().replace('"http://www.w3.org/2000/svg"', "SVG_NS")  # a name
            assert not re.search(r"""["'(]\s*(https?:)?//[a-z]""", text), path


def test_security_headers(server):
    status, _, headers = request(f"{server.base}/table")
    assert status == 200
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"


# -- phone actions ------------------------------------------------------------------------------


def test_a_phone_cast_changes_the_game_for_everyone(server, game):
    before = referee(server)
    assert before["active"] == "Elena"
    status, answer = post(f"{game['Elena']}/api/action", {"type": "cast", "spell": 8})
    assert status == 200 and answer["ok"]
    after = get(f"{server.base}/api/table")
    assert any(e["type"] == "declared" and e["spell"] == 8 for e in after["events"])


def test_a_phone_cannot_act_for_another_player(server, game):
    """The server decides who acts: a "player" field in the body is ignored (ABR-TURN-1)."""
    before = referee(server)
    status, answer = post(
        f"{game['Denise']}/api/action", {"type": "cast", "spell": 8, "player": "Elena"}
    )
    assert status == 409 and answer["rule"] == "ABR-TURN-1"
    assert referee(server) == before
    assert ("ABR-TURN-1", "phone:Denise") in refusals_in_db(server)


def test_sensor_actions_cannot_come_from_a_phone(server, game):
    """A player cannot claim a stone by phone: deals, draws, removals and rolls come from sensors;
    nor can a phone undo (the host and the seat buttons can)."""
    before = referee(server)
    for action in (
        {"type": "refill", "stones": [1]},
        {"type": "roll", "value": 6},
        {"type": "deal_stone", "stone": 1},
        {"type": "remove", "stone": 3},
    ):
        status, answer = post(f"{game['Elena']}/api/action", action)
        assert status == 403 and answer["rule"] == "TABLE-REQUEST-2", action
    for action in ({"type": "undo"}, {"type": "shout"}):
        status, answer = post(f"{game['Elena']}/api/action", action)
        assert status == 403 and answer["rule"] == "TABLE-REQUEST-2", action
        assert "cannot send" in answer["reason"]
    assert referee(server) == before
    assert [r for r in refusals_in_db(server) if r[0] == "TABLE-REQUEST-2"]


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b'{"spell": 3}', b'{"type": 7}'])
def test_malformed_requests_change_nothing_and_are_logged(server, game, body):
    before = referee(server)
    status, answer, _ = request(
        f"{game['Elena']}/api/action",
        "POST",
        raw=body,
        headers={"X-CSRF-Token": csrf_for(game["Elena"])},
    )
    assert status == 400, answer
    assert answer["ok"] is False and answer["rule"] in ("INPUT-1", "TABLE-REQUEST-1")
    assert referee(server) == before
    snapshot = get(f"{server.base}/api/table")
    assert snapshot["refusals"][-1]["rule"] == answer["rule"]
    assert refusals_in_db(server)[-1][0] == answer["rule"]


def test_a_refusal_is_signalled_on_the_leds(server, game):
    """A refused action blinks the seat's whole segment white (a distinct signal)."""
    strip = server.companion.devices.strips["table"]
    post(f"{game['Marta']}/api/action", {"type": "end_turn"})
    seat = 2  # Marta
    segment = slice(seat * 7, seat * 7 + 7)

    def white_segment():
        return any(
            all(p == (255, 255, 255) or p == (128, 128, 128) for p in f.pixels[segment])
            for f in strip.frames
        )

    # brightness 0.5 scales white to 128
    wait_until(white_segment, timeout=3)


# -- streams ------------------------------------------------------------------------------------


def test_a_stream_sends_a_snapshot_on_connect_then_every_change_and_keepalives(server, game):
    stream = SSE(f"{server.base}/api/table/stream")
    try:
        assert stream.status == 200
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        first = stream.snapshot()
        assert first["viewer"] == TABLE and first["view"]["active"] == "Elena"
        post(f"{game['Elena']}/api/action", {"type": "cast", "spell": 8})
        second = stream.snapshot()
        assert second["version"] > first["version"]
        kinds = set()
        deadline = time.monotonic() + 3
        while "comment" not in kinds and time.monotonic() < deadline:
            kinds.add(stream.next()[0])
        assert "comment" in kinds  # keep-alive
    finally:
        stream.close()


def test_streams_say_goodbye_when_the_companion_stops(tmp_path):
    server = Server.start(tmp_path)
    stream = SSE(f"{server.base}/api/table/stream")
    stream.snapshot()
    stopper = threading.Thread(target=server.stop)
    stopper.start()
    events = []
    try:
        while True:
            events.append(stream.next()[0])
    except (EOFError, OSError):
        pass
    stopper.join(10)
    assert not stopper.is_alive()
    assert "bye" in events


def test_an_old_join_link_is_told_it_is_gone(server, game):
    stream = SSE(f"{game['Elena']}/stream")
    try:
        stream.snapshot()
        server.new_game(["Ann", "Bo"], seed=2)
        with pytest.raises(EOFError, match="gone"):
            stream.snapshot()
    finally:
        stream.close()


def test_eight_phones_and_the_table_display_all_get_every_change(server, game):
    """Five players, three more phones on the table display, and the host: all live at once,
    while ordinary requests are still answered."""
    urls = (
        [f"{game[p]}/stream" for p in game]
        + [f"{server.base}/api/table/stream"] * 4
        + [f"{server.host}/stream"]
    )
    streams = [SSE(u) for u in urls]
    try:
        firsts = [s.snapshot() for s in streams]
        assert get(f"{server.base}/healthz")["ok"]
        post(f"{game['Elena']}/api/action", {"type": "cast", "spell": 8})
        for stream, first in zip(streams, firsts):
            assert stream.snapshot()["version"] > first["version"]
    finally:
        for s in streams:
            s.close()


def test_hung_up_streams_free_their_threads(server, game):
    """Phones that sleep and reconnect many times do not exhaust the server's threads."""
    for _ in range(40):
        stream = SSE(f"{server.base}/api/table/stream")
        stream.snapshot()
        stream.close()
    stream = SSE(f"{server.base}/api/table/stream", timeout=5)
    try:
        assert stream.snapshot()["viewer"] == TABLE
    finally:
        stream.close()


# -- the host's tools ---------------------------------------------------------------------------


def test_host_undo_is_a_new_entry(server, game):
    before = referee(server)
    post(f"{game['Elena']}/api/action", {"type": "cast", "spell": 8})
    assert referee(server) != before
    status, answer = post(f"{server.host}/api/undo")
    assert status == 200 and answer["ok"]
    assert referee(server) == before
    db = sqlite3.connect(server.companion.config.database)
    actions = [json.loads(a)["type"] for (a,) in db.execute("SELECT action FROM entries")]
    db.close()
    assert actions[-2:] == ["cast", "undo"]  # nothing deleted


def test_a_long_press_undoes(server, game):
    post(f"{game['Elena']}/api/action", {"type": "cast", "spell": 8})
    cast = referee(server)
    status, answer = post(f"{server.host}/sim/press", {"seat": 1, "long": True})
    assert answer["outcomes"][-1]["action"] == {"type": "undo"}
    assert referee(server) != cast


def test_a_seat_button_ends_the_turn(server, game):
    world = get(f"{server.host}/sim/world")
    held = sorted(s["stone"] for s in world["places"]["rack:Elena"])
    post(f"{game['Elena']}/api/action", {"type": "cast", "spell": held[-1]})
    post(f"{server.host}/sim/remove")
    while referee(server)["phase"] in ("roll", "secret"):
        view = referee(server)
        if view["phase"] == "roll":
            post(f"{server.host}/sim/roll", {"face": 2})
        else:
            post(f"{game['Elena']}/api/action", {"type": "decline_secret"})
    if referee(server)["phase"] != "declare" or referee(server)["active"] != "Elena":
        pytest.skip("the seeded deal ended the round at once")
    status, answer = post(f"{server.host}/sim/press", {"seat": 0})
    assert answer["outcomes"][-1]["action"] == {"type": "end_turn", "player": "Elena"}


def test_tags_export_forget_enrol_and_import(server, game):
    # not while a game is played: the map would name the stones from their stickers' UIDs
    status, answer, _ = request(f"{server.host}/tags.json")
    assert status == 409 and answer["rule"] == "TABLE-TAG-6" and "uid" not in json.dumps(answer)
    assert post(f"{server.host}/api/end_game")[0] == 200
    exported = get(f"{server.host}/tags.json")
    exported = json.loads(exported) if isinstance(exported, str) else exported
    # the simulated table enrols its 36 stones (and its Dork Tower box) at first start
    assert len([t for t in exported["tags"] if t["game"] == "abracadawhat"]) == 36
    first = next(t for t in exported["tags"] if t["game"] == "abracadawhat")
    uid, component = first["uid"], first["component"]
    status, answer = post(f"{server.host}/api/tags/forget", {"uid": uid})
    assert status == 200
    # enrol the sticker again by tapping it
    status, answer = post(
        f"{server.host}/api/enrol", {"game": "abracadawhat", "component": component}
    )
    assert status == 200
    assert get(f"{server.host}/api/state")["enrolling"]["component"] == component
    status, answer = post(f"{server.host}/sim/tap", {"uid": uid})
    assert answer["outcomes"][0] == {
        "n": answer["outcomes"][0]["n"],
        "source": "TagTapped",
        "ok": True,
        "enrolled": component,
    }
    # arming an enrolment for a component whose stickers are all enrolled is refused at once
    status, answer = post(
        f"{server.host}/api/enrol", {"game": "abracadawhat", "component": "stone 8"}
    )
    assert status == 409 and "all are enrolled" in answer["reason"]
    # a sticker that is already enrolled is refused when tapped
    eight = next(t["uid"] for t in exported["tags"] if t["component"] == "stone 8")
    post(f"{server.host}/api/tags/forget", {"uid": eight})
    post(f"{server.host}/api/enrol", {"game": "abracadawhat", "component": "stone 8"})
    status, answer = post(f"{server.host}/sim/tap", {"uid": uid})
    assert answer["rule"] == "TABLE-TAG-4" and "already enrolled" in answer["reason"]
    # importing the export again is harmless
    status, answer = post(f"{server.host}/api/tags", {"data": exported})
    assert status == 200 and answer["count"] == len(exported["tags"])
    status, answer = post(f"{server.host}/api/tags", {"data": {"format": "nope"}})
    assert status == 409 and answer["rule"] == "TABLE-TAG-4"


def test_new_game_refusals(server):
    for body, needle in (
        ({"game": "chess", "players": ["A", "B"]}, "no game called"),
        ({"game": "abracadawhat", "players": ["A"]}, "2 to 5 players"),
        ({"game": "abracadawhat", "players": ["A", "A"]}, "same name"),
        ({"game": "abracadawhat", "players": ["A", "B"], "options": {"nope": 1}}, "no option"),
    ):
        status, answer = post(f"{server.host}/api/new_game", body)
        assert status == 409 and answer["rule"] == "TABLE-GAME-2", body
        assert needle in answer["reason"]
    status, answer = post(f"{server.host}/api/new_game", {"players": "x"})
    assert status == 400


def test_the_host_sees_no_more_than_the_table(server, game):
    """The host is usually a player: the host's view hides every rack and secret stone."""
    host = get(f"{server.host}/api/state")
    assert host["viewer"] == HOST
    for p in host["view"]["players"].values():
        assert p["rack"] is None and p["secret"] is None


def test_a_whole_game_through_the_web(server, game):
    """The bot plays a game to its end through phones and the simulated table."""
    bot = Bot(server.host, game, seed=5, base=server.base)
    for _ in range(3000):
        if bot.step() is None:
            break
    final = get(f"{server.base}/api/table")["view"]
    assert final["finished"] and final["winners"]
    assert max(p["score"] for p in final["players"].values()) >= 8
