"""The spec's worked examples (section 5) on the hand-built corridor, through the rules core."""

from __future__ import annotations

from core_support import GAME, arranged, play, refill, refused, tile_of

RED, BLUE, GREEN, GREEN1, BLUE5 = "red-5-3", "blue-2-4", "green-4-2", "green-1-5", "blue-5-3"
O_RED, O_BLUE, O_ORANGE = "o-red-orange-8-2", "o-blue-9-1", "o-orange-6-1"
LINEUP = [O_RED, O_BLUE, O_ORANGE, "o04"]


def roll(state, value, player=None):
    action = {"type": "roll", "value": value}
    if player:
        action["player"] = player
    return play(state, action)


def test_ex_tw_1_allowance_is_twice_the_roll():
    state = arranged(pieces={"Ann": "K0"}, hands={"Ann": [RED, BLUE, GREEN, GREEN1]})
    state = roll(state, 4)
    assert state["phase"] == "moving" and state["turn_state"]["allowance"] == 8
    too_far = {"type": "move", "player": "Ann", "path": [f"K{i}" for i in range(1, 10)]}
    assert refused(state, too_far).rule in ("TW-MOVE-1", "TW-MOVE-7")
    state = play(state, {"type": "move", "player": "Ann", "path": ["K1", "K2", "K3", "K4"]})
    assert state["pieces"][0] == "K4" and state["phase"] == "post"


def test_ex_tw_2_battle_won_on_a_tie_then_reward_and_gold_mist():
    state = arranged(
        pieces={"Ann": "K3"},
        hands={"Ann": [RED, BLUE, GREEN, GREEN1]},
        tiles={"Ann": [tile_of("cloak")]},
        lineup=LINEUP,
    )
    state = roll(state, 2)
    state = play(state, {"type": "move", "player": "Ann", "path": ["K4", "K5"]})
    assert state["phase"] == "battle_select" and state["fight"]["obstacle"] == 1
    state = play(state, {"type": "play_card", "player": "Ann", "card": RED})
    assert len(state["hands"][0]) == 3
    state = roll(state, 3)
    assert state["fight"]["result"] == "won" and state["fight"]["total"] == 8
    back = {"type": "advance", "player": "Ann", "path": ["K4"]}
    assert refused(state, back).rule == "TW-BATTLE-WIN-1"
    longer = {"type": "advance", "player": "Ann", "path": ["K6", "K7", "K8", "K9"]}
    assert refused(state, longer).rule == "TW-BATTLE-WIN-1"
    state = play(state, {"type": "advance", "player": "Ann", "path": ["K6", "K7", "K8"]})
    assert state["phase"] == "reward" and len(state["pending"]) == 2
    state = refill(state)
    assert len(state["tiles"][0]) == 4  # 1 + 2 rewards + 1 Gold Mist (TW-AMB-9)
    assert state["phase"] == "post"
    lineup = state["obstacle_pile"]["lineup"]
    assert [slot["up"] for slot in lineup] == [False, True, True, True]
    assert GAME.view(state, "Ann")["current"] == 2
    assert RED in state["battle_pile"]["discard"]


