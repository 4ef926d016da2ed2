"""Dork Tower data sets: the loader's validation of the board (spec sections 6, 8).

Breaks one thing at a time in a copy of the example set (the map, the tower, the Combat Table,
the quest table, the files themselves) and checks the error names the file, the place and the
problem exactly. Cards, tokens, characters and XP: ``test_dorktower_data_broken_cards.py``.
"""

from __future__ import annotations

import json

from dt_data_support import (  # noqa: F401 (mygame is a fixture)
    DATA,
    assert_error,
    edit,
    error,
    index,
    mygame,
)

from companion.games.dorktower.rules.data import DataError, load_dataset

# ----------------------------------------------------------------------------------------------
# Broken sets: one mistake each


def test_the_error_message_names_file_place_and_problem():
    """DataError is a ValueError whose text is "<file>: <place>: <problem>"."""
    err = DataError("mygame/map.json", "spaces[3] (id 'rv-city')", "something is wrong")
    assert isinstance(err, ValueError)
    assert str(err) == "mygame/map.json: spaces[3] (id 'rv-city'): something is wrong"
    assert (err.file, err.place, err.problem) == (
        "mygame/map.json",
        "spaces[3] (id 'rv-city')",
        "something is wrong",
    )


def test_unknown_space_type(mygame):
    """DT-AMB-4, DT-AMB-5: a space's type must be one the encounter chart knows."""

    def swamp(m):
        m["spaces"][index(m["spaces"], "rv-moor")]["type"] = "swamp"

    edit(mygame, "map.json", swamp)
    i = index(json.loads((mygame / "map.json").read_text())["spaces"], "rv-moor")
    assert_error(
        mygame,
        "mygame/map.json",
        f"spaces[{i}] (id 'rv-moor')",
        "unknown space type 'swamp' (the encounter chart knows: city, dungeon, field, "
        "forest, shadowland)",
    )


def test_a_space_type_added_to_the_encounter_chart_is_known(mygame):
    """DT-AMB-4: the Encounter chart may hold more space types than the five of the text."""
    edit(
        mygame,
        "encounter_chart.json",
        lambda c: c["space_types"].update(swamp={"day": 1, "night": 3}),
    )
    edit(
        mygame,
        "map.json",
        lambda m: m["spaces"][index(m["spaces"], "rv-moor")].update(type="swamp"),
    )
    data = load_dataset(mygame)
    assert data["space_types"]["swamp"] == {
        "day": 1,
        "night": 3,
        "always_night": False,
        "city": False,
        "no_flee": False,
        "extra_magic_item": False,
    }
    assert data["spaces"]["rv-moor"]["type"] == "swamp"
    assert data["fingerprint"] != DATA["fingerprint"]


def test_a_wedge_missing_from_the_tower(mygame):
    """DT-AMB-1, DT-COMP-6: tower.json lists all 8 wedges of map.json, clockwise."""
    edit(mygame, "tower.json", lambda t: t["wedges"].remove("sm"))
    assert_error(
        mygame,
        "mygame/tower.json",
        "wedges",
        "wedge 'sm' of map.json is missing from the tower's wedges (tower.json lists 7 of 8)",
    )


def test_a_wedge_listed_twice_in_the_tower(mygame):
    """DT-AMB-1: each wedge appears once in the clockwise order."""
    edit(mygame, "tower.json", lambda t: t["wedges"].__setitem__(4, "rv"))
    assert_error(
        mygame, "mygame/tower.json", "wedges[4]", "the wedge 'rv' is listed twice (also wedges[0])"
    )


def test_seven_wedges_on_the_map(mygame):
    """DT-COMP-6: 8 wedges, 6 kingdoms and 2 wild areas."""
    edit(mygame, "map.json", lambda m: m["wedges"].pop())
    assert_error(
        mygame,
        "mygame/map.json",
        "wedges",
        "there are 7 wedges (5 kingdoms, 2 wild areas); the board has 8: 6 kingdoms "
        "and 2 wild areas (DT-COMP-6)",
    )


