"""Dork Tower in headless Chromium at phone size: the host starts a game on the host page, three
heroes play their turns on their own phones (the start roll, choosing heroes, the starting
scrolls, moves, an encounter with draws picked on the phone, a fight won with a scroll and an
equipment bonus while the others are invited to play scrolls against the fighter, a fight lost,
the city's shop), the tower turns by the phone, a seat button and the tower's sticker, and the
table display follows. Every roll is thrown with a chosen face on the simulated dice reader, every
draw is picked, so the game is the same each time. Screenshots go to
tests/artifacts/screenshots/dt-NN-*.png."""

from __future__ import annotations

import pytest
from support import Server, get, join_all, wait_until

PLAYERS = ["Elena", "Denise", "Marta"]


@pytest.fixture
def server(tmp_path):
    s = Server.start(tmp_path)
    yield s
    s.stop()


def view(server):
    return get(f"{server.base}/api/table")["view"]


def until(server, predicate, timeout: float = 8.0):
    """Wait until the public view satisfies ``predicate``; returns that view."""

    def check():
        v = server.table.public_view()
        return v if v is not None and predicate(v) else None

    return wait_until(check, timeout)


def tap(page, key: str) -> None:
    """Tap a choice on a phone and wait for the phone to hear the answer."""
    page.click(f"[data-action='{key}']")
    page.wait_for_selector("body:not([data-busy])", state="attached")


def roll(host, server, faces: tuple[int, ...]) -> None:
    """Throw the awaited dice on the simulated reader with chosen faces, from the host page."""
    host.wait_for_selector(
        f"#sim-faces [data-die='{len(faces) - 1}']" if len(faces) > 1 else "#sim-faces [data-face]"
    )
    for die, face in enumerate(faces):
        sel = (
            f"#sim-faces [data-die='{die}'][data-face='{face}']"
            if len(faces) > 1
            else f"#sim-faces [data-face='{face}']"
        )
        before = server.table.inputs_handled
        host.click(sel)
        wait_until(lambda: server.table.inputs_handled > before)


def card_shot(page, selector: str, shots, name: str) -> None:
    """A phone's screen with one card (or a part of it) at its top, the "Done." toast put away."""
    page.evaluate("document.getElementById('toast').hidden = true")
    page.locator(selector).first.evaluate(
        "n => window.scrollTo(0, n.getBoundingClientRect().top + window.scrollY - 56)"
    )
    shots(page, name, full=False)


