"""The new-game wizard speaks player (the issue's item 7), at 390x844: the names start empty with
a placeholder and an empty one is named by its seat; every option is a label, a sentence and its
rule as a small reference, set by checkboxes, radio buttons and selects (never typed as JSON);
the review says the changes in words; the game starts with the options chosen."""

from __future__ import annotations

import re

import pytest
from support import Server, wait_until

OPTION_ROW = "#options > .option"


@pytest.fixture
def server(tmp_path):
    s = Server.start(tmp_path)
    yield s
    s.stop()


def italian(page, base: str) -> None:
    page.context.add_cookies([{"name": "companion_lang", "value": "it", "url": base}])
    page.reload()


def to_step(page, step: str) -> None:
    page.click("#wizard-next")
    page.wait_for_selector(f".step[data-step='{step}']:not([hidden])")


def options_in_words(page, count: int) -> None:
    """Every option shown: a label, a sentence, a rule reference; no field to type into."""
    rows = page.locator(OPTION_ROW)
    assert rows.count() == count
    for row in rows.all():
        text = row.inner_text()
        label = row.locator("strong, legend").first.inner_text()
        assert label and "_" not in label and not re.search(r"[A-Z]+-[A-Z]+-\d", label), label
        assert re.search(
            r"\b(rule|regola) [A-Z]+-[A-Z]+-\d+", row.locator(".rule-ref").inner_text()
        )
        assert "_" not in text and "[" not in text and "{" not in text, text
    assert page.locator("#options input:not([type=checkbox]):not([type=radio])").count() == 0


@pytest.mark.browser
def test_the_wizard_speaks_player_in_both_languages(server, phone, shots):
    host = phone(server.host)
    host.wait_for_selector("#conn:not(.stale)")
    if host.locator("#new-game-card:not([open]) > summary").count():
        host.click("#new-game-card > summary")
    host.click("[data-choose-game='abracadawhat']")
    to_step(host, "players")
    names = host.locator("#players-field input")
    assert [names.nth(i).input_value() for i in range(names.count())] == ["", "", ""]
    assert names.first.get_attribute("placeholder") == "Name of who sits here"
    host.click("#wizard-next")
    host.wait_for_selector("#toast:not([hidden])")
    assert host.inner_text("#toast") == "Seat 1 has no name yet: type the name of who sits there."
    assert host.is_visible(".step[data-step='players']")  # nothing moved on
    assert host.evaluate(
        "document.activeElement === document.querySelector('#players-field input')"
    )
    names.nth(0).fill("Ann")
    names.nth(2).fill("Cyd")
    host.click("#wizard-next")
    host.wait_for_selector("#toast:has-text('Seat 2 has no name yet')")
    names.nth(1).fill("Bo")
    for step in ("seats", "colours", "options"):
        to_step(host, step)
    options_in_words(host, 8)
    faces = host.locator("#options input[name='die_faces']")
    assert [faces.nth(i).get_attribute("value") for i in range(faces.count())] == list("123456")
    assert host.inner_text("label:has(input[name='easy'])").startswith("Easy version")
    shots(host, "wizard-words-en-options", full=False)
    faces.nth(5).uncheck()
    host.check("#options input[name='order_violation'][value='require_objection']")
    host.select_option("#options select[name='start_life']", "5")
    to_step(host, "review")
    review = host.inner_text("#review")
    assert "The die's faces: 1, 2, 3, 4, 5" in review, review
    assert "A lower spell after a success: Another player has to object first" in review
    assert "Life at the start: 5" in review
    assert "=" not in review and "_" not in review and "[" not in review, review
    shots(host, "wizard-words-en-review", full=False)
    host.click("#start")
    options = wait_until(lambda: server.table.history and server.table.history.state)["options"]
    assert options["die_faces"] == [1, 2, 3, 4, 5] and options["start_life"] == 5
    assert options["order_violation"] == "require_objection"

    # Dork Tower's, in Italian: every option but the arranged start (a replay's), in words
    italian(host, server.base)
    host.wait_for_selector("#conn:not(.stale)")
    if host.locator("#new-game-card:not([open]) > summary").count():
        host.click("#new-game-card > summary")
    while host.is_enabled("#wizard-back"):
        host.click("#wizard-back")
    host.click("[data-choose-game='dorktower']")
    to_step(host, "players")
    host.locator("#players-field input").first.fill("")
    host.click("#wizard-next")
    host.wait_for_selector("#toast:has-text('Il posto 1 non ha ancora un nome')")
    for i, name in enumerate(["Ann", "Bo", "Cyd"]):
        host.locator("#players-field input").nth(i).fill(name)
    for step in ("seats", "colours", "options"):
        to_step(host, step)
    options_in_words(host, 13)  # the scroll windows' countdown among them
    assert host.locator("#options [name='scenario']").count() == 0
    data_set = host.locator("#options select[name='data_set'] option")
    assert data_set.first.get_attribute("value") == "example"
    assert data_set.first.inner_text().startswith("Esempio inventato")  # the set's title in Italian
    assert host.inner_text("label:has(input[name='start_roll'])").startswith(
        "Tiro per chi comincia"
    )
    shots(host, "wizard-words-it-options", full=False)
    host.uncheck("#options input[name='start_roll']")
    host.check("#options input[name='trade_windows'][value='none']")
    to_step(host, "review")
    review = host.inner_text("#review")
    assert "Tiro per chi comincia: no" in review and "Quando gli eroi commerciano: Mai" in review
    shots(host, "wizard-words-it-review", full=False)
    assert not host.errors, host.errors
