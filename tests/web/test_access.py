"""Roles through the web: the host's PIN (and its rate limit), the seats' one-time join codes,
hand-over, pause and end, and the CSRF check on every POST. A refused request changes nothing."""

from __future__ import annotations

import html
import json
import re

from support import (
    SSE,
    Server,
    claim,
    claim_answer,
    csrf_for,
    get,
    join_all,
    meta_csrf,
    post,
    request,
)

from companion.web.access import FIRST_WAIT, FREE_TRIES, TABLE_TRIES, PinGuard

PLAYERS = ["Elena", "Denise", "Marta", "Ivo"]


def referee(server) -> tuple:
    """Everything a request could change: the game, the seats, the PIN, the host sessions."""
    t = server.table
    record = t.record
    return (
        json.dumps(t.referee_view(), sort_keys=True),
        record and record.tokens,
        record and record.joins,
        t.paused,
        server.companion.access.pin,
        server.companion.store.count_sessions("host"),
    )


def sign_in_page(server) -> tuple[str, str]:
    """The PIN form's CSRF token and the visitor cookie it is tied to."""
    status, page, headers = request(f"{server.base}/host")
    assert status == 200
    cookie = headers["Set-Cookie"].split(";")[0]
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    return token, cookie


def try_pin(server, pin, *, csrf=None, cookie=None) -> tuple[int, dict, dict]:
    if csrf is None:
        csrf, cookie = sign_in_page(server)
    headers = {"X-CSRF-Token": csrf}
    if cookie:
        headers["Cookie"] = cookie
    return request(f"{server.base}/host", "POST", {"pin": pin}, headers=headers)


# -- the host's PIN --------------------------------------------------------------------------------


def display_page(server, cookie: str | None = None) -> str:
    """The /table page as a screen with (or without) the display's cookie gets it."""
    status, page, _ = request(
        f"{server.base}/table", headers={"Cookie": cookie} if cookie else None
    )
    assert status == 200
    return page


def display_cookie(server) -> str:
    """Open the display link, as the console prints it: the screen gets the display's cookie."""
    key = server.companion.access.display_key
    status, _, headers = request(f"{server.base}/table/{key}")
    assert status == 302 and headers["Location"].endswith("/table")
    assert "HttpOnly" in headers["Set-Cookie"]
    return headers["Set-Cookie"].split(";")[0]


def test_the_made_up_pin_is_shown_only_on_the_table_displays_own_page(server):
    """The PIN is in the page of the screen that opened the display link, until a phone signs
    in; never in /api/table, its stream, or the /table page anyone else opens."""
    pin = server.companion.access.pin
    assert len(pin) == 6 and pin.isdigit()
    cookie = display_cookie(server)
    assert f'id="pin">{pin}<' in display_page(server, cookie)
    assert pin not in display_page(server)  # anyone else's /table
    assert pin not in display_page(server, "companion_display=made-up")
    state = get(f"{server.base}/api/table")
    assert "pin" not in state and state["pin_offered"] is True
    assert pin not in json.dumps(state)
    stream = SSE(f"{server.base}/api/table/stream")
    try:
        snapshot = stream.snapshot()
        assert snapshot["pin_offered"] is True and pin not in json.dumps(snapshot)
    finally:
        stream.close()
    assert request(f"{server.base}/table/not-the-key")[0] == 404
    status, answer, headers = try_pin(server, pin)
    assert status == 200 and answer["ok"] and answer["url"].startswith("/host/")
    assert "companion_host=" in headers["Set-Cookie"] and "HttpOnly" in headers["Set-Cookie"]
    host = server.base + answer["url"]
    assert get(f"{host}/api/state")["viewer"] == "@host"
    assert get(f"{server.base}/api/table")["pin_offered"] is False
    assert pin not in display_page(server, cookie)  # no longer shown, even on the display
    # the host's own page shows the PIN and the display link, so another phone can be let in
    setup = get(f"{host}/api/setup")
    assert setup["pin"] == pin and setup["display"].endswith(server.companion.access.display_key)
    # the home page sends the signed-in phone to its host page
    status, _, headers = request(
        f"{server.base}/", headers={"Cookie": f"companion_host={answer['url'].split('/')[-1]}"}
    )
    assert status == 302 and headers["Location"].endswith(answer["url"])


