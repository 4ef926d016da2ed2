"""The tag registry: enrolling stickers, the box limits, lookup, forgetting, export and import."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from companion.table.store import Store
from companion.table.tags import EXPORT_FORMAT, Component, TagError, TagRegistry

GAME = "abracadawhat"
UID_A, UID_B, UID_C = "04A1B2C3", "04A1B2C3D4E5F6", "04A1B2C3D4E5F6071829"


@pytest.fixture
def store(tmp_path: Path):
    s = Store(tmp_path / "tags.db")
    yield s
    s.close()


@pytest.fixture
def registry(store: Store) -> TagRegistry:
    return TagRegistry(store)


def other_registry(tmp_path: Path, name: str) -> tuple[Store, TagRegistry]:
    """A registry on a second table (its own database file)."""
    s = Store(tmp_path / f"{name}.db")
    return s, TagRegistry(s)


def tag_file(*rows: tuple[str, str, str]) -> dict:
    return {
        "format": EXPORT_FORMAT,
        "tags": [{"uid": u, "game": g, "component": c} for u, g, c in rows],
    }


def refused(registry: TagRegistry, uid: str, game: str, component: str) -> str:
    """Enrolling must fail and leave the registry as it was; returns the message."""
    before = registry.export()
    with pytest.raises(TagError) as info:
        registry.enrol(uid, game, component)
    assert registry.export() == before
    return str(info.value)


# -- enrolling -------------------------------------------------------------------------------------


@pytest.mark.parametrize("uid", [UID_A, UID_B, UID_C])
def test_a_sticker_of_4_7_or_10_bytes_is_enrolled_and_looked_up(registry, uid):
    """enrol returns the component; lookup finds it by UID; kind and value split its name."""
    comp = registry.enrol(uid, GAME, "stone 5")
    assert comp == Component(GAME, "stone 5")
    assert registry.lookup(uid) == comp and len(registry) == 1
    assert (comp.kind, comp.value) == ("stone", 5)


def test_an_unknown_uid_is_not_found(registry):
    assert registry.lookup(UID_A) is None


@pytest.mark.parametrize(
    "uid",
    [
        "",
        "04A1B2",
        "04A1B2C3D4",
        "04A1B2C3D4E5F607",
        "04G1B2C3",
        "04A1B2C3\n",
        " 04A1B2C3",
        "04:A1:B2:C3",
    ],
)
def test_an_invalid_uid_is_refused(registry, uid):
    """Only 4, 7 or 10 bytes of upper-case hex, and nothing around them, are a UID."""
    assert "not a tag UID" in refused(registry, uid, GAME, "stone 5")


def test_an_unknown_game_is_refused(registry):
    assert "no game called" in refused(registry, UID_A, "monopoly", "stone 5")


@pytest.mark.parametrize("component", ["stone 9", "stone", "wand 1", "stone 0"])
def test_a_component_the_box_does_not_hold_is_refused(registry, component):
    assert "has no component" in refused(registry, UID_A, GAME, component)


def test_a_sticker_already_enrolled_is_refused_even_as_the_same_component(registry):
    """A UID is enrolled once; re-enrolling it (as anything) names what it already is."""
    registry.enrol(UID_A, GAME, "stone 5")
    assert "already enrolled as stone 5" in refused(registry, UID_A, GAME, "stone 6")
    assert "already enrolled" in refused(registry, UID_A, GAME, "stone 5")


def test_no_more_stickers_than_the_box_holds(registry):
    """The box has one stone 1 and two stone 2s: one sticker more is refused."""
    registry.enrol("04000001", GAME, "stone 1")
    assert "all are enrolled" in refused(registry, "04000002", GAME, "stone 1")
    registry.enrol("04000003", GAME, "stone 2")
    registry.enrol("04000004", GAME, "stone 2")
    assert "all are enrolled" in refused(registry, "04000005", GAME, "stone 2")


@pytest.mark.parametrize("written", ["Stone  5", "STONE 5", "  stone\t5 "])
def test_component_names_are_normalised(registry, written):
    """Case and runs of white space do not matter: the registry keeps "stone 5"."""
    assert registry.enrol(UID_A, GAME, written).name == "stone 5"
    assert registry.count(GAME)["stone 5"] == 1


def test_count_lists_every_component_of_the_box(registry):
    """count names all eight stones, enrolled or not, with how many stickers each has."""
    registry.enrol("04000001", GAME, "stone 3")
    registry.enrol("04000002", GAME, "stone 3")
    registry.enrol("04000003", GAME, "stone 8")
    expected = {f"stone {n}": 0 for n in range(1, 9)} | {"stone 3": 2, "stone 8": 1}
    assert registry.count(GAME) == expected


def test_forget_removes_a_sticker_and_frees_its_place_in_the_box(registry):
    """A forgotten sticker is unknown; another sticker may take its component; forgetting twice
    reports that nothing was forgotten."""
    registry.enrol(UID_A, GAME, "stone 1")
    assert registry.forget(UID_A) is True
    assert registry.lookup(UID_A) is None and len(registry) == 0
    assert registry.forget(UID_A) is False
    registry.enrol(UID_B, GAME, "stone 1")
    assert registry.count(GAME)["stone 1"] == 1


def test_enrolled_and_forgotten_tags_persist_in_the_store(registry, store):
    """A new registry on the same store (as after a restart) knows exactly the same stickers."""
    registry.enrol(UID_A, GAME, "stone 4")
    registry.enrol(UID_B, GAME, "stone 6")
    registry.forget(UID_A)
    again = TagRegistry(store)
    assert again.lookup(UID_B) == Component(GAME, "stone 6")
    assert again.lookup(UID_A) is None
    assert again.export() == registry.export()


# -- export and import -----------------------------------------------------------------------------


def test_export_lists_every_tag_sorted_by_uid(registry):
    registry.enrol("04000002", GAME, "stone 7")
    registry.enrol("04000001", GAME, "stone 2")
    assert registry.export() == tag_file(
        ("04000001", GAME, "stone 2"), ("04000002", GAME, "stone 7")
    )


def test_an_export_imports_into_another_table(registry, tmp_path):
    """Export then import on an empty table gives the same registry, also after a restart."""
    for n, stone in enumerate([1, 2, 2, 5, 8]):
        registry.enrol(f"0400000{n}", GAME, f"stone {stone}")
    exported = registry.export()
    other_store, other = other_registry(tmp_path, "other")
    try:
        assert other.import_(copy.deepcopy(exported)) == 5
        assert other.export() == exported
        assert TagRegistry(other_store).export() == exported
    finally:
        other_store.close()


def test_importing_the_same_file_twice_is_harmless(registry, store):
    """The second import finds every tag already known as the same component and changes nothing."""
    data = tag_file(("04000001", GAME, "stone 3"), ("04000002", GAME, "stone 4"))
    assert registry.import_(data) == 2
    assert registry.import_(data) == 2
    assert len(registry) == 2 and TagRegistry(store).export() == data


def test_a_hand_written_file_imports_twice_too(registry):
    """Names in a file are normalised like enrolled ones, so a second import is still harmless."""
    data = tag_file(("04a1b2c3", GAME, "Stone  3"))
    registry.import_(data)
    registry.import_(data)
    assert registry.lookup(UID_A) == Component(GAME, "stone 3")
    assert len(registry) == 1


def test_one_bad_row_imports_nothing(registry, store):
    """Import is all or nothing: a bad second row leaves the registry and the store untouched."""
    registry.enrol(UID_A, GAME, "stone 8")
    before = registry.export()
    data = tag_file(("04000001", GAME, "stone 3"), ("NOT-A-UID", GAME, "stone 4"))
    with pytest.raises(TagError, match="tag 2"):
        registry.import_(data)
    assert registry.export() == before
    assert TagRegistry(store).export() == before


@pytest.mark.parametrize(
    "rows",
    [
        [("04000001", GAME, "stone 1"), ("04000002", GAME, "stone 1")],  # more than the box holds
        [("04000001", GAME, "stone 2"), ("04000001", GAME, "stone 3")],  # one sticker, two stones
        [("04000001", "monopoly", "stone 2")],
        [("04000001", GAME, "stone 9")],
    ],
)
def test_a_file_the_box_cannot_hold_is_refused(registry, rows):
    """The rows are checked against each other and the box, exactly like enrolment."""
    with pytest.raises(TagError, match="tag "):
        registry.import_(tag_file(*rows))
    assert len(registry) == 0


def test_an_import_cannot_silently_rename_an_enrolled_sticker(registry):
    """Without replace, a file naming a known sticker as another component is refused."""
    registry.enrol(UID_A, GAME, "stone 5")
    with pytest.raises(TagError, match="already enrolled"):
        registry.import_(tag_file((UID_A, GAME, "stone 6")))
    assert registry.lookup(UID_A) == Component(GAME, "stone 5")


def test_replace_forgets_every_other_tag(registry, store):
    """replace=True makes the registry exactly the file, in memory and in the store; a sticker
    may change its component that way."""
    registry.enrol(UID_A, GAME, "stone 5")
    registry.enrol(UID_B, GAME, "stone 1")
    data = tag_file((UID_A, GAME, "stone 6"), (UID_C, GAME, "stone 1"))
    assert registry.import_(data, replace=True) == 2
    assert registry.export() == data
    assert registry.lookup(UID_B) is None
    assert TagRegistry(store).export() == data


def test_a_failed_replace_forgets_nothing(registry, store):
    registry.enrol(UID_A, GAME, "stone 5")
    with pytest.raises(TagError):
        registry.import_(tag_file((UID_B, GAME, "stone 99")), replace=True)
    assert registry.lookup(UID_A) is not None and len(TagRegistry(store)) == 1


@pytest.mark.parametrize(
    "data",
    [
        [],
        "tags",
        {"tags": []},
        {"format": "companion-tags/2", "tags": []},
        {"format": EXPORT_FORMAT},
        {"format": EXPORT_FORMAT, "tags": {}},
        {"format": EXPORT_FORMAT, "tags": ["04000001"]},
        {"format": EXPORT_FORMAT, "tags": [{"uid": "04000001", "game": GAME}]},
        {"format": EXPORT_FORMAT, "tags": [{"uid": 4, "game": GAME, "component": "stone 1"}]},
    ],
)
def test_something_that_is_not_a_tag_file_is_refused(registry, data):
    with pytest.raises(TagError):
        registry.import_(data)
    assert len(registry) == 0


def test_imported_uids_are_upper_cased(registry):
    registry.import_(tag_file(("04a1b2c3", GAME, "stone 2")))
    assert registry.lookup(UID_A) == Component(GAME, "stone 2")