def test_a_combat_row_missing(mygame):
    """DT-AMB-2: the rows cover every difference: a missing row leaves a gap."""
    edit(mygame, "combat_table.json", lambda c: c["rows"].pop(7))
    assert_error(
        mygame,
        "mygame/combat_table.json",
        "rows",
        "no row covers differences 3 to 4 (between rows[6] and rows[7])",
    )


def test_overlapping_combat_rows(mygame):
    """DT-AMB-2: no difference is covered by two rows."""
    edit(mygame, "combat_table.json", lambda c: c["rows"][7].update(min=2))
    assert_error(
        mygame,
        "mygame/combat_table.json",
        "rows",
        "rows[6] and rows[7] overlap: both cover difference 2",
    )


def test_combat_rows_out_of_order(mygame):
    """DT-AMB-2: rows go up by difference."""
    edit(mygame, "combat_table.json", lambda c: c["rows"].insert(5, c["rows"].pop(3)))
    assert_error(
        mygame,
        "mygame/combat_table.json",
        "rows",
        "the rows must go up by difference: rows[5] starts at -4, below rows[4], which starts at 0",
    )


def test_combat_rows_without_row_zero(mygame):
    """DT-COMBAT-5, DT-AMB-2: equal totals use row 0, so some row covers difference 0."""
    edit(mygame, "combat_table.json", lambda c: c.update(rows=c["rows"][6:]))
    rows = json.loads((mygame / "combat_table.json").read_text())["rows"]
    assert rows[0]["min"] == 1
    assert_error(
        mygame,
        "mygame/combat_table.json",
        "rows",
        "no row covers difference 0 (equal totals use row 0, DT-COMBAT-5)",
    )


def test_a_bounded_combat_table_clamps(mygame):
    """DT-AMB-2: a table whose first and last rows are bounded is accepted as it is."""

    def bound(c):
        c["rows"][0]["min"] = -10
        c["rows"][-1]["max"] = 10

    edit(mygame, "combat_table.json", bound)
    rows = load_dataset(mygame)["combat_rows"]
    assert (rows[0]["min"], rows[-1]["max"]) == (-10, 10)


def test_invalid_json(mygame):
    """A syntax mistake is reported by line and column."""
    (mygame / "tower.json").write_text(
        '{\n  "wedges": ["rv", "hw", "th", "cd", "sm", "mf", "bh", "iv"],\n'
        '  "walls": ["sun", "sun", "sun", "sun", "moon", "moon", "moon", "moon"],\n'
        '  "door_wall": 5,\n  "door_faces": "hw",\n}\n',
        encoding="utf-8",
    )
    assert_error(
        mygame,
        "mygame/tower.json",
        "line 6, column 1",
        "invalid JSON: Expecting property name enclosed in double quotes (JSON allows "
        "no comma before '}', and every key needs double quotes)",
    )


def test_a_key_written_twice(mygame):
    """A key given twice in one object is a mistake, not a silent override."""
    text = (mygame / "xp_costs.json").read_text(encoding="utf-8")
    (mygame / "xp_costs.json").write_text(
        text.replace('"level_up": 10', '"level_up": 10, "level_up": 12'), encoding="utf-8"
    )
    assert_error(
        mygame, "mygame/xp_costs.json", "top level", "'costs' has the key 'level_up' twice"
    )


def test_a_missing_file(mygame):
    """DT-AMB-6: every file of a set is needed; the message lists them."""
    (mygame / "quest_table.json").unlink()
    assert_error(
        mygame,
        "mygame/quest_table.json",
        "file",
        "the file is missing (a data set has 11 files: dataset.json, "
        "encounter_chart.json, map.json, tower.json, combat_table.json, "
        "quest_table.json, tokens.json, items.json, scrolls.json, characters.json, "
        "xp_costs.json)",
    )


def test_a_missing_directory(tmp_path):
    """A directory that does not exist is reported as such."""
    err = error(tmp_path / "nothing-here")
    assert (err.file, err.place) == ("nothing-here", "directory")
    assert "there is no directory" in err.problem


def test_the_door_on_a_sun_wall(mygame):
    """DT-COMP-7, DT-TOWER-1: the door is on the night side."""
    edit(mygame, "tower.json", lambda t: t.update(door_wall=2))
    assert_error(
        mygame,
        "mygame/tower.json",
        "door_wall",
        "the door is on wall 2, a sun wall; the door is on the night side (DT-COMP-7, "
        "DT-TOWER-1): choose one of the moon walls 4, 5, 6, 7",
    )


