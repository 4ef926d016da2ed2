"""Triwizard data sets: the bundled example and Corridor K load into the design's loaded form
(TW-AMB-1/2/3, TW-COMP-1..9), labelled as not the printed game; the plug-in's DataSets."""

from __future__ import annotations

import json
import shutil

from tw_data_support import CORRIDOR, EXAMPLE, edit, mymaze  # noqa: F401 (mymaze is a fixture)

from companion.games.triwizard.rules import DataError, load_dataset
from companion.games.triwizard.rules.constants import COLOURS, CUP_TILES, TILE_KINDS
from companion.games.triwizard.rules.data import ENGLISH, fingerprint, labels, localised, words
from companion.games.triwizard.rules.data_board import KINDS, OBJECT_FEATURES, WORD_FEATURES
from companion.games.triwizard.rules.datasets import (
    bundled,
    components,
    data_directory,
    default_name,
)

LOADED_KEYS = {"name", "title", "example", "source", "fingerprint", "board", "battle"}
LOADED_KEYS |= {"obstacles", "tiles", "die", "names"}
BOARD_KEYS = {"width", "height", "spaces", "at", "entrance", "hedge_home", "cup_slots"}
BOARD_KEYS |= {"headstones", "portkeys", "penalties", "obstacles", "gold_mist", "neighbours"}


def test_example_is_labelled_example_everywhere():
    """TW-AMB-1/3: the invented set says it is an EXAMPLE (manifest, title, source)."""
    assert EXAMPLE["name"] == "example"
    assert EXAMPLE["example"] is True
    assert EXAMPLE["title"].startswith("EXAMPLE")
    assert EXAMPLE["source"] == "EXAMPLE: invented, not the printed board or cards"
    assert set(EXAMPLE) == LOADED_KEYS
    assert set(EXAMPLE["board"]) == BOARD_KEYS


def test_corridor_is_marked_constructed():
    assert CORRIDOR["name"] == "corridor-k"
    assert CORRIDOR["example"] is True
    assert CORRIDOR["source"].startswith("CONSTRUCTED for tests")
    assert set(CORRIDOR) == LOADED_KEYS


def test_totals_of_cards_and_tiles():
    """TW-COMP-4/6/8: 40 Battle Cards, 20 Obstacle Cards, 36 Resource Tiles in both sets."""
    for data in (EXAMPLE, CORRIDOR):
        assert (len(data["battle"]), len(data["obstacles"]), len(data["tiles"])) == (40, 20, 36)


def test_example_cards_as_the_task_sets_them():
    """TW-AMB-3: 10 Battle Cards per colour, strengths 1-6, Movement Ratings 2-5; obstacles of
    1-2 colours, strength 5-10, reward 1-3; 4 or 5 tiles of each of the 8 kinds."""
    for colour in COLOURS:
        cards = [c for c in EXAMPLE["battle"].values() if c["colour"] == colour]
        assert len(cards) == 10
    assert {c["strength"] for c in EXAMPLE["battle"].values()} == {1, 2, 3, 4, 5, 6}
    assert {c["movement"] for c in EXAMPLE["battle"].values()} == {2, 3, 4, 5}
    for card in EXAMPLE["obstacles"].values():
        assert 1 <= len(card["colours"]) <= 2
        assert 5 <= card["strength"] <= 10 and 1 <= card["reward"] <= 3
    kinds = [tile["kind"] for tile in EXAMPLE["tiles"].values()]
    assert {kinds.count(kind) for kind in TILE_KINDS} <= {4, 5}
    assert EXAMPLE["battle"]["b01"] == {"id": "b01", "colour": "red", "strength": 1, "movement": 5}
    assert EXAMPLE["tiles"]["r01"] == {"id": "r01", "kind": "dumbledore"}


