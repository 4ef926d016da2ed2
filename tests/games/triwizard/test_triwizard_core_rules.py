"""The rules core's own rule checks beyond the worked examples: setup and deal, first player,
movement refusals, taken spaces (TW-AMB-6/32/34), uncleared obstacles (TW-AMB-9/10/33), the
tiles and the Cloak."""

from __future__ import annotations

import pytest
from core_support import GAME, PLAYERS, arranged, new, play, refill, refused, tile_of

HAND = ["red-5-3", "blue-2-4", "green-4-2", "green-1-5"]
LINEUP = ["o-red-orange-8-2", "o-blue-9-1", "o-orange-6-1", "o04"]


def roll(state, value):
    return play(state, {"type": "roll", "value": value})


def move(state, who, *path, **extra):
    return {"type": "move", "player": who, "path": list(path), **extra}


@pytest.mark.parametrize("players,battle,tiles", [(2, 32, 32), (3, 28, 30), (4, 24, 28)])
def test_setup_deal_counts(players, battle, tiles):
    """TW-COMP-11, TW-SETUP-1..9."""
    state = new(PLAYERS[:players])
    assert state["phase"] == "setup" and set(state["pieces"]) == {"K0"}
    assert state["cloak"] is None and state["hedge"] == "HH" and state["cups"]["1"] is None
    assert GAME.chance(state) is None
    state = play(state, {"type": "placed", "player": "Ann"})
    assert GAME.chance(state).rule == "TW-SETUP-8"
    state = refill(state)
    assert state["phase"] == "first_player"
    assert len(state["battle_pile"]["deck"]) == battle and len(state["tile_pile"]["deck"]) == tiles
    assert len(state["obstacle_pile"]["deck"]) == 16
    assert all(slot["up"] for slot in state["obstacle_pile"]["lineup"])
    assert all(len(hand) == 4 for hand in state["hands"])
    assert all(len(held) == 2 for held in state["tiles"])


def test_first_player_and_tie_roll_with_cloak_as_zero():
    state = refill(play(new(PLAYERS[:3]), {"type": "placed", "player": "Ann"}))
    first = play(state, {"type": "first", "player": "Cat"})
    assert first["active"] == 2 and first["first"] == 2 and first["turn"] == 1
    state = play(state, {"type": "tie", "players": ["Ann", "Ben"]})
    assert GAME.chance(state).rule == "TW-SETUP-10"
    assert refused(state, {"type": "roll", "player": "Ben", "value": 2}).rule == "TW-TURN-6"
    state = play(state, {"type": "roll", "player": "Ann", "value": "cloak"})
    state = play(state, {"type": "roll", "player": "Ben", "value": 1})
    assert state["active"] == 1
    state = refill(play(new(PLAYERS[:3]), {"type": "placed", "player": "Ann"}))
    state = play(state, {"type": "tie", "players": ["Ann", "Ben"]})
    state = roll(roll(state, 3), 3)
    assert state["phase"] == "first_player" and len(state["pending"]) == 2
    state = roll(roll(state, 1), 4)
    assert state["active"] == 1


def test_refill_comes_first_and_only_the_active_player_acts():
    state = arranged(hands={"Ann": HAND[:2]})
    assert state["phase"] == "draw" and len(state["pending"]) == 2
    assert refused(state, {"type": "swap_hand", "player": "Ann"}).rule == "TW-TURN-1"
    state = refill(state)
    assert refused(state, {"type": "swap_hand", "player": "Ben"}).rule == "TW-TURN-6"
    draw = {"type": "draw_card", "player": "Ann", "card": "b10"}
    assert refused(state, draw).rule == "TW-TURN-6"


@pytest.mark.parametrize(
    "path,rule",
    [
        (["H3"], "TW-MOVE-2"),
        (["K1", "K2", "K3", "PB1", "K3"], "TW-AMB-8"),
        (["K1", "K2", "K4"], "TW-MOVE-2"),
        (["K1", "K2", "K3", "K4", "K5", "K6"], "TW-MOVE-7"),
        (["K1", "K2", "HH"], "TW-MOVE-9"),
    ],
)
def test_movement_refusals(path, rule):
    state = roll(arranged(pieces={"Ann": "K0"}, hands={"Ann": HAND}, lineup=LINEUP), 5)
    assert refused(state, move(state, "Ann", *path)).rule == rule


