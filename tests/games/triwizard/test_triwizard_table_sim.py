"""The simulated Triwizard box and hands: one sticker per component of the data set, UIDs fixed
by the seed; the hands tap what is public at the board's reader and tell what is private at the
drawer's own reader or phone, never at the board's (TW-AMB-31, spec section 7); the world never
says who holds what, and a blind host cannot pick a hidden face by name."""

from __future__ import annotations

import random

import pytest
from tw_table_support import DATA, StandInGame, state

from companion.games.triwizard.rules.datasets import bundled
from companion.games.triwizard.rules.stickers import components, ids_by_name, sticker_name
from companion.games.triwizard.sim import TriwizardHands, triwizard_tags


@pytest.mark.parametrize("name", ["example", "corridor-k"])
def test_the_box_holds_one_sticker_per_component_of_the_data_set(name):
    """TW-COMP-2/3/4/5/6/8: 4 pieces, 40 Battle Cards, 20 Obstacle Cards, 36 Resource Tiles, the
    4 Cup Tiles, the Cloak, and every Path space (not the Green Hedge, never stood on)."""
    data = bundled()[name]
    box = components(data)
    kinds = [sticker.split(" ", 1)[0] for sticker in box]
    paths = [s for s, cell in data["board"]["spaces"].items() if cell["kind"] == "path"]
    assert {kind: kinds.count(kind) for kind in set(kinds)} == {
        "piece": 4,
        "battle": 40,
        "obstacle": 20,
        "tile": 36,
        "cup": 4,
        "cloak": 1,
        "space": len(paths),
    }
    assert set(box.values()) == {1}
    assert all(sticker == " ".join(sticker.lower().split()) for sticker in box)  # as the registry
    ids = ids_by_name(data)
    for space in paths:  # every sticker's value leads back to the data set's id
        assert ids["space"][sticker_name("space", space).split(" ", 1)[1]] == space
    assert {"cup cup", "cup headstone-1", "cup headstone-2", "cup headstone-3"} <= set(box)


def test_the_simulated_box_is_fixed_by_the_seed():
    box = components(DATA)
    tags = triwizard_tags(2014, box)
    assert tags == triwizard_tags(2014, box) != triwizard_tags(2015, box)
    assert sorted(tags.values()) == sorted(box)
    assert all(len(uid) == 14 and uid.startswith("04") for uid in tags)


# -- the hands at a fake table -------------------------------------------------------------------


class FakeTags:
    def __init__(self, tags: dict[str, str]):
        self.tags = tags

    def export(self):
        return {
            "tags": [{"uid": u, "game": "triwizard", "component": c} for u, c in self.tags.items()]
        }


class FakeHistory:
    def __init__(self, game, s):
        self.game, self.state = game, s


class FakeTable:
    """What the hands use of the table: the game played, the registry, a phone's request."""

    def __init__(self, game, s, tags):
        self.history = FakeHistory(game, s)
        self.tags = FakeTags(tags)
        self.inputs_handled = 0
        self.requests: list = []

    def call(self, op, source, **args):
        self.requests.append((op, source, args))
        self.inputs_handled += 1
        return {"ok": True}

    def sync(self):
        pass

    def outcomes_since(self, before):
        return [{"n": self.inputs_handled, "ok": True}]


class FakeDevices:
    def __init__(self, readers):
        self.nfc = dict.fromkeys(readers)


class FakeSim:
    def __init__(self, table, readers=("board",)):
        self.table, self.devices = table, FakeDevices(readers)
        self.rng = random.Random(1)
        self.taps: list = []

    def tap(self, uid, reader="board"):
        self.taps.append((self.table.tags.tags[uid], reader))
        return [{"ok": True}]


class SampledGame(StandInGame):
    def sample(self, s):
        return dict(s["_sample"])


def hands(s, readers=("board",)):
    game = SampledGame()
    table = FakeTable(game, s, triwizard_tags(7, game.components))
    sim = FakeSim(table, readers)
    return TriwizardHands(sim, game, 7), sim, table


def test_a_public_draw_is_tapped_at_the_board_reader():
    """TW-SETUP-9: a Lineup card; TW-CUP-2: a Cup Tile flipped."""
    s = state(phase="deal", pending=[{"kind": "obstacle"}])
    s["_sample"] = {"type": "reveal_obstacle", "card": "o-red-orange-8-2"}
    h, sim, _ = hands(s)
    assert h.world()["awaiting"] == {"kind": "obstacle", "player": None}
    h.draw()
    assert sim.taps == [("obstacle o-red-orange-8-2", "board")]
    flip = state(phase="flip", pending=[{"kind": "cup", "slot": "2"}])
    flip["_sample"] = {"type": "flip_cup", "slot": "2", "tile": "headstone-1"}
    h, sim, _ = hands(flip)
    h.draw()
    assert sim.taps == [("cup headstone-1", "board")]


