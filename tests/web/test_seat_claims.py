"""A seat belongs to the phone that claimed it: the seat's link works only beside that phone's
claim cookie, set when it took the seat with the join code (``TABLE-SEAT-2``)."""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlsplit

import pytest
from support import CLAIMS, SSE, claim_answer, csrf_for, get, join_all, post, request

PLAYERS = ["Elena", "Denise", "Marta"]
NOT_THIS_PHONE = "This seat is on another phone"


def start(server) -> dict[str, str]:
    status, answer = post(
        f"{server.host}/api/new_game",
        {"confirm": True, "game": "abracadawhat", "players": PLAYERS, "seed": 4},
    )
    assert status == 200, answer
    return get(f"{server.host}/api/setup")["links"]


def without_claim(url: str, method: str = "GET", cookie: str = "", body: bytes | None = None):
    """(status, body text, headers) of a request from a phone that has the link, not the claim."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    headers = {"Accept": "*/*"} | ({"Cookie": cookie} if cookie else {})
    if method == "POST":
        headers |= {"Content-Type": "application/json", "X-CSRF-Token": csrf_for(url) or ""}
    try:
        conn.request(method, parts.path, body, headers)
        response = conn.getresponse()
        return response.status, response.read().decode(), response
    finally:
        conn.close()


def test_the_claim_is_an_http_only_cookie_of_the_seats_own_path(server):
    links = start(server)
    status, answer, cookies = claim_answer(links["Elena"]["url"])
    assert status == 200 and answer["ok"]
    (claim,) = [c for c in cookies if c.startswith("companion_claim=")]
    attributes = {part.strip().split("=")[0].lower() for part in claim.split(";")[1:]}
    assert {"httponly", "path", "samesite", "max-age"} <= attributes
    assert f"Path={answer['url']}" in claim and "SameSite=Lax" in claim
    value = claim.split(";")[0].split("=", 1)[1]
    token = answer["url"].rsplit("/", 1)[1]
    assert len(value) == 64 and token not in value  # not the link: made with the table's secret
    assert value == server.companion.access.seat_claim(token)


@pytest.mark.parametrize("suffix", ["", "/api/state", "/stream"])
def test_a_copied_link_gets_only_that_the_seat_is_on_another_phone(server, suffix):
    start(server)
    pages = join_all(server.host)
    token = pages["Elena"].rsplit("/", 1)[1]
    # the copy even carries the seat cookie, which anyone who has the link can make
    status, text, response = without_claim(
        pages["Elena"] + suffix, cookie=f"companion_seat={token}"
    )
    assert status == 403
    assert NOT_THIS_PHONE in text
    assert not any(name in text for name in PLAYERS)  # no game data, not even whose seat
    assert "text/event-stream" not in response.getheader("Content-Type", "")
    if suffix == "/api/state":
        assert json.loads(text)["rule"] == "TABLE-SEAT-2"
    # the phone that claimed the seat still gets everything
    assert request(pages["Elena"] + suffix if suffix != "/stream" else pages["Elena"])[0] == 200


def test_a_copied_link_cannot_act_or_roll(server):
    start(server)
    pages = join_all(server.host)
    before = server.table.version
    for path, body in (
        ("/api/action", b'{"type": "cast", "spell": 1}'),
        ("/api/virtual_roll", b"{}"),
    ):
        status, text, _ = without_claim(pages["Elena"] + path, "POST", body=body)
        assert status == 403 and json.loads(text)["rule"] == "TABLE-SEAT-2", text
    assert server.table.version == before  # nothing happened, not even a refusal row
    status, answer = post(f"{pages['Elena']}/api/action", {"type": "cast", "spell": 1})
    assert status in (200, 409) and answer.get("rule") != "TABLE-SEAT-2", answer


def test_another_seats_claim_does_not_open_a_seat(server):
    start(server)
    pages = join_all(server.host)
    denise = pages["Denise"].rsplit("/", 1)[1]
    claim = server.companion.access.seat_claim(denise)
    status, text, _ = without_claim(
        pages["Elena"] + "/api/state", cookie=f"companion_claim={claim}"
    )
    assert status == 403 and json.loads(text)["rule"] == "TABLE-SEAT-2"


def test_a_seat_moves_to_another_phone_only_by_the_hosts_hand_over(server):
    start(server)
    pages = join_all(server.host)
    old_token = pages["Marta"].rsplit("/", 1)[1]
    old_claim = CLAIMS[f"/p/{old_token}"]
    status, answer = post(f"{server.host}/api/hand_over", {"player": "Marta"})
    assert status == 200, answer
    link = get(f"{server.host}/api/setup")["links"]["Marta"]["url"]
    status, answer, cookies = claim_answer(link)  # the new phone takes the seat with the new code
    assert status == 200 and answer["player"] == "Marta"
    new_token = answer["url"].rsplit("/", 1)[1]
    new_claim = next(c for c in cookies if c.startswith("companion_claim=")).split(";")[0]
    status, text, _ = without_claim(f"{server.base}{answer['url']}/api/state", cookie=new_claim)
    assert status == 200 and json.loads(text)["viewer"] == "Marta"
    # the old phone's claim opens neither the old link nor the new one
    for token in (old_token, new_token):
        status, _, _ = without_claim(
            f"{server.base}/p/{token}/api/state", cookie=f"companion_claim={old_claim}"
        )
        assert status == 403
    stream = SSE(pages["Elena"] + "/stream")  # everyone else plays on
    try:
        assert stream.snapshot()["viewer"] == "Elena"
    finally:
        stream.close()


def test_the_copied_link_is_told_in_the_phones_language(server):
    start(server)
    pages = join_all(server.host)
    parts = urlsplit(pages["Denise"])
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.request("GET", parts.path, headers={"Accept-Language": "it"})
        response = conn.getresponse()
        page = response.read().decode()
    finally:
        conn.close()
    assert response.status == 403
    assert (
        "Questo posto è su un altro telefono" in page and "chiedi all&#39;host di cederlo" in page
    )


def test_the_join_page_shows_the_seats_shape_as_every_page_does(server):
    """The join page marks the seat with its shape, the same as the pages' (seats.js)."""
    from pathlib import Path

    from companion.web.entry import SEAT_MARKS

    script = (Path(__file__).resolve().parents[2] / "web/static/js/seats.js").read_text()
    marks = ", ".join(f'"{mark}"' for mark in SEAT_MARKS)
    assert f"export const MARKS = [{marks}];" in script
    links = start(server)
    page = get(links["Denise"]["url"])
    assert '<span class="mark" aria-hidden="true">▲</span> Denise' in page
    assert "seat 2" in page
