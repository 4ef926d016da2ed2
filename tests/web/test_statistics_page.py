"""The Statistics page (host and table display) on a fake source of plays: its numbers, its
charts, English and Italian, the chart of a play alone, and bad input answered without a 500."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from companion.table.plays import Play, Point
from companion.table.runtime import Table
from companion.table.store import Store
from companion.web import create_app
from companion.web.statistics_page import PlaySources

SVG = "{http://www.w3.org/2000/svg}"
NASTY = '<b>Zoë & "Bo"</b>'


def play(id, game, players, winners, scores, finished=True, duration=1800) -> Play:
    return Play(
        id=id,
        game=game,
        started_at=f"2026-11-{id:02d}T19:00:00Z",
        ended_at=f"2026-11-{id:02d}T20:00:00Z" if finished else None,
        duration=duration,
        players=players,
        options={},
        data_set=None,
        finished=finished,
        winners=winners if finished else [],
        scores=scores,
        start_player=players[0],
        actions=3,
    )


PLAYS = [
    play(1, "abracadawhat", ["Ann", NASTY], ["Ann"], {"Ann": 8, NASTY: 5}, duration=1500),
    play(2, "dorktower", ["Ann", NASTY], [NASTY], {"Ann": 3, NASTY: 9}, duration=2700),
    play(3, "dorktower", ["Ann", NASTY, "Cy"], [], {"Ann": 1, NASTY: 2, "Cy": 0}, finished=False),
]
SERIES = {
    3: [Point(1, "t", {"Ann": 1, NASTY: 2, "Cy": 0})],
    1: [Point(1, "t", {"Ann": 2, NASTY: 1}), Point(2, "t", {"Ann": 5, NASTY: 5}), Point(3, "t", {"Ann": 8, NASTY: 5})],
    2: [Point(1, "t", {"Ann": 1, NASTY: 4}), Point(2, "t", {"Ann": 3, NASTY: 9})],
}  # fmt: skip
ASKED: list[int] = []


def series(table, play_id: int) -> list[Point]:
    ASKED.append(play_id)
    return SERIES[play_id]


@pytest.fixture
def app(tmp_path: Path):
    store = Store(tmp_path / "companion.db")
    ASKED.clear()
    app = create_app(Table(store), play_sources=PlaySources(lambda table: list(PLAYS), series))
    app.config["TESTING"] = True
    yield app
    store.close()


def client(app):
    """A client that is the table display's screen (it opened the display link)."""
    found = app.test_client()
    found.set_cookie("companion_display", app.extensions["companion"]["access"].display_key)
    return found


@pytest.fixture
def pages(app):
    token = app.extensions["companion"]["access"].console_token
    return {"host": f"/host/{token}/statistics", "table": "/table/statistics"}


