"""Dork Tower data sets: the bundled example, and the loader's validation (spec sections 6, 8).

The first half checks the invented example set has what the rules core and its tests rely on;
the second breaks one thing at a time in a copy of it and checks the error names the file, the
place and the problem exactly.
"""

from __future__ import annotations

import json
import math
import re
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.games.dorktower.rules.data import (
    FILES,
    DataError,
    example_dataset,
    example_directory,
    fingerprint,
    load_dataset,
)

DATA = example_dataset()
KEYS = {
    "name",
    "title",
    "example",
    "note",
    "fingerprint",
    "space_types",
    "tower_draw",
    "wedges",
    "spaces",
    "adjacent",
    "shadowlands",
    "quest_starts",
    "tower",
    "combat_rows",
    "quest_table",
    "tokens",
    "items",
    "item_types",
    "scrolls",
    "characters",
    "xp",
    "xp_repeat",
}


def wedge_of(space: str) -> dict[str, Any]:
    return next(w for w in DATA["wedges"] if w["id"] == DATA["spaces"][space]["wedge"])


def neighbours(space: str) -> dict[str, str]:
    return DATA["adjacent"][space]


def faces() -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (cid, side, card[side])
        for cid, card in DATA["items"].items()
        for side in ("equipment", "magic")
    ]


def target(difference: int) -> int:
    """The Combat Table's target for a difference, clamped at the ends (DT-AMB-2)."""
    rows = DATA["combat_rows"]
    for row in rows:
        if (row["min"] is None or row["min"] <= difference) and (
            row["max"] is None or difference <= row["max"]
        ):
            return row["target"]
    return rows[0]["target"] if difference < (rows[0]["min"] or 0) else rows[-1]["target"]


# ----------------------------------------------------------------------------------------------
# The example set


def test_the_example_set_says_it_is_invented():
    """DT-AMB-5, DT-AMB-6: the bundled set is an invented example, labelled as such, for trying
    the companion; the printed tables come from a set a maker writes."""
    assert DATA["name"] == "example"
    assert DATA["example"] is True
    assert "invented" in DATA["title"].lower() and "not the printed" in DATA["title"].lower()
    assert "invented example" in DATA["note"].lower()
    assert "not the printed" in DATA["note"].lower()
    assert "docs/dork-tower-data.md" in DATA["note"]


def test_the_normalised_dict_has_plain_json_types_and_a_fingerprint():
    """The loader returns the agreed keys, plain JSON values, and a fingerprint of the rest."""
    assert set(DATA) == KEYS
    assert json.loads(json.dumps(DATA)) == DATA
    assert re.fullmatch(r"[0-9a-f]{16}", DATA["fingerprint"])
    assert fingerprint(DATA) == DATA["fingerprint"]
    changed = json.loads(json.dumps(DATA))
    changed["tokens"]["mummy"]["strength"] = 9
    assert fingerprint(changed) != DATA["fingerprint"]


def test_the_example_is_found_and_cached():
    """example_directory holds every file of a set; example_dataset loads it once."""
    folder = example_directory()
    assert sorted(p.name for p in folder.glob("*.json")) == sorted(FILES)
    assert example_dataset() is DATA
    assert load_dataset(folder) == DATA


def test_eight_wedges_six_kingdoms_two_wild_areas():
    """DT-COMP-6, DT-SPACE-2: 8 wedges clockwise as tower.json lists them, 6 kingdoms (with
    Ravensteel and Thunderhawk) and 2 wild areas."""
    wedges = DATA["wedges"]
    assert [w["id"] for w in wedges] == ["rv", "hw", "th", "cd", "sm", "mf", "bh", "iv"]
    assert Counter(w["kind"] for w in wedges) == {"kingdom": 6, "wild": 2}
    names = {w["name"] for w in wedges if w["kind"] == "kingdom"}
    assert {"Ravensteel", "Thunderhawk"} <= names


