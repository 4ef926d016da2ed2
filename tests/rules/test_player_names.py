"""Players' names (companion/rules/names.py, Game.check_players): what a name may hold, the name
the table keeps, and which two names are one."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.games import get_game
from companion.i18n import Text
from companion.rules import SetupError
from companion.rules.names import (
    MAX_NAME_LENGTH,
    clean_name,
    glyph_key,
    name_key,
)

GAME = get_game("abracadawhat")  # 2 to 5 players
ZWJ = "\u200d"
PROPERTY = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def refusal(raw: str) -> str:
    """The reason ``clean_name`` gives for refusing ``raw`` (the test fails if it accepts it)."""
    with pytest.raises(SetupError) as error:
        clean_name(raw)
    reason = error.value.args[0]
    assert isinstance(reason, Text), "a refusal must be translatable (made with t())"
    return reason


def setup_refusal(players: list[str]) -> str:
    with pytest.raises(SetupError) as error:
        GAME.check_players(players)
    return error.value.args[0]


# -- what a name may not hold ------------------------------------------------------------------

REFUSED = [
    ("An\x00na", "control character", "U+0000"),
    ("Anna\x1b[31m", "control character", "U+001B"),
    ("An\rna", "control character", "U+000D"),
    ("An\nna", "control character", "U+000A"),
    ("Anna\r\n", "control character", "U+000D"),
    ("An\tna", "control character", "U+0009"),
    ("Anna\x85", "control character", "U+0085"),
    ("An\u2028na", "control character", "U+2028 LINE SEPARATOR"),
    ("An\u2029na", "control character", "U+2029 PARAGRAPH SEPARATOR"),
    ("\u202eannA", "writing direction", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("Anna\u2066", "writing direction", "U+2066 LEFT-TO-RIGHT ISOLATE"),
    ("Anna\u200f", "writing direction", "U+200F RIGHT-TO-LEFT MARK"),
    ("\u061cAnna", "writing direction", "U+061C ARABIC LETTER MARK"),
    ("An\u200bna", "invisible character", "U+200B ZERO WIDTH SPACE"),
    ("\ufeffAnna", "invisible character", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
    ("An\u00adna", "invisible character", "U+00AD SOFT HYPHEN"),
    ("An\u2060na", "invisible character", "U+2060 WORD JOINER"),
    ("\u3164", "invisible character", "U+3164 HANGUL FILLER"),
    ("Anna \u2800", "invisible character", "U+2800 BRAILLE PATTERN BLANK"),
    ("Anna \ue000", "every phone", "U+E000"),
    ("Anna \U000f0000", "every phone", "U+F0000"),
    ("Anna \u0378", "every phone", "U+0378"),
    ("Anna \U0010ffff", "every phone", "U+10FFFF"),
    ("Anna \ud83e", "every phone", "U+D83E"),
    ("An" + ZWJ + "na", "only inside an emoji", "U+200D ZERO WIDTH JOINER"),
    ("Anna 🦄" + ZWJ, "only inside an emoji", "U+200D"),
    (ZWJ + "🦄", "only inside an emoji", "U+200D"),
    ("🦄" + ZWJ + " 🦄", "only inside an emoji", "U+200D"),
    ("Anna\ufe0f", "only inside an emoji", "U+FE0F VARIATION SELECTOR-16"),
    ("🦄\ufe0f\ufe0f", "only inside an emoji", "U+FE0F"),
    ("葛\U000e0100", "only inside an emoji", "U+E0100 VARIATION SELECTOR-17"),
    ("1\ufe0f", "only inside an emoji", "U+FE0F"),
]


@pytest.mark.parametrize("raw, problem, code", REFUSED)
def test_a_name_never_holds_an_invisible_or_control_character(raw, problem, code):
    """Control characters, bidi controls, invisible and unassigned characters are refused, named
    by their code point: the refusal never shows the character itself (it could hide or
    reorder the message), so it is plain ASCII."""
    reason = refusal(raw)
    assert problem in reason and code in reason
    assert reason.isascii()


def test_a_refusal_says_where_the_character_is():
    assert "(U+001B, character 5)" in refusal("Anna\x1b")
    assert "character 3)" in refusal("An\u202ena")


@pytest.mark.parametrize("raw", ["", " ", "   ", "\u00a0\u3000 ", "\u2003"])
def test_a_name_needs_something_besides_spaces(raw):
    assert refusal(raw) == "every player needs a name"


def test_a_name_has_at_most_the_limit():
    """24 characters after cleaning fit a seat's row and the prompt on a 390 px phone."""
    assert MAX_NAME_LENGTH == 24
    longest = "M" * MAX_NAME_LENGTH
    assert clean_name(longest) == longest
    assert clean_name(f"  {longest}  ") == longest  # counted after cleaning
    assert clean_name("Ab" + " " * 40 + "Cd") == "Ab Cd"
    decomposed = unicodedata.normalize("NFD", "é" * MAX_NAME_LENGTH)  # 48 code points given
    assert clean_name(decomposed) == "é" * MAX_NAME_LENGTH
    too_long = "a player's name can have at most 24 characters"
    assert refusal("M" * (MAX_NAME_LENGTH + 1)) == too_long
    assert refusal("🦄" * (MAX_NAME_LENGTH + 1)) == too_long
    assert refusal("x" * 100_000) == too_long


