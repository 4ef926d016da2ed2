"""Triwizard movement and spaces (spec sections 2.3 and 2.4): TW-MOVE, TW-PORT, TW-MIST,
TW-CUP, TW-HEAD, TW-PEN, TW-HEDGE, with TW-AMB-5, 6, 7, 8, 16, 32 and 34, on Corridor K."""

from __future__ import annotations

from tw_support import (
    ANN,
    BOARD,
    BOB,
    CID,
    act,
    arrange,
    awaiting,
    cup_slot,
    headstone,
    line,
    move,
    phase,
    refused,
    roll,
    route,
    start,
    tile_count,
    tile_of,
    view,
    where,
)


def _dark_beside(space: str) -> str:
    """A grid cell orthogonally beside ``space`` that is Dark Hedge (not listed), as "x,y"."""
    cell = BOARD["spaces"][space]
    for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        x, y = cell["x"] + dx, cell["y"] + dy
        if 0 <= x < BOARD["width"] and 0 <= y < BOARD["height"] and f"{x},{y}" not in BOARD["at"]:
            return f"{x},{y}"
    raise AssertionError(f"no Dark Hedge beside {space}")


def _diagonal_pair() -> tuple[str, str]:
    """Two Path spaces diagonally adjacent, the first reachable in one orthogonal step from a
    Path space the piece can start on."""
    for a, cell in sorted(BOARD["spaces"].items()):
        if cell["kind"] != "path" or cell["feature"] is not None:
            continue
        for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            b = BOARD["at"].get(f"{cell['x'] + dx},{cell['y'] + dy}")
            if b and BOARD["spaces"][b]["kind"] == "path" and BOARD["spaces"][b]["feature"] is None:
                return a, b
    raise AssertionError("Corridor K has no diagonal pair of plain Path spaces")


def test_steps_beyond_the_allowance():
    """TW-MOVE-1, TW-AMB-8: 0 steps are allowed; a path longer than 2n is refused."""
    s = roll(start(arrange(pieces={ANN: "K12"})), 1)
    refused(s, "TW-MOVE-1", type="move", player=ANN, path=line(12, 15))
    assert where(move(s, ANN, []), ANN) == "K12"


def test_no_revisit_in_one_move():
    """TW-AMB-8: a path may not visit a space twice in one move (allow_revisit false); with the
    option it may."""
    path = ["K12", "K13", "K12", "K11"]
    s = roll(start(arrange(pieces={ANN: "K11"})), 2)
    refused(s, ("TW-AMB-8", "TW-MOVE-1"), type="move", player=ANN, path=path)
    free = roll(start(arrange(pieces={ANN: "K11"}, options={"allow_revisit": True})), 2)
    assert where(move(free, ANN, path), ANN) == "K11"


def test_orthogonal_steps_only():
    """TW-MOVE-2: a diagonal step, or a step to a space that is not beside the piece, is
    refused."""
    a, b = _diagonal_pair()
    s = roll(start(arrange(pieces={ANN: a})), 2)
    refused(s, "TW-MOVE-2", type="move", player=ANN, path=[b])
    far = roll(start(arrange(pieces={ANN: "K1"})), 2)
    refused(far, "TW-MOVE-2", type="move", player=ANN, path=["K3"])


def test_dark_hedge_is_never_passed():
    """TW-MOVE-3, TW-RES-REDUCT-2: a step onto Dark Hedge is refused, with or without the
    Reductor Curse."""
    reductor = tile_of("reductor")
    s = roll(start(arrange(pieces={ANN: "K3"}, tiles={ANN: [reductor]})), 2)
    dark = _dark_beside("K3")
    refused(s, "TW-MOVE-3", type="move", player=ANN, path=[dark])
    refused(
        s,
        ("TW-RES-REDUCT-2", "TW-MOVE-3"),
        type="move",
        player=ANN,
        path=[dark],
        reductor=reductor,
    )
    assert tile_count(s, ANN) == 1


