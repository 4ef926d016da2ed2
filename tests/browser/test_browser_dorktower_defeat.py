"""A dungeon defeat on the fighter's phone at 390x844, in English and Italian: the prompt says
that nobody flees from a dungeon (DT-SPACE-8, DT-DEFEAT-3) and only "Die" is offered."""

from __future__ import annotations

import pytest
from support import Server, join_all, post

SCENARIO = {
    "heroes": {
        "Ann": {"character": "topdeck", "home": "rv-city", "space": "rv-crypt"},
        "Bo": {"character": "lumpin", "home": "th-city"},
    },
    "monsters": {"rv-crypt": ["ogre"]},
}


@pytest.fixture
def server(tmp_path):
    s = Server.start(tmp_path)
    yield s
    s.stop()


@pytest.mark.browser
def test_a_dungeon_defeat_says_why_there_is_no_fleeing(server, phone, shots):
    status, answer = post(
        f"{server.host}/api/new_game",
        {
            "game": "dorktower",
            "players": ["Ann", "Bo"],
            "options": {"start_roll": False, "scenario": SCENARIO},
            "seed": 1,
            "confirm": True,
        },
    )
    assert status == 200, answer
    for action in ({"type": "stop", "player": "Ann"}, {"type": "roll", "values": [1, 1]}):
        assert server.table.call("action", "host", action=action)["ok"]
    assert server.table.history.state["phase"] == "defeat"
    links = join_all(server.host)
    for lang, words, die in (
        ("en", "Nobody flees from a dungeon (DT-SPACE-8, DT-DEFEAT-3).", "Die"),
        ("it", "Nessuno scappa da un dungeon (DT-SPACE-8, DT-DEFEAT-3).", "Muori"),
    ):
        page = phone(links["Ann"], lang=lang)
        page.wait_for_selector("[data-action='die']")
        assert words in page.inner_text("body")
        assert page.locator("[data-action^='flee']").count() == 0
        assert page.inner_text("[data-action='die']").startswith(die)
        shots(page, f"dt-defeat-dungeon-{lang}", full=False)
        page.locator("[data-action='die']").scroll_into_view_if_needed()
        shots(page, f"dt-defeat-dungeon-{lang}-choices", full=False)
