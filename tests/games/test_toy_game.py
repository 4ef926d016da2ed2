"""A game written outside the companion, registered by the tests (``tests/toy_game``: Race to
Ten), is playable end to end without a line changed outside its own package: set up from the
host's API, its seats claimed, its die read by the simulated dice reader, its sticker tapped by
the simulated hands, its turns ended by seat buttons and phones, its LEDs drawn, its page module
served and its secrets checked like every game's."""

from __future__ import annotations

import random
import time

import pytest
from support import Server, get, join_all, post, request
from toy_game import PLUGIN

from companion.games import register, unregister
from companion.lights import PALETTE, REFUSAL_FLASH, SEAT_COLOURS
from companion.rules import TABLE

PLAYERS = ["Ann", "Ben", "Cid"]


@pytest.fixture
def toy_server(tmp_path):
    register(PLUGIN)
    try:
        server = Server.start(tmp_path)
        yield server
        server.stop()
    finally:
        unregister(PLUGIN.id)


def test_the_host_can_set_up_the_toy_game(toy_server):
    setup = get(f"{toy_server.host}/api/setup")
    toy = next(game for game in setup["games"] if game["id"] == "toy")
    assert toy["title"] == "Race to Ten" and (toy["min_players"], toy["max_players"]) == (2, 4)
    assert [option["name"] for option in toy["options"]] == ["goal"]
    assert setup["tags"]["toy"] == {"bonus card": 1}  # its simulated box, enrolled at start


def test_a_whole_game_through_the_table_the_devices_and_the_phones(toy_server):
    host, table = toy_server.host, toy_server.table
    status, answer = post(
        f"{host}/api/new_game",
        {"confirm": True, "game": "toy", "players": PLAYERS, "options": {"goal": 10}, "seed": 5},
    )
    assert status == 200 and answer["ok"], answer
    links = join_all(host)
    rng = random.Random(7)
    bonus_played, sources = False, set()
    for _ in range(80):
        view = get(f"{toy_server.base}/api/table")["view"]
        if view["finished"]:
            break
        active = view["active"]
        seat = view["order"].index(active)
        if view["phase"] == "roll":  # the simulated dice reader reads the die the game awaits
            face = rng.randint(1, 6)
            status, answer = post(f"{host}/sim/roll", {"face": face})
            assert status == 200 and answer["ok"], answer
            assert table.referee_view()["players"][active]["position"] >= face
            sources.add("dice")
            continue
        frames = table.frames()  # the active seat's status light: its colour, steady
        assert frames["table"][seat * table.layout.seat_pixels] == _scaled(seat, table)
        if not bonus_played:  # the simulated hands tap the bonus card's sticker
            status, answer = post(f"{host}/sim/tap_bonus")
            assert status == 200 and answer["ok"], answer
            bonus_played = True
            sources.add("tag")
            status, answer = post(f"{host}/sim/tap_bonus")  # once per game: refused, unchanged
            assert answer["rule"] == "TOY-3"
            time.sleep(REFUSAL_FLASH + 0.1)  # the refusal's blink is over
            continue
        if rng.random() < 0.5:  # a seat button ends the turn
            status, answer = post(f"{host}/sim/press", {"seat": seat})
            sources.add("button")
        else:  # or the phone
            status, answer = post(f"{links[active]}/api/action", {"type": "end_turn"})
            sources.add("phone")
        assert status == 200 and answer["ok"], answer
    view = get(f"{toy_server.base}/api/table")["view"]
    assert view["finished"] and view["winners"] and view["phase"] == "over"
    assert sources == {"dice", "tag", "button", "phone"}
    assert view["players"][view["winners"][0]]["position"] >= 10
    assert table.history.game.view(table.history.state, TABLE) == view


def test_its_pages_and_its_page_module_are_served(toy_server):
    links = _new_game(toy_server)
    status, html, _ = request(links["Ann"])
    assert status == 200 and 'data-player="Ann"' in html
    status, body, headers = request(f"{toy_server.base}/games/toy/static/page.js")
    assert status == 200 and "javascript" in headers.get("Content-Type", "")
    assert request(f"{toy_server.base}/games/toy/static/nothing.js")[0] == 404


def _new_game(server) -> dict[str, str]:
    status, answer = post(
        f"{server.host}/api/new_game", {"confirm": True, "game": "toy", "players": PLAYERS[:2]}
    )
    assert status == 200 and answer["ok"], answer
    return join_all(server.host)


def _scaled(seat: int, table) -> tuple[int, int, int]:
    colour = PALETTE[(table.colour_names() or SEAT_COLOURS)[seat]]
    return tuple(round(channel * table.brightness) for channel in colour)


def test_the_secrets_harness_plays_it_like_every_game(toy_server):
    """Every page, API and stream of every role, at every step of a random game played through
    the phones and the devices (the harness knows no game; Race to Ten hides nothing, so the
    swaps change nothing and the comparison must find nothing)."""
    from secrets_harness import run

    from companion.games import get_game

    toy_server.companion.app.config["SSE_KEEPALIVE"] = 0.3
    report = run(toy_server, get_game("toy"), 3, 1, 14, 2)
    assert report.steps >= 5 and report.checks >= 5 * (report.steps // 2), report
    assert report.taps + report.rolls > 0, report  # the bonus card and the die, through devices
