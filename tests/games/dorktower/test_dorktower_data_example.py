"""Dork Tower data sets: the bundled example (spec sections 6, 8).

Checks the invented example set has what the rules core and its tests rely on; the loader's
validation, one mistake at a time, is in ``test_dorktower_data_broken_board.py`` and
``test_dorktower_data_broken_cards.py``.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from typing import Any

from dt_data_support import DATA

from companion.games.dorktower.rules.data import (
    FILES,
    example_dataset,
    example_directory,
    fingerprint,
    load_dataset,
)

KEYS = {
    "name",
    "title",
    "example",
    "note",
    "fingerprint",
    "translations",
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
    "layout",
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
    changed["tokens"]["mummy"]["strength"] = 8
    changed["translations"]["it"]["tokens"]["mummy"] = "Mummia antica"
    assert fingerprint(changed) == DATA["fingerprint"]  # a translation changes no rule


def test_the_example_is_found_and_cached():
    """example_directory holds every file of a set; example_dataset loads it once."""
    folder = example_directory()
    assert sorted(p.name for p in folder.glob("*.json")) == sorted([*FILES, "it.json"])
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
    """DT-COMP-2, DT-AMB-27, DT-CARD-6, DT-COMBAT-8, DT-COMBAT-9, DT-DEFEAT-2, DT-WIZ-4: 20
    scrolls whose moments, players and effects cover every kind, with one the rivals play on
    the dice after a winning roll."""
    scrolls = DATA["scrolls"]
    assert len(scrolls) == 20
    assert {(s["when"], s["by"]) for s in scrolls.values()} == {
        ("before_roll", "fighter"),
        ("before_roll", "rivals"),
        ("after_roll", "fighter"),
        ("after_roll", "rivals"),
        ("after_roll", "anyone"),
        ("movement", "fighter"),
        ("any", "anyone"),
    }
    assert scrolls["twist-of-fate"]["effect"] == {"set_die": 1}
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
