"""The MicroPython subset checker: reads a module's source with ``ast`` (and, for what the syntax
tree does not keep, ``tokenize`` and the raw text) and gives its problems, naming file, line and
construct. ``test_micropython_subset.py`` explains the rules and runs the checker over the
firmware; ``mpy_subset_rules.py`` holds its lists."""

from __future__ import annotations

import ast
import io
import itertools
import string
import tokenize
import warnings
from collections.abc import Iterable
from pathlib import Path

from mpy_subset_rules import (
    _PREFIX,
    ALLOWED_IMPORTS,
    ENCODINGS,
    EXCEPTION_CLASSES,
    MISSING_BUILTINS,
    MISSING_METHODS,
    MODULE_ATTRIBUTES,
    NO_KEYWORDS_BUILTINS,
    NO_KEYWORDS_METHODS,
    PROBING_HANDLERS,
    Problem,
    fstring_findings,
)

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
PACKAGE = FIRMWARE / "companion_dice"


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