def test_a_configured_pin_is_never_shown(tmp_path):
    server = Server.start(tmp_path, host_pin="2468")
    try:
        assert get(f"{server.base}/api/table")["pin_offered"] is False
        assert "2468" not in display_page(server, display_cookie(server))
        assert "Ask the host for the PIN" in html.unescape(request(f"{server.base}/host")[1])
        assert try_pin(server, "1357")[0] == 401
        assert try_pin(server, "2468")[0] == 200
    finally:
        server.stop()


def test_a_wrong_pin_is_refused_logged_quietly_and_changes_nothing(server):
    """A wrong PIN is answered and written (never the PIN tried), but the table's pages do not
    hear of it: anyone on the network can send one, and they must not wake every phone."""
    wrong = "000000" if server.companion.access.pin != "000000" else "111111"
    before, version = referee(server), server.table.version
    status, answer, _ = try_pin(server, wrong)
    assert status == 401 and answer["rule"] == "TABLE-HOST-1"
    assert referee(server) == before
    assert server.table.version == version  # no page was woken
    public = get(f"{server.base}/api/table")
    assert wrong not in json.dumps(public)
    assert "TABLE-HOST-1" not in [r["rule"] for r in public["refusals"]]
    logged = server.companion.store.refusals()
    assert logged[-1]["rule"] == "TABLE-HOST-1" and wrong not in json.dumps(logged)


def test_pin_brute_force_is_slowed_per_phone_then_for_everyone(server):
    """After FREE_TRIES wrong PINs a phone waits (429, Retry-After), even for the right PIN;
    the waits double. The right PIN is never found by guessing quickly."""
    pin = server.companion.access.pin
    wrong = [f"{n:06d}" for n in range(1000) if f"{n:06d}" != pin]
    csrf, cookie = sign_in_page(server)
    statuses = [try_pin(server, w, csrf=csrf, cookie=cookie)[0] for w in wrong[: FREE_TRIES + 3]]
    assert statuses[: FREE_TRIES - 1] == [401] * (FREE_TRIES - 1)
    assert statuses[FREE_TRIES - 1] == 401  # this one starts the wait
    assert statuses[FREE_TRIES:] == [429, 429, 429]
    status, answer, headers = try_pin(server, pin, csrf=csrf, cookie=cookie)
    assert status == 429 and answer["rule"] == "TABLE-HOST-2"
    assert 0 < int(headers["Retry-After"]) <= FIRST_WAIT
    assert server.companion.store.count_sessions("host") == 0


def test_the_pin_guard_doubles_the_wait_and_stops_everyone_after_many_tries():
    now = [0.0]
    guard = PinGuard(clock=lambda: now[0])
    for _ in range(FREE_TRIES - 1):
        assert guard.wrong("a") == 0
    assert guard.wrong("a") == FIRST_WAIT
    now[0] += FIRST_WAIT
    assert guard.wait("a") == 0
    assert guard.wrong("a") == 2 * FIRST_WAIT  # the next wrong one doubles it
    guard.right("a")
    assert guard.wait("a") == 0
    for n in range(TABLE_TRIES):  # many phones, a few tries each: everyone waits
        guard.wrong(f"phone {n}")
    assert guard.wait("a fresh phone") > 0


def test_the_pin_form_needs_its_csrf_token(server):
    pin = server.companion.access.pin
    _, cookie = sign_in_page(server)
    for headers in (
        {"Cookie": cookie},
        {"Cookie": cookie, "X-CSRF-Token": "0" * 40},
        {"X-CSRF-Token": sign_in_page(server)[0]},
    ):  # a token without its cookie
        status, answer, _ = request(f"{server.base}/host", "POST", {"pin": pin}, headers=headers)
        assert status == 403 and answer["rule"] == "TABLE-REQUEST-3"
    assert server.companion.store.count_sessions("host") == 0


def test_signing_out_ends_the_session(server):
    _, answer, _ = try_pin(server, server.companion.access.pin)
    host = server.base + answer["url"]
    status, _ = post(f"{host}/api/sign_out")
    assert status == 200
    assert request(f"{host}/api/state")[0] == 403


# -- seats and join codes ----------------------------------------------------------------------------


def start(server) -> dict:
    status, answer = post(
        f"{server.host}/api/new_game",
        {"confirm": True, "game": "abracadawhat", "players": PLAYERS, "seed": 4},
    )
    assert status == 200, answer
    return get(f"{server.host}/api/setup")["links"]


