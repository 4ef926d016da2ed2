"""Six players (DT-AMB-20, DT-SETUP-8): the game allows as many players as its data set has
characters and kingdoms, six at most; the host's wizard offers as many as the table has seats and
says when the seats, not the game, set the limit."""

from __future__ import annotations

import copy

from dt_support import DATA
from support import Server, get, post

from companion.games.dorktower.rules.game import DorkTower

SIX = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay"]


def test_the_data_set_decides_how_many_may_play():
    """DT-AMB-20: six characters and six kingdoms in the example: six; a set with four
    characters: four."""
    assert DorkTower({"example": DATA}).max_players == 6
    small = copy.deepcopy(DATA)
    small["name"] = "small"
    for extra in sorted(small["characters"])[4:]:
        del small["characters"][extra]
    assert DorkTower({"small": small}).max_players == 4


def test_the_wizard_is_told_the_seats_cap_five(server):
    """The simulated table has five seats: the wizard offers 2 to 5 and is told the game allows
    six (it says so, web/static/js/wizard.js)."""
    found = next(g for g in get(f"{server.host}/api/setup")["games"] if g["id"] == "dorktower")
    assert (found["min_players"], found["max_players"], found["game_max_players"]) == (2, 5, 6)


def test_a_table_with_six_seats_offers_and_plays_six(tmp_path):
    """With ``devices.seats = 6`` the wizard offers six, and six players start a game."""
    server = Server.start(tmp_path, seats=6, button_pins=(5, 6, 13, 19, 26, 21))
    try:
        setup = get(f"{server.host}/api/setup")
        found = next(g for g in setup["games"] if g["id"] == "dorktower")
        assert (found["max_players"], found["game_max_players"]) == (6, 6)
        status, answer = post(
            f"{server.host}/api/new_game",
            {"game": "dorktower", "players": SIX, "seed": 1, "confirm": True},
        )
        assert status == 200 and answer["ok"], answer
        assert get(f"{server.host}/api/state")["game"]["players"] == SIX
    finally:
        server.stop()