def test_dark_hedge_green_hedge_and_the_wandering_hedge():
    state = roll(arranged(pieces={"Ann": "K10"}, hands={"Ann": HAND}, hedge="K12"), 3)
    assert refused(state, move(state, "Ann", "K11", "R1", "10,1")).rule == "TW-MOVE-3"
    assert refused(state, move(state, "Ann", "K11", "K12")).rule == "TW-MOVE-9"
    state = roll(arranged(pieces={"Ann": "K9"}, hands={"Ann": HAND}), 1)
    assert refused(state, move(state, "Ann", "G", "P")).rule == "TW-MOVE-4"


def test_taken_end_is_refused_with_the_next_spaces_and_the_mover_steps_on():
    """TW-MOVE-5, TW-MOVE-6, TW-AMB-6, TW-AMB-34."""
    state = roll(arranged(pieces={"Ann": "K1", "Ben": "K3"}, hands={"Ann": HAND}), 1)
    answer = refused(state, move(state, "Ann", "K2", "K3"))
    assert answer.rule == "TW-MOVE-5" and "K4" in answer.reason
    assert refused(state, move(state, "Ann", "K2", "K3", "K4", "K5")).rule == "TW-MOVE-1"
    state = play(state, move(state, "Ann", "K2", "K3", "K4"))
    assert state["pieces"] == ["K4", "K3"]


def test_junction_offers_every_nearest_free_space():
    """TW-AMB-32: beyond a taken junction the mover picks the way on."""
    state = roll(
        arranged(
            players=["Ann", "Ben", "Cat"],
            pieces={"Ann": "K15", "Ben": "K17", "Cat": "K0"},
            hands={"Ann": HAND},
        ),
        1,
    )
    answer = refused(state, move(state, "Ann", "K16", "K17"))
    assert answer.rule == "TW-MOVE-5" and "K18" in answer.reason and "M171" in answer.reason
    ends = {entry["space"] for entry in GAME.view(state, "Ann")["reach"]}
    assert {"K18", "M171"} <= ends and "K17" not in ends


def test_an_occupied_obstacle_may_be_entered_and_the_advance_must_end_free():
    """TW-AMB-10 (revised), TW-AMB-34."""
    state = arranged(pieces={"Ann": "K4", "Ben": "K5"}, hands={"Ann": HAND}, lineup=LINEUP)
    state = play(roll(state, 1), move(state, "Ann", "K5"))
    assert state["phase"] == "battle_select" and state["pieces"] == ["K5", "K5"]
    state = roll(play(state, {"type": "play_card", "player": "Ann", "card": "red-5-3"}), 5)
    stay = {"type": "advance", "player": "Ann", "path": []}
    assert refused(state, stay).rule == "TW-MOVE-5"
    state = play(state, {"type": "advance", "player": "Ann", "path": ["K6"]})
    assert state["pieces"][0] == "K6"


def test_push_back_onto_an_obstacle_stops_uncleared_then_battle_or_swap():
    """TW-AMB-9, TW-AMB-10, TW-AMB-33."""
    state = arranged(pieces={"Ann": "O2", "Ben": "K0"}, hands={"Ann": HAND}, lineup=LINEUP)
    state = play(roll(state, 1), move(state, "Ann", "Q1"))
    state = arranged(
        pieces={"Ann": "Q1", "Ben": "K20"},
        hands={"Ann": HAND},
        lineup=["o-orange-6-1", "o-blue-9-1", "o04", "o05"],
    )
    state = play(roll(state, 1), move(state, "Ann", "O2"))
    state = play(state, {"type": "no_match", "player": "Ann"})
    through = {"type": "push_back", "player": "Ben", "path": ["Q1"]}
    state = play(state, through)
    assert state["pieces"][0] == "Q1" and 0 not in state["uncleared"]
    # a push-back of 0 spaces leaves the piece on its obstacle, uncleared
    state = arranged(
        pieces={"Ann": "Q1", "Ben": "K20"},
        hands={"Ann": HAND},
        lineup=["o-orange-6-1", "o-blue-9-1", "o04", "o05"],
    )
    state = play(roll(state, 1), move(state, "Ann", "O2"))
    state = play(state, {"type": "no_match", "player": "Ann"})
    state = play(state, {"type": "push_back", "player": "Ben", "path": []})
    assert state["uncleared"] == [0]
    state = play(state, {"type": "end_turn", "player": "Ann"})
    state = refill(state)
    state = play(roll(state, 1), move(state, "Ben", "K19"))
    state = refill(play(state, {"type": "end_turn", "player": "Ben"}))
    assert refused(state, {"type": "roll", "value": 3}).rule == "TW-OBST-3"
    assert GAME.chance(state) is None
    swapped = refill(play(state, {"type": "swap_hand", "player": "Ann"}))
    assert swapped["uncleared"] == [0] and swapped["active"] == 1
    state = play(state, {"type": "battle", "player": "Ann"})
    assert state["phase"] == "battle_select" and state["fight"]["entered_from"] is None