def test_five_sun_walls(mygame):
    """DT-COMP-7: 4 sun walls and 4 moon walls."""
    edit(mygame, "tower.json", lambda t: t["walls"].__setitem__(7, "sun"))
    assert_error(
        mygame,
        "mygame/tower.json",
        "walls",
        "there are 5 sun walls and 3 moon walls; the tower has 4 of each (DT-COMP-7)",
    )


def test_the_door_facing_the_wrong_wedge(mygame):
    """DT-SETUP-1, DT-AMB-1: the door faces the wild area between Ravensteel and Thunderhawk."""
    edit(mygame, "tower.json", lambda t: t.update(door_faces="mf"))
    assert_error(
        mygame,
        "mygame/tower.json",
        "door_faces",
        "at setup the door faces the wild area between Ravensteel and Thunderhawk, "
        "'hw' (Howling Waste) (DT-SETUP-1), not 'mf'",
    )


def test_no_wild_area_between_ravensteel_and_thunderhawk(mygame):
    """DT-SETUP-1: the clockwise order must put a wild area between the two kingdoms."""
    edit(
        mygame,
        "tower.json",
        lambda t: t.update(wedges=["rv", "th", "hw", "cd", "sm", "mf", "bh", "iv"]),
    )
    assert_error(
        mygame,
        "mygame/tower.json",
        "wedges",
        "no wild area lies between Ravensteel and Thunderhawk in this clockwise order; "
        "the door faces it at setup (DT-SETUP-1)",
    )


def test_an_edge_to_an_unknown_space(mygame):
    """DT-AMB-5: both ends of an edge are spaces of the map."""
    edit(mygame, "map.json", lambda m: m["edges"].append(["rv-city", "rv-ciyt"]))
    n = len(json.loads((mygame / "map.json").read_text())["edges"]) - 1
    assert_error(
        mygame,
        "mygame/map.json",
        f"edges[{n}]",
        "unknown space 'rv-ciyt' (map.json has 57 spaces, none with this id; did you "
        "mean 'rv-city', 'rv-crypt' or 'iv-city'?)",
    )


def test_edges_listed_twice_or_to_themselves(mygame):
    """DT-AMB-5, DT-MOVE-3: an edge joins two different spaces, and is listed once."""
    edit(mygame, "map.json", lambda m: m["edges"].append(["rv-city", "rv-city"]))
    n = len(json.loads((mygame / "map.json").read_text())["edges"]) - 1
    assert_error(mygame, "mygame/map.json", f"edges[{n}]", "the edge joins 'rv-city' to itself")
    edit(mygame, "map.json", lambda m: m["edges"].__setitem__(-1, ["rv-mere", "rv-city"]))
    first = next(
        i
        for i, e in enumerate(json.loads((mygame / "map.json").read_text())["edges"])
        if set(e[:2]) == {"rv-city", "rv-mere"}
    )
    assert_error(
        mygame,
        "mygame/map.json",
        f"edges[{n}]",
        f"the edge between 'rv-mere' and 'rv-city' is listed twice (also edges[{first}])",
    )


def test_an_unknown_border(mygame):
    """DT-BORDER-1: borders are none, lake or mountain."""
    edit(mygame, "map.json", lambda m: m["edges"][0].append("river"))
    assert_error(
        mygame,
        "mygame/map.json",
        "edges[0]",
        "unknown border 'river' (borders are: lake, mountain, none)",
    )


def test_a_space_nobody_can_reach(mygame):
    """DT-AMB-5: the map is in one piece."""
    edit(
        mygame,
        "map.json",
        lambda m: m.update(edges=[e for e in m["edges"] if "mf-hollow" not in e[:2]]),
    )
    assert_error(
        mygame,
        "mygame/map.json",
        "edges",
        "the space 'mf-hollow' cannot be reached from 'rv-shadow': no chain of edges "
        "joins them (the map must be in one piece)",
    )


