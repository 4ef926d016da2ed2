"""A game written outside the companion (the tests' Race to Ten, ``tests/toy_game``) on the
pages: the host sets it up with the wizard, each player's phone and the table display load its
page module by id, a player ends a turn from the phone, the simulated table rolls the die."""

from __future__ import annotations

import pytest
from support import Server, join_all, post
from toy_game import PLUGIN

from companion.games import register, unregister

pytestmark = pytest.mark.browser


@pytest.fixture
def server(tmp_path):
    register(PLUGIN)
    try:
        s = Server.start(tmp_path)
        yield s
        s.stop()
    finally:
        unregister(PLUGIN.id)


def test_a_toy_game_is_played_on_the_phones(server, phone, wizard):
    host = phone(server.host)
    wizard(host, game="toy", players=["Ann", "Ben"])
    # the game's own control in the simulation panel
    host.wait_for_selector("[data-sim='tap_bonus']")
    links = join_all(server.host)
    table = phone(f"{server.base}/table")
    table.wait_for_selector("#toy-track li[data-player='Ben']")
    ann = phone(links["Ann"])
    ann.wait_for_selector("#toy-track")
    status, answer = post(f"{server.host}/sim/roll", {"face": 4})
    assert status == 200 and answer["ok"], answer
    ann.wait_for_selector("#toy-choices button[data-action='end_turn']")
    assert "4 of 10" in table.inner_text("#toy-track li[data-player='Ann']")
    ann.click("#toy-choices button[data-action='end_turn']")
    table.locator("#prompt", has_text="Ben rolls").wait_for()
    assert server.table.referee_view()["active"] == "Ben"
    assert not ann.errors and not table.errors and not host.errors, (
        ann.errors + table.errors + host.errors
    )