def test_end_on_an_occupied_space_is_refused_then_step_on():
    """TW-MOVE-5, TW-MOVE-6, TW-AMB-6, TW-AMB-34: a move through another piece is fine; one
    that ends on it is refused and the prompt names the next space; stepping on beyond the
    allowance by the one occupied space skipped is accepted."""
    s = roll(start(arrange(pieces={ANN: "K1", BOB: "K3"})), 1)
    r = refused(s, "TW-MOVE-5", type="move", player=ANN, path=["K2", "K3"])
    assert "K4" in view(s, ANN)["prompt"] or "K4" in r.reason
    refused(s, "TW-MOVE-1", type="move", player=ANN, path=["K2", "K3", "K4", "K5"])
    s = move(s, ANN, ["K2", "K3", "K4"])
    assert (where(s, ANN), where(s, BOB)) == ("K4", "K3")


def test_the_entrance_holds_several_pieces():
    """TW-AMB-7, TW-SETUP-2: everyone starts on the Entrance; a 0-step move stays there."""
    s = roll(start(arrange(3)), 1)
    s = move(s, ANN, [])
    assert {where(s, n) for n in (ANN, BOB, CID)} == {"K0"}


def test_obstacle_space_ends_the_move():
    """TW-MOVE-7, TW-OBST-1: an uncloaked piece entering K5 stops and battles: a path going on
    past it is refused; one ending there starts the battle."""
    s = roll(start(arrange(pieces={ANN: "K3"})), 3)
    refused(s, ("TW-MOVE-7", "TW-OBST-1"), type="move", player=ANN, path=line(3, 7))
    s = move(s, ANN, ["K4", "K5"])
    v = view(s)
    assert (v["phase"], v["fight"]["space"], v["fight"]["obstacle"]["position"]) == (
        "battle_select",
        "K5",
        1,
    )


def test_reach_marks_the_obstacle_stop():
    """TW-MOVE-7, TW-MOVE-8: the mover's reach lists K5 as a stop ("obstacle") and nothing
    beyond it on that side; other viewers get no reach."""
    s = roll(start(arrange(pieces={ANN: "K3"})), 3)
    reach = {r["space"]: r for r in view(s, ANN)["reach"]}
    assert reach["K5"]["stops"] == "obstacle" and "K6" not in reach
    assert reach["K4"]["stops"] is None and reach["K4"]["path"] == ["K4"]
    assert view(s, BOB)["reach"] is None


def test_only_the_end_space_acts():
    """TW-MOVE-8, TW-MIST-1: passing the Gold Mist K8 and the Portkey K10 does nothing;
    stopping on K8 draws 1 Resource Tile."""
    s = roll(start(arrange(pieces={ANN: "K6"})), 3)
    past = move(s, ANN, line(6, 11))
    assert (where(past, ANN), awaiting(past), phase(past)) == ("K11", None, "post")
    stop = move(s, ANN, line(6, 8))
    a = awaiting(stop)
    assert (a["kind"], a["why"], a["player"]) == ("tile", "mist", ANN)
    stop = act(stop, type="draw_tile", player=ANN, tile=tile_of("cloak"))
    assert tile_count(stop, ANN) == 1 and phase(stop) == "post"


def test_gold_mist_gives_nothing_to_a_cloaked_piece():
    """TW-MIST-2, TW-CLOAK-3: a cloaked piece stopping on K8 draws nothing."""
    s = move(roll(start(arrange(pieces={ANN: "K6"}, cloak=ANN)), 1), ANN, ["K7", "K8"])
    assert (awaiting(s), phase(s), tile_count(s, ANN)) == (None, "post", 0)


def test_wandering_hedge_blocks():
    """TW-MOVE-9, TW-AMB-19: the Wandering Hedge's space can be neither entered nor crossed,
    even with the Reductor Curse."""
    reductor = tile_of("reductor")
    s = roll(start(arrange(pieces={ANN: "K2"}, hedge="K3", tiles={ANN: [reductor]})), 2)
    assert view(s)["hedge"] == "K3"
    refused(s, "TW-MOVE-9", type="move", player=ANN, path=["K3", "K4"])
    refused(s, "TW-MOVE-9", type="move", player=ANN, path=["K3", "K4"], reductor=reductor)


