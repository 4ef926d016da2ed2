"""The table and the dice, with a small game of its own that rolls two dice at once (as Dork Tower
rolls 2d6) with a named die profile: the chance step's profile goes to the reader, each die's
latest roll counts until every die is in, extra dice and unasked rolls are refused, and a virtual
roll rolls them all."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from companion.devices.events import DieRolled, DieState
from companion.games import register, unregister
from companion.rules import TABLE, Accepted, Chance, Game, Outcome, Refusal
from companion.table.runtime import Table
from companion.table.store import Store


class TwoDice(Game):
    """Each player in turn rolls two battle dice; the sum is their score. Test-only."""

    id = "two-dice-test"
    title = "Two dice (test)"
    spec = ""
    min_players = 2
    max_players = 2
    FACES = (1, 2, 2, 3, 4, 5)  # the battle die's values: its purple 2 is worth 2

    def new(self, players, options=None, seed=0):
        names = self.check_players(players)
        return {
            "players": names,
            "active": 0,
            "scores": {p: 0 for p in names},
            "rolls": 0,
            "seed": seed,
            "options": {},
        }

    def apply(self, state, action):
        if action.get("type") != "roll":
            return Refusal("TEST-1", "Only rolls.")
        values = action.get("values")
        if (
            not isinstance(values, list)
            or len(values) != 2
            or any(v not in self.FACES for v in values)
        ):
            return Refusal("TEST-2", f"Two battle dice, not {values!r}.")
        s = copy.deepcopy(state)
        player = s["players"][s["active"]]
        s["scores"][player] += sum(values)
        s["active"] = 1 - s["active"]
        s["rolls"] += 1
        return Accepted(s, ({"type": "rolled", "text": f"{player} rolls {values}."},))

    def legal_actions(self, state):
        return []

    def chance(self, state):
        if state["rolls"] >= 4:
            return None
        return Chance(
            "die",
            "TEST-3",
            player=state["players"][state["active"]],
            profile="battle",
            faces=self.FACES,
            dice=2,
        )

    def sample(self, state):
        return {"type": "roll", "values": [1, 1]}

    def view(self, state, viewer):
        return {
            "order": state["players"],
            "phase": "roll" if self.chance(state) else "over",
            "active": state["players"][state["active"]],
            "waiting_for": [],
            "players": {p: {"life": 0, "score": s} for p, s in state["scores"].items()},
            "prompt": "Roll two dice.",
        }

    def outcome(self, state):
        return Outcome(self.chance(state) is None, (), dict(state["scores"]))


class FakeReader:
    """Stands in for the dice reader: records the profiles the table asks for."""

    name = "dice"

    def __init__(self) -> None:
        self.profiles: dict[int, tuple[str, Any]] = {}

    def set_profile(self, die, name, faces=None):
        self.profiles[die] = (name, faces)

    def close(self):
        pass


@pytest.fixture
def table(tmp_path):
    game = register(TwoDice()).game
    store = Store(tmp_path / "t.db")
    t = Table(store)
    t.dice = FakeReader()
    t.start()
    assert t.call("new_game", "host", game=game.id, players=["Ann", "Ben"])["ok"]
    yield t
    t.close()
    store.close()
    unregister(game.id)


def roll(table: Table, die: int, face: str, value: int, n: int) -> None:
    table.emit(DieRolled(die, face, n, value=value, roll=n, profile="battle", again=face == "2P"))
    table.sync()


def test_the_profile_the_chance_step_names_is_sent_to_every_die_rolled(table):
    assert table.dice.profiles == {0: ("battle", None), 1: ("battle", None)}


def test_two_dice_make_one_roll_once_both_are_in(table):
    roll(table, 0, "4", 4, 1)
    assert table.history.state["rolls"] == 0  # still waiting for die 1
    snap = table.snapshot("Ann")
    assert snap["dice"]["rolled"] == {"0": "4"}
    assert snap["dice"]["awaited"]["dice"] == 2
    roll(table, 1, "2P", 2, 2)
    state = table.history.state
    assert state["rolls"] == 1 and state["scores"]["Ann"] == 6
    assert table.snapshot("Ann")["dice"]["rolled"] == {}


def test_a_die_rolled_again_before_the_other_counts_its_latest_roll(table):
    roll(table, 0, "1", 1, 1)
    roll(table, 0, "5", 5, 2)
    roll(table, 1, "3", 3, 3)
    assert table.history.state["scores"]["Ann"] == 8


def test_a_die_beyond_those_asked_for_is_refused(table):
    before = table.history.state
    roll(table, 2, "3", 3, 1)
    assert table.refusals[-1]["rule"] == "TABLE-DICE-2"
    assert "takes 2 dice" in table.refusals[-1]["reason"]
    assert table.history.state == before


def test_a_crooked_die_among_two_asks_for_a_re_roll(table):
    """TABLE-DICE-3 with two dice: the roll already in stays in."""
    roll(table, 0, "4", 4, 1)
    table.emit(DieState(1, "crooked", roll=2))
    table.sync()
    assert table.refusals[-1]["rule"] == "TABLE-DICE-3"
    assert table.refusals[-1]["seat"] == 0
    roll(table, 1, "1", 1, 3)
    assert table.history.state["scores"]["Ann"] == 5


def test_the_partial_roll_is_forgotten_after_undo(table):
    roll(table, 0, "4", 4, 1)
    roll(table, 1, "4", 4, 2)
    roll(table, 0, "5", 5, 3)  # Ben's first die
    assert table.call("undo", "host")["ok"]  # takes back Ann's roll
    roll(table, 1, "1", 1, 4)  # not joined to Ben's stale die: Ann rolls both again
    assert table.history.state["rolls"] == 0
    roll(table, 0, "2", 2, 5)
    assert table.history.state["scores"]["Ann"] == 3


def test_a_virtual_roll_rolls_every_die(table):
    """No reader connected: the roller's phone rolls both dice, fairly, from the die's faces."""
    result = table.call("virtual_roll", "phone:Ann", player="Ann")
    assert result["ok"], result
    values = result["action"]["values"]
    assert len(values) == 2 and all(v in TwoDice.FACES for v in values)
    assert table.history.state["scores"]["Ann"] == sum(values)


def test_unasked_rolls_after_the_game_are_refused(table):
    for n in range(4):
        roll(table, 0, "1", 1, 2 * n + 1)
        roll(table, 1, "1", 1, 2 * n + 2)
    assert table.history.game.chance(table.history.state) is None
    roll(table, 0, "3", 3, 99)
    assert table.refusals[-1]["rule"] == "TABLE-DICE-2"
    assert table.snapshot(TABLE)["dice"]["awaited"] is None