class Tables(HTMLParser):
    """The page's tables, by id (or caption), as rows of cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.stack: list[str] = []
        self.row: list[str] | None = None
        self.cell: list[str] | None = None
        self.caption = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.stack.append(attrs.get("id") or f"table-{len(self.tables)}")
            self.tables[self.stack[-1]] = []
        elif tag == "tr" and self.stack:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []

    def handle_endtag(self, tag):
        if tag == "table" and self.stack:
            self.stack.pop()
        elif tag == "tr" and self.row is not None and self.stack:
            self.tables[self.stack[-1]].append(self.row)
            self.row = None
        elif tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row.append(" ".join(" ".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def tables_of(html: str) -> dict[str, list[list[str]]]:
    parser = Tables()
    parser.feed(html)
    return parser.tables


def svgs_of(html: str) -> list[ET.Element]:
    return [ET.fromstring(m) for m in re.findall(r"<svg .*?</svg>", html, re.S)]


@pytest.mark.parametrize("page", ["host", "table"])
def test_the_page_in_english(app, pages, page):
    response = client(app).get(pages[page], headers={"Accept-Language": "en"})
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "<b>Zoë" not in html and "&lt;b&gt;Zoë &amp; &#34;Bo&#34;&lt;/b&gt;" in html
    assert "Plays: 3 · finished: 2" in html
    tables = tables_of(html)
    assert tables["stats-players"] == [
        ["Player", "Plays", "Wins", "Win rate"],
        [NASTY, "3", "1 of 2", "50%"],  # tied with Ann: by name, "<" before "a"
        ["Ann", "3", "1 of 2", "50%"],
        ["Cy", "1", "0 of 0", "–"],
    ]
    assert tables["stats-players-scores"][1:] == [
        [NASTY, "7", "9", "35 min"],
        ["Ann", "5.5", "8", "35 min"],
        ["Cy", "–", "–", "–"],
    ]
    assert tables["stats-games"][1:] == [
        ["Dork Tower", "2", "1", "0"],
        ["Abracada...What?", "1", "1", "0"],
    ]
    assert tables["stats-games-scores"][1:] == [
        ["Dork Tower", "6", f"9 {NASTY}", "45 min"],
        ["Abracada...What?", "6.5", "8 Ann", "25 min"],
    ]
    per_game = [tables["stats-game-1"], tables["stats-game-2"]]
    assert per_game == [
        [["Player", "Wins", "Win rate", "Best score"], [NASTY, "1 of 1", "100%", "9"],
         ["Ann", "0 of 1", "0%", "3"], ["Cy", "0 of 0", "–", "–"]],
        [["Player", "Wins", "Win rate", "Best score"], [NASTY, "0 of 1", "0%", "5"],
         ["Ann", "1 of 1", "100%", "8"]],
    ]  # fmt: skip
    # the charts: the win rate per player (the two with a finished play), the plays per game,
    # and the newest finished play, action by action
    win_rate, per_game, latest = svgs_of(html)
    assert win_rate.get("aria-label") == "Win rate per player"
    assert len(win_rate.findall(f".//{SVG}g[@class='bars']/{SVG}rect")) == 2
    assert len(per_game.findall(f".//{SVG}g[@class='bars']/{SVG}rect")) == 2
    assert latest.get("aria-label") == "Scores over play 2, Dork Tower"
    assert len(latest.findall(f".//{SVG}g[@class='series']")) == 2
    assert ASKED == [2]  # only the charted play's series was asked for
    assert 'href="/table/statistics/plays/2/chart.svg"' in html or page == "host"


def test_the_page_in_italian(app, pages):
    italian = client(app)
    italian.set_cookie("companion_lang", "it")
    html = italian.get(pages["table"]).get_data(as_text=True)
    assert 'lang="it"' in html and "Statistiche" in html
    assert "Partite: 3 · finite: 2" in html
    tables = tables_of(html)
    assert tables["stats-players"][0] == [
        "Giocatore",
        "Partite",
        "Vittorie",
        "Tasso vittorie",
    ]
    assert tables["stats-players-scores"][2] == ["Ann", "5,5", "8", "35 min"]
    assert tables["stats-players"][2][-2:] == ["1 su 2", "50%"]
    win_rate = svgs_of(html)[0]
    assert win_rate.get("aria-label") == "Percentuale di vittorie per giocatore"


def test_another_play_is_charted_on_asking(app, pages):
    html = client(app).get(pages["host"] + "?play=1").get_data(as_text=True)
    latest = svgs_of(html)[-1]
    assert latest.get("aria-label") == "Scores over play 1, Abracada...What?"
    numbers = tables_of(html)
    last = list(numbers.values())[-1]
    assert last == [["Action", "Ann", NASTY], ["1", "2", "1"], ["2", "5", "5"], ["3", "8", "5"]]


@pytest.mark.parametrize(
    ("asked", "status", "says"),
    [
        ("3", 404, "No finished play has the number 3."),  # not finished: no chart
        ("99", 404, "No finished play has the number 99."),
        ("x1", 400, "Say which play to chart by its number."),
        ("9" * 40, 400, "Say which play to chart by its number."),
        ("١", 400, "Say which play to chart by its number."),  # a digit, not an ASCII one
    ],
)
def test_a_play_that_cannot_be_charted_is_said_and_the_newest_shown(
    app, pages, asked, status, says
):
    response = client(app).get(pages["table"], query_string={"play": asked})
    assert response.status_code == status
    html = response.get_data(as_text=True)
    assert says in html
    assert svgs_of(html)[-1].get("aria-label") == "Scores over play 2, Dork Tower"


@pytest.mark.parametrize("page", ["host", "table"])
def test_the_chart_of_a_play_alone(app, pages, page):
    response = client(app).get(pages[page] + "/plays/1/chart.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    root = ET.fromstring(response.get_data(as_text=True))
    assert root.get("color") == "#1b1b1f"  # a standalone chart brings its own ink
    assert len(root.findall(f".//{SVG}g[@class='series']")) == 2
    for missing in ("4", "0"):
        response = client(app).get(pages[page] + f"/plays/{missing}/chart.svg")
        assert response.status_code == 404, missing
        assert b"There is no play" in response.data
    # a play still at the table has its chart too (the scores are public at every step)
    assert client(app).get(pages[page] + "/plays/3/chart.svg").status_code == 200
    assert ASKED == [1, 3]
    assert client(app).get(pages[page] + "/plays/x/chart.svg").status_code == 404


def test_a_wrong_host_token_and_a_phone_are_refused(app):
    for path in ("/host/nope/statistics", "/host/nope/statistics/plays/1/chart.svg"):
        response = client(app).get(path)
        assert response.status_code == 403
        assert b"Ann" not in response.data
    phone = app.test_client()  # on the table's network, without the display's cookie
    phone.set_cookie("companion_display", "made-up")
    for path in ("/table/statistics", "/table/statistics/plays/1/chart.svg"):
        for asking in (app.test_client(), phone):
            response = asking.get(path)
            assert response.status_code == 403
            assert b"Ann" not in response.data and b"Only the table display" in response.data


def test_no_play_yet(tmp_path):
    store = Store(tmp_path / "companion.db")
    try:
        app = create_app(Table(store), play_sources=PlaySources(lambda table: [], series))
        html = client(app).get("/table/statistics").get_data(as_text=True)
        assert "Statistics" in html
        assert "No play yet" in html and "<svg" not in html and "<table" not in html
    finally:
        store.close()