def test_one_tile_a_turn_and_only_in_ones_own_turn():
    cloak, sparks = tile_of("cloak"), tile_of("red_sparks")
    state = arranged(
        hands={"Ann": HAND}, tiles={"Ann": [cloak, sparks], "Ben": [tile_of("cloak", 1)]}
    )
    off_turn = {"type": "play_tile", "player": "Ben", "tile": tile_of("cloak", 1), "on": "Ann"}
    assert refused(state, off_turn).rule == "TW-RES-5"
    state = play(state, {"type": "play_tile", "player": "Ann", "tile": cloak, "on": "Ben"})
    assert state["cloak"] == 1
    second = {"type": "play_tile", "player": "Ann", "tile": sparks, "target": "Ben"}
    assert refused(state, second).rule == "TW-TURN-4"
    assert refused(state, {"type": "swap_hand", "player": "Ann"}).rule == "TW-TURN-7"


def test_red_sparks_steals_blind_and_needs_a_victim_with_tiles():
    sparks = tile_of("red_sparks")
    state = arranged(hands={"Ann": HAND}, tiles={"Ann": [sparks]})
    empty = {"type": "play_tile", "player": "Ann", "tile": sparks, "target": "Ben"}
    assert refused(state, empty).rule == "TW-RES-SPARK-1"
    loot = tile_of("veritaserum")
    state = arranged(hands={"Ann": HAND}, tiles={"Ann": [sparks], "Ben": [loot]})
    state = play(state, empty)
    assert GAME.chance(state).rule == "TW-RES-SPARK-1"
    state = play(state, GAME.sample(state))
    assert state["tiles"] == [[loot], []]
    cloaked = arranged(hands={"Ann": HAND}, tiles={"Ann": [sparks], "Ben": [loot]}, cloak="Ann")
    assert refused(cloaked, empty).rule == "TW-CLOAK-3"
    free = new(
        cloak_blocks_steal=False,
        scenario={
            "hands": {"Ann": HAND},
            "cloak": "Ann",
            "tiles": {"Ann": [sparks], "Ben": [loot]},
        },
    )
    assert play(free, empty)["pending"][0]["kind"] == "steal"


def test_veritaserum_shows_the_tiles_to_the_caster_only():
    veri, a, b = tile_of("veritaserum"), tile_of("cloak"), tile_of("reductor")
    state = arranged(hands={"Ann": HAND}, tiles={"Ann": [veri], "Ben": [a, b]})
    state = play(state, {"type": "play_tile", "player": "Ann", "tile": veri, "target": "Ben"})
    assert [x["tile"] for x in GAME.view(state, "Ann")["veritaserum"]] == [a, b]
    assert GAME.view(state, "Ben")["veritaserum"] is None
    assert GAME.view(state, "@table")["veritaserum"] is None
    state = play(state, {"type": "take", "player": "Ann", "tile": b})
    assert state["tiles"] == [[b], [a]] and not state["interrupts"]