def test_each_seat_has_a_one_time_join_code_on_the_table_display(server):
    links = start(server)
    assert list(links) == PLAYERS
    joins = get(f"{server.base}/api/table")["joins"]
    assert [j["player"] for j in joins] == PLAYERS
    assert all(len(j["code"]) >= 22 for j in joins)  # 128 random bits
    page = request(links["Marta"]["url"])[1]
    assert "Join as Marta" in page
    svg = request(f"{server.base}/join/{joins[2]['code']}.svg")
    assert svg[0] == 200 and svg[2]["Content-Type"].startswith("image/svg+xml")
    marta = claim(links["Marta"]["url"])
    assert get(f"{marta}/api/state")["viewer"] == "Marta"
    assert len(marta.rsplit("/", 1)[1]) >= 43  # 256 random bits
    # spent: the code no longer works, for anyone, and the QR code is gone from the table
    assert [j["player"] for j in get(f"{server.base}/api/table")["joins"]] == [
        "Elena",
        "Denise",
        "Ivo",
    ]
    assert request(links["Marta"]["url"])[0] == 403
    status, answer = post(links["Marta"]["url"], csrf="x")
    assert status == 403
    assert request(f"{server.base}/join/{joins[2]['code']}.svg")[0] == 404
    assert "Marta" not in get(f"{server.host}/api/setup")["links"]
    # players never see the join codes of the others
    assert "joins" not in get(f"{marta}/api/state")


def test_claiming_a_seat_needs_the_join_pages_csrf_token(server):
    links = start(server)
    url = links["Ivo"]["url"]
    before = referee(server)
    other = meta_csrf(request(links["Elena"]["url"])[1])  # Elena's join page's token
    for token in ("", "0" * 40, other):
        status, answer, _ = request(url, "POST", {}, headers={"X-CSRF-Token": token})
        assert status == 403 and answer["rule"] == "TABLE-REQUEST-3"
    assert referee(server) == before


def test_the_host_hands_a_seat_over(server):
    start(server)
    pages = join_all(server.host)
    old = pages["Denise"]
    stream = SSE(f"{old}/stream")
    try:
        assert stream.next()[0] in ("comment", "snapshot")
        status, answer = post(f"{server.host}/api/hand_over", {"player": "Denise"})
        assert status == 200, answer
        for _ in range(10):  # the old phone's stream says the seat is gone
            if stream.next()[0] == "gone":
                break
        else:
            raise AssertionError("the old stream did not end")
    finally:
        stream.close()
    for path in ("", "/api/state", "/stream"):
        status, value, _ = request(old + path)
        assert status == 403 and "Denise" not in json.dumps(value).replace("handed the seat", "")
    status, _, _ = request(
        f"{old}/api/action", "POST", {"type": "end_turn"}, headers={"X-CSRF-Token": "whatever"}
    )
    assert status == 403
    link = get(f"{server.host}/api/setup")["links"]["Denise"]["url"]
    new = claim(link)
    assert new != old and get(f"{new}/api/state")["viewer"] == "Denise"
    # the other seats are untouched
    assert get(f"{pages['Elena']}/api/state")["viewer"] == "Elena"


def test_the_seats_survive_a_restart(tmp_path):
    server = Server.start(tmp_path)
    try:
        start(server)
        elena = claim(get(f"{server.host}/api/setup")["links"]["Elena"]["url"])
    finally:
        server.stop()
    again = Server.start(tmp_path)
    try:
        path = elena.split("/p/")[1]
        assert get(f"{again.base}/p/{path}/api/state")["viewer"] == "Elena"
        assert set(get(f"{again.host}/api/setup")["links"]) == {"Denise", "Marta", "Ivo"}
    finally:
        again.stop()


# -- tokens and CSRF on every door ----------------------------------------------------------------


def test_without_a_token_401_with_a_wrong_one_403_and_never_a_players_data(server):
    start(server)
    join_all(server.host)
    for path in ("/p", "/p/"):
        status, page, _ = request(server.base + path)
        assert status == 401 and "scan your seat's code" in html.unescape(page)
    for path in (
        "/p/x" * 1,
        "/p/x/api/state",
        "/p/x/stream",
        "/host/x",
        "/host/x/api/state",
        "/host/x/api/setup",
        "/host/x/stream",
        "/host/x/sim/world",
        "/host/x/tags.json",
    ):
        status, value, _ = request(server.base + path)
        assert status == 403, path
        assert not any(p in json.dumps(value) for p in PLAYERS), path


