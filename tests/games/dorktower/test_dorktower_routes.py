"""Dork Tower: moving by touch (``rules/routes.py``): the spaces the active hero can reach now with
what each way costs (the view's ``reach``, his own view only), and ``travel``, a whole route in
one action, checked step by step as ``step`` and refused whole (DT-MOVE-1..5, DT-BORDER-2).

Map facts of the invented example: Ravensteel Keep (rv-city) has a lake to Blackmere Shore
(rv-mere), a mountain to Ravensteel Moor (rv-moor) and plain sides to Ravenwood (rv-wood) and
Ironvale's city (iv-city); Topdeck moves 4, Lumpin walks past monsters."""

from __future__ import annotations

from dt_support import DATA, GAME, act, refused, two, view

from companion.rules import EVERYTHING, HOST, TABLE


def ways_to(state, space, viewer="Ann"):
    return next(place["ways"] for place in view(state, viewer)["reach"] if place["to"] == space)


def test_reach_is_only_in_the_active_players_own_view():
    """The reach may name scrolls of the hand: the mover sees it, nobody else (nor the table)."""
    state = two({"scrolls": ["water-walking"]})
    assert view(state, "Ann")["reach"]
    for viewer in ("Bob", TABLE, HOST):
        assert view(state, viewer)["reach"] is None
    assert view(state, EVERYTHING)["reach"] == view(state, "Ann")["reach"]
    stopped, _ = act(state, type="stop", player="Ann")
    assert view(stopped, "Ann")["reach"] is None


def test_a_border_is_offered_with_each_way_to_pay_it():
    """DT-BORDER-2: across the lake by a scroll in hand, by 2 XP, or with the whole movement from
    the turn's start; each way says what it costs."""
    # monsters on Ravenwood and Ironvale's city: no way round the lake
    state = two(
        {"xp": 3, "scrolls": ["water-walking"]}, monsters={"rv-wood": ["mummy"], "iv-city": ["orc"]}
    )
    ways = {
        way["crossings"][0]["by"]: way
        for way in ways_to(state, "rv-mere")
        if way["path"] == ["rv-mere"]
    }
    assert set(ways) == {"scroll", "xp", "whole"}
    assert (ways["xp"]["xp"], ways["xp"]["moves"], ways["xp"]["pay"]) == (2, 1, [{"cross": "xp"}])
    assert (ways["whole"]["xp"], ways["whole"]["moves"], ways["whole"]["whole"]) == (0, 4, True)
    assert ways["scroll"]["scrolls"] == ["water-walking"]
    assert ways["scroll"]["pay"] == [{"cross": "scroll", "scroll": "water-walking"}]
    assert ways["scroll"]["crossings"] == [
        {
            "from": "rv-city",
            "to": "rv-mere",
            "border": "lake",
            "by": "scroll",
            "scroll": "water-walking",
        }
    ]
    # without XP, scroll or whole movement (after a step) the lake is not offered that way
    poor = two({"xp": 0})
    moved, _ = act(poor, type="travel", player="Ann", path=["rv-wood", "rv-city"])
    assert all(
        way["crossings"] == [] or way["crossings"][0]["to"] != "rv-mere"
        for place in view(moved, "Ann")["reach"]
        for way in place["ways"]
        if place["to"] == "rv-mere"
    )


def test_extra_steps_cost_one_xp_each():
    """DT-MOVE-1, DT-MOVE-2: past the movement, each step costs 1 XP; without XP no further."""
    state = two({"xp": 2})
    far = {place["to"]: place["ways"][0] for place in view(state, "Ann")["reach"]}
    assert far["iv-forge"]["moves"] == 2 and far["iv-forge"]["xp"] == 0
    five = [to for to, way in far.items() if len(way["path"]) == 5 and way["xp"] == 1]
    assert five and all(far[to]["extra"] == 1 for to in five)
    assert all(way["xp"] <= 2 for way in far.values())
    assert max(len(way["path"]) for way in far.values()) == 6
    broke = {place["to"] for place in view(two({"xp": 0}), "Ann")["reach"]}
    assert broke == {to for to, way in far.items() if way["xp"] == 0}
    assert broke < set(far)


def test_monsters_and_quests_end_every_way():
    """DT-MOVE-4, DT-MOVE-5: no way goes on from a space with monsters or a quest; Lumpin walks
    past monsters (DT-GROUP-1)."""
    state = two({"xp": 9}, monsters={"rv-wood": ["mummy"]})
    ends = {}
    for place in view(state, "Ann")["reach"]:
        for way in place["ways"]:
            for inner in way["path"][:-1]:
                assert inner != "rv-wood" and inner not in state["quests"]
            ends[place["to"]] = way["ends"]
    assert ends["rv-wood"] == "monsters"
    assert all(ends[quest] == "quest" for quest in state["quests"] if quest in ends)
    assert any(quest in ends for quest in state["quests"])
    lumpin = two(
        {"character": "lumpin", "home": "rv-city"},
        {"character": "topdeck", "home": "th-city"},
        monsters={"rv-wood": ["mummy"]},
    )
    assert ways_to(lumpin, "rv-wood")[0]["ends"] is None


