"""The Triwizard Maze Game on the pages, at a simulated table with three players on the Corridor K
board: the maze drawn from the data set on the table display and on every phone (every space
with its name, the features by glyph, the Cup Tiles face down, the pieces in their seats' shapes),
Ann's first move made by tapping a ringed space of her map, her hand and tiles on her phone only,
and the pages in English and Italian. Screenshots at 390x844 go to
tests/artifacts/screenshots/twpage-*.png.

The game is not among the shipped games while it is written: the test registers it."""

from __future__ import annotations

import pytest
from support import Server, join_all, post, wait_until
from triwizard_pages import PLAYERS, arranged, card_shot, draw_all, roll, tap, until, view_of

from companion.games import ids, register, unregister
from companion.games.triwizard import PLUGIN

COLOURS = {"en": ("red", "blue", "orange", "green"), "it": ("rosso", "blu", "arancione", "verde")}

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def server(tmp_path):
    registered = PLUGIN.id not in ids()
    if registered:
        register(PLUGIN)
    try:
        s = Server.start(tmp_path)
        yield s
        s.stop()
    finally:
        if registered:
            unregister(PLUGIN.id)


def test_the_maze_a_move_by_tapping_it_and_the_hand_in_english_and_italian(server, phone, shots):
    status, answer = post(
        f"{server.host}/api/new_game",
        {
            "confirm": True,
            "game": "triwizard",
            "players": PLAYERS,
            "options": {"data_set": "corridor-k"},
            "seed": 5,
        },
    )
    assert status == 200, answer
    links = join_all(server.host)
    pages = {name: phone(links[name], "it" if name == "Cyd" else "en") for name in PLAYERS}
    ann, ben, cyd = (pages[name] for name in PLAYERS)
    table = phone(f"{server.base}/table")
    data = PLUGIN.data.get("corridor-k")
    spaces = data["board"]["spaces"]

    # the maze on every page: every space of the data set, each with its name, glyphs, Cup Tiles
    for page in (table, ann, cyd):
        page.wait_for_selector("#tw-maze .tw-space[data-space='K5']")
        assert page.locator("#tw-maze .tw-space").count() == len(spaces)
        assert page.locator("#tw-maze .tw-space:not([aria-label])").count() == 0
        assert page.locator("#tw-maze .tw-space > title").count() == len(spaces)
        assert page.locator("#tw-maze .tw-space.f-obstacle[data-space='K5']").count() == 1
        assert page.locator("#tw-maze .tw-space.f-gold_mist[data-space='K8']").count() == 1
        assert page.locator("#tw-maze .tw-space.green").count() == sum(
            1 for sp in spaces.values() if sp["kind"] == "green_hedge"
        )
        assert page.locator("#tw-maze .tw-map .portkey").count() == 6  # three pairs, each a letter
        assert page.locator("#tw-maze .cup.down").count() == 4  # face down before any flip
        assert page.locator("#tw-maze .cup.up, #tw-maze .cup.peeked").count() == 0
    assert "Obstacle Space" in ann.get_attribute("#tw-maze [data-space='K5']", "aria-label")
    assert "Casella Ostacolo" in cyd.get_attribute("#tw-maze [data-space='K5']", "aria-label")
    assert "Portkey Space A" in ann.get_attribute("#tw-maze [data-space='K10']", "aria-label")

    # the host's simulation panel says what the simulated box holds and what is awaited
    host = phone(server.host)
    host.wait_for_selector("#sim :text('stickers in the box')")
    assert "Nothing is being drawn" in host.inner_text("#sim")

    # setting up: the maze confirmed on a phone, the deal drawn, Ann shouted first
    until(server, lambda v: v["phase"] == "setup")
    ann.wait_for_selector("[data-action='placed']")
    tap(ann, "placed")
    until(server, lambda v: v["phase"] != "setup")
    host.wait_for_selector("#sim :text('Waiting for Ann to draw a Battle Card.')")
    draw_all(server, links)
    until(server, lambda v: v["phase"] == "first_player")
    ann.wait_for_selector("[data-action='first-Ann']")
    tap(ann, "first-Ann")
    until(server, lambda v: v["active"] == "Ann" and v["phase"] != "first_player")
    draw_all(server, links)
    until(server, lambda v: v["phase"] == "open")

    # the pieces on the Entrance, in their seats' shapes, on the table and every phone
    for page in (table, ann, ben, cyd):
        page.wait_for_selector("#tw-maze .tw-space[data-space='K0']")
        wait_until(lambda p=page: p.locator("#tw-maze .tw-piece").count() == 3)

    # the hand and tiles: on their owner's phone only, in the phone's language
    mine = view_of(server, "Ann")["players"]["Ann"]
    ann.wait_for_selector("#tw-hand .tw-hand li")
    assert ann.locator("#tw-hand .tw-hand li").count() == len(mine["hand"]) == 4
    assert ann.locator("#tw-hand .tw-tiles li").count() == len(mine["tiles"]) == 2
    for card, shown in zip(mine["hand"], ann.locator("#tw-hand .tw-hand li").all(), strict=True):
        text = shown.inner_text()
        assert card["colour"] in text and str(card["strength"]) in text, text
    cyds = view_of(server, "Cyd")["players"]["Cyd"]
    cyd.wait_for_selector("#tw-hand .tw-hand li")
    for card, shown in zip(cyds["hand"], cyd.locator("#tw-hand .tw-hand li").all(), strict=True):
        colour = COLOURS["it"][COLOURS["en"].index(card["colour"])]
        assert colour in shown.inner_text()
    assert table.locator(".tw-hand, .tw-tiles, #tw-hand").count() == 0
    card_shot(ann, shots, "twpage-01-hand-en", "#tw-hand-card")
    card_shot(cyd, shots, "twpage-02-hand-it", "#tw-hand-card")

    # Ann rolls 2: up to 4 spaces; her map rings what she can reach, and only hers
    roll(server, 2)
    until(server, lambda v: v["phase"] == "moving")
    reach = view_of(server, "Ann")["reach"]
    assert reach and all(r["steps"] <= 4 for r in reach)
    ann.wait_for_selector("#tw-maze .tw-space.reach")
    ringed = {r["space"] for r in reach if r["path"]}  # staying put is a button
    assert ann.locator("#tw-maze .tw-space.reach").count() == len(ringed)
    for page in (table, ben, cyd):
        assert page.locator("#tw-maze .tw-space.reach").count() == 0
    label = ann.get_attribute("#tw-maze .tw-space.reach[data-space='K4']", "aria-label")
    assert label.startswith("Move to") and "4 steps" in label, label
    card_shot(ann, shots, "twpage-03-move-en")
    card_shot(cyd, shots, "twpage-04-move-it")
    card_shot(table, shots, "twpage-05-table-en")

    # one tap moves her there
    ann.click("#tw-maze .tw-space.reach[data-space='K4']")
    until(server, lambda v: v["players"]["Ann"]["space"] == "K4")
    for page in (table, ben, cyd):  # her piece is on K4 on every page
        wait_until(
            lambda p=page: "Ann" in p.get_attribute("#tw-maze [data-space='K4']", "aria-label")
        )
    wait_until(lambda: ann.locator("#tw-maze .tw-space.reach").count() == 0)
    ann.wait_for_selector("#action-bar [data-action='end_turn']")
    card_shot(cyd, shots, "twpage-06-moved-it")
    tap(ann, "end_turn")
    until(server, lambda v: v["active"] == "Ben")
    for page in (host, table, *pages.values()):
        assert not page.errors, page.errors


