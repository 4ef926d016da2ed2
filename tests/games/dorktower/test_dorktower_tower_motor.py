"""The table and the optional tower motor: the motor follows the game's tower step, clockwise only,
remembers where it left the tower across restarts, and catches up on start. A small test game
stands in for Dork Tower: each ``end_turn`` turns its tower one step (DT-TIME-2)."""

from __future__ import annotations

import copy
import time
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion.devices.leds import SimStrip
from companion.devices.tower_motor import TowerMotor
from companion.games import GamePlugin, register, unregister
from companion.games.dorktower.lights import DOOR, MOON, SUN, TOWER_TURN
from companion.lights import PALETTE, SEAT_COLOURS, Layout
from companion.rules import Accepted, Game, Outcome, Refusal
from companion.table.runtime import Table
from companion.table.store import Store

WALLS = ["sun"] * 4 + ["moon"] * 4
DOOR_WALL = 6
SETTING = "tower_motor_step"


class TowerGame(Game):
    """Players take turns; each turn ends with the tower turning one step. Test-only."""

    id = "tower-motor-test"
    title = "Tower (test)"
    spec = ""
    min_players = 2
    max_players = 3

    def new(self, players, options=None, seed=0):
        return {"players": self.check_players(players), "step": 0, "seed": seed, "options": {}}

    def apply(self, state, action):
        if action.get("type") != "end_turn":
            return Refusal("TEST-1", "Only end_turn.")
        s = copy.deepcopy(state)
        s["step"] += 1
        nxt = s["players"][s["step"] % len(s["players"])]
        return Accepted(
            s,
            (
                {
                    "type": "tower_turned",
                    "text": "The tower turns.",
                    "step": s["step"],
                    "next": nxt,
                    "door_wedge": self.door(s),
                },
            ),
        )

    @staticmethod
    def door(state):
        return (1 + state["step"]) % 8

    def legal_actions(self, state):
        return []

    def chance(self, state):
        return None

    def sample(self, state):
        raise NotImplementedError

    def view(self, state, viewer):
        names, door = state["players"], self.door(state)
        active = names[state["step"] % len(names)]
        return {
            "game": "dorktower",
            "order": names,
            "active": active,
            "phase": "move",
            "finished": False,
            "winners": [],
            "waiting_for": [active],
            "prompt": "Move.",
            "players": {p: {"xp": 0, "level": "low"} for p in names},
            "tower": {
                "step": state["step"],
                "door_wedge": door,
                "wedges": [
                    {
                        "id": f"w{j}",
                        "name": f"Wedge {j}",
                        "kind": "kingdom",
                        "day": WALLS[(j - door + DOOR_WALL) % 8] == "sun",
                    }
                    for j in range(8)
                ],
            },
        }

    def outcome(self, state):
        return Outcome(False, (), {})


class FakeMotor:
    """Records the steps it is asked to turn."""

    def __init__(self, fail: bool = False) -> None:
        self.calls: list[int] = []
        self.fail = fail

    def advance(self, steps: int = 1) -> None:
        if self.fail:
            raise RuntimeError("the motor is unplugged")
        self.calls.append(steps)


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture(autouse=True)
def game():
    g = TowerGame()
    register(
        GamePlugin(
            g.id,
            g.title,
            "companion.games.dorktower",
            rules=g,
            lights="lights",
            actuators={"tower_motor": "tower:TowerFollower"},
            static=None,
        )
    )
    yield g
    unregister(g.id)


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "t.db")
    yield s
    s.close()


def open_table(store: Store, motor: Any, **kwargs) -> Table:
    t = Table(store, **kwargs)
    t.actuators["tower_motor"] = motor
    t.start()
    return t


def end_turns(table: Table, n: int) -> None:
    for _ in range(n):
        assert table.call("action", "host", action={"type": "end_turn"})["ok"]


def test_each_turn_of_the_tower_turns_the_motor_one_step_and_is_remembered(store):
    """DT-TIME-2: the real tower turns one step clockwise at the end of every turn."""
    motor = FakeMotor()
    table = open_table(store, motor)
    assert table.call(
        "new_game", "host", game="tower-motor-test", players=["Ann", "Ben"], confirm=True
    )["ok"]
    assert motor.calls == [] and store.setting(SETTING) == "0"
    end_turns(table, 3)
    assert motor.calls == [1, 1, 1] and store.setting(SETTING) == "3"
    table.close()


def test_an_undo_turns_the_tower_on_seven_steps_never_back(store):
    motor = FakeMotor()
    table = open_table(store, motor)
    table.call("new_game", "host", game="tower-motor-test", players=["Ann", "Ben"], confirm=True)
    end_turns(table, 2)
    assert table.call("undo", "host")["ok"]
    assert motor.calls == [1, 1, 7] and store.setting(SETTING) == "1"
    table.close()