def test_ex_tw_3_double_die_loss_and_push_back_by_the_right_hand_neighbour():
    state = arranged(
        players=["Ann", "Ben", "Cat", "Dan"],
        pieces={"Ann": "K4", "Ben": "K1", "Cat": "K0", "Dan": "K0"},
        hands={"Ann": [BLUE5, RED, GREEN, GREEN1]},
        tiles={"Ann": [tile_of("double_die"), tile_of("cloak")]},
        lineup=[O_BLUE, O_RED, O_ORANGE, "o04"],
    )
    state = roll(state, 1)
    state = play(state, {"type": "move", "player": "Ann", "path": ["K5"]})
    early = {"type": "play_tile", "player": "Ann", "tile": tile_of("double_die")}
    state = play(state, {"type": "play_card", "player": "Ann", "card": BLUE5})
    assert refused(state, early).rule == "TW-RES-DDIE-1"  # before the first battle roll
    state = roll(state, "cloak")
    assert state["phase"] == "battle_short" and state["fight"]["total"] == 5
    state = play(state, early)
    state = roll(state, 2)
    assert state["fight"]["result"] == "lost" and state["fight"]["total"] == 7
    by_ben = {"type": "push_back", "player": "Ben", "path": ["K4", "K3", "K2"]}
    assert refused(state, by_ben).rule == "TW-BATTLE-LOSE-1"
    wrong_way = {"type": "push_back", "player": "Dan", "path": ["K6"]}
    assert refused(state, wrong_way).rule == "TW-BATTLE-LOSE-1"
    state = play(state, {"type": "push_back", "player": "Dan", "path": ["K4", "K3", "K2"]})
    assert state["pieces"][0] == "K2" and state["phase"] == "post"
    assert state["obstacle_pile"]["lineup"][0] == {"card": O_BLUE, "up": True}
    assert BLUE5 in state["battle_pile"]["discard"]
    assert tile_of("double_die") in state["tile_pile"]["discard"]
    another = {"type": "play_tile", "player": "Ann", "tile": tile_of("cloak"), "on": "Ben"}
    assert refused(state, another).rule == "TW-TURN-4"


def test_ex_tw_4_no_match_is_checked_and_pushes_back_four():
    state = arranged(
        pieces={"Ann": "K4"},
        hands={"Ann": [RED, BLUE, GREEN, GREEN1]},
        lineup=[O_ORANGE, O_RED, O_BLUE, "o04"],
    )
    state = roll(state, 1)
    state = play(state, {"type": "move", "player": "Ann", "path": ["K5"]})
    assert refused(state, {"type": "play_card", "player": "Ann", "card": RED}).rule == "TW-BCARD-5"
    state = play(state, {"type": "no_match", "player": "Ann"})
    assert state["phase"] == "push_back" and not state["pending"]
    five = {"type": "push_back", "player": "Ben", "path": ["K4", "K3", "K2", "K1", "K0"]}
    assert refused(state, five).rule == "TW-BATTLE-LOSE-1"
    state = play(state, {"type": "push_back", "player": "Ben", "path": ["K4", "K3", "K2", "K1"]})
    assert state["pieces"][0] == "K1" and len(state["hands"][0]) == 4


def test_no_match_refused_while_a_matching_card_is_held():
    state = arranged(pieces={"Ann": "K4"}, hands={"Ann": [RED, BLUE, GREEN, GREEN1]}, lineup=LINEUP)
    state = roll(state, 1)
    state = play(state, {"type": "move", "player": "Ann", "path": ["K5"]})
    assert refused(state, {"type": "no_match", "player": "Ann"}).rule == "TW-BATTLE-2"


def test_ex_tw_5_the_lineup_is_refreshed_when_the_last_card_falls():
    down = [{"card": c, "up": False} for c in (O_BLUE, O_RED, "o04")]
    state = arranged(
        pieces={"Ann": "K4"}, hands={"Ann": [RED, BLUE, GREEN, GREEN1]}, lineup=[*down, O_ORANGE]
    )
    assert len(state["obstacle_pile"]["deck"]) == 16
    state = roll(state, 1)
    state = play(state, {"type": "move", "player": "Ann", "path": ["K5"]})
    assert state["fight"]["obstacle"] == 4
    state = play(state, {"type": "no_match", "player": "Ann"})
    state = play(state, {"type": "push_back", "player": "Ben", "path": ["K4"]})
    # lost: nothing changes in the Lineup; now win it in a new arrangement
    state = arranged(
        pieces={"Ann": "K4"}, hands={"Ann": ["b06", BLUE, GREEN, GREEN1]}, lineup=[*down, O_ORANGE]
    )
    assert GAME.data(state)["battle"]["b06"]["colour"] == "orange"
    state = roll(state, 1)
    state = play(state, {"type": "move", "player": "Ann", "path": ["K5"]})
    state = play(state, {"type": "play_card", "player": "Ann", "card": "b06"})
    state = roll(state, 5)
    state = play(state, {"type": "advance", "player": "Ann", "path": ["K6"]})
    pile = state["obstacle_pile"]
    assert len(pile["discard"]) == 4 and all(slot["card"] is None for slot in pile["lineup"])
    state = refill(state)
    assert len(pile["deck"]) == 16 - 4 + 4 - 4 or len(state["obstacle_pile"]["deck"]) == 12
    assert all(slot["up"] for slot in state["obstacle_pile"]["lineup"])