@pytest.mark.parametrize(
    "raw", ["@table", "@host", "@all", "@Anna", "  @Anna", "＠table", "﹫host"]
)
def test_a_name_cannot_pass_for_a_viewer(raw):
    """Names starting with "@" are the viewers that are not players; a full-width "＠" too."""
    assert refusal(raw) == "a player's name cannot start with '@'"


def test_a_name_that_is_not_text_is_refused():
    with pytest.raises(SetupError):
        clean_name(42)  # type: ignore[arg-type]
    assert setup_refusal(["Anna", 7]) == "players must be a list of names"
    assert setup_refusal("Anna, Ben") == "players must be a list of names"


# -- the name the table keeps -------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw, kept",
    [
        ("  Anna  ", "Anna"),
        ("Anna   Maria", "Anna Maria"),
        ("Anna\u00a0\u3000Maria\u2002", "Anna Maria"),
        ("E\u0301mile", "Émile"),
        ("Jose\u0301", "José"),
        ("Nguye\u0302\u0303n", "Nguyễn"),
        ("山田 花子", "山田 花子"),
        ("محمد", "محمد"),
        ("Αλέξανδρος", "Αλέξανδρος"),
        ("Александр", "Александр"),
        ("ゆうが", "ゆうが"),
        ("सुब्रह्मण्यम", "सुब्रह्मण्यम"),
        ("Anna 🦄", "Anna 🦄"),
        ("👩" + ZWJ + "💻 Ada", "👩" + ZWJ + "💻 Ada"),
        ("👩🏽" + ZWJ + "💻", "👩🏽" + ZWJ + "💻"),
        ("🏳\ufe0f" + ZWJ + "🌈", "🏳\ufe0f" + ZWJ + "🌈"),
        ("👨" + ZWJ + "👩" + ZWJ + "👧", "👨" + ZWJ + "👩" + ZWJ + "👧"),
        ("Ben ❤\ufe0f", "Ben ❤\ufe0f"),
        ("Ben ‼\ufe0f", "Ben ‼\ufe0f"),
        ("Team 1\ufe0f\u20e3", "Team 1\ufe0f\u20e3"),
        ("Zoë ☕\ufe0e", "Zoë ☕\ufe0e"),
        ("O'Brien-Smith Jr.", "O'Brien-Smith Jr."),
    ],
)
def test_a_name_is_kept_in_one_normal_form(raw, kept):
    """Accents, every script and emoji (with their joiners and variation selectors) are kept;
    the name is kept composed (NFC) with single spaces, so two spellings are one name."""
    assert clean_name(raw) == kept
    assert unicodedata.is_normalized("NFC", clean_name(raw))


def test_composed_and_decomposed_accents_are_one_name():
    assert clean_name("\u00c9mile") == clean_name("E\u0301mile") == "\u00c9mile"
    assert clean_name("Jos\u00e9") == clean_name("Jose\u0301")
    assert setup_refusal(["Jos\u00e9", "Jose\u0301"]) == "two players have the same name: José"


