"""A game as the sequence of its accepted actions; the state is a replay of them.

``undo`` is an entry like any other: it withdraws the most recent action still in effect, and
repeated undos walk further back. Nothing is ever deleted, so the full story stays available. Both
the replay tool and the running table fold their entries through this class, so they cannot
disagree about what a sequence of entries means.
"""

from __future__ import annotations

from typing import Any

from ..i18n import t
from ..rules import Accepted, Action, Game, Refusal, Result, State

UNDO = "undo"
NOTHING_TO_UNDO = "TABLE-UNDO-1"


class History:
    def __init__(self, game: Game, players: list[str], options: dict[str, Any] | None = None,
                 seed: int = 0):
        self.game = game
        self._states: list[State] = [game.new(players, options, seed)]
        self._actions: list[Action] = []  # the actions in effect, oldest first

    @property
    def state(self) -> State:
        return self._states[-1]

    @property
    def actions(self) -> list[Action]:
        """The actions in effect (undone ones excluded), oldest first."""
        return list(self._actions)

    def check(self, action: Action) -> Result:
        """What ``submit`` would answer, without changing anything."""
        if isinstance(action, dict) and action.get("type") == UNDO:
            if not self._actions:
                return Refusal(NOTHING_TO_UNDO, t("There is nothing to undo."))
            return Accepted(self._states[-2], (_undone_event(self._actions[-1]),))
        return self.game.apply(self.state, action)

    def submit(self, action: Action) -> Result:
        """Apply one entry: an action of the game, or ``{"type": "undo"}``."""
        result = self.check(action)
        if isinstance(result, Accepted):
            self.commit(action, result)
        return result

    def commit(self, action: Action, result: Accepted) -> None:
        """Record an entry that ``check`` has just accepted in the current state."""
        if action.get("type") == UNDO:
            self._states.pop()
            self._actions.pop()
        else:
            self._states.append(result.state)
            self._actions.append(action)


def _undone_event(action: Action) -> dict[str, Any]:
    """A public description of what was undone: the type and player, never the stones."""
    who = action.get("player")
    what = action.get("type", "action").replace("_", " ")
    text = t("Undone: {player}'s {action}.", player=who, action=what) if isinstance(who, str) \
        else t("Undone: {action}.", action=what)
    return {"type": "undone", "text": text, "undone": action.get("type"), "player": who}