def test_ex_tw_6_cloak_roll_and_a_cloaked_move():
    state = arranged(
        players=["Ann", "Ben", "Cat"],
        pieces={"Ann": "K2"},
        cloak="Cat",
        hands={"Ann": [RED, BLUE, GREEN, GREEN1]},
    )
    state = roll(state, "cloak")
    assert state["phase"] == "cloak_place"
    assert refused(state, {"type": "move", "player": "Ann", "path": ["K3"]}).rule == "TW-TURN-3"
    on_cat = {"type": "place_cloak", "player": "Ann", "on": "Cat"}
    assert refused(state, on_cat).rule == "TW-CLOAK-5"
    aside = {"type": "place_cloak", "player": "Ann", "on": None}
    assert refused(state, aside).rule == "TW-TURN-3"
    state = play(state, {"type": "place_cloak", "player": "Ann", "on": "Ann"})
    assert state["cloak"] == 0 and state["phase"] == "post"
    state = arranged(
        players=["Ann", "Ben", "Cat"],
        pieces={"Ann": "K2"},
        cloak="Ann",
        hands={"Ann": [RED, BLUE, GREEN, GREEN1]},
    )
    state = roll(state, 5)
    state = play(
        state, {"type": "move", "player": "Ann", "path": ["K3", "K4", "K5", "K6", "K7", "K8"]}
    )
    assert state["phase"] == "post" and not state["pending"] and state["tiles"][0] == []


def test_ex_tw_7_removing_the_cloak():
    state = arranged(pieces={"Ann": "K2"}, cloak="Ann", hands={"Ann": [RED, BLUE, GREEN]})
    assert state["phase"] == "draw"
    early = {"type": "remove_cloak", "player": "Ann"}
    assert refused(state, early).rule == "TW-TURN-1"
    state = refill(state)
    state = play(state, early)
    assert refused(state, {"type": "play_tile", "player": "Ann", "tile": "r01"}).rule
    state = roll(state, 3)
    assert state["phase"] == "removal_place" and state["cloak"] is None
    on_own = {"type": "place_cloak", "player": "Ann", "on": "Ann"}
    assert refused(state, on_own).rule == "TW-CLOAK-7"
    state = play(state, {"type": "place_cloak", "player": "Ann", "on": "Ben"})
    assert state["cloak"] == 1 and state["active"] == 1
    state = arranged(pieces={"Ann": "K2"}, cloak="Ann", hands={"Ann": [RED, BLUE, GREEN, GREEN1]})
    state = play(state, early)
    state = roll(state, 4)
    assert state["cloak"] == 0 and state["active"] == 1 and state["pieces"][0] == "K2"