def test_four_point_spell_peeks_privately_and_the_flip_agrees():
    four = tile_of("four_point")
    state = arranged(pieces={"Ann": "K20"}, hands={"Ann": HAND}, tiles={"Ann": [four]})
    cloaked = arranged(
        pieces={"Ann": "K20"}, hands={"Ann": HAND}, tiles={"Ann": [four]}, cloak="Ann"
    )
    action = {"type": "play_tile", "player": "Ann", "tile": four, "slot": "2"}
    assert refused(cloaked, action).rule == "TW-CLOAK-3"
    state = play(state, action)
    state = play(state, {"type": "peek", "player": "Ann", "slot": "2", "tile": "headstone-1"})
    assert GAME.view(state, "Ann")["cups"][1]["peeked"] == "headstone-1"
    assert GAME.view(state, "Ben")["cups"][1]["peeked"] is None
    assert GAME.view(state, "@table")["cups"][1]["peeked"] is None
    state = play(roll(state, 1), move(state, "Ann", "C1", "C2"))
    wrong = {"type": "flip_cup", "slot": "2", "tile": "cup"}
    assert refused(state, wrong).rule == "TW-CUP-1"
    assert GAME.sample(state) == {"type": "flip_cup", "slot": "2", "tile": "headstone-1"}


def test_summon_hedge_goes_to_an_open_space():
    hedge = tile_of("summon_hedge")
    state = arranged(hands={"Ann": HAND}, tiles={"Ann": [hedge]}, pieces={"Ben": "M172"})
    edge = {"type": "play_tile", "player": "Ann", "tile": hedge, "space": "K3"}
    assert refused(state, edge).rule == "TW-RES-HEDGE-2"
    taken = {"type": "play_tile", "player": "Ann", "tile": hedge, "space": "M172"}
    assert refused(state, taken).rule == "TW-RES-HEDGE-2"
    state = play(state, {**taken, "space": "M171"})
    assert state["hedge"] == "M171"


def test_the_cloak_ignores_obstacles_cups_and_headstones():
    """TW-CLOAK-1/2/3, TW-AMB-16."""
    state = arranged(pieces={"Ann": "K19"}, hands={"Ann": HAND}, cloak="Ann")
    state = play(roll(state, 1), move(state, "Ann", "K20", "C1"))
    assert state["phase"] == "post" and not state["pending"]
    state = arranged(
        pieces={"Ann": "K20"}, hands={"Ann": HAND}, cloak="Ann", cups={"1": "headstone-3"}
    )
    state = play(roll(state, 1), move(state, "Ann", "C1"))
    assert state["pieces"][0] == "C1"
    state = arranged(pieces={"Ann": "K20"}, hands={"Ann": HAND}, cups={"1": "headstone-3"})
    state = play(roll(state, 1), move(state, "Ann", "C1"))
    assert state["pieces"][0] == "H3" and state["phase"] == "post"


def test_cloak_tile_cannot_stay_on_its_wearer():
    cloak = tile_of("cloak")
    state = arranged(hands={"Ann": HAND}, tiles={"Ann": [cloak]}, cloak="Ben")
    same = {"type": "play_tile", "player": "Ann", "tile": cloak, "on": "Ben"}
    assert refused(state, same).rule == "TW-CLOAK-5"
    assert play(state, {**same, "on": "Ann"})["cloak"] == 0


def test_dumbledore_to_the_nearest_empty_penalty_or_next_to_it():
    dumb = tile_of("dumbledore")
    state = arranged(
        players=["Ann", "Ben", "Cat"],
        pieces={"Ann": "K3", "Ben": "K14", "Cat": "K12"},
        cloak="Ben",
        hands={"Ann": HAND},
        tiles={"Ann": [dumb]},
    )
    state = play(state, {"type": "play_tile", "player": "Ann", "tile": dumb, "target": "Ben"})
    state = play(state, {"type": "decline", "player": "Ben"})
    assert state["interrupts"][-1]["options"] == ["K11", "K13"]
    assert refused(state, {"type": "choose", "player": "Ben", "space": "K11"}).rule == "TW-AMB-6"
    state = play(state, {"type": "choose", "player": "Ann", "space": "K13"})
    assert state["pieces"][1] == "K13" and state["cloak"] is None


def test_no_tile_left_anywhere_gives_nothing():
    """TW-AMB-24."""
    state = arranged(pieces={"Ann": "K7"}, hands={"Ann": HAND})
    state["tile_pile"]["deck"], state["tile_pile"]["discard"] = [], []
    state = play(roll(state, 1), move(state, "Ann", "K8"))
    assert GAME.sample(state) == {"type": "draw_tile", "player": "Ann", "tile": None}
    state = play(state, GAME.sample(state))
    assert state["tiles"][0] == [] and state["phase"] == "post" and not state["pending"]


