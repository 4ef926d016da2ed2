"""What the MicroPython subset check knows (``test_micropython_subset.py`` explains each rule):
the modules, module attributes, builtins and methods MicroPython has or lacks, the problem the
checker reports, and the reading of f-strings' text, which the syntax tree does not keep
(``mpy_subset_checker.py`` uses them)."""

from __future__ import annotations

import builtins
from typing import NamedTuple

ALLOWED_IMPORTS = frozenset(
    {"math", "micropython", "machine", "sys", "select", "time", "gc", "companion_dice"}
)

# Attributes of the allowed modules on MicroPython's rp2 port (py/mpconfig.h at
# EXTRA_FEATURES plus ports/rp2/mpconfigport.h). ``machine`` is the board's and not checked.
MODULE_ATTRIBUTES = {
    "math": frozenset(
        "acos acosh asin asinh atan atan2 atanh ceil copysign cos cosh degrees e erf erfc exp "
        "expm1 fabs factorial floor fmod frexp gamma inf isclose isfinite isinf isnan ldexp "
        "lgamma log log10 log2 modf nan pi pow radians sin sinh sqrt tan tanh tau trunc".split()
    ),
    "time": frozenset(
        "gmtime localtime mktime sleep sleep_ms sleep_us ticks_add ticks_cpu ticks_diff ticks_ms "
        "ticks_us time time_ns".split()
    ),
    "sys": frozenset(
        "argv byteorder exit implementation maxsize modules path platform print_exception ps1 "
        "ps2 stderr stdin stdout version version_info".split()
    ),
    "gc": frozenset("collect disable enable isenabled mem_alloc mem_free threshold".split()),
    "select": frozenset("POLLERR POLLHUP POLLIN POLLOUT poll select".split()),
    "micropython": frozenset(
        "RingIO alloc_emergency_exception_buf const heap_lock heap_unlock kbd_intr mem_info "
        "opt_level qstr_info schedule stack_use native viper asm_thumb".split()
    ),
}

# CPython builtins that MicroPython does not have.
MISSING_BUILTINS = frozenset(
    "BaseExceptionGroup BlockingIOError BrokenPipeError BufferError BytesWarning "
    "ChildProcessError ConnectionAbortedError ConnectionError ConnectionRefusedError "
    "ConnectionResetError DeprecationWarning EncodingWarning EnvironmentError ExceptionGroup "
    "FileExistsError FileNotFoundError FloatingPointError FutureWarning IOError ImportWarning "
    "InterruptedError IsADirectoryError ModuleNotFoundError NotADirectoryError "
    "PendingDeprecationWarning PermissionError ProcessLookupError RecursionError ReferenceError "
    "ResourceWarning RuntimeWarning SyntaxWarning SystemError TabError TimeoutError "
    "UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeTranslateError "
    "UnicodeWarning UserWarning Warning aiter anext ascii breakpoint copyright credits exit "
    "format license quit vars".split()
)

# Methods of str, bytes, int, float and memoryview that MicroPython lacks, matched by name
# whatever the object (these names mean nothing else in the firmware). bytearray also lacks
# clear, copy, pop, insert, remove and reverse, but lists have those, so no name check can tell.
MISSING_METHODS = {
    "capitalize": "str",
    "casefold": "str",
    "expandtabs": "str",
    "format_map": "str",
    "isalnum": "str",
    "isascii": "str",
    "isdecimal": "str",
    "isidentifier": "str",
    "isnumeric": "str",
    "isprintable": "str",
    "istitle": "str",
    "ljust": "str",
    "maketrans": "str",
    "removeprefix": "str",
    "removesuffix": "str",
    "rjust": "str",
    "swapcase": "str",
    "title": "str",
    "translate": "str/bytes",
    "zfill": "str",
    "bit_length": "int",
    "bit_count": "int",
    "as_integer_ratio": "int/float",
    "conjugate": "int/float",
    "is_integer": "float",
    "tobytes": "memoryview",
    "tolist": "memoryview",
    "cast": "memoryview",
}