def test_ex_tw_8_dumbledore_and_its_counter():
    dumb_a, dumb_b = tile_of("dumbledore"), tile_of("dumbledore", 1)
    base = dict(
        pieces={"Ann": "K14", "Ben": "K3"},
        cloak="Ann",
        active="Ben",
        hands={"Ben": [RED, BLUE, GREEN, GREEN1]},
        tiles={"Ann": [dumb_a], "Ben": [dumb_b]},
    )
    state = arranged(**base)
    state = play(state, {"type": "play_tile", "player": "Ben", "tile": dumb_b, "target": "Ann"})
    assert state["interrupts"][-1]["kind"] == "dumbledore"
    deadline = GAME.deadline(state)
    assert deadline["seconds"] == 10 and deadline["action"] == {"type": "close_window"}
    assert GAME.chance(state) is None
    countered = play(state, {"type": "counter", "player": "Ann", "tile": dumb_a})
    assert countered["cloak"] == 0 and countered["pieces"][0] == "K14"
    assert {dumb_a, dumb_b} <= set(countered["tile_pile"]["discard"])
    assert GAME.deadline(countered) is None
    declined = play(state, {"type": "decline", "player": "Ann"})
    assert declined["cloak"] is None and declined["pieces"][0] == "K12"
    closed = play(state, {"type": "close_window"})
    assert closed["cloak"] is None and closed["pieces"][0] == "K12"
    again = {"type": "play_tile", "player": "Ben", "tile": tile_of("cloak"), "on": "Ann"}
    assert refused(declined, again).rule in ("TW-TURN-4", "TW-RES-4")


def test_dumbledore_needs_another_players_cloaked_piece():
    dumb = tile_of("dumbledore")
    state = arranged(
        pieces={"Ann": "K14"},
        cloak="Ann",
        hands={"Ann": [RED, BLUE, GREEN, GREEN1]},
        tiles={"Ann": [dumb]},
    )
    action = {"type": "play_tile", "player": "Ann", "tile": dumb, "target": "Ann"}
    assert refused(state, action).rule == "TW-RES-DUMB-1"


def test_counter_window_is_the_same_whatever_the_target_holds():
    dumb_a, dumb_b = tile_of("dumbledore"), tile_of("dumbledore", 1)
    base = dict(
        pieces={"Ann": "K14"}, cloak="Ann", active="Ben", hands={"Ben": [RED, BLUE, GREEN, GREEN1]}
    )
    holding = arranged(**base, tiles={"Ann": [dumb_a], "Ben": [dumb_b]})
    other = arranged(**base, tiles={"Ann": [tile_of("cloak")], "Ben": [dumb_b]})
    play_it = {"type": "play_tile", "player": "Ben", "tile": dumb_b, "target": "Ann"}
    holding, other = play(holding, play_it), play(other, play_it)
    assert GAME.deadline(holding) == GAME.deadline(other)
    for viewer in ("@table", "Ben"):
        assert GAME.view(holding, viewer)["interrupt"] == GAME.view(other, viewer)["interrupt"]
        assert GAME.view(holding, viewer)["prompt"] == GAME.view(other, viewer)["prompt"]


def test_ex_tw_9_overflow_discards_down_to_six():
    tiles = [
        tile_of(kind)
        for kind in ("cloak", "four_point", "red_sparks", "summon_hedge", "veritaserum")
    ]
    state = arranged(
        pieces={"Ann": "K4"},
        hands={"Ann": [RED, BLUE, GREEN, GREEN1]},
        tiles={"Ann": tiles},
        lineup=LINEUP,
    )
    state = roll(state, 1)
    state = play(state, {"type": "move", "player": "Ann", "path": ["K5"]})
    state = play(state, {"type": "play_card", "player": "Ann", "card": RED})
    state = roll(state, 3)
    state = play(state, {"type": "advance", "player": "Ann", "path": ["K6"]})
    state = refill(state)
    assert len(state["tiles"][0]) == 7 and state["interrupts"][-1]["kind"] == "overflow"
    assert refused(state, {"type": "end_turn", "player": "Ann"}).rule
    state = play(state, {"type": "discard_tile", "player": "Ann", "tile": tiles[0]})
    assert len(state["tiles"][0]) == 6 and not state["interrupts"]


def test_ex_tw_10_portkeys():
    hand = {"Ann": [RED, BLUE, GREEN, GREEN1]}
    state = arranged(pieces={"Ann": "K9", "Ben": "K0"}, hands=hand)
    state = play(roll(state, 1), {"type": "move", "player": "Ann", "path": ["K10"]})
    assert state["pieces"][0] == "K18"
    state = arranged(pieces={"Ann": "K9", "Ben": "K18"}, hands=hand)
    state = play(roll(state, 1), {"type": "move", "player": "Ann", "path": ["K10"]})
    assert state["pieces"][0] == "K10"
    state = arranged(pieces={"Ann": "K9"}, cloak="Ann", hands=hand)
    state = play(roll(state, 1), {"type": "move", "player": "Ann", "path": ["K10"]})
    assert state["pieces"][0] == "K10"


