"""Text that a page can show in the phone's own language: English where it is made, translated
where it is shown.

The rules cores and the table are pure and know no language: they write English, but through
:func:`t`, which keeps the message's template and its values beside the English result
(:class:`Text`, a ``str``). The web layer translates a whole snapshot for each phone with
:func:`translate` and the phone's gettext catalogs (Flask-Babel; the companion's own in
``companion/translations``, each game's in its package's ``translations``); in English nothing
changes. Templates use Flask-Babel's ``_()``; the pages' scripts use ``_()`` from
``web/static/js/common.js`` with the ``js`` catalog and the game's page catalogs.

Which catalogs there are, and the maintainer's tool that keeps them (``python -m companion.i18n
update|compile|check``), are in :mod:`.catalogs`; this module is what every layer, the rules
cores included, may import.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

LANGUAGES = {"en": "English", "it": "Italiano"}
DEFAULT = "en"
TRANSLATIONS = Path(__file__).resolve().parents[1] / "translations"  #: the companion's own


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


def text_data(value: Any) -> Any:
    """``value`` as JSON-ready data that keeps a :class:`Text` translatable (for the store):
    ``{"msgid": ..., "params": {...}}``; anything else as it is."""
    if isinstance(value, Text):
        return {"msgid": value.msgid, "params": {k: text_data(v) for k, v in value.params.items()}}
    return value


def from_text_data(data: Any) -> Any:
    """The :class:`Text` (or plain value) that :func:`text_data` made ``data`` from."""
    if isinstance(data, dict) and set(data) == {"msgid", "params"}:
        params = {k: from_text_data(v) for k, v in (data["params"] or {}).items()}
        return Text(str(data["msgid"]), params)
    return data


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
