"""The host's dice fairness pages in headless Chromium at phone size (390x844), in English and
Italian: the list of dice from the host page, a suspicious die's page with its chart, test and
verdict, and a virtual die's. Audited by axe-core like every browser test. Screenshots go to
tests/artifacts/screenshots/dice-fairness-*.png."""

from __future__ import annotations

import random

import pytest
from support import Server
from test_browser_languages import Catalogs, Looker

from companion.table.dice_store import PLACED, READ, VIRTUAL, Roll

D6 = ("1", "2", "3", "4", "5", "6")


@pytest.fixture
def server(tmp_path):
    s = Server.start(tmp_path)
    rng = random.Random(17)
    # die 0: loaded on the six (twice the others' weight), 300 read rolls; a few set down
    loaded = rng.choices(D6, [1, 1, 1, 1, 1, 2], k=300)
    rolls = [Roll("dice", 0, "d6", D6, face, READ, None) for face in loaded]
    rolls += [Roll("dice", 0, "d6", D6, face, PLACED, None) for face in ("2", "6", "6")]
    # die 1: fair, 80 rolls so far; and two virtual rolls of a battle die
    rolls += [Roll("dice", 1, "d6", D6, rng.choice(D6), READ, None) for _ in range(80)]
    battle = ("1", "2", "2P", "3", "4", "5")
    rolls += [Roll("virtual", 0, "battle", battle, f, VIRTUAL, None) for f in ("2P", "4")]
    s.table.store.keep_rolls(rolls, "2026-11-29T06:00:00")
    yield s
    s.stop()


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def speaks(looker, page, lang: str, where: str) -> None:
    """Nothing wider than a 360 or 390 px phone, and no visible text of the other language
    (the languages test's own check), then back to 390 px."""
    looker.widths(page, lang, where)
    page.set_viewport_size({"width": 390, "height": 844})
    assert looker.problems == []


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_dice_pages_on_a_phone(server, phone, shots, lang):
    words = {
        "en": ("Dice fairness", "suspicious", "needs more rolls", "Suspicious:", "virtual die 0"),
        "it": ("Equità dei dadi", "sospetto", "servono più lanci", "Sospetto:", "dado virtuale 0"),
    }[lang]
    looker = Looker(Catalogs(), shots)
    host = phone(server.host, lang)
    host.click(f"text={words[0]}")
    host.wait_for_url("**/dice")
    dice = host.locator("#dice > li")
    assert dice.count() == 2
    assert words[1] in dice.nth(0).inner_text() and words[2] in dice.nth(1).inner_text()
    assert words[4] in host.inner_text("#virtual-dice")
    fits(host)
    speaks(looker, host, lang, "dice list")
    shots(host, f"dice-fairness-{lang}-1-list")

    dice.nth(0).locator("a").click()
    host.wait_for_selector("#verdict")
    assert host.inner_text("#verdict").startswith(words[3])
    assert host.inner_text("#test-rolls") == "300" and host.inner_text("#test-df") == "5"
    chart = host.locator("svg.dice-chart")
    assert chart.get_attribute("role") == "img"
    box = chart.bounding_box()
    assert 300 <= box["width"] <= 390 and box["height"] > 150  # the chart fills the phone
    assert host.locator("svg.dice-chart rect").count() == 6
    assert host.locator("#counts tbody tr").count() == 6
    assert host.locator("#placed tbody tr").count() == 6
    fits(host)
    speaks(looker, host, lang, "a suspicious die")
    shots(host, f"dice-fairness-{lang}-2-suspicious")

    host.go_back()
    host.click(f"#virtual-dice >> text={words[4]}")
    host.wait_for_selector("#verdict")
    assert host.locator("#test").count() == 0  # never tested
    fits(host)
    speaks(looker, host, lang, "a virtual die")
    shots(host, f"dice-fairness-{lang}-3-virtual")
    assert host.errors == []
