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
"""

from __future__ import annotations

import ast
import builtins
import io
import itertools
import string
import tokenize
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
PACKAGE = FIRMWARE / "companion_dice"
RUNNER = Path(__file__).resolve().parent / "mpy_runner.py"

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


# -- the checker ------------------------------------------------------------------------------


def defined_names(tree: ast.AST) -> set[str]:
    """Functions, methods, classes and attributes a module defines: never taken for builtins."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
    return names


def _bound_names(tree: ast.AST) -> set[str]:
    """Every name a module binds anywhere (so a local ``format`` is not the builtin)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(node.names)
    return names


def _handler_names(handler: ast.ExceptHandler) -> set[str]:
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return {kind.id for kind in kinds if isinstance(kind, ast.Name)}


def _constant_str(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


class _Checker(ast.NodeVisitor):
    def __init__(self, path: str, source: str, in_package: bool, defined: set[str]):
        self.path = path
        self.source = source
        self.in_package = in_package
        self.problems: list[Problem] = []
        self.modules: dict[str, str] = {}  # local alias -> allowed module it names
        self.defined = set(defined)
        self.bound: set[str] = set()
        self.functions: set[str] = set()
        self.probing = 0  # depth of try bodies that catch AttributeError
        self.inner: set[int] = set()  # ids of f-strings inside f-strings
        self.imported: set[str] = set()  # names bound by imports: modules, not objects

    def add(self, node: ast.AST | int, rule: str, message: str) -> None:
        line = node if isinstance(node, int) else node.lineno
        self.problems.append(Problem(self.path, line, rule, message))

    def run(self, tree: ast.Module) -> list[Problem]:
        self.defined |= defined_names(tree)
        self.bound = _bound_names(tree)
        self.functions = {
            node.name
            for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        }
        self.imported = {
            (alias.asname or alias.name).split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, (ast.Import, ast.ImportFrom))
            for alias in node.names
        }
        # an import anywhere in the file (main.py imports the board's modules in main())
        self.modules = {
            alias.asname or alias.name: alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.Import)
            for alias in node.names
            if alias.name in MODULE_ATTRIBUTES
        }
        self.visit(tree)
        self._tokens()
        return sorted(self.problems, key=lambda p: (p.line, p.rule))

    # imports
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            top = alias.name.split(".")[0]
            if top not in ALLOWED_IMPORTS:
                self.add(
                    node,
                    "import",
                    f"import of {alias.name!r} (allowed: {', '.join(sorted(ALLOWED_IMPORTS))})",
                )
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if module == "__future__":
            self.add(node, "future-import", "from __future__ import ...")
        elif node.level:
            if not self.in_package:
                self.add(node, "relative-import", "relative import outside companion_dice")
        elif module.split(".")[0] not in ALLOWED_IMPORTS:
            self.add(
                node,
                "import",
                f"import from {module!r} (allowed: {', '.join(sorted(ALLOWED_IMPORTS))})",
            )
        elif module in MODULE_ATTRIBUTES and not self.probing:
            for alias in node.names:
                if alias.name != "*" and alias.name not in MODULE_ATTRIBUTES[module]:
                    self.add(
                        node,
                        "module-attribute",
                        f"{module}.{alias.name} does not exist in MicroPython",
                    )
        self.generic_visit(node)

    # syntax
    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        args = node.args
        if args.posonlyargs:
            self.add(node, "positional-only", "positional-only parameters (/)")
        if not isinstance(node, ast.Lambda):
            every = args.posonlyargs + args.args + args.kwonlyargs
            every += [a for a in (args.vararg, args.kwarg) if a]
            for arg in every:
                if arg.annotation is not None:
                    self.add(arg, "annotation", f"annotation on parameter {arg.arg!r}")
            if node.returns is not None:
                self.add(node, "annotation", f"return annotation on {node.name!r}")
        self.generic_visit(node)

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self.add(node, "annotation", "annotated assignment")
        self.generic_visit(node)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.add(node, "walrus", "assignment expression (:=)")
        self.generic_visit(node)

    def visit_Match(self, node: ast.AST) -> None:
        self.add(node, "match", "match statement")
        self.generic_visit(node)

    def visit_TryStar(self, node: ast.AST) -> None:
        self.add(node, "except-star", "except* (exception groups)")
        self._try(node)

    def visit_Try(self, node: ast.Try) -> None:
        self._try(node)

    def _try(self, node: ast.Try) -> None:
        # a probe: one branch runs on MicroPython, the other on CPython
        probing = any(_handler_names(h) & PROBING_HANDLERS for h in node.handlers if h.type)
        self.probing += probing
        for part in (*node.body, *node.handlers):
            self.visit(part)
        self.probing -= probing
        for part in (*node.orelse, *node.finalbody):
            self.visit(part)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        if node.keywords:
            self.add(node, "class-keywords", "keyword arguments in a class statement")
        self.generic_visit(node)

    def _display(self, node: ast.List | ast.Tuple | ast.Set) -> None:
        loading = isinstance(getattr(node, "ctx", ast.Load()), ast.Load)
        if loading and any(isinstance(e, ast.Starred) for e in node.elts):
            self.add(node, "display-unpacking", "*unpacking inside a list/tuple/set display")
        self.generic_visit(node)

    visit_List = visit_Tuple = visit_Set = _display

    def visit_Dict(self, node: ast.Dict) -> None:
        if any(key is None for key in node.keys):
            self.add(node, "display-unpacking", "**unpacking inside a dict display")
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        step = node.slice.step if isinstance(node.slice, ast.Slice) else None
        if step is not None and not (isinstance(step, ast.Constant) and step.value == 1):
            self.add(
                node,
                "slice-step",
                "slice with a step (not implemented for str, bytes, "
                "tuple; use reversed() or a loop)",
            )
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Slice):
                self.add(
                    target,
                    "slice-deletion",
                    "del of a slice (bytearray has no item deletion; use buf = buf[n:])",
                )
        self.generic_visit(node)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        for value in node.values:
            # format specs and nested f-strings: their positions are not reliable before 3.12
            if isinstance(value, ast.FormattedValue):
                self.inner.update(id(n) for n in ast.walk(value) if isinstance(n, ast.JoinedStr))
        segment = None if id(node) in self.inner else ast.get_source_segment(self.source, node)
        if segment is not None:
            debug, plain_brace = fstring_findings(segment)
            for offset in debug:
                self.add(
                    node.lineno + segment.count("\n", 0, offset),
                    "fstring-debug",
                    "f-string debug specifier {expr=}",
                )
            if plain_brace:
                self.add(node, "fstring-concat", "f-string glued to a literal that holds a brace")
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                if value.conversion == ord("a"):
                    self.add(node, "fstring-ascii", "f-string !a conversion")
                if any(isinstance(n, ast.JoinedStr) for n in ast.walk(value.value)):
                    self.add(node, "fstring-nested", "f-string nested in an f-string")
        self.generic_visit(node)

    # names
    def visit_Name(self, node: ast.Name) -> None:
        if node.id in {"dataclass", "dataclasses"}:
            self.add(node, "dataclass", "dataclass")
        elif (
            isinstance(node.ctx, ast.Load)
            and node.id in MISSING_BUILTINS
            and node.id not in self.bound
            and not self.probing
        ):
            self.add(node, "missing-builtin", f"builtin {node.id!r} does not exist in MicroPython")

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr in {"dataclass", "dataclasses"}:
            self.add(node, "dataclass", "dataclass")
        receiver = node.value.id if isinstance(node.value, ast.Name) else None
        if receiver in self.modules:
            module = self.modules[receiver]
            if node.attr not in MODULE_ATTRIBUTES[module] and not self.probing:
                self.add(
                    node, "module-attribute", f"{module}.{node.attr} does not exist in MicroPython"
                )
        elif (
            node.attr in MISSING_METHODS
            and node.attr not in self.defined
            and receiver not in self.imported
            and receiver not in {"self", "cls"}
            and not self.probing
        ):
            self.add(
                node,
                "missing-method",
                f"{MISSING_METHODS[node.attr]}.{node.attr} does not exist in MicroPython",
            )
        if (
            isinstance(node.ctx, ast.Store)
            and receiver in self.functions
            and receiver not in self.modules
        ):
            self.add(node, "function-attribute", f"attribute set on function {receiver!r}")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        keywords = [k.arg for k in node.keywords if k.arg is not None]
        name = method = None
        if isinstance(func, ast.Name) and func.id not in self.bound:
            name = func.id
        elif isinstance(func, ast.Attribute):
            receiver = func.value.id if isinstance(func.value, ast.Name) else None
            if (
                func.attr not in self.defined
                and receiver not in self.imported
                and receiver not in {"self", "cls"}
            ):
                method = func.attr
        if name in NO_KEYWORDS_BUILTINS:
            refused = [k for k in keywords if k not in NO_KEYWORDS_BUILTINS[name]]
            if refused:
                self.add(
                    node,
                    "keyword-arguments",
                    f"{name}() takes no keyword {', '.join(refused)} in MicroPython",
                )
        if method in NO_KEYWORDS_METHODS and keywords:
            self.add(
                node, "keyword-arguments", f".{method}() takes no keyword arguments in MicroPython"
            )
        # encodings
        encoding = None
        if method in {"decode", "encode"} and node.args:
            encoding = _constant_str(node.args[0])
        elif name in {"str", "bytes", "bytearray"} and len(node.args) >= 2:
            encoding = _constant_str(node.args[1])
        if encoding is not None and encoding not in ENCODINGS:
            self.add(
                node,
                "encoding",
                f"encoding {encoding!r} (MicroPython knows only 'utf-8', 'utf8' and 'ascii')",
            )
        if (
            method == "rsplit"
            and len(node.args) >= 2
            and isinstance(node.args[0], ast.Constant)
            and node.args[0].value is None
        ):
            self.add(node, "rsplit-none", "rsplit(None, n) is not implemented")
        if name == "iter" and len(node.args) == 2:
            self.add(node, "iter-sentinel", "iter(callable, sentinel)")
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "__init__"
            and isinstance(func.value, ast.Name)
            and func.value.id in EXCEPTION_CLASSES
        ):
            self.add(
                node,
                "exception-init",
                f"{func.value.id}.__init__ does not exist; use super().__init__",
            )
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "format"
            and _constant_str(func.value) is not None
        ):
            try:
                fields = [f for _, f, _, _ in string.Formatter().parse(func.value.value) if f]
            except ValueError:
                fields = []
            if any("." in f or "[" in f for f in fields):
                self.add(node, "format-field", "str.format field with .attribute or [index]")
        if node.keywords:
            first_keyword = min((k.lineno, k.col_offset) for k in node.keywords)
            if any(
                isinstance(a, ast.Starred) and (a.lineno, a.col_offset) > first_keyword
                for a in node.args
            ):
                self.add(node, "star-after-keyword", "*args after a keyword argument")
        self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.Sub, ast.BitXor)):
            for side in (node.left, node.right):
                if (
                    isinstance(side, ast.Call)
                    and isinstance(side.func, ast.Attribute)
                    and side.func.attr in {"keys", "items"}
                    and not side.args
                ):
                    self.add(node, "dict-view-setop", "set operator on a dict view")
                    break
        self.generic_visit(node)

    # what only the tokens show
    def _tokens(self) -> None:
        tokens = list(tokenize.generate_tokens(io.StringIO(self.source).readline))
        for before, token in itertools.pairwise(tokens):
            if (
                before.type == tokenize.NUMBER
                and token.type == tokenize.NAME
                and before.end == token.start
            ):
                self.add(
                    token.start[0],
                    "number-spacing",
                    f"{before.string}{token.string}: MicroPython needs a space here",
                )
        for token in tokens:
            if token.type == tokenize.STRING and _has_name_escape(token.string):
                self.add(token.start[0], "name-escape", "\\N{...} escape")


def _has_name_escape(literal: str) -> bool:
    j = 0
    while literal[j] in _PREFIX:
        j += 1
    if "r" in literal[:j].lower():
        return False
    i = j
    while i < len(literal) - 1:
        if literal[i] == "\\":
            if literal[i + 1] == "N" and literal[i + 2 : i + 3] == "{":
                return True
            i += 2
        else:
            i += 1
    return False


def check_source(
    source: str, path: str = "<source>", in_package: bool = True, defined: Iterable[str] = ()
) -> list[Problem]:
    """The problems in one module's source. ``defined``: names the rest of the firmware defines."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. "invalid decimal literal" for 1if
        tree = ast.parse(source, filename=path)
    return _Checker(path, source, in_package, set(defined)).run(tree)


def firmware_files() -> list[Path]:
    files = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)
    if (FIRMWARE / "main.py").exists():
        files.append(FIRMWARE / "main.py")
    return files


def check_files(paths: list[Path]) -> list[Problem]:
    sources = {path: path.read_text(encoding="utf-8") for path in paths}
    defined: set[str] = set()
    for path, source in sources.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            defined |= defined_names(ast.parse(source, filename=str(path)))
    problems: list[Problem] = []
    for path, source in sources.items():
        problems += check_source(
            source,
            path.relative_to(ROOT).as_posix(),
            in_package=PACKAGE in path.parents,
            defined=defined,
        )
    return problems


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
