"""A host who plays, on one phone at 390x844: signed in as host with the PIN, the same phone joins
Elena's seat, and the simulated table's panel, right under the prompt, is blind for Elena: her
stones are never drawn nor sent, the hands draw and tap them unseen. The LED strips the game uses
are drawn with their legend, the status light square and set apart. Screenshots in English and
Italian go to tests/artifacts/screenshots/."""

from __future__ import annotations

import json
import random

import pytest
from accessibility import watch
from support import Server, claim, get, post, wait_until

PLAYERS = ["Elena", "Denise", "Marta"]
ME = "Elena"


@pytest.fixture
def server(tmp_path):
    s = Server.start(tmp_path)
    yield s
    s.stop()


def host_phone(browser, server, lang: str, audit):
    """One phone: signed in as host with the PIN (its host cookie), in ``lang``; every state its
    pages reach is audited (accessibility.py)."""
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    watch(page, audit)
    page.goto(f"{server.base}/lang/{lang}?next=/host")
    page.fill("#pin", server.companion.app.extensions["companion"]["access"].pin)
    page.click("#signin-go")
    page.wait_for_url("**/host/**")
    page.wait_for_selector("#conn:text('Live'), #conn:text('Connesso')")
    return ctx, page


def world_json(page, base: str) -> dict:
    """The simulated world this phone's host page is served (the same request the page makes)."""
    response = page.request.get(f"{base}/sim/world")
    assert response.ok
    return json.loads(response.text())


def own_faces(page) -> int:
    """Stone faces drawn for Elena's rack in the panel (there must never be any). The secret
    stones she acquired are drawn face up beside it: she looked at them when she took them."""
    return page.locator(
        f"#world [data-rack='{ME}'], #world .place.mine .stone:not(.back):not(.secret)"
    ).count()


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_host_who_plays_gets_the_panel_blind_and_in_reach(
    server, browser, wizard, shots, lang, audit
):
    ctx, host = host_phone(browser, server, lang, audit)
    try:
        wizard(host, "abracadawhat", PLAYERS)
        host.wait_for_selector(f"a[data-join='{ME}']")
        link = host.get_attribute(f"a[data-join='{ME}']", "href")
        seat = ctx.new_page()  # the same phone takes Elena's seat
        watch(seat, audit)
        seat.goto(link)
        seat.click("#join-go")
        seat.wait_for_url("**/p/**")
        base = host.url.rstrip("/")

        # the panel says it is blind for Elena, and this phone cannot choose otherwise
        host.bring_to_front()
        host.click("#sim-draw-all")  # the deal, every stone unseen
        host.wait_for_function(
            "() => document.querySelector('#sim-plays') && document.querySelector('#sim-plays').value === 'Elena'"
        )
        assert host.locator("#sim-plays").is_disabled()
        assert host.locator("#sim-blind-badge").is_visible()
        wait_until(lambda: server.table.referee_view()["phase"] == "declare")
        host.wait_for_selector("#world .place.mine .stone.back >> nth=4")
        view = server.table.referee_view()
        assert own_faces(host) == 0
        rack = view["players"][ME]["rack"]
        assert host.locator("#world .place.mine .stone.back").count() == len(rack) == 5

        # what the server sends this phone holds none of Elena's stones, nor any sticker's UID
        world = world_json(host, base)
        assert world["blind"] == ME and world["plays"] == {"player": ME, "held": True}
        assert f"rack:{ME}" not in world["places"] and world["hidden"][f"rack:{ME}"] == 5
        assert "pile" not in world["places"]
        text = json.dumps(world)
        for uid in server.table.tags.export()["tags"]:
            assert uid["uid"] not in text
        assert "tap_own" in [c["act"] for c in world["controls"]]

        # the panel is in reach: right under the prompt, on the first screen, and as wide as it
        host.evaluate("window.scrollTo(0, 0)")
        box = host.locator("#sim > summary").bounding_box()
        assert box is not None and box["y"] + box["height"] < 844, box
        assert host.locator("#sim-controls button").first.bounding_box()["y"] < 844
        assert host.evaluate("document.documentElement.scrollWidth") <= 390

        # the LED strips the game uses, no tower ring during Abracada, each with a legend
        host.wait_for_selector("#leds [data-led-strip='table'] .segment")
        assert host.locator("#leds [data-led-strip='tower']").count() == 0
        assert host.locator("#leds [data-led-strip='score']").count() == 1
        segments = host.locator("#leds [data-strip='table'] .segment")
        assert segments.count() == len(PLAYERS)
        first = segments.nth(0)
        assert first.locator(".px.status").count() == 1 and first.locator(".px.gauge").count() == 6
        assert first.locator(".px.status + .gap").count() == 1  # set apart from the life lights
        legend = host.locator("#leds [data-led-strip='table'] .led-legend li")
        assert legend.count() == 2
        words = {"en": ("Status light", "Life"), "it": ("Luce di stato", "Vita")}[lang]
        assert words[0] in legend.nth(0).inner_text() and words[1] in legend.nth(1).inner_text()
        host.evaluate("window.scrollTo(0, 0)")
        shots(host, f"sim-blind-{lang}-01-host-first-screen", full=False)
        host.locator("#sim-controls").scroll_into_view_if_needed()
        shots(host, f"sim-blind-{lang}-02-panel", full=False)
        host.locator("#leds").scroll_into_view_if_needed()
        shots(host, f"sim-blind-{lang}-03-leds", full=False)

        # Elena's turn or not, her stones are tapped unseen: the hands play on for her
        for _ in range(40):
            view = server.table.referee_view()
            if view["phase"] == "declare" and view["active"] == ME:
                break
            if view["phase"] in ("deal", "refill"):
                host.click("#sim-draw-all")
            elif view["phase"] == "remove":
                host.click("#sim-remove")
            elif view["phase"] == "roll":
                host.click("#sim-faces [data-face='3']")
            else:
                player = view["active"]
                post_action(server, player, view)
            host.wait_for_timeout(150)
            assert own_faces(host) == 0
        if server.table.referee_view()["active"] == ME:
            spell = server.table.referee_view()["players"][ME]["rack"][-1]
            seat.bring_to_front()
            seat.click(f"[data-action='cast-{spell}']")
            host.bring_to_front()
            wait_until(lambda: server.table.referee_view()["phase"] != "declare")
            if server.table.referee_view()["phase"] == "remove":
                host.click("#sim-tap-own")  # Elena's right neighbour takes the stone, unseen
                wait_until(lambda: server.table.referee_view()["phase"] != "remove")
        assert own_faces(host) == 0
        assert f"rack:{ME}" not in world_json(host, base)["places"]
        assert not host.errors, host.errors
    finally:
        ctx.close()


