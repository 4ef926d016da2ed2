"""The Statistics page in headless Chromium at phone size (390x844), in English and Italian, on
the host's phone and the table display's screen: nothing wider than the screen, the charts' texts
at least 12 px, bar labels that do not overlap, the table of numbers opened from its summary.
Screenshots go to tests/artifacts/screenshots/statistics-*.png."""

from __future__ import annotations

import pytest
from support import Server

from companion.table.plays import Play, Point
from companion.web.charts import FONT
from companion.web.statistics_page import PlaySources

NAMES = ["Annabella", "Bartholomew-Maximilian", "Cy", "Dorotea", "<i>Eve</i>"]


def _plays() -> list[Play]:
    out = []
    for n in range(1, 9):
        seated = NAMES[: 2 + n % 4]
        winner = seated[n % len(seated)]
        out.append(
            Play(
                id=n,
                game=["abracadawhat", "dorktower", "triwizard"][n % 3],
                started_at=f"2026-11-{n + 10:02d}T19:00:00Z",
                ended_at=f"2026-11-{n + 10:02d}T20:10:00Z",
                duration=1200 + 300 * n,
                players=seated,
                options={},
                data_set=None,
                finished=n != 8,
                winners=[winner] if n != 8 else [],
                scores={p: (i * 3 + n) % 11 for i, p in enumerate(seated)},
                start_player=seated[0],
                actions=60,
            )
        )
    return out


def _series(table, play_id: int) -> list[Point]:
    seated = next(p for p in _plays() if p.id == play_id).players
    return [
        Point(k, "2026-11-20T19:00:00Z", {p: (k * (i + 1)) // 7 for i, p in enumerate(seated)})
        for k in range(1, 61)
    ]


@pytest.fixture
def server(tmp_path):
    s = Server.start(tmp_path)
    s.companion.app.extensions["companion"]["play_sources"] = PlaySources(
        lambda table: _plays(), _series
    )
    yield s
    s.stop()


def check_readable(page) -> None:
    wide = page.evaluate(
        "[...document.querySelectorAll('main *')].filter((e) => !e.parentElement.closest("
        "'.table-scroll') && e.getBoundingClientRect().right > 390).map((e) => e.tagName + '#' + e.id + '.' + e.className).slice(0, 8)"
    )
    assert wide == [] and page.evaluate("document.documentElement.scrollWidth") <= 390, wide
    charts = page.locator("svg.chart")
    assert charts.count() == 3
    for i in range(charts.count()):  # the charts' texts drawn at >= 12 px
        scale = charts.nth(i).evaluate(
            "svg => svg.getBoundingClientRect().width / svg.viewBox.baseVal.width"
        )
        assert FONT * scale >= 12, scale
    boxes = page.locator("svg.chart .bar-label").evaluate_all(
        "els => els.map((e) => { const r = e.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; })"
    )
    assert len(boxes) == len(NAMES) + 3  # the players' win rates, the games' plays
    for a, b in zip(boxes, boxes[1:], strict=False):
        assert a[3] <= b[1] + 0.5 or b[3] <= a[1] + 0.5, (a, b)  # one under the other


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_statistics_page_on_a_phone(server, phone, shots, lang):
    page = phone(f"{server.host}/statistics", lang)
    title = {"en": "Statistics", "it": "Statistiche"}[lang]
    assert page.inner_text("h1") == title
    assert page.locator("text=<i>Eve</i>").count() >= 1  # a name, shown as typed
    assert page.locator("i:text('Eve')").count() == 0
    check_readable(page)
    shots(page, f"statistics-01-host-{lang}")
    # the numbers under the play's chart, opened from its summary
    page.locator("#stats-play summary").click()
    rows = page.locator("#stats-play table tbody tr")
    assert rows.count() == 60
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator("#stats-play").scroll_into_view_if_needed()
    shots(page, f"statistics-02-play-{lang}", full=False)
    assert page.errors == []


@pytest.mark.browser
def test_the_statistics_on_the_table_display(server, phone, shots):
    key = server.companion.access.display_key
    page = phone(f"{server.base}/table/{key}", "it")
    page.goto(f"{server.base}/table/statistics")
    assert page.inner_text("h1") == "Statistiche"
    check_readable(page)
    shots(page, "statistics-03-table-it")
    other = phone(f"{server.base}/table/statistics")  # a phone without the display's cookie
    assert other.inner_text("h1") == "Only the table display"
