"""Dork Tower: the turn (spec sections 2.4 to 2.8, 2.14, 2.15 and 4), its first half: turn order,
movement, borders, the map and day and night. Encounters, tower entry, end-of-turn limits, levels
and equipping are in ``test_dorktower_turn_encounters.py``.

Map facts of the invented example set used here: Ravensteel (rv) and the other kingdoms; the
tower's door faces Howling Waste (hw) at setup; at tower step 0 the wedges rv, hw, th and cd are
in night and sm, mf, bh and iv in day.
"""

from __future__ import annotations

import copy

import pytest
from dt_support import (
    DATA,
    GAME,
    act,
    arrange,
    draw_tokens,
    end_turn,
    hero,
    pending_tokens,
    refused,
    steps,
    two,
    view,
)

from companion.games.dorktower.rules import DorkTower
from companion.rules import TABLE, Accepted, Refusal

# -- turn order ------------------------------------------------------------------------------


def test_turns_go_clockwise_from_the_first_player():
    """DT-TURN-1: turns go clockwise (seat order) from the player who chose first, and only the
    active player takes turn actions."""
    state = arrange(
        {
            "Ann": hero("topdeck", "rv-city"),
            "Bob": hero("lumpin", "th-city"),
            "Cid": hero("grimnir", "cd-city"),
        },
        first="Bob",
    )
    order = []
    for _ in range(4):
        who = state["players"][state["active"]]
        order.append(who)
        for other in state["players"]:
            if other != who:
                refused(state, "DT-TURN-1", type="stop", player=other)
        state = end_turn(state, who)  # everyone is in a city: no encounter
    assert order == ["Bob", "Cid", "Ann", "Bob"]


def test_the_steps_of_a_turn_come_in_order():
    """DT-TURN-2, DT-AMB-7: move, (trade,) encounter or city business, trade, discard, turn the
    tower: city business waits for the movement to end; after it comes the second trade window,
    then the cleanup, and the tower turn ends the turn."""
    state = two(bob={"space": "rv-city"})
    refused(state, "DT-CITY-1", type="work", player="Ann")
    state, _ = act(state, type="stop", player="Ann")
    assert state["phase"] == "trade" and state["t"]["trade_window"] == "before"
    refused(state, "DT-CITY-1", type="work", player="Ann")
    state, _ = act(state, type="done", player="Ann")
    assert state["phase"] == "city"
    state, _ = act(state, type="work", player="Ann")
    state, _ = act(state, type="done", player="Ann")
    assert state["phase"] == "trade" and state["t"]["trade_window"] == "after"
    state, _ = act(state, type="done", player="Ann")
    assert state["phase"] == "cleanup"
    state, events = act(state, type="end_turn", player="Ann")
    assert [e["type"] for e in events] == ["tower_turned", "turn"]
    assert state["active"] == 1 and state["tower_step"] == 1


def test_outside_a_city_the_encounter_comes_before_the_end_of_turn():
    """DT-TURN-2, DT-MOVE-6: on a field the encounter must be had before the turn can end."""
    state = two({"space": "rv-moor"})
    refused(state, "DT-MOVE-6", type="end_turn", player="Ann")
    state, _ = act(state, type="stop", player="Ann")
    assert state["phase"] == "encounter" and pending_tokens(state) == 2
    refused(state, "DT-TURN-2", type="end_turn", player="Ann")


# -- movement --------------------------------------------------------------------------------


def test_movement_is_the_number_of_steps_and_unused_steps_are_lost():
    """DT-MOVE-1: Topdeck (movement 4) takes four steps, not five; steps he does not take are
    not saved for his next turn."""
    state = two()
    assert state["t"]["moves_left"] == 4
    state = steps(state, "Ann", "iv-city", "iv-pinewood", "iv-crags", "bh-field")
    assert state["t"]["moves_left"] == 0
    refused(state, "DT-MOVE-1", type="step", player="Ann", to="bh-brambles")
    state = two()
    state = steps(state, "Ann", "iv-city")
    state = end_turn(state, "Ann")
    state = end_turn(state, "Bob")
    assert state["active"] == 0 and state["t"]["moves_left"] == 4
    assert view(state, TABLE)["moves_left"] == 4


