"""The phone app in headless Chromium at phone size: the service worker installs and stores the
public shell (and nothing private); offline, a stored file still loads and a page the table cannot
answer becomes the offline page, which goes back by itself when the table is there again; a live
page that loses the network says so (stale) and reconnects by itself. Screenshots go to
tests/artifacts/screenshots/pwa-*.png."""

from __future__ import annotations

import json
import re

import pytest
from browser_support import hold_claim
from support import Server, request, wait_until

PRIVATE = ("/api/", "/p/", "/host/", "/join/")


@pytest.fixture
def server(tmp_path):
    s = Server.start(tmp_path)
    yield s
    s.stop()


def real_errors(page) -> list[str]:
    """The page's errors, less the browser's own note of each request that failed offline."""
    return [
        e
        for e in page.errors
        if not ("Failed to load resource" in e and "ERR_INTERNET_DISCONNECTED" in e)
    ]


def wait_for_worker(page) -> None:
    """The service worker is active and controls the page."""
    # ready: there is an active worker (it may still be finishing its activation, which claims
    # the page and deletes old caches)
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)").endswith("/")
    # a function, not an expression: an expression is eval'ed in the page, which the CSP forbids
    page.wait_for_function(
        "() => navigator.serviceWorker.controller !== null"
        " && navigator.serviceWorker.controller.state === 'activated'"
    )


def stored(page) -> list[str]:
    """The paths stored in the worker's caches."""
    return page.evaluate("""async () => {
        const paths = [];
        for (const name of await caches.keys()) {
            for (const r of await (await caches.open(name)).keys()) paths.push(new URL(r.url).pathname);
        }
        return paths.sort();
    }""")


@pytest.mark.browser
def test_installable_and_offline(server, phone, shots):
    page = phone(f"{server.base}/table")
    page.wait_for_selector("#conn:text('Live')")
    wait_for_worker(page)

    # the manifest the page links resolves, and so do its icons
    href = page.eval_on_selector('link[rel="manifest"]', "l => l.href")
    manifest = page.evaluate(
        """async (href) => {
        const r = await fetch(href);
        const m = await r.json();
        const icons = [];
        for (const i of m.icons) icons.push([(await fetch(new URL(i.src, href))).status, i.src]);
        return { status: r.status, type: r.headers.get("content-type"), name: m.name,
                 display: m.display, icons };
    }""",
        href,
    )
    assert manifest["status"] == 200 and manifest["type"].startswith("application/manifest+json")
    assert manifest["name"] == "companion" and manifest["display"] == "standalone"
    assert manifest["icons"] and all(status == 200 for status, _ in manifest["icons"])

    # one cache, named by this release's version, holding exactly the worker's precache list
    _, worker, _ = request(f"{server.base}/sw.js")
    version = re.search(r'const VERSION = "([0-9a-f]+)";', worker).group(1)
    precache = sorted(json.loads(re.search(r"const PRECACHE = (\[.*?\]);", worker).group(1)))
    wait_until(lambda: page.evaluate("caches.keys()") == [f"companion-{version}"])
    assert stored(page) == precache
    shots(page, "pwa-01-table-online")

    page.context.set_offline(True)
    page.wait_for_selector("body.stale")
    # a stored file loads without the network, fetched by the page and opened directly
    assert page.evaluate("fetch('/static/js/table.js').then((r) => r.status)") == 200
    asset = page.goto(f"{server.base}/static/app.css")
    assert asset.status == 200 and asset.from_service_worker
    assert "--bg:" in page.content()
    # a page the table cannot answer: the offline page, at the page's own address
    page.goto(f"{server.base}/table")
    page.wait_for_selector("body.offline")
    assert page.url == f"{server.base}/table"
    assert "The table cannot be reached." in page.inner_text("main")
    assert "reconnects by itself" in page.inner_text("main")
    page.wait_for_selector("#conn:text('Offline')")
    shots(page, "pwa-02-offline-fallback")

    page.context.set_offline(False)
    page.wait_for_selector("#conn:text('Live')", timeout=15000)  # back by itself, no reload
    assert page.url == f"{server.base}/table"
    assert page.evaluate("document.body.classList.contains('offline')") is False
    assert page.locator("#prompt").is_visible()
    shots(page, "pwa-03-back-online")
    assert not real_errors(page), real_errors(page)


@pytest.mark.browser
def test_a_live_page_goes_stale_offline_and_reconnects_by_itself(server, phone, shots):
    links = server.new_game(["Elena", "Denise", "Marta"], seed=7)
    table = phone(f"{server.base}/table")
    table.wait_for_selector("#conn:text('Live')")
    wait_for_worker(table)
    note = table.locator(".stale-note")
    assert not note.is_visible()

    # a player's page in the same phone: live, and never stored
    hold_claim(table.context, links["Elena"])  # Elena claimed her seat on this phone
    player = table.context.new_page()
    player.errors = []
    player.on("pageerror", lambda e: player.errors.append(str(e)))
    player.goto(links["Elena"])
    player.wait_for_selector("#conn:text('Live')")
    paths = stored(player)
    assert paths and not [p for p in paths if p.startswith(PRIVATE) or "stream" in p], paths
    player.close()

    table.context.set_offline(True)
    table.wait_for_selector("body.stale")
    assert note.is_visible()
    assert "Reconnecting to the table" in note.inner_text()
    assert table.inner_text("#conn") == "Offline"
    assert re.search(r"\d", table.inner_text("#stale-at"))  # the time of the state shown
    shots(table, "pwa-04-table-stale")

    # the table moves on while this phone is away; back online, the page catches up by itself
    server.new_game(["Ana", "Bo"], seed=3)
    table.context.set_offline(False)
    table.wait_for_selector("#conn:text('Live')", timeout=15000)
    table.wait_for_selector(".player[data-player='Ana']")
    assert table.evaluate("document.body.classList.contains('stale')") is False
    assert not note.is_visible()
    shots(table, "pwa-05-table-reconnected")
    assert not real_errors(table), real_errors(table)
