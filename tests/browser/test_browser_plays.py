"""The table remembers, in headless Chromium at 390x844: two short games of Abracada...What? with
different winners are played at the table (their recorded logs, fed to the table as its devices
and phones would), the host's page offers the last one's BG Stats link at its end, the host's
Plays page lists both (newest first, winners and scores as their logs say) and filters them by
game and by player, and the table display steps through one from its set-up to its end. In
English and Italian; screenshots go to tests/artifacts/screenshots/plays-*.png."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from plays_support import TESTS
from support import Server

from companion.games import get_game
from companion.table.history import History

REPLAYS = TESTS / "games/abracadawhat/replays"
#: (recorded log, its players renamed): Ann wins the first, Cyd the second
GAMES = [
    ("game-2.jsonl", {"P0": "Ann", "P1": "Bo"}),
    ("game-1.jsonl", {"P0": "Ann", "P1": "Cyd", "P2": "Dee"}),
]


@pytest.fixture
def server(tmp_path):
    s = Server.start(tmp_path)
    yield s
    s.stop()


def renamed(value, names: dict[str, str]):
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [renamed(v, names) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): renamed(v, names) for k, v in value.items()}
    return value


def play_recorded(server, log: str, names: dict[str, str]) -> int:
    """Play a recorded log at the table, its players renamed; the play's id."""
    lines = [json.loads(line) for line in (REPLAYS / log).read_text().splitlines() if line]
    header = renamed(lines[0], names)
    table = server.table
    answer = table.call(
        "new_game",
        "host",
        game=header["game"],
        players=header["players"],
        options=header["options"],
        seed=header["seed"],
        confirm=True,
    )
    assert answer["ok"], answer
    for action in lines[1:]:
        table.call("action", "test", action=renamed(action, names))
    assert table.history.game.outcome(table.history.state).finished
    return table.record.id


def replayed_scores(log: str, names: dict[str, str]) -> dict[str, int]:
    """Every player's final score by the rules, the recorded log replayed (undo entries too)."""
    lines = [json.loads(line) for line in (REPLAYS / log).read_text().splitlines() if line]
    header = renamed(lines[0], names)
    history = History(
        get_game(header["game"]), header["players"], header["options"], header["seed"]
    )
    for action in lines[1:]:
        history.submit(renamed(action, names))
    return dict(history.game.outcome(history.state).scores)


