"""The table's countdown (``companion/table/countdown.py``): a game's ``deadline(state)`` starts
one countdown per table; when it is due and still the game's, its action is applied once, as the
table, through the one path of every action (logged, durable); a countdown overtaken does
nothing; every snapshot shows it alike. A fake clock: nothing here waits."""

from __future__ import annotations

import pytest

from companion.lights import Layout
from companion.rules import HOST, TABLE
from companion.table.countdown import TABLE_SOURCE
from companion.table.runtime import Table
from companion.table.store import Store

PLAYERS = ["Ann", "Bo", "Cid"]


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def scenario(seconds: int = 5) -> dict:
    """Ann (Topdeck, 11) steps into Ravenwood against the Mummy (8): she needs 5. Bo and Cid
    hold a scroll each, so the rivals' window opens before her roll."""
    return {
        "scroll_window_seconds": seconds,
        "start_roll": False,
        "scenario": {
            "heroes": {
                "Ann": {
                    "character": "topdeck",
                    "home": "rv-city",
                    "items": [{"card": "dagger"}, {"card": "chain-mail"}],
                },
                "Bo": {"character": "lumpin", "home": "th-city", "scrolls": ["twist-of-fate"]},
                "Cid": {"character": "grimnir", "home": "sm-city", "scrolls": ["hex"]},
            },
            "monsters": {"rv-wood": ["mummy"]},
        },
    }


@pytest.fixture
def table(tmp_path):
    """A table that is not started: the test plays the loop's part (its handlers, its
    housekeeping), so nothing runs behind its back."""
    store = Store(tmp_path / "t.db")
    clock = Clock()
    t = Table(store, layout=Layout(seats=5), clock=clock)
    t.fake_clock = clock
    t.wall_clock = lambda: 1_000_000.0 + clock.now
    yield t
    store.close()


def new_game(table: Table, seconds: int = 5) -> None:
    answer = table._op_new_game(
        "host",
        game="dorktower",
        players=PLAYERS,
        options=scenario(seconds),
        seed=1,
        confirm=True,
    )
    assert answer["ok"], answer


def act(table: Table, player: str | None, **action) -> dict:
    if player is not None:
        action["player"] = player
    answer = table._op_action(f"phone:{player}" if player else "host", action=action, player=player)
    assert answer["ok"], answer
    return answer


def logged(table: Table) -> list[tuple[dict, str]]:
    return [(e.action, e.source) for e in table.store.entries(table.record.id)]


def test_the_countdown_closes_the_window_once_as_the_table(table):
    """DT-COMBAT-4: the rivals' window opens with a 5-second countdown; at 4.9 seconds nothing
    happens; when it is due, close_window is logged from the table and applied once; looking
    again does nothing more."""
    new_game(table)
    act(table, "Ann", type="step", to="rv-wood")
    assert table.history.state["phase"] == "scrolls_others"
    shown = table.snapshot(TABLE)["countdown"]
    assert shown["seconds"] == 5 and shown["ends_at"] == 1_000_105.0
    table.fake_clock.now += 4.9
    assert table.countdown_due() is None and table.history.state["phase"] == "scrolls_others"
    table.fake_clock.now += 0.1
    answer = table.countdown_due()
    assert answer["ok"] and answer["action"] == {"type": "close_window"}
    assert table.history.state["phase"] == "pre_roll"
    assert logged(table)[-1] == ({"type": "close_window"}, TABLE_SOURCE)
    assert table.snapshot(TABLE)["countdown"] is None
    count = len(logged(table))
    table.fake_clock.now += 60
    assert table.countdown_due() is None and len(logged(table)) == count


def test_the_loops_housekeeping_looks_at_the_countdown(table):
    """The loop's housekeeping (twice a second) applies a countdown that is due."""
    new_game(table)
    act(table, "Ann", type="step", to="rv-wood")
    table.fake_clock.now += 5
    table._housekeeping()
    assert table.history.state["phase"] == "pre_roll"


