"""What strangers and failing disks can cause through the web: anonymous requests are answered
and counted, never broadcast; a table that cannot record says so on every page and on /healthz,
and answers 503 without applying anything."""

from __future__ import annotations

import math
import time

from support import get, post, request, wait_until

PLAYERS = ["Elena", "Denise", "Marta"]


def test_a_script_trying_join_codes_wakes_nobody(server):
    """A hundred anonymous claims of made-up codes: each gets its 403, the table's version (what
    wakes every stream) does not move, the LEDs do not blink, and the log keeps one row with a
    count, not a hundred."""
    server.new_game(PLAYERS[:2], seed=1)  # every seat claimed
    table = server.table
    version, cues, logged = table.version, len(table.cues), len(server.companion.store.refusals())
    began = time.monotonic()
    rules = set()
    for n in range(100):
        status, answer = post(f"{server.base}/join/made-up-{n}", csrf="")
        assert status == 403 and answer["rule"] in ("TABLE-JOIN-1", "TABLE-REQUEST-3")
        rules.add(answer["rule"])
    seconds = time.monotonic() - began
    assert table.version == version and len(table.cues) == cues
    assert not [
        r
        for r in get(f"{server.base}/api/table")["refusals"]
        if r["rule"] in ("TABLE-JOIN-1", "TABLE-REQUEST-3")
    ]
    wait_until(lambda: sum(r["count"] for r in server.companion.store.refusals()[logged:]) == 100)
    rows = server.companion.store.refusals()[logged:]  # a row a second, per rule
    assert len(rows) <= (math.ceil(seconds) + 1) * len(rules) < 100
    status = get(f"{server.host}/status/api")
    assert status["web_refusals"] and max(r["count"] for r in status["web_refusals"]) > 1


def test_a_table_that_cannot_record_says_so_everywhere_and_applies_nothing(server):
    links = server.new_game(PLAYERS, seed=2)
    post(f"{server.host}/sim/draw_all")
    table = server.table
    before = table.referee_view()
    table.store._db.execute("PRAGMA query_only = 1")  # every write refused
    move = {
        k: v for k, v in get(f"{links['Elena']}/api/state")["legal"][0].items() if k != "player"
    }  # a move the rules accept: only the disk stands in its way
    status, answer = post(f"{links['Elena']}/api/action", move)
    assert status == 503 and answer["rule"] == "TABLE-STORE-1"
    assert table.referee_view() == before
    status, health, _ = request(f"{server.base}/healthz")
    assert status == 503 and health["ok"] is False and health["storage"]
    assert get(f"{links['Denise']}/api/state")["storage"]["ok"] is False
    assert "problem" not in get(f"{server.base}/api/table")["storage"]  # the paragraph: host only
    assert get(f"{server.host}/api/state")["storage"]["problem"] == health["storage"]
    assert get(f"{server.host}/status/api")["storage"]["problem"] == health["storage"]
    status, answer = post(f"{server.host}/api/pause")  # the host's requests too
    assert status == 503 and table.paused is False
    table.store._db.execute("PRAGMA query_only = 0")  # space came back
    wait_until(lambda: request(f"{server.base}/healthz")[0] == 200)
    assert get(f"{server.base}/api/table")["storage"] is None
    status, answer = post(f"{server.host}/api/pause")
    assert status == 200 and table.paused
