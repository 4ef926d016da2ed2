"""A whole game of Abracada...What? in headless Chromium: the host sets it up on a phone, three
players join by their links, the table display watches, and everything physical happens on the
simulated table panel. Screenshots at phone size go to tests/artifacts/screenshots/."""

from __future__ import annotations

import random
import time

import pytest
from support import Server, get

from companion.games import get_game
from companion.table.history import History

PLAYERS = ["Elena", "Denise", "Marta"]


@pytest.fixture
def server(tmp_path):
    s = Server.start(tmp_path)
    yield s
    s.stop()


def wait_for_version(server, before: dict, timeout: float = 5.0) -> dict:
    """The table's next snapshot in which the game moved on (or refused something); device
    reports (a die rolling, the supply) also change the version, and are waited past."""
    deadline = time.monotonic() + timeout
    seen = (before["view"], before["events"], before["refusals"])
    while time.monotonic() < deadline:
        snap = get(f"{server.base}/api/table")
        if (snap["view"], snap["events"], snap["refusals"]) != seen:
            return snap
        time.sleep(0.02)
    raise AssertionError("the table did not change")


def own_stones_shown(page, me: str) -> int:
    """Stone faces drawn in the player's own card (there must never be any)."""
    return page.locator(f'.player[data-player="{me}"] .stone:not(.back)').count()


@pytest.mark.browser
@pytest.mark.slow
def test_a_whole_game_in_the_browser(server, phone, join, wizard, shots):
    rng = random.Random(3)
    host = phone(server.host)
    host.wait_for_selector("#conn:text('Live')")
    shots(host, "01-host-new-game")
    # three life a round keeps the game short; the playing host's whole game (test_browser_sim_blind)
    # plays with the rulebook's six
    wizard(host, "abracadawhat", PLAYERS, options={"start_life": 3})
    host.wait_for_selector("a[data-join='Marta']")
    links = {p: host.get_attribute(f"a[data-join='{p}']", "href") for p in PLAYERS}
    shots(host, "02-host-join-codes")

    table = phone(f"{server.base}/table")
    players = {p: join(links[p]) for p in PLAYERS}
    for page in [table, *players.values()]:
        page.wait_for_selector("#conn:text('Live')")

    snap = get(f"{server.base}/api/table")
    shot_taken = set()
    for _ in range(600):
        view = snap["view"]
        if view["finished"]:
            break
        for me, page in players.items():
            assert own_stones_shown(page, me) == 0, f"{me} sees their own stones"
        phase, active = view["phase"], view["active"]
        if phase in ("deal", "refill"):
            host.click("#sim-draw-all")
        elif phase == "remove":
            host.click("#sim-remove")
        elif phase == "roll":
            host.click(f"[data-face='{rng.randint(1, 6)}']")
        elif phase == "secret":
            page = players[active]
            page.locator("[data-action^='take_secret-']").first.click()
        else:
            page = players[active]
            watcher = players[next(p for p in PLAYERS if p != active)]
            held = sorted(
                int(t)
                for t in watcher.locator(
                    f'.player[data-player="{active}"] .stone'
                ).all_inner_texts()
            )
            floor = view["last_cast"] or 1
            good = [n for n in held if n >= floor]
            if view["successes"] and (not good or rng.random() < 0.15):
                page.click("[data-action='end_turn']")
            else:
                spell = good[0] if good and rng.random() < 0.9 else rng.randint(1, 8)
                page.click(f"[data-action='cast-{spell}']")
            if "mid" not in shot_taken and view["round"] == 1 and view["successes"]:
                shot_taken.add("mid")
                shots(page, f"03-player-{active}-turn")
                shots(watcher, "04-player-watching")
                shots(table, "05-table-mid-game")
                shots(host, "06-host-simulated-table")
        snap = wait_for_version(server, snap)
        if (
            view["phase"] != "deal"
            and snap["view"]["phase"] == "deal"
            and "round" not in shot_taken
        ):
            shot_taken.add("round")
            table.wait_for_selector(".result")
            shots(table, "07-table-round-over")
    else:
        pytest.fail("the game did not end in 600 steps")

    final = get(f"{server.base}/api/table")["view"]
    # the winner the pages show is the winner of the replayed log
    record = server.table.record
    history = History(get_game(record.game), record.players, record.options, record.seed)
    for entry in server.table.store.entries(record.id):
        history.submit(entry.action)
    expected = history.game.outcome(history.state).winners
    assert tuple(final["winners"]) == expected and expected
    table.wait_for_selector("#prompt:text('The game is over')")
    assert all(w in table.inner_text("#prompt") for w in expected)
    for me, page in players.items():
        page.wait_for_selector("#prompt:text('The game is over')")
        assert own_stones_shown(page, me) == 0
    shots(table, "08-table-game-over")
    shots(players[expected[0]], "09-winner-phone")
    for page in [host, table, *players.values()]:
        assert not page.errors, page.errors