def test_the_tower_has_four_sun_walls_then_four_moon_walls_and_the_door_at_night():
    """DT-COMP-7, DT-TOWER-1, DT-AMB-1: 8 walls clockwise, 4 contiguous sun walls then 4 moon
    walls; the one door is on a middle moon wall."""
    tower = DATA["tower"]
    assert tower["walls"] == ["sun"] * 4 + ["moon"] * 4
    assert tower["walls"][tower["door_wall"]] == "moon"
    assert tower["door_wall"] in (5, 6)


def test_the_door_faces_the_wild_area_between_ravensteel_and_thunderhawk():
    """DT-SETUP-1, DT-AMB-1: at setup the door faces the wild area whose clockwise neighbours
    are Ravensteel and Thunderhawk; that wild area starts in night."""
    wedges, door = DATA["wedges"], DATA["tower"]["door_wedge"]
    assert wedges[door]["kind"] == "wild"
    assert {wedges[door - 1]["name"], wedges[(door + 1) % 8]["name"]} == {
        "Ravensteel",
        "Thunderhawk",
    }
    # wall k faces wedge door_wedge + k - door_wall: the door's wall is a moon wall
    walls = DATA["tower"]["walls"]
    facing = {(door + k - DATA["tower"]["door_wall"]) % 8: walls[k] for k in range(8)}
    assert facing[door] == "moon"
    assert sorted(facing) == list(range(8))


def test_eight_shadowlands_ring_the_tower():
    """DT-SPACE-7, DT-TIME-3: one always-night shadowland in each wedge, 8 in all, each next to
    the shadowlands of the two neighbouring wedges."""
    shadow = DATA["shadowlands"]
    assert list(shadow) == [w["id"] for w in DATA["wedges"]]
    for i, w in enumerate(DATA["wedges"]):
        space = DATA["spaces"][shadow[w["id"]]]
        assert space["wedge"] == w["id"]
        assert DATA["space_types"][space["type"]]["always_night"]
        nxt = shadow[DATA["wedges"][(i + 1) % 8]["id"]]
        assert neighbours(shadow[w["id"]])[nxt] == "none"
    dark = [s for s in DATA["spaces"].values() if DATA["space_types"][s["type"]]["always_night"]]
    assert len(dark) == 8


def test_runes_locate_the_quests_on_two_dice():
    """DT-SPACE-3, DT-QUEST-6, DT-AMB-6: 11 runes, each on one space; the Quest Location table
    covers every total of two dice and names those spaces."""
    runes = [s["rune"] for s in DATA["spaces"].values() if s["rune"] is not None]
    assert len(runes) == len(set(runes)) == 11
    table = DATA["quest_table"]
    assert table["dice"] == 2
    assert list(table["results"]) == [str(t) for t in range(2, 13)]
    rune_spaces = {s["id"] for s in DATA["spaces"].values() if s["rune"] is not None}
    assert set(table["results"].values()) == rune_spaces


def test_the_map_is_a_symmetric_graph_with_typed_borders():
    """DT-AMB-5, DT-MOVE-3, DT-BORDER-1: adjacency is symmetric, never to itself, and every
    border is none, lake or mountain; the map is in one piece."""
    adjacent = DATA["adjacent"]
    assert set(adjacent) == set(DATA["spaces"])
    for a, others in adjacent.items():
        assert a not in others
        for b, border in others.items():
            assert adjacent[b][a] == border
            assert border in ("none", "lake", "mountain")
    borders = Counter(b for others in adjacent.values() for b in others.values())
    assert borders["lake"] >= 2 and borders["mountain"] >= 2
    for wedge in DATA["wedges"]:
        count = sum(1 for s in DATA["spaces"].values() if s["wedge"] == wedge["id"])
        assert 6 <= count <= 8


