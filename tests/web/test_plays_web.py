"""The Plays pages and exports (``companion/web/plays.py``, ``docs/plays.md``): the BG Stats
link of every registered game's finished play decoded to BG Stats' documented JSON, the JSON and
CSV downloads read back, the filters, the answers to bad ids and filters (never a 500), who may
see the pages, and each step of a live game being what the table display showed then."""

from __future__ import annotations

import csv
import io
import json
import random
from dataclasses import asdict
from datetime import datetime
from urllib.parse import parse_qs, urlsplit

import pytest
from plays_support import FINISHED, TESTS, Clock, log_lines, record_log
from secrets_play import choices
from support import get, request

from companion.games import get_game, plugin
from companion.rules import EVERYTHING
from companion.table.play_exports import BGSTATS_LINK, CSV_COLUMNS, csv_read_text
from companion.table.plays import Plays
from companion.web.public import DISPLAY_COOKIE

EXPECTED = {  # each finished recorded play: winners, scores (None: the game keeps none), start
    "abracadawhat": (["P1"], {"P0": 5, "P1": 8, "P2": 3}, "P0"),
    "dorktower": (["Ann"], {"Ann": 7, "Bo": 0}, "Ann"),
    "triwizard": (["Cid"], {"Ann": None, "Bob": None, "Cid": None}, "Ann"),
}


@pytest.fixture
def recorded(server, monkeypatch):
    """A finished play of every registered game in the server's store, 75 s between entries:
    game id -> its play id."""
    clock = Clock(step=75)
    return {
        game_id: record_log(server.table.store, log_lines(path), monkeypatch, clock).id
        for game_id, path in FINISHED.items()
    }


def listed(server, query: str = "") -> dict:
    return get(f"{server.host}/plays/api{query}")


def decode(link: str) -> dict:
    assert link.startswith(BGSTATS_LINK)
    [data] = parse_qs(urlsplit(link).query, strict_parsing=True)["data"]
    return json.loads(data)


@pytest.mark.parametrize("game_id", sorted(FINISHED))
def test_the_bgstats_link_decodes_to_bgstats_json(server, recorded, game_id):
    play_id = recorded[game_id]
    [shown] = [p for p in listed(server)["plays"] if p["id"] == play_id]
    payload = decode(shown["bgstats"])
    winners, scores, start = EXPECTED[game_id]
    found = plugin(game_id)
    assert payload["sourceName"] == "companion" and payload["sourcePlayId"] == str(play_id)
    assert payload["game"]["name"] == found.title and payload["game"]["sourceGameId"] == game_id
    assert "bggId" not in payload["game"]  # no id confirmed from a source: none is sent
    assert payload["game"]["highestWins"] is True
    assert payload["game"]["noPoints"] is (game_id == "triwizard")
    started = datetime.fromisoformat(shown["started_at"]).astimezone()
    assert payload["playDate"] == started.strftime("%Y-%m-%d %H:%M:%S")
    assert payload["durationMin"] == round(shown["duration"] / 60)
    assert payload["board"] == (shown["data_set"] or "")
    assert [p["name"] for p in payload["players"]] == list(scores)
    assert [p["name"] for p in payload["players"] if p["winner"]] == winners
    assert [p["name"] for p in payload["players"] if p["startPlayer"]] == [start]
    for player in payload["players"]:
        if scores[player["name"]] is None:
            assert "score" not in player
        else:
            assert player["score"] == scores[player["name"]]
        assert player["rank"] == 1 if player["winner"] else player["rank"] > 1
    if game_id == "abracadawhat":  # P1 won with 8; P0 5, P2 3
        assert {p["name"]: p["rank"] for p in payload["players"]} == {"P1": 1, "P0": 2, "P2": 3}


def test_an_unfinished_play_has_no_link(server, game):
    [play] = listed(server)["plays"]
    assert play["finished"] is False and play["bgstats"] is None and play["actions"] == 25
    assert get(f"{server.host}/plays/{play['id']}/api")["play"]["bgstats"] is None