def test_every_post_needs_its_own_pages_csrf_token_and_changes_nothing_without(server):
    start(server)
    pages = join_all(server.host)
    elena, denise = pages["Elena"], pages["Denise"]
    before = referee(server)
    posts = [
        (f"{elena}/api/action", {"type": "end_turn"}),
        (f"{elena}/api/virtual_roll", {}),
        (f"{server.host}/api/undo", {}),
        (f"{server.host}/api/pause", {}),
        (f"{server.host}/api/end_game", {}),
        (f"{server.host}/api/hand_over", {"player": "Marta"}),
        (
            f"{server.host}/api/new_game",
            {"confirm": True, "game": "abracadawhat", "players": PLAYERS},
        ),
        (f"{server.host}/api/new_pin", {}),
        (f"{server.host}/sim/draw", {}),
    ]
    wrong = [None, "", "0" * 40, csrf_for(denise)]  # none, empty, made up, another seat's
    for url, body in posts:
        for token in wrong:
            headers = {} if token is None else {"X-CSRF-Token": token}
            status, answer, _ = request(url, "POST", body, headers=headers)
            assert status == 403 and answer["rule"] == "TABLE-REQUEST-3", (url, token)
    # the host's token is no good for a player's page, nor the other way round
    status, _, _ = request(
        f"{elena}/api/action",
        "POST",
        {"type": "end_turn"},
        headers={"X-CSRF-Token": csrf_for(f"{server.host}/api/undo")},
    )
    assert status == 403
    # a POST from another site's page is refused even with the right token
    status, answer, _ = request(
        f"{server.host}/api/pause",
        "POST",
        {},
        headers={
            "X-CSRF-Token": csrf_for(f"{server.host}/api/pause"),
            "Origin": "http://evil.example",
        },
    )
    assert status == 403 and answer["rule"] == "TABLE-REQUEST-3"
    assert referee(server) == before
    # written, one row a second per source (with a count), but not shown on the pages
    assert "TABLE-REQUEST-3" not in [r["rule"] for r in get(f"{server.base}/api/table")["refusals"]]
    server.table.sync()
    logged = [r for r in server.companion.store.refusals() if r["rule"] == "TABLE-REQUEST-3"]
    assert 1 <= len(logged) < len(posts) * len(wrong)
    # with the right tokens the same requests go through
    assert post(f"{server.host}/api/pause")[0] == 200


def test_pause_refuses_every_input_until_the_host_resumes(server):
    start(server)
    pages = join_all(server.host)
    assert post(f"{server.host}/api/pause")[0] == 200
    assert get(f"{server.base}/api/table")["game"]["paused"] is True
    before = referee(server)
    status, answer = post(f"{server.host}/sim/draw")
    assert answer["ok"] is False and answer["rule"] == "TABLE-GAME-3"
    status, answer = post(f"{pages['Elena']}/api/action", {"type": "end_turn"})
    assert status == 409 and answer["rule"] == "TABLE-GAME-3"
    assert referee(server) == before
    assert post(f"{server.host}/api/resume")[0] == 200
    status, answer = post(f"{server.host}/sim/draw")
    assert answer["ok"], answer


def test_ending_a_game_ends_every_seats_link(server):
    start(server)
    pages = join_all(server.host)
    assert post(f"{server.host}/api/end_game")[0] == 200
    snap = get(f"{server.base}/api/table")
    assert snap["game"] is None and snap["events"][-1]["type"] == "game_ended"
    assert request(f"{pages['Elena']}/api/state")[0] == 403
    assert server.companion.store.latest_game().abandoned


def test_the_home_page_shows_the_ways_in_or_sends_a_phone_back_to_its_seat(server):
    status, page, _ = request(f"{server.base}/")
    assert status == 200 and "Become the host" in page and 'href="/table"' in page
    links = start(server)
    status, answer, set_cookies = claim_answer(links["Elena"]["url"])
    assert status == 200
    seat = next(c for c in set_cookies if c.startswith("companion_seat="))
    cookie = seat.split(";")[0]
    assert "HttpOnly" in seat and "Path=/;" in seat
    status, _, headers = request(f"{server.base}/", headers={"Cookie": cookie})
    assert status == 302 and headers["Location"].endswith(answer["url"])
    # a seat cookie that is no longer a seat (handed over) just shows the ways in
    post(f"{server.host}/api/hand_over", {"player": "Elena"})
    assert request(f"{server.base}/", headers={"Cookie": cookie})[0] == 200