def counter_prompt(server, phone, held: str) -> dict:
    """A game arranged so that Ann plays Albus Dumbledore against Ben's Cloak while Ben holds
    ``held``: what Ben's phone asks, and how the others' pages say it."""
    links = arranged(
        server,
        {
            "pieces": {"Ann": "K3", "Ben": "K7", "Cyd": "K1"},
            "cloak": "Ben",
            "tiles": {"Ann": ["dumbledore-1"], "Ben": [held]},
            "active": "Ann",
        },
        7,
        counter_seconds=60,
    )
    ann, ben, cyd = (phone(links[n], "it" if n == "Cyd" else "en") for n in PLAYERS)
    until(server, lambda v: v["phase"] == "open" and v["active"] == "Ann")
    ann.wait_for_selector("[data-action='play_tile-dumbledore-1']")
    assert ann.locator("#tw-pick-dumbledore-1 option").all_inner_texts() == ["Ben"]
    tap(ann, "play_tile-dumbledore-1")
    until(server, lambda v: v["interrupt"] and v["interrupt"]["kind"] == "dumbledore")
    ben.wait_for_selector("#tw-ask-card:not([hidden]) .tw-countdown")
    cyd.wait_for_selector("#tw-fight-card .tw-countdown")
    ask = ben.locator("#tw-ask-card")
    seen = {
        # the text without the seconds left, which tick
        "text": ask.evaluate(
            "n => { const c = n.cloneNode(true); c.querySelectorAll('.tw-countdown b')"
            ".forEach((b) => b.remove()); return c.innerText; }"
        ),
        "box": ask.bounding_box()["height"],
        "buttons": ask.locator("button").all_inner_texts(),
        "counter_enabled": ask.locator("[data-action='counter']").is_enabled(),
        "decline_enabled": ask.locator("[data-action='decline']").is_enabled(),
        "others": [
            p.locator("#tw-fight-card").evaluate(
                "n => { const c = n.cloneNode(true); c.querySelectorAll('.tw-countdown b')"
                ".forEach((b) => b.remove()); return c.innerText; }"
            )
            for p in (ann, cyd)
        ],
        "ben": ben,
        "pages": (ann, ben, cyd),
    }
    return seen