def test_a_quest_table_missing_a_total(mygame):
    """DT-AMB-6, DT-QUEST-6: the Quest Location table has a result for every total."""
    edit(mygame, "quest_table.json", lambda q: q["results"].pop("7"))
    assert_error(
        mygame,
        "mygame/quest_table.json",
        "results",
        "no result for total 7 (2 dice roll every total from 2 to 12)",
    )


def test_a_quest_table_total_that_cannot_be_rolled(mygame):
    """DT-AMB-6: no result for a total the dice cannot make."""
    edit(mygame, "quest_table.json", lambda q: q["results"].update({"13": {"rune": "ash"}}))
    assert_error(
        mygame,
        "mygame/quest_table.json",
        "results",
        "the total 13 cannot be rolled (2 dice roll every total from 2 to 12)",
    )


def test_a_quest_result_naming_an_unknown_rune_or_a_space(mygame):
    """DT-SPACE-3, DT-AMB-6: results name a rune of the map, or a space directly."""
    edit(mygame, "quest_table.json", lambda q: q["results"].update({"7": {"rune": "axe"}}))
    assert_error(
        mygame,
        "mygame/quest_table.json",
        'results["7"]',
        "unknown rune 'axe' (the runes on the map are: ash, birch, crown, dagger, eye, "
        "flame, gate, horn, ice, jewel, key)",
    )
    edit(mygame, "quest_table.json", lambda q: q["results"].update({"7": {"space": "rv-moor"}}))
    assert load_dataset(mygame)["quest_table"]["results"]["7"] == "rv-moor"


def test_a_rune_on_two_spaces(mygame):
    """DT-SPACE-3: each rune marks exactly one space."""
    edit(
        mygame, "map.json", lambda m: m["spaces"][index(m["spaces"], "rv-moor")].update(rune="ash")
    )
    spaces = json.loads((mygame / "map.json").read_text())["spaces"]
    wood = index(spaces, "rv-wood")
    assert_error(
        mygame,
        "mygame/map.json",
        f"spaces[{wood}] (id 'rv-wood')",
        f"the rune 'ash' is already on 'rv-moor' (spaces[{index(spaces, 'rv-moor')}] "
        f"(id 'rv-moor')); each rune marks exactly one space",
    )


def test_a_shadowland_missing_from_a_wedge(mygame):
    """DT-SPACE-7: each wedge has exactly one shadowland, 8 around the tower."""
    edit(
        mygame,
        "map.json",
        lambda m: m["spaces"][index(m["spaces"], "cd-shadow")].update(type="field"),
    )
    assert_error(
        mygame,
        "mygame/map.json",
        "spaces",
        "wedge 'cd' (Copperdell) has no shadowland; each of the 8 wedges needs exactly "
        "one space of the always-night type 'shadowland' next to the tower (DT-SPACE-7)",
    )


def test_two_shadowlands_in_a_wedge(mygame):
    """DT-SPACE-7: only one shadowland per wedge."""
    edit(
        mygame,
        "map.json",
        lambda m: m["spaces"][index(m["spaces"], "cd-heath")].update(type="shadowland"),
    )
    spaces = json.loads((mygame / "map.json").read_text())["spaces"]
    assert_error(
        mygame,
        "mygame/map.json",
        f"spaces[{index(spaces, 'cd-heath')}] (id 'cd-heath')",
        "wedge 'cd' (Copperdell) already has the shadowland 'cd-shadow'; each wedge has "
        "exactly one (DT-SPACE-7)",
    )


def test_a_kingdom_without_a_city(mygame):
    """DT-SETUP-8, DT-SPACE-4: players start in a city of their own kingdom."""
    edit(
        mygame,
        "map.json",
        lambda m: m["spaces"][index(m["spaces"], "iv-city")].update(type="field"),
    )
    assert_error(
        mygame,
        "mygame/map.json",
        "spaces",
        "kingdom 'iv' (Ironvale) has no city; every kingdom needs one, players start in "
        "a city of their own kingdom (DT-SETUP-8)",
    )


