"""The input mapping and the LEDs' cues with the real rules core, on the bundled Corridor K set
(the spec's section-5 board): each sticker's action is accepted by the rules where the spec says
it is, a Cup Tile is refused alike before its flip, a seat's draw at its own reader is accepted,
and a battle's end starts the LEDs' cue."""

from __future__ import annotations

from companion.games.triwizard import PLUGIN
from companion.games.triwizard import lights as drawer
from companion.games.triwizard.inputs import TriwizardInputs
from companion.games.triwizard.rules import Triwizard
from companion.lights import Layout, render
from companion.rules import TABLE, Accepted, Refusal
from companion.table.tags import Component

GAME = Triwizard()
INPUTS = TriwizardInputs(GAME)
HAND = ["red-5-3", "blue-2-4", "green-4-2", "green-1-5"]  # EX-TW-2's hand


def arranged(**scenario) -> dict:
    options = {"data_set": "corridor-k", "scenario": scenario}
    return GAME.new(["Ann", "Bo", "Cy"], options, seed=5)


def tap(state: dict, name: str, reader: str = "board"):
    return INPUTS.tag(state, Component("triwizard", name), "04A1B2C3D4E5F6", reader)


def accept(state: dict, action) -> tuple[dict, tuple]:
    assert not isinstance(action, Refusal), action
    result = GAME.apply(state, action)
    assert isinstance(result, Accepted), (action, result)
    return result.state, result.events


def fill(state: dict) -> dict:
    """Every pending draw told at the drawer's own reader (a card, a tile) or the board's."""
    while state["pending"] and state["pending"][0]["kind"] in ("card", "tile", "obstacle"):
        sampled = GAME.sample(state)
        kind = {"draw_card": "battle", "draw_tile": "tile", "reveal_obstacle": "obstacle"}
        key = "tile" if sampled["type"] == "draw_tile" else "card"
        seat = state["pending"][0].get("player")
        reader = f"seat{seat + 1}" if isinstance(seat, int) else "board"
        state, _ = accept(state, tap(state, f"{kind[sampled['type']]} {sampled[key]}", reader))
    return state


def test_the_plugin_loads_the_core_and_the_box():
    """The tag registry's names come from the default data set (the example)."""
    game = PLUGIN.game
    assert isinstance(game, Triwizard) and isinstance(PLUGIN.input_mapping, TriwizardInputs)
    box = game.components
    assert box["piece 4"] == 1 and box["cup headstone-3"] == 1
    assert sum(1 for name in box if name.startswith("battle ")) == 40


def test_ex_tw_2_through_the_stickers():
    """EX-TW-2 at the table: the move by a space's sticker stops on the Obstacle Space (TW-MOVE-7),
    the Battle Card tapped goes face up (TW-BATTLE-1), the win starts the LEDs' cue, the advance
    by a sticker (TW-BATTLE-WIN-1); the reward tiles are told at Ann's own reader (TW-RES-1)."""
    state = arranged(
        pieces={"Ann": "K3", "Bo": "K14", "Cy": "K16"},
        hands={"Ann": HAND},
        tiles={"Ann": ["double-die-1"]},
        lineup=["o-red-orange-8-2", "o-blue-9-1", "o-orange-6-1", "o-green-5-1"],
    )
    state = fill(state)
    assert state["phase"] == "open" and GAME.view(state, TABLE)["active"] == "Ann"
    state, _ = accept(state, {"type": "roll", "value": 2})
    state, _ = accept(state, tap(state, "space k5"))
    assert state["phase"] == "battle_select" and state["pieces"][0] == "K5"
    state, _ = accept(state, tap(state, "battle red-5-3"))
    state, events = accept(state, INPUTS.die(state, _rolled("3")))
    cues = drawer.cues(list(events), state["players"], at=1.0)
    assert [(cue.kind, cue.seat) for cue in cues] == [(drawer.WON, 0)]
    frames = render(drawer, GAME.view(state, TABLE), [(9, 9, 9)] * 3, cues, 1.0 + 1.4, Layout())
    assert frames["table"][1:7] == [(255, 255, 255)] * 6
    state, _ = accept(state, tap(state, "space k8"))
    assert state["pieces"][0] == "K8"
    refused = tap(state, "tile dumbledore-2")
    assert isinstance(refused, Refusal) and refused.rule == "TW-RES-1"
    assert "dumbledore" not in refused.reason.lower()
    state = fill(state)
    assert GAME.view(state, "Ann")["players"]["Ann"]["tile_count"] == 4  # 1 + 2 reward + mist


