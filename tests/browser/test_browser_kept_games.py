"""No game is lost by a tap, in headless Chromium at 390x844: the host starts a game and a move is
played; opening "New game" again starts at the wizard's first step; starting another game asks
first, naming the running game and its round; confirmed, the new game runs, the player's page of
the first one says its game left the table, the host's list shows the first game, and resuming
it brings it back exactly (the same state and events) and the player's page back by itself. In
Italian the dialog, the list and the end's confirmation. Screenshots go to
tests/artifacts/screenshots/kept-*.png."""

from __future__ import annotations

import json

import pytest
from support import Server, wait_until

PLAYERS = ["Elena", "Denise", "Marta"]
NOTES = {"game_started", "paused", "resumed", "game_set_aside", "game_resumed", "seat_claimed"}


@pytest.fixture
def server(tmp_path):
    s = Server.start(tmp_path)
    yield s
    s.stop()


def exactly(server) -> tuple[str, list]:
    """The game at the table as its log makes it: its state and its events."""
    table = server.table
    events = [(e["at"], e["event"]) for e in table.events if e["event"]["type"] not in NOTES]
    return json.dumps(table.history.state, sort_keys=True), events


def wizard_at_first_step(host) -> None:
    host.wait_for_selector(".step[data-step='game']:not([hidden])")
    assert not host.is_visible("#start")


def to_last_step(host) -> None:
    """Through the wizard to its last step, naming the seats left without a name."""
    for _ in range(5):
        for n, field in enumerate(host.locator("#players-field input:visible").all()):
            if not field.input_value():
                field.fill(f"Player {n + 1}")
        host.click("#wizard-next")


def confirm_dialog(host, shots=None, name: str = "") -> str:
    host.wait_for_selector("#confirm-dialog[open]")
    text = host.inner_text("#confirm-text")
    if shots is not None:
        shots(host, name, full=False)
    return text


@pytest.mark.browser
@pytest.mark.slow
def test_a_running_game_is_set_aside_and_resumed_exactly(server, phone, join, wizard, shots):
    host = phone(server.host)
    host.wait_for_selector("#conn:text('Live')")
    wizard(host, "abracadawhat", PLAYERS)
    host.wait_for_selector("a[data-join='Elena']")
    elena = join(host.get_attribute("a[data-join='Elena']", "href"))
    elena.wait_for_selector("#conn:text('Live')")
    first = server.table.record.id
    # the stones are dealt on the simulated table, and Elena plays a move on her phone
    host.click("#sim-draw-all")
    wait_until(lambda: server.table.public_view()["phase"] == "declare")
    handled = server.table.history.count
    elena.click("[data-action='cast-1']")
    wait_until(lambda: server.table.history.count > handled)
    before = exactly(server)

    # "New game" opens at its first step, and the start asks first
    host.click("#new-game-card > summary")
    wizard_at_first_step(host)
    wizard(host, "dorktower", ["Ann", "Bo", "Cy"])
    text = confirm_dialog(host, shots, "kept-en-01-new-game-dialog")
    assert text == (
        "A game of Abracada...What? is running (round 1). Set it aside and start a new one? "
        "It is kept: you can resume it."
    )
    assert host.inner_text("#confirm-yes") == "Set it aside and start"
    assert host.inner_text("#confirm-no") == "Cancel"
    assert server.table.record.id == first  # nothing yet
    host.click("#confirm-yes")
    wait_until(lambda: server.table.record.game == "dorktower")
    second = server.table.record.id

    # Elena's page says plainly that her game left the table, not that it is reconnecting
    elena.wait_for_selector("#prompt:text('Your game is no longer at the table')")
    assert "scan your seat's code on the table display" in elena.inner_text("#sub")
    assert elena.inner_text("#conn") == "Not at the table"
    assert not elena.is_visible(".stale-note")
    assert elena.locator("[data-action]").count() == 0
    shots(elena, "kept-en-02-player-not-at-the-table", full=False)

    # the list shows the first game, set aside in round 1
    item = host.locator(f"[data-kept-game='{first}']")
    item.wait_for()
    listed = item.inner_text()
    assert "Abracada...What?" in listed and "Elena, Denise, Marta" in listed
    assert "round 1" in listed and "set aside" in listed
    item.scroll_into_view_if_needed()
    shots(host, "kept-en-03-list", full=False)

    # resume it: the dialog names the running game, and the first one comes back exactly
    item.locator("[data-resume]").click()
    text = confirm_dialog(host)
    assert text.startswith("A game of Dork Tower is running (before the first turn).")
    host.click("#confirm-yes")
    wait_until(lambda: server.table.record.id == first)
    assert exactly(server) == before
    host.wait_for_selector(f"[data-kept-game='{second}']")
    # and Elena's page comes back by itself, her game drawn again
    elena.wait_for_selector("#conn:text('Live')", timeout=15000)
    elena.wait_for_selector("body[data-game='abracadawhat']")
    assert "no longer at the table" not in elena.inner_text("#prompt")

    # in Italian: the wizard reopened after reaching its last step starts over at step 1
    host.context.add_cookies([{"name": "companion_lang", "value": "it", "url": server.base}])
    host.reload()
    host.wait_for_selector("#conn:not(.stale)")
    if not host.is_visible("#wizard-next"):
        host.click("#new-game-card > summary")
    to_last_step(host)
    host.wait_for_selector("#start")
    host.click("#new-game-card > summary")  # closed on the start button
    host.click("#new-game-card > summary")  # and opened again
    wizard_at_first_step(host)
    to_last_step(host)
    host.click("#start")
    text = confirm_dialog(host, shots, "kept-it-01-new-game-dialog")
    assert text.startswith("È in corso una partita a Abracada...What? (round 1).")
    assert host.inner_text("#confirm-yes") == "Mettila da parte e inizia"
    host.click("#confirm-no")  # cancelled: nothing changes
    host.wait_for_selector("#confirm-dialog:not([open])", state="attached")
    assert server.table.record.id == first and exactly(server) == before
    item = host.locator(f"[data-kept-game='{second}']")
    assert "prima del primo turno" in item.inner_text() and "messa da parte" in item.inner_text()
    item.scroll_into_view_if_needed()
    shots(host, "kept-it-02-list", full=False)
    # ending is confirmed too, naming the game and its round
    host.evaluate("window.scrollTo(0, 0)")
    host.click("#end-game")
    text = confirm_dialog(host, shots, "kept-it-03-end-dialog")
    assert text.startswith("Terminare la partita a Abracada...What? (round 1)?")
    host.click("#confirm-no")
    assert server.table.record.id == first
    for page in (host, elena):
        assert not page.errors, page.errors