def test_quest_starts_in_a_kingdom(mygame):
    """DT-SETUP-9: the first two quest tokens go in the wild areas."""
    edit(mygame, "map.json", lambda m: m["quest_starts"].__setitem__(1, "rv-moor"))
    assert_error(
        mygame,
        "mygame/map.json",
        "quest_starts[1]",
        "'rv-moor' is in the kingdom 'rv' (Ravensteel); quest tokens start in the wild "
        "areas (DT-SETUP-9)",
    )
    edit(mygame, "map.json", lambda m: m["quest_starts"].__setitem__(1, "hw-pines"))
    assert_error(
        mygame,
        "mygame/map.json",
        "quest_starts[1]",
        "'hw-pines' is in the same wild area 'hw' (Howling Waste) as quest_starts[0]; "
        "one quest starts in each wild area (DT-SETUP-9)",
    )


# ----------------------------------------------------------------------------------------------
# Where the spaces are drawn: given positions and the automatic layout


def test_the_layout_rings_spaces_by_their_distance_from_the_shadowland():
    """Without positions, a space's ring is its shortest path from its wedge's shadowland and a
    ring's spaces share the wedge evenly, the side of a neighbouring wedge towards it."""
    layout = DATA["layout"]
    assert set(layout) == set(DATA["spaces"])
    for shadow in DATA["shadowlands"].values():
        assert layout[shadow] == {"ring": 0.0, "angle": 0.0, "given": False}
    assert layout["rv-moor"]["ring"] == layout["rv-crypt"]["ring"] == 1.0
    assert layout["rv-city"]["ring"] == 2.0 and layout["rv-wood"]["ring"] == 3.0
    # Crypt of Ravens borders Howling Waste, the next wedge clockwise: it lies on that side
    assert layout["rv-crypt"]["angle"] == 11.25 and layout["rv-moor"]["angle"] == -11.25
    assert all(-22.5 < place["angle"] < 22.5 for place in layout.values())


def test_a_given_position_is_kept_and_not_fingerprinted(mygame):
    """A space's own ``ring`` and ``angle`` are used as they are; the layout does not change the
    set's fingerprint (it changes only the drawing)."""
    edit(
        mygame,
        "map.json",
        lambda m: m["spaces"][index(m["spaces"], "rv-wood")].update(ring=2.5, angle=-20),
    )
    data = load_dataset(mygame)
    assert data["layout"]["rv-wood"] == {"ring": 2.5, "angle": -20.0, "given": True}
    assert data["fingerprint"] == DATA["fingerprint"]


def test_broken_positions(mygame):
    """A position needs both numbers, inside the wedge, and a place of its own."""
    i = index(json.loads((mygame / "map.json").read_text())["spaces"], "rv-wood")
    place = f"spaces[{i}] (id 'rv-wood')"
    cases = [
        (
            {"ring": 2},
            "'ring' is given without 'angle'; a position needs both (or neither: "
            "the space is then laid out automatically)",
        ),
        ({"ring": "far", "angle": 0}, "'ring' must be a number, not text \"far\""),
        ({"ring": 13, "angle": 0}, "'ring' must be between 0 (next to the tower) and 12, not 13"),
        (
            {"ring": 1, "angle": 22.5},
            "'angle' must lie inside the wedge, more than -22.5 and "
            "less than 22.5 degrees from its middle, not 22.5",
        ),
    ]
    for given, problem in cases:

        def put(m, given=given):
            space = m["spaces"][index(m["spaces"], "rv-wood")]
            space.pop("ring", None)
            space.pop("angle", None)
            space.update(given)

        edit(mygame, "map.json", put)
        assert_error(mygame, "mygame/map.json", place, problem)

    def twice(m):
        for ident in ("rv-wood", "rv-port"):
            m["spaces"][index(m["spaces"], ident)].update(ring=3, angle=5)

    edit(mygame, "map.json", twice)
    j = index(json.loads((mygame / "map.json").read_text())["spaces"], "rv-port")
    assert_error(
        mygame,
        "mygame/map.json",
        f"spaces[{max(i, j)}] (id '{'rv-port' if j > i else 'rv-wood'}')",
        f"the position ring 3, angle 5 is already "
        f"'{'rv-wood' if j > i else 'rv-port'}''s in the same wedge; two spaces cannot share a "
        f"place",
    )