def test_portkey_pairs():
    """TW-PORT-1: three Portkey pairs, each space naming its partner."""
    ports = BOARD["portkeys"]
    assert len(ports) == 6 and all(ports[ports[p]] == p for p in ports)


def test_portkey_travel_stops_at_the_partner():
    """TW-PORT-2, TW-PORT-4: stopping on K18 sends the piece to K10 and it stays there; an
    opponent on K10 blocks it."""
    s = move(roll(start(arrange(pieces={ANN: "K16"})), 1), ANN, ["K17", "K18"])
    assert (where(s, ANN), phase(s)) == ("K10", "post")
    s = move(roll(start(arrange(pieces={ANN: "K16", BOB: "K10"})), 1), ANN, ["K17", "K18"])
    assert where(s, ANN) == "K18"


def test_cloaked_piece_does_not_travel():
    """TW-PORT-3, TW-CLOAK-2: a cloaked piece stopping on a Portkey stays."""
    s = move(roll(start(arrange(pieces={ANN: "K16"}, cloak=ANN)), 1), ANN, ["K17", "K18"])
    assert where(s, ANN) == "K18"


def test_cups_start_face_down():
    """TW-CUP-1, TW-AMB-31: four Cup Tile Spaces, each face down and unknown to the engine."""
    v = view(start(arrange()))
    assert [c["slot"] for c in v["cups"]] == ["1", "2", "3", "4"]
    assert [c["space"] for c in v["cups"]] == [cup_slot(n) for n in range(1, 5)]
    assert all(c["face_up"] is None for c in v["cups"])