def test_one_xp_buys_one_extra_step_as_often_as_xp_lasts():
    """DT-MOVE-2, DT-AMB-3, DT-TOK-5: each extra step costs 1 XP, and may be bought again in
    the same turn while XP lasts; without XP it is refused."""
    state = two({"xp": 2})
    state = steps(state, "Ann", "iv-city", "iv-pinewood", "iv-crags", "bh-field")
    state, events = act(state, type="step", player="Ann", to="bh-brambles", extra=True)
    assert events[0]["xp"] == 1 and state["heroes"][0]["xp"] == 1
    state, _ = act(state, type="step", player="Ann", to="bh-city", extra=True)
    assert state["heroes"][0]["xp"] == 0
    refused(state, "DT-TOK-5", type="step", player="Ann", to="bh-orchard", extra=True)
    refused(state, "DT-MOVE-1", type="step", player="Ann", to="bh-orchard")


def test_a_data_set_may_allow_an_xp_use_once_per_turn():
    """DT-AMB-3: whether an XP use may be repeated in one turn is configurable per use."""
    data = copy.deepcopy(DATA)
    data["name"] = "once"
    data["xp_repeat"]["extra_step"] = False
    game = DorkTower({"once": data})
    heroes = {"Ann": hero("topdeck", "rv-city", xp=5), "Bob": hero("lumpin", "th-city")}
    state = game.new(["Ann", "Bob"], {"scenario": {"heroes": heroes}})
    result = game.apply(state, {"type": "step", "player": "Ann", "to": "iv-city", "extra": True})
    assert isinstance(result, Accepted)
    again = game.apply(
        result.state, {"type": "step", "player": "Ann", "to": "iv-pinewood", "extra": True}
    )
    assert isinstance(again, Refusal) and again.rule == "DT-AMB-3"


def test_steps_go_only_to_adjacent_spaces():
    """DT-MOVE-3, DT-AMB-5: a step goes to a space sharing a side with this one (the map's
    edges); a space touching only at a corner, or far away, or not on the map is refused."""
    state = two()
    refused(state, "DT-MOVE-3", type="step", player="Ann", to="rv-crypt")
    refused(state, "DT-MOVE-3", type="step", player="Ann", to="hw-shadow")
    refused(state, "DT-MOVE-3", type="step", player="Ann", to="atlantis")
    offered = {a["to"] for a in GAME.legal_actions(state) if a["type"] == "step"}
    assert offered == set(DATA["adjacent"]["rv-city"])


def test_trusting_positions_accepts_any_reported_step():
    """DT-AMB-5: without a map the engine trusts the player's reported position (option
    trust_positions)."""
    state = two(options={"trust_positions": True})
    state, _ = act(state, type="step", player="Ann", to="sm-city")
    assert state["heroes"][0]["space"] == "sm-city"


def test_monsters_stop_movement_and_cannot_be_passed_through():
    """DT-MOVE-4, DT-ENC-2: entering a space with monsters ends the movement there, with
    movement left; the hero must fight them and no tokens are drawn."""
    state = two(
        {"space": "iv-city", "scrolls": ["war-cry"]}, monsters={"iv-pinewood": ["goblin", "wolf"]}
    )
    bowl = sum(state["bowl"].values())
    state, events = act(state, type="step", player="Ann", to="iv-pinewood")
    assert "stopped" in [e["type"] for e in events]
    assert state["t"]["moves_left"] == 3
    refused(state, "DT-MOVE-4", type="step", player="Ann", to="iv-crags")
    assert state["phase"] == "scrolls_own"
    assert state["combat"]["monsters"] == ["goblin", "wolf"]
    assert pending_tokens(state) == 0 and sum(state["bowl"].values()) == bowl


def test_lumpin_may_walk_past_monsters():
    """DT-MOVE-4, DT-CHAR-1: Lumpin's ability lets him through a monster space; the monsters
    stay where they are."""
    state = arrange(
        {"Bob": hero("lumpin", "th-city", space="iv-city"), "Ann": hero("topdeck", "rv-city")},
        monsters={"iv-pinewood": ["goblin"]},
    )
    state = steps(state, "Bob", "iv-pinewood", "iv-crags")
    assert state["phase"] == "move" and state["heroes"][0]["space"] == "iv-crags"
    assert state["monsters"] == {"iv-pinewood": ["goblin"]}


