"""A game as the sequence of its accepted actions; the state is a replay of them.

``undo`` is an entry like any other: it withdraws the most recent action still in effect, and
repeated undos walk further back. Nothing is ever deleted, so the full story stays available. Both
the replay tool and the running table fold their entries through this class, so they cannot
disagree about what a sequence of entries means.

Memory stays bounded however long a game runs: only the most recent states are kept
(``KEEP_RECENT``), with a checkpoint every ``CHECKPOINT_EVERY`` actions; an undo that walks back
further than the recent states replays the actions from the nearest checkpoint (the rules are
pure, so the replay gives the very same state). An evening of several thousand actions
keeps a few dozen states, not thousands.
"""

from __future__ import annotations

from typing import Any

from ..i18n import t
from ..rules import Accepted, Action, Game, Refusal, Result, State

UNDO = "undo"
NOTHING_TO_UNDO = "TABLE-UNDO-1"
KEEP_RECENT = 32  #: states kept as they are, the current one last
CHECKPOINT_EVERY = 128  #: a state kept for every this many actions, to replay older ones from


class History:
    def __init__(
        self, game: Game, players: list[str], options: dict[str, Any] | None = None, seed: int = 0
    ):
        self.game = game
        first = game.new(players, options, seed)
        #: the most recent states, oldest first: ``_states[-1]`` is the current one, and
        #: ``_states[i]`` follows the first ``len(_actions) - len(_states) + 1 + i`` actions
        self._states: list[State] = [first]
        self._checkpoints: dict[int, State] = {0: first}  # actions in effect -> the state after
        self._actions: list[Action] = []  # the actions in effect, oldest first

    @property
    def state(self) -> State:
        return self._states[-1]

    @property
    def actions(self) -> list[Action]:
        """The actions in effect (undone ones excluded), oldest first."""
        return list(self._actions)

    @property
    def count(self) -> int:
        """How many actions are in effect."""
        return len(self._actions)

    def check(self, action: Action) -> Result:
        """What ``submit`` would answer, without changing anything."""
        if isinstance(action, dict) and action.get("type") == UNDO:
            if not self._actions:
                return Refusal(NOTHING_TO_UNDO, t("There is nothing to undo."))
            before = self._state_after(len(self._actions) - 1)
            undone = _undone_event(self.game, before, self._actions[-1], self.state)
            return Accepted(before, (undone,))
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
            self._actions.pop()
            self._checkpoints.pop(len(self._actions) + 1, None)
            self._states.pop()
            if not self._states:  # walked back past the recent states
                self._states.append(result.state)
            return
        self._states.append(result.state)
        self._actions.append(action)
        if len(self._actions) % CHECKPOINT_EVERY == 0:
            self._checkpoints[len(self._actions)] = result.state
        if len(self._states) > KEEP_RECENT:
            del self._states[0]

    def _state_after(self, count: int) -> State:
        """The state after the first ``count`` actions in effect: a recent one, or replayed from
        the nearest checkpoint before it."""
        oldest = len(self._actions) - len(self._states) + 1  # the count _states[0] follows
        if count >= oldest:
            return self._states[count - oldest]
        start = max(k for k in self._checkpoints if k <= count)
        state = self._checkpoints[start]
        for action in self._actions[start:count]:
            result = self.game.apply(state, action)
            if not isinstance(result, Accepted):  # the rules are pure: this cannot happen
                raise RuntimeError(f"replaying action {action!r} was refused: {result.reason}")
            state = result.state
        return state


def _undone_event(game: Game, before: State, action: Action, after: State) -> dict[str, Any]:
    """A public description of what was undone, in the game's words (``Game.describe``), with
    what must be put back by hand (``Game.put_back``) and its steps (``Game.put_back_steps``,
    each as ``Step.to_json``): never the hidden stones or cards."""
    who = action.get("player")
    what = game.describe(before, action)
    if what is None:
        kind = action.get("type", "action").replace("_", " ")
        what = t("{player}'s {action}", player=who, action=kind) if isinstance(who, str) else kind
    back = game.put_back(before, action, after)
    text = (
        t("Undone: {action}. {put_back}", action=what, put_back=back)
        if back
        else t("Undone: {action}.", action=what)
    )
    return {
        "type": "undone",
        "text": text,
        "undone": action.get("type"),
        "player": who,
        "put_back": back,
        "steps": [step.to_json() for step in game.put_back_steps(before, action, after)],
    }
