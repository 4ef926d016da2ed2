"""A Dork Tower game with three heroes played to a result at 390x844, every move made by tapping
the map: Elena walks from Copperdell into the Old Copper Mine, loses the dungeon's fight (nobody
flees from a dungeon) and dies; Denise and Marta take their turns, moving by the map too; on
Elena's next turn the citizens resurrect her in her home city with 50 gold (DT-DEATH-1, -2).
The rivals' scroll window closes by its countdown, with nobody tapping. Marta reads Italian.
Screenshots of the map by night and by day, in English and Italian, go to
tests/artifacts/screenshots/dtgame-*.png."""

from __future__ import annotations

import pytest
from dorktower_pages import map_shot, until
from support import Server, join_all, post, wait_until

PLAYERS = ["Elena", "Denise", "Marta"]
HEROES = {  # hero and home city, chosen on each phone
    "Elena": ("topdeck", "cd-city"),
    "Denise": ("lumpin", "rv-city"),
    "Marta": ("laeoretha", "iv-city"),
}
STARTING_SCROLLS = {"Elena": "strength-of-ten", "Denise": "hex", "Marta": "aegis"}
MONSTERS = ["ogre", "troll", "wraith", "dark-knight"]


@pytest.fixture
def server(tmp_path):
    s = Server.start(tmp_path)
    yield s
    s.stop()


def tap(page, key: str) -> None:
    page.click(f"[data-action='{key}']")
    page.wait_for_selector("body:not([data-busy])", state="attached")


def move_by_map(page, server, player: str, to: str) -> None:
    """Tap ``to`` on the mover's map (and the first way, if the phone asks how)."""
    ring = f"#dt-bmap .mspace.reach[data-space='{to}']"
    page.wait_for_selector(ring)
    page.click(f"{ring} .dot")
    if page.locator(".dt-route-sheet").count():
        page.click(".dt-route-sheet button.dt-act.primary")
    page.wait_for_selector("body:not([data-busy])", state="attached")
    until(server, lambda v: v["players"][player]["space"] == to)


def finish_turn(page, server, player: str) -> None:
    """Close a trade window if one opens, then turn the tower from the phone."""
    for _ in range(6):
        v = server.table.public_view()
        if v["active"] != player:
            return
        if v["phase"] == "trade":
            tap(page, "done")
            until(server, lambda v: v["phase"] != "trade")
        elif v["phase"] in ("city", "cleanup"):
            tap(page, "end_turn")
            until(server, lambda v: v["active"] != player)
        else:
            until(server, lambda v, phase=v["phase"]: v["phase"] != phase)
    raise AssertionError(f"{player}'s turn did not end")


def roll(host, server, faces: tuple[int, ...]) -> None:
    host.wait_for_selector(f"#sim-faces [data-die='{len(faces) - 1}']")
    for die, face in enumerate(faces):
        before = server.table.inputs_handled
        host.click(f"#sim-faces [data-die='{die}'][data-face='{face}']")
        wait_until(lambda: server.table.inputs_handled > before)


def day_in(view, wedge: str) -> bool:
    return next(w["day"] for w in view["tower"]["wedges"] if w["id"] == wedge)


