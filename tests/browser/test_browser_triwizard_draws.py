"""The Triwizard Maze Game at a table without stickers on its cards: what is drawn is told on a
phone. The drawer's own phone lists what may be drawn, Battle Cards by what is printed on them
(colour, strength, movement, how many such cards may still be drawn; never an id), Resource Tiles
by kind, the Cup identities a Four Point Spell may show; a public draw (an Obstacle Card laid in
the Lineup) is told on the phone of the player whose turn it is (the first seat's while the game
is dealt). Nobody else's phone shows the picker. Screenshots at 390x844 in English and Italian go
to tests/artifacts/screenshots/twdraw-*.png."""

from __future__ import annotations

import pytest
from support import Server, join_all, post, wait_until
from triwizard_pages import PLAYERS, arranged, card_shot, tap, until, view_of

from companion.games import ids, register, unregister
from companion.games.triwizard import PLUGIN

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PICKER = "#tw-ask-card:not([hidden]) .tw-draw-list"


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


def sample_until(server, links, done) -> None:
    """The game's own draws told on the phones until ``done(awaiting)``."""
    for _ in range(60):
        awaiting = server.table.referee_view()["awaiting"]
        if done(awaiting):
            return
        action = PLUGIN.game.sample(server.table.history.state)
        status, answer = post(f"{links[action.get('player') or PLAYERS[0]]}/api/action", action)
        assert status == 200 and answer["ok"], answer
    raise AssertionError("the awaited draw never came")


def no_picker(*pages) -> None:
    """None of these pages shows a picker (once it has caught up with the table)."""
    for page in pages:
        wait_until(lambda p=page: p.locator(".tw-draw-list").count() == 0)


def test_the_deal_told_on_the_phones_cards_tiles_and_the_lineup(server, phone, shots):
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
    ann, ben, cyd = (phone(links[n], "it" if n == "Cyd" else "en") for n in PLAYERS)
    host = phone(server.host)
    data = PLUGIN.data.get("corridor-k")
    until(server, lambda v: v["phase"] == "setup")
    host.wait_for_selector("#sim :text('stickers in the box')")
    assert host.locator("#sim .tw-draw-list").count() == 0  # no public draw awaited
    ann.wait_for_selector("[data-action='placed']")
    tap(ann, "placed")
    until(server, lambda v: v["awaiting"] and v["awaiting"]["kind"] == "card")

    # Ann's deal: every Battle Card of the set by its print, with how many may still be drawn
    ann.wait_for_selector(PICKER)
    assert "What did you draw?" in ann.inner_text("#tw-ask-card")
    assert "Draw a Battle Card (4 to draw)" in ann.inner_text("#tw-ask-card")
    picks = ann.locator(f"{PICKER} button")
    assert picks.count() == len(
        {(c["colour"], c["strength"], c["movement"]) for c in data["battle"].values()}
    )
    red = ann.locator(f"{PICKER} [data-action='draw-card-red-5-3']")
    assert "strength 5 · movement 3" in red.inner_text() and "1 such card" in red.inner_text()
    for card in data["battle"]:  # no id is shown
        assert card not in ann.inner_text("#tw-ask-card")
    no_picker(ben, cyd)
    # found by words: "red 5" leaves the red cards with a 5 printed on them
    ann.fill(".tw-draw-find", "red 5")
    shown = [b.inner_text() for b in picks.all() if b.is_visible()]
    assert 0 < len(shown) < picks.count()
    assert all("red" in text and "5" in text.rsplit("\n", 1)[0] for text in shown), shown
    assert red.is_visible()
    card_shot(ann, shots, "twdraw-01-card-en", "#tw-ask-card")
    tap(ann, "draw-card-red-5-3")
    until(server, lambda v: "red-5-3" in [c["card"] for c in v["players"]["Ann"]["hand"]])
    # the card drawn is in her hand, so it is no longer offered
    ann.wait_for_selector("#tw-hand .tw-hand li")
    wait_until(lambda: ann.locator(f"{PICKER} [data-action='draw-card-red-5-3']").count() == 0)
    assert ann.locator(f"{PICKER} [data-action='draw-card-red-1-2']").count() == 1

    # Cyd's deal in Italian
    sample_until(server, links, lambda a: a["kind"] == "card" and a["player"] == "Cyd")
    cyd.wait_for_selector(PICKER)
    text = cyd.inner_text("#tw-ask-card")
    assert "Che cosa hai pescato?" in text and "rosso" in text, text
    no_picker(ann, ben)
    card_shot(cyd, shots, "twdraw-02-card-it", "#tw-ask-card")
    tap(cyd, "draw-card-green-4-2")
    until(server, lambda v: "green-4-2" in [c["card"] for c in v["players"]["Cyd"]["hand"]])

    # a Resource Tile by kind, on Ann's phone and then on Cyd's
    sample_until(server, links, lambda a: a["kind"] == "tile" and a["player"] == "Ann")
    ann.wait_for_selector(f"{PICKER} [data-action='draw-tile-cloak']")
    assert ann.locator(f"{PICKER} button").count() == 8
    assert "4 such tiles" in ann.inner_text(f"{PICKER} [data-action='draw-tile-cloak']")
    card_shot(ann, shots, "twdraw-03-tile-en", "#tw-ask-card")
    tap(ann, "draw-tile-cloak")
    until(server, lambda v: [t["kind"] for t in v["players"]["Ann"]["tiles"]] == ["cloak"])
    cloak = ann.locator(f"{PICKER} [data-action='draw-tile-cloak']")
    wait_until(lambda: cloak.count() == 1 and "3 such tiles" in cloak.inner_text())
    tap(ann, "draw-tile-cloak")  # the second Cloak tile: the next one of the pile
    until(
        server,
        lambda v: [t["tile"] for t in v["players"]["Ann"]["tiles"]] == ["cloak-1", "cloak-2"],
    )
    sample_until(server, links, lambda a: a["kind"] == "tile" and a["player"] == "Cyd")
    cyd.wait_for_selector(f"{PICKER} [data-action='draw-tile-veritaserum']")
    assert "Veritaserum" in cyd.inner_text("#tw-ask-card")
    card_shot(cyd, shots, "twdraw-04-tile-it", "#tw-ask-card")

    # the Lineup: public, told on the first seat's phone while the game is dealt
    sample_until(server, links, lambda a: a["kind"] == "obstacle")
    ann.wait_for_selector(f"{PICKER} [data-action='draw-obstacle-red-orange-8-2']")
    assert "What was turned up?" in ann.inner_text("#tw-ask-card")
    no_picker(ben, cyd)
    card_shot(ann, shots, "twdraw-05-lineup-en", "#tw-ask-card")
    tap(ann, "draw-obstacle-red-orange-8-2")
    until(server, lambda v: v["lineup"][0]["card"] == "o-red-orange-8-2")
    wait_until(
        lambda: ann.locator(f"{PICKER} [data-action='draw-obstacle-red-orange-8-2']").count() == 0
    )
    assert ann.locator(f"{PICKER} [data-action='draw-obstacle-blue-9-1']").count() == 1
    # the next one on the host's page: its simulated hands tap that card's sticker
    host.wait_for_selector("#sim .tw-draw-list [data-action='draw-obstacle-blue-9-1']")
    assert host.locator("#sim [data-action='draw-obstacle-red-orange-8-2']").count() == 0
    card_shot(host, shots, "twdraw-08-lineup-host-en", "#sim .tw-host-draw")
    host.click("#sim [data-action='draw-obstacle-blue-9-1']")
    until(server, lambda v: v["lineup"][1]["card"] == "o-blue-9-1")
    wait_until(lambda: host.locator("#sim [data-action='draw-obstacle-blue-9-1']").count() == 0)
    assert host.locator("#sim [data-action='draw-obstacle-orange-6-1']").count() == 1
    for page in (host, ann, ben, cyd):
        assert not page.errors, page.errors


