"""The simulated table for a host who plays (``companion/web/playing.py``, ``simulation.py``):
the world a host who plays a seat is served holds nothing that seat's player may not see (looked
for in its JSON, and unchanged when what the player may not see is dealt anew), its acts answer
only whether they were accepted, and which seat a host plays is kept (held while that host's phone
holds the seat, TABLE-SIM-1)."""

from __future__ import annotations

import json
import random
from urllib.parse import urlsplit

import pytest
from support import (
    Server,
    claimed_headers,
    csrf_for,
    forget_served,
    get,
    hidden_changed,
    post,
    request,
)

from companion.web.access import hashed

PLAYERS = ["Elena", "Denise", "Marta"]


@pytest.fixture
def server(tmp_path):
    s = Server.start(tmp_path)
    yield s
    s.stop()


@pytest.fixture
def game(server):
    """A dealt three-player game of Abracada...What?: the players' pages."""
    links = server.new_game(PLAYERS, seed=7)
    status, answer = post(f"{server.host}/sim/draw_all")
    assert status == 200 and answer["ok"], answer
    return links


def another_host(server) -> str:
    """A second host session (another phone that entered the PIN): its host page's address."""
    access = server.companion.app.extensions["companion"]["access"]
    return f"{server.base}/host/{access.sign_in('10.0.0.9', access.pin).token}"


def uids(server) -> list[str]:
    return [row["uid"] for row in server.table.tags.export()["tags"]]


def test_the_world_of_a_host_who_plays_holds_none_of_that_players_stones(server, game):
    seeing = get(f"{server.host}/sim/world")  # a host who plays no seat: everything
    assert seeing["blind"] is None and seeing["plays"] == {"player": None, "held": False}
    elena = server.table.referee_view()["players"]["Elena"]["rack"]
    assert sorted(s["stone"] for s in seeing["places"]["rack:Elena"]) == sorted(elena)
    assert any(uid in json.dumps(seeing) for uid in uids(server))

    playing = another_host(server)
    status, answer = post(f"{playing}/sim/plays", {"player": "Elena"})
    assert status == 200 and answer["plays"] == {"player": "Elena", "held": False}
    world = get(f"{playing}/sim/world")
    assert world["blind"] == "Elena" and world["plays"]["player"] == "Elena"
    assert "rack:Elena" not in world["places"] and world["hidden"]["rack:Elena"] == 5
    assert "pile" not in world["places"] and world["hidden"]["pile"] == 11
    assert world["secret"] == [True, True, True, True]  # face down: only where they lie
    for other in ("Denise", "Marta"):  # Elena sees her neighbours' racks
        view = server.table.referee_view()["players"][other]["rack"]
        assert sorted(s["stone"] for s in world["places"][f"rack:{other}"]) == sorted(view)
    text = json.dumps(world)
    assert not [uid for uid in uids(server) if uid in text]  # no sticker's UID at all
    assert '"uid"' not in text
    acts = [c["act"] for c in world["controls"]]
    assert "tap_own" in acts and "draw" in acts
    assert "unseen" in next(c["label"] for c in world["controls"] if c["act"] == "tap_own")
    # the first host still sees everything: which seat a host plays is per host session
    assert get(f"{server.host}/sim/world")["blind"] is None


def test_the_blind_world_does_not_change_when_what_the_player_may_not_see_does(server, game):
    playing = another_host(server)
    post(f"{playing}/sim/plays", {"player": "Denise"})
    rng = random.Random(5)
    real = get(f"{playing}/sim/world")
    changed = 0
    for _ in range(6):
        with hidden_changed(server, "Denise", rng):
            swapped = get(f"{playing}/sim/world")
            changed += get(f"{server.host}/sim/world")["places"]["rack:Denise"] != real.get(
                "places", {}
            ).get("rack:Denise")
        assert swapped == real
    assert changed  # the swap did deal Denise's rack anew: the test can fail
    with server.table._lock:
        forget_served(server)


def test_the_acts_of_a_host_who_plays_never_say_what_the_hands_took(server):
    server.new_game(PLAYERS, seed=7)
    playing = another_host(server)
    post(f"{playing}/sim/plays", {"player": "Elena"})
    status, answer = post(f"{playing}/sim/draw")  # a stone dealt to Elena, unseen
    assert status == 200 and answer == {"ok": True, "outcomes": [{"ok": True}]}
    status, answer = post(f"{playing}/sim/draw_all")
    assert answer["ok"] and all(o == {"ok": True} for o in answer["outcomes"])
    # her own rack's stones cannot be tapped by number: the answer would say she holds one
    status, answer = post(f"{playing}/sim/tap_rack", {"player": "Elena", "stone": 8})
    assert status == 400 and "hidden" in answer["error"]
    status, answer = post(f"{playing}/sim/tap_rack", {"player": "Denise", "stone": 1})
    assert status in (200, 400) and "action" not in json.dumps(answer)
    # a refusal says why, never the stone
    status, answer = post(f"{playing}/sim/tap_rack", {"player": "Denise", "stone": 7})
    assert answer["ok"] is False and answer["rule"] == "TABLE-TAG-3"
    assert answer["outcomes"] == [{"ok": False, "rule": "TABLE-TAG-3", "reason": answer["reason"]}]
    # tap_own is the blind panel's only: the host who plays no seat has no such act
    assert request(f"{server.host}/sim/tap_own", "POST", {})[0] in (403, 404)


