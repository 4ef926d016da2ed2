"""Die profiles: the mounting convention, the built-in profiles, custom faces and lookups."""

from __future__ import annotations

import re

import pytest

from companion_dice import profiles
from companion_dice.profiles import (
    POSITION_SLOTS,
    PROFILES,
    SLOT_POSITIONS,
    SLOTS,
    Face,
    Profile,
    custom,
    get,
)

# what the serial protocol allows in a value, less the "," that separates labels
PROTOCOL_SAFE = re.compile(r"[A-Za-z0-9._-]{1,12}")


def test_slots_name_the_six_axis_directions() -> None:
    """Slot i is the sensor axis pointing up, in the order +x, -x, +y, -y, +z, -z."""
    assert SLOTS == ("+x", "-x", "+y", "-y", "+z", "-z")


def test_position_slots_follow_the_mounting_convention() -> None:
    """+Z is toward the 1, +X toward the 2, +Y toward the 3, so -Y is 4, -X is 5, -Z is 6."""
    assert POSITION_SLOTS == (4, 0, 2, 3, 1, 5)
    pips_up = {SLOTS[POSITION_SLOTS[k]]: k + 1 for k in range(6)}
    assert pips_up == {"+z": 1, "+x": 2, "+y": 3, "-y": 4, "-x": 5, "-z": 6}


def test_slot_positions_invert_position_slots() -> None:
    """SLOT_POSITIONS is the inverse permutation of POSITION_SLOTS."""
    assert sorted(POSITION_SLOTS) == list(range(6))
    for k in range(6):
        assert SLOT_POSITIONS[POSITION_SLOTS[k]] == k


def test_d6_shows_one_when_z_is_up_and_six_when_z_is_down() -> None:
    """The mounting convention on a plain d6: slot 4 (+z) up shows 1, slot 5 (-z) up shows 6."""
    d6 = get("d6")
    assert d6.face_for_slot(4).label == "1"
    assert d6.face_for_slot(5).label == "6"
    assert [d6.face_for_slot(slot).value for slot in range(6)] == [2, 5, 3, 4, 1, 6]


def test_opposite_faces_of_d6_sum_to_seven() -> None:
    """Opposite slots (+a and -a) show faces that add up to 7, as on a real die."""
    d6 = get("d6")
    for axis in range(3):
        plus, minus = d6.face_for_slot(2 * axis), d6.face_for_slot(2 * axis + 1)
        assert plus.value + minus.value == 7


def test_one_two_three_corner_is_right_handed() -> None:
    """The 1, 2 and 3 faces point along +Z, +X, +Y: a right-handed (counter-clockwise) corner."""
    d6 = get("d6")
    axis = {"+x": (1, 0, 0), "+y": (0, 1, 0), "+z": (0, 0, 1)}
    one, two, three = (axis[SLOTS[d6.slot_for(label)]] for label in ("1", "2", "3"))
    # (one x two) . three > 0 for a right-handed triple
    cross = (
        one[1] * two[2] - one[2] * two[1],
        one[2] * two[0] - one[0] * two[2],
        one[0] * two[1] - one[1] * two[0],
    )
    assert sum(c * t for c, t in zip(cross, three, strict=True)) == 1


def test_slot_for_and_face_for_slot_agree() -> None:
    """slot_for(label) is the slot in which face_for_slot shows that label, for every profile."""
    for profile in PROFILES.values():
        for face in profile.faces:
            assert profile.face_for_slot(profile.slot_for(face.label)) == face


def test_slot_for_an_unknown_label_raises() -> None:
    """Asking for a face the die does not have is a ValueError naming it."""
    with pytest.raises(ValueError, match="no face '7'"):
        get("d6").slot_for("7")


@pytest.mark.parametrize("slot", [-1, 6, "1", 1.0, True, None])
def test_face_for_slot_rejects_what_is_not_a_slot(slot: object) -> None:
    """Only the ints 0..5 are slots."""
    with pytest.raises(ValueError, match="slot must be 0..5"):
        get("d6").face_for_slot(slot)


