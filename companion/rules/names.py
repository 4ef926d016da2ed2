"""Players' names: the name the table keeps of what the host typed, and when two names look alike.

The host types the names in the new-game wizard; every page, the table display and the LED legend
show them for the whole game, to everyone. So a name is cleaned once, when the game is set up
(:func:`clean_name`): one normal form (NFC), no outer spaces and single inner ones, and nothing a
screen would hide, reorder or fail to draw (control characters, bidi controls, invisible
characters, private-use and unassigned code points), at most :data:`MAX_NAME_LENGTH` characters,
and letters of one look-alike alphabet only (Latin, Greek or Cyrillic). Two names are one name
when a reader could mistake one for the other (:func:`name_key`, :func:`glyph_key`).

Standard library only (``unicodedata``); pure, like every rules core.
"""

from __future__ import annotations

import unicodedata

from ..i18n import Text, t
from .errors import SetupError

#: The longest name, in code points after cleaning. The pages are laid out for a 390 px wide
#: phone (about 358 px inside the margins) in a 17 px font: at an estimated half an em a letter,
#: 24 letters take about 200 px in a seat's row, leaving room for its colour mark and badges,
#: and about 290 px in the 1.35 rem bold prompt, which then wraps once at most. Long enough for
#: "Maria Fernanda Gómez". The wizard's field has the same limit (``maxlength`` in wizard.js).
MAX_NAME_LENGTH = 24
#: A name given longer than this is refused before any work, whatever cleaning would leave of it:
#: four times the limit still holds every decomposed (NFD) spelling of a name that fits.
MAX_GIVEN_LENGTH = 4 * MAX_NAME_LENGTH

ZERO_WIDTH_JOINER = "\u200d"
TEXT_STYLE = "\ufe0e"  #: variation selector 15: "draw the character before as text"
EMOJI_STYLE = "\ufe0f"  #: variation selector 16: "draw the character before as an emoji"
KEYCAP = "\u20e3"  #: combining enclosing keycap: "1", EMOJI_STYLE, KEYCAP is the emoji 1️⃣
KEYCAP_BASES = frozenset("0123456789#*")

#: Bidirectional controls and marks: invisible, they reorder the text around them (a name could
#: show as another one, or turn the rest of a sentence around).
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
#: Characters that draw nothing although Unicode files them as letters, marks or symbols rather
#: than as format characters (a name made of them would look empty).
INVISIBLE_CHARACTERS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")
#: Emoji that Unicode files under another category than "other symbol" (So).
EMOJI_OUTSIDE_SO = frozenset(
    "\u203c\u2049\u2139\u2194\u25fb\u25fc\u25fd\u25fe\u2934\u2935\u3030\u303d"
)
SKIN_TONES = ("\U0001f3fb", "\U0001f3ff")  #: the emoji modifiers, first and last

#: The alphabets whose letters look alike: a name mixing two of them is refused.
LOOKALIKE_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC")

#: Letters that look like a Latin letter, as they are after ``casefold()``, and that letter.
#: A hand-picked subset of the confusables that Unicode Technical Standard #39 lists (Greek and
#: Cyrillic letters, a few Latin ones, two digits), not the whole list. Where the capital and
#: the small letter look like different Latin letters, the capital wins (Greek Ν is N, although
#: ν looks like v): names are written with capitals, and an all-capitals name is the look-alike
#: that needs no mixed alphabets ("ΑΝΝΑ" for "ANNA").
LOOKALIKES = {
    # Greek (capitals are folded to these small letters first)
    "α": "a",
    "β": "b",
    "ε": "e",
    "ζ": "z",
    "η": "h",
    "ι": "i",
    "κ": "k",
    "μ": "m",
    "ν": "n",
    "ο": "o",
    "ρ": "p",
    "τ": "t",
    "υ": "y",
    "χ": "x",
    "ϲ": "c",
    "ϳ": "j",
    # Cyrillic
    "а": "a",
    "в": "b",
    "е": "e",
    "к": "k",
    "м": "m",
    "н": "h",
    "о": "o",
    "р": "p",
    "с": "c",
    "т": "t",
    "у": "y",
    "х": "x",
    "і": "i",
    "ј": "j",
    "ѕ": "s",
    "ԁ": "d",
    "ѵ": "v",
    "һ": "h",
    "ԛ": "q",
    "ԝ": "w",
    "ӏ": "l",
    # Latin letters that look like other Latin letters
    "ɑ": "a",
    "ɡ": "g",
    "ı": "i",
    # digits that look like letters
    "0": "o",
    "1": "l",
}
#: Letter pairs that look like one letter, once the letters above are mapped.
LOOKALIKE_SEQUENCES = (("rn", "m"), ("vv", "w"))
#: Capital letters drawn as one upright stroke, like a small l in the pages' sans-serif fonts
#: (Latin I, Greek Iota, Cyrillic I and palochka): see :func:`glyph_key`.
CAPITAL_I_LOOKALIKES = frozenset("IΙІӀ")