@pytest.mark.parametrize("where", ["monsters", "quest"])
def test_a_step_after_a_forced_stop_is_refused_by_its_rule(where):
    """DT-MOVE-4, DT-MOVE-5: section 4.3 refuses a step out of a monster space or a quest space
    entered this turn by those rules, also when nobody has a scroll to play (the roll waits)."""
    if where == "monsters":
        state = two({"space": "iv-city"}, monsters={"iv-pinewood": ["goblin"]})
        state = steps(state, "Ann", "iv-pinewood")
        refused(state, "DT-MOVE-4", type="step", player="Ann", to="iv-crags")
    else:
        state = two({"space": "hw-thorns"})
        state = steps(state, "Ann", "hw-flats")
        refused(state, "DT-MOVE-5", type="step", player="Ann", to="hw-pit")


def test_entering_a_quest_space_ends_movement():
    """DT-MOVE-5, DT-TOK-6: the quest token marks where a quest can be done; entering its space
    ends the movement (here Bob is there too, so a trade window opens first)."""
    state = two({"space": "rv-mere"}, {"space": "hw-flats"})
    assert "hw-flats" in view(state, TABLE)["quests"]
    state, events = act(state, type="step", player="Ann", to="hw-thorns")
    state, events = act(state, type="step", player="Ann", to="hw-flats")
    assert events[-1]["type"] == "stopped" and state["t"]["ended"] == "quest"
    refused(state, "DT-MOVE-5", type="step", player="Ann", to="hw-pit")
    state, _ = act(state, type="done", player="Ann")
    assert state["encounter"]["quest"] and pending_tokens(state) == 2


def test_not_moving_outside_a_city_still_means_an_encounter():
    """DT-MOVE-6: a hero may decline to move; outside a city he has his encounter anyway."""
    state = two({"space": "sm-dunes"})
    state, _ = act(state, type="stop", player="Ann")
    assert state["heroes"][0]["space"] == "sm-dunes" and pending_tokens(state) == 1
    state = two()
    state, _ = act(state, type="end_turn", player="Ann")  # in a city: nothing to have
    assert state["active"] == 1


def test_monsters_never_stop_a_hero_leaving_their_space():
    """DT-MOVE-7, DT-TOK-1: starting on a space with monsters, a hero may walk away (they stay,
    never moving) or stay and fight them."""
    state = two({"space": "rv-moor"}, monsters={"rv-moor": ["goblin"]})
    left = steps(state, "Ann", "rv-shadow")
    assert left["phase"] == "move" and left["monsters"] == {"rv-moor": ["goblin"]}
    stayed, _ = act(state, type="stop", player="Ann")
    assert stayed["combat"]["monsters"] == ["goblin"]


# -- borders ---------------------------------------------------------------------------------


def test_lakes_and_mountains_are_borders_between_spaces():
    """DT-BORDER-1: a lake or a mountain lies between two spaces: no space of the map is a lake
    or a mountain, and crossing one is a single step from one space to the next."""
    assert {sp["type"] for sp in DATA["spaces"].values()} == set(DATA["space_types"])
    assert not {"lake", "mountain"} & set(DATA["space_types"])
    assert DATA["adjacent"]["rv-city"]["rv-mere"] == "lake"
    state = two({"xp": 2})
    state, events = act(state, type="step", player="Ann", to="rv-mere", cross="xp")
    assert events[0]["border"] == "lake" and state["heroes"][0]["space"] == "rv-mere"
    assert state["t"]["moves_left"] == 3


def test_a_border_is_not_crossed_without_a_way_to_cross():
    """DT-BORDER-2: no ability, item or scroll, no XP and no whole-movement crossing: refused;
    claiming an ability the hero lacks is refused too."""
    state = two()
    refused(state, "DT-BORDER-2", type="step", player="Ann", to="rv-mere")
    refused(state, "DT-BORDER-2", type="step", player="Ann", to="rv-moor", cross="ability")
    refused(state, "DT-BORDER-2", type="step", player="Ann", to="rv-moor", cross="item")
    lacking = refused(state, "DT-BORDER-2", type="step", player="Ann", to="rv-moor", cross="xp")
    assert lacking.reason == "Ann has 0 XP, not the 2 XP a crossing costs."
    assert {
        a.get("cross")
        for a in GAME.legal_actions(state)
        if a["type"] == "step" and a["to"] == "rv-moor"
    } == {"whole"}