def test_the_json_download_holds_every_play(server, recorded):
    status, body, headers = request(f"{server.host}/plays/plays.json")
    assert status == 200 and headers["Content-Disposition"] == 'attachment; filename="plays.json"'
    plays = Plays(server.table.store).all()
    assert body["format"] == "companion-plays" and body["version"] == 1
    assert body["plays"] == [{"title": plugin(p.game).title, **asdict(p)} for p in plays]
    assert [p["id"] for p in body["plays"]] == sorted(recorded.values(), reverse=True)


def test_the_csv_download_reads_back(server, recorded):
    status, body, headers = request(f"{server.host}/plays/plays.csv")
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(body)))
    assert list(rows[0]) == list(CSV_COLUMNS) and len(rows) == 3
    plays = {p.id: p for p in Plays(server.table.store).all()}
    for row in rows:
        play = plays[int(row["id"])]
        assert row["game"] == play.game and row["title"] == plugin(play.game).title
        assert json.loads(row["players"]) == play.players
        assert json.loads(row["winners"]) == play.winners
        assert json.loads(row["scores"]) == play.scores
        assert json.loads(row["options"]) == play.options
        assert int(row["duration"]) == play.duration and int(row["actions"]) == play.actions
        assert row["finished"] == "yes"
        assert csv_read_text(row["start_player"]) == play.start_player
        assert row["started_at"] == play.started_at and row["ended_at"] == play.ended_at
        assert row["data_set"] == (play.data_set or "")


def test_the_list_filters(server, recorded):
    everything = listed(server)
    assert everything["total"] == 3 and everything["pages"] == 1
    assert [g["id"] for g in everything["games"]] == ["abracadawhat", "dorktower", "triwizard"]
    assert everything["players"] == ["Ann", "Bo", "Bob", "Cid", "P0", "P1", "P2"]
    only = listed(server, "?game=dorktower")
    assert [p["id"] for p in only["plays"]] == [recorded["dorktower"]]
    assert only["filter"] == {"game": "dorktower", "player": None}
    ann = listed(server, "?player=Ann")
    assert [p["id"] for p in ann["plays"]] == [recorded["triwizard"], recorded["dorktower"]]
    both = listed(server, "?player=Ann&game=triwizard")
    assert [p["id"] for p in both["plays"]] == [recorded["triwizard"]]
    assert listed(server, "?player=Zed")["total"] == 0


@pytest.mark.parametrize(
    "query, reason",
    [
        ("?game=chess", "There is no game chess to list."),
        ("?page=0", "Pages are numbered from 1 to 10000."),
        ("?page=two", "Pages are numbered from 1 to 10000."),
        ("?page=10001", "Pages are numbered from 1 to 10000."),
        ("?player=" + "x" * 65, "A player's name is at most 64 characters."),
    ],
)
def test_a_bad_filter_is_answered_and_changes_nothing(server, recorded, query, reason):
    status, body, _ = request(f"{server.host}/plays/api{query}")
    assert status == 400 and body == {"ok": False, "reason": reason}


def test_bad_ids_are_404_never_500(server, recorded):
    play = recorded["dorktower"]
    huge = 2**70
    for path in (
        "/plays/999",
        "/plays/999/api",
        "/plays/999/steps/0",
        "/plays/-1",
        "/plays/0/api",
        f"/plays/{huge}",
        f"/plays/{huge}/api",
        f"/plays/{huge}/steps/0",
        f"/plays/{play}/steps/{huge}",
    ):
        status, _body, _ = request(f"{server.host}{path}")
        assert status == 404, path
    status, body, _ = request(f"{server.host}/plays/{play}/steps/10")
    assert status == 404 and body["reason"] == f"Play {play} has steps 0 to 9."
    status, body, _ = request(f"{server.host}/plays/999/api")
    assert body == {"ok": False, "reason": "There is no play 999."}
    status, body, _ = request(f"{server.host}/plays/{play}/steps/9")
    assert status == 200 and body["step"] == 9 and body["game"]["finished"] is True


def test_only_the_host_and_the_table_display_see_the_plays(server, game, recorded):
    display = {"Cookie": f"{DISPLAY_COOKIE}={server.companion.access.display_key}"}
    for path in ("/table/plays", "/table/plays/api", f"/table/plays/{recorded['triwizard']}"):
        assert request(f"{server.base}{path}")[0] == 403, path  # a phone on the network
        assert request(f"{server.base}{path}", headers=display)[0] == 200, path
    elena = game["Elena"].rsplit("/", 1)[1]
    status, body, _ = request(f"{server.base}/host/{elena}/plays/api")  # a player's token
    assert status == 403 and "plays" not in body
    display_page = request(f"{server.base}/table", headers=display)[1]
    assert 'href="/table/plays"' in display_page
    assert 'href="/table/plays"' not in request(f"{server.base}/table")[1]