def _to_cup(s, name: str, slot: int, start_space: str = "K20"):
    path = route(start_space, cup_slot(slot))
    return move(roll(s, (len(path) + 1) // 2), name, path)


def test_cloaked_piece_cannot_check_a_cup():
    """TW-CUP-3, TW-CLOAK-3, TW-AMB-16: a cloaked piece may stop on a face-down Cup Tile but does
    not flip it; a flip then is refused."""
    s = _to_cup(start(arrange(pieces={ANN: "K20"}, cloak=ANN)), ANN, 2)
    assert (where(s, ANN), phase(s), awaiting(s)) == (cup_slot(2), "post", None)
    assert view(s)["cups"][1]["face_up"] is None


def test_flip_for_a_cloaked_piece_is_refused():
    """TW-CLOAK-3 (section 3.3, T_RESOLVE): FLIP_CUP for a cloaked piece is refused by
    TW-CLOAK-3."""
    s = _to_cup(start(arrange(pieces={ANN: "K20"}, cloak=ANN)), ANN, 2)
    refused(s, "TW-CLOAK-3", type="flip_cup", slot="2", tile="cup")


def test_headstone_flip_transports_and_ends_the_turn():
    """TW-HEAD-1, TW-HEAD-2, TW-AMB-4: a flipped Headstone 3 sends the piece to Headstone Space
    3; the tile stays face up and the turn ends."""
    s = _to_cup(start(arrange(pieces={ANN: "K20"})), ANN, 4)
    s = act(s, type="flip_cup", slot="4", tile="headstone-3")
    v = view(s)
    assert where(s, ANN) == headstone(3) and v["cups"][3]["face_up"] == "headstone-3"
    assert v["active"] == BOB and not v["finished"]


def test_flip_names_an_unseen_identity():
    """TW-COMP-2, TW-CUP-1: a flip naming an identity already face up is refused."""
    s = _to_cup(start(arrange(pieces={ANN: "K20"}, cups={"1": "headstone-2"})), ANN, 3)
    result = refused(s, ("TW-CUP-1", "TW-COMP-2"), type="flip_cup", slot="3", tile="headstone-2")
    assert result.reason


def test_face_up_headstone_transports():
    """TW-HEAD-3: stopping on a face-up Headstone Tile sends the piece to its Headstone
    Space."""
    s = _to_cup(start(arrange(pieces={ANN: "K20"}, cups={"1": "headstone-1"})), ANN, 1)
    assert (where(s, ANN), awaiting(s)) == (headstone(1), None)


def test_cloaked_piece_is_not_transported():
    """TW-HEAD-4, TW-CLOAK-2: a cloaked piece stays on the face-up Headstone Tile."""
    s = start(arrange(pieces={ANN: "K20"}, cups={"1": "headstone-1"}, cloak=ANN))
    s = _to_cup(s, ANN, 1)
    assert where(s, ANN) == cup_slot(1)


def test_headstone_space_does_nothing():
    """TW-HEAD-5: stopping on Headstone Space 2 (K15) does nothing: no transport back."""
    s = move(
        roll(start(arrange(pieces={ANN: "K13"}, cups={"1": "headstone-2"})), 1), ANN, ["K14", "K15"]
    )
    assert (where(s, ANN), phase(s), awaiting(s)) == ("K15", "post", None)


def test_jump_to_an_occupied_space_goes_to_the_nearest_free():
    """TW-AMB-6, TW-MOVE-5, TW-HEAD-3: a transport to Headstone Space 1 (10,2), which Bob holds:
    its only nearest free Path space is 9,2, taken without asking."""
    s = start(arrange(pieces={ANN: "K20", BOB: headstone(1)}, cups={"2": "headstone-1"}))
    s = _to_cup(s, ANN, 2)
    assert view(s)["interrupt"] is None
    assert (where(s, ANN), where(s, BOB)) == ("9,2", headstone(1))


def test_wandering_hedge_starts_home():
    """TW-HEDGE-1, TW-SETUP-5: the Wandering Hedge starts on its home; moving does not move it."""
    s = start(arrange())
    assert view(s)["hedge"] == BOARD["hedge_home"]
    s = move(roll(s, 2), ANN, ["K1", "K2"])
    assert view(s)["hedge"] == BOARD["hedge_home"]


def test_dumbledore_penalty_nearest_empty():
    """TW-PEN-1, TW-AMB-5, TW-CLOAK-8: the punished piece goes to the nearest empty Penalty
    Space: K12 from K13, or the next nearest when K12 is taken."""
    dumb = tile_of("dumbledore")
    s = start(arrange(3, pieces={BOB: "K13", CID: "K12"}, cloak=BOB, tiles={ANN: [dumb]}))
    s = act(act(s, type="play_tile", player=ANN, tile=dumb, target=BOB), type="decline", player=BOB)
    v = view(s)
    if v["interrupt"] and v["interrupt"]["kind"] == "choose":
        assert "K12" not in v["interrupt"]["options"]
        s = act(s, type="choose", player=ANN, space=v["interrupt"]["options"][0])
    assert where(s, BOB) != "K12" and view(s)["cloak"] is None
    s = start(arrange(pieces={BOB: "K13"}, cloak=BOB, tiles={ANN: [dumb]}))
    s = act(act(s, type="play_tile", player=ANN, tile=dumb, target=BOB), type="decline", player=BOB)
    assert where(s, BOB) == "K12"


def test_next_available_space_at_a_junction():
    """TW-AMB-32, TW-AMB-34, TW-MOVE-5: K14 (Bob's) is a junction: ending there is refused and
    the refusal names both nearest free spaces, K15 and 14,1; the mover's reach offers both at
    3 steps with a roll of 1; either may be taken."""
    s = roll(start(arrange(pieces={ANN: "K12", BOB: "K14"})), 1)
    r = refused(s, "TW-MOVE-5", type="move", player=ANN, path=["K13", "K14"])
    assert "K15" in r.reason and "14,1" in r.reason
    reach = {x["space"]: x for x in view(s, ANN)["reach"]}
    assert (reach["K15"]["steps"], reach["14,1"]["steps"]) == (3, 3)
    assert "K14" not in reach
    for goal in ("K15", "14,1"):
        assert where(move(s, ANN, ["K13", "K14", goal]), ANN) == goal


def test_gold_mist_draw_for_a_cloaked_piece_is_refused():
    """TW-MIST-2 (section 3.3, T_RESOLVE): a Gold Mist draw for a cloaked piece is refused by
    TW-MIST-2."""
    s = move(roll(start(arrange(pieces={ANN: "K7"}, cloak=ANN)), 1), ANN, ["K8"])
    refused(s, "TW-MIST-2", type="draw_tile", player=ANN, tile=tile_of("cloak"))
