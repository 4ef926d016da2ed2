"""What the Triwizard Maze Game's browser tests share: a game arranged on the Corridor K board,
waiting for the referee's view, a player's own view, tapping a button, the draws a table without
stickers tells on the phones, and a phone's screenshot with one card at its top."""

from __future__ import annotations

from support import join_all, post, wait_until

from companion.games.triwizard import PLUGIN

PLAYERS = ["Ann", "Ben", "Cyd"]  # Cyd reads Italian


def arranged(server, scenario: dict, seed: int, **options) -> dict[str, str]:
    """A new game on Corridor K started as ``scenario`` says (the ``scenario`` option, with full
    hands and the lineup's first four obstacles unless it says otherwise); the seats' pages."""
    data = PLUGIN.data.get("corridor-k")
    cards = sorted(data["battle"])
    scenario = {
        "hands": {name: cards[4 * i : 4 * i + 4] for i, name in enumerate(PLAYERS)},
        "lineup": sorted(data["obstacles"])[:4],
        **scenario,
    }
    status, answer = post(
        f"{server.host}/api/new_game",
        {
            "confirm": True,
            "game": "triwizard",
            "players": PLAYERS,
            "options": {"data_set": "corridor-k", "scenario": scenario, **options},
            "seed": seed,
        },
    )
    assert status == 200, answer
    return join_all(server.host)


def until(server, predicate, timeout: float = 10.0):
    """Wait until the referee's view satisfies ``predicate``; returns that view."""

    def check():
        v = server.table.referee_view()
        return v if v is not None and predicate(v) else None

    return wait_until(check, timeout)


def view_of(server, player: str) -> dict:
    """What ``player``'s own page is drawn from."""
    return PLUGIN.game.view(server.table.history.state, player)


def tap(page, key: str) -> None:
    page.click(f"[data-action='{key}']")
    page.wait_for_selector("body:not([data-busy])", state="attached")


def roll(server, face) -> None:
    status, answer = post(f"{server.host}/sim/roll", {"face": face})
    assert status == 200 and answer["ok"], answer


def draw_all(server, links) -> None:
    """Every card, tile and obstacle the table waits for, drawn as the game's own sample and told
    on a phone (the drawer's; a public reveal on the first player's), as a table without
    stickers does."""
    for _ in range(40):
        awaiting = server.table.referee_view()["awaiting"]
        if awaiting is None or awaiting["kind"] == "die":
            return
        action = PLUGIN.game.sample(server.table.history.state)
        status, answer = post(f"{links[action.get('player') or PLAYERS[0]]}/api/action", action)
        assert status == 200 and answer["ok"], answer
    raise AssertionError("the table kept waiting for draws")


def card_shot(page, shots, name: str, card: str = "#tw-maze-card") -> None:
    """The phone's screen with ``card`` at its top, the toast put away."""
    page.evaluate("document.getElementById('toast').hidden = true")
    page.locator(card).evaluate(
        "n => window.scrollTo(0, n.getBoundingClientRect().top + window.scrollY - 8)"
    )
    shots(page, name, full=False)