def test_a_stale_countdown_does_nothing(table):
    """A countdown overtaken does nothing: every rival passed before it was due (no deadline
    any more), or a scroll played started another one (a new key, from that moment)."""
    new_game(table)
    act(table, "Ann", type="step", to="rv-wood")
    first = table.snapshot(TABLE)["countdown"]
    table.fake_clock.now += 3
    act(table, "Cid", type="play_scroll", scroll="hex")
    second = table.snapshot(TABLE)["countdown"]
    assert second["key"] != first["key"] and second["ends_at"] == first["ends_at"] + 3
    table.fake_clock.now += 2.5  # the first would be due now
    assert table.countdown_due() is None and table.history.state["phase"] == "scrolls_others"
    act(table, "Bo", type="pass")  # Cid holds no scroll any more
    assert table.history.state["phase"] == "pre_roll"
    table.fake_clock.now += 10
    assert table.countdown_due() is None
    assert all(source != TABLE_SOURCE for _, source in logged(table))


def test_the_after_roll_window_and_every_viewer_alike(table):
    """DT-COMBAT-8, DT-WIZ-4: after a winning roll the rivals' window has its own countdown;
    every viewer's snapshot carries the same one; when it ends, the roll stands."""
    new_game(table)
    act(table, "Ann", type="step", to="rv-wood")
    act(table, "Bo", type="pass")
    act(table, "Cid", type="pass")
    act(table, None, type="roll", values=[4, 3])
    assert table.history.state["phase"] == "scrolls_after"
    shown = {viewer: table.snapshot(viewer)["countdown"] for viewer in [*PLAYERS, TABLE, HOST]}
    assert len({repr(c) for c in shown.values()}) == 1 and shown[TABLE]["seconds"] == 5
    table.fake_clock.now += 5
    assert table.countdown_due()["ok"]
    assert table.history.state["last_combat"]["won"] and table.history.state["combat"] is None


def test_no_countdown_while_paused_nor_when_the_option_waits(table):
    """A paused game runs no countdown (it starts afresh on resuming); 0 seconds waits for
    every pass, as before."""
    new_game(table)
    act(table, "Ann", type="step", to="rv-wood")
    assert table._op_pause("host")["ok"]
    assert table.snapshot(TABLE)["countdown"] is None
    table.fake_clock.now += 30
    assert table.countdown_due() is None
    assert table._op_resume("host")["ok"]
    assert table.snapshot(TABLE)["countdown"]["ends_at"] == 1_000_000.0 + table.fake_clock.now + 5
    waiting = Table(table.store, layout=Layout(seats=5), clock=table.fake_clock)
    new_game(waiting, seconds=0)
    act(waiting, "Ann", type="step", to="rv-wood")
    assert waiting.history.state["phase"] == "scrolls_others"
    assert waiting.snapshot(TABLE)["countdown"] is None


@pytest.mark.parametrize(
    "wrong",
    [
        {"key": 3, "seconds": 5, "action": {"type": "close_window"}},
        {"key": "k", "seconds": 0, "action": {"type": "close_window"}},
        {"key": "k", "seconds": True, "action": {"type": "close_window"}},
        {"key": "k", "seconds": 5, "action": "close_window"},
        ZeroDivisionError,
    ],
    ids=["key", "zero", "bool", "action", "raises"],
)
def test_a_malformed_or_failing_deadline_is_ignored(table, monkeypatch, wrong):
    """A game's bad deadline is logged and ignored: no countdown, nothing applied, no crash."""
    new_game(table)
    game = type(table.history.game)

    def bad(self, state):
        if wrong is ZeroDivisionError:
            raise ZeroDivisionError("a bug")
        return wrong

    monkeypatch.setattr(game, "deadline", bad)
    act(table, "Ann", type="step", to="rv-wood")
    assert table.snapshot(TABLE)["countdown"] is None
    table.fake_clock.now += 60
    assert table.countdown_due() is None
    assert table.history.state["phase"] == "scrolls_others"
