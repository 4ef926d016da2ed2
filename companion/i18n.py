"""Text that a page can show in the phone's own language: English where it is made, translated
where it is shown.

The rules cores and the table are pure and know no language: they write English, but through
:func:`t`, which keeps the message's template and its values beside the English result
(:class:`Text`, a ``str``). The web layer translates a whole snapshot for each phone with
:func:`translate` and the phone's gettext catalog (Flask-Babel, the catalogs in
``companion/translations``); in English nothing changes. Templates use Flask-Babel's ``_()``;
the pages' scripts use ``_()`` from ``web/static/js/common.js`` with the ``js`` catalog.

The catalogs are kept with the standard Babel tools, run by ``python -m companion.i18n``:

* ``update [catalog ...]``: extract every message (Python: ``t``, ``_``, ``gettext``; templates;
  scripts: ``_``) into ``companion/translations/<catalog>.pot`` and merge them into each
  language's ``.po``. The catalogs: ``messages`` (the table, the web layer, the templates),
  ``abracadawhat`` and ``dorktower`` (each game's rules), ``js`` (the pages' scripts) and
  ``js_dorktower`` (Dork Tower's pages);
* ``compile``: write the ``.mo`` files the server reads (checked in; a test keeps them current);
* ``check``: list the messages a language has not translated yet (a test requires none).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

LANGUAGES = {"en": "English", "it": "Italiano"}
DEFAULT = "en"
TRANSLATIONS = Path(__file__).parent / "translations"


class Text(str):
    """English text made from a message template and its values, translatable later.

    It is a ``str`` (the English text), so it compares, prints and serialises as one; ``msgid``
    and ``params`` say how to make it again in another language.
    """

    __slots__ = ("msgid", "params")

    def __new__(cls, msgid: str, params: dict[str, Any] | None = None) -> Text:
        params = dict(params or {})
        text = super().__new__(cls, msgid.format(**params) if params else msgid)
        text.msgid = msgid
        text.params = params
        return text

    def __reduce__(self) -> tuple:
        return (Text, (self.msgid, self.params))

    def __deepcopy__(self, memo: dict) -> Text:
        return self  # immutable

    def __copy__(self) -> Text:
        return self

    def __add__(self, other: object) -> str:  # "a" + "b" is plain text: it has no template
        return str(self) + other  # type: ignore[operator]


def t(msgid: str, /, **params: Any) -> Text:
    """A message in English, e.g. ``t("{player} rolls now.", player=name)``; the template is
    what translators see (``{name}`` placeholders, never f-strings)."""
    return Text(msgid, params)


def reason_of(error: BaseException) -> str:
    """An exception's message, as made (a :class:`Text` stays translatable)."""
    if len(error.args) == 1 and isinstance(error.args[0], str):
        return error.args[0]
    return str(error)


def translate(value: Any, gettext: Callable[[str], str]) -> Any:
    """``value`` (a snapshot: dicts, lists, strings) with every :class:`Text` in it made again
    from its translated template; its values are translated too when they are texts. A template
    whose translation is broken falls back to English."""
    if isinstance(value, Text):
        params = {k: translate(v, gettext) for k, v in value.params.items()}
        template = gettext(value.msgid) if value.msgid else value.msgid
        try:
            return template.format(**params) if params else template
        except (KeyError, IndexError, ValueError):
            return str(value)
    if isinstance(value, dict):
        return {k: translate(v, gettext) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [translate(v, gettext) for v in value]
    return value


def has_text(value: Any) -> bool:
    """Whether anything in ``value`` is a :class:`Text` (only then is a snapshot walked)."""
    if isinstance(value, Text):
        return True
    if isinstance(value, dict):
        return any(has_text(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(has_text(v) for v in value)
    return False


# ----------------------------------------------------------------------------------------------
# Keeping the catalogs (a maintainer's tool; the server only reads the compiled catalogs)

ROOT = Path(__file__).resolve().parents[1]
_PY = ["-k", "t", "-k", "_", "-k", "gettext", "-k", "N_"]
#: Each catalog and where its messages are: the server's (the table, the web layer, the
#: templates), each game's rules core's, the pages' scripts' and Dork Tower's pages' script.
EXTRACT = {
    "messages": [*_PY, "-F", "companion/translations/babel.cfg", "companion", "web/templates"],
    "abracadawhat": [*_PY, "-F", "companion/translations/babel-game.cfg",
                     "companion/rules/abracadawhat.py"],
    "dorktower": [*_PY, "-F", "companion/translations/babel-game.cfg",
                  "companion/rules/dorktower"],
    "js": ["-k", "_", "-F", "companion/translations/babel-js.cfg", "web/static/js"],
    "js_dorktower": ["-k", "_", "-F", "companion/translations/babel-game.cfg",
                     "web/static/js/games/dorktower.js"],
}
#: The catalogs the server's texts are looked up in, and the pages' scripts' ones.
SERVER_DOMAINS = ("messages", "abracadawhat", "dorktower")
PAGE_DOMAINS = ("js", "js_dorktower")


def _babel(*args: str) -> None:
    from babel.messages.frontend import CommandLineInterface

    CommandLineInterface().run(["pybabel", "-q", *args])


def update(domains: list[str] | None = None) -> None:
    """Extract every message and merge it into each language's catalog (run from a source
    checkout: the paths are the repository's); ``domains``: only those catalogs."""
    import os

    os.chdir(ROOT)
    for domain, args in EXTRACT.items():
        if domains and domain not in domains:
            continue
        pot = TRANSLATIONS / f"{domain}.pot"
        _babel("extract", "--no-location", "--sort-output", "--omit-header", "-o", str(pot),
               *args)
        for lang in LANGUAGES:
            if lang == DEFAULT:
                continue
            po = TRANSLATIONS / lang / "LC_MESSAGES" / f"{domain}.po"
            if po.exists():
                _babel("update", "--no-fuzzy-matching", "-D", domain,
                       "-i", str(pot), "-d", str(TRANSLATIONS), "-l", lang)
            else:
                _babel("init", "-D", domain, "-i", str(pot), "-d", str(TRANSLATIONS), "-l", lang)


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
        header.string = "\n".join(line for line in header.string.split("\n")
                                  if not line.startswith("Generated-By:"))
        yield header
        yield from messages


def compile_all(domains: list[str] | None = None) -> None:
    for po in sorted(TRANSLATIONS.glob("*/LC_MESSAGES/*.po")):
        if not domains or po.stem in domains:
            po.with_suffix(".mo").write_bytes(compiled(po))


def untranslated(lang: str) -> dict[str, list[str]]:
    """The messages ``lang`` has not translated yet (or only fuzzily), by domain."""
    from babel.messages.pofile import read_po

    missing: dict[str, list[str]] = {}
    for domain in EXTRACT:
        po = TRANSLATIONS / lang / "LC_MESSAGES" / f"{domain}.po"
        with open(po, "rb") as f:
            catalog = read_po(f)
        missing[domain] = [m.id for m in catalog if m.id and (not m.string or m.fuzzy)]
    return missing


def main(argv: list[str] | None = None) -> int:
    args = argv if argv is not None else sys.argv[1:] or ["check"]
    command, domains = args[0], args[1:]
    unknown = [d for d in domains if d not in EXTRACT]
    if unknown:
        print(f"unknown catalog {unknown[0]!r}; the catalogs: {', '.join(EXTRACT)}",
              file=sys.stderr)
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
        print("usage: python -m companion.i18n [update|compile|check] [catalog ...]",
              file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
