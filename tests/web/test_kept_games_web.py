"""The host's API for kept games and a player's page whose game left the table: a new game over a
running one is refused without confirmation (TABLE-GAME-4, naming the game and where it stands),
the list of kept games, resuming one, and the set-aside game's player page."""

from __future__ import annotations

import html

from support import SSE, get, post, request

GAME = {"game": "abracadawhat", "players": ["Ann", "Bo", "Cy"], "seed": 3}


def test_a_new_game_needs_confirmation_and_names_the_running_game(server, game):
    before = get(f"{server.host}/api/state")["game"]
    status, answer = post(f"{server.host}/api/new_game", GAME)
    assert status == 409 and answer["rule"] == "TABLE-GAME-4", answer
    assert answer["reason"] == (
        "A game of Abracada...What? is running (round 1). Set it aside and start a new one? "
        "It is kept: you can resume it."
    )
    assert answer["running"]["title"] == "Abracada...What?"
    assert answer["running"]["progress"] == "round 1"
    assert get(f"{server.host}/api/state")["game"]["id"] == before["id"]  # nothing changed
    # in Italian, for a host whose phone speaks it
    status, answer, _ = request(
        f"{server.host}/api/new_game",
        "POST",
        GAME,
        headers={"X-CSRF-Token": get(f"{server.host}/api/state")["csrf"], "Accept-Language": "it"},
    )
    assert status == 409 and answer["rule"] == "TABLE-GAME-4"
    assert answer["reason"].startswith("È in corso una partita a Abracada...What? (round 1).")
    # the snapshot says where the game stands, for the end's confirmation
    assert before["progress"] == "round 1" and before["finished"] is False


def test_the_list_and_resuming(server, game):
    first = get(f"{server.host}/api/state")["game"]["id"]
    status, answer = post(f"{server.host}/api/new_game", GAME | {"confirm": True})
    assert status == 200 and answer["set_aside"] == first
    second = answer["game_id"]
    kept = get(f"{server.host}/api/games")
    assert kept["current"] == second and kept["limit"] == 20
    [listed] = kept["unfinished"]
    assert listed["id"] == first and listed["state"] == "set_aside"
    assert listed["state_text"] == "set aside" and listed["progress"] == "round 1"
    assert listed["players"] == ["Elena", "Denise", "Marta"] and listed["resumable"]
    assert listed["started_at"] and listed["title"] == "Abracada...What?"

    status, answer = post(f"{server.host}/api/resume_game", {"game_id": first})
    assert status == 409 and answer["rule"] == "TABLE-GAME-4"
    assert "Set it aside and resume the other one?" in answer["reason"]
    status, answer = post(f"{server.host}/api/resume_game", {"game_id": first, "confirm": True})
    assert status == 200 and answer["ok"] and answer["set_aside"] == second
    assert get(f"{server.host}/api/state")["game"]["id"] == first
    assert [g["id"] for g in get(f"{server.host}/api/games")["unfinished"]] == [second]
    # bad requests: an id that is no set-aside game, or no id
    status, answer = post(f"{server.host}/api/resume_game", {"game_id": 999, "confirm": True})
    assert status == 409 and answer["rule"] == "TABLE-GAME-5"
    status, answer = post(f"{server.host}/api/resume_game", {"game_id": "1"})
    assert status == 400 and answer["rule"] == "TABLE-REQUEST-1"


def test_the_page_of_a_set_aside_game_says_so_and_works_again_when_resumed(server, game):
    first = get(f"{server.host}/api/state")["game"]["id"]
    elena = game["Elena"]
    stream = SSE(f"{elena}/stream")
    try:
        assert post(f"{server.host}/api/new_game", GAME | {"confirm": True})[0] == 200
        for _ in range(20):  # the open page hears that its game left the table
            if stream.next()[0] == "gone":
                break
        else:
            raise AssertionError("the stream did not say gone")
    finally:
        stream.close()
    status, page, _ = request(elena)
    page = html.unescape(page)
    assert status == 403 and "Your game is not at the table" in page
    assert "The game of Abracada...What? this seat belongs to is no longer at the table" in page
    assert "scan your seat's code on the table display, or ask the host" in page
    assert request(f"{elena}/api/state")[0] == 403
    # the link without the phone's claim learns nothing of the game
    status, page, _ = request(elena, headers={"Cookie": "companion_claim=nope"})
    assert status == 403 and "Abracada" not in page and "Not your seat" in page
    # resumed: the same link and claim work again
    assert post(f"{server.host}/api/resume_game", {"game_id": first, "confirm": True})[0] == 200
    assert request(elena)[0] == 200
    assert get(f"{elena}/api/state")["game"]["id"] == first


def test_ending_a_game_keeps_it(server, game):
    assert post(f"{server.host}/api/end_game")[0] == 200
    [listed] = get(f"{server.host}/api/games")["unfinished"]
    assert listed["state"] == "ended" and listed["resumable"]
    status, page, _ = request(game["Denise"])
    assert status == 403 and "no longer at the table" in html.unescape(page)
    # no game runs: resuming needs no confirmation
    assert post(f"{server.host}/api/resume_game", {"game_id": listed["id"]})[0] == 200
    assert request(game["Denise"])[0] == 200


def test_the_waiting_page_asks_whether_its_game_is_back(server, game):
    """``/p/<token>/api/back``: false while the seat's game is set aside (on its phone only),
    true once it is resumed; 403 for a link without the claim, as every route."""
    first = get(f"{server.host}/api/state")["game"]["id"]
    denise = game["Denise"]
    assert get(f"{denise}/api/back") == {"back": True}
    assert post(f"{server.host}/api/new_game", GAME | {"confirm": True})[0] == 200
    assert get(f"{denise}/api/back") == {"back": False}
    copied = request(f"{denise}/api/back", headers={"Cookie": "companion_claim=nope"})
    assert copied[0] == 403
    assert post(f"{server.host}/api/resume_game", {"game_id": first, "confirm": True})[0] == 200
    assert get(f"{denise}/api/back") == {"back": True}