def test_the_table_keeps_the_cleaned_names():
    """check_players returns the cleaned names and the game stores them: the pages, the table
    display and the LED legend show those."""
    given = ["  Anna ", "E\u0301mile", "Ben\u00a0 Bo"]
    assert GAME.check_players(given) == ["Anna", "Émile", "Ben Bo"]
    assert GAME.new(given)["players"] == ["Anna", "Émile", "Ben Bo"]


def test_a_refused_name_is_reported_with_its_seat():
    assert (
        setup_refusal(["Anna", "Be\x00n"])
        == "seat 2: a player's name cannot contain a control character or a line break "
        "(U+0000, character 3)"
    )
    assert setup_refusal(["", "Ben"]) == "seat 1: every player needs a name"
    assert setup_refusal(["Ann", "@table"]) == "seat 2: a player's name cannot start with '@'"


def test_the_player_count_is_checked_before_any_name():
    reason = setup_refusal(["x" * 100_000] * 6)
    assert reason == "Abracada...What? is for 2 to 5 players, not 6"


# -- look-alike alphabets ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw, code",
    [
        ("Αnna", "U+0391 GREEK CAPITAL LETTER ALPHA, character 1"),
        ("Аnna", "U+0410 CYRILLIC CAPITAL LETTER A, character 1"),
        ("Annа", "U+0430 CYRILLIC SMALL LETTER A, character 4"),
        ("Pаul", "U+0430 CYRILLIC SMALL LETTER A, character 2"),
        ("Anna Μαρία", "U+0041 LATIN CAPITAL LETTER A, character 1"),  # fewer Latin letters
        ("Ｐаul", "U+0430 CYRILLIC SMALL LETTER A, character 2"),  # a full-width P is Latin
    ],
)
def test_a_name_mixing_latin_greek_and_cyrillic_is_refused(raw, code):
    reason = refusal(raw)
    assert reason.startswith("a player's name cannot mix Latin, Greek or Cyrillic letters")
    assert code in reason and reason.isascii()


@pytest.mark.parametrize(
    "raw",
    [
        "Αλέξανδρος",
        "ΑΝΝΑ",
        "Сосо",
        "Анна Каренина",
        "Anna",
        "山田 Anna",
        "محمد Ali",
        "Ελένη 🦄",
        "Борис 2",
    ],
)
def test_a_name_in_one_alphabet_is_fine(raw):
    """One of Latin, Greek or Cyrillic, alone or with other scripts, digits and emoji."""
    assert clean_name(raw) == raw


# -- two names that are one -------------------------------------------------------------------


@pytest.mark.parametrize(
    "first, second",
    [
        ("Anna", "anna"),
        ("Anna", "ANNA"),
        ("Emile", "Émile"),
        ("Strauss", "Strauß"),
        ("Anna", "Ａｎｎａ"),  # full width
        ("ANNA", "ΑΝΝΑ"),  # all Greek
        ("Αννα", "Anna"),  # all Greek, small nu read as its capital's N
        ("Coco", "Сосо"),  # all Cyrillic
        ("Pepe", "Рере"),
        ("Bob", "B0b"),
        ("Paul", "Pau1"),
        ("Al", "AI"),  # capital I vs small l
        ("Ian", "lan"),
        ("AI", "A1"),
        ("Kim", "Kirn"),
        ("Uwe", "Uvve"),
        ("Anna", "An na"),
        ("Anna", "Anna."),
        ("Anna", "-Anna-"),
        ("Anna Maria", "AnnaMaria"),
        ("Anna ❤", "Anna ❤\ufe0f"),
        ("Ada 👩" + ZWJ + "💻", "Ada 👩💻"),
    ],
)
def test_names_that_look_alike_are_refused(first, second):
    assert setup_refusal([first, second]) == f"two players' names look alike: {first} and {second}"
    assert (
        setup_refusal([second, "Zed", first])
        == f"two players' names look alike: {second} and {first}"
    )