def test_cities_fields_forests_and_dungeons():
    """DT-SPACE-4, DT-SPACE-8, DT-SETUP-8: every kingdom has a city, wild areas none; a city has
    a lake and a mountain border; two cities lie two steps apart; there are dungeons."""
    types = Counter(s["type"] for s in DATA["spaces"].values())
    assert set(types) == {"city", "field", "forest", "dungeon", "shadowland"}
    for w in DATA["wedges"]:
        cities = [
            s for s in DATA["spaces"].values() if s["wedge"] == w["id"] and s["type"] == "city"
        ]
        assert bool(cities) == (w["kind"] == "kingdom")
    assert sorted(neighbours("rv-city").values()).count("lake") == 1
    assert sorted(neighbours("rv-city").values()).count("mountain") == 1
    assert "rv-port" not in neighbours("rv-city")
    assert set(neighbours("rv-city")) & set(neighbours("rv-port"))
    assert DATA["spaces"]["rv-crypt"]["type"] == "dungeon"
    assert DATA["space_types"]["dungeon"]["no_flee"]


def test_a_forest_nook_with_a_lake_edge():
    """DT-DEFEAT-3, DT-EX-9: Adder Hollow is a forest with exactly two neighbours, one of them
    across a lake: a hero beaten there with monsters next door cannot flee."""
    assert DATA["spaces"]["mf-hollow"]["type"] == "forest"
    assert neighbours("mf-hollow") == {"mf-willows": "none", "mf-marsh": "lake"}


def test_quests_start_one_in_each_wild_area():
    """DT-SETUP-9, DT-AMB-5: two quest start spaces, one per wild area, neither a city."""
    starts = DATA["quest_starts"]
    assert starts == ["hw-flats", "mf-reeds"]
    assert {wedge_of(s)["id"] for s in starts} == {"hw", "mf"}
    assert all(wedge_of(s)["kind"] == "wild" for s in starts)
    assert all(DATA["spaces"][s]["type"] != "city" for s in starts)


def test_the_encounter_chart_defaults():
    """DT-AMB-4, DT-ENC-3, DT-EX-2, DT-WIZ-1: section 3.1's counts by day and night; Z'Mindrik
    summons 5 tokens."""
    flags = dict.fromkeys(("always_night", "city", "no_flee", "extra_magic_item"), False)
    assert DATA["space_types"] == {
        "city": {"day": 0, "night": 0, **flags, "city": True},
        "field": {"day": 1, "night": 2, **flags},
        "forest": {"day": 2, "night": 3, **flags},
        "shadowland": {"day": 2, "night": 2, **flags, "always_night": True},
        "dungeon": {"day": 3, "night": 4, **flags, "no_flee": True, "extra_magic_item": True},
    }
    assert DATA["tower_draw"] == 5


def test_the_combat_table_bands_differences_in_twos():
    """DT-AMB-2, DT-COMBAT-5: row 0 for equal totals, then bands of two ("+1 or +2", "-1 or -2",
    ...); the row "-1 or -2" needs 8; targets lie between 2 and 12 and clamp at the ends."""
    rows = DATA["combat_rows"]
    assert rows[0]["min"] is None and rows[-1]["max"] is None
    for before, after in zip(rows, rows[1:], strict=False):
        assert after["min"] == before["max"] + 1
        assert after["target"] <= before["target"]
    for d in range(-8, 9):
        band = int(math.copysign(math.ceil(abs(d) / 2), d))
        same = [e for e in range(-8, 9) if int(math.copysign(math.ceil(abs(e) / 2), e)) == band]
        assert {target(e) for e in same} == {target(d)}
    assert target(0) == 7
    assert target(-1) == target(-2) == 8
    assert target(-100) == 12 and target(100) == 2
    assert all(2 <= row["target"] <= 12 for row in rows)


def test_the_rulebook_example_from_the_data():
    """DT-EX-1, DT-COMBAT-1, DT-COMBAT-3: Topdeck (7) with a Dagger (+1) and Chain Mail (+3)
    against a Mummy (8) and an Orc Shaman (4): 11 - 12 = -1, which needs 8."""
    player = (
        DATA["characters"]["topdeck"]["low"]["strength"]
        + DATA["items"]["dagger"]["equipment"]["bonus"]
        + DATA["items"]["chain-mail"]["equipment"]["bonus"]
    )
    monsters = DATA["tokens"]["mummy"]["strength"] + DATA["tokens"]["orc-shaman"]["strength"]
    assert (player, monsters) == (11, 12)
    assert target(player - monsters) == 8


