"""Refusals belong to their game and are kept: a new game shows none of the last one's, an
ended game's stay with it, and after a SIGKILL and a restart the game's refusals are shown again,
in each phone's language."""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlsplit

from support import get, join_all, post
from test_crash import Process


def refusals(base: str, language: str = "en") -> list[dict]:
    parts = urlsplit(base)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.request("GET", "/api/table", headers={"Accept-Language": language})
        return json.loads(conn.getresponse().read())["refusals"]
    finally:
        conn.close()


def new_game(host: str, players: list[str], seed: int) -> dict[str, str]:
    status, answer = post(
        f"{host}/api/new_game",
        {"confirm": True, "game": "abracadawhat", "players": players, "seed": seed},
    )
    assert status == 200, answer
    post(f"{host}/sim/draw_all")
    return join_all(host)


def test_a_new_game_shows_none_of_the_last_games_refusals(server):
    pages = new_game(server.host, ["Elena", "Denise"], seed=7)
    status, answer = post(f"{pages['Denise']}/api/action", {"type": "cast", "spell": 3})
    assert status == 409 and answer["rule"] == "ABR-TURN-1"
    assert [r["rule"] for r in refusals(server.base)] == ["ABR-TURN-1"]
    new_game(server.host, ["Ann", "Bo", "Cy"], seed=2)
    assert refusals(server.base) == []
    # the first game's refusal is kept in the store, with its game
    first, second = (g.id for g in server.companion.store.games()[-2:])
    assert [r["rule"] for r in server.companion.store.refusals(first)] == ["ABR-TURN-1"]
    assert server.companion.store.refusals(second) == []


def test_an_ended_games_refusals_stay_with_it(server):
    pages = new_game(server.host, ["Elena", "Denise"], seed=7)
    assert post(f"{pages['Denise']}/api/action", {"type": "end_turn"})[0] == 409
    assert refusals(server.base)
    assert post(f"{server.host}/api/end_game")[0] == 200
    assert refusals(server.base) == []


def test_a_games_refusals_survive_a_sigkill_and_show_again_in_each_language(tmp_path):
    first = Process(tmp_path)
    try:
        pages = new_game(first.host, ["Elena", "Denise"], seed=7)
        status, answer = post(f"{pages['Denise']}/api/action", {"type": "cast", "spell": 3})
        assert status == 409 and answer["rule"] == "ABR-TURN-1"
        before = refusals(first.base)
        assert [r["rule"] for r in before] == ["ABR-TURN-1"]
    finally:
        first.kill()  # the answer was the truth: the refusal was written before it
    again = Process(tmp_path)
    try:
        after = refusals(again.base)
        assert after == before  # rule, reason, source, seat, time and count
        assert after[0]["reason"] == (
            "It is Elena's turn; only the active player can declare a spell."
        )
        (italian,) = refusals(again.base, "it")
        assert italian["reason"] == (
            "È il turno di Elena; solo il giocatore di turno può dichiarare un incantesimo."
        )
        assert get(f"{again.base}/api/table")["game"] is not None
    finally:
        again.kill()


def test_a_message_is_kept_as_data_and_made_again_translatable():
    from companion.i18n import Text, from_text_data, t, text_data

    reason = t("{who} cannot {what}.", who="Ann", what=t("cast a spell"))
    data = json.loads(json.dumps(text_data(reason)))
    again = from_text_data(data)
    assert isinstance(again, Text) and again == reason == "Ann cannot cast a spell."
    assert again.msgid == "{who} cannot {what}." and isinstance(again.params["what"], Text)
    assert from_text_data(text_data("plain")) == "plain"