@pytest.mark.browser
@pytest.mark.slow
def test_three_heroes_play_to_a_death_and_a_resurrection_moving_by_the_map(
    server, phone, join, shots
):
    status, answer = post(
        f"{server.host}/api/new_game",
        {
            "confirm": True,
            "game": "dorktower",
            "players": PLAYERS,
            "options": {"start_roll": False, "scroll_window_seconds": 3},
            "seed": 3,
        },
    )
    assert status == 200, answer
    links = join_all(server.host)
    host = phone(server.host)
    pages = {name: phone(links[name], "it" if name == "Marta" else "en") for name in PLAYERS}
    elena, denise, marta = (pages[name] for name in PLAYERS)
    table = phone(f"{server.base}/table")
    for page in (host, table, elena, denise):
        page.wait_for_selector("#conn:text('Live')")
    marta.wait_for_selector("html[lang='it'] #dt-choose, html[lang='it'] #prompt")

    # heroes and home cities, then the starting scrolls, each picked on its own phone
    for name in PLAYERS:
        until(server, lambda v, n=name: v["phase"] == "choose" and v["choosing"] == n)
        hero, city = HEROES[name]
        pages[name].check(f"input[name='dt-character'][value='{hero}']")
        pages[name].check(f"input[name='dt-city'][value='{city}']")
        tap(pages[name], "choose")
    for name in PLAYERS:
        until(server, lambda v, n=name: v["awaiting"] and v["awaiting"]["player"] == n)
        pages[name].wait_for_selector("#dt-draw-card:not([hidden])")
        tap(pages[name], f"draw_scroll-{STARTING_SCROLLS[name]}")
    first = until(server, lambda v: v["phase"] == "move" and v["active"] == "Elena")
    night_in_copperdell = not day_in(first, "cd")
    when = "night" if night_in_copperdell else "day"
    for page in (elena, marta, table):
        page.wait_for_selector("#dt-bmap .mspace[data-space='cd-mine']")
    map_shot(elena, shots, f"dtgame-01-turn1-{when}-en")
    map_shot(marta, shots, f"dtgame-02-turn1-{when}-it")

    # Elena walks into the mine by the map: a dungeon draws 3 tokens by day, 4 by night
    move_by_map(elena, server, "Elena", "cd-mine")
    tap(elena, "stop")
    v = until(server, lambda v: v["awaiting"] and v["awaiting"]["kind"] == "token")
    assert v["here"]["draw"] == (4 if night_in_copperdell else 3)
    for token in MONSTERS[: v["here"]["draw"]]:
        until(server, lambda v: v["awaiting"] and v["awaiting"]["kind"] == "token")
        elena.wait_for_selector("#dt-draw-card:not([hidden])")
        tap(elena, f"draw_token-{token}")
    until(server, lambda v: v["phase"] == "scrolls_own")
    tap(elena, "done")  # she keeps her scroll
    # the others' window: a countdown on every page, and it closes with nobody tapping
    until(server, lambda v: v["phase"] == "scrolls_others")
    for page in (table, denise, marta):
        page.wait_for_selector(".dt-countdown")
    until(server, lambda v: v["phase"] == "pre_roll", timeout=12)
    roll(host, server, (1, 1))
    until(server, lambda v: v["phase"] == "defeat")
    elena.wait_for_selector("[data-action='die']")
    assert elena.locator("[data-action^='flee']").count() == 0
    assert "DT-SPACE-8" in elena.inner_text("#prompt")
    tap(elena, "die")
    v = until(server, lambda v: v["players"]["Elena"]["dead"])
    hero = v["players"]["Elena"]
    assert (hero["space"], hero["gold"], hero["scroll_count"]) == ("cd-city", 0, 0)
    finish_turn(elena, server, "Elena")

    # Denise and Marta move by the map too, into a city, and turn the tower
    until(server, lambda v: v["active"] == "Denise" and v["phase"] == "move")
    move_by_map(denise, server, "Denise", "iv-city")
    tap(denise, "stop")
    finish_turn(denise, server, "Denise")
    until(server, lambda v: v["active"] == "Marta" and v["phase"] == "move")
    move_by_map(marta, server, "Marta", "rv-city")
    tap(marta, "stop")
    finish_turn(marta, server, "Marta")

    # Elena's next turn: resurrected at home with 50 gold, her XP kept (DT-DEATH-1, DT-DEATH-2)
    v = until(server, lambda v: v["active"] == "Elena" and v["phase"] == "move")
    hero = v["players"]["Elena"]
    assert (hero["dead"], hero["space"], hero["gold"]) == (False, "cd-city", 50)
    assert v["turn"] == 4 and v["tower"]["step"] == 3
    elena.wait_for_selector("#dt-bmap .mspace.reach")
    later = "night" if not day_in(v, "cd") else "day"
    map_shot(elena, shots, f"dtgame-03-turn4-{later}-en")
    map_shot(marta, shots, f"dtgame-04-turn4-{later}-it")
    days = {w["id"]: w["day"] for w in v["tower"]["wedges"]}
    assert days != {w["id"]: w["day"] for w in first["tower"]["wedges"]}  # the tower has turned
    # the screenshots show both: a wedge by day and one by night, drawn as such
    for page in (elena, marta):
        assert page.locator("#dt-bmap .mwedge.day").count() == 4
        assert page.locator("#dt-bmap .mwedge.night").count() == 4
    for page in (host, table, *pages.values()):
        assert not page.errors, page.errors