def test_a_stone_of_ones_own_rack_is_tapped_unseen_when_the_game_takes_one(server, game):
    """Elena casts a stone she holds: her rack's stone of that number is the one the game takes,
    and the hands tap it without the panel ever naming it."""
    playing = another_host(server)
    post(f"{playing}/sim/plays", {"player": "Elena"})
    assert post(f"{playing}/sim/tap_own")[1] == {"ok": False, "outcomes": []}  # none taken now
    view = server.table.referee_view()
    assert view["active"] == "Elena", view["active"]
    spell = view["players"]["Elena"]["rack"][-1]
    status, answer = post(f"{game['Elena']}/api/action", {"type": "cast", "spell": spell})
    assert status == 200, answer
    assert server.table.referee_view()["phase"] == "remove"
    status, answer = post(f"{playing}/sim/tap_own")
    assert answer == {"ok": True, "outcomes": [{"ok": True}]}
    after = server.table.referee_view()
    assert after["phase"] != "remove" and len(after["players"]["Elena"]["rack"]) == 4


def test_a_host_phone_that_joins_a_seat_plays_it_and_cannot_choose_otherwise(server):
    status, answer = post(
        f"{server.host}/api/new_game", {"game": "abracadawhat", "players": PLAYERS, "seed": 7}
    )
    assert status == 200, answer
    host_token = server.companion.host_token
    join = get(f"{server.host}/api/setup")["links"]["Marta"]["url"]
    # the phone holds the host's cookie too: joining makes it the host who plays Marta
    status, answer, _ = request(
        join,
        "POST",
        {},
        headers={"X-CSRF-Token": csrf_for(join), "Cookie": f"companion_host={host_token}"},
    )
    assert status == 200 and answer["ok"], answer
    world = get(f"{server.host}/sim/world")
    assert world["plays"] == {"player": "Marta", "held": True} and world["blind"] == "Marta"
    status, answer = post(f"{server.host}/sim/plays", {"player": None})
    assert status == 409 and answer["rule"] == "TABLE-SIM-1" and "Marta" in answer["reason"]
    status, answer = post(f"{server.host}/sim/plays", {"player": "Elena"})
    assert status == 409 and answer["rule"] == "TABLE-SIM-1"
    assert get(f"{server.host}/sim/world")["blind"] == "Marta"
    # handed over to another phone, the seat is no longer held: the host may choose again
    post(f"{server.host}/api/hand_over", {"player": "Marta"})
    assert get(f"{server.host}/sim/world")["plays"] == {"player": "Marta", "held": False}
    status, answer = post(f"{server.host}/sim/plays", {"player": None})
    assert status == 200 and answer["plays"] == {"player": None, "held": False}
    assert get(f"{server.host}/sim/world")["blind"] is None


def test_a_seat_page_opened_by_a_host_phone_makes_it_play_that_seat(server):
    links = server.new_game(PLAYERS, seed=7)  # claimed by other phones (no host cookie)
    assert get(f"{server.host}/sim/world")["blind"] is None
    path = urlsplit(links["Denise"]).path
    headers = claimed_headers(path)
    headers["Cookie"] += f"; companion_host={server.companion.host_token}"
    status, _, _ = request(links["Denise"], headers=headers)
    assert status == 200
    assert get(f"{server.host}/sim/world")["plays"] == {"player": "Denise", "held": True}


def test_which_seat_a_host_plays_is_kept_across_a_restart_and_forgotten_at_sign_out(tmp_path):
    server = Server.start(tmp_path)
    try:
        server.new_game(PLAYERS, seed=7)
        playing = another_host(server)
        post(f"{playing}/sim/plays", {"player": "Denise"})
    finally:
        server.stop()
    server = Server.start(tmp_path)
    try:
        playing = playing.replace(playing.split("/host/")[0], server.base)
        assert get(f"{playing}/sim/world")["blind"] == "Denise"
        token = playing.rsplit("/", 1)[1]
        store = server.companion.app.extensions["companion"]["access"].store
        assert store.setting(f"plays/{hashed(token)}") is not None
        assert post(f"{playing}/api/sign_out")[0] == 200
        assert store.setting(f"plays/{hashed(token)}") is None
    finally:
        server.stop()


def test_bad_choices_change_nothing(server, game):
    playing = another_host(server)
    for body, status in (
        ({"player": 5}, 400),
        ({"player": ["Elena"]}, 400),
        ({"player": "Nobody"}, None),
        ({"player": "x" * 5000}, None),
    ):
        got, answer = post(f"{playing}/sim/plays", body)
        assert got != 200 and got < 500 and answer["ok"] is False, (body, got, answer)
        if status is not None:
            assert got == status
    assert get(f"{playing}/sim/world")["blind"] is None
    # without a game, nobody to play
    assert post(f"{server.host}/api/end_game")[0] == 200
    got, answer = post(f"{playing}/sim/plays", {"player": "Elena"})
    assert got != 200 and answer["ok"] is False


def test_dork_tower_blind_world_counts_stickers_and_names_no_uid(server):
    status, answer = post(
        f"{server.host}/api/new_game",
        {"game": "dorktower", "players": ["Elena", "Denise"], "options": {}, "seed": 3},
    )
    assert status == 200, answer
    playing = another_host(server)
    post(f"{playing}/sim/plays", {"player": "Elena"})
    seeing = get(f"{server.host}/sim/world")
    world = get(f"{playing}/sim/world")
    assert world["blind"] == "Elena"
    assert world["stickers"] == {name: len(u) for name, u in seeing["stickers"].items()}
    text = json.dumps(world)
    assert not [uid for uid in uids(server) if uid in text]
    assert set(world["leds"]) == {"table", "tower"}  # no score track in Dork Tower
