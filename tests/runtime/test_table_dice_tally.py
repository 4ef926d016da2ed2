"""Every roll the table sees is kept for its die's fairness: read rolls (asked for or not), dice set
down by hand and virtual rolls, apart; a storage failure while keeping one leaves the roll's
effect alone. (The game is test_table_dice's: two battle dice at once.)"""

from __future__ import annotations

import pytest
from support import wait_until
from test_table_dice import FakeReader, TwoDice

from companion.devices.events import DieRolled, DieState
from companion.games import register, unregister
from companion.table.dice_store import PLACED, READ, VIRTUAL
from companion.table.runtime import Table
from companion.table.storage import explain
from companion.table.store import Store

BATTLE = ("1", "2", "2P", "3", "4", "5")


class AskedReader(FakeReader):
    """A fake reader that also says which profile it reads each die with."""

    def profile(self, die):
        return self.profiles.get(die, ("d6", None))


@pytest.fixture
def table(tmp_path):
    game = register(TwoDice()).game
    store = Store(tmp_path / "t.db")
    t = Table(store)
    t.dice = AskedReader()
    t.start()
    assert t.call("new_game", "host", game=game.id, players=["Ann", "Ben"])["ok"]
    yield t
    t.close()
    store.close()
    unregister(game.id)


def rolled(table, die, face, n, profile="battle"):
    value = 2 if face == "2P" else None  # the purple 2 is worth 2
    table.emit(DieRolled(die, face, n, value=value, roll=n, profile=profile, again=face == "2P"))
    table.sync()


def counts(table):
    return {(d.reader, d.die, d.profile): d.counts for d in table.store.dice()}


def test_read_rolls_are_kept_per_die_with_the_game(table):
    rolled(table, 0, "4", 1)
    rolled(table, 1, "2P", 2)
    assert table.history.state["scores"]["Ann"] == 6  # the roll did what it does
    assert counts(table) == {
        ("dice", 0, "battle"): {READ: {"4": 1}},
        ("dice", 1, "battle"): {READ: {"2P": 1}},
    }
    die = table.store.dice()[0]
    assert table.store.die_rolls(die.id, READ)[0]["game_id"] == table.record.id
    assert die.faces == BATTLE


def test_a_roll_nobody_asked_for_is_refused_and_still_kept(table):
    rolled(table, 2, "3", 1)  # a third die: refused
    assert table.refusals[-1]["rule"] == "TABLE-DICE-2"
    assert counts(table) == {("dice", 2, "battle"): {READ: {"3": 1}}}


def test_a_die_set_down_by_hand_is_kept_apart_from_its_rolls(table):
    rolled(table, 0, "5", 1)
    table.emit(DieState(0, "placed", face="3"))
    table.emit(DieState(0, "crooked", roll=2))  # not a face: nothing kept
    table.emit(DieState(0, "placed"))  # no face read: nothing kept
    table.sync()
    assert counts(table) == {("dice", 0, "battle"): {READ: {"5": 1}, PLACED: {"3": 1}}}


def test_virtual_rolls_are_kept_for_virtual_dice(table):
    result = table.call("virtual_roll", "phone:Ann", player="Ann")
    assert result["ok"], result
    first, second = result["action"]["values"]
    found = counts(table)
    assert found == {
        ("virtual", 0, "battle"): {VIRTUAL: {str(first): 1}},
        ("virtual", 1, "battle"): {VIRTUAL: {str(second): 1}},
    }
    # the rules' faces are the virtual die's labels (the battle die's values: 2 twice)
    virtual = table.store.dice()[-1]
    assert virtual.faces == ("1", "2", "2", "3", "4", "5")
    assert virtual.weights()["2"] == 2


def test_a_refused_virtual_roll_is_not_kept(table):
    assert not table.call("virtual_roll", "phone:Ben", player="Ben")["ok"]  # Ann rolls
    assert counts(table) == {}


def test_a_face_the_profile_has_not_is_not_kept(table):
    """A d6 roll while the reader was asked for battle dice (the reader's driver calls it
    noise; a test event reaches the table anyway): the table keeps only faces its die has."""
    rolled(table, 0, "6", 1, profile="d6")
    assert counts(table) == {("dice", 0, "d6"): {READ: {"6": 1}}}
    rolled(table, 0, "2P", 2, profile="d6")
    assert counts(table) == {("dice", 0, "d6"): {READ: {"6": 1}}}


def test_a_roll_that_cannot_be_kept_still_counts_at_the_table(table):
    table.store._db.execute("PRAGMA query_only = 1")  # every write refused
    try:
        rolled(table, 0, "4", 1)  # the action's own append fails too: refused, unchanged
        assert table.history.state["rolls"] == 0
    finally:
        table.store._db.execute("PRAGMA query_only = 0")
    wait_until(lambda: table.storage_problem() is None)  # the table's watch finds it writable
    rolled(table, 0, "4", 2)
    rolled(table, 1, "1", 3)
    assert table.history.state["scores"]["Ann"] == 5


def test_only_keeping_fails(table, monkeypatch, caplog):
    """The action is saved, then keeping the roll fails: the roll still did what it does, and
    the failure is logged (the store remembers it for the table's storage watch)."""

    def failing(rolls, at):
        raise explain("io", table.store.path, "a test", operation="Keeping the dice's rolls")

    monkeypatch.setattr(table.store, "keep_rolls", failing)
    rolled(table, 0, "4", 1)
    rolled(table, 1, "1", 2)
    assert table.history.state["scores"]["Ann"] == 5
    assert table.history.count == 1
    assert sum("could not be kept" in r.getMessage() for r in caplog.records) == 2