def test_builtin_profiles() -> None:
    """The four built-ins, with their faces by position, example flags and sources."""
    assert set(PROFILES) == {"d6", "triwizard", "battle", "rotation"}
    assert get("d6").labels() == ("1", "2", "3", "4", "5", "6")
    assert get("d6").example is False
    assert get("triwizard").labels() == ("CLOAK", "1", "2", "3", "4", "5")
    assert get("battle").labels() == ("1", "2", "2P", "3", "4", "5")
    assert get("rotation").labels() == ("ice", "forest", "desert", "lake", "mountain", "meadow")
    for name in ("triwizard", "battle", "rotation"):
        assert get(name).example is True, name
    assert "TW-AMB-2" in get("triwizard").note
    assert "TW-BATTLE-4" in get("triwizard").note
    assert "RW-AMB-2" in get("battle").note
    assert "RW-BATTLE-4" in get("battle").note
    assert "RW-AMB-2" in get("rotation").note
    for name, profile in PROFILES.items():
        assert profile.name == name


def test_cloak_counts_as_zero() -> None:
    """Triwizard's Cloak face is worth 0 in battle (TW-BATTLE-4); numbers are worth themselves."""
    faces = get("triwizard").faces
    assert faces[0] == Face("CLOAK", value=0)
    assert [face.value for face in faces] == [0, 1, 2, 3, 4, 5]
    assert not any(face.again for face in faces)


def test_purple_two_is_worth_two_and_rolls_again() -> None:
    """The battle die's 2P is worth 2 and means "roll again and add" (RW-BATTLE-4); the plain 2
    does not."""
    battle = get("battle")
    purple = battle.faces[battle.labels().index("2P")]
    plain = battle.faces[battle.labels().index("2")]
    assert (purple.value, purple.again) == (2, True)
    assert (plain.value, plain.again) == (2, False)
    assert purple != plain
    assert [face.label for face in battle.faces if face.again] == ["2P"]


def test_rotation_faces_have_no_value() -> None:
    """Region faces are names, not numbers."""
    assert all(face.value is None for face in get("rotation").faces)


def test_describe_is_protocol_safe() -> None:
    """describe() joins the labels by position with ","; no label holds ",", "=", "*" or spaces."""
    assert get("d6").describe() == "1,2,3,4,5,6"
    assert get("battle").describe() == "1,2,2P,3,4,5"
    for profile in PROFILES.values():
        labels = profile.describe().split(",")
        assert len(labels) == 6
        assert all(PROTOCOL_SAFE.fullmatch(label) for label in labels)


def test_face_value_is_derived_from_all_digit_labels() -> None:
    """A label of digits is worth its number unless a value is given; other labels, None."""
    assert Face("12").value == 12
    assert Face("007").value == 7
    assert Face("x1").value is None
    assert Face("1", value=None).value is None
    assert Face("A", value=3).value == 3


def test_face_equality_and_repr() -> None:
    """Faces are equal when label, value and again match; repr shows what is not derived."""
    assert Face("2P", value=2, again=True) == Face("2P", value=2, again=True)
    assert Face("2P", value=2, again=True) != Face("2P", value=2)
    assert Face("3") == Face("3", value=3)
    assert Face("3") != "3"
    assert len({Face("3"), Face("3", value=3)}) == 1
    assert repr(Face("3")) == "Face('3')"
    assert repr(Face("2P", value=2, again=True)) == "Face('2P', value=2, again=True)"
    assert repr(Face("CLOAK", value=0)) == "Face('CLOAK', value=0)"


@pytest.mark.parametrize(
    ("label", "message"),
    [
        ("", "must not be empty"),
        ("ABCDEFGHIJKLM", "longer than 12"),
        ("a,b", "holds ','"),
        ("a=b", "holds '='"),
        ("a*b", "holds '\\*'"),
        ("a b", "holds ' '"),
        ("é", "holds 'é'"),
        (3, "must be a string"),
    ],
)
def test_face_rejects_bad_labels(label: object, message: str) -> None:
    """Labels are 1..12 characters of A-Z a-z 0-9 . _ -, so they are safe on the wire."""
    with pytest.raises(ValueError, match=message):
        Face(label)


def test_face_rejects_a_non_int_value() -> None:
    """A value is an int or None."""
    with pytest.raises(ValueError, match="value must be an int"):
        Face("A", value="3")
    with pytest.raises(ValueError, match="value must be an int"):
        Face("A", value=True)