def post_action(server, player: str, view: dict) -> None:
    """Another player's decision, through the table (their phones are not this test's)."""
    table = server.table
    actions = table.history.game.legal_actions(table.history.state)
    mine = [a for a in actions if a.get("player") == player] or actions
    ends = [a for a in mine if a["type"] in ("end_turn", "decline_secret", "allow")]
    table.call("action", f"phone:{player}", action=(ends or mine)[0], player=player)
    get(f"{server.base}/api/table")


def exactly(server) -> tuple[str, list]:
    """The game at the table as its log makes it: its state and its game's own events."""
    notes = {"game_started", "game_set_aside", "game_resumed", "seat_claimed", "paused", "resumed"}
    events = [e["event"] for e in server.table.events if e["event"]["type"] not in notes]
    return json.dumps(server.table.history.state, sort_keys=True), events


def set_aside_and_resume(server, host, seat, wizard) -> None:
    """Mid-game, the host starts a game of Dork Tower: the dialog names the running game and its
    round, and only the confirmation sets it aside; then the host resumes it from the list of
    kept games (confirmed again) and it is back exactly, Elena's page too."""
    first, before = server.table.record.id, exactly(server)
    round_now = server.table.referee_view()["round"]
    host.click("#new-game-card > summary")
    wizard(host, "dorktower", ["Ann", "Bo", "Cy"])
    host.wait_for_selector("#confirm-dialog[open]")
    assert host.inner_text("#confirm-text").startswith(
        f"A game of Abracada...What? is running (round {round_now})."
    )
    assert server.table.record.id == first  # nothing until it is confirmed
    host.click("#confirm-yes")
    wait_until(lambda: server.table.record.game == "dorktower")
    seat.bring_to_front()
    seat.wait_for_selector("#prompt:text('Your game is no longer at the table')")
    assert own_stones_on_seat_page(seat) == 0
    host.bring_to_front()
    kept = host.locator(f"[data-kept-game='{first}']")
    kept.wait_for()
    assert "set aside" in kept.inner_text()
    kept.locator("[data-resume]").click()
    host.wait_for_selector("#confirm-dialog[open]")
    assert host.inner_text("#confirm-text").startswith("A game of Dork Tower is running")
    host.click("#confirm-yes")
    wait_until(lambda: server.table.record.id == first)
    state, events = exactly(server)
    assert state == before[0]
    # the pages keep the newest events only; the table's notes took places in the first list
    shared = min(len(events), len(before[1]))
    assert shared >= 10 and events[-shared:] == before[1][-shared:]
    seat.bring_to_front()
    seat.wait_for_selector("body[data-game='abracadawhat']", timeout=15000)
    host.bring_to_front()
    host.wait_for_selector("#sim-blind-badge:not([hidden])")


