"""What an undo asks to put back, as a checklist on a phone and the table display at 390x844, in
English and Italian: the host undoes a tapped removal; a player's phone, the table display and the
host page list the step with how it is confirmed (a tap on the board's reader); the simulated
hands put the stone back and tap it, and every page ticks the step off; the host dismisses the
list, and it goes from every page. Screenshots: tests/artifacts/screenshots/put-back-*.png."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from support import post, wait_until

PLAYERS = ["Elena", "Denise", "Marta"]

TEXTS = {
    "en": {
        "step": "Put the {n} from the board back on {player}'s rack.",
        "how": "tap it on the board's reader",
        "left": "Still to put back: 1 of 1.",
        "done": "Everything is put back.",
        "dismiss": "Dismiss the list",
    },
    "it": {
        "step": "Rimettete la pietra {n} dalla plancia tra le pietre di {player}.",
        "how": "toccalo sul lettore della plancia",
        "left": "Ancora da rimettere a posto: 1 su 1.",
        "done": "Tutto è rimesso a posto.",
        "dismiss": "Chiudi l'elenco",
    },
}


def in_language(page, lang: str) -> None:
    """The page's language chosen (the cookie the language link sets), and reloaded."""
    host = urlsplit(page.url).hostname
    page.context.add_cookies(
        [{"name": "companion_lang", "value": lang, "domain": host, "path": "/"}]
    )
    page.reload()
    page.wait_for_selector("#conn.conn:not(.stale)")


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_checklist_of_what_to_put_back(server, phone, shots, lang):
    text = TEXTS[lang]
    for seed in range(1, 60):
        links = server.new_game(PLAYERS, {"removal": "tap"}, seed=seed)
        assert post(f"{server.host}/sim/draw_all")[1]["ok"]
        view = server.table.referee_view()
        caster = view["active"]
        rack = [n for n in view["players"][caster]["rack"] if n not in (1, 3, 4)]
        if rack:
            break
    stone = max(rack)
    assert post(f"{links[caster]}/api/action", {"type": "cast", "spell": stone})[1]["ok"]
    assert post(f"{server.host}/sim/remove")[1]["ok"]
    assert post(f"{server.host}/api/undo")[1]["ok"]
    other = next(p for p in PLAYERS if p != caster)
    pages = {
        "phone": phone(links[other]),
        "table": phone(f"{server.base}/table"),
        "host": phone(server.host),
    }
    step = text["step"].format(n=stone, player=caster)
    for name, page in pages.items():
        in_language(page, lang)
        page.wait_for_selector("#put-back:not([hidden]) .put-back-steps li")
        shown = page.inner_text("#put-back")
        assert step in shown and text["how"] in shown and text["left"] in shown, shown
        assert page.locator("#put-back li.done").count() == 0
        page.locator("#put-back").scroll_into_view_if_needed()
        shots(page, f"put-back-{lang}-{name}-1-waiting", full=False)
    outcomes = server.companion.sim.put_back()
    assert [o.get("confirmed") for o in outcomes] == [1]
    for name, page in pages.items():
        page.wait_for_selector("#put-back li.done")
        assert text["done"] in page.inner_text("#put-back")
        shots(page, f"put-back-{lang}-{name}-2-done", full=False)
    wait_until(lambda: server.table.put_back_seats() == frozenset())
    pages["host"].locator("#put-back button", has_text=text["dismiss"]).click()  # the host's
    for page in pages.values():
        page.wait_for_selector("#put-back", state="hidden")
    assert pages["phone"].locator("#put-back button").count() == 0
    for page in pages.values():
        assert not page.errors, page.errors
