"""The Statistics page on the store's own plays (the default source: the Plays pages' reader),
checked against recorded games replayed: a finished play of every registered game and one still
at the table. It runs once the Plays loader is in (``companion.web.plays`` and the tests'
``plays_support``); before, it is skipped."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("companion.web.plays", reason="the Plays loader is not in this tree yet")
plays_support = pytest.importorskip("plays_support")

from test_statistics_page import SVG, tables_of  # noqa: E402

from companion.table.runtime import Table  # noqa: E402
from companion.table.store import Store  # noqa: E402
from companion.web import create_app  # noqa: E402


@pytest.fixture
def recorded(tmp_path, monkeypatch):
    """The app on a store holding the recorded finished plays (Abracada...What?, Dork Tower, the
    Triwizard Maze Game, in that order), then an Abracada...What? still at the table."""
    store = Store(tmp_path / "companion.db")
    clock = plays_support.Clock(step=90)
    ids = {}
    for game in ("abracadawhat", "dorktower", "triwizard"):
        lines = plays_support.log_lines(plays_support.FINISHED[game])
        ids[game] = plays_support.record_log(store, lines, monkeypatch, clock).id
    lines = plays_support.log_lines(plays_support.FINISHED["abracadawhat"])
    ids["unfinished"] = plays_support.record_log(store, lines[:30], monkeypatch, clock).id
    app = create_app(Table(store))  # the default source: the store's plays
    token = app.extensions["companion"]["access"].console_token
    yield app.test_client(), f"/host/{token}/statistics", ids
    store.close()


def test_the_numbers_are_the_replayed_logs(recorded):
    client, page, ids = recorded
    html = client.get(page).get_data(as_text=True)
    assert "Plays: 4 · finished: 3" in html
    tables = tables_of(html)
    # Abracada...What? P1 won 8-5-3; Dork Tower Ann won 7-0 (XP); Triwizard Cid, no scores
    assert tables["stats-players"][1:] == [
        ["P1", "2", "1 of 1", "100%"],
        ["Cid", "1", "1 of 1", "100%"],
        ["Ann", "2", "1 of 2", "50%"],
        ["P0", "2", "0 of 1", "0%"],
        ["P2", "2", "0 of 1", "0%"],
        ["Bo", "1", "0 of 1", "0%"],
        ["Bob", "1", "0 of 1", "0%"],
    ]
    scores = {row[0]: row[1:3] for row in tables["stats-players-scores"][1:]}
    assert scores == {
        "P1": ["8", "8"],
        "Cid": ["–", "–"],
        "Ann": ["7", "7"],
        "P0": ["5", "5"],
        "P2": ["3", "3"],
        "Bo": ["0", "0"],
        "Bob": ["–", "–"],
    }
    assert tables["stats-games"][1:] == [
        ["Abracada...What?", "2", "1", "0"],
        ["Dork Tower", "1", "1", "0"],
        ["The Triwizard Maze Game", "1", "1", "0"],
    ]
    # the newest finished play is charted: the Triwizard Maze Game keeps no score
    latest = [ET.fromstring(m) for m in re.findall(r"<svg .*?</svg>", html, re.S)][-1]
    assert (
        latest.get("aria-label") == f"Scores over play {ids['triwizard']}, The Triwizard Maze Game"
    )
    assert [t.text for t in latest.iter(f"{SVG}text") if t.get("class") == "empty"] == [
        "No scores to draw"
    ]


def test_a_plays_chart_ends_at_its_final_scores(recorded):
    client, page, ids = recorded
    html = client.get(page, query_string={"play": ids["abracadawhat"]}).get_data(as_text=True)
    numbers = list(tables_of(html).values())[-1]
    assert numbers[0] == ["Action", "P0", "P1", "P2"]
    assert numbers[1] == ["1", "0", "0", "0"] and numbers[-1] == ["214", "5", "8", "3"]
    assert len(numbers) - 1 == 200  # 214 actions, thinned to 200 points
    svg = client.get(f"{page}/plays/{ids['dorktower']}/chart.svg")
    assert svg.status_code == 200
    root = ET.fromstring(svg.get_data(as_text=True))
    assert [g.get("data-marker") for g in root.iter(f"{SVG}g") if g.get("class") == "series"] == [
        "circle",
        "square",
    ]
    assert client.get(f"{page}/plays/{ids['unfinished']}/chart.svg").status_code == 200