def test_the_dumbledore_counter_prompt_is_the_same_whatever_the_target_holds(server, phone, shots):
    holding = counter_prompt(server, phone, "dumbledore-2")
    shots(holding["ben"], "twpage-07-counter-holding-en", full=False)
    assert holding["counter_enabled"] and holding["decline_enabled"]
    assert holding["text"].startswith("Counter with Albus Dumbledore?")
    # Ben counters: both tiles are discarded and his piece keeps the Cloak (TW-RES-DUMB-2)
    tap(holding["ben"], "counter")
    v = until(server, lambda v: v["interrupt"] is None)
    assert v["cloak"] == "Ben" and v["players"]["Ben"]["space"] == "K7"
    for page in holding["pages"]:
        assert not page.errors, page.errors

    empty = counter_prompt(server, phone, "double-die-1")
    shots(empty["ben"], "twpage-08-counter-not-holding-en", full=False)
    assert not empty["counter_enabled"] and empty["decline_enabled"]
    # the same question, buttons, words and size on Ben's phone, and the same for the others
    for key in ("text", "box", "buttons", "others"):
        assert holding[key] == empty[key], key
    # Ben lets it stand: the Cloak goes beside the board, his piece to the nearest Penalty Space
    tap(empty["ben"], "decline")
    v = until(server, lambda v: v["interrupt"] is None)
    assert v["cloak"] is None and v["players"]["Ben"]["space"] == "K12"
    for page in empty["pages"]:
        assert not page.errors, page.errors