def bgstats(link: str) -> dict:
    return json.loads(parse_qs(urlsplit(link).query)["data"][0])


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "it"])
def test_two_plays_listed_filtered_and_stepped_through(server, phone, shots, lang):
    first = play_recorded(server, *GAMES[0])
    second = play_recorded(server, *GAMES[1])
    words = {
        "en": {"won": "Finished: {} won", "step0": "Step 0 of", "plays": "2 plays"},
        "it": {"won": "Finita: ha vinto {}", "step0": "Passo 0 di", "plays": "2 partite"},
    }[lang]

    # the host's page: the game at the table is over, its BG Stats link is offered
    host = phone(server.host, lang)
    host.wait_for_selector("#end-bgstats:not([hidden])")
    payload = bgstats(host.get_attribute("#end-bgstats-link", "href"))
    assert payload["sourcePlayId"] == str(second)
    assert [p["name"] for p in payload["players"] if p["winner"]] == ["Cyd"]
    assert {p["name"]: p["score"] for p in payload["players"]} == {"Ann": 5, "Cyd": 8, "Dee": 3}
    shots(host, f"plays-{lang}-01-host-end", full=False)

    # the host's Plays page: both, newest first, with their winners and scores
    host.click("#plays-link")
    host.wait_for_selector(f"#plays li[data-play='{first}']")
    assert host.inner_text("#plays-count").startswith(words["plays"])
    ids = [
        int(i)
        for i in host.locator("#plays > li").evaluate_all("ls => ls.map(l => l.dataset.play)")
    ]
    assert ids == [second, first]
    assert host.inner_text(f"li[data-play='{first}'] .plays-result") == words["won"].format("Ann")
    assert host.inner_text(f"li[data-play='{second}'] .plays-result") == words["won"].format("Cyd")
    winner = host.locator(f"li[data-play='{first}'] li[data-winner='yes']")
    assert winner.get_attribute("data-player") == "Ann" and "9" in winner.inner_text()
    assert host.locator(f"li[data-play='{first}'] a[data-bgstats]").count() == 1
    assert host.get_attribute("#plays-csv", "href").endswith("/plays/plays.csv")
    shots(host, f"plays-{lang}-02-host-list")
    # filtered by player: only Bo's play; by game: both again
    host.select_option("#plays-player", "Bo")
    host.wait_for_selector(f"#plays li[data-play='{second}']", state="detached")
    assert host.locator("#plays > li").count() == 1
    shots(host, f"plays-{lang}-03-host-filtered", full=False)
    host.select_option("#plays-player", "")
    host.select_option("#plays-game", "abracadawhat")
    host.wait_for_selector(f"#plays li[data-play='{second}']")
    assert host.locator("#plays > li").count() == 2

    # the table display: its Plays page, one play stepped through from its set-up to its end
    display = phone(f"{server.base}/table/{server.companion.access.display_key}", lang)
    display.wait_for_selector("#end-bgstats:not([hidden])")  # the end screen's link too
    assert bgstats(display.get_attribute("#end-bgstats-link", "href")) == payload
    shots(display, f"plays-{lang}-04-table-end", full=False)
    display.click("#plays-link")
    display.wait_for_selector(f"#plays li[data-play='{first}']")
    display.select_option("#plays-player", "Bo")
    display.wait_for_selector(f"#plays li[data-play='{second}']", state="detached")
    display.click(f"li[data-play='{first}'] h3 a")
    display.wait_for_selector("#step-where:has-text('%s')" % words["step0"])
    steps = server.table.store.entry_counts([first])[first]
    assert display.get_attribute("#step-range", "max") == str(steps)
    assert display.is_disabled("#step-back") and not display.is_disabled("#step-next")
    shots(display, f"plays-{lang}-05-table-step-0")
    display.click("#step-next")
    display.wait_for_selector("#step-where:has-text('1 ')")
    assert display.locator("#board li").count() == 8  # the game's own page module draws it
    display.click("#step-last")
    display.wait_for_selector("#step-next[disabled]")
    assert f"{steps} " in display.inner_text("#step-where")
    assert "Ann" in display.inner_text("#prompt") or "Ann" in display.inner_text("#game")
    assert display.is_visible("#play-bgstats-link")
    shots(display, f"plays-{lang}-06-table-step-end")

    # its scores over the game, on the Statistics page: the numbers are the replayed logs'
    display.click("#play-chart-link")
    display.wait_for_selector("#stats-play svg")
    tallies = {
        row[0]: [int(n) for n in re.findall(r"\d+", " ".join(row[1:3]))]
        for row in display.locator("#stats-players tbody tr").evaluate_all(
            "rs => rs.map(r => [...r.children].map(c => c.innerText))"
        )
    }  # plays, then wins of the finished plays
    assert tallies == {"Ann": [2, 1, 2], "Bo": [1, 0, 1], "Cyd": [1, 1, 1], "Dee": [1, 0, 1]}
    final = replayed_scores(*GAMES[0])
    assert display.locator("#stats-play svg g.series").count() == len(final) == 2
    header = display.locator("#stats-play thead th").all_text_contents()
    last = display.locator("#stats-play tbody tr").last.locator("td").all_text_contents()
    assert dict(zip(header[1:], map(int, last), strict=True)) == final
    shots(display, f"plays-{lang}-07-table-statistics")
    for page in (host, display):
        assert not page.errors, page.errors