# Builtins and methods whose MicroPython versions take no (or only these) keyword arguments,
# while CPython's take more. Methods are matched by name.
NO_KEYWORDS_BUILTINS = {
    "print": frozenset({"sep", "end", "file"}),
    "int": frozenset(),
    "round": frozenset(),
    "zip": frozenset(),
    "sum": frozenset(),
    "str": frozenset(),
    "bytes": frozenset(),
    "bytearray": frozenset(),
}
NO_KEYWORDS_METHODS = frozenset({"split", "rsplit", "decode", "encode", "hex", "from_bytes"})
ENCODINGS = frozenset({"utf-8", "utf8", "ascii"})

EXCEPTION_CLASSES = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
)

PROBING_HANDLERS = frozenset({"AttributeError", "NameError"})


class Problem(NamedTuple):
    path: str
    line: int
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.rule}: {self.message}"


# -- f-strings: the tree keeps neither ``{x=}`` nor how literals were glued, so read the text --

_PREFIX = "rRbBuUfFtT"


def _string_end(text: str, i: int) -> int:
    """Index just past the string literal (with its prefix) that starts at ``i``."""
    j = i
    while j < len(text) and text[j] in _PREFIX:
        j += 1
    prefix = text[i:j].lower()
    quote = text[j] * 3 if text.startswith(text[j] * 3, j) else text[j]
    k = j + len(quote)
    while k < len(text):
        if text.startswith(quote, k):
            return k + len(quote)
        if text[k] == "\\" and "r" not in prefix:
            k += 2
            continue
        if text[k] == "{" and "f" in prefix:
            if text.startswith("{{", k):
                k += 2
                continue
            k = _field_end(text, k + 1, [])
            continue
        k += 1
    return k


def _field_end(text: str, i: int, debug: list[int]) -> int:
    """Index just past the replacement field whose ``{`` ends at ``i``; notes ``=`` fields."""
    depth = 0
    while i < len(text):
        c = text[i]
        if c in "'\"" or (c in _PREFIX and _starts_string(text, i)):
            i = _string_end(text, i)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "}":
            if depth == 0:
                return i + 1
            depth -= 1
        elif depth == 0 and c == "=" and text[i - 1] not in "=!<>" and text[i + 1 : i + 2] != "=":
            debug.append(i)
        elif depth == 0 and (c == ":" or (c == "!" and text[i + 1 : i + 2] != "=")):
            return _spec_end(text, i + 1, debug)
        i += 1
    return i


def _spec_end(text: str, i: int, debug: list[int]) -> int:
    """Index just past the ``}`` closing a conversion and format spec (which may nest fields)."""
    while i < len(text):
        if text[i] == "}":
            return i + 1
        if text[i] == "{":
            i = _field_end(text, i + 1, debug)
            continue
        i += 1
    return i


def _starts_string(text: str, i: int) -> bool:
    """Is ``i`` the start of a prefixed literal such as ``f"``, not of a name like ``fx``?"""
    if i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_"):
        return False
    j = i
    while j < len(text) and text[j] in _PREFIX and j - i < 3:
        j += 1
    return j < len(text) and text[j] in "'\""


def fstring_findings(segment: str) -> tuple[list[int], bool]:
    """For the source text of one (maybe implicitly concatenated) f-string: the offsets of
    debug ``=`` signs, and whether a plain piece holding a brace is glued to it."""
    debug: list[int] = []
    plain_brace = False
    i = 0
    while i < len(segment):
        c = segment[i]
        if c == "#":
            newline = segment.find("\n", i)
            i = len(segment) if newline < 0 else newline
        elif c in "'\"" or (c in _PREFIX and _starts_string(segment, i)):
            j = i
            while segment[j] in _PREFIX:
                j += 1
            prefix = segment[i:j].lower()
            end = _string_end(segment, i)
            if "f" in prefix:
                quote = segment[j] * 3 if segment.startswith(segment[j] * 3, j) else segment[j]
                k = j + len(quote)
                while k < end - len(quote):
                    if (segment[k] == "\\" and "r" not in prefix) or segment.startswith("{{", k):
                        k += 2
                    elif segment[k] == "{":
                        k = _field_end(segment, k + 1, debug)
                    else:
                        k += 1
            elif "{" in segment[i:end] or "}" in segment[i:end]:
                plain_brace = True
            i = end
        else:
            i += 1
    return debug, plain_brace