def test_a_peeked_cup_tile_shows_on_the_casters_phone_only(server, phone, shots):
    data = PLUGIN.data.get("corridor-k")
    links = arranged(server, {"tiles": {"Ann": ["four-point-1"]}}, 11)
    ann, ben, cyd = (phone(links[n], "it" if n == "Cyd" else "en") for n in PLAYERS)
    table = phone(f"{server.base}/table")
    until(server, lambda v: v["phase"] == "open" and v["active"] == "Ann")
    ann.wait_for_selector("#tw-pick-four-point-1")
    ann.select_option("#tw-pick-four-point-1", "3")
    tap(ann, "play_tile-four-point-1")
    draw_all(server, links)  # Ann looks at Cup Tile 3, told on her phone
    seen = wait_until(
        lambda: next((c["peeked"] for c in view_of(server, "Ann")["cups"] if c["peeked"]), None)
    )
    space = data["board"]["cup_slots"]["3"]
    ann.wait_for_selector("#tw-maze .cup.peeked")
    assert ann.locator("#tw-maze .cup.peeked").count() == 1
    label = ann.get_attribute(f"#tw-maze [data-space='{space}']", "aria-label")
    said = "the Triwizard Cup" if seen == "cup" else f"Headstone Tile {seen[-1]}"
    assert f"you saw {said} there" in label, label
    assert f"Cup Tile 3: {said}" in ann.inner_text("#tw-hand")
    card_shot(ann, shots, "twpage-09-peeked-en")
    for page in (table, ben, cyd):  # the others see the four Cup Tiles face down, as before
        page.wait_for_selector("#tw-maze .cup.down")
        assert page.locator("#tw-maze .cup.peeked, #tw-maze .cup.up").count() == 0
        assert page.locator("#tw-maze .cup.down").count() == 4
        assert "saw" not in page.get_attribute(f"#tw-maze [data-space='{space}']", "aria-label")
    for page in (table, ann, ben, cyd):
        assert not page.errors, page.errors


def battle_at_k5(server, phone, card: str) -> dict:
    """Ann, on K3 with ``card`` (blue) in hand, rolls 1 and taps K5, the Obstacle Space: the move
    ends there and she battles the first obstacle of the lineup (blue, strength 5) with it."""
    data = PLUGIN.data.get("corridor-k")
    others = [c for c in sorted(data["battle"]) if not c.startswith("blue") and c != card]
    links = arranged(
        server,
        {
            "pieces": {"Ann": "K3", "Ben": "K9", "Cyd": "K11"},
            "hands": {"Ann": [card, *others[:3]], "Ben": others[3:7], "Cyd": others[7:11]},
            "lineup": ["o-blue-5-1", "o-blue-6-1", "o-blue-8-2", "o-blue-9-1"],
        },
        13,
    )
    pages = {n: phone(links[n], "it" if n == "Cyd" else "en") for n in PLAYERS}
    until(server, lambda v: v["phase"] == "open" and v["active"] == "Ann")
    roll(server, 1)
    ann = pages["Ann"]
    ann.wait_for_selector("#tw-maze .tw-space.reach[data-space='K5']")
    label = ann.get_attribute("#tw-maze .tw-space.reach[data-space='K5']", "aria-label")
    assert "the move ends there: battle" in label, label
    ann.click("#tw-maze .tw-space.reach[data-space='K5']")
    until(server, lambda v: v["phase"] == "battle_select")
    # every card listed, only the matching one playable, "No matching card" there but disabled
    ann.wait_for_selector(f"[data-action='play_card-{card}']")
    assert ann.locator("#tw-hand .tw-hand li").count() == 4
    assert ann.locator("#tw-hand button[data-action^='play_card']:enabled").count() == 1
    assert ann.locator("[data-action='no_match']").is_disabled()
    tap(ann, f"play_card-{card}")
    until(server, lambda v: v["phase"] == "battle_roll")
    roll(server, 1)
    return {"links": links, "pages": pages}