# ----------------------------------------------------------------------------------------------
# Cleaning a name


def clean_name(raw: str) -> str:
    """The name as the table keeps it: Unicode NFC, no leading or trailing spaces, each inner run
    of spaces one space.

    Refused (:class:`SetupError`, saying why and, for a character, which one by its code point
    and where, never the character itself): an empty name, one longer than
    :data:`MAX_NAME_LENGTH`, one starting with "@" (the viewers that are not players, such as
    "@table"), one holding a character that must never be in a name (see
    :func:`_character_problem`) and one mixing Latin, Greek and Cyrillic letters.
    """
    if not isinstance(raw, str):
        raise SetupError(t("players must be a list of names"))
    if len(raw) > MAX_GIVEN_LENGTH:
        raise SetupError(_too_long())
    text = unicodedata.normalize("NFC", raw)
    for index in range(len(text)):
        problem = _character_problem(text, index)
        if problem is not None:
            raise SetupError(problem)
    name = " ".join(text.split())  # only spaces (Zs) are left to split on: the rest is refused
    if not name:
        raise SetupError(t("every player needs a name"))
    if len(name) > MAX_NAME_LENGTH:
        raise SetupError(_too_long())
    if unicodedata.normalize("NFKC", name).startswith("@"):  # "＠table" too
        raise SetupError(t("a player's name cannot start with '@'"))
    problem = _mixed_scripts(name)
    if problem is not None:
        raise SetupError(problem)
    return name


def _too_long() -> Text:
    return t("a player's name can have at most {limit} characters", limit=MAX_NAME_LENGTH)


def _character_problem(text: str, index: int) -> Text | None:
    """Why the character at ``index`` of ``text`` may not be in a name, or None when it may.

    Never in a name: control characters (Cc: NUL, ESC, TAB, CR, LF ...), line and paragraph
    separators (Zl, Zp), bidi controls and marks, format characters (Cf: zero-width space,
    byte-order mark, soft hyphen ...) and the few blank letters of :data:`INVISIBLE_CHARACTERS`,
    surrogates (Cs), private-use (Co) and unassigned (Cn) code points. The zero-width joiner and
    the variation selectors draw nothing either: they are allowed only where an emoji needs them
    (:func:`_inside_emoji`).
    """
    char = text[index]
    category = unicodedata.category(char)
    where = {"code": _describe(char), "position": index + 1}
    if category in ("Cc", "Zl", "Zp"):
        return t(
            "a player's name cannot contain a control character or a line break "
            "({code}, character {position})",
            **where,
        )
    if char in BIDI_CONTROLS:
        return t(
            "a player's name cannot contain a character that changes the writing "
            "direction ({code}, character {position})",
            **where,
        )
    if char == ZERO_WIDTH_JOINER or _is_variation_selector(char):
        if _inside_emoji(text, index):
            return None
        return t(
            "a player's name can have a joiner or a variation selector only inside an "
            "emoji ({code}, character {position})",
            **where,
        )
    if category == "Cf" or char in INVISIBLE_CHARACTERS:
        return t(
            "a player's name cannot contain an invisible character ({code}, character {position})",
            **where,
        )
    if category in ("Cs", "Co", "Cn"):
        return t(
            "a player's name cannot contain a character that not every phone can show "
            "({code}, character {position})",
            **where,
        )
    return None