def test_the_xp_reference_sheet():
    """DT-AMB-3, DT-TOK-5, DT-MOVE-2, DT-BORDER-2, DT-COMBAT-6, DT-CITY-3, DT-LVL-1: the costs
    of section 3.3, each repeatable while XP lasts."""
    assert DATA["xp"] == {
        "extra_step": 1,
        "cross_border": 2,
        "die_to_six": 4,
        "extra_shop_card": 1,
        "level_up": 10,
    }
    assert DATA["xp_repeat"] == dict.fromkeys(
        ("extra_step", "cross_border", "die_to_six", "extra_shop_card"), True
    )


def test_thirty_six_two_faced_item_cards():
    """DT-COMP-1, DT-CARD-3, DT-CHAR-2: 36 cards, an equipment and a magic face each; the Dagger
    (+1), Chain Mail (+3) and the Ring of Protection are equipment faces; equipment is cheaper."""
    items = DATA["items"]
    assert len(items) == 36
    assert items["dagger"]["equipment"] == {
        "name": "Dagger",
        "type": "weapon",
        "bonus": 1,
        "vs": {},
        "price": 10,
        "crosses": [],
    }
    assert items["chain-mail"]["equipment"]["name"] == "Chain Mail"
    assert (
        items["chain-mail"]["equipment"]["type"],
        items["chain-mail"]["equipment"]["bonus"],
    ) == ("armour", 3)
    assert items["ring-of-protection"]["equipment"]["name"] == "Ring of Protection"
    assert items["ring-of-protection"]["equipment"]["type"] == "ring"
    for card in items.values():
        assert card["equipment"]["price"] < card["magic"]["price"]
        for side in ("equipment", "magic"):
            assert card[side]["type"] in DATA["item_types"]
    cheap = [cid for cid, side, face in faces() if side == "equipment" and face["price"] <= 30]
    assert len(cheap) >= 3


def test_special_item_faces():
    """DT-CHAR-3, DT-EX-8, DT-BORDER-2, DT-AMB-16: a magic face +8 against dragons, magic faces
    that cross lakes, and plate armour above +4."""
    assert DATA["items"]["spear"]["magic"]["vs"] == {"dragon": 8}
    assert "lake" in DATA["items"]["lucky-ring"]["magic"]["crosses"]
    plate = DATA["items"]["plate-armour"]["equipment"]
    assert (plate["name"], plate["type"], plate["bonus"]) == ("Plate Armour", "armour", 5)
    for _card, _side, face in faces():
        assert set(face["crosses"]) <= {"lake", "mountain"}


def test_twenty_scrolls_in_every_window():
    """DT-COMP-2, DT-AMB-27, DT-CARD-6, DT-COMBAT-8, DT-COMBAT-9, DT-DEFEAT-2: 20 scrolls whose
    windows and effects cover every kind."""
    scrolls = DATA["scrolls"]
    assert len(scrolls) == 20
    assert {s["window"] for s in scrolls.values()} == {
        "own_pre_roll",
        "opponent_pre_roll",
        "post_roll",
        "movement",
        "any",
    }
    kinds = Counter(next(iter(s["effect"])) for s in scrolls.values())
    assert kinds["reroll"] >= 2 and kinds["fighter"] >= 2 and kinds["monsters"] >= 2
    assert kinds["remove_monster"] >= 1
    assert scrolls["fortunes-favour"]["effect"] == {"set_die": 6}
    assert scrolls["levitation"]["effect"] == {"cross": ["lake", "mountain"]}
    assert all(len(s["effect"]) == 1 and s["text"] for s in scrolls.values())