def test_a_loss_by_declining_the_double_die_starts_the_cue():
    """TW-BATTLE-5: a short roll, then the seat button declines the Double Die: lost."""
    state = arranged(
        pieces={"Ann": "K4", "Bo": "K14", "Cy": "K16"},
        hands={"Ann": HAND},
        lineup=["o-blue-9-1", "o-red-orange-8-2", "o-orange-6-1", "o-green-5-1"],
    )
    state = fill(state)
    state, _ = accept(state, {"type": "roll", "value": 1})
    state, _ = accept(state, tap(state, "space k5"))
    state, _ = accept(state, tap(state, "battle blue-2-4"))
    state, events = accept(state, INPUTS.die(state, _rolled("CLOAK", value=0)))
    assert state["phase"] == "battle_short" and not drawer.cues(list(events), ["Ann"], 0.0)
    state, events = accept(state, INPUTS.button(state, "Ann", long=False))
    assert state["phase"] == "push_back"
    assert [(c.kind, c.seat) for c in drawer.cues(list(events), state["players"], 0.0)] == [
        (drawer.LOST, 0)
    ]
    # the right-hand neighbour (Cy, TW-TURN-9) pushes Ann back by a sticker (TW-BATTLE-LOSE-1)
    push = tap(state, "space k2")
    assert push == {"type": "push_back", "player": "Cy", "path": ["K4", "K3", "K2"]}
    state, _ = accept(state, push)
    assert state["pieces"][0] == "K2"


def test_cup_tiles_before_and_at_their_flip():
    """TW-AMB-31: no Cup Tile is tapped at set-up, alike for each; TW-CUP-2: at the flip the
    tapped tile is the public flip, and a Headstone sends the piece on (TW-HEAD-1)."""
    fresh = GAME.new(["Ann", "Bo"], {"data_set": "corridor-k"}, seed=2)
    assert fresh["phase"] == "setup"
    reasons = {tap(fresh, f"cup {cup}").reason for cup in ("cup", "headstone-1", "headstone-2")}
    assert len(reasons) == 1
    state = arranged(pieces={"Ann": "K19", "Bo": "K14", "Cy": "K16"}, hands={"Ann": HAND})
    state = fill(state)
    state, _ = accept(state, {"type": "roll", "value": 1})
    state, _ = accept(state, tap(state, "space c1"))
    assert state["phase"] == "flip" and state["pending"][0]["kind"] == "cup"
    assert state["pending"][0]["slot"] == "1"
    state, _ = accept(state, tap(state, "cup headstone-2"))
    assert state["cups"]["1"] == "headstone-2" and state["pieces"][0] == "K15"


def test_the_cloak_goes_on_the_piece_tapped():
    """TW-TURN-3, TW-CLOAK-5: a Cloak roll, then Bo's piece tapped."""
    state = fill(arranged(pieces={"Ann": "K3", "Bo": "K14", "Cy": "K16"}, hands={"Ann": HAND}))
    state, _ = accept(state, INPUTS.die(state, _rolled("CLOAK", value=0)))
    assert state["phase"] == "cloak_place"
    state, _ = accept(state, tap(state, "piece 2"))
    assert state["cloak"] == 1 and GAME.view(state, TABLE)["cloak"] == "Bo"


def _rolled(face: str, value=None):
    from companion.devices.events import DieRolled

    return DieRolled(die=0, face=face, seq=1, value=value, profile="triwizard")


def test_a_space_sticker_is_refused_when_moves_are_declared():
    """The declared maze (a table without the board's data): moves are told on the phone."""
    options = {"data_set": "corridor-k", "maze": "declared", "scenario": {"hands": {"Ann": HAND}}}
    state = fill(GAME.new(["Ann", "Bo"], options, seed=5))
    state, _ = accept(state, {"type": "roll", "value": 2})
    refused = tap(state, "space k3")
    assert isinstance(refused, Refusal) and "declared on the phone" in refused.reason


def test_the_seat_button_ends_a_move_where_the_piece_stands():
    """Spec 3.1, END_MOVE by a button: after the roll the mover's press is a move of no step
    (TW-MOVE-1: up to 2n, 0 allowed, TW-AMB-8); then the press ends the turn (TW-TURN-6)."""
    state = fill(arranged(pieces={"Ann": "K3", "Bo": "K14", "Cy": "K16"}, hands={"Ann": HAND}))
    state, _ = accept(state, {"type": "roll", "value": 3})
    state, _ = accept(state, INPUTS.button(state, "Ann", long=False))
    assert state["pieces"][0] == "K3" and state["phase"] == "post"
    state, _ = accept(state, INPUTS.button(state, "Ann", long=False))
    assert GAME.view(state, TABLE)["active"] == "Bo"


def test_the_cloak_taken_off_is_put_beside_the_board_by_its_sticker():
    """EX-TW-7, TW-CLOAK-6/7: an odd roll takes the Cloak off; its sticker puts it aside."""
    state = fill(
        arranged(pieces={"Ann": "K3", "Bo": "K14", "Cy": "K16"}, hands={"Ann": HAND}, cloak="Ann")
    )
    state, _ = accept(state, {"type": "remove_cloak", "player": "Ann"})
    state, _ = accept(state, INPUTS.die(state, _rolled("3")))
    assert state["phase"] == "removal_place"
    state, _ = accept(state, tap(state, "cloak"))
    assert state["cloak"] is None and GAME.view(state, TABLE)["active"] == "Bo"