def _describe(char: str) -> str:
    """A character as a message may show it: its code point and, when it has one, its Unicode
    name ("U+202E RIGHT-TO-LEFT OVERRIDE"); never the character itself, which may be invisible
    or reorder the message."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X} {name}" if name else f"U+{ord(char):04X}"


def _is_variation_selector(char: str) -> bool:
    return "\ufe00" <= char <= "\ufe0f" or "\U000e0100" <= char <= "\U000e01ef"


def _is_emoji(char: str) -> bool:
    """Whether ``char`` can be (part of) an emoji: an "other symbol" (So), a skin tone, or one
    of the few emoji filed elsewhere. Close enough for telling where a joiner may stand: the
    standard library has no emoji property."""
    if not char or char in INVISIBLE_CHARACTERS:
        return False
    return (
        unicodedata.category(char) == "So"
        or char in EMOJI_OUTSIDE_SO
        or SKIN_TONES[0] <= char <= SKIN_TONES[1]
    )


def _inside_emoji(text: str, index: int) -> bool:
    """Whether the joiner or variation selector at ``index`` is part of an emoji sequence: a
    joiner between two emoji ("👩‍💻", "🏳️‍🌈": an emoji style selector may come before it), the
    text or emoji style selector right after an emoji ("❤️") or in a keycap ("1️⃣"). Every
    other variation selector, and any of them after a letter, is refused."""
    char = text[index]
    before = text[index - 1] if index > 0 else ""
    after = text[index + 1] if index + 1 < len(text) else ""
    if char == ZERO_WIDTH_JOINER:
        return (_is_emoji(before) or before == EMOJI_STYLE) and _is_emoji(after)
    if char in (TEXT_STYLE, EMOJI_STYLE):
        return _is_emoji(before) or (before in KEYCAP_BASES and after == KEYCAP)
    return False


def _script(char: str) -> str | None:
    """The look-alike alphabet (:data:`LOOKALIKE_SCRIPTS`) of a letter, from its Unicode name
    ("GREEK CAPITAL LETTER ALPHA") or from its compatibility form's ("FULLWIDTH LATIN CAPITAL
    LETTER A" is A); None for anything else (other scripts, digits, marks, symbols)."""
    if not unicodedata.category(char).startswith("L"):
        return None
    for form in (char, unicodedata.normalize("NFKD", char)[0]):
        script = unicodedata.name(form, "").split(" ", 1)[0]
        if script in LOOKALIKE_SCRIPTS:
            return script
    return None


def _mixed_scripts(name: str) -> Text | None:
    """Why ``name`` cannot be a name when it mixes letters of two look-alike alphabets ("Αnna",
    a Greek Alpha and Latin letters: it reads as "Anna"), pointing at the first letter of the
    alphabet with fewer letters in it; None when its letters are of one of them, or of others."""
    counts: dict[str, int] = {}
    first: dict[str, int] = {}
    for index, char in enumerate(name):
        script = _script(char)
        if script is not None:
            counts[script] = counts.get(script, 0) + 1
            first.setdefault(script, index)
    if len(counts) < 2:
        return None
    odd = min(counts, key=lambda script: (counts[script], -first[script]))
    return t(
        "a player's name cannot mix Latin, Greek or Cyrillic letters, which look alike "
        "({code}, character {position})",
        code=_describe(name[first[odd]]),
        position=first[odd] + 1,
    )


# ----------------------------------------------------------------------------------------------
# Comparing names


def name_key(name: str) -> str:
    """A key that two names share when a reader could take one for the other, whatever their
    case: "Anna", "anna", "ANNA", "Ánna", "An na", "Anna.", "ΑΝΝΑ" (Greek) share "anna".

    Made in order: compatibility decomposition (NFKD: "ﬁ" is "fi", "Ａ" is "A"), ``casefold()``,
    the accents on Latin, Greek and Cyrillic letters dropped (the marks of other scripts stay:
    in "が" or "कु" they make another letter, not an accent), only letters, digits and
    emoji kept (spaces, punctuation, the joiner and the variation selectors are not read),
    :data:`LOOKALIKES` mapped and :data:`LOOKALIKE_SEQUENCES` joined ("rn" is "m").

    Case is folded first, so the key cannot tell a capital I from a small i: it keeps i and l
    apart (else Elia and Ella would be one name) and :func:`glyph_key` reads the capital I.
    """
    return _key(name, capital_i_as_l=False)


def glyph_key(name: str) -> str:
    """:func:`name_key` with a capital I read as a small l, as the pages' sans-serif fonts draw
    them, and a capital L left capital: "AI" and "Al", "Ian" and "lan" share it, "Ian" and "Lan"
    do not. Two names look alike when either key is the same."""
    return _key(name, capital_i_as_l=True)


def _key(name: str, capital_i_as_l: bool) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    folded = unicodedata.normalize(
        "NFKD", "".join(_fold(char, capital_i_as_l) for char in decomposed)
    )
    kept = []
    marks_are_letters = False  # whether the last base character is a letter of another script
    for char in folded:
        category = unicodedata.category(char)
        if category.startswith("M"):
            if marks_are_letters and not _is_variation_selector(char):
                kept.append(char)
            continue
        marks_are_letters = category.startswith("L") and _script(char) is None
        if category[0] in "LN" or category == "So":
            kept.append(LOOKALIKES.get(char, char))
    key = "".join(kept)
    for sequence, letter in LOOKALIKE_SEQUENCES:
        key = key.replace(sequence, letter)
    return key


def _fold(char: str, capital_i_as_l: bool) -> str:
    if capital_i_as_l:
        if char in CAPITAL_I_LOOKALIKES:
            return "l"
        if char == "L":
            return "L"
    return char.casefold()
