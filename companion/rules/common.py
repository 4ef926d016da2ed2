"""Small pieces every rules core uses: refusing from deep inside a handler, naming players and
seats, and building events. Nothing here knows a game."""

from __future__ import annotations

from typing import Any

from ..i18n import t
from .api import MALFORMED, UNKNOWN_PLAYER, Action, Event, Refusal, State


class Refuse(Exception):
    """Raised inside ``apply`` to refuse the action: ``apply`` returns its :class:`Refusal`."""

    def __init__(self, rule: str, reason: str):
        super().__init__(rule, reason)
        self.refusal = Refusal(rule, reason)


def name_of(s: State, seat: int) -> str:
    """The name of the player at ``seat``."""
    return s["players"][seat]


def player_of(a: Action) -> str:
    """The name an action gives as its player, or a refusal when it gives none."""
    p = a.get("player")
    if not isinstance(p, str):
        raise Refuse(MALFORMED, t("The action does not say which player makes it."))
    return p


def seat_of(s: State, name: Any) -> int:
    """The seat of the player called ``name``, or a refusal when nobody is."""
    try:
        return s["players"].index(name)
    except ValueError:
        raise Refuse(
            UNKNOWN_PLAYER, t("Nobody called {name} is playing.", name=repr(name))
        ) from None


def event(kind: str, text: str, **fields: Any) -> Event:
    """An event: its type, a public sentence, and its fields."""
    return {"type": kind, "text": text, **fields}
