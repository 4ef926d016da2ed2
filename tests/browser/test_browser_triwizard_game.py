"""A whole game of The Triwizard Maze Game at 390x844, started by the host on the host page's
wizard and played by three players on their own phones to the real Cup, on the Corridor K board
arranged short (the ``scenario`` option, which the wizard does not offer, is added to the
wizard's own request). Every move is a tap on the maze, every decision a button; the die is
thrown on the host's simulation panel with the face the test chooses, the draws are the panel's
(stickers tapped at the drawer's own seat reader; the box is made for Corridor K, the table's
data set), and the Cup Tiles are flipped at the board's reader by the simulated hands.

Ann battles the green obstacle with green 1/5, falls short, plays her Double Die and wins; she
advances onto the Portkey Space K10 and travels to K18. Ben has no blue card for the blue
obstacle: no match, and Ann, the player to his right, pushes him back by tapping her maze. Cyd
puts the Cloak on Ben's piece with her Invisibility Cloak tile (Ben's phone switches to Italian
then, mid-game), walks onto Cup Tile 1 and flips Headstone Tile 1: her piece goes to Headstone
Space 1. Ann walks onto Cup Tile 2 and flips the Triwizard Cup: she wins, on every phone and the
table display.
At every step the table display shows no hand, no held tile and no face-down Cup Tile's identity.
Screenshots go to tests/artifacts/screenshots/twgame-*.png."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import Server, post, wait_until
from triwizard_pages import PLAYERS, tap, until, view_of

from companion.games import triwizard
from companion.games.triwizard import PLUGIN

SCENARIO = {
    "pieces": {"Ann": "K3", "Ben": "K4", "Cyd": "K20"},
    "hands": {
        "Ann": ["green-1-5", "red-1-2", "red-2-3", "orange-1-2"],
        "Ben": ["red-5-3", "red-3-4", "orange-2-3", "orange-3-4"],  # no blue
        "Cyd": ["blue-2-4", "blue-5-3", "green-4-2", "red-6-2"],
    },
    "tiles": {"Ann": ["double-die-1"], "Cyd": ["cloak-1"]},
    "lineup": ["o-green-5-1", "o-blue-9-1", "o-blue-6-1", "o-red-5-1"],
    "active": "Ann",
}
#: the tile kinds' English names as the pages write them
TILE_NAMES = {
    "double_die": "Double Die",
    "four_point": "Four Point Spell",
    "red_sparks": "Red Sparks",
    "reductor": "Reductor Curse",
    "summon_hedge": "Summon Hedge",
    "veritaserum": "Veritaserum",
}
CUP_WORDS = {
    "cup": "Triwizard Cup, face up",
    **{f"headstone-{n}": f"Headstone Tile {n}" for n in (1, 2, 3)},
}

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def server(tmp_path):
    """A simulated table with a reader at each of its first three seats, whose box of stickers is
    made for Corridor K (the table's data set, as ``--data-set triwizard=DIR`` makes it)."""
    default = PLUGIN.data.default()
    PLUGIN.data.use(Path(triwizard.__file__).parent / "data" / "corridor-k")
    readers = tuple((f"seat{n}", f"/dev/ttyUSB{n}") for n in (1, 2, 3))
    s = Server.start(tmp_path, nfc_readers=readers)
    try:
        yield s
    finally:
        s.stop()
        PLUGIN.game.add_dataset(PLUGIN.data.get(default), default=True)


def throw(host, server, face) -> None:
    """The die thrown on the host's simulation panel, showing ``face``."""
    host.wait_for_selector(f"#sim-faces [data-face='{face}']")
    before = server.table.inputs_handled
    host.click(f"#sim-faces [data-face='{face}']")
    wait_until(lambda: server.table.inputs_handled > before)


def draw(host, server) -> None:
    """What the table waits to be drawn, drawn by the panel's simulated hands."""
    before = server.table.inputs_handled
    host.click("#sim-draw")
    wait_until(lambda: server.table.inputs_handled > before)


def flip(server, tile: str) -> None:
    """The awaited Cup Tile turned face up at the board's reader: it is ``tile``."""
    status, answer = post(f"{server.host}/sim/tap_component", {"component": f"cup {tile}"})
    assert status == 200 and answer["ok"], answer


def walk(page, server, player: str, to: str) -> None:
    """One tap on a ringed space of ``page``'s maze; ``player``'s piece goes there."""
    ring = f"#tw-maze .tw-space.reach[data-space='{to}']"
    page.wait_for_selector(ring)
    page.click(ring)
    page.wait_for_selector("body:not([data-busy])", state="attached")
    until(server, lambda v: v["players"][player]["space"] == to)


def shot(page, shots, name: str, card: str | None = None) -> None:
    """The phone's screen with ``card`` just under the page's header (the page's top without
    one), the toast put away."""
    page.evaluate("document.getElementById('toast').hidden = true")
    if card is None:
        page.evaluate("window.scrollTo(0, 0)")
    else:
        page.locator(card).first.evaluate(
            "n => window.scrollTo(0, n.getBoundingClientRect().top + window.scrollY"
            " - document.querySelector('header').getBoundingClientRect().height - 8)"
        )
    shots(page, name, full=False)


def bigger_maze(page) -> None:
    """The phone's maze drawn bigger, round the phone's own piece."""
    page.click(".tw-map-zoom[aria-pressed='false']")
    page.wait_for_selector(".tw-map-wrap.big")


class TableWatch:
    """The table display's page, searched at every step for what it must never show: a card or
    a tile someone holds (by id, by the tile kind's name or class), a face-down Cup Tile's
    identity. Kinds played in the open (and the Cloak, which is public) are not searched."""

    def __init__(self, page, server):
        self.page, self.server = page, server
        self.public = {"cloak", "dumbledore"}
        self.checks = 0

    def check(self) -> None:
        state = self.server.table.history.state
        data = PLUGIN.data.get("corridor-k")
        dom = self.page.content()
        # the prompt of a short roll names the Double Die whatever the player holds
        text = self.page.inner_text("body").replace("play the Double Die, or accept", "")
        # the legend names every kind of square whatever anyone holds ("Green Hedge (the Reductor
        # Curse crosses it)"): its words are the same for every hand, so they are left out
        for words in self.page.eval_on_selector_all(
            ".tw-legend li",
            "ns => ns.map((n) => [...n.childNodes].filter((c) => c.nodeType === 3)"
            ".map((c) => c.textContent).join(''))",
        ):
            if words:
                text = text.replace(words, "")
        for hand in state["hands"]:
            for card in hand:
                assert card not in dom, card
        for tiles in state["tiles"]:
            for tile in tiles:
                kind = data["tiles"][tile]["kind"]
                assert tile not in dom and f"t-{kind}" not in dom, tile
                if kind not in self.public and kind in TILE_NAMES:
                    assert TILE_NAMES[kind] not in text, kind
        assert self.page.locator("#tw-hand, .tw-hand, .tw-tiles, .cup.peeked").count() == 0
        up = [tile for tile in state["cups"].values() if tile]
        assert self.page.locator("#tw-maze .cup.up").count() == len(up)
        assert self.page.locator("#tw-maze .cup.down").count() == 4 - len(up)
        labels = " ".join(
            self.page.eval_on_selector_all(
                "#tw-maze [data-space]", "ns => ns.map((n) => n.getAttribute('aria-label'))"
            )
        )
        for tile, words in CUP_WORDS.items():
            if tile not in up:
                assert f"face up: {'the ' if tile == 'cup' else ''}{words}" not in labels, tile
                assert words not in text.replace("the Triwizard Cup, face up", ""), tile
        self.checks += 1


def test_three_players_play_a_short_game_to_the_real_cup_on_their_phones(
    server, phone, join, wizard, shots
):
    host = phone(server.host)
    host.wait_for_selector("#conn:text('Live')")

    def with_scenario(route):
        body = json.loads(route.request.post_data)
        assert body["game"] == "triwizard" and body["options"]["data_set"] == "corridor-k"
        body["options"]["scenario"] = SCENARIO
        route.continue_(post_data=json.dumps(body))

    host.route("**/api/new_game", with_scenario)
    wizard(host, "triwizard", PLAYERS, options={"data_set": "corridor-k"})
    host.wait_for_selector("a[data-join='Cyd']")
    links = {p: host.get_attribute(f"a[data-join='{p}']", "href") for p in PLAYERS}
    table = phone(f"{server.base}/table")
    pages = {p: join(links[p], "it" if p == "Cyd" else "en") for p in PLAYERS}
    ann, ben, cyd = (pages[p] for p in PLAYERS)
    watch = TableWatch(table, server)
    for page in (table, *pages.values()):
        page.wait_for_selector("#tw-maze .tw-space[data-space='K5']")
    v = until(server, lambda v: v["phase"] == "open" and v["active"] == "Ann")
    assert v["data_set"] == "corridor-k" and v["players"]["Cyd"]["space"] == "K20"
    watch.check()

    # Ann: a 1 lets her walk 2 spaces; one tap on K5, the Obstacle Space, and she battles
    throw(host, server, 1)
    until(server, lambda v: v["phase"] == "moving")
    shot(ann, shots, "twgame-01-maze-en", "#tw-maze-card")
    shot(cyd, shots, "twgame-02-maze-it", "#tw-maze-card")
    walk(ann, server, "Ann", "K5")
    until(server, lambda v: v["phase"] == "battle_select")
    watch.check()
    ann.wait_for_selector("[data-action='play_card-green-1-5']")
    assert ann.locator("#tw-hand button[data-action^='play_card']:enabled").count() == 1
    tap(ann, "play_card-green-1-5")
    until(server, lambda v: v["phase"] == "battle_roll")
    throw(host, server, 2)  # 1 + 2 = 3, short of 5 (TW-BATTLE-4)
    v = until(server, lambda v: v["phase"] == "battle_short")
    assert (v["fight"]["total"], v["fight"]["result"]) == (3, "short")
    ann.wait_for_selector("[data-action='play_tile-double-die-1']")
    shot(ann, shots, "twgame-03-battle-en", "#tw-fight-card")
    cyd.wait_for_selector("#tw-fight-card:not([hidden])")
    shot(cyd, shots, "twgame-04-battle-it", "#tw-fight-card")
    watch.check()
    tap(ann, "play_tile-double-die-1")  # a Resource Tile: roll again and add (TW-RES-DDIE-1)
    watch.public.add("double_die")
    until(server, lambda v: v["phase"] == "battle_reroll")
    throw(host, server, 3)  # 3 + 3 = 6: won; advance up to the card's 5 (TW-BATTLE-WIN-1)
    v = until(server, lambda v: v["phase"] == "advance")
    assert v["fight"]["result"] == "won" and v["advance"]["max"] == 5
    watch.check()
    # onto K10, a Portkey Space; the reward first: 1 Resource Tile (TW-BATTLE-WIN-2)
    walk(ann, server, "Ann", "K10")
    v = until(server, lambda v: v["awaiting"] and v["awaiting"]["kind"] == "tile")
    assert v["awaiting"]["player"] == "Ann"
    draw(host, server)
    # then the space acts: she travels to K18, the other Portkey A (TW-AMB-9, TW-PORT-2)
    v = until(server, lambda v: v["phase"] == "post")
    assert v["players"]["Ann"]["space"] == "K18"
    assert v["players"]["Ann"]["tile_count"] == 1
    assert v["lineup"][0]["face_up"] is False and v["current"] == 2  # TW-OCARD-3
    ann.wait_for_selector("#tw-hand .tw-tiles li")
    for page, words in ((ann, "defeated (face down)"), (cyd, "sconfitto")):
        page.wait_for_selector(f"#tw-lineup .tw-obstacle.down:has-text('{words}')")
    watch.check()
    tap(ann, "end_turn")

    # Ben: onto K5 and no blue card for the blue obstacle: no match (TW-BATTLE-2)
    until(server, lambda v: v["active"] == "Ben" and v["phase"] == "open")
    throw(host, server, 1)
    walk(ben, server, "Ben", "K5")
    until(server, lambda v: v["phase"] == "battle_select")
    ben.wait_for_selector("[data-action='no_match']:enabled")
    assert ben.locator("#tw-hand button[data-action^='play_card']:enabled").count() == 0
    tap(ben, "no_match")
    v = until(server, lambda v: v["phase"] == "push_back")
    # the player to his right, Ann, pushes him back up to 4 spaces (TW-BATTLE-LOSE-2)
    assert v["push_back"]["by"] == "Ann" and v["push_back"]["max"] == 4
    ann.wait_for_selector("#tw-maze .tw-space.reach[data-space='K2']")
    assert ben.locator("#tw-maze .tw-space.reach").count() == 0
    watch.check()
    walk(ann, server, "Ben", "K2")
    until(server, lambda v: v["phase"] == "post")
    watch.check()
    tap(ben, "end_turn")

    # Cyd puts the Cloak on Ben's piece with her Invisibility Cloak tile, chosen in its picker
    until(server, lambda v: v["active"] == "Cyd" and v["phase"] == "open")
    cyd.wait_for_selector("#tw-pick-cloak-1")
    cyd.select_option("#tw-pick-cloak-1", "Ben")
    tap(cyd, "play_tile-cloak-1")
    v = until(server, lambda v: v["cloak"] == "Ben")
    assert v["players"]["Ben"]["cloaked"] and v["players"]["Cyd"]["tile_count"] == 0
    for page in (table, ann, ben, cyd):
        page.wait_for_selector("#tw-maze .tw-piece.cloaked")
        assert page.locator("#tw-maze .tw-piece.cloaked").count() == 1
    label = ben.get_attribute("#tw-maze [data-space='K2']", "aria-label")
    assert "Ben under the Cloak" in label, label
    bigger_maze(ben)
    shot(ben, shots, "twgame-05-cloak-en", "#tw-maze-card")
    # Ben's phone switches to Italian, mid-game: the same moment in Italian
    ben.goto(f"{server.base}/lang/it?next={ben.url.split(server.base, 1)[1]}")
    ben.wait_for_selector("html[lang='it'] #tw-maze .tw-piece.cloaked")
    label = ben.get_attribute("#tw-maze [data-space='K2']", "aria-label")
    assert "Ben sotto il Mantello" in label, label
    bigger_maze(ben)
    shot(ben, shots, "twgame-06-cloak-it", "#tw-maze-card")
    watch.check()
    # a 1: one step onto Cup Tile 1, face down; it is Headstone Tile 1 (TW-HEAD-1, -2)
    throw(host, server, 1)
    walk(cyd, server, "Cyd", "C1")
    until(server, lambda v: v["phase"] == "flip")
    watch.check()
    flip(server, "headstone-1")
    headstone = PLUGIN.data.get("corridor-k")["board"]["headstones"]["1"]
    v = until(server, lambda v: v["active"] == "Ann")  # her turn ended at once
    assert v["players"]["Cyd"]["space"] == headstone
    assert next(c for c in v["cups"] if c["slot"] == "1")["face_up"] == "headstone-1"
    for page in (table, ann, cyd):
        wait_until(lambda p=page: p.locator("#tw-maze .cup.up").count() == 1)
    watch.check()

    # Ann refills her hand at her own reader, then a 2: four steps onto Cup Tile 2
    until(server, lambda v: v["awaiting"] and v["awaiting"]["kind"] == "card")
    draw(host, server)
    until(server, lambda v: v["phase"] == "open" and v["players"]["Ann"]["hand_count"] == 4)
    assert len(view_of(server, "Ann")["players"]["Ann"]["hand"]) == 4
    watch.check()
    throw(host, server, 2)
    walk(ann, server, "Ann", "C2")
    until(server, lambda v: v["phase"] == "flip")
    flip(server, "cup")  # the Triwizard Cup: Ann wins at once (TW-END-2)
    v = until(server, lambda v: v["finished"])
    assert v["winners"] == ["Ann"] and v["phase"] == "over"
    for page, words in (
        (table, "The game is over: Ann found the Triwizard Cup."),
        (ann, "The game is over: Ann found the Triwizard Cup."),
        (ben, "La partita è finita: Ann ha trovato la Coppa dei Tre Maghi."),
        (cyd, "La partita è finita: Ann ha trovato la Coppa dei Tre Maghi."),
    ):
        page.wait_for_selector(f"#prompt:has-text('{words}')")
        assert page.inner_text("body").count(words.split(":")[0]) == 1  # said once
        wait_until(lambda p=page: p.locator("#tw-maze .cup.up.real").count() == 1)
    watch.check()
    shot(ann, shots, "twgame-07-end-en")
    shot(ben, shots, "twgame-08-end-it")
    shot(table, shots, "twgame-09-end-table-en")
    assert watch.checks >= 12
    # the private draws came in at the drawer's own seat reader, the Cup Tiles at the board's
    sources = {
        (e.action["type"], e.source)
        for e in server.table.store.entries(server.table.record.id)
        if e.action["type"] in ("draw_tile", "draw_card", "flip_cup")
    }
    assert sources == {
        ("draw_tile", "nfc:seat1"),
        ("draw_card", "nfc:seat1"),
        ("flip_cup", "nfc:board"),
    }, sources
    for page in (host, table, *pages.values()):
        assert not page.errors, page.errors