def test_a_battle_lost_is_pushed_back_and_one_won_advances_by_tapping_the_maze(
    server, phone, shots
):
    # 1 + 1 falls short of 5: Ann gives up the Double Die, and the player to her right (Cyd, the
    # seat before hers) pushes her back by tapping her map, the first step back to K4
    lost = battle_at_k5(server, phone, "blue-1-3")
    ann, cyd = lost["pages"]["Ann"], lost["pages"]["Cyd"]
    until(server, lambda v: v["phase"] == "battle_short")
    ann.wait_for_selector("[data-action='decline']")
    tap(ann, "decline")
    v = until(server, lambda v: v["phase"] == "push_back")
    assert v["push_back"]["by"] == "Cyd" and v["push_back"]["max"] == 3
    cyd.wait_for_selector("#tw-maze .tw-space.reach[data-space='K2']")
    rings = set(
        cyd.eval_on_selector_all("#tw-maze .tw-space.reach", "ns => ns.map((n) => n.dataset.space)")
    )
    assert rings == {"K4", "K3", "K2"}, rings
    assert ann.locator("#tw-maze .tw-space.reach").count() == 0
    card_shot(cyd, shots, "twpage-10-push-back-it")
    cyd.click("#tw-maze .tw-space.reach[data-space='K2']")
    until(server, lambda v: v["players"]["Ann"]["space"] == "K2")
    for page in lost["pages"].values():
        assert not page.errors, page.errors

    # 6 + 1 reaches 5: Ann advances up to her card's movement (3), never back to K4 first
    won = battle_at_k5(server, phone, "blue-6-3")
    ann = won["pages"]["Ann"]
    until(server, lambda v: v["phase"] == "advance")
    ann.wait_for_selector("#tw-maze .tw-space.reach[data-space='K8']")
    rings = set(
        ann.eval_on_selector_all("#tw-maze .tw-space.reach", "ns => ns.map((n) => n.dataset.space)")
    )
    assert "K8" in rings and "K4" not in rings and "K9" not in rings, rings  # Ben stands on K9
    assert "Advance to" in ann.get_attribute("#tw-maze [data-space='K8']", "aria-label")
    card_shot(ann, shots, "twpage-11-advance-en")
    ann.click("#tw-maze .tw-space.reach[data-space='K8']")
    until(server, lambda v: v["players"]["Ann"]["space"] == "K8")
    for page in won["pages"].values():
        assert not page.errors, page.errors


def test_a_route_through_green_hedge_says_it_uses_the_reductor_curse(server, phone, shots):
    links = arranged(server, {"pieces": {"Ann": "K7"}, "tiles": {"Ann": ["reductor-1"]}}, 17)
    ann = phone(links["Ann"])
    until(server, lambda v: v["phase"] == "open" and v["active"] == "Ann")
    roll(server, 2)
    # K6, the Green Hedge under it, then the Path beyond: 3 steps, only with the Reductor Curse
    through = next(
        r for r in view_of(server, "Ann")["reach"] if r["reductor"] and len(r["path"]) == 3
    )
    ring = f"#tw-maze .tw-space.reach.reductor[data-space='{through['space']}']"
    ann.wait_for_selector(ring)
    assert "with the Reductor Curse" in ann.get_attribute(ring, "aria-label")
    ann.click(ring)  # one tap asks first: the tile would be spent
    ann.wait_for_selector(".tw-sheet")
    assert "it uses your Reductor Curse" in ann.inner_text(".tw-sheet")
    assert view_of(server, "Ann")["players"]["Ann"]["space"] == "K7"
    card_shot(ann, shots, "twpage-12-reductor-en")
    tap(ann, f"move-{through['space']}")
    v = until(server, lambda v: v["players"]["Ann"]["space"] == through["space"])
    assert v["players"]["Ann"]["tile_count"] == 0
    assert not ann.errors, ann.errors


def test_veritaserum_shows_the_targets_tiles_on_the_casters_phone_only(server, phone):
    links = arranged(
        server, {"tiles": {"Ann": ["veritaserum-1"], "Ben": ["cloak-1", "red-sparks-1"]}}, 19
    )
    ann, ben, cyd = (phone(links[n], "it" if n == "Cyd" else "en") for n in PLAYERS)
    table = phone(f"{server.base}/table")
    until(server, lambda v: v["phase"] == "open" and v["active"] == "Ann")
    ann.wait_for_selector("#tw-pick-veritaserum-1")
    assert ann.locator("#tw-pick-veritaserum-1 option").all_inner_texts() == ["Ben"]  # Cyd: none
    tap(ann, "play_tile-veritaserum-1")
    until(server, lambda v: v["interrupt"] and v["interrupt"]["kind"] == "veritaserum")
    ann.wait_for_selector("#tw-ask [data-action='take-red-sparks-1']")
    assert "Ben shows you their Resource Tiles" in ann.inner_text("#tw-ask")
    assert ann.locator("#tw-ask .tw-tiles li").count() == 2
    for page in (table, cyd):
        page.wait_for_selector("#tw-fight-card:not([hidden])")
        assert "Red Sparks" not in page.inner_text("#tw-fight-card")
        assert "Scintille Rosse" not in page.inner_text("#tw-fight-card")
        assert page.locator("#tw-ask .tw-tiles, [data-action^='take']").count() == 0
    assert ben.locator("[data-action^='take']").count() == 0
    tap(ann, "take-red-sparks-1")
    v = until(server, lambda v: v["interrupt"] is None)
    assert (v["players"]["Ann"]["tile_count"], v["players"]["Ben"]["tile_count"]) == (1, 1)
    ann.wait_for_selector("#tw-hand .tw-tiles li.t-red_sparks")
    for page in (table, ann, ben, cyd):
        assert not page.errors, page.errors


