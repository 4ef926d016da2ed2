"""The dice reader firmware stays inside the Python that MicroPython runs.

``firmware/companion_dice/`` and ``firmware/main.py`` run unchanged on the reader's RP2040 under
MicroPython and on the host under CPython. This test reads their source with ``ast`` (and, for
what the syntax tree does not keep, ``tokenize`` and the raw text) and fails, naming file, line
and construct, on anything the firmware rule forbids or MicroPython does not run. Every rule has
a small example below that proves the checker catches it, and a list of ordinary code that it
must leave alone.

The rules, and why each is there:

* **The firmware rule** (a project decision, even where MicroPython would cope): no
  ``from __future__``; imports only of ``math``, ``micropython``, ``machine``, ``sys``,
  ``select``, ``time``, ``gc`` and ``companion_dice`` (relative imports only inside the
  package); no annotations (arguments, returns, annotated assignments); no ``:=``; no
  ``dataclass``.
* **Syntax MicroPython rejects**: ``match``; ``except*``; positional-only parameters
  (``def f(a, /)``); unpacking inside a display (``[*a, 1]``, ``{**d}``); keyword arguments in a
  class statement (``class A(metaclass=M)``); ``\\N{...}`` escapes; a number glued to a name
  (``1if x else 2``); a ``*args`` after a keyword argument; f-strings that use ``!a``, are glued
  to a plain literal that holds a brace, or are nested (accepted only from MicroPython 1.28); the
  f-string debug form ``{x=}`` (MicroPython prints ``str(x)`` where CPython prints ``repr(x)``,
  and ``{x = }`` with spaces is a SyntaxError).
* **Names MicroPython lacks** (its rp2 port is built at the EXTRA_FEATURES level, like the
  unix port's standard variant this list was taken from): the builtins and exception classes in
  ``MISSING_BUILTINS`` (``format``, ``ascii``, ``vars``, ``UnicodeDecodeError``, ``TimeoutError``
  ...; MicroPython raises a plain ``UnicodeError`` where CPython raises ``UnicodeDecodeError``),
  the methods in ``MISSING_METHODS`` (``str.translate``, ``str.zfill``, ``str.ljust``,
  ``int.bit_length`` ...), and module attributes outside ``MODULE_ATTRIBUTES`` (``math.isqrt``,
  ``time.monotonic``, ``sys.getsizeof`` ...).
* **Calls MicroPython's builtins refuse**: keyword arguments to the builtins and methods in
  ``NO_KEYWORDS_BUILTINS`` and ``NO_KEYWORDS_METHODS`` (``line.split(maxsplit=1)``,
  ``data.decode(errors=...)``, ``int(s, base=16)``, ``print(..., flush=True)``); encodings
  other than ``utf-8``/``utf8``/``ascii`` (``"UTF-8"`` and ``"latin-1"`` raise LookupError);
  ``rsplit(None, n)``; two-argument ``iter``; ``Exception.__init__(self, ...)`` (use
  ``super().__init__``); attributes set on a function; ``"{0.x}".format`` and
  ``"{0[1]}".format``; set operators on ``dict.keys()``/``items()``.
* **Slices MicroPython does not implement**: a step other than 1 (``s[::-1]`` fails on str,
  bytes and tuple) and deleting a slice (``del buf[:n]`` fails on bytearray; use
  ``buf = buf[n:]``). These two are judged without knowing the type, so a list would be flagged
  too; the portable spelling works for every type.

Not checked here (no syntax shows them): dicts and ``**kwargs`` do not keep insertion order in
MicroPython, ``isinstance(True, int)`` is False, floats are single precision on the RP2040,
``round()`` and float formatting can differ in the last digit (``"%.1f" % 2.25``), exception
messages differ.
``test_micropython_run.py`` runs the firmware under a real MicroPython to catch those.

A check that reads a name (a missing method, builtin or module attribute) is skipped in a
``try`` (body and handlers) that catches ``AttributeError`` or ``NameError``: that is how
portable code probes for a feature, one branch for each Python. Methods and functions the
firmware defines itself, and names bound by its imports, are never taken for builtin ones.

The lists were checked against MicroPython v1.29-preview's unix port (standard variant) and its
rp2 port's configuration: there, every example in ``CAUGHT`` outside the firmware rule raises an
error or prints something else than CPython, except the nested f-string (refused by releases
before 1.28 only) and the debug forms that happen to print alike (``{x=!s}``, ``{x=:>4}``).

The checker is in ``mpy_subset_checker.py``, the lists it reads in ``mpy_subset_rules.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mpy_subset_checker import PACKAGE, ROOT, check_files, check_source, firmware_files

RUNNER = Path(__file__).resolve().parent / "mpy_runner.py"


# -- the firmware -----------------------------------------------------------------------------


def test_the_firmware_package_is_there() -> None:
    assert (PACKAGE / "__init__.py").exists()
    assert len(firmware_files()) >= 2


@pytest.mark.parametrize(
    "path", firmware_files() + [RUNNER], ids=lambda p: p.relative_to(ROOT).as_posix()
)
def test_firmware_stays_in_the_micropython_subset(path: Path) -> None:
    # every firmware file is read, so names defined in one are known in the others
    problems = [
        p
        for p in check_files(firmware_files() + [RUNNER])
        if p.path == path.relative_to(ROOT).as_posix()
    ]
    assert not problems, "not MicroPython-safe:\n" + "\n".join(map(str, problems))


# -- the checker catches each construct -------------------------------------------------------

CAUGHT = {
    "future-import/basic": "from __future__ import annotations\n",
    "import/basic": "import re\n",
    "import/from": "from collections import OrderedDict\n",
    "import/typing": "from typing import Any\n",
    "import/enum": "import enum\n",
    "import/abc": "from abc import ABC\n",
    "import/struct": "import struct\n",
    "relative-import/in-main": "from . import protocol\n",
    "annotation/argument": "def f(x: int):\n    return x\n",
    "annotation/kwonly": "def f(*, x: int = 1):\n    return x\n",
    "annotation/varargs": "def f(*args: int, **kw: str):\n    pass\n",
    "annotation/return": "def f(x) -> int:\n    return x\n",
    "annotation/assignment": "x: int = 1\n",
    "annotation/bare": "class A:\n    x: int\n",
    "walrus/basic": "if (n := 3) > 2:\n    pass\n",
    "walrus/comprehension": "y = [z for x in range(3) if (z := x)]\n",
    "match/basic": "match x:\n    case 1:\n        pass\n",
    "except-star/basic": "try:\n    pass\nexcept* ValueError:\n    pass\n",
    "positional-only/basic": "def f(a, /, b):\n    pass\n",
    "fstring-debug/basic": "x = 1\ns = f'{x=}'\n",
    "fstring-debug/spaces": "x = 1\ns = f'{x = }'\n",
    "fstring-debug/spec": "x = 1\ns = f'value {x + 1=:>4}'\n",
    "fstring-debug/conversion": "x = 1\ns = f'{x=!s}'\n",
    "fstring-debug/later-line": "x = 1\ns = (f'a'\n     f'{x=}')\n",
    "fstring-ascii/basic": "x = 1\ns = f'{x!a}'\n",
    "fstring-nested/basic": "x = 1\ns = f'{f\"{x}\"}'\n",
    "fstring-concat/basic": "x = 1\ns = 'a{}' f'{x}'\n",
    "dataclass/decorator": "@dataclass\nclass A:\n    pass\n",
    "dataclass/attribute": "import dataclasses\n@dataclasses.dataclass\nclass A:\n    pass\n",
    "missing-method/bytes-translate": "y = b'ab'.translate(None, b'a')\n",
    "missing-method/str-translate": "y = 'ab'.translate({97: None})\n",
    "missing-method/str-maketrans": "t = str.maketrans('a', 'b')\n",
    "missing-method/str-format-map": "y = '{a}'.format_map({'a': 1})\n",
    "missing-method/str-casefold": "y = 'A'.casefold()\n",
    "missing-method/str-removeprefix": "y = line.removeprefix('x')\n",
    "missing-method/str-removesuffix": "y = line.removesuffix('x')\n",
    "missing-method/str-zfill": "y = hex(5)[2:].zfill(2)\n",
    "missing-method/str-ljust": "y = 'a'.ljust(3)\n",
    "missing-method/str-rjust": "y = 'a'.rjust(3)\n",
    "missing-method/str-isalnum": "y = key.isalnum()\n",
    "missing-method/str-isascii": "y = key.isascii()\n",
    "missing-method/str-isprintable": "y = key.isprintable()\n",
    "missing-method/str-isdecimal": "y = key.isdecimal()\n",
    "missing-method/str-title": "y = name.title()\n",
    "missing-method/int-bit-count": "y = (5).bit_count()\n",
    "missing-method/int-bit-length": "y = n.bit_length()\n",
    "missing-method/float-is-integer": "y = (1.0).is_integer()\n",
    "module-attribute/math-isqrt": "import math\ny = math.isqrt(10)\n",
    "module-attribute/math-prod": "import math\ny = math.prod([1, 2])\n",
    "module-attribute/math-hypot-alias": "import math as m\ny = m.hypot(3, 4)\n",
    "module-attribute/from-math-isqrt": "from math import isqrt\n",
    "module-attribute/time-monotonic": "import time\nt = time.monotonic()\n",
    "module-attribute/time-perf-counter": "import time\nt = time.perf_counter()\n",
    "module-attribute/time-imported-later": (
        "def now():\n    return time.monotonic()\n\nimport time\n"
    ),
    "module-attribute/sys-getsizeof": "import sys\nn = sys.getsizeof(1)\n",
    "missing-builtin/format": "s = format(5, '02X')\n",
    "missing-builtin/ascii": "s = ascii('a')\n",
    "missing-builtin/vars": "d = vars(x)\n",
    "missing-builtin/unicode-decode-error": (
        "try:\n    b'a'.decode()\nexcept UnicodeDecodeError:\n    pass\n"
    ),
    "missing-builtin/timeout-error": "raise TimeoutError()\n",
    "keyword-arguments/split-maxsplit": "a = line.split(maxsplit=1)\n",
    "keyword-arguments/rsplit-maxsplit": "a = line.rsplit(' ', maxsplit=1)\n",
    "keyword-arguments/decode-errors": "s = data.decode('ascii', errors='replace')\n",
    "keyword-arguments/encode": "b = s.encode(encoding='ascii')\n",
    "keyword-arguments/from-bytes-signed": "n = int.from_bytes(b, 'little', signed=True)\n",
    "keyword-arguments/int-base": "n = int(s, base=16)\n",
    "keyword-arguments/round-ndigits": "n = round(x, ndigits=2)\n",
    "keyword-arguments/print-flush": "print('x', flush=True)\n",
    "keyword-arguments/zip-strict": "z = zip(a, b, strict=True)\n",
    "keyword-arguments/sum-start": "n = sum(a, start=1)\n",
    "keyword-arguments/str-encoding": "s = str(b, encoding='ascii')\n",
    "encoding/upper": "s = data.decode('UTF-8')\n",
    "encoding/latin1": "b = s.encode('latin-1')\n",
    "encoding/str": "s = str(b, 'latin-1')\n",
    "rsplit-none/basic": "a = line.rsplit(None, 1)\n",
    "iter-sentinel/basic": "for x in iter(read, b''):\n    pass\n",
    "exception-init/basic": (
        "class E(ValueError):\n    def __init__(self, m):\n        ValueError.__init__(self, m)\n"
    ),
    "function-attribute/basic": "def f():\n    pass\nf.calls = 0\n",
    "format-field/attribute": "s = '{0.x}'.format(p)\n",
    "format-field/index": "s = '{0[1]}'.format(p)\n",
    "dict-view-setop/basic": "s = d.keys() & {1}\n",
    "dict-view-setop/right": "s = {1} - d.items()\n",
    "display-unpacking/list": "a = [*b, 1]\n",
    "display-unpacking/tuple": "a = (*b, 1)\n",
    "display-unpacking/set": "a = {*b}\n",
    "display-unpacking/dict": "a = {**b, 'c': 1}\n",
    "class-keywords/basic": "class A(B, metaclass=M):\n    pass\n",
    "slice-step/reverse": "s = line[::-1]\n",
    "slice-step/basic": "s = line[1:9:2]\n",
    "slice-deletion/basic": "del buf[:n]\n",
    "star-after-keyword/basic": "f(a=1, *rest)\n",
    "number-spacing/basic": "y = 1if x else 2\n",
    "name-escape/basic": "s = '\\N{BULLET}'\n",
}


@pytest.mark.parametrize("construct", sorted(CAUGHT))
def test_the_checker_catches(construct: str) -> None:
    """``construct`` is "rule/example": the rule that must name the example's problem."""
    source = CAUGHT[construct]
    problems = check_source(source, "example.py", in_package=not construct.endswith("in-main"))
    rule = construct.split("/")[0]
    assert rule in [p.rule for p in problems], f"{construct} not caught in:\n{source}"
    for problem in problems:
        assert 1 <= problem.line <= source.count("\n")
        assert str(problem).startswith(f"example.py:{problem.line}: ")