def test_custom_profile() -> None:
    """custom() builds a profile named "custom" with the labels by position."""
    profile = custom(["A", "b", "3", "d.1", "e_2", "f-3"])
    assert profile.name == "custom"
    assert profile.labels() == ("A", "b", "3", "d.1", "e_2", "f-3")
    assert profile.faces[2].value == 3
    assert profile.face_for_slot(4).label == "A"
    assert profile.example is False


@pytest.mark.parametrize(
    ("labels", "message"),
    [
        (["1", "2", "3", "4", "5"], "exactly 6 faces, got 5"),
        (["1", "2", "3", "4", "5", "6", "7"], "exactly 6 faces, got 7"),
        (["1", "2", "3", "", "5", "6"], "face 4: a face label must not be empty"),
        (["1", "2", "3", "4", "5", "six pips"], "face 6: face label 'six pips' holds ' '"),
        ("123456", "a list of 6 labels, not one string"),
    ],
)
def test_custom_profile_validation(labels: object, message: str) -> None:
    """custom() needs exactly six valid labels, and says which one is wrong."""
    with pytest.raises(ValueError, match=message):
        custom(labels)


def test_get_builtins_by_name() -> None:
    """get(name) returns the built-in profile of that name."""
    for name, profile in PROFILES.items():
        assert get(name) is profile


def test_get_custom_from_a_comma_separated_string() -> None:
    """get("custom", faces) takes the labels as one comma-separated string (spaces around them
    are ignored)."""
    assert get("custom", "A,B,C,D,E,F").labels() == ("A", "B", "C", "D", "E", "F")
    assert get("custom", " 1, 2 ,3,4,5,6 ").labels() == ("1", "2", "3", "4", "5", "6")
    assert get("custom", ["x", "y", "z", "u", "v", "w"]).describe() == "x,y,z,u,v,w"


@pytest.mark.parametrize(
    ("name", "faces", "message"),
    [
        ("d20", None, "unknown die profile 'd20'.*d6"),
        ("D6", None, "unknown die profile 'D6'"),
        ("d6", "1,2,3,4,5,6", "fixed faces; faces can only be given with profile custom"),
        ("custom", None, "needs faces"),
        ("custom", "A,B,C", "exactly 6 faces, got 3"),
        ("custom", "A,B,,D,E,F", "face 3: a face label must not be empty"),
        ("custom", "A,B,C,D,E,F=1", "face 6: face label 'F=1' holds '='"),
    ],
)
def test_get_errors(name: str, faces: str | None, message: str) -> None:
    """get() explains an unknown name, faces given to a built-in, bad or missing custom faces."""
    with pytest.raises(ValueError, match=message):
        get(name, faces)


def test_profile_rejects_wrong_face_counts_and_a_label_meaning_two_faces() -> None:
    """A Profile has exactly six faces; a label may repeat, but always for the same face."""
    with pytest.raises(ValueError, match="6 faces"):
        Profile("p", ["1", "2"])
    with pytest.raises(ValueError, match="means two different faces"):
        Profile("p", ["1", "2", "3", "4", "5", Face("5", value=6)])


def test_a_custom_die_may_repeat_a_face() -> None:
    """A die with faces 1, 1, 2, 2, 3, 3: each label reads wherever it is, and slot_for finds
    one of its slots."""
    profile = get("custom", "1,1,2,2,3,3")
    assert profile.labels() == ("1", "1", "2", "2", "3", "3")
    assert profile.face_for_slot(profile.slot_for("2")).label == "2"
    assert sorted(profile.face_for_slot(slot).label for slot in range(6)) == [
        "1",
        "1",
        "2",
        "2",
        "3",
        "3",
    ]


def test_profile_equality_and_repr() -> None:
    """Profiles compare by content; repr shows the name and the description."""
    assert get("custom", "A,B,C,D,E,F") == get("custom", "A,B,C,D,E,F")
    assert get("custom", "A,B,C,D,E,F") != get("custom", "A,B,C,D,F,E")
    assert repr(get("d6")) == "Profile('d6', '1,2,3,4,5,6')"


def test_module_exports() -> None:
    """The names other firmware modules rely on exist."""
    for name in ("get", "custom", "PROFILES", "SLOTS", "POSITION_SLOTS", "Face", "Profile"):
        assert hasattr(profiles, name)