@pytest.mark.browser
@pytest.mark.slow
def test_three_heroes_play_dork_tower_on_their_phones(server, phone, join, wizard, shots):
    host = phone(server.host)
    host.wait_for_selector("#conn:text('Live')")
    shots(host, "dt-00-host-new-game")
    # the rivals' scroll windows: 30 seconds, so that no countdown ends while the test looks
    wizard(host, "dorktower", PLAYERS, options={"scroll_window_seconds": 30})
    host.wait_for_selector("a[data-join='Marta']")
    links = {p: host.get_attribute(f"a[data-join='{p}']", "href") for p in PLAYERS}
    table = phone(f"{server.base}/table")
    table.set_viewport_size({"width": 1280, "height": 900})
    pages = {p: join(links[p]) for p in PLAYERS}
    elena, denise, marta = (pages[p] for p in PLAYERS)
    for page in [table, *pages.values()]:
        page.wait_for_selector("#conn:text('Live')")

    # who starts: two dice each, thrown on the (simulated) dice reader
    for name, faces in (("Elena", (6, 5)), ("Denise", (1, 2)), ("Marta", (2, 2))):
        until(server, lambda v, n=name: v["awaiting"] and v["awaiting"]["player"] == n)
        pages[name].wait_for_selector("#dice:has-text('You roll 2 dice')")
        roll(host, server, faces)
    until(server, lambda v: v["phase"] == "choose" and v["choosing"] == "Elena")

    # heroes and home cities, chosen on the phones
    elena.wait_for_selector("[data-action='choose']")
    elena.check("input[name='dt-character'][value='topdeck']")
    elena.check("input[name='dt-city'][value='rv-city']")
    card_shot(elena, "#actions-card", shots, "dt-01-choose-hero")
    tap(elena, "choose")
    for name, hero, city in (("Denise", "lumpin", "th-city"), ("Marta", "laeoretha", "cd-city")):
        page = pages[name]
        page.wait_for_selector("[data-action='choose']")
        page.check(f"input[name='dt-character'][value='{hero}']")
        page.check(f"input[name='dt-city'][value='{city}']")
        tap(page, "choose")

    # the starting scrolls: each picks what was drawn; only the drawer learns which
    for name, scroll in (
        ("Elena", "strength-of-ten"),
        ("Denise", "curse-of-weakness"),
        ("Marta", "hex"),
    ):
        until(server, lambda v, n=name: v["awaiting"] and v["awaiting"]["player"] == n)
        page = pages[name]
        page.wait_for_selector("#dt-draw-card:not([hidden])")
        if name == "Elena":
            page.fill("#dt-draw input[type='search']", "strength")
            assert page.locator(".dt-draw-list button:visible").count() == 1
            card_shot(page, "#dt-draw-card", shots, "dt-02-draw-a-scroll")
        tap(page, f"draw_scroll-{scroll}")
    v = until(server, lambda v: v["phase"] == "move" and v["active"] == "Elena")
    assert v["tower"]["step"] == 0
    elena.wait_for_selector("#dt-sheet .dt-scroll:has-text('Strength of Ten')")
    for other in (denise, marta):
        other.wait_for_selector("#dt-others [data-player='Elena']:has-text('1 scroll')")
        assert "Strength of Ten" not in other.inner_text("main")
    card_shot(elena, "#dt-sheet-card", shots, "dt-03-hero-sheet")

    # Elena moves into Ravenwood (a forest, by night: three tokens) and stops there
    card_shot(elena, "#actions-card", shots, "dt-04-movement")
    tap(elena, "step-rv-wood")
    until(server, lambda v: v["players"]["Elena"]["space"] == "rv-wood")
    elena.wait_for_selector("[data-action='stop']:has-text('Stop on Ravenwood')")
    assert "draw 3 encounter tokens" in elena.inner_text("[data-action='stop']")
    tap(elena, "stop")
    for token in ("merchant", "giant-rat", "goblin"):
        until(server, lambda v: v["awaiting"] and v["awaiting"]["kind"] == "token")
        elena.wait_for_selector("#dt-draw-card:not([hidden])")
        tap(elena, f"draw_token-{token}")
    until(server, lambda v: v["phase"] == "resolve")
    tap(elena, "resolve-merchant")
    until(server, lambda v: v["awaiting"] and v["awaiting"]["kind"] == "item")
    elena.wait_for_selector("#dt-draw:has-text('equipment face')")
    tap(elena, "draw_item-short-sword")

    # the fight: her own scroll first, then the others are invited to play against her
    until(server, lambda v: v["phase"] == "scrolls_own")
    elena.wait_for_selector("#dt-fight .dt-totals")
    tap(elena, "play_scroll-strength-of-ten")
    v = until(server, lambda v: v["phase"] == "scrolls_others")
    assert (v["combat"]["totals"]["player"], v["combat"]["totals"]["monsters"]) == (11, 3)
    denise.wait_for_selector(
        "#dt-invite-card:not([hidden]) h2:text('Play a scroll against Elena?')"
    )
    marta.wait_for_selector("#dt-invite-card:not([hidden]) [data-action='pass']")
    assert elena.locator("#dt-invite-card:not([hidden])").count() == 0
    card_shot(denise, "#dt-invite-card", shots, "dt-06-others-invited-to-play-scrolls")
    tap(denise, "play_scroll-curse-of-weakness")
    until(server, lambda v: v["combat"]["totals"]["monsters"] == 5)
    marta.wait_for_selector("#dt-invite:has-text('+2 to the monsters')")
    table.wait_for_selector("#dt-fight .dt-totals")
    table.wait_for_selector("#dt-fight:has-text('Curse of Weakness')")
    shots(table, "dt-10-table-display")
    elena.wait_for_selector("#dt-fight:has-text('Curse of Weakness')")
    card_shot(elena, "#dt-fight-card", shots, "dt-05-combat-totals")
    tap(marta, "pass")
    v = until(server, lambda v: v["phase"] == "pre_roll")
    assert v["combat"]["totals"]["target"] == 4  # 11 against 5: row +5 or +6
    elena.wait_for_selector("#dice:has-text('needs 4 or more')")
    roll(host, server, (3, 4))
    # 7 wins; Marta still holds a scroll, so the others may answer the roll (DT-COMBAT-8,
    # DT-WIZ-4): her Hex cannot be played after a roll, she is told so and passes; Denise holds
    # no scroll any more: nothing to play, no pass asked
    until(server, lambda v: v["phase"] == "scrolls_after")
    marta.wait_for_selector("#dt-invite-card:not([hidden]) h2:text('Answer Elena')")
    marta.wait_for_selector("#dt-invite:has-text('None of your scrolls can be played now.')")
    marta.wait_for_selector("#dt-invite .dt-countdown:has-text('The scroll window closes in')")
    denise.wait_for_selector("#dt-invite:has-text('You hold no scroll: nothing to play.')")
    assert denise.locator("#dt-invite [data-action='pass']").count() == 0
    # the same moment in Italian, on Denise's phone (her later checks are not in words)
    denise_url = denise.url
    denise.goto(f"{server.base}/lang/it?next={denise_url.split(server.base, 1)[1]}")
    denise.wait_for_selector("#dt-fight .dt-countdown", state="attached")
    card_shot(denise, "#dt-fight .dt-banner", shots, "dt-06d-after-the-roll-it")
    assert "Il momento per le pergamene si chiude tra" in denise.inner_text("#dt-fight")
    assert "a meno che la pergamena di un rivale" in denise.inner_text("#dt-fight")
    table.wait_for_selector("#dt-fight .dt-countdown")
    elena.wait_for_selector("#dt-fight:has-text('unless a rival')")
    assert table.locator("#dt-fight .dt-countdown b").inner_text().endswith(" s")
    card_shot(marta, "#dt-invite-card", shots, "dt-06c-after-the-roll-nothing-to-play")
    tap(marta, "pass")
    until(server, lambda v: v["awaiting"] and v["awaiting"].get("why") == "treasure")
    elena.wait_for_selector("[data-result='victory']")
    assert "Victory" in elena.inner_text("#dt-fight")
    card_shot(elena, "#dt-fight-card", shots, "dt-07-victory")
    roll(host, server, (6,))  # the Goblin's treasure: a scroll
    until(server, lambda v: v["awaiting"] and v["awaiting"]["kind"] == "scroll")
    tap(elena, "draw_scroll-second-chance")
    until(server, lambda v: v["phase"] == "cleanup")
    elena.wait_for_selector("#dt-sheet:has-text('Short Sword')")
    marta.wait_for_selector("#dt-others [data-player='Elena']:has-text('1 scroll')")
    denise.wait_for_selector("#dt-others [data-player='Elena']:has-text('1 pergamena')")
    for other in (denise, marta):
        assert "Second Chance" not in other.inner_text("main")
    assert "Second Chance" not in table.inner_text("main")
    # "Turn the tower" in the sticky action bar: on the screen wherever the page is scrolled
    for where in ("0", "document.body.scrollHeight / 2", "document.body.scrollHeight"):
        elena.evaluate(f"window.scrollTo(0, {where})")
        box = elena.locator("#bar [data-action='end_turn']").bounding_box()
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 844, (where, box)
    shots(elena, "dt-06b-turn-the-tower-in-reach", full=False)
    tap(elena, "end_turn")  # "Turn the tower" on her phone

    # Denise walks into Stormwood and loses against what she draws there
    v = until(server, lambda v: v["active"] == "Denise" and v["phase"] == "move")
    assert v["tower"]["step"] == 1
    tap(denise, "step-th-forest")
    until(server, lambda v: v["players"]["Denise"]["space"] == "th-forest")
    tap(denise, "stop")
    v = until(server, lambda v: v["awaiting"] and v["awaiting"]["kind"] == "token")
    for token in ["ogre", "troll", "wraith", "dark-knight"][: v["here"]["draw"]]:
        until(server, lambda v: v["awaiting"] and v["awaiting"]["kind"] == "token")
        tap(denise, f"draw_token-{token}")
    until(server, lambda v: v["phase"] == "scrolls_others")
    for other in (elena, marta):
        tap(other, "pass")
    until(server, lambda v: v["phase"] == "pre_roll")
    roll(host, server, (1, 2))
    until(server, lambda v: v["phase"] == "defeat")
    denise.wait_for_selector("[data-action='flee-th-city']")
    card_shot(denise, "#dt-fight .dt-totals", shots, "dt-08-defeat")
    tap(denise, "flee-th-city")
    until(server, lambda v: v["phase"] == "cleanup")
    denise.wait_for_selector("[data-result='defeat']")
    host.click("[data-press='1']")  # Denise's seat button turns the tower

    # Marta shops in Copperdell
    until(server, lambda v: v["active"] == "Marta" and v["phase"] == "move")
    tap(marta, "stop")
    until(server, lambda v: v["phase"] == "city")
    tap(marta, "shop")
    for card in ("dagger", "chain-mail"):
        until(server, lambda v: v["awaiting"] and v["awaiting"]["kind"] == "item")
        tap(marta, f"draw_item-{card}")
    until(server, lambda v: v["shop"] and len(v["shop"]["cards"]) == 2 and not v["awaiting"])
    marta.wait_for_selector("[data-action='buy-dagger-equipment']:not([disabled])")
    card_shot(marta, "#actions-card", shots, "dt-09-city-shop")
    tap(marta, "buy-dagger-equipment")
    until(server, lambda v: v["players"]["Marta"]["gold"] == 50)
    tap(marta, "done")
    until(server, lambda v: v["phase"] == "cleanup")
    host.click("#sim-turn-tower")  # the tower's sticker on the reader
    v = until(server, lambda v: v["active"] == "Elena" and v["turn"] == 4)
    assert v["tower"]["step"] == 3
    table.wait_for_selector("#dt-turn:has-text('turn 4')")
    shots(host, "dt-11-host-simulated-table")
    shots(table, "dt-12-table-after-three-turns")
    for page in [host, table, *pages.values()]:
        assert not page.errors, page.errors