def test_every_way_offered_is_accepted_and_costs_what_it_says():
    """Each way of the reach, sent as a travel, moves the hero there for exactly its XP."""
    state = two({"xp": 4, "scrolls": ["water-walking"]})
    for place in view(state, "Ann")["reach"]:
        for way in place["ways"]:
            after, events = act(
                state, type="travel", player="Ann", path=way["path"], pay=way["pay"]
            )
            hero = after["heroes"][0]
            assert hero["space"] == place["to"]
            assert hero["xp"] == 4 - way["xp"]
            assert ("water-walking" in hero["scrolls"]) == (way["scrolls"] == [])
            assert [e["to"] for e in events if e["type"] == "step"] == way["path"]


def test_legal_actions_offer_one_travel_per_reachable_space():
    state = two({"xp": 1})
    travels = [a for a in GAME.legal_actions(state) if a["type"] == "travel"]
    reach = view(state, "Ann")["reach"]
    assert [a["path"][-1] for a in travels] == [place["to"] for place in reach]
    assert all(
        a["player"] == "Ann" and a["pay"] == place["ways"][0]["pay"]
        for a, place in zip(travels, reach)
    )


def test_a_refused_step_refuses_the_whole_route_and_nothing_moves():
    """Atomic: the first steps are not kept when a later one is refused."""
    state = two({"xp": 0}, monsters={"rv-wood": ["mummy"]})
    refusal = refused(state, "DT-MOVE-4", type="travel", player="Ann", path=["rv-wood", "rv-city"])
    assert refusal.reason.startswith("Step 2 of the route, to Ravensteel Keep: ")
    refusal = refused(state, "DT-BORDER-2", type="travel", player="Ann", path=["rv-mere"])
    assert refusal.reason.startswith("Step 1 of the route, to Blackmere Shore: ")
    # the whole movement crosses only from the turn's start, before any step
    refused(
        state,
        "DT-BORDER-2",
        type="travel",
        player="Ann",
        path=["iv-city", "rv-city", "rv-mere"],
        pay=[{}, {}, {"cross": "whole"}],
    )
    refused(state, "DT-MOVE-3", type="travel", player="Ann", path=["iv-city", "rv-port"])
    refused(state, "DT-MOVE-3", type="travel", player="Ann", path=["nowhere"])
    # five steps for a hero who moves four and has no XP
    refused(
        state,
        "DT-TOK-5",
        type="travel",
        player="Ann",
        path=["iv-city", "iv-forge", "iv-shadow", "rv-shadow", "rv-moor"],
        pay=[{}, {}, {}, {}, {"extra": True}],
    )


def test_travel_is_the_active_players_and_well_formed():
    state = two()
    refused(state, "DT-TURN-1", type="travel", player="Bob", path=["rv-wood"])
    for bad in ([], "rv-wood", [3], ["rv-wood"] * 65):
        refused(state, "INPUT-1", type="travel", player="Ann", path=bad)
    refused(state, "INPUT-1", type="travel", player="Ann", path=["rv-wood"], pay=[])
    refused(state, "INPUT-1", type="travel", player="Ann", path=["rv-wood"], pay=[{"fly": 1}])
    stopped, _ = act(state, type="stop", player="Ann")
    refused(stopped, "DT-TURN-2", type="travel", player="Ann", path=["rv-wood"])


def test_travel_after_a_step_goes_on_from_there():
    state = two()
    state, _ = act(state, type="travel", player="Ann", path=["iv-city", "iv-forge"])
    assert state["t"]["moves_left"] == 2 and state["phase"] == "move"
    state, _ = act(state, type="travel", player="Ann", path=["iv-shadow"])
    assert state["heroes"][0]["space"] == "iv-shadow" and state["t"]["moves_left"] == 1
    assert DATA["spaces"]["iv-shadow"]["type"] == "shadowland"


def test_the_reach_tells_no_one_else_what_the_mover_holds():
    """DT-CARD-3: Ann's hand dealt anew changes nothing Bob or the table sees, though her reach
    names her crossing scroll."""
    import random

    state = two({"scrolls": ["water-walking", "hex"]})
    assert any(way["scrolls"] for place in view(state, "Ann")["reach"] for way in place["ways"])
    for viewer in ("Bob", TABLE, HOST):
        for seed in range(6):
            dealt = GAME.indistinguishable(state, viewer, random.Random(seed))
            assert view(dealt, viewer) == view(state, viewer)
