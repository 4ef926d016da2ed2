"""The host's device status page in headless Chromium at phone size (390x844): the devices are
listed with a mark in words, a tag tapped and the dice reader unplugged show up live, and "Test the
LEDs" runs the pattern on the simulated strips. Screenshots go to
tests/artifacts/screenshots/status-*.png."""

from __future__ import annotations

import pytest
from support import Server, post, wait_until


@pytest.fixture
def server(tmp_path):
    s = Server.start(tmp_path)
    yield s
    s.stop()


@pytest.mark.browser
def test_the_status_page_on_a_phone(server, phone, shots):
    host = phone(server.host)
    host.wait_for_selector("#conn:text('Live')")
    host.click("text=Device status")
    host.wait_for_url("**/status")
    page = host
    page.wait_for_selector("#conn:text('Live')")
    page.wait_for_selector("[data-device='dice:dice'][data-state='connected']")

    devices = page.locator("#devices > li")
    names = devices.evaluate_all("items => items.map((li) => li.dataset.device)")
    assert names == [
        "nfc:board",
        "dice:dice",
        "buttons:buttons",
        "leds:table",
        "leds:score",
        "leds:tower",
    ]
    assert page.get_attribute("#devices", "aria-live") == "polite"
    dice = page.locator("[data-device='dice:dice']")
    assert "Connected" in dice.inner_text()  # in words, not colour alone
    assert "No report" in page.locator("[data-device='buttons:buttons']").inner_text()
    assert "35 pixels" in page.locator("[data-device='leds:table']").inner_text()
    assert page.inner_text("#version") == "0.1.0"
    assert page.inner_text("#home-url") == f"{server.base}/"
    assert page.locator("#qr").evaluate("img => img.complete && img.naturalWidth > 0")
    # one thumb: the test button spans the screen and is tall; nothing is wider than the screen
    box = page.locator("#led-test").bounding_box()
    assert box["width"] > 300 and box["height"] >= 60
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shots(page, "status-01-devices")

    # a tag tapped on the board's reader, live
    post(f"{server.host}/sim/tap_unknown")
    page.wait_for_selector("[data-device='nfc:board'][data-state='connected']")
    assert (
        "Last event: an unknown sticker was read: 04"
        in page.locator("[data-device='nfc:board']").inner_text()
    )

    # the LED test: the strips light red first, the page says which colour shows
    strip = server.companion.devices.strips["table"]
    page.locator("#led-test").scroll_into_view_if_needed()
    page.click("#led-test")
    page.wait_for_selector("#led-test-state:text('Now showing: red')")
    wait_until(lambda: strip.latest().pixels[0][0] > 0 and strip.latest().pixels[0][1] == 0)
    assert page.is_disabled("#led-test")
    shots(page, "status-02-led-test", full=False)
    page.wait_for_selector("#led-test-state:text('Done')", timeout=5000)
    assert page.is_enabled("#led-test")
    assert set(strip.latest().pixels) == {(0, 0, 0)}  # no game: back to dark

    # the dice reader unplugged: not connected, in words, with the reason
    server.companion.devices.sim_dice.unplug()
    page.wait_for_selector("[data-device='dice:dice'][data-state='not connected']", timeout=10000)
    text = page.locator("[data-device='dice:dice']").inner_text()
    assert "Not connected" in text and "Last error: lost " in text
    assert text.count("lost ") == 1  # the reason is said once
    page.evaluate("window.scrollTo(0, 0)")
    shots(page, "status-03-dice-unplugged")
    assert page.errors == []