def test_two_xp_cross_a_border():
    """DT-BORDER-2 (b): 2 XP pay for a crossing, which is still one step of movement."""
    state = two({"xp": 3})
    state, _ = act(state, type="step", player="Ann", to="rv-moor", cross="xp")
    assert state["heroes"][0]["xp"] == 1 and state["t"]["moves_left"] == 3


def test_the_whole_movement_crosses_from_the_starting_space_only():
    """DT-BORDER-2 (c): a hero who starts his turn next to the border may cross it by spending
    all his movement; after a step, or from elsewhere, he may not."""
    state = two()
    crossed, _ = act(state, type="step", player="Ann", to="rv-mere", cross="whole")
    assert crossed["t"]["moves_left"] == 0 and crossed["heroes"][0]["space"] == "rv-mere"
    refused(crossed, "DT-MOVE-1", type="step", player="Ann", to="rv-port")
    moved = steps(state, "Ann", "rv-wood", "rv-city")
    refused(moved, "DT-BORDER-2", type="step", player="Ann", to="rv-mere", cross="whole")


def test_abilities_and_magic_items_cross_borders_for_free():
    """DT-BORDER-2 (a), DT-CHAR-1: an ability on the sheet (Grimnir: mountains; Mirella: lakes)
    or an equipped magic item (Helm of the Mountain King) overrides the border rule: the crossing
    is an ordinary step."""
    state = arrange(
        {
            "Ann": hero("grimnir", "rv-city", xp=0),
            "Bob": hero("mirella", "th-city", space="rv-city"),
        }
    )
    assert view(state, TABLE)["players"]["Ann"]["abilities"] == ["cross_mountain"]
    grim, _ = act(state, type="step", player="Ann", to="rv-moor")
    assert grim["t"]["moves_left"] == 2 and grim["heroes"][0]["xp"] == 0
    refused(state, "DT-BORDER-2", type="step", player="Ann", to="rv-mere")
    state = arrange(
        {"Bob": hero("mirella", "th-city", space="rv-city"), "Ann": hero("grimnir", "rv-city")}
    )
    state, _ = act(state, type="step", player="Bob", to="rv-mere")
    assert state["heroes"][0]["space"] == "rv-mere"  # Bob sits first here
    helm = two({"items": [{"card": "horned-helm", "face": "magic", "slot": 2}]})
    helm, events = act(helm, type="step", player="Ann", to="rv-moor")
    assert events[0]["border"] == "mountain" and helm["heroes"][0]["xp"] == 0
    refused(helm, "DT-MOVE-3", type="step", player="Ann", to="rv-mere")


def test_a_crossing_scroll_is_used_up_in_the_step_it_crosses():
    """DT-BORDER-2 (a), DT-AMB-27, DT-CARD-6: a movement scroll (Levitation) crosses a border
    as part of the step; it is single-use and discarded; it cannot be played any other way, and
    a scroll of another window cannot cross."""
    state = two({"scrolls": ["levitation", "war-cry"]})
    refused(
        state,
        "DT-AMB-27",
        type="step",
        player="Ann",
        to="rv-mere",
        cross="scroll",
        scroll="war-cry",
    )
    refused(state, "DT-AMB-27", type="play_scroll", player="Ann", scroll="levitation")
    state, events = act(
        state, type="step", player="Ann", to="rv-mere", cross="scroll", scroll="levitation"
    )
    assert state["heroes"][0]["scrolls"] == ["war-cry"]
    assert state["scrolls"]["discard"] == ["levitation"]
    assert "scroll_played" in [e["type"] for e in events]


# -- the map and day and night ----------------------------------------------------------------


def test_kingdom_borders_are_lines_not_obstacles():
    """DT-SPACE-1: every space lies in one wedge; the thick line between two kingdoms (or a
    kingdom and a wild area) is crossed by an ordinary step."""
    assert all(sp["wedge"] in {w["id"] for w in DATA["wedges"]} for sp in DATA["spaces"].values())
    state = two({"space": "rv-mere"})
    state, events = act(state, type="step", player="Ann", to="hw-thorns")
    assert events[0]["border"] == "none" and events[0]["xp"] == 0
    assert state["t"]["moves_left"] == 3
    assert DATA["spaces"]["rv-mere"]["wedge"] != DATA["spaces"]["hw-thorns"]["wedge"]


