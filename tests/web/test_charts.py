"""The server's SVG charts (companion.web.charts), read back as XML: bars and points counted,
labels escaped, long series thinned, the palette's order, a distinct marker and dash per series,
and the table under every chart."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from companion.table.plays import Play, Point
from companion.web.charts import (
    DASHES,
    MARKERS,
    MAX_POINTS,
    PALETTE,
    Bars,
    Lines,
    bar_svg,
    cut,
    figure,
    line_svg,
    marker,
    nice_ticks,
    play_chart,
    thin,
)

SVG = "{http://www.w3.org/2000/svg}"
NASTY = '<script>alert("x")</script> & Co'


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.get("role") == "img" and root.get("aria-label")
    assert root.find(f"{SVG}title") is not None
    assert root.get("viewBox").startswith("0 0 360 ")
    assert "style" not in svg  # the pages' CSP forbids inline styles
    return root


def texts(root: ET.Element) -> list[str]:
    return [el.text or "" for el in root.iter(f"{SVG}text")]


def test_bars_one_per_label_with_values_and_an_expected_line():
    bars = Bars("Wins", ["Ann", "Ben", "Cy"], [3, 1, 2], "Wins", expected=2, expected_label="Par")
    root = parse(bar_svg(bars))
    rects = root.findall(f".//{SVG}g[@class='bars']/{SVG}rect")
    assert len(rects) == 3
    widths = [float(r.get("width")) for r in rects]
    assert widths[0] > widths[2] > widths[1] > 0
    assert widths[0] / widths[1] == __import__("pytest").approx(3.0, rel=1e-2)
    assert [r.find(f"{SVG}title").text for r in rects] == ["Ann: 3", "Ben: 1", "Cy: 2"]
    assert len(root.findall(f".//{SVG}line[@class='expected-line']")) == 1
    assert "Par" in texts(root)
    assert [t for t in texts(root)][:6:2] == ["Ann", "Ben", "Cy"]


def test_bars_with_one_expected_value_per_bar_get_a_mark_each():
    bars = Bars("Die 1", list("123456"), [5, 9, 7, 6, 8, 5], "Rolls", expected=[6.7] * 6)
    root = parse(bar_svg(bars))
    assert len(root.findall(f".//{SVG}line[@class='expected-mark']")) == 6
    assert root.find(f".//{SVG}line[@class='expected-line']") is None


def test_labels_are_escaped_and_long_ones_cut():
    long = "Bartholomew-Maximilian"
    svg = bar_svg(Bars(NASTY, [NASTY, long], [1, 2], NASTY))
    assert "<script>" not in svg
    root = parse(svg)  # well-formed despite the name
    assert root.get("aria-label") == NASTY
    assert cut(long, 13) == "Bartholomew-…" and "Bartholomew-…" in texts(root)
    rect = root.findall(f".//{SVG}rect")[1]
    assert rect.find(f"{SVG}title").text == f"{long}: 2"  # whole in the tooltip


def test_bars_are_bounded_and_bad_numbers_draw_as_zero():
    root = parse(bar_svg(Bars("Many", [str(i) for i in range(100)], [1] * 100, "n")))
    assert len(root.findall(f".//{SVG}g[@class='bars']/{SVG}rect")) == 40
    root = parse(bar_svg(Bars("Odd", ["a", "b", "c"], [float("nan"), float("inf"), -3], "n")))
    assert [float(r.get("width")) for r in root.iter(f"{SVG}rect")] == [0.0, 0.0, 0.0]
    parse(bar_svg(Bars("None", [], [], "n")))  # nothing to draw: still a chart


def series_of(root: ET.Element) -> list[ET.Element]:
    return root.findall(f".//{SVG}g[@class='series']")


def test_lines_a_point_per_step_in_palette_order_with_distinct_markers_and_dashes():
    names = ["Ann", "Ben", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
    lines = Lines(
        "Scores",
        "Action",
        "Score",
        [1, 2, 3, 4],
        [(n, [0, i, i * 2, i]) for i, n in enumerate(names)],
    )
    root = parse(line_svg(lines))
    groups = series_of(root)
    assert len(groups) == 8
    paths = [g.find(f"{SVG}path[@class='line']") for g in groups]
    assert [p.get("stroke") for p in paths] == list(PALETTE)
    assert [p.get("d").count("L") + 1 for p in paths] == [4] * 8
    assert [g.get("data-marker") for g in groups] == list(MARKERS)
    assert len(set(MARKERS)) == len(set(DASHES)) == 8
    assert [p.get("stroke-dasharray") for p in paths[1:]] == list(DASHES[1:])
    assert paths[0].get("stroke-dasharray") is None  # the first is solid
    for g in groups:  # every point marked with the series' own marker
        marks = [el for el in g if el.get("class") != "line"]
        assert len(marks) == 4
        d = g.find(f"{SVG}path").get("d")
        x, y = (float(v) for v in d[1:].split("L")[0].split())
        drawn = (
            ET.tostring(marks[0], encoding="unicode")
            .replace(' xmlns:ns0="http://www.w3.org/2000/svg"', "")
            .replace("ns0:", "")
        )
        expected = ET.tostring(
            ET.fromstring(
                f"<g>{marker(g.get('data-marker'), x, y, paths[groups.index(g)].get('stroke'))}</g>"
            )[0],
            encoding="unicode",
        )
        assert drawn == expected
    legend = root.find(f".//{SVG}g[@class='legend']")
    assert [t.text for t in legend.iter(f"{SVG}text")] == names


def test_a_missing_score_is_a_gap():
    root = parse(line_svg(Lines("S", "x", "y", [1, 2, 3, 4], [("Ann", [1, None, 3, 4])])))
    d = series_of(root)[0].find(f"{SVG}path").get("d")
    assert d.count("M") == 2 and d.count("L") == 1


def test_thousands_of_points_are_thinned():
    assert thin(5) == [0, 1, 2, 3, 4]
    kept = thin(5000)
    assert len(kept) == MAX_POINTS and kept[0] == 0 and kept[-1] == 4999
    lines = Lines(
        "Long", "x", "y", list(range(1, 5001)), [("Ann", list(range(5000))), ("Ben", [1] * 5000)]
    )
    svg = line_svg(lines)
    root = parse(svg)
    for g in series_of(root):
        assert g.find(f"{SVG}path").get("d").count("L") + 1 == MAX_POINTS
        assert len(list(g)) - 1 <= 13  # a dozen markers or so, not thousands
    assert len(svg) < 40_000


def test_nice_ticks():
    assert nice_ticks(0, 10) == [0, 2.5, 5, 7.5, 10]
    assert nice_ticks(0, 100) == [0, 25, 50, 75, 100]
    assert nice_ticks(3, 3) == [3, 3.25, 3.5, 3.75, 4]


def test_figure_has_a_table_of_the_numbers():
    bars = Bars("Win rate", ["Ann", NASTY], [50, 25], "%", expected=20)
    html = figure(bars, "The numbers", headers=["Player", "Win rate", "Expected"])
    root = ET.fromstring(html)
    assert root.tag == "figure" and root.find("figcaption").text == "Win rate"
    table = root.find(".//table")
    assert [th.text for th in table.find("thead").iter("th")] == ["Player", "Win rate", "Expected"]
    rows = table.find("tbody").findall("tr")
    assert [[c.text for c in row] for row in rows] == [["Ann", "50", "20"], [NASTY, "25", "20"]]


def test_play_chart():
    play = Play(
        id=7, game="dorktower", started_at="2026-11-28T20:00:00Z", ended_at="2026-11-28T21:00:00Z",
        duration=3600, players=["Ann", NASTY], options={}, data_set=None, finished=True,
        winners=["Ann"], scores={"Ann": 5, NASTY: 3}, start_player="Ann", actions=3,
    )  # fmt: skip
    points = [
        Point(1, "2026-11-28T20:01:00Z", {"Ann": 1, NASTY: 0}),
        Point(2, "2026-11-28T20:02:00Z", {"Ann": 3, NASTY: 3}),
        Point(3, "2026-11-28T20:03:00Z", {"Ann": 5, NASTY: None}),
    ]
    labels = {"title": "Scores", "x": "Action", "y": "XP", "numbers": "Numbers", "action": "#"}
    html = play_chart(play, points, labels)
    root = ET.fromstring(html)
    svg = root.find(f"{SVG}svg")
    assert len(series_of(svg)) == 2
    rows = root.find(".//table/tbody").findall("tr")
    assert [[c.text or "" for c in row] for row in rows] == [
        ["1", "1", "0"],
        ["2", "3", "3"],
        ["3", "5", ""],
    ]
    assert [th.text for th in root.find(".//table/thead").iter("th")] == ["#", "Ann", NASTY]


def test_the_markers_are_drawn_unlike_each_other():
    drawings = {shape: marker(shape, 0, 0, "#000000") for shape in MARKERS}
    assert len(set(drawings.values())) == len(MARKERS) == 8
    assert drawings["circle"].startswith("<circle")
    assert 'fill="none"' in drawings["plus"] and 'fill="none"' in drawings["cross"]


def test_a_chart_without_any_score_says_so():
    lines = Lines("S", "x", "y", [1, 2], [("Ann", [None, None])], empty="No scores to draw")
    root = parse(line_svg(lines))
    assert [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "empty"] == [
        "No scores to draw"
    ]
    assert series_of(root)[0].find(f"{SVG}path") is None  # no line, no marker
    assert len(list(series_of(root)[0])) == 0
