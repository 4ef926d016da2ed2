"""Dork Tower's :class:`~companion.rules.api.Game`: the front the table plays through.

It keeps the data sets (by name) and hands every rule the data set its state names; the rules
themselves are the functions of this package's modules (see the package's docstring).
"""

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
    SetupError,
    State,
)
from companion.rules.common import Refuse as _Refuse
from companion.rules.putting_back import sentence

from . import board, chance, fights, legal, movement, putting_back, undoing, views, windows
from .actions import HANDLERS
from .constants import GAME_ID

MAX_PLAYERS = 6  # DT-AMB-20: six kingdoms
from .datasets import bundled, components, default_name
from .flow import flow
from .options import OPTIONS
from .setup import new_state
from .state import copy_state


class DorkTower(Game):
    id = GAME_ID
    title = "Dork Tower"
    spec = "dork-tower.md"
    min_players = 2  # DT-AMB-20: one kingdom each, six kingdoms
    options = OPTIONS

    def __init__(self, datasets: dict[str, dict[str, Any]] | None = None):
        self._datasets: dict[str, dict[str, Any]] | None = dict(datasets) if datasets else None
        self._default: str | None = None

    # -- data sets -------------------------------------------------------------------------

    @property
    def datasets(self) -> dict[str, dict[str, Any]]:
        """The data sets by name; without any given, the bundled example, loaded on first use."""
        if self._datasets is None:
            self._datasets = bundled()
        return self._datasets

    @property
    def default_set(self) -> str:
        if self._default is None:
            self._default = default_name(self.datasets)
        return self._default

    @property
    def components(self) -> dict[str, int]:  # type: ignore[override]
        data = self.datasets[self.default_set]
        if getattr(self, "_boxed", (None,))[0] is not data:
            self._boxed = (data, components(data))
        return self._boxed[1]

    @property
    def max_players(self) -> int:  # type: ignore[override]
        """DT-AMB-20, DT-SETUP-8: six at most, one character and one kingdom each, as many as
        the default data set has."""
        data = self.datasets[self.default_set]
        kingdoms = [wedge for wedge in data["wedges"] if wedge["kind"] == "kingdom"]
        return min(MAX_PLAYERS, len(data["characters"]), len(kingdoms))

    def add_dataset(self, data: dict[str, Any], default: bool = False) -> None:
        """Make a data set (loaded and validated by ``data.load_dataset``) available by name;
        ``default``: new games use it unless told otherwise, and its stickers are the ones the
        tag registry expects."""
        if self._datasets is None:
            self._datasets = {}
        self._datasets[data["name"]] = data
        if default:
            self._default = data["name"]

    def resolve_options(self, given: dict[str, Any] | None) -> dict[str, Any]:
        """The options, and ``data_fingerprint``: the fingerprint of the data set a kept or
        recorded game was played with (None for a new game; ``new`` fills it in)."""
        given = dict(given or {})
        recorded = given.pop("data_fingerprint", None)
        if recorded is not None and not isinstance(recorded, str):
            raise SetupError(t("option 'data_fingerprint' must be a data set's fingerprint"))
        resolved = super().resolve_options(given)
        if "data_set" not in given:
            resolved["data_set"] = self.default_set
        resolved["data_fingerprint"] = recorded
        return resolved

    def data(self, state: State) -> dict[str, Any]:
        return self.datasets[state["data_set"]]

    # -- the Game contract -----------------------------------------------------------------

    def new(
        self, players: list[str], options: dict[str, Any] | None = None, seed: int = 0
    ) -> State:
        names = self.check_players(players)
        resolved = self.resolve_options(options)
        data = self.datasets.get(resolved["data_set"])
        if data is not None:  # DT-AMB-5: a game goes on with the data it began with, or not at all
            recorded, current = resolved["data_fingerprint"], data["fingerprint"]
            if recorded is not None and recorded != current:
                raise SetupError(
                    t(
                        "the data set {name} has changed since this game began (DT-AMB-5): "
                        "the game was played with fingerprint {recorded}, the data set now has "
                        "{current}",
                        name=repr(data["name"]),
                        recorded=recorded,
                        current=current,
                    )
                )
            resolved["data_fingerprint"] = current
        return new_state(self.datasets, names, resolved, seed)

    def apply(self, state: State, action: Action) -> Result:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return Refusal(MALFORMED, t("An action needs a type."))
        handler = HANDLERS.get(action["type"])
        if handler is None:
            return Refusal(
                UNKNOWN_ACTION,
                t("{game} has no action {action}.", game=self.title, action=repr(action["type"])),
            )
        if state["phase"] == "over":
            return Refusal(
                "DT-GAME-1",
                t("The game is over: {player} defeated Z'Mindrik.", player=state["winners"][0]),
            )
        data = self.data(state)
        after = copy_state(state)
        events: list[Event] = []
        try:
            handler(data, after, action, events)
            flow(data, after, events)
        except _Refuse as refused:
            return refused.refusal
        return Accepted(after, tuple(events))

    def legal_actions(self, state: State) -> list[Action]:
        return legal.legal_actions(self.data(state), state)

    def chance(self, state: State) -> Chance | None:
        return chance.chance(state)

    def sample(self, state: State) -> Action:
        return chance.sample(state)

    def view(self, state: State, viewer: str) -> dict[str, Any]:
        return views.view(self.data(state), state, viewer)

    def indistinguishable(self, state: State, viewer: str, rng: random.Random) -> State:
        return views.indistinguishable(state, viewer, rng)

    def describe(self, state: State, action: Action) -> Any:
        """An action in words, for the undo (:func:`.undoing.describe`)."""
        return undoing.describe(state, action)

    def put_back(self, before: State, action: Action, after: State) -> Any:
        """What an undo asks to put back by hand: the steps' sentences, one after the other
        (:func:`companion.rules.putting_back.sentence`), or :func:`.undoing.put_back`'s when no thing moves."""
        steps = self.put_back_steps(before, action, after)
        return sentence(steps) or undoing.put_back(before, action, after)

    def placement(self, state: State) -> Any:
        """The table in things and places (:func:`.putting_back.table_placement`)."""
        return putting_back.table_placement(self.data(state), state)

    def put_back_steps(self, before: State, action: Action, after: State) -> list[Any]:
        """The moves that put the table back (:func:`.putting_back.steps_back`)."""
        return putting_back.steps_back(self.data(after), before, after)

    def outcome(self, state: State) -> Outcome:
        return views.outcome(state)

    def deadline(self, state: State) -> dict[str, Any] | None:
        """The countdown of the rivals' scroll windows in a fight (:func:`.windows.deadline`)."""
        return windows.deadline(state)

    def start_player(self, state: State) -> str | None:
        """DT-SETUP-6: the start roll's winner starts (the first seat without the roll); None
        while the roll is still being rolled."""
        if state["phase"] == "start_roll":
            return None
        return state["players"][state["first"]]

    def progress(self, state: State) -> str:
        if state["turn"] < 1:  # the start roll and the choice of heroes come before turn 1
            return t("before the first turn")
        return t("turn {n}", n=state["turn"])

    # -- what the inputs, the lights, the pages and the tests ask ---------------------------

    def awaited(self, state: State) -> dict[str, Any] | None:
        """The pending chance step in full (what to draw, which face, for whom, why)."""
        return chance.awaited(state)

    def totals(self, state: State) -> dict[str, Any] | None:
        """The combat's arithmetic (DT-COMBAT-1..5): both totals, the row and the target."""
        return fights.totals(self.data(state), state)

    def flee_spaces(self, state: State) -> list[str]:
        """The spaces a defeated hero may flee to (empty: he cannot flee)."""
        return movement.flee_spaces(self.data(state), state)

    def draw_count(self, state: State, space: str) -> int:
        """Encounter tokens drawn on ``space`` now (DT-ENC-3, §3.1), ignoring monsters and
        quests there."""
        return board.draw_count(self.data(state), state, space)

    def wedge_days(self, state: State) -> list[bool]:
        """DT-TIME-1, DT-AMB-1: for each wedge (clockwise), whether a sun wall faces it."""
        return board.wedge_days(self.data(state), state)

    def door_wedge(self, state: State) -> int:
        """DT-TIME-2: the door moves one wedge clockwise at every turn of the tower."""
        return board.door_wedge(self.data(state), state)

    def door_space(self, state: State) -> str:
        """DT-TOWER-2: the shadowland next to the door."""
        return board.door_space(self.data(state), state)
