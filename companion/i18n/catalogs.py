"""The gettext catalogs: which there are (:func:`catalogs`: the companion's own, then each game's
from its package), and the maintainer's tool that keeps them with the standard Babel tools,
``python -m companion.i18n``:

* ``update [catalog ...]``: extract every message (Python: ``t``, ``_``, ``gettext``; templates;
  scripts: ``_``) into the catalog's ``<catalog>.pot`` and merge them into each language's
  ``.po``. The catalogs: ``messages`` (the table, the web layer, the templates), ``js`` (the
  pages' scripts), and each game's, named by its plug-in (its rules' texts; its page module's);
* ``compile``: write the ``.mo`` files the server reads (checked in; a test keeps them current);
* ``check``: list the messages a language has not translated yet (a test requires none).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import DEFAULT, LANGUAGES, TRANSLATIONS

ROOT = Path(__file__).resolve().parents[2]
_PY = ["-k", "t", "-k", "_", "-k", "gettext", "-k", "N_"]
_CONFIG = "companion/translations"
WIDTH = "100"  #: the catalogs' line width, as the project's code


@dataclass(frozen=True)
class Catalog:
    """One gettext catalog: its domain, the folder holding ``<lang>/LC_MESSAGES/<domain>.po``,
    whether the server's texts or the pages' scripts' are looked up in it (``kind``), and where
    ``update`` finds its messages (pybabel extract's arguments, relative to the source tree)."""

    domain: str
    folder: Path
    kind: str  #: "server" or "pages"
    sources: tuple[str, ...]
    game: str | None = None  #: the game whose catalog it is (None: the companion's own)


def catalogs(kind: str | None = None) -> list[Catalog]:
    """Every catalog (of ``kind``, if given): the companion's own (``messages``: the table, the
    web layer, the templates; ``js``: the pages' scripts), then each game's (its plug-in's
    ``catalogs``: its rules' texts, its page module's), from its package's ``translations``."""
    from ..games import plugins

    found = [
        Catalog(
            "messages",
            TRANSLATIONS,
            "server",
            (*_PY, "-F", f"{_CONFIG}/babel.cfg", "companion", "web/templates"),
        ),
        Catalog(
            "js",
            TRANSLATIONS,
            "pages",
            ("-k", "_", "-F", f"{_CONFIG}/babel-js.cfg", "web/static/js"),
        ),
    ]
    for game in plugins():
        package = game.folder.relative_to(ROOT) if game.folder.is_relative_to(ROOT) else game.folder
        found += [
            Catalog(
                domain,
                game.translations,
                "server",
                (*_PY, "-F", f"{_CONFIG}/babel-game.cfg", str(package)),
                game.id,
            )
            for domain in game.catalogs.server
        ]
        static = game.static_folder
        sources = (
            ("-k", "_", "-F", f"{_CONFIG}/babel-js.cfg", str(package / game.static))
            if static is not None and static.is_dir()
            else ()
        )
        found += [
            Catalog(domain, game.translations, "pages", sources, game.id)
            for domain in game.catalogs.pages
        ]
    return [catalog for catalog in found if kind is None or catalog.kind == kind]


def _babel(*args: str) -> None:
    from babel.messages.frontend import CommandLineInterface

    CommandLineInterface().run(["pybabel", "-q", *args])


def update(domains: list[str] | None = None) -> None:
    """Extract every message and merge it into each language's catalog (run from a source
    checkout: the paths are the repository's); ``domains``: only those catalogs."""
    import os

    os.chdir(ROOT)
    for catalog in catalogs():
        if (domains and catalog.domain not in domains) or not catalog.sources:
            continue  # (a game's page catalog whose page module is not written yet)
        pot = catalog.folder / f"{catalog.domain}.pot"
        _babel(
            "extract",
            "--no-location",
            "--sort-output",
            "--omit-header",
            "-w",
            WIDTH,
            "-o",
            str(pot),
            *catalog.sources,
        )
        for lang in LANGUAGES:
            if lang == DEFAULT:
                continue
            po = catalog.folder / lang / "LC_MESSAGES" / f"{catalog.domain}.po"
            command = "update" if po.exists() else "init"
            extra = ["--no-fuzzy-matching"] if po.exists() else []
            _babel(
                command,
                *extra,
                "-w",
                WIDTH,
                "-D",
                catalog.domain,
                "-i",
                str(pot),
                "-d",
                str(catalog.folder),
                "-l",
                lang,
            )


def compiled(po: Path) -> bytes:
    """The ``.mo`` bytes of a ``.po`` file (the same every time)."""
    import io

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with open(po, "rb") as f:
        catalog = read_po(f)
    out = io.BytesIO()
    write_mo(out, _WithoutGenerator(catalog), use_fuzzy=False)
    return out.getvalue()


class _WithoutGenerator:
    """A catalog as ``write_mo`` reads it, without the ``Generated-By: Babel x.y`` header line
    Babel adds: the compiled bytes depend on the ``.po`` file only, not on Babel's version."""

    def __init__(self, catalog: Any):
        self.catalog = catalog
        self.charset = catalog.charset

    def __iter__(self) -> Any:
        messages = iter(self.catalog)
        header = next(messages)
        header.string = "\n".join(
            line for line in header.string.split("\n") if not line.startswith("Generated-By:")
        )
        yield header
        yield from messages


def po_files() -> list[Path]:
    """Every language's ``.po`` file of every catalog."""
    return sorted(
        po
        for catalog in catalogs()
        for po in catalog.folder.glob(f"*/LC_MESSAGES/{catalog.domain}.po")
    )


def compile_all(domains: list[str] | None = None) -> None:
    for po in po_files():
        if not domains or po.stem in domains:
            po.with_suffix(".mo").write_bytes(compiled(po))


def untranslated(lang: str) -> dict[str, list[str]]:
    """The messages ``lang`` has not translated yet (or only fuzzily), by domain."""
    from babel.messages.pofile import read_po

    missing: dict[str, list[str]] = {}
    for catalog in catalogs():
        po = catalog.folder / lang / "LC_MESSAGES" / f"{catalog.domain}.po"
        with open(po, "rb") as f:
            read = read_po(f)
        missing[catalog.domain] = [m.id for m in read if m.id and (not m.string or m.fuzzy)]
    return missing


def main(argv: list[str] | None = None) -> int:
    args = argv if argv is not None else sys.argv[1:] or ["check"]
    command, domains = args[0], args[1:]
    known = [catalog.domain for catalog in catalogs()]
    unknown = [d for d in domains if d not in known]
    if unknown:
        print(f"unknown catalog {unknown[0]!r}; the catalogs: {', '.join(known)}", file=sys.stderr)
        return 2
    if command == "update":
        update(domains)
    elif command == "compile":
        compile_all(domains)
    elif command == "check":
        bad = 0
        for lang in LANGUAGES:
            if lang == DEFAULT:
                continue
            for domain, ids in untranslated(lang).items():
                for msgid in ids:
                    print(f"{lang}/{domain}: untranslated: {msgid}")
                bad += len(ids)
        return 1 if bad else 0
    else:
        print(
            "usage: python -m companion.i18n [update|compile|check] [catalog ...]", file=sys.stderr
        )
        return 2
    return 0