def test_ex_tw_11_cup_tiles_and_headstones():
    hands = {name: [RED, BLUE, GREEN, GREEN1] for name in ("Ann",)}
    state = arranged(
        players=["Ann", "Ben", "Cat"],
        pieces={"Ann": "K20", "Ben": "K20", "Cat": "K19"},
        hands=hands,
    )
    state = play(roll(state, 1), {"type": "move", "player": "Ann", "path": ["C1"]})
    assert state["phase"] == "flip" and GAME.chance(state).rule == "TW-CUP-2"
    state = play(state, {"type": "flip_cup", "slot": "1", "tile": "headstone-2"})
    assert state["pieces"][0] == "K15" and state["cups"]["1"] == "headstone-2"
    assert state["active"] == 1  # TW-HEAD-2: the turn ended
    state = refill(state)
    state = play(roll(state, 1), {"type": "move", "player": "Ben", "path": ["C1"]})
    assert state["interrupts"][-1]["options"] == ["K14", "K16"]
    state = play(state, {"type": "choose", "player": "Ben", "space": "K16"})
    assert state["pieces"][1] == "K16" and state["phase"] == "post"
    state = play(state, {"type": "end_turn", "player": "Ben"})
    state = refill(state)
    state = play(roll(state, 2), {"type": "move", "player": "Cat", "path": ["K20", "C1", "C2"]})
    assert refused(state, {"type": "flip_cup", "slot": "2", "tile": "headstone-2"}).rule
    state = play(state, {"type": "flip_cup", "slot": "2", "tile": "cup"})
    assert GAME.outcome(state).winners == ("Cat",) and state["phase"] == "over"
    assert refused(state, {"type": "end_turn", "player": "Cat"}).rule == "TW-END-2"


def test_ex_tw_12_swapping_the_hand_ends_the_turn():
    state = arranged(pieces={"Ann": "K2"}, hands={"Ann": [RED, BLUE, GREEN]})
    state = refill(state)
    state = play(state, {"type": "swap_hand", "player": "Ann"})
    assert state["phase"] == "swap" and len(state["pending"]) == 4
    assert refused(state, {"type": "roll", "value": 3}).rule == "TW-TURN-7"
    state = refill(state)
    assert len(state["hands"][0]) == 4 and state["active"] == 1


def test_ex_tw_13_reductor_curse():
    reductor = tile_of("reductor")
    base = dict(
        pieces={"Ann": "K8"}, hands={"Ann": [RED, BLUE, GREEN, GREEN1]}, tiles={"Ann": [reductor]}
    )
    state = roll(arranged(**base), 1)
    onto = {"type": "move", "player": "Ann", "path": ["K9", "G"], "reductor": reductor}
    assert refused(state, onto).rule == "TW-RES-REDUCT-4"
    without = {"type": "move", "player": "Ann", "path": ["K9", "G", "P"]}
    state = roll(arranged(**base), 2)
    assert refused(state, without).rule == "TW-MOVE-4"
    view = GAME.view(state, "Ann")
    assert {
        "space": "P",
        "steps": 3,
        "path": ["K9", "G", "P"],
        "reductor": reductor,
        "stops": None,
    } in view["reach"]
    assert GAME.view(state, "Ben")["reach"] is None
    state = play(state, {**without, "reductor": reductor})
    assert state["pieces"][0] == "P" and reductor in state["tile_pile"]["discard"]
    before = arranged(**base)
    play_now = {"type": "play_tile", "player": "Ann", "tile": reductor}
    assert refused(before, play_now).rule == "TW-RES-REDUCT-3"