def test_a_refill_and_a_peek_told_on_the_drawers_phone(server, phone, shots):
    data = PLUGIN.data.get("corridor-k")
    cards = sorted(data["battle"])
    links = arranged(
        server,
        {
            "hands": {"Ann": cards[:3], "Ben": cards[4:8], "Cyd": cards[8:12]},
            "tiles": {"Ann": ["four-point-1"], "Ben": [], "Cyd": ["four-point-2"]},
            "active": "Ann",
        },
        11,
    )
    ann, ben, cyd = (phone(links[n], "it" if n == "Cyd" else "en") for n in PLAYERS)
    # the refill (TW-TURN-1): one card, the three in her hand not offered
    until(server, lambda v: v["awaiting"] and v["awaiting"]["why"] == "refill")
    ann.wait_for_selector(PICKER)
    assert "Draw a Battle Card: only you will see which." in ann.inner_text("#tw-ask-card")
    held = [c for c in view_of(server, "Ann")["players"]["Ann"]["hand"]]
    for c in held:
        key = f"draw-card-{c['colour']}-{c['strength']}-{c['movement']}"
        assert ann.locator(f"{PICKER} [data-action='{key}']").count() == 0
    no_picker(ben, cyd)
    # a card in Ben's hand is still offered (Ann cannot know where it is): the rules refuse it
    ben_card = data["battle"][cards[4]]
    key = f"draw-card-{ben_card['colour']}-{ben_card['strength']}-{ben_card['movement']}"
    tap(ann, key)
    ann.wait_for_selector("#feedback:not([hidden]):has-text('TW-BCARD-4')")
    assert len(view_of(server, "Ann")["players"]["Ann"]["hand"]) == 3
    card_shot(ann, shots, "twdraw-06-refill-en", "#tw-ask-card")
    tap(ann, "draw-card-red-6-4")
    until(server, lambda v: v["phase"] == "open")
    assert "red-6-4" in [c["card"] for c in view_of(server, "Ann")["players"]["Ann"]["hand"]]

    # the Four Point Spell: the four Cup identities, on Ann's phone only
    status, answer = post(
        f"{links['Ann']}/api/action", {"type": "play_tile", "tile": "four-point-1", "slot": "2"}
    )
    assert status == 200 and answer["ok"], answer
    ann.wait_for_selector(f"{PICKER} [data-action='peek-headstone-3']")
    assert ann.locator(f"{PICKER} button").count() == 4
    assert "What did you see?" in ann.inner_text("#tw-ask-card")
    assert "Cup Tile Space 2" in ann.inner_text("#tw-ask-card")
    no_picker(ben, cyd)
    card_shot(ann, shots, "twdraw-07-peek-en", "#tw-ask-card")
    tap(ann, "peek-headstone-3")
    until(server, lambda v: v["awaiting"] is None or v["awaiting"]["kind"] != "peek")
    cups = view_of(server, "Ann")["cups"]
    assert cups[1]["peeked"] == "headstone-3"
    ann.wait_for_selector("#tw-hand :text('Cup Tile 2')")
    refused = [e for e in ann.errors if "409" in e]  # the card in Ben's hand, refused above
    assert len(refused) == 1 and ann.errors == refused, ann.errors
    for page in (ben, cyd):
        assert not page.errors, page.errors