def test_encounter_tokens_and_the_friendly_flag():
    """DT-COMP-3, DT-AMB-26, DT-TOK-2, DT-WIZ-2, DT-WIZ-3: monsters with strength, types, XP and
    treasure; the Merchant and the Enchanter are friendly, Tombs and Lairs draw more tokens."""
    tokens = DATA["tokens"]
    assert 50 <= sum(t["count"] for t in tokens.values()) <= 70
    assert (tokens["mummy"]["strength"], tokens["mummy"]["types"]) == (8, ["undead"])
    assert (tokens["orc-shaman"]["strength"], tokens["orc-shaman"]["types"]) == (4, ["orc"])
    assert any("dragon" in t["types"] for t in tokens.values())
    for t in tokens.values():
        assert t["count"] >= 1
        if t["monster"]:
            assert t["kind"] == "monster" and not t["friendly"] and 1 <= t["xp"] <= 5
            assert t["treasure"] is None or list(t["treasure"]) == [str(n) for n in range(1, 7)]
        else:
            assert (t["strength"], t["types"], t["treasure"]) == (0, [], None)
    assert tokens["merchant"]["friendly"] and tokens["enchanter"]["friendly"]
    assert tokens["tombs"]["effect"] == {"draw_tokens": 2} and not tokens["tombs"]["friendly"]
    assert tokens["lairs"]["effect"] == {"draw_tokens": 1} and not tokens["lairs"]["friendly"]
    results = {
        next(iter(r)) for t in tokens.values() if t["treasure"] for r in t["treasure"].values()
    }
    assert results == {"gold", "scroll", "equipment", "magic", "nothing"}


def test_characters_have_two_levels_of_four_slots():
    """DT-AMB-28, DT-CHAR-1, DT-CHAR-2, DT-CHAR-3, DT-LVL-1: six characters, each with a low and
    a stronger high level of 4 slots; an armour slot with Max +4; crossing abilities."""
    chars = DATA["characters"]
    assert len(chars) == 6
    for ch in chars.values():
        assert ch["high"]["strength"] > ch["low"]["strength"]
        for level in (ch["low"], ch["high"]):
            assert len(level["slots"]) == 4
            assert all(set(s["types"]) <= set(DATA["item_types"]) for s in level["slots"])
    abilities = {a for ch in chars.values() for a in ch["low"]["abilities"]}
    assert abilities == {"cross_lake", "cross_mountain", "avoid_monsters"}
    assert any(
        s["types"] == ["armour"] and s["max"] == 4
        for ch in chars.values()
        for s in ch["low"]["slots"]
    )


def test_topdeck_lumpin_and_laeoretha():
    """DT-CHAR-7, DT-CHAR-4, DT-LIMIT-3: Topdeck is strength 7 at low level and can hold a weapon
    and armour; Lumpin Lightfingers avoids monsters; Laeoretha has her own limits."""
    chars = DATA["characters"]
    top = chars["topdeck"]["low"]
    assert (chars["topdeck"]["name"], top["strength"]) == ("Topdeck", 7)
    assert any("weapon" in s["types"] for s in top["slots"])
    assert any("armour" in s["types"] for s in top["slots"])
    assert chars["lumpin"]["name"] == "Lumpin Lightfingers"
    assert "avoid_monsters" in chars["lumpin"]["low"]["abilities"]
    lae = chars["laeoretha"]
    assert lae["name"] == "Laeoretha"
    assert (lae["low"]["scroll_limit"], lae["low"]["backpack_limit"]) == (5, 4)
    assert top["scroll_limit"] is None and top["backpack_limit"] is None


# ----------------------------------------------------------------------------------------------
# Broken sets: one mistake each


@pytest.fixture
def mygame(tmp_path: Path) -> Path:
    folder = tmp_path / "mygame"
    shutil.copytree(example_directory(), folder)
    return folder


def edit(folder: Path, filename: str, change: Callable[[Any], Any]) -> None:
    """Rewrite one file of ``folder`` after ``change`` edits its parsed JSON in place."""
    path = folder / filename
    content = json.loads(path.read_text(encoding="utf-8"))
    change(content)
    path.write_text(json.dumps(content, indent=2), encoding="utf-8")


def error(folder: Path) -> DataError:
    with pytest.raises(DataError) as caught:
        load_dataset(folder)
    err = caught.value
    assert str(err) == f"{err.file}: {err.place}: {err.problem}"
    return err