def test_corridor_holds_the_section_5_cards():
    """Spec section 5 (EX-TW-2/3/4): the cards its examples name, by readable ids."""
    assert CORRIDOR["battle"]["red-5-3"] == {
        "id": "red-5-3",
        "colour": "red",
        "strength": 5,
        "movement": 3,
    }
    for ident, colour, strength, movement in (
        ("blue-2-4", "blue", 2, 4),
        ("green-4-2", "green", 4, 2),
        ("green-1-5", "green", 1, 5),
        ("blue-5-3", "blue", 5, 3),
    ):
        card = CORRIDOR["battle"][ident]
        assert (card["colour"], card["strength"], card["movement"]) == (colour, strength, movement)
    assert CORRIDOR["obstacles"]["o-red-orange-8-2"] == {
        "id": "o-red-orange-8-2",
        "colours": ["red", "orange"],
        "strength": 8,
        "reward": 2,
    }
    assert CORRIDOR["obstacles"]["o-blue-9-1"]["colours"] == ["blue"]
    assert CORRIDOR["obstacles"]["o-orange-6-1"]["strength"] == 6
    assert CORRIDOR["tiles"]["double-die-1"] == {"id": "double-die-1", "kind": "double_die"}


def test_corridor_board_as_section_5_describes():
    """Spec section 5: K0..K20 in a line, K0 Entrance, K5 Obstacle, K8 Gold Mist, K10/K18 Portkey
    pair, K12 Penalty, K15 Headstone 2, C1..C4 beside K20 (TW-PORT-1, TW-CUP-1)."""
    board = CORRIDOR["board"]
    for i in range(21):
        space = board["spaces"][f"K{i}"]
        assert (space["x"], space["y"], space["kind"]) == (i, 0, "path")
    assert board["entrance"] == "K0"
    assert board["obstacles"] == ["K5"]
    assert board["gold_mist"] == ["K8"]
    assert board["penalties"] == ["K12"]
    assert board["headstones"]["2"] == "K15"
    assert board["cup_slots"] == {"1": "C1", "2": "C2", "3": "C3", "4": "C4"}
    assert board["portkeys"]["K10"] == "K18" and board["portkeys"]["K18"] == "K10"
    assert len(board["portkeys"]) == 6
    assert board["spaces"]["K10"] == {
        "id": "K10",
        "x": 10,
        "y": 0,
        "kind": "path",
        "feature": "portkey",
        "pair": "A",
    }
    assert board["spaces"]["K15"]["number"] == 2
    off_line = {board["headstones"]["1"], board["headstones"]["3"], board["hedge_home"]}
    assert all(board["spaces"][space]["y"] != 0 for space in off_line - {board["hedge_home"]})
    assert board["hedge_home"] not in {f"K{i}" for i in range(21)}
    assert board["at"]["20,0"] == "K20" and board["at"]["21,0"] == "C1"


def test_example_board_features():
    """TW-AMB-1, TW-PORT-1, TW-CUP-1: the example's maze has every feature the task asks."""
    board = EXAMPLE["board"]
    assert (board["width"], board["height"]) == (15, 15)
    entrance = board["spaces"][board["entrance"]]
    assert entrance["y"] == board["height"] - 1  # at the edge
    assert len(board["portkeys"]) == 6
    assert 2 <= len(board["gold_mist"]) <= 3
    assert 4 <= len(board["obstacles"]) <= 6
    assert len(board["penalties"]) == 2
    assert sorted(board["headstones"]) == ["1", "2", "3"]
    home = board["spaces"][board["hedge_home"]]
    assert (home["x"], home["y"]) == (7, 7)
    assert sorted(board["neighbours"][board["hedge_home"]]) == sorted(board["cup_slots"].values())
    greens = [s for s in board["spaces"].values() if s["kind"] == "green_hedge"]
    assert len(greens) >= 3 and all(s["feature"] is None for s in greens)


def test_die():
    """TW-AMB-2, TW-COMP-7: the EXAMPLE die, read by the dice reader's profile "triwizard"."""
    assert EXAMPLE["die"] == {"faces": ["cloak", 1, 2, 3, 4, 5], "profile": "triwizard"}


def test_fingerprint_is_16_hex_and_ignores_names(mymaze):
    """The fingerprint hashes what plays; mending an Italian name keeps it, a card changes it."""
    assert len(EXAMPLE["fingerprint"]) == 16
    int(EXAMPLE["fingerprint"], 16)
    assert fingerprint(EXAMPLE) == EXAMPLE["fingerprint"]
    assert EXAMPLE["fingerprint"] != CORRIDOR["fingerprint"]
    edit(mymaze, "it.json", lambda names: names["colours"].update(red="Rossa"))
    assert load_dataset(mymaze)["fingerprint"] == EXAMPLE["fingerprint"]
    edit(mymaze, "cards.json", lambda cards: cards["battle"][0].update(strength=6))
    assert load_dataset(mymaze)["fingerprint"] != EXAMPLE["fingerprint"]