def own_stones_on_seat_page(page) -> int:
    """Stone faces drawn in Elena's own card on her page (there must never be any)."""
    return page.locator(f'.player[data-player="{ME}"] .stone:not(.back)').count()


@pytest.mark.browser
@pytest.mark.slow
def test_a_host_who_plays_plays_a_whole_game_without_seeing_their_stones(
    server, browser, wizard, audit
):
    """Three players, the host playing Elena on the phone that holds the host's page: the game
    is played to its end, every deal, removal and roll from the blind panel, Elena's decisions
    from her page; at no step does a page of that phone, or what it is sent, show her stones.
    In round 2 the host starts another game (confirmed), and resumes this one exactly."""
    rng = random.Random(11)
    ctx, host = host_phone(browser, server, "en", audit)
    try:
        wizard(host, "abracadawhat", PLAYERS)
        host.wait_for_selector("a[data-join='Marta']")
        links = {p: host.get_attribute(f"a[data-join='{p}']", "href") for p in PLAYERS}
        seat = ctx.new_page()
        watch(seat, audit)
        seat.goto(links[ME])
        seat.click("#join-go")
        seat.wait_for_url("**/p/**")
        others = {p: claim(links[p]) for p in PLAYERS if p != ME}  # other phones
        base = host.url.rstrip("/")
        host.bring_to_front()
        steps, detoured = 0, False
        for steps in range(900):
            view = server.table.referee_view()
            if view["finished"]:
                break
            if not detoured and view["round"] == 2 and view["phase"] not in ("deal", "refill"):
                set_aside_and_resume(server, host, seat, wizard)
                detoured = True
            if steps % 3 == 0:  # what this phone shows and is sent
                assert own_faces(host) == 0, steps
                assert own_stones_on_seat_page(seat) == 0, steps
                world = world_json(host, base)
                assert f"rack:{ME}" not in world["places"] and world["blind"] == ME
            before = server.table.version
            phase, active = view["phase"], view["active"]
            if phase in ("deal", "refill"):
                host.click("#sim-draw-all")
            elif phase == "remove":
                host.click("#sim-tap-own" if active == ME else "#sim-remove")
            elif phase == "roll":
                host.click(f"#sim-faces [data-face='{rng.randint(1, 6)}']")
            elif ME in view["waiting_for"]:
                seat.bring_to_front()  # a page out of sight drops its stream: Elena looks at hers
                seat.wait_for_selector("[data-action]:not([disabled])")
                buttons = seat.locator("[data-action]:not([disabled])")
                names = [
                    buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())
                ]
                casts = [n for n in names if n.startswith("cast-")]
                floor = view["last_cast"] or 1
                good = [n for n in casts if int(n.split("-")[1]) >= floor]
                if "end_turn" in names and (view["successes"] >= 2 or not good):
                    choice = "end_turn"
                else:
                    choice = rng.choice(good or casts or names)
                seat.click(f"[data-action='{choice}']")
                host.bring_to_front()
            else:
                player = view["waiting_for"][0]
                actions = [
                    a
                    for a in server.table.history.game.legal_actions(server.table.history.state)
                    if a.get("player") == player
                ]
                rack = view["players"][player]["rack"]
                floor = view["last_cast"] or 1
                good = [a for a in actions if a["type"] == "cast" and a["spell"] in rack]
                good = [a for a in good if a["spell"] >= floor] or good
                ends = [a for a in actions if a["type"] in ("end_turn", "allow", "take_secret")]
                action = (good if good and not view["successes"] else ends or good or actions)[0]
                status, answer = post(f"{others[player]}/api/action", action)
                assert status in (200, 409), answer
            try:
                wait_until(lambda b=before: server.table.version != b, timeout=5)
            except AssertionError:
                pass  # a refused or idle step: the next one looks again
        assert server.table.referee_view()["finished"], f"not over after {steps} steps"
        assert detoured, "the game never reached round 2"
        assert own_faces(host) == 0 and own_stones_on_seat_page(seat) == 0
        assert not host.errors, host.errors
    finally:
        ctx.close()
