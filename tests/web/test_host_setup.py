"""The host's setting up: a new game's colours (the wizard's last word), and the sticker guide
that asks for each component of a game in turn, refuses a sticker already enrolled, shows its
progress and can be stopped and resumed; the tag map's export and import."""

from __future__ import annotations

import json

import pytest
from support import Server, get, post, request

from companion.games import get_game
from companion.lights import PALETTE

PLAYERS = ["Elena", "Denise", "Marta", "Ivo"]


def new_game(server, **more) -> tuple[int, dict]:
    return post(
        f"{server.host}/api/new_game",
        {"confirm": True, "game": "abracadawhat", "players": PLAYERS, "seed": 2, **more},
    )


# -- colours -----------------------------------------------------------------------------------------


def test_the_players_colours_are_the_hosts_choice(server):
    colours = ["vermillion", "sky blue", "yellow", "blue"]
    status, answer = new_game(server, colours=colours)
    assert status == 200, answer
    snap = get(f"{server.base}/api/table")
    assert snap["game"]["colours"] == dict(zip(PLAYERS, colours))
    # the LEDs use them too: seat by seat, then the palette's other colours for empty seats
    assert server.table.colours()[:4] == [PALETTE[c] for c in colours]
    assert len(set(server.table.colours())) == server.table.layout.seats
    setup = get(f"{server.host}/api/setup")
    assert setup["palette"]["sky blue"] == "#56b4e9"


def test_without_colours_the_palette_goes_round_in_order(server):
    assert new_game(server)[0] == 200
    snap = get(f"{server.base}/api/table")
    assert list(snap["game"]["colours"].values()) == list(PALETTE)[:4]


@pytest.mark.parametrize(
    "colours, problem",
    [
        (["blue", "blue", "yellow", "orange"], "two players have the same colour"),
        (["blue", "pink", "yellow", "orange"], "'pink' is not a colour of the palette"),
        (["blue", "yellow"], "give one colour for each player"),
        ("blue", "give one colour for each player"),
    ],
)
def test_colours_that_cannot_be_are_refused_and_change_nothing(server, colours, problem):
    before = server.table.record
    status, answer = new_game(server, colours=colours)
    assert status == 409 and answer["rule"] == "TABLE-GAME-2" and problem in answer["reason"]
    assert server.table.record is before


# -- the sticker guide -------------------------------------------------------------------------------


def enrolling(server) -> dict | None:
    return get(f"{server.host}/api/state")["enrolling"]


def test_the_guide_asks_for_each_stone_in_turn_and_refuses_one_already_enrolled(server):
    box = get_game("abracadawhat").components
    status, answer = post(f"{server.host}/api/tags/forget_game", {"game": "abracadawhat"})
    assert status == 200 and answer["count"] == sum(box.values()) == 36
    assert post(f"{server.host}/api/enrol/guide", {"game": "abracadawhat"})[0] == 200
    asked = enrolling(server)
    assert asked == {
        "game": "abracadawhat",
        "component": "stone 1",
        "guide": True,
        "done": 0,
        "total": 36,
        "component_done": 0,
        "component_total": 1,
    }
    status, answer = post(f"{server.host}/sim/tap_box")
    assert answer["ok"], answer
    first = answer["outcomes"][-1]
    assert first["enrolled"] == "stone 1"
    asked = enrolling(server)
    assert (
        asked["component"],
        asked["done"],
        asked["component_done"],
        asked["component_total"],
    ) == ("stone 2", 1, 0, 2)
    # the stone 1 sticker again: refused (already enrolled), and stone 2 is still asked for
    uid = next(
        row["uid"] for row in server.table.tags.export()["tags"] if row["component"] == "stone 1"
    )
    status, answer = post(f"{server.host}/sim/tap", {"uid": uid})
    assert answer["ok"] is False and answer["rule"] == "TABLE-TAG-4"
    # never saying what the sticker is: a player's hidden stone may be tapped while enrolling
    assert "it is already enrolled" in answer["reason"] and "stone 1" not in answer["reason"]
    assert enrolling(server)["component"] == "stone 2" and enrolling(server)["done"] == 1
    # stopped, then resumed: it goes on with the first stone still missing
    post(f"{server.host}/api/enrol/cancel")
    assert enrolling(server) is None
    post(f"{server.host}/api/enrol/guide", {"game": "abracadawhat"})
    assert enrolling(server)["component"] == "stone 2"
    for _ in range(35):
        status, answer = post(f"{server.host}/sim/tap_box")
        assert answer["ok"], answer
    assert enrolling(server) is None
    assert server.table.tags.count("abracadawhat") == box
    events = get(f"{server.host}/api/state")["events"]
    assert events[-1]["type"] == "tags_complete"
    assert events[-1]["text"] == "Every sticker of Abracada...What? is enrolled."
    # nothing left to ask for
    status, answer = post(f"{server.host}/api/enrol/guide", {"game": "abracadawhat"})
    assert status == 200 and answer["done"] is True and enrolling(server) is None


def test_a_second_copy_of_a_game_is_taught_by_importing_the_tag_map(server):
    status, exported, headers = request(f"{server.host}/tags.json")
    assert status == 200 and "attachment" in headers["Content-Disposition"]
    data = json.loads(exported) if isinstance(exported, str) else exported
    post(f"{server.host}/api/tags/forget_game", {"game": "abracadawhat"})
    assert server.table.tags.count("abracadawhat")["stone 8"] == 0
    status, answer = post(f"{server.host}/api/tags", {"data": data})
    assert status == 200 and answer["count"] == len(data["tags"])
    assert server.table.tags.count("abracadawhat")["stone 8"] == 8


def test_the_guide_for_an_unknown_game_is_refused(server):
    status, answer = post(f"{server.host}/api/enrol/guide", {"game": "chess"})
    assert status == 409 and answer["rule"] == "TABLE-TAG-4"
    status, answer = post(f"{server.host}/api/enrol/guide", {})
    assert status == 400
    status, answer = post(f"{server.host}/sim/tap_box")
    assert status == 400 and "no sticker is being enrolled" in answer["error"]


# -- the running table's settings -------------------------------------------------------------------


def test_the_host_sets_the_leds_brightness_and_it_is_kept(tmp_path):
    server = Server.start(tmp_path, brightness=0.5)
    try:
        assert get(f"{server.host}/api/setup")["brightness"] == 0.5
        status, answer = post(f"{server.host}/api/settings", {"brightness": 0.25})
        assert status == 200 and answer["brightness"] == 0.25
        assert server.table.brightness == 0.25
        for bad in (0, 1.5, "dim", True, None):
            status, answer = post(f"{server.host}/api/settings", {"brightness": bad})
            assert status == 400 and answer["rule"] == "TABLE-REQUEST-1", bad
        assert server.table.brightness == 0.25
    finally:
        server.stop()
    again = Server.start(tmp_path, brightness=0.5)
    try:
        assert again.table.brightness == 0.25  # the host's choice outlives a restart
    finally:
        again.stop()