def test_eight_wedges_and_the_wild_areas_have_day_and_night_like_kingdoms():
    """DT-SPACE-2: 6 kingdoms and 2 wild areas; a wild area is "the kingdom you are in" when a
    hero is there, with its own day or night like any kingdom."""
    state = two({"space": "hw-barrens"})
    wedges = view(state, TABLE)["tower"]["wedges"]
    assert len(wedges) == 8
    assert sorted(w["kind"] for w in wedges) == ["kingdom"] * 6 + ["wild"] * 2
    assert view(state, TABLE)["here"] == {"space": "hw-barrens", "draw": 2, "day": False}
    state = two({"space": "mf-marsh"})
    assert view(state, TABLE)["here"] == {"space": "mf-marsh", "draw": 1, "day": True}


@pytest.mark.parametrize(
    "space, step, day, count",
    [
        ("rv-moor", 4, True, 1),
        ("rv-moor", 0, False, 2),  # field
        ("rv-wood", 4, True, 2),
        ("rv-wood", 0, False, 3),  # forest
        ("rv-crypt", 4, True, 3),
        ("rv-crypt", 0, False, 4),  # dungeon
        ("sm-shadow", 0, False, 2),
        ("rv-shadow", 0, False, 2),  # shadowlands: always night
    ],
)
def test_encounter_counts_by_space_and_time(space, step, day, count):
    """DT-EX-2, DT-SPACE-5, DT-SPACE-6, DT-SPACE-8, DT-ENC-3: field 1 by day, 2 by night;
    forest 2/3; dungeon 3/4; any shadowland 2. Stopping there asks for exactly that many
    tokens, and no more can be drawn."""
    state = two({"space": space}, tower_step=step)
    assert view(state, TABLE)["here"]["day"] is day
    assert GAME.draw_count(state, space) == count
    state, events = act(state, type="stop", player="Ann")
    assert events[-1]["type"] == "encounter" and events[-1]["count"] == count
    assert pending_tokens(state) == count
    for _ in range(count):
        chance = GAME.chance(state)
        assert (chance.kind, chance.rule, chance.player) == ("draw", "DT-ENC-3", "Ann")
        state, _ = act(state, type="draw_token", token="giant-rat")
    assert pending_tokens(state) == 0
    assert isinstance(GAME.apply(state, {"type": "draw_token", "token": "giant-rat"}), Refusal)
    assert state["combat"]["monsters"] == ["giant-rat"] * count


@pytest.mark.parametrize("case", ["extra", "city", "monsters"])
def test_a_wrong_token_draw_is_refused_by_the_encounter_rules(case):
    """DT-ENC-3, DT-ENC-1, DT-ENC-2: section 4.3 refuses more tokens than the chart's count by
    DT-ENC-3, any token drawn in a city without a quest by DT-ENC-1, and any token drawn on a
    space already holding monsters by DT-ENC-2."""
    if case == "monsters":
        state, _ = act(
            two({"space": "rv-moor", "scrolls": ["war-cry"]}, monsters={"rv-moor": ["goblin"]}),
            type="stop",
            player="Ann",
        )
        refused(state, "DT-ENC-2", type="draw_token", token="wolf")
    elif case == "extra":
        state, _ = act(
            two({"space": "sm-dunes", "scrolls": ["war-cry"]}), type="stop", player="Ann"
        )
        state = draw_tokens(state, "giant-rat")
        refused(state, "DT-ENC-3", type="draw_token", token="goblin")
    else:
        state, _ = act(two(), type="stop", player="Ann")
        refused(state, "DT-ENC-1", type="draw_token", token="goblin")


def test_a_city_draws_nothing():
    """DT-SPACE-4, DT-ENC-1, DT-EX-2: no tokens in a city without a quest: straight to city
    business."""
    state = two(tower_step=4)
    assert GAME.draw_count(state, "rv-city") == 0
    state, _ = act(state, type="stop", player="Ann")
    assert state["phase"] == "city" and state["pending"] == [] and state["encounter"] is None


