"""The host's device status page over a real simulated table: every device and what it did last,
the LED test pattern, the addresses and version; only behind the host's link."""

from __future__ import annotations

import json
import re
import time

import pytest
from support import SSE, get, post, request, wait_until

from companion import __version__
from companion.web.status import _addresses


def status(server) -> dict:
    return get(f"{server.host}/status/api")


def device(snap: dict, kind: str, name: str | None = None) -> dict:
    found = [d for d in snap["devices"] if d["kind"] == kind and name in (None, d["name"])]
    assert len(found) == 1, (kind, name, snap["devices"])
    return found[0]


def connected_dice(server) -> dict:
    """The status once the simulated dice reader has said hello on its pty."""
    return wait_until(lambda: (s := status(server)) and device(s, "dice")["connected"] and s)


# -- what the API lists ---------------------------------------------------------------------------


def test_the_api_lists_every_device_of_a_simulated_table(server):
    snap = connected_dice(server)
    nfc = device(snap, "nfc", "board")
    assert nfc["state"] == "no report yet" and nfc["connected"] is None  # nothing tapped yet
    assert nfc["driver"] == "SimNfcReader" and nfc["last"] is None and nfc["errors"] == 0

    dice = device(snap, "dice")
    assert dice["state"] == "connected" and dice["connected"] is True
    assert dice["port"] == server.companion.devices.sim_dice.port  # on its pty's stable path
    assert dice["detail"] and dice["last_error"] is None

    buttons = device(snap, "buttons")
    assert buttons["count"] == server.companion.config.seats == 5
    assert buttons["connected"] is None and buttons["state"] == "no report"  # never invented
    assert buttons["pin_factory"] == "mock (simulated)"

    strips = {d["name"]: d for d in snap["devices"] if d["kind"] == "leds"}
    assert (
        {n: d["pixels"] for n, d in strips.items()}
        == server.table.layout.strips()
        == {"table": 35, "score": 8, "tower": 16}
    )
    for d in strips.values():
        assert d["driver"] == "simulated" and d["driver_class"] == "SimStrip"
        assert d["chain"] is None and d["state"] == "no report"

    assert snap["version"] == __version__
    assert snap["mode"] == "simulated" and snap["seats"] == 5
    assert snap["uptime"] >= 0
    urls = server.companion.urls()
    assert snap["addresses"]["home"] == urls["home"] == f"{server.base}/"
    assert snap["addresses"]["table"] == urls["table"]
    assert server.companion.host_token not in json.dumps(snap["addresses"])  # not the console's
    assert snap["led_test"]["running"] is False


def test_a_tapped_tag_is_the_nfc_readers_last_event(server):
    status_code, answer = post(f"{server.host}/sim/tap_unknown")
    assert status_code == 200 and not answer["ok"]  # an unknown sticker: refused, but read
    nfc = device(status(server), "nfc", "board")
    # an unknown sticker's UID names nothing, and helps to enrol it
    assert re.fullmatch(r"an unknown sticker was read: 04[0-9A-F]{12}", nfc["last"]), nfc
    assert nfc["last_at"] and nfc["state"] == "connected"
    assert nfc["errors"] == 0 and nfc["last_error"] is None  # the sticker's fault, not the reader's


def test_an_enrolled_stickers_uid_is_never_on_the_status_page(server):
    """With the sticker map, a UID names a hidden stone: even the host's page never shows the
    UID of an enrolled sticker that was read."""
    server.new_game(["Elena", "Denise"], seed=3)
    assert post(f"{server.host}/sim/draw")[0] == 200
    tapped = server.table.store.entries(server.table.record.id)[-1].action["tag"]
    page = json.dumps(status(server))
    nfc = device(status(server), "nfc", "board")
    assert nfc["last"] == "an enrolled sticker was read"
    assert tapped not in page


def test_a_pressed_button_is_the_buttons_last_event(server):
    post(f"{server.host}/sim/press", {"seat": 1})
    buttons = wait_until(lambda: (b := device(status(server), "buttons"))["last"] and b)
    assert buttons["last"] == "seat 1: a press" and buttons["state"] == "no report"


def test_an_unplugged_dice_reader_is_not_connected(server):
    connected_dice(server)
    server.companion.devices.sim_dice.unplug()
    dice = wait_until(lambda: (d := device(status(server), "dice"))["connected"] is False and d)
    assert dice["state"] == "not connected"
    assert dice["last_error"] and dice["last_error"]["text"] == dice["detail"]
    server.companion.devices.sim_dice.plug()
    dice = wait_until(lambda: (d := device(status(server), "dice"))["connected"] and d, 15)
    assert dice["state"] == "connected" and dice["last_error"] is None


def test_the_addresses_come_from_the_request_when_the_lan_address_is_unknown(server):
    loopback = {"home": "http://127.0.0.1:8000/", "table": "http://127.0.0.1:8000/table"}
    ext = {"urls": lambda: loopback}
    assert _addresses(ext, "http://192.168.4.1:8000/") == {
        "home": "http://192.168.4.1:8000/",
        "table": "http://192.168.4.1:8000/table",
        "source": "request",
        "lan_address": "192.168.4.1",
    }
    lan = {"home": "http://192.168.4.1:8000/", "table": "http://192.168.4.1:8000/table"}
    assert _addresses({"urls": lambda: lan}, "http://companion.local:8000/")["home"] == lan["home"]
    server.companion.app.extensions["companion"]["urls"] = None  # an app with no companion
    assert status(server)["addresses"]["home"] == f"{server.base}/"


# -- the LED test pattern -------------------------------------------------------------------------