@pytest.mark.parametrize(
    "first, second",
    [
        ("Anna", "Ana"),
        ("Marta", "Martha"),
        ("Elia", "Ella"),  # a small i has its dot
        ("Ian", "Lan"),  # a capital L is no capital I
        ("Mia", "Nia"),
        ("Anna", "Анна"),  # Cyrillic н is an H, not an n
        ("Anna 🦄", "Anna 🐉"),
        ("ゆうか", "ゆうが"),  # the dakuten makes another letter
        ("कुमार", "कमार"),  # so does a Devanagari vowel sign
        ("Player 1", "Player 2"),
        ("Jo", "Joe"),
    ],
)
def test_different_names_are_accepted(first, second):
    assert GAME.check_players([first, second]) == [first, second]


def test_the_same_name_twice_is_refused_by_name():
    assert setup_refusal(["Ann", "Ann", "Ben"]) == "two players have the same name: Ann"
    assert setup_refusal(["Ann", " Ann  ", "Ben"]) == "two players have the same name: Ann"


def test_the_keys():
    assert name_key("Ánna-Maria O'Neil") == "annamariaoneil"
    assert name_key("ΑΝΝΑ") == name_key("Anna") == "anna"
    assert name_key("Arnold") == "amold"
    assert name_key("Ian") == "ian" and glyph_key("Ian") == "lan"
    assert glyph_key("Lia") != glyph_key("Ila")
    assert name_key("ゆうが") != name_key("ゆうか")
    assert name_key("...") == ""


# -- properties --------------------------------------------------------------------------------

#: Characters that stress the rules: spaces of every kind, joiners and selectors, emoji and
#: keycaps, look-alike letters, marks, characters NFC changes, and the forbidden ones.
TRICKY = (
    "Aa Ilo01rnvv \u00a0\u2000\u2001\u3000\t\n\r\x00\x1b\x85\u2028\u200b\u200d\ufe0e\ufe0f"
    "\ufe00\U000e0100\u20e3#*\u202e\u2066\ufeff\u3164\u2800🦄👩💻❤🏽🏳🌈‼ΑαΝνΙιАаНнІӀ"
    "\u0301\u0308\u0344\u0958\u1e9b\u212b\u2126éﬁＡ＠@.-'\ue000\u0378\ud800ßİ"
)
names_strategy = st.text(
    alphabet=st.one_of(st.sampled_from(TRICKY), st.characters(exclude_categories=())), max_size=40
)


def allowed_in_a_name(text: str, index: int) -> bool:
    """An independent statement of what a kept name may hold at ``index``."""
    char = text[index]
    category = unicodedata.category(char)
    if category in ("Cc", "Zl", "Zp", "Cs", "Co", "Cn"):
        return False
    if category == "Zs":
        return char == " "
    if char == ZWJ or "\ufe00" <= char <= "\ufe0f" or "\U000e0100" <= char <= "\U000e01ef":
        before = text[index - 1] if index else " "
        return not unicodedata.category(before)[0] in "LZ"  # never after a letter or a space
    return category != "Cf"


@PROPERTY
@given(names_strategy)
@example("x" * 100_000)
@example("\u0344" * 30)
@example(" \u0301a")
def test_cleaning_is_safe_idempotent_and_keeps_the_key(raw):
    """clean_name refuses only with SetupError, and with a plain ASCII reason; what it keeps is
    clean (no forbidden character, single inner spaces, NFC, within the limit), is kept
    unchanged by cleaning it again, and compares like what was given."""
    try:
        name = clean_name(raw)
    except SetupError as error:
        assert str(error.args[0]).isascii()
        return
    assert clean_name(name) == name
    assert 0 < len(name) <= MAX_NAME_LENGTH
    assert name == name.strip() and "  " not in name
    assert unicodedata.is_normalized("NFC", name)
    assert all(allowed_in_a_name(name, index) for index in range(len(name))), ascii(name)
    assert not name.startswith("@")
    assert name_key(name) == name_key(raw)
    assert glyph_key(name) == glyph_key(raw)


@PROPERTY
@given(names_strategy)
def test_a_key_never_fails_and_ignores_case_and_spaces(raw):
    key = name_key(raw)
    assert isinstance(key, str)
    assert name_key(raw.upper()) == name_key(raw.lower()) or any(
        len(char.upper()) > 1 or len(char.lower()) > 1 for char in raw
    )
    assert name_key(" ".join(raw.split())) == key