def assert_error(folder: Path, file: str, place: str, problem: str) -> None:
    err = error(folder)
    assert (err.file, err.place, err.problem) == (file, place, problem)


def index(items: list[dict[str, Any]], ident: str) -> int:
    return next(i for i, item in enumerate(items) if item["id"] == ident)


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


def test_thirty_five_items(mygame):
    """DT-COMP-1: exactly 36 item cards."""
    edit(mygame, "items.json", lambda i: i["cards"].pop())
    assert_error(
        mygame,
        "mygame/items.json",
        "cards",
        "there are 35 item cards; the game has exactly 36 (DT-COMP-1)",
    )


def test_nineteen_scrolls(mygame):
    """DT-COMP-2: exactly 20 scroll cards."""
    edit(mygame, "scrolls.json", lambda s: s["scrolls"].pop())
    assert_error(
        mygame,
        "mygame/scrolls.json",
        "scrolls",
        "there are 19 scroll cards; the game has exactly 20 (DT-COMP-2)",
    )


def test_an_unknown_scroll_window(mygame):
    """DT-AMB-27: a scroll's window is one of own_pre_roll, opponent_pre_roll, post_roll,
    movement, any."""
    edit(mygame, "scrolls.json", lambda s: s["scrolls"][3].update(window="after_roll"))
    ident = json.loads((mygame / "scrolls.json").read_text())["scrolls"][3]["id"]
    assert_error(
        mygame,
        "mygame/scrolls.json",
        f"scrolls[3] (id '{ident}')",
        "unknown scroll window 'after_roll' (scroll windows are: any, movement, "
        "opponent_pre_roll, own_pre_roll, post_roll)",
    )


def test_a_scroll_with_two_effects(mygame):
    """DT-AMB-27: a scroll has exactly one effect."""
    edit(mygame, "scrolls.json", lambda s: s["scrolls"][0]["effect"].update(fighter=2))
    assert_error(
        mygame,
        "mygame/scrolls.json",
        "scrolls[0] (id 'second-chance').effect",
        "an effect has exactly one of the keys fighter, monsters, remove_monster, "
        'reroll, set_die, cross, not {"reroll": 1, "fighter": 2}',
    )


def test_an_item_face_of_an_undeclared_type(mygame):
    """DT-CHAR-2: a face's type is one items.json declares."""
    edit(mygame, "items.json", lambda i: i["cards"][0]["magic"].update(type="sword"))
    assert_error(
        mygame,
        "mygame/items.json",
        "cards[0] (id 'dagger').magic",
        "unknown item type 'sword' (items.json declares: amulet, armour, boots, cloak, "
        "helmet, ring, shield, weapon)",
    )


def test_a_duplicate_card_id(mygame):
    """DT-COMP-1: every card has its own id."""
    edit(mygame, "items.json", lambda i: i["cards"][5].update(id="dagger"))
    assert_error(
        mygame,
        "mygame/items.json",
        "cards[5] (id 'dagger')",
        "the id 'dagger' is used twice (also cards[0])",
    )


def test_a_misspelt_key(mygame):
    """A typo in a key is reported with the keys that are expected."""
    edit(mygame, "tokens.json", lambda t: t["tokens"][0].update(strenght=3))
    assert_error(
        mygame,
        "mygame/tokens.json",
        "tokens[0] (id 'giant-rat')",
        "unknown key 'strenght' (expected: id, name, kind, count, strength, types, xp, "
        "treasure, friendly; keys starting with '_' are comments)",
    )


def test_a_number_written_as_text(mygame):
    """DT-TOK-2: a monster's strength is a whole number."""
    edit(mygame, "tokens.json", lambda t: t["tokens"][0].update(strength="1"))
    assert_error(
        mygame,
        "mygame/tokens.json",
        "tokens[0] (id 'giant-rat')",
        "'strength' must be a whole number, not text \"1\"",
    )


