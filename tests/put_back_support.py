"""What the games' put-back tests share: the sentences a module can say, the templates a text is
made of, and the checks every undo's steps must pass whatever the game (followed by hand they put
the table back; each sentence is public, translatable and in Italian; ``put_back`` says the steps
one after the other)."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Collection, Iterator
from typing import Any

from babel.support import Translations

from companion.games import plugin
from companion.i18n import Text, translate
from companion.rules.putting_back import Step, difference, follow


def italian(game_id: str) -> Translations:
    """A game's Italian catalog."""
    return Translations.load(str(plugin(game_id).translations), ["it"], game_id)


def sentences_of(module: Any) -> set[str]:
    """Every ``t("...")`` template a module's source says."""
    return {
        node.args[0].value
        for node in ast.walk(ast.parse(inspect.getsource(module)))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "t"
    }


def templates(text: Text) -> Iterator[str]:
    """A text's template and those of the texts it is made of."""
    yield text.msgid
    for value in text.params.values():
        if isinstance(value, Text):
            yield from templates(value)


def checked_steps(
    game: Any,
    before: dict,
    action: dict,
    after: dict,
    catalog: Translations,
    met: set[str],
    names: Collection[str] = (),
) -> tuple[list[Step], Any]:
    """The steps of undoing ``action`` and the placement before it, checked: followed on the
    placement after, they give the one before; every count is positive; every text is an
    Italian-translated ``Text`` whose templates are in ``catalog`` (or are ``names``, a data
    set's own); ``put_back`` says them one after the other (its templates go into ``met``)."""
    steps = game.put_back_steps(before, action, after)
    was, now = game.placement(before), game.placement(after)
    back = follow(now, steps)
    assert back == was, (action, difference(was, back))
    assert all(count > 0 for count in was.values()), action
    for step in steps:
        assert isinstance(step.text, Text) and step.text and step.count > 0, step
        said = translate(step.text, lambda msgid: catalog._catalog.get(msgid) or msgid)
        assert said != step.text and "{" not in said, step.text
        for msgid in templates(step.text):  # every sentence and phrase, or a data set's name
            assert msgid in catalog._catalog or msgid in names, msgid
    if steps:
        said = game.put_back(before, action, after)
        assert said == " ".join(step.text for step in steps)
        met.update(templates(said))
    return steps, was