def test_the_encounter_chart_may_add_space_types():
    """DT-AMB-4: the Encounter chart is data: a space type it adds draws its own counts."""
    data = copy.deepcopy(DATA)
    data["name"] = "swampy"
    data["space_types"]["swamp"] = {**data["space_types"]["field"], "day": 3, "night": 5}
    data["spaces"]["rv-moor"]["type"] = "swamp"
    game = DorkTower({"swampy": data})
    heroes = {"Ann": hero("topdeck", "rv-city", space="rv-moor"), "Bob": hero("lumpin", "th-city")}
    state = game.new(["Ann", "Bob"], {"scenario": {"heroes": heroes}})
    assert game.draw_count(state, "rv-moor") == 5
    state = game.apply(state, {"type": "stop", "player": "Ann"}).state
    assert pending_tokens(state) == 5


@pytest.mark.parametrize("step", range(8))
def test_four_wedges_are_in_day_and_four_in_night(step):
    """DT-TIME-1, DT-TOWER-1: four sun walls light four wedges, four moon walls darken the
    others; a space is in day exactly when its wedge is; the door is always on the night side."""
    state = two(tower_step=step)
    days = GAME.wedge_days(state)
    assert sum(days) == 4
    assert days[GAME.door_wedge(state)] is False
    wedges = [w["id"] for w in DATA["wedges"]]
    for sp in ("rv-moor", "hw-flats", "sm-dunes", "iv-ford"):
        space = DATA["spaces"][sp]
        expected = 1 if days[wedges.index(space["wedge"])] else 2
        assert GAME.draw_count(state, sp) == expected


def test_the_tower_turns_one_step_clockwise_at_the_end_of_each_turn():
    """DT-TIME-2, DT-LIMIT-4: ending the turn turns the tower exactly one step clockwise: the
    door moves to the next wedge and day and night move with it; turning it backwards or further
    is refused."""
    state = two()
    refused(state, "DT-TIME-2", type="end_turn", player="Ann", steps=-1)
    refused(state, "DT-TIME-2", type="end_turn", player="Ann", steps=2)
    before = GAME.wedge_days(state)
    door = GAME.door_wedge(state)
    state, events = act(state, type="end_turn", player="Ann", steps=1)
    assert events[0]["type"] == "tower_turned" and events[0]["step"] == 1
    assert GAME.door_wedge(state) == (door + 1) % 8
    assert GAME.wedge_days(state) == before[-1:] + before[:-1]
    assert GAME.door_space(state) == DATA["shadowlands"][DATA["wedges"][(door + 1) % 8]["id"]]


def test_the_tower_cycle():
    """DT-EX-3, DT-TIME-3, DT-SETUP-1: at the start the door faces the wild area between
    Ravensteel and Thunderhawk, which is in night; every turn shows 4 day and 4 night wedges;
    shadowlands stay night throughout; 8 turns bring the tower back to where it started."""
    state = arrange(
        {
            "Ann": hero("topdeck", "rv-city"),
            "Bob": hero("lumpin", "th-city"),
            "Cid": hero("grimnir", "cd-city"),
        }
    )
    wedges = DATA["wedges"]
    door = GAME.door_wedge(state)
    assert wedges[door]["kind"] == "wild"
    assert {wedges[door - 1]["name"], wedges[door + 1]["name"]} == {"Ravensteel", "Thunderhawk"}
    assert GAME.wedge_days(state)[door] is False
    start = (GAME.wedge_days(state), door)
    seen = set()
    for turn in range(8):
        days = GAME.wedge_days(state)
        assert sum(days) == 4
        seen.add(tuple(days))
        for shadow in DATA["shadowlands"].values():
            assert GAME.draw_count(state, shadow) == 2
        assert view(state, TABLE)["tower"]["step"] == turn
        state = end_turn(state, state["players"][state["active"]])
    assert (GAME.wedge_days(state), GAME.door_wedge(state)) == start
    assert len(seen) == 8


def test_a_shadowland_is_night_even_in_a_day_wedge():
    """DT-TIME-3, DT-SPACE-7: Saltmere is in day at step 0, its shadowland is not."""
    state = two({"space": "sm-shadow"})
    assert GAME.wedge_days(state)[4] is True
    assert view(state, TABLE)["here"]["day"] is False