@pytest.mark.browser
def test_levelling_up_equipping_and_trading_on_the_phones(server, phone, shots):
    """An arranged position (the option ``scenario``): Elena levels up, puts a dagger from her
    backpack into her weapon slot, may cross a lake with her scroll, then stops where Denise
    stands and offers a trade, which Denise accepts by choosing the scroll she hands over."""
    scenario = {
        "heroes": {
            "Elena": {
                "character": "topdeck",
                "home": "rv-city",
                "xp": 10,
                "gold": 80,
                "items": [{"card": "dagger", "slot": "backpack"}],
                "scrolls": ["water-walking"],
            },
            "Denise": {
                "character": "lumpin",
                "home": "th-city",
                "space": "rv-wood",
                "items": [{"card": "lucky-ring"}],
                "scrolls": ["hex", "aegis"],
            },
        }
    }
    from support import post

    status, answer = post(
        f"{server.host}/api/new_game",
        {
            "confirm": True,
            "game": "dorktower",
            "players": ["Elena", "Denise"],
            "options": {"scenario": scenario},
            "seed": 4,
        },
    )
    assert status == 200, answer
    links = join_all(server.host)
    elena, denise = phone(links["Elena"]), phone(links["Denise"])
    for page in (elena, denise):
        page.wait_for_selector("#conn:text('Live')")
    across = "[data-action='step-rv-mere-scroll-water-walking']"  # a lake, by her scroll
    elena.wait_for_selector(across)
    assert "with Water Walking" in elena.inner_text(across)
    tap(elena, "level_up")
    until(server, lambda v: v["players"]["Elena"]["level"] == "high")
    tap(elena, "equip-dagger-0")
    v = until(server, lambda v: v["players"]["Elena"]["slots"][0]["card"] == "dagger")
    assert v["players"]["Elena"]["strength"] == 10
    elena.wait_for_selector("#dt-sheet .dt-stat:has-text('11')")  # 10 + the dagger's 1
    tap(elena, "step-rv-wood")
    until(server, lambda v: v["players"]["Elena"]["space"] == "rv-wood")
    tap(elena, "stop")
    until(server, lambda v: v["phase"] == "trade")
    elena.wait_for_selector("form.dt-offer")
    elena.fill("form.dt-offer input[type='number'] >> nth=0", "20")
    elena.locator("form.dt-offer label.check:has-text('Dagger')").click()
    elena.fill("form.dt-offer input[type='number'] >> nth=2", "1")
    card_shot(elena, "#actions-card", shots, "dt-13-trade-offer")
    elena.click("form.dt-offer [data-action='offer']")
    v = until(server, lambda v: v["offer"] is not None)
    assert v["offer"]["give"] == {"gold": 20, "items": ["dagger"], "scrolls": 0}
    assert v["offer"]["take"] == {"gold": 0, "items": [], "scrolls": 1}
    denise.wait_for_selector("[data-action='accept']")
    denise.check("#actions input[type='checkbox'][value='hex']")
    card_shot(denise, "#actions-card", shots, "dt-14-trade-answer")
    tap(denise, "accept")
    v = until(server, lambda v: v["offer"] is None and v["players"]["Denise"]["gold"] == 80)
    assert (v["players"]["Elena"]["scroll_count"], v["players"]["Denise"]["scroll_count"]) == (2, 1)
    elena.wait_for_selector("#dt-sheet .dt-scroll:has-text('Hex')")
    assert "Hex" not in denise.inner_text("#dt-sheet")
    tap(elena, "done")
    until(server, lambda v: v["phase"] == "encounter" and v["awaiting"]["kind"] == "token")
    elena.wait_for_selector("#dt-draw-card:not([hidden])")
    for page in (elena, denise):
        assert not page.errors, page.errors


def _dork_bot():
    """The web tests' bot (tests/games/dorktower/test_dorktower_web.py), which plays through the phones' API
    and the simulated table."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "games" / "dorktower" / "test_dorktower_web.py"
    spec = importlib.util.spec_from_file_location("dorktower_web_bot", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.browser
def test_the_pages_follow_a_long_game_without_errors(server, phone):
    """Fights, treasure, shops, flights and the turns of the tower: every phone and the table
    display draw each moment without a script error, and end on the table's prompt."""
    bot_module = _dork_bot()
    links = bot_module.new_game(server, PLAYERS, options={"start_roll": True}, seed=6)
    pages = {p: phone(links[p]) for p in PLAYERS}
    pages["table"] = phone(f"{server.base}/table")
    for page in pages.values():
        page.wait_for_selector("#conn:text('Live')")
    bot = bot_module.DorkBot(server, links, seed=6)
    for _ in range(70):
        if not bot.step():
            break
    prompt = server.table.public_view()["prompt"]
    for page in pages.values():
        page.wait_for_function(
            "p => document.getElementById('prompt').textContent === p", arg=prompt
        )
    assert server.table.public_view()["turn"] >= 4
    for page in pages.values():
        assert not page.errors, page.errors
