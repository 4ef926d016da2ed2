"""The Triwizard Maze's :class:`~companion.rules.api.Game`: the front the table plays through.

It keeps the data sets (by name) and hands every rule the data set its state names; the rules
themselves are the functions of this package's modules."""

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

from . import chance, legal, prompts, putting_back, undoing, views
from .actions import HANDLERS
from .numbers import GAME_ID
from .options import OPTIONS
from .setup import new_state
from .state import copy_state, interrupt
from .stickers import components
from .turns import settle


class Triwizard(Game):
    id = GAME_ID
    title = "The Triwizard Maze Game"
    spec = "triwizard-maze.md"
    min_players = 2  # TW-COMP-10
    max_players = 4
    options = OPTIONS

    def __init__(self, datasets: dict[str, dict[str, Any]] | None = None):
        self._datasets: dict[str, dict[str, Any]] | None = dict(datasets) if datasets else None
        self._default: str | None = None

    # -- data sets -------------------------------------------------------------------------

    @property
    def datasets(self) -> dict[str, dict[str, Any]]:
        """The data sets by name; without any given, the bundled ones, loaded on first use."""
        if self._datasets is None:
            from .datasets import bundled

            self._datasets = bundled()
        return self._datasets

    @property
    def default_set(self) -> str:
        if self._default is None:
            names = self.datasets
            self._default = "example" if "example" in names else next(iter(names))
        return self._default

    @property
    def components(self) -> dict[str, int]:  # type: ignore[override]
        """The stickers the box holds (the tag registry's names), from the default data set."""
        data = self.datasets[self.default_set]
        if getattr(self, "_boxed", (None,))[0] is not data:
            self._boxed = (data, components(data))
        return self._boxed[1]

    def add_dataset(self, data: dict[str, Any], default: bool = False) -> None:
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
        if not isinstance(resolved["scenario"], dict):
            raise SetupError(t("option 'scenario' must be an object"))
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
        if data is None:
            raise SetupError(t("there is no data set {name}", name=repr(resolved["data_set"])))
        recorded, current = resolved["data_fingerprint"], data["fingerprint"]
        if recorded is not None and recorded != current:
            raise SetupError(
                t(
                    "the data set {name} has changed since this game began: the game was played "
                    "with fingerprint {recorded}, the data set now has {current}",
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
                "TW-END-2",
                t(
                    "The game is over: {player} found the Triwizard Cup.",
                    player=state["players"][state["winner"]],
                ),
            )
        data = self.data(state)
        after = copy_state(state)
        events: list[Event] = []
        try:
            handler(data, after, action, events)
            settle(data, after, events)
        except _Refuse as refused:
            return refused.refusal
        return Accepted(after, tuple(events))

    def legal_actions(self, state: State) -> list[Action]:
        return legal.legal_actions(self.data(state), state)

    def chance(self, state: State) -> Chance | None:
        return chance.chance(self.data(state), state)

    def sample(self, state: State) -> Action:
        return chance.sample(self.data(state), state)

    def view(self, state: State, viewer: str) -> dict[str, Any]:
        return views.view(self.data(state), state, viewer)

    def indistinguishable(self, state: State, viewer: str, rng: random.Random) -> State:
        return views.indistinguishable(self.data(state), state, viewer, rng)

    def describe(self, state: State, action: Action) -> Any:
        return undoing.describe(state, action)

    def put_back(self, before: State, action: Action, after: State) -> Any:
        """The steps' sentences one after the other (:func:`companion.rules.putting_back.sentence`), or
        :func:`.undoing.put_back`'s when no thing moves."""
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
        """The Dumbledore counter window's countdown (TW-RES-DUMB-2): the same key and seconds
        whatever the target holds, from public facts only."""
        current = interrupt(state)
        seconds = state["options"].get("counter_seconds", 10)
        if current is None or current["kind"] != "dumbledore" or not seconds:
            return None
        key = f"dumbledore/{state['turn']}/{state['chance_n']}/{current['tile']}"
        return {"key": key, "seconds": seconds, "action": {"type": "close_window"}}

    def start_player(self, state: State) -> str | None:
        """TW-SETUP-10, TW-AMB-25: who shouted first, or won the tie roll; None before."""
        first = state.get("first")
        return None if first is None else state["players"][first]

    def progress(self, state: State) -> str:
        if state["turn"] < 1:
            return t("before the first turn")
        return t("turn {n}", n=state["turn"])

    # -- what the inputs, the lights, the pages and the tests ask ---------------------------

    def awaited(self, state: State) -> dict[str, Any] | None:
        """The pending chance step in full (what to draw or roll, for whom, why)."""
        return chance.awaited(state)

    def prompt(self, state: State) -> Any:
        return prompts.prompt(self.data(state), state)
