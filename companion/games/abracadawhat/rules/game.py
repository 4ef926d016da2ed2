"""The :class:`AbracadaWhat` front: the :class:`~companion.rules.api.Game` contract, each method
handing the state to the package's modules, and the table of actions ``apply`` knows."""

from __future__ import annotations

import random
from typing import Any

from companion.i18n import t
from companion.rules.api import (
    MALFORMED,
    UNKNOWN_ACTION,
    Accepted,
    Action,
    Chance,
    Event,
    Game,
    Outcome,
    Refusal,
    Result,
    State,
)
from companion.rules.common import Refuse

from . import choices, placing, undoing, views
from .casting import allow_cast, cast, object_to_cast, remove, roll
from .setup import OPTIONS, check_option_values, deal, deal_stone, new_state
from .spells import decline_secret, take_secret
from .stones import NUMBERS, copy_state
from .turns import end_turn, refill

#: Each action type and the function that applies it to a copy of the state.
HANDLERS = {
    "deal": deal,
    "deal_stone": deal_stone,
    "cast": cast,
    "remove": remove,
    "roll": roll,
    "take_secret": take_secret,
    "decline_secret": decline_secret,
    "object": object_to_cast,
    "allow": allow_cast,
    "end_turn": end_turn,
    "refill": refill,
}


class AbracadaWhat(Game):
    id = "abracadawhat"
    title = "Abracada...What?"
    spec = "abracadawhat.md"
    min_players = 2
    max_players = 5
    components = {f"stone {number}": number for number in NUMBERS}
    options = OPTIONS

    def new(
        self, players: list[str], options: dict[str, Any] | None = None, seed: int = 0
    ) -> State:
        names = self.check_players(players)
        resolved = self.resolve_options(options)
        check_option_values(resolved)
        return new_state(self.id, names, resolved, seed)

    def apply(self, state: State, action: Action) -> Result:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return Refusal(MALFORMED, t("An action needs a type."))
        handler = HANDLERS.get(action["type"])
        if handler is None:
            return Refusal(
                UNKNOWN_ACTION,
                t("{game} has no action {action}.", game=self.title, action=repr(action["type"])),
            )
        changed = copy_state(state)
        events: list[Event] = []
        try:
            handler(changed, action, events)
        except Refuse as refused:
            return refused.refusal
        return Accepted(changed, tuple(events))

    def legal_actions(self, state: State) -> list[Action]:
        return choices.legal_actions(state)

    def chance(self, state: State) -> Chance | None:
        return choices.chance(state)

    def sample(self, state: State) -> Action:
        return choices.sample(state)

    def view(self, state: State, viewer: str) -> dict[str, Any]:
        """ABR-HID-*: a player never sees his own rack, the reserve or untaken secret stones, and
        sees only the secret stones he took himself; the table display and the host see no rack."""
        return views.view(state, viewer, self.id)

    def indistinguishable(self, state: State, viewer: str, rng: random.Random) -> State:
        """ABR-HID-1..4: ``state`` with the stones ``viewer`` may not see dealt anew
        (:func:`.views.indistinguishable`)."""
        return views.indistinguishable(state, viewer, rng)

    def describe(self, state: State, action: Action) -> Any:
        """An action in words, for the undo (:func:`.undoing.describe`)."""
        return undoing.describe(state, action)

    def put_back(self, before: State, action: Action, after: State) -> Any:
        """What an undo asks to put back by hand (:func:`.undoing.put_back`)."""
        return undoing.put_back(before, action, after)

    def placement(self, state: State) -> Any:
        """Where every stone and life token lies, in public terms (:func:`.placing.placement`)."""
        return placing.placement(state)

    def put_back_steps(self, before: State, action: Action, after: State) -> list[Any]:
        """The steps that put the table back after an undo (:func:`.placing.put_back_steps`)."""
        return placing.put_back_steps(before, action, after)

    def outcome(self, state: State) -> Outcome:
        return Outcome(
            finished=state["phase"] == "over",
            winners=tuple(state["winners"]),
            scores=dict(zip(state["players"], state["score"])),
        )

    def start_player(self, state: State) -> str | None:
        """ABR-SETUP-10: the first player listed (the oldest) starts the first round; later
        rounds start elsewhere (ABR-NEXT-*), but the play's start player is the first round's."""
        return state["players"][0]

    def progress(self, state: State) -> str:
        return t("round {n}", n=state["round"])