def test_the_led_test_shows_red_green_blue_white_then_the_normal_frames(server):
    strip = server.companion.devices.strips["table"]
    before = strip.latest()
    normal = before.pixels
    assert set(normal) == {(0, 0, 0)}  # no game: the strips are dark
    status_code, answer = post(f"{server.host}/status/api/led_test")
    assert status_code == 200 and answer["ok"] and answer["seconds"] == 2.0
    leds = get(f"{server.host}/sim/leds")  # at once: the pattern's first colour, at 0.5 brightness
    assert set(leds["table"]) == set(leds["tower"]) == {"#800000"}
    assert status(server)["led_test"]["running"] is True
    wait_until(
        lambda: strip.latest().pixels == normal and strip.latest().at > before.at + 2.0, timeout=5
    )
    time.sleep(0.2)
    shown = [f.pixels for f in strip.frames if f.seq > before.seq]
    colours = []
    for pixels in shown:
        assert len(set(pixels)) == 1, "every pixel of the strip shows the same colour"
        if not colours or colours[-1] != pixels[0]:
            colours.append(pixels[0])
    level = round(255 * server.table.brightness)
    assert colours == [
        (level, 0, 0),
        (0, level, 0),
        (0, 0, level),
        (level, level, level),
        (0, 0, 0),
    ]
    assert status(server)["led_test"]["running"] is False
    events = get(f"{server.host}/api/state")["events"]
    assert any(e.get("type") == "led_test" for e in events)


def test_the_led_test_during_a_game_returns_to_the_games_frames(server):
    server.new_game(["Elena", "Denise", "Marta"], seed=7)
    post(f"{server.host}/sim/draw_all")
    game_frame = server.table.frames()
    assert post(f"{server.host}/status/api/led_test")[0] == 200
    level = round(255 * server.table.brightness)
    assert set(server.table.frames()["score"]) == {(level, 0, 0)}
    wait_until(lambda: not status(server)["led_test"]["running"], timeout=5)
    assert server.table.frames()["table"] == game_frame["table"]
    time.sleep(0.2)
    assert list(server.companion.devices.strips["table"].latest().pixels) == game_frame["table"]


def test_a_led_test_without_the_csrf_token_is_refused_and_runs_nothing(server):
    strip = server.companion.devices.strips["table"]
    count = strip.count
    status_code, answer = request(f"{server.host}/status/api/led_test", "POST", {})[:2]
    assert status_code == 403 and answer["rule"] == "TABLE-REQUEST-3"
    status_code, answer = post(f"{server.host}/status/api/led_test", csrf="wrong")
    assert status_code == 403
    time.sleep(0.6)
    assert server.table.led_test_until < 0
    assert {f.pixels[0] for f in strip.frames if f.seq >= count} <= {(0, 0, 0)}
    assert status(server)["led_test"]["running"] is False
    events = get(f"{server.host}/api/state")["events"]
    assert not any(e.get("type") == "led_test" for e in events)


# -- the page, the stream, the QR code ------------------------------------------------------------


def test_the_status_page_and_its_link_from_the_host_page(server):
    page = get(f"{server.host}/status")
    assert 'id="devices"' in page and 'aria-live="polite"' in page
    assert "/static/js/status.js" in page and "<script>" not in page  # no inline script
    assert "Test the LEDs" in page and __version__ in page
    assert f"{server.base}/" in page  # the home page's address
    assert f'href="/host/{server.companion.host_token}/status"' in get(server.host)
    status_code, svg, headers = request(f"{server.host}/status/qr.svg")
    assert status_code == 200 and headers["Content-Type"].startswith("image/svg+xml")
    assert "<svg" in svg


def test_the_stream_sends_the_status_on_connect_and_after_a_change(server):
    connected_dice(server)
    stream = SSE(f"{server.host}/status/stream")
    try:
        assert stream.status == 200
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        first = stream.snapshot()
        assert device(first, "nfc", "board")["last"] is None
        post(f"{server.host}/sim/tap_unknown")
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            snap = stream.snapshot()
            if device(snap, "nfc", "board")["last"]:
                break
        assert device(snap, "nfc", "board")["last"].startswith("an unknown sticker was read")
        assert snap["version"] == __version__
    finally:
        stream.close()


# -- who may see it -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["", "/api", "/stream", "/qr.svg"])
def test_a_wrong_host_token_gets_403_and_no_device_data(server, path):
    status_code, body, _ = request(f"{server.base}/host/not-a-host-token/status{path}")
    assert status_code == 403
    text = json.dumps(body) if not isinstance(body, str) else body
    assert "devices" not in text and "SimNfcReader" not in text and "dice" not in text


def test_a_led_test_with_a_wrong_host_token_is_refused(server):
    status_code, _ = post(f"{server.base}/host/not-a-host-token/status/api/led_test", csrf="x")
    assert status_code == 403
    assert server.table.led_test_until < 0


def test_the_player_pages_and_the_table_display_do_not_expose_the_status(server):
    links = server.new_game(["Elena", "Denise", "Marta"], seed=7)
    elena = links["Elena"]
    player_token = elena.rsplit("/", 1)[1]
    for url in (
        f"{elena}/status",
        f"{elena}/status/api",
        f"{elena}/api/status",
        f"{server.base}/table/status",
        f"{server.base}/table/status/api",
        f"{server.base}/api/table/status",
        f"{server.base}/status/api",
    ):
        assert request(url)[0] == 404, url
    status_code, body, _ = request(f"{server.base}/host/{player_token}/status/api")
    assert status_code == 403 and "devices" not in body
    for url in (elena, f"{server.base}/table"):
        assert "/status" not in get(url)
