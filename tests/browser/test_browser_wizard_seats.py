"""The wizard says when the table's seats, not the game, cap the players (at 390x844, in English
and Italian): the simulated table has five seats and Dork Tower allows six."""

from __future__ import annotations

import pytest
from support import Server


@pytest.fixture
def server(tmp_path):
    s = Server.start(tmp_path)
    yield s
    s.stop()


@pytest.mark.browser
def test_the_wizard_names_the_seat_limit_in_both_languages(server, phone, shots):
    host = phone(server.host)
    host.wait_for_selector("#conn:not(.stale)")
    for lang, text in (
        ("en", "up to 6 with more seats: this table has 5 (devices.seats)"),
        ("it", "fino a 6 con più posti: questo tavolo ne ha 5 (devices.seats)"),
    ):
        if lang == "it":
            host.context.add_cookies(
                [{"name": "companion_lang", "value": "it", "url": server.host}]
            )
            host.reload()
            host.wait_for_selector("#conn:not(.stale)")
        if host.locator("#new-game-card:not([open]) > summary").count():
            host.click("#new-game-card > summary")
        choice = host.locator("[data-choose-game='dorktower']")
        assert choice.locator("[data-seat-limit]").inner_text() == text
        assert host.locator("[data-choose-game='abracadawhat'] [data-seat-limit]").count() == 0
        choice.scroll_into_view_if_needed()
        shots(host, f"wizard-seats-{lang}", full=False)