def test_the_plays_speak_italian(server, recorded):
    italian = {"Accept-Language": "it"}
    status, body, _ = request(f"{server.host}/plays/api?page=0", headers=italian)
    assert status == 400 and body["reason"] == "Le pagine sono numerate da 1 a 10000."
    play = recorded["dorktower"]  # in its own game's words, whatever the table plays now
    status, body, _ = request(f"{server.host}/plays/{play}/steps/0", headers=italian)
    assert status == 200 and body["game"]["progress"] == "turno 1"
    page = request(f"{server.host}/plays", headers=italian)[1]
    assert "Ogni partita giocata a questo tavolo" in page


@pytest.mark.parametrize("game_id", ["abracadawhat", "dorktower", "triwizard"])
def test_each_step_is_what_the_table_display_showed_then(server, game_id):
    """Played live (an undo among the actions), the table display's view after each action is
    kept; every step of the play must be that very view: no more, no less."""
    table, game, rng = server.table, get_game(game_id), random.Random(5)
    players = ["Ann", "Bo", "Cy"][: max(2, game.min_players)]
    answer = table.call("new_game", "host", game=game_id, players=players, seed=4, confirm=True)
    assert answer["ok"], answer
    shown = [get(f"{server.base}/api/table")["view"]]
    for n in range(24):
        if n == 12:
            assert table.call("undo", "host")["ok"]
            shown.pop()
            continue
        for action in choices(game, table.history.state, rng):
            if table.call("action", "test", action=action)["ok"]:
                shown.append(get(f"{server.base}/api/table")["view"])
                break
    play = table.record.id
    assert get(f"{server.host}/plays/{play}/api")["play"]["actions"] == len(shown) - 1
    for k, view in enumerate(shown):
        step = get(f"{server.host}/plays/{play}/steps/{k}")
        assert step["view"] == view, (game_id, k)
        assert step["step"] == k and step["steps"] == len(shown) - 1


def test_a_step_that_shows_more_than_the_table_is_caught(server, monkeypatch):
    """The control of the test above: steps drawn from the referee's view (a planted leak) are
    not what the table display showed, and the comparison says so."""
    monkeypatch.setattr("companion.table.plays.TABLE", EVERYTHING)
    table = server.table
    assert table.call(
        "new_game", "host", game="abracadawhat", players=["Ann", "Bo"], seed=4, confirm=True
    )["ok"]
    assert table.call("action", "test", action=table.history.game.sample(table.history.state))["ok"]
    shown = get(f"{server.base}/api/table")["view"]
    step = get(f"{server.host}/plays/{table.record.id}/steps/1")
    assert step["view"] != shown  # the racks' stones, which the table display never saw


def test_a_name_a_spreadsheet_would_run_is_written_as_text(server, monkeypatch):
    """A player named like a formula is written with an apostrophe before it in the CSV (a
    spreadsheet shows it, never runs it), and read back as it was; JSON cells start with [ or {."""
    names = {"P0": "=HYPERLINK(1)", "P1": "'Tis"}
    lines = log_lines(TESTS / "games/abracadawhat/replays/game-2.jsonl")
    for old, new in names.items():
        lines = [line.replace(json.dumps(old), json.dumps(new)) for line in lines]
    record = record_log(server.table.store, lines, monkeypatch, Clock())
    rows = list(csv.DictReader(io.StringIO(request(f"{server.host}/plays/plays.csv")[1])))
    [row] = [r for r in rows if r["id"] == str(record.id)]
    assert row["start_player"] == "'=HYPERLINK(1)"
    assert csv_read_text(row["start_player"]) == "=HYPERLINK(1)"
    assert json.loads(row["players"]) == ["=HYPERLINK(1)", "'Tis"]
    assert json.loads(row["winners"]) == ["=HYPERLINK(1)"]
    assert all(not cell.startswith(("=", "+", "-", "@")) for cell in row.values())
