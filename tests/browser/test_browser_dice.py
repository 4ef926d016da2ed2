"""The dice on a phone, in headless Chromium: the roller sees the die rolling, a crooked die asks
for a re-roll, and with the reader unplugged the roller's phone rolls instead. Screenshots at phone
size go to tests/artifacts/screenshots/."""

from __future__ import annotations

import pytest
from support import Server, post, wait_until

PLAYERS = ["Elena", "Denise", "Marta"]


@pytest.fixture
def server(tmp_path):
    s = Server.start(tmp_path)
    yield s
    s.stop()


@pytest.mark.browser
def test_rolling_on_the_phone(server, phone, shots):
    links = server.dragon_roll(PLAYERS, "Elena")
    host = phone(server.host)
    host.wait_for_selector("#devices li[data-device='dice'] .ok")
    # the host's game page says connected or not; what the reader said is on the status page
    assert "reader firmware" not in host.inner_text("#devices")
    status = phone(f"{server.host}/status")
    status.wait_for_selector("#devices:has-text('reader firmware')")
    elena, denise = phone(links["Elena"]), phone(links["Denise"])
    for page in (elena, denise):
        page.wait_for_selector("#dice-card:not([hidden])")
    assert "You roll the die" in elena.inner_text("#dice")
    assert "Elena rolls the die" in denise.inner_text("#dice")
    assert elena.locator("#dice button").count() == 0  # the reader is connected
    shots(elena, "dice-01-roller-waits")

    post(f"{server.host}/sim/crooked")
    elena.wait_for_selector("#dice:has-text('landed crooked')")
    denise.wait_for_selector("#refusals li:has-text('TABLE-DICE-3')")
    shots(elena, "dice-02-crooked-roll-again")

    server.companion.devices.sim_dice.unplug()
    wait_until(lambda: not server.table.dice_connected())
    elena.wait_for_selector("#dice button:text('Roll for me')")
    host.wait_for_selector("#devices li[data-device='dice'] .bad:text('not connected')")
    shots(host, "dice-00-host-reader-unplugged")
    assert denise.locator("#dice button").count() == 0
    assert "No dice reader is connected" in denise.inner_text("#dice")
    shots(elena, "dice-03-no-reader-roll-on-the-phone")
    elena.click("#dice button")
    elena.wait_for_selector("#dice-card[hidden]", state="attached")
    assert server.table.referee_view()["phase"] != "roll"
    shots(elena, "dice-04-after-the-virtual-roll")
    assert not elena.errors and not denise.errors and not host.errors
