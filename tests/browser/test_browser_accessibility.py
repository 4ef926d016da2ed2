"""Accessibility in headless Chromium. Every browser test's pages are audited by axe-core (the
``audit`` fixture, accessibility.py) in English, light and dark; these tests walk both games'
pages in Italian (the host's wizard, the join pages, the players' pages, the table display, the
status page) so that they are audited in Italian too, and check what axe cannot: focus kept on a
button across a redraw, live regions left alone when nothing changed, Dork Tower's stat labels
whole at 390 px and at 200 % zoom, the Italian table display inside 320 px."""

from __future__ import annotations

import random

import pytest
from accessibility import Audit, watch
from support import Server, claim, get, wait_until
from test_browser_dorktower import roll, tap, until
from test_browser_game import own_stones_shown, wait_for_version

PLAYERS = ["Elena", "Denise", "Marta"]
LIVE = "#conn:not(.stale)"


@pytest.fixture
def server(tmp_path):
    s = Server.start(tmp_path)
    yield s
    s.stop()


def links_of(host) -> dict[str, str]:
    host.wait_for_selector("a[data-join='Marta']")
    return {p: host.get_attribute(f"a[data-join='{p}']", "href") for p in PLAYERS}


def overflow(page) -> int:
    """How many CSS pixels the page is wider than its viewport."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


@pytest.mark.browser
@pytest.mark.slow
def test_abracada_in_italian_passes_the_audit(server, phone, join, wizard, audit, shots):
    rng = random.Random(5)
    visitor = phone(f"{server.base}/", "it")  # the landing page of a phone that is not the host
    visitor.wait_for_selector("main")
    visitor.goto(f"{server.base}/host")  # and the host's PIN page
    visitor.wait_for_selector("main")
    host = phone(server.host, "it")
    host.wait_for_selector(LIVE)
    assert host.evaluate("document.documentElement.lang") == "it"
    # two life a round: rounds end sooner, and the game with them (the audit sees every state)
    wizard(host, "abracadawhat", PLAYERS, options={"start_life": 2})
    links = links_of(host)
    table = phone(f"{server.base}/table", "it")
    players = {p: join(links[p], "it") for p in PLAYERS}
    for page in [table, *players.values()]:
        page.wait_for_selector(LIVE)
    snap = get(f"{server.base}/api/table")
    narrow = False
    for step in range(400):
        view = snap["view"]
        if view["finished"]:
            break
        phase, active = view["phase"], view["active"]
        if phase in ("deal", "refill"):
            host.click("#sim-draw-all")
        elif phase == "remove":
            host.click("#sim-remove")
        elif phase == "roll":
            host.click(f"[data-face='{rng.randint(1, 6)}']")
        elif phase == "secret":
            players[active].locator("[data-action^='take_secret-']").first.click()
        else:
            page = players[active]
            if view["successes"] and rng.random() < 0.3:
                page.click("[data-action='end_turn']")
            else:
                page.click(f"[data-action='cast-{rng.randint(1, 8)}']")
        if step == 12:
            for name in ("light", "dark"):
                players[active].emulate_media(color_scheme=name)
                shots(players[active], f"a11y-abr-player-it-{name}", full=False)
                table.emulate_media(color_scheme=name)
                shots(table, f"a11y-abr-table-it-{name}", full=False)
            for page in (players[active], table):
                page.emulate_media(color_scheme="light")
        snap = wait_for_version(server, snap)
        if not narrow and any(snap["view"]["board"]["removed"]):
            # stones removed face up ("2 scop." under a number): the board fits 320 px
            narrow = True
            table.wait_for_selector(".board .removed")
            table.set_viewport_size({"width": 320, "height": 640})
            assert overflow(table) <= 0
            shots(table, "a11y-abr-table-it-320", full=False)
            table.set_viewport_size({"width": 390, "height": 844})
    else:
        pytest.fail("the game did not end in 400 steps")
    assert narrow
    for me, page in players.items():
        page.wait_for_selector("#prompt >> text=/./")
        assert own_stones_shown(page, me) == 0
    status = phone(host.url.split("#")[0] + "/status", "it")
    status.wait_for_selector("#devices[aria-busy='false']")
    # the table display of an Italian phone fits a 320 px screen
    table.set_viewport_size({"width": 320, "height": 640})
    assert overflow(table) <= 0
    assert audit.states >= 20, audit.states  # the walk reached many states, each audited


@pytest.mark.browser
@pytest.mark.slow
def test_dork_tower_in_italian_passes_the_audit(server, phone, join, wizard, audit, shots):
    host = phone(server.host, "it")
    host.wait_for_selector(LIVE)
    wizard(host, "dorktower", PLAYERS)
    links = links_of(host)
    table = phone(f"{server.base}/table", "it")
    pages = {p: join(links[p], "it") for p in PLAYERS}
    for page in [table, *pages.values()]:
        page.wait_for_selector(LIVE)
    for name, faces in (("Elena", (6, 5)), ("Denise", (1, 2)), ("Marta", (2, 2))):
        until(server, lambda v, n=name: v["awaiting"] and v["awaiting"]["player"] == n)
        pages[name].wait_for_selector("#dice-card:not([hidden])")
        roll(host, server, faces)
    for name, hero, city in (
        ("Elena", "topdeck", "rv-city"),
        ("Denise", "lumpin", "th-city"),
        ("Marta", "laeoretha", "cd-city"),
    ):
        page = pages[name]
        page.wait_for_selector("[data-action='choose']")
        page.check(f"input[name='dt-character'][value='{hero}']")
        page.check(f"input[name='dt-city'][value='{city}']")
        tap(page, "choose")
    for name, scroll in (
        ("Elena", "strength-of-ten"),
        ("Denise", "curse-of-weakness"),
        ("Marta", "hex"),
    ):
        until(server, lambda v, n=name: v["awaiting"] and v["awaiting"]["player"] == n)
        page = pages[name]
        page.wait_for_selector("#dt-draw-card:not([hidden])")
        tap(page, f"draw_scroll-{scroll}")
    until(server, lambda v: v["phase"] == "move" and v["active"] == "Elena")
    elena = pages["Elena"]
    elena.wait_for_selector(".dt-stat dt")
    for name in ("light", "dark"):
        elena.emulate_media(color_scheme=name)
        elena.locator(".dt-stats").first.scroll_into_view_if_needed()
        shots(elena, f"a11y-dt-player-it-{name}", full=False)
    elena.emulate_media(color_scheme="light")
    # the stat labels are whole ("Forza", not "Fo…") at 390 px and at 200 % zoom (half the width)
    for width in (390, 195):
        elena.set_viewport_size({"width": width, "height": 844})
        cut = elena.evaluate(
            "[...document.querySelectorAll('.dt-stat dt')]"
            ".filter((n) => n.scrollWidth > n.clientWidth + 1).map((n) => n.textContent)"
        )
        assert cut == [], (width, cut)
        assert overflow(elena) <= 0, width
    table.set_viewport_size({"width": 320, "height": 640})
    table.wait_for_selector("#dt-heroes .dt-sheet")
    assert overflow(table) <= 0
    assert audit.states >= 15, audit.states


@pytest.mark.browser
def test_focus_stays_on_a_button_across_a_redraw(server, phone, wizard):
    host = phone(server.host)
    host.wait_for_selector(LIVE)
    wizard(host, "abracadawhat", PLAYERS)
    links = links_of(host)
    button = "#sim-faces [data-face='4']"
    host.wait_for_selector(button)
    host.focus(button)
    host.evaluate(f'document.querySelector("{button}").drawnBefore = true')
    claim(links["Elena"])  # a seat is taken: a new snapshot, and the host page is drawn again
    host.wait_for_function(
        f'() => {{ const b = document.querySelector("{button}"); return b && !b.drawnBefore; }}'
    )
    assert host.evaluate("document.activeElement.dataset.face") == "4"
    # a focus given up is not taken back: a tap elsewhere, then another redraw
    host.evaluate("document.activeElement.blur()")
    host.evaluate(f'document.querySelector("{button}").drawnBefore = true')
    claim(links["Denise"])
    host.wait_for_function(
        f'() => {{ const b = document.querySelector("{button}"); return b && !b.drawnBefore; }}'
    )
    assert host.evaluate("document.activeElement === document.body")


@pytest.mark.browser
def test_live_regions_are_not_rewritten_with_the_same_text(server, phone, wizard):
    host = phone(server.host)
    host.wait_for_selector(LIVE)
    wizard(host, "abracadawhat", PLAYERS)
    links = links_of(host)
    table = phone(f"{server.base}/table")
    table.wait_for_selector(LIVE)
    table.wait_for_selector("#prompt >> text=/./")
    table.evaluate(
        """() => {
      window.rewritten = [];
      const watch = new MutationObserver((records) => records.forEach((r) =>
        window.rewritten.push(r.target.id || r.target.parentElement.id)));
      for (const region of document.querySelectorAll("[aria-live], [role=status]"))
        watch.observe(region, { childList: true, subtree: true, characterData: true });
    }"""
    )
    version = get(f"{server.base}/api/table")["version"]
    claim(links["Elena"])  # the table hears of it (a new snapshot) but shows the same texts
    wait_until(lambda: get(f"{server.base}/api/table")["version"] != version)
    table.wait_for_timeout(500)
    rewritten = table.evaluate("window.rewritten")
    assert not {"conn", "prompt", "sub"} & set(rewritten), rewritten


@pytest.mark.browser
def test_the_audit_finds_what_is_planted(server, browser):
    """The audit bites: on a page already audited, a nameless button in a new list item (a part
    seen for the first time) and a text readable in the light theme only are both reported, the
    second in the dark theme."""
    audit = Audit()  # not the test's own: its findings here are expected
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        watch(page, audit)
        page.goto(f"{server.base}/")
        page.wait_for_selector("main")
        audit.everything()
        audited = audit.states
        assert audited >= 1 and audit.violations == []
        audit.everything()  # nothing new: nothing audited again
        assert audit.states == audited
        page.evaluate(
            """() => {
              const card = document.querySelector("main > *");
              const list = card.appendChild(document.createElement("ul"));
              for (const kind of ["plain", "planted"]) {
                const item = list.appendChild(document.createElement("li"));
                item.appendChild(document.createElement(kind === "planted" ? "button" : "span"));
              }
              const dim = card.appendChild(document.createElement("p"));
              dim.className = "dim";  // a new look comes with its class (inline styles are not seen)
              dim.textContent = "grey on the page's background";
              dim.style.color = "#3a3a3a";
              dim.style.background = "var(--bg)";
            }"""
        )
        audit.everything()
        found = "\n".join(audit.violations)
        assert audit.states == audited + 1
        assert "button-name" in found and "[light" in found.split("button-name")[1][:200]
        contrast = [v for v in audit.violations if v.startswith("color-contrast")]
        assert contrast and all("[dark" in v for v in contrast), contrast
    finally:
        context.close()
