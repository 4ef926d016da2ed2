"""Feedback where the person looks, on a phone at 390x844 in English and Italian: the answer to
the phone's own move in its sticky action bar (a penalty with its rule), the ✕ on lower spells
explained in visible words (a phone shows no tooltip), "End turn" reachable without scrolling,
and a pause that every phone shows with its inputs disabled, enabled again on resume.
Screenshots: tests/artifacts/screenshots/feedback-*.png."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from support import post, wait_until

PLAYERS = ["Elena", "Denise", "Marta"]
HEIGHT = 844

TEXTS = {
    "en": {
        "legend": "just cast: casting it costs 1 life and ends your turn (ABR-CAST-8)",
        "costs": "✕ costs 1 life",
        "penalty": "Elena loses 1 life and the turn ends.",
        "paused": "The host paused the game",
        "end": "End turn",
        "back": "Put the stone last laid on Elena's rack back in the reserve.",
    },
    "it": {
        "legend": "appena lanciato: lanciarlo costa 1 punto vita e finisce il turno (ABR-CAST-8)",
        "costs": "✕ costa 1 punto vita",
        "penalty": "Elena perde 1 punto vita e il turno finisce.",
        "paused": "L'host ha messo in pausa la partita",
        "end": "Termina il turno",
        "back": "Rimettete nella riserva l'ultima pietra messa tra le pietre di Elena.",
    },
}


def in_language(page, lang: str) -> None:
    """The phone chooses its language (the cookie the language link sets), and reloads."""
    host = urlsplit(page.url).hostname
    page.context.add_cookies(
        [{"name": "companion_lang", "value": lang, "domain": host, "path": "/"}]
    )
    page.reload()
    page.wait_for_selector("#conn.conn:not(.stale)")


def in_view(page, selector: str) -> bool:
    """Whether the element is on the screen as it is, with no scrolling."""
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_phone_says_why_where_the_player_looks(server, phone, shots, lang):
    text = TEXTS[lang]
    links = server.new_game(PLAYERS, seed=7)
    status, answer = post(f"{server.host}/sim/draw_all")
    assert answer["ok"], answer
    elena, denise = phone(links["Elena"]), phone(links["Denise"])
    for page in (elena, denise):
        in_language(page, lang)
    held = max(server.table.referee_view()["players"]["Elena"]["rack"])
    assert held >= 5
    elena.click(f"[data-action='cast-{held}']")
    wait_until(lambda: server.table.public_view()["phase"] == "remove")
    post(f"{server.host}/sim/remove")
    elena.wait_for_selector(f"#bar [data-action='end_turn']:text('{text['end']}')")

    # the ✕ is said in words on the button and above the spells; no tooltip carries it
    lower = elena.locator(f"[data-action='cast-{held - 1}']")
    assert text["costs"] in lower.inner_text()
    assert lower.get_attribute("title") is None
    assert text["legend"] in elena.inner_text("#lower-legend")

    # "End turn" in the sticky bar: on the screen at the top of the page and scrolled down
    elena.evaluate("window.scrollTo(0, 0)")
    assert in_view(elena, "#bar [data-action='end_turn']")
    elena.evaluate("window.scrollTo(0, document.body.scrollHeight / 2)")
    assert in_view(elena, "#bar [data-action='end_turn']")
    elena.evaluate("window.scrollTo(0, 0)")
    shots(elena, f"feedback-{lang}-1-lower-spells", full=False)

    # the lower spell costs a life: the answer is told at once in the bar, with its rule
    lower.click()
    elena.wait_for_selector("#feedback:not([hidden]):has-text('ABR-CAST-8')")
    said = elena.inner_text("#feedback")
    assert text["penalty"] in said and "(ABR-CAST-8)" in said, said
    assert (
        not said.startswith("Elena d") and "null" not in said
    )  # the penalty first, no declaration
    assert "bad" in elena.get_attribute("#feedback", "class")
    assert in_view(elena, "#feedback")
    shots(elena, f"feedback-{lang}-2-penalty", full=False)

    # Elena draws back to five; Denise's turn: her spells wait for her
    post(f"{server.host}/sim/draw_all")
    denise.wait_for_selector("[data-action^='cast-']:not([disabled])")

    # the host pauses: every phone says so and its inputs wait, disabled; resume gives them back
    status, answer = post(f"{server.host}/api/pause")
    assert answer["ok"], answer
    for page in (elena, denise):
        page.wait_for_selector("#paused-note:not([hidden])")
        assert text["paused"] in page.inner_text("#paused-note")
        assert in_view(page, "#paused-note")
        assert page.locator("#main button:not([disabled])").count() == 0
    assert denise.locator("#main [data-action^='cast-'][disabled]").count() == 8
    shots(denise, f"feedback-{lang}-3-paused", full=False)
    status, answer = post(f"{server.host}/api/resume")
    assert answer["ok"], answer
    denise.wait_for_selector("#paused-note", state="hidden")
    denise.wait_for_selector("[data-action^='cast-']:not([disabled])")
    assert denise.locator("#main [data-paused]").count() == 0

    # the host undoes Elena's draw: the pages say under the prompt what goes back by hand
    status, answer = post(f"{server.host}/api/undo")
    assert answer["ok"], answer
    denise.wait_for_selector("#put-back:not([hidden])")
    assert text["back"] in denise.inner_text("#put-back")
    shots(denise, f"feedback-{lang}-4-undone", full=False)
    host = phone(server.host)  # the host's page says it too, under its prompt
    in_language(host, lang)
    host.wait_for_selector("#put-back:not([hidden])")
    assert text["back"] in host.inner_text("#put-back")
    assert not elena.errors and not denise.errors, elena.errors + denise.errors