def test_a_problem_names_file_line_and_construct() -> None:
    source = "import math\n\n\ndef f(x):\n    return math.isqrt(x)\n"
    assert [str(p) for p in check_source(source, "firmware/x.py")] == [
        "firmware/x.py:5: module-attribute: math.isqrt does not exist in MicroPython"
    ]


def test_the_debug_specifier_is_found_on_its_own_line() -> None:
    source = "x = 1\ns = (f'a {x}'\n     'b'\n     f'c {x=}')\n"
    assert [(p.line, p.rule) for p in check_source(source)] == [(4, "fstring-debug")]


ALLOWED = """\
import math
import sys
import time
import gc
import micropython
import machine
import select
import companion_dice
import companion_dice.protocol
from companion_dice import protocol
from companion_dice.profiles import Profile
from micropython import const
from math import sqrt, atan2
from . import sensing

_X = const(3)


class Reader(object):
    def __init__(self, dice=2, *, board="pico", leds=(True, True), **extra):
        self.title = "reader"
        self.buf = bytearray()
        self.fields = {"die": 0}

    def line(self, die, face, msg="a=b"):
        t = time.ticks_ms()
        d = time.ticks_diff(t, 0)
        text = f"die={die} face={face} {msg!r} {die:02d} {face:>{die}} {'x' if die else 'y'}"
        text += f"{die == face} {die != face} {die <= face} {(lambda a=1: a)()} {dict(a=1)}"
        word = "{} {:02X} {name}".format(die, face, name=msg)
        other = "%s=%d" % ("die", die) + "%(a)s" % {"a": 1}
        head, sep, tail = text.partition(" ")
        parts = text.split(" ", 1) + text.rsplit(" ", 1) + text.split()
        data = text.encode() + text.encode("ascii") + bytes(text, "utf-8")
        back = data.decode("utf-8") + str(data, "ascii")
        n = int("ff", 16) + round(2.5) + int.from_bytes(b"\\x01", "big")
        b = n.to_bytes(2, "big", signed=True)
        del self.fields["die"]
        del parts[0]
        self.buf = self.buf[3:]
        self.buf[:1] = b""
        a, *rest = parts
        x = parts[1:3] + parts[:1] + parts[::1]
        r = sqrt(4) + math.atan2(1, 2) + math.floor(1.5) + math.sqrt(2)
        y = sorted(parts, key=len, reverse=True) + [max(parts, key=len, default="")]
        z = list(d.keys()) + [k for k in self.fields.items()]
        print(text, end="", sep=" ", file=sys.stdout)
        sys.stdout.write(text)
        gc.collect()
        s = set(self.fields) & {1}
        self.title.upper()
        f(1, *parts, key=1)
        return protocol.encode("ROLL", 0, die=die, face=face)

    def format(self, x):
        return self.format(x)


def format_map(x):
    return x


try:
    ticks = time.ticks_ms
except AttributeError:
    ticks = time.monotonic

try:
    count = (5).bit_count()
except AttributeError:
    count = 0

u = format_map(1) + Reader().format_map
v = "a" f"{u}" "b"
"""


def test_the_checker_leaves_ordinary_code_alone() -> None:
    problems = check_source(ALLOWED, "example.py")
    assert not problems, "\n".join(map(str, problems))


def test_relative_imports_are_refused_only_outside_the_package() -> None:
    assert not check_source("from . import protocol\n", in_package=True)
    assert [p.rule for p in check_source("from . import protocol\n", in_package=False)] == [
        "relative-import"
    ]


def test_names_the_firmware_defines_elsewhere_are_not_taken_for_builtins() -> None:
    source = "def f(p):\n    return p.title()\n"
    assert [p.rule for p in check_source(source)] == ["missing-method"]
    assert not check_source(source, defined={"title"})
