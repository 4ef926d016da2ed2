"""The Triwizard Maze Game at a simulated table, registered by the test (the lead registers it in
``GAME_IDS``): its box of stickers enrolled at start, the simulated hands telling the deal's
private draws on the drawers' phones and laying out the Lineup at the board's reader, the die
read by the simulated dice reader, a space's sticker moving the piece, and the seat's LEDs."""

from __future__ import annotations

import time

import pytest
from support import Server, get, join_all, post

from companion.games import GAME_IDS, register, unregister
from companion.games.triwizard import PLUGIN

PLAYERS = ["Ann", "Bo"]


@pytest.fixture
def tw_server(tmp_path):
    registered = PLUGIN.id not in GAME_IDS
    if registered:
        register(PLUGIN)
    try:
        server = Server.start(tmp_path)
        yield server
        server.stop()
    finally:
        if registered:
            unregister(PLUGIN.id)


def test_a_dealt_game_and_a_move_through_the_simulated_table(tw_server):
    host, table = tw_server.host, tw_server.table
    setup = get(f"{host}/api/setup")
    assert setup["tags"]["triwizard"]["cup headstone-2"] == 1  # the box, enrolled at start
    options = {"data_set": "example"}
    status, answer = post(
        f"{host}/api/new_game",
        {"confirm": True, "game": "triwizard", "players": PLAYERS, "options": options, "seed": 4},
    )
    assert status == 200 and answer["ok"], answer
    links = join_all(host)
    status, answer = post(f"{links['Ann']}/api/action", {"type": "placed"})
    assert status == 200 and answer["ok"], answer
    status, answer = post(f"{host}/sim/draw_all")  # 8 cards, 4 tiles, 4 Lineup cards
    assert status == 200 and answer["ok"], answer
    referee = table.referee_view()
    assert referee["phase"] == "first_player", referee["prompt"]
    assert [referee["players"][p]["hand_count"] for p in PLAYERS] == [4, 4]
    assert all(entry["face_up"] for entry in referee["lineup"])
    status, answer = post(f"{host}/sim/press", {"seat": 1})  # Bo shouted first (TW-AMB-25)
    assert status == 200 and answer["ok"], answer
    view = get(f"{tw_server.base}/api/table")["view"]
    assert view["active"] == "Bo" and view["players"]["Ann"]["hand"] is None
    dice = tw_server.companion.devices.dice
    deadline = time.monotonic() + 5
    while dice.profile(0)[0] != "triwizard" and time.monotonic() < deadline:
        time.sleep(0.05)  # the reader is told the die's profile (CLOAK, 1..5) before the throw
    assert dice.profile(0) == ("triwizard", None)
    time.sleep(0.3)
    status, answer = post(f"{host}/sim/roll", {"face": 1})  # allowance 2
    assert status == 200 and answer["ok"], answer
    referee = table.referee_view()
    if referee["phase"] == "cloak_place":
        # the reader read the throw before it had the die's profile (a throw right after the
        # table asks for it): the Cloak face; Bo then taps Ann's piece (TW-TURN-3)
        status, answer = post(f"{host}/sim/tap_component", {"component": "piece 1"})
        assert status == 200 and answer["ok"], answer
        assert table.referee_view()["cloak"] == "Ann"
    else:
        assert referee["phase"] == "moving", referee["prompt"]
        reach = referee["reach"]  # the mover's (Bo's) reach, from the referee's view
        target = max(reach, key=lambda entry: (entry["steps"], entry["space"]))["space"]
        status, answer = post(f"{host}/sim/tap_component", {"component": f"space {target}"})
        assert status == 200 and answer["ok"], answer
        assert table.referee_view()["players"]["Bo"]["space"] == target
    frames = table.frames()["table"]
    seat = table.layout.seat_pixels
    assert frames[seat + 2] != (0, 0, 0) and frames[seat + 3] != (0, 0, 0)  # Bo's 4 cards