def test_a_treasure_table_missing_a_face(mygame):
    """DT-REWARD-2, DT-AMB-29: a treasure table has a result for every face of the die."""
    edit(mygame, "tokens.json", lambda t: t["tokens"][1]["treasure"].pop("4"))
    assert_error(
        mygame,
        "mygame/tokens.json",
        "tokens[1] (id 'goblin').treasure",
        "no result for die face 4 (a treasure table covers every face from 1 to 6, DT-REWARD-2)",
    )


def test_a_friendly_monster_and_a_token_count_of_zero(mygame):
    """DT-AMB-26, DT-WIZ-2: only non-monsters are friendly; every token kind is in the bowl."""
    edit(mygame, "tokens.json", lambda t: t["tokens"][0].update(friendly=True))
    assert_error(
        mygame,
        "mygame/tokens.json",
        "tokens[0] (id 'giant-rat')",
        "a monster cannot be friendly (the flag marks the non-monster results "
        "Z'Mindrik draws again, DT-WIZ-2)",
    )
    edit(mygame, "tokens.json", lambda t: t["tokens"][0].update(friendly=False, count=0))
    assert_error(
        mygame,
        "mygame/tokens.json",
        "tokens[0] (id 'giant-rat')",
        "'count' must be at least 1, not 0",
    )


def test_a_character_with_three_slots(mygame):
    """DT-CHAR-2, DT-AMB-28: a character sheet has 4 slots on each side."""
    edit(mygame, "characters.json", lambda c: c["characters"][0]["high"]["slots"].pop())
    assert_error(
        mygame,
        "mygame/characters.json",
        "characters[0] (id 'topdeck').high",
        "there are 3 slots; a character sheet has 4 (DT-CHAR-2)",
    )


def test_a_slot_for_an_undeclared_item_type_and_an_unknown_ability(mygame):
    """DT-CHAR-1, DT-CHAR-2, DT-AMB-28: slots accept declared item types; abilities are known."""
    edit(
        mygame,
        "characters.json",
        lambda c: c["characters"][1]["low"]["slots"][0]["types"].append("wand"),
    )
    assert_error(
        mygame,
        "mygame/characters.json",
        "characters[1] (id 'lumpin').low.slots[0].types[1]",
        "unknown item type 'wand' (items.json declares: amulet, armour, boots, cloak, "
        "helmet, ring, shield, weapon)",
    )
    edit(
        mygame,
        "characters.json",
        lambda c: c["characters"][1]["low"].update(
            slots=c["characters"][1]["high"]["slots"], abilities=["fly"]
        ),
    )
    assert_error(
        mygame,
        "mygame/characters.json",
        "characters[1] (id 'lumpin').low.abilities[0]",
        "unknown ability 'fly' (abilities are: avoid_monsters, cross_lake, cross_mountain)",
    )


def test_xp_defaults_and_repetition(mygame):
    """DT-AMB-3: costs left out take the defaults of section 3.3; repetition is configurable."""
    (mygame / "xp_costs.json").write_text(
        '{"costs": {"die_to_six": 5}, "repeat": {"die_to_six": false}}', encoding="utf-8"
    )
    data = load_dataset(mygame)
    assert data["xp"] == {
        "extra_step": 1,
        "cross_border": 2,
        "die_to_six": 5,
        "extra_shop_card": 1,
        "level_up": 10,
    }
    assert data["xp_repeat"] == {
        "extra_step": True,
        "cross_border": True,
        "die_to_six": False,
        "extra_shop_card": True,
    }
    edit(mygame, "xp_costs.json", lambda x: x["costs"].update(fly=3))
    assert_error(
        mygame,
        "mygame/xp_costs.json",
        "costs",
        "unknown key 'fly' (expected: extra_step, cross_border, die_to_six, "
        "extra_shop_card, level_up; keys starting with '_' are comments)",
    )


def test_encounter_chart_defaults_when_left_out(mygame):
    """DT-AMB-4: an encounter chart without space_types or tower_draw uses section 3.1."""
    (mygame / "encounter_chart.json").write_text("{}", encoding="utf-8")
    data = load_dataset(mygame)
    assert data["space_types"] == DATA["space_types"]
    assert data["tower_draw"] == 5