def test_section_3_3_refusals_out_of_place():
    """TW-TURN-1, TW-TURN-7, TW-CLOAK-6, TW-CLOAK-3: what the spec's table rejects, by state."""
    cloak = tile_of("cloak")
    drawing = arranged(hands={"Ann": HAND[:3]}, tiles={"Ann": [cloak]})
    assert refused(drawing, {"type": "roll", "value": 2}).rule == "TW-TURN-1"
    tile = {"type": "play_tile", "player": "Ann", "tile": cloak, "on": "Ben"}
    assert refused(drawing, tile).rule == "TW-TURN-1"
    swapping = play(refill(drawing), {"type": "swap_hand", "player": "Ann"})
    assert refused(swapping, tile).rule == "TW-TURN-7"
    assert refused(swapping, move(swapping, "Ann", "K1")).rule == "TW-TURN-7"
    removing = arranged(hands={"Ann": HAND}, tiles={"Ann": [cloak]}, cloak="Ann")
    removing = play(removing, {"type": "remove_cloak", "player": "Ann"})
    assert refused(removing, tile).rule == "TW-CLOAK-6"
    assert refused(removing, move(removing, "Ann", "K1")).rule == "TW-CLOAK-6"
    placing = roll(removing, 1)
    assert refused(placing, {"type": "roll", "value": 2}).rule == "TW-CLOAK-6"
    hidden = arranged(pieces={"Ann": "K20"}, hands={"Ann": HAND}, cloak="Ann")
    hidden = play(roll(hidden, 1), move(hidden, "Ann", "C1"))
    flip = {"type": "flip_cup", "slot": "1", "tile": "cup"}
    assert refused(hidden, flip).rule == "TW-CLOAK-3"


def test_a_tile_given_what_it_does_not_take_is_malformed():
    hedge = tile_of("summon_hedge")
    state = arranged(hands={"Ann": HAND}, tiles={"Ann": [hedge]})
    odd = {"type": "play_tile", "player": "Ann", "tile": hedge, "space": "M171", "target": "Ben"}
    assert refused(state, odd).rule == "INPUT-1"


def test_the_cloak_clears_an_uncleared_obstacle():
    """TW-AMB-10: the Cloak clears the flag; then the piece rolls and moves as usual."""
    cloak = tile_of("cloak")
    state = arranged(
        pieces={"Ann": "K5"},
        hands={"Ann": HAND},
        tiles={"Ann": [cloak]},
        uncleared=["Ann"],
        lineup=LINEUP,
    )
    assert GAME.chance(state) is None
    assert {"type": "battle", "player": "Ann"} in GAME.legal_actions(state)
    state = play(state, {"type": "play_tile", "player": "Ann", "tile": cloak, "on": "Ann"})
    assert state["uncleared"] == [] and GAME.chance(state).rule == "TW-TURN-2"
    assert refused(state, {"type": "battle", "player": "Ann"}).rule == "TW-OBST-3"
    state = play(roll(state, 1), move(state, "Ann", "K6", "K7"))
    assert state["pieces"][0] == "K7"


def test_an_advance_with_no_free_space_in_reach_jumps_then_draws_the_reward():
    """TW-AMB-34: a dead end with no free space beyond: the nearest free Path space (here the
    one the piece left, the only one as near), then the reward as usual."""
    state = arranged(
        pieces={"Ann": "O2", "Ben": "Q1"},
        hands={"Ann": HAND},
        uncleared=["Ann"],
        lineup=LINEUP,
    )
    state = play(state, {"type": "battle", "player": "Ann"})
    state = roll(play(state, {"type": "play_card", "player": "Ann", "card": "red-5-3"}), 5)
    state = play(state, {"type": "advance", "player": "Ann", "path": ["Q1"]})
    assert state["pieces"][0] == "O2" and not state["interrupts"]
    assert state["phase"] == "reward" and len(state["pending"]) == 2
    state = refill(state)
    assert len(state["tiles"][0]) == 2 and state["phase"] == "post"
