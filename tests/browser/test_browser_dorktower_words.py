"""Dork Tower's data set in Italian on an Italian phone (390x844): the hero sheet, a fight and a
city's shop show the example set's Italian names (its ``it.json``): slot types, items, scrolls,
monsters, spaces; no English name the set translates is visible. Screenshots go to
tests/artifacts/screenshots/dt-it-NN-*.png."""

from __future__ import annotations

import re

import pytest
from support import Server, join_all, post, wait_until

from companion.games import get_game
from companion.games.dorktower.rules.data.languages import words

DATA = get_game("dorktower").datasets["example"]
#: English name -> Italian, where the two differ (a name the same in both tells nothing)
ITALIAN = {en: it for en, it in words(DATA, "it").items() if en != it and len(en) < 40}

#: the texts a person sees: text nodes of visible elements
TEXTS = """() => {
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.replace(/\\s+/g, " ").trim();
    const parent = n.parentElement;
    if (!text || !parent || parent.closest("script, style, template, noscript")) continue;
    if (parent.checkVisibility({ visibilityProperty: true })) texts.push(text);
  }
  return texts;
}"""


def english_left(page) -> list[str]:
    """The English names (of the set's, translated otherwise) a visible text still shows."""
    shown = "\n".join(page.evaluate(TEXTS))
    return sorted(en for en in ITALIAN if re.search(rf"(?<![\w']){re.escape(en)}(?![\w'])", shown))


@pytest.fixture
def server(tmp_path):
    s = Server.start(tmp_path)
    yield s
    s.stop()


def start(server, heroes, monsters=None) -> dict[str, str]:
    status, answer = post(
        f"{server.host}/api/new_game",
        {
            "confirm": True,
            "game": "dorktower",
            "players": ["Ann", "Bo"],
            "options": {"scenario": {"heroes": heroes, "monsters": monsters or {}}},
            "seed": 2,
        },
    )
    assert status == 200, answer
    return join_all(server.host)


def view(server):
    return server.table.public_view()


def card_shot(page, selector: str, shots, name: str) -> None:
    """The phone's screen with one card at its top, the toast put away."""
    page.evaluate("document.getElementById('toast').hidden = true")
    page.locator(selector).first.evaluate(
        "n => window.scrollTo(0, n.getBoundingClientRect().top + window.scrollY - 56)"
    )
    shots(page, name, full=False)


def tap(page, key: str) -> None:
    page.click(f"[data-action='{key}']")
    page.wait_for_selector("body:not([data-busy])", state="attached")


@pytest.mark.browser
def test_the_sheet_a_fight_and_a_shop_in_italian(server, phone, shots):
    heroes = {
        "Ann": {
            "character": "topdeck",
            "home": "rv-city",
            "items": [{"card": "dagger"}, {"card": "chain-mail"}, {"card": "lucky-ring"}],
            "scrolls": ["strength-of-ten"],
        },
        "Bo": {"character": "lumpin", "home": "th-city"},
    }
    links = start(server, heroes, {"rv-wood": ["mummy", "orc-shaman"]})
    ann = phone(links["Ann"], "it")
    ann.wait_for_selector("#dt-sheet .dt-scroll")
    sheet = ann.inner_text("#dt-sheet")
    for italian in ("Pugnale", "Cotta di Maglia", "arma", "armatura", "Forza di Dieci"):
        assert italian in sheet, italian
    assert "Prima del tuo tiro di combattimento: +2 al tuo totale." in sheet
    card_shot(ann, "#dt-sheet", shots, "dt-it-01-sheet")
    assert english_left(ann) == []

    bo = phone(links["Bo"])  # an English phone at the same table
    bo.wait_for_selector("#dt-sheet")
    tap(ann, "step-rv-wood")
    wait_until(lambda: view(server)["phase"] == "scrolls_own")
    ann.wait_for_selector("#dt-fight-card:has-text('Mummia')")
    fight = ann.inner_text("#dt-fight-card")
    assert "Sciamano Orco" in fight and "non morto" in fight
    label = ann.eval_on_selector(
        "#dt-fight-card .num", "n => getComputedStyle(n, '::before').content"
    )
    assert label == '"forza "'
    card_shot(ann, "#dt-fight-card", shots, "dt-it-02-fight")
    bo.wait_for_selector("#dt-fight-card:has-text('Orc Shaman')")
    english = bo.inner_text("#dt-fight-card")
    assert "Mummy" in english and "undead" in english and "Mummia" not in english
    label = bo.eval_on_selector(
        "#dt-fight-card .num", "n => getComputedStyle(n, '::before').content"
    )
    assert label == '"strength "'
    card_shot(bo, "#dt-fight-card", shots, "dt-en-02-fight")
    assert english_left(ann) == []

    links = start(server, heroes)
    ann = phone(links["Ann"], "it")
    ann.wait_for_selector("[data-action='stop']")
    tap(ann, "stop")
    wait_until(lambda: view(server)["phase"] == "city")
    tap(ann, "shop")
    status, answer = post(f"{server.host}/sim/draw_all", {})
    assert status == 200, answer
    shop = wait_until(lambda: (view(server)["shop"] or {}).get("cards"))
    card = DATA["translations"]["it"]["items"][shop[0]["card"]]
    ann.wait_for_selector(f"text={card['magic']}")
    assert card["equipment"] in ann.inner_text("body")
    card_shot(ann, "#actions-card", shots, "dt-it-03-shop")
    assert english_left(ann) == []
    assert not ann.errors, ann.errors