def test_a_private_draw_is_told_at_the_drawers_reader_or_phone_never_the_boards():
    """TW-TURN-1 (a card), TW-RES-4PT-1 (a peek): at the drawer's own reader when the table has
    one, else on the drawer's phone."""
    s = state(phase="draw", pending=[{"kind": "card", "why": "refill", "player": 1}])
    s["_sample"] = {"type": "draw_card", "player": "Bo", "card": "b07"}
    h, sim, table = hands(s, readers=("board", "seat2"))
    h.draw()
    assert sim.taps == [("battle b07", "seat2")] and not table.requests
    h, sim, table = hands(s)
    h.draw()
    assert not sim.taps
    assert table.requests == [
        ("action", "phone:Bo", {"action": s["_sample"], "player": "Bo"}),
    ]
    peek = state(phase="post", pending=[{"kind": "peek", "slot": "4", "player": 0}])
    peek["_sample"] = {"type": "peek", "player": "Ann", "slot": "4", "tile": "cup"}
    h, sim, table = hands(peek, readers=("board", "seat1"))
    h.draw()
    assert sim.taps == [("cup cup", "seat1")]


def test_nothing_is_drawn_when_the_table_waits_for_a_die_or_a_decision():
    s = state(phase="roll", pending=[{"kind": "die", "why": "move", "player": 0}])
    h, sim, table = hands(s)
    assert h.draw() == [] and h.draw_all() == [] and not sim.taps and not table.requests
    assert h.world()["awaiting"] is None


def test_the_world_never_says_who_holds_what():
    """The box and what is awaited; a blind host sees counts of stickers, no UID."""
    s = state(phase="draw", pending=[{"kind": "tile", "why": "mist", "player": 2}])
    h, _, _ = hands(s)
    world = h.world()
    assert set(world) == {"stickers", "awaiting"}
    assert world["awaiting"] == {"kind": "tile", "player": "Cy", "why": "mist"}
    assert all(len(uids) == 1 for uids in world["stickers"].values())
    blind = h.world("Ann")
    assert set(blind["stickers"].values()) == {1} and blind["awaiting"] == world["awaiting"]


def test_a_blind_host_picks_no_hidden_face_by_name():
    """A host who plays Ann taps pieces, spaces and her own cards by name; never a Cup Tile or a
    card or tile she does not hold (she would choose a face she cannot see)."""
    s = state(phase="battle_select")
    h, _, _ = hands(s)
    h.game.view = lambda st, viewer: {
        "players": {"Ann": {"hand": [{"card": "b07"}], "tiles": [{"tile": "r01"}]}}
    }
    assert h.refuse_blind("tap_component", {"component": "piece 2"}, "Ann") is None
    assert h.refuse_blind("tap_component", {"component": "space K3"}, "Ann") is None
    assert h.refuse_blind("tap_component", {"component": "Battle  B07"}, "Ann") is None
    assert h.refuse_blind("tap_component", {"component": "tile r01"}, "Ann") is None
    for hidden in ("cup cup", "battle red-5-3", "tile r02", "obstacle o-red-orange-8-2"):
        assert "Ann" in h.refuse_blind("tap_component", {"component": hidden}, "Ann"), hidden
    with pytest.raises(ValueError):
        h.do("tap_component", "Ann", component="cup headstone-2")


def test_a_draw_without_a_sticker_is_told_on_a_phone():
    """A data set the box was not made for: the Lineup card is told on the active player's
    phone (a public draw), a card on the drawer's."""
    s = state(phase="deal", pending=[{"kind": "obstacle"}])
    s["_sample"] = {"type": "reveal_obstacle", "card": "o99"}
    h, sim, table = hands(s)
    h.draw()
    assert not sim.taps and table.requests == [
        ("action", "phone:Ann", {"action": s["_sample"], "player": "Ann"})
    ]


def test_the_host_tells_a_public_draw_by_its_face():
    """The host's page picks the Lineup card (TW-SETUP-9) or the Cup Tile turned up (TW-CUP-2):
    its sticker tapped at the board's reader, or without one told on the active player's phone;
    never a draw not awaited, never by a blind host, never a private one."""
    s = state(phase="deal", pending=[{"kind": "obstacle"}])
    h, sim, table = hands(s)
    h.do("tell", None, component="obstacle o-red-orange-8-2")
    assert sim.taps == [("obstacle o-red-orange-8-2", "board")] and not table.requests
    h, sim, table = hands(s)
    h.do("tell", None, component="obstacle o99")  # no sticker: the first seat's phone
    assert not sim.taps and table.requests == [
        (
            "action",
            "phone:Ann",
            {"action": {"type": "reveal_obstacle", "card": "o99"}, "player": "Ann"},
        )
    ]
    flip = state(phase="flip", pending=[{"kind": "cup", "slot": "2"}])
    h, sim, _ = hands(flip)
    h.do("tell", None, component="cup headstone-1")
    assert sim.taps == [("cup headstone-1", "board")]
    for wrong in ("obstacle o-red-orange-8-2", "battle red-5-3", "cup"):
        with pytest.raises(ValueError):
            h.do("tell", None, component=wrong)
    with pytest.raises(ValueError):
        hands(s)[0].do("tell", "Ann", component="obstacle o-red-orange-8-2")
