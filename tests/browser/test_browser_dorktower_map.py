"""Dork Tower's map at phone size (390x844): a hero moves only by tapping the map (the reachable
spaces ringed with their cost, a sheet asking how to cross a lake), in English and in Italian, by
night and, once the tower has turned, by day. Screenshots go to
tests/artifacts/screenshots/dtmap-*.png."""

from __future__ import annotations

import pytest
from dorktower_pages import map_shot, until
from support import Server, join_all, post

SCENARIO = {
    "heroes": {
        "Elena": {"character": "topdeck", "home": "rv-city", "xp": 3, "scrolls": ["water-walking"]},
        "Denise": {"character": "lumpin", "home": "th-city"},
    },
    "monsters": {"rv-crypt": ["orc"]},
    "tower_step": 0,
}


@pytest.fixture
def server(tmp_path):
    s = Server.start(tmp_path)
    yield s
    s.stop()


def settle(page) -> None:
    page.wait_for_selector("body:not([data-busy])", state="attached")


@pytest.mark.browser
def test_a_hero_moves_by_tapping_the_map(server, phone, shots):
    status, answer = post(
        f"{server.host}/api/new_game",
        {
            "confirm": True,
            "game": "dorktower",
            "players": ["Elena", "Denise"],
            "options": {"scenario": SCENARIO},
            "seed": 4,
        },
    )
    assert status == 200, answer
    links = join_all(server.host)
    elena = phone(links["Elena"])
    denise = phone(links["Denise"], "it")  # Denise reads Italian
    table = phone(f"{server.base}/table")
    table.set_viewport_size({"width": 1280, "height": 900})
    for page in (elena, denise, table):
        page.wait_for_selector("#dt-bmap .dt-map .mspace[data-space='rv-city']")

    # by night in Ravensteel: the reachable spaces are ringed with their cost, on Elena's phone only
    ring = "#dt-bmap .mspace.reach[data-space='{}']"
    elena.wait_for_selector(ring.format("iv-city"))
    assert elena.locator("#dt-bmap .mdeco[data-for='iv-city'] .cost-n").text_content() == "1"
    assert elena.locator(ring.format("rv-crypt")).count() == 1  # the orc ends the move there
    assert "fight" in elena.get_attribute(ring.format("rv-crypt"), "aria-label")
    assert (
        elena.locator("#dt-bmap .mspace[data-space='rv-city'] title")
        .text_content()
        .startswith("Ravensteel Keep, city, night")
    )
    assert denise.locator("#dt-bmap .mspace.reach").count() == 0
    assert denise.locator("#dt-bmap .mdeco[data-for='rv-city'] .mhero").count() == 1
    assert elena.locator("#dt-bmap .mwedge.night").count() == 4
    assert table.locator("#dt-bmap .mspace.reach").count() == 0  # the table shows no reach
    assert table.locator("#dt-bmap .mdeco[data-for='rv-crypt'] .monsters-n").text_content() == "⚔1"
    assert table.locator("#dt-bmap .mdeco[data-for='hw-flats'] .quest").count() == 1
    assert table.locator("#dt-bmap .border.lake").count() > 0
    assert table.locator("#dt-bmap .border.mountain").count() > 0
    map_shot(table, shots, "dtmap-00-table-en")
    map_shot(elena, shots, "dtmap-01-night-en")
    map_shot(denise, shots, "dtmap-02-night-it")

    # across the lake to Blackmere Shore: several ways, a sheet asks which one
    elena.click(ring.format("rv-mere") + " .dot")
    elena.wait_for_selector(".dt-route-sheet")
    way = elena.locator(".dt-route-sheet button.dt-act:has-text('Water Walking')")
    assert way.count() == 1
    elena.locator(".dt-route-sheet").evaluate("n => n.scrollIntoView()")
    shots(elena, "dtmap-03-how-to-cross-en", full=False)
    way.click()
    settle(elena)
    v = until(server, lambda v: v["players"]["Elena"]["space"] == "rv-mere")
    assert v["players"]["Elena"]["scroll_count"] == 0 and v["players"]["Elena"]["xp"] == 3
    assert v["moves_left"] == 3

    # on to the harbour in one tap: two steps, no XP
    elena.wait_for_selector(ring.format("rv-port"))
    elena.click(ring.format("rv-port") + " .dot")
    if elena.locator(".dt-route-sheet").count():
        elena.click(".dt-route-sheet button.dt-act.primary")
    settle(elena)
    v = until(server, lambda v: v["players"]["Elena"]["space"] == "rv-port")
    assert v["players"]["Elena"]["xp"] == 3 and v["moves_left"] == 2
    elena.wait_for_selector(
        "#dt-bmap .mspace.here[data-space='rv-port'] ~ .mdeco[data-for='rv-port'] .mhero"
    )

    # she stops in the city and turns the tower: day comes to Ravensteel
    elena.click("[data-action='stop']")
    until(server, lambda v: v["phase"] == "city")
    elena.click("[data-action='end_turn']")
    v = until(server, lambda v: v["active"] == "Denise" and v["tower"]["wedges"][0]["day"])
    elena.wait_for_selector("#dt-bmap .mspace[data-space='rv-port'][aria-label*='day']")
    assert elena.locator("#dt-bmap .mspace.reach").count() == 0
    assert (
        elena.locator("#dt-bmap .mspace[data-space='rv-port'] title")
        .text_content()
        .startswith("Ravensteel Harbour, city, day")
    )
    denise.wait_for_selector(ring.format("th-shadow"))
    assert "Tocca" in denise.inner_text("#dt-bmap .dt-map-hint")
    map_shot(elena, shots, "dtmap-04-day-en")
    map_shot(denise, shots, "dtmap-05-day-reach-it")
    for page in (elena, denise, table):
        assert not page.errors, page.errors