def test_fingerprint_ignores_cell_order_and_comments(mymaze):
    edit(mymaze, "board.json", lambda board: board["cells"].reverse())
    edit(mymaze, "board.json", lambda board: board.update(_comment="reordered"))
    assert load_dataset(mymaze)["fingerprint"] == EXAMPLE["fingerprint"]


def test_the_loaded_form_is_plain_json():
    for data in (EXAMPLE, CORRIDOR):
        assert json.loads(json.dumps(data)) == data


def test_italian_names_from_the_sheet():
    """The it.json names use the sheet's own Italian terms (spec glossary)."""
    italian = labels(EXAMPLE, "it")
    assert italian["tile_kinds"]["dumbledore"] == "Albus Silente"
    assert italian["tile_kinds"]["summon_hedge"] == "Siepe d'Appello"
    assert italian["colours"]["orange"] == "Arancione"
    assert italian["features"]["portkey"] == "Casella Passaporta"
    assert italian["kinds"]["green_hedge"] == "Siepe Verde"
    assert italian["cup_tiles"]["cup"] == "Coppa dei Tre Maghi"
    for section, names in italian.items():
        assert names.keys() == labels(EXAMPLE, "en")[section].keys()
        assert set(EXAMPLE["names"]["it"][section]) == set(names), section
    assert labels(EXAMPLE, "en")["tile_kinds"]["dumbledore"] == "Albus Dumbledore"
    assert words(EXAMPLE, "it")["Gold Mist Space"] == "Casella Nebbia Dorata"
    assert words(EXAMPLE, "en") == {}


def test_localised_copy():
    page = localised(EXAMPLE, "it")
    assert page["language"] == "it"
    assert page["title"].startswith("ESEMPIO")
    assert page["labels"]["cup_tiles"]["headstone-2"] == "Tassello Lapide 2"
    assert "names" not in page and page["fingerprint"] == EXAMPLE["fingerprint"]
    assert localised(EXAMPLE, "en")["title"] == EXAMPLE["title"]
    assert set(CUP_TILES) == set(page["labels"]["cup_tiles"])


def test_a_set_without_it_json_stays_english(mymaze):
    (mymaze / "it.json").unlink()
    data = load_dataset(mymaze)
    assert data["names"] == {}
    assert localised(data, "it")["title"] == data["title"]
    assert labels(data, "it")["colours"]["red"] == "Red"


def test_bundled_and_default():
    sets = bundled()
    assert sorted(sets) == ["corridor-k", "example"]
    assert sets["example"] is EXAMPLE  # loaded once
    assert default_name(sets) == "example"
    assert default_name({"corridor-k": CORRIDOR}) == "corridor-k"


def test_a_copy_elsewhere_loads_like_the_bundled(tmp_path):
    folder = tmp_path / "copy"
    shutil.copytree(data_directory() / "corridor-k", folder)
    assert load_dataset(folder) == CORRIDOR
    assert issubclass(DataError, ValueError)


def test_components():
    """TW-COMP-2..8: a sticker per card, tile, Cup Tile and piece, and the Cloak."""
    box = components(EXAMPLE)
    assert len(box) == 40 + 20 + 36 + 4 + 4 + 1
    assert set(box.values()) == {1}
    assert box["battle b01"] == box["obstacle o20"] == box["tile r36"] == 1
    assert {name for name in box if name.startswith("cup ")} == {
        "cup cup",
        "cup headstone-1",
        "cup headstone-2",
        "cup headstone-3",
    }
    assert "piece 4" in box and "cloak" in box
    assert "battle red-5-3" in components(CORRIDOR)


def test_english_names_cover_the_game_words():
    """Every colour, tile kind, feature, cell kind and Cup Tile has an English name."""
    assert tuple(ENGLISH["colours"]) == COLOURS
    assert tuple(ENGLISH["tile_kinds"]) == TILE_KINDS
    assert tuple(ENGLISH["features"]) == WORD_FEATURES + OBJECT_FEATURES
    assert tuple(ENGLISH["kinds"]) == KINDS
    assert tuple(ENGLISH["cup_tiles"]) == CUP_TILES