def test_a_restart_with_the_tower_behind_catches_up(store):
    """The table stopped after the game reached step 5 while the motor had turned the tower to
    step 2 only: on start the motor turns it 3 steps on; a restart with the tower in place turns
    nothing."""
    table = open_table(store, None)
    table.call("new_game", "host", game="tower-motor-test", players=["Ann", "Ben"], confirm=True)
    end_turns(table, 5)
    table.close()
    store.set_setting(SETTING, "2")
    motor = FakeMotor()
    table = open_table(store, motor)
    assert motor.calls == [3] and store.setting(SETTING) == "5"
    table.close()
    again = FakeMotor()
    open_table(store, again).close()
    assert again.calls == []


def test_a_new_game_turns_the_tower_on_to_its_setup_position(store):
    motor = FakeMotor()
    table = open_table(store, motor)
    table.call("new_game", "host", game="tower-motor-test", players=["Ann", "Ben"], confirm=True)
    end_turns(table, 5)
    table.call("new_game", "host", game="tower-motor-test", players=["Cid", "Dee"], confirm=True)
    assert motor.calls == [1] * 5 + [3] and store.setting(SETTING) == "0"
    table.close()


def test_a_game_without_a_tower_leaves_the_motor_alone(store):
    motor = FakeMotor()
    table = open_table(store, motor)
    assert table.call("new_game", "host", game="abracadawhat", players=["Ann", "Ben"])["ok"]
    table.call("undo", "host")
    assert motor.calls == [] and store.setting(SETTING) is None
    table.close()


def test_a_motor_fault_does_not_stop_the_table_and_the_next_change_catches_up(store):
    broken = FakeMotor(fail=True)
    table = open_table(store, broken)
    table.call("new_game", "host", game="tower-motor-test", players=["Ann", "Ben"], confirm=True)
    end_turns(table, 2)  # accepted although the motor fails
    assert table.history.state["step"] == 2 and store.setting(SETTING) == "0"
    broken.fail = False
    end_turns(table, 1)
    assert broken.calls == [3] and store.setting(SETTING) == "3"
    table.close()


def test_the_real_motor_on_mock_pins_follows_the_game_across_a_restart(store):
    factory = MockFactory()
    motor = TowerMotor([4, 17, 27, 22], steps_per_turn=64, delay=0, pin_factory=factory)
    table = open_table(store, motor)
    table.call("new_game", "host", game="tower-motor-test", players=["Ann", "Ben"], confirm=True)
    end_turns(table, 2)
    assert motor.wait(10) and motor.position == 2
    table.close()
    motor.close()
    # a fresh process: the motor knows nothing, the table's store knows the tower is at step 2
    motor = TowerMotor([4, 17, 27, 22], steps_per_turn=64, delay=0, pin_factory=factory)
    table = open_table(store, motor)
    assert motor.position == 0
    end_turns(table, 1)
    assert motor.wait(10) and motor.position == 1 and store.setting(SETTING) == "3"
    table.close()
    motor.close()
    factory.close()


def test_the_ring_animates_the_turn_then_shows_the_steady_ring_also_after_a_restart(store):
    """DT-TIME-1, DT-TIME-2 through the table: a turn slides the ring and flashes the next
    player's colour; a restarted table shows the steady ring at once."""
    clock = Clock()
    layout = Layout(seats=3, tower_pixels=8)
    table = open_table(store, None, layout=layout, clock=clock)
    table.call("new_game", "host", game="tower-motor-test", players=["Ann", "Ben"], confirm=True)
    end_turns(table, 1)  # door from wedge 1 to wedge 2, Ben's turn
    ben = PALETTE[SEAT_COLOURS[1]]
    assert table.frames(clock.t + 0.1)["tower"].index(DOOR) == 1  # still sliding from wedge 1
    assert table.frames(clock.t + 0.4)["tower"].index(DOOR) == 2
    assert table.frames(clock.t + 0.6)["tower"] == [ben, ben, DOOR] + [ben] * 5
    steady = [SUN if WALLS[(j - 2 + DOOR_WALL) % 8] == "sun" else MOON for j in range(8)]
    steady[2] = DOOR
    assert table.frames(clock.t + TOWER_TURN + 0.01)["tower"] == steady
    table.close()
    restarted = open_table(store, None, layout=layout, clock=Clock())
    assert restarted.frames()["tower"] == steady
    restarted.close()


def wait_for(predicate, timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()


def test_the_strip_ends_on_the_steady_ring_when_the_animation_is_over(store):
    """DT-TIME-2: the table's LED thread draws the animation, then one frame more once nothing
    moves, so the ring does not stay in the next player's colour."""
    clock = Clock()
    layout = Layout(seats=3, tower_pixels=8)
    strips = {name: SimStrip(name, n) for name, n in layout.strips().items()}
    table = open_table(store, None, layout=layout, clock=clock, strips=strips)
    table.call("new_game", "host", game="tower-motor-test", players=["Ann", "Ben"], confirm=True)
    end_turns(table, 1)
    ring = strips["tower"]
    ben = PALETTE[SEAT_COLOURS[1]]
    clock.t += TOWER_TURN - 0.1  # the colour phase
    assert wait_for(lambda: ring.latest().pixels == (ben, ben, DOOR) + (ben,) * 5)
    clock.t += 0.2  # over
    assert wait_for(lambda: DOOR in ring.latest().pixels and ben not in ring.latest().pixels)
    assert list(ring.latest().pixels) == table.frames()["tower"]
    table.close()