def test_a_seventh_tile_is_discarded_from_the_phone(server, phone):
    six = ["cloak-1", "cloak-2", "double-die-1", "four-point-1", "red-sparks-1", "veritaserum-1"]
    links = arranged(server, {"pieces": {"Ann": "K7"}, "tiles": {"Ann": six}}, 23)
    ann, ben = phone(links["Ann"]), phone(links["Ben"])
    until(server, lambda v: v["phase"] == "open" and v["active"] == "Ann")
    roll(server, 1)
    ann.wait_for_selector("#tw-maze .tw-space.reach[data-space='K8']")
    ann.click("#tw-maze .tw-space.reach[data-space='K8']")  # Gold Mist: draw 1 Resource Tile
    until(server, lambda v: v["players"]["Ann"]["space"] == "K8")
    draw_all(server, links)
    until(server, lambda v: v["interrupt"] and v["interrupt"]["kind"] == "overflow")
    ann.wait_for_selector("#tw-ask-card:not([hidden])")
    assert "Too many Resource Tiles" in ann.inner_text("#tw-ask")
    assert ann.locator("#tw-hand button[data-action^='discard_tile']:enabled").count() == 7
    ben.wait_for_selector("#tw-fight-card :text('discards down to 6')")
    assert ben.locator("[data-action^='discard_tile']").count() == 0
    tap(ann, "discard_tile-cloak-2")
    v = until(server, lambda v: v["interrupt"] is None)
    assert v["players"]["Ann"]["tile_count"] == 6
    for page in (ann, ben):
        assert not page.errors, page.errors


def test_in_a_declared_maze_the_mover_declares_the_steps_and_the_end_on_the_phone(
    server, phone, shots
):
    links = arranged(server, {}, 29, maze="declared")
    ann, cyd = phone(links["Ann"]), phone(links["Cyd"], "it")
    table = phone(f"{server.base}/table")
    until(server, lambda v: v["phase"] == "open" and v["active"] == "Ann")
    for page in (ann, cyd, table):  # no maze to draw: the places are said in words
        page.wait_for_selector("#tw-players li")
        assert page.locator("#tw-maze .tw-map").count() == 0
    assert "Maze Entrance" in table.inner_text("#tw-players")
    assert "Entrata Labirinto" in cyd.inner_text("#tw-players")
    roll(server, 2)
    ann.wait_for_selector("#tw-declare-steps")
    assert "up to 4 spaces" in ann.inner_text("#actions")
    assert ann.locator("#tw-declare-steps option").all_inner_texts() == ["0", "1", "2", "3", "4"]
    assert cyd.locator("#tw-declare-steps").count() == 0
    ann.select_option("#tw-declare-steps", "3")
    ann.select_option("#tw-declare-end", "gold_mist")
    ann.evaluate("document.getElementById('toast').hidden = true")
    ann.locator("#actions-card").evaluate(
        "n => window.scrollTo(0, n.getBoundingClientRect().top + window.scrollY - 8)"
    )
    shots(ann, "twpage-13-declared-en", full=False)
    tap(ann, "declare")
    v = until(server, lambda v: v["players"]["Ann"]["space"] == "gold_mist")
    assert v["awaiting"]["kind"] == "tile"  # the Gold Mist's Resource Tile
    table.wait_for_selector("#tw-players li:has-text('Gold Mist Space')")
    for page in (ann, cyd, table):
        assert not page.errors, page.errors
