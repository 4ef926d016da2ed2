"""The plug-in interface: everything the table, the simulation, the pages and the CLI need from a
game, declared in one place.

A game is a package, ``companion/games/<id>/``, whose ``__init__`` declares ``PLUGIN``, a
:class:`GamePlugin`. Declaring it imports nothing of the game: each part is named by the module
that holds it (``"module:attribute"``, relative to the game's package) and imported the first
time it is asked for, so a server holds only the games that are played or asked about.

The parts (``docs/architecture.md`` has the guide to writing them):

* ``rules``: the pure rules core, a :class:`~companion.rules.api.Game` (required);
* ``inputs``: how the table's sensors read the game, a :class:`~companion.table.inputs.
  GameInputs` subclass (default: the phone only, a seat button's long press undoes);
* ``lights``: how the game draws on the LED strips, a :class:`GameLights` (default:
  :class:`companion.lights.StatusLights`, every seat's status light from the view's common keys);
* ``sim``: the simulated box of stickers and the simulated hands' game acts, a
  :class:`~companion.table.sim.GameHands` subclass (default: no stickers and no acts);
* ``data_sets``: the game's data sets, a :class:`DataSets` (default: none);
* ``option_texts``: how the new-game wizard tells each of the rules core's options to players, a
  dict of option name -> :class:`OptionText` (default: made from the option itself,
  :func:`describe_option`);
* ``actuators``: for each actuator device the table may have (``"tower_motor"``), what makes it
  follow the game, a :class:`Actuator`;
* ``bgg_id``: the game's BoardGameGeek id, which the BG Stats export names (default: none);
* ``static``: the page module's folder (``page.js``, and ``page.css`` if any), served at
  ``/games/<id>/static/``; ``catalogs``: the game's gettext catalogs, kept in its
  ``translations`` folder: ``server`` domains (its rules' texts), ``pages`` domains (its page
  module's).
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypedDict

from .rules import Game


class TableView(TypedDict, total=False):
    """The keys of a game's ``view(state, viewer)`` that the table, the LEDs and every page rely
    on, whatever the game; a game adds its own beside them."""

    game: str  #: the game's id
    phase: str  #: where the game stands; ``"over"`` once it has ended
    prompt: str  #: what the table waits for, in one public sentence
    order: list[str]  #: the players in seat order
    active: str | None  #: whose turn it is
    waiting_for: list[str]  #: the players the table waits for now
    finished: bool  #: the game has ended
    winners: list[str]  #: who won, once it has ended
    players: dict[str, dict[str, Any]]  #: what is shown of each player


#: The keys every game's view has (the contract test checks them).
TABLE_VIEW_KEYS = (
    "game",
    "phase",
    "prompt",
    "order",
    "active",
    "waiting_for",
    "finished",
    "winners",
    "players",
)


class GameLights(Protocol):
    """A game's LED drawing (a module or an object with these functions)."""

    def draw(
        self,
        strips: dict[str, list[Any]],
        view: dict[str, Any],
        colours: list[Any],
        cues: list[Any],
        now: float,
        layout: Any,
    ) -> None:
        """Draw the public ``view`` onto ``strips`` (all dark when called)."""

    def animating(self, view: dict[str, Any], now: float) -> bool:
        """Whether the frames change with time alone, cues aside."""

    def cues(self, events: list[dict[str, Any]], players: list[str], at: float) -> list[Any]:
        """The animations (:class:`companion.lights.Cue`) that ``events`` start at ``at``."""


class DataSets(Protocol):
    """A game's data sets: what is printed on its components, loaded and validated."""

    #: the exception a data set that is wrong raises (its message names file, place, problem)
    error: type[Exception]

    def load(self, directory: Path) -> dict[str, Any]:
        """Load and validate the data set in ``directory`` (raises ``error``)."""

    def use(self, directory: Path) -> dict[str, Any]:
        """Load the data set in ``directory`` and make it the default for new games."""

    def names(self) -> list[str]:
        """The data sets a new game may choose, by name."""

    def default(self) -> str:
        """The data set new games use unless told otherwise."""

    def get(self, name: str) -> dict[str, Any] | None:
        """The data set ``name`` (what the pages draw from); None if there is none."""

    def localised(self, name: str, lang: str) -> dict[str, Any] | None:
        """The data set ``name`` with its names in ``lang`` where it gives them (optional: a game
        without it serves ``get``'s)."""

    def words(self, lang: str) -> dict[str, str]:
        """English name -> its ``lang`` translation, for the names the rules' texts carry
        (optional: a game without it keeps them as they are)."""

    def check_default(self) -> None:
        """Load the default data set now (the bundled one), so a mistake in it is told at
        start, not in the middle of a game (raises ``error``)."""


class Actuator(Protocol):
    """What makes a device follow the game (a motor turning a game's tower)."""

    def follow(self, view: dict[str, Any], device: Any, remembered: str | None) -> str | None:
        """Move ``device`` to where the public ``view`` says, from where it was last moved to
        (``remembered``, what this returned last time, kept by the table across restarts, or
        None); return what to remember now (None: nothing changed)."""


#: How the new-game wizard lets the host set an option: a checkbox (``"switch"``, a true/false
#: option), one of its values (``"choice"``, a select), several of its values (``"several"``,
#: checkboxes, for a list), a number from ``low`` to ``high`` (``"number"``, a select), one of the
#: game's data sets (``"data_set"``), or not offered (``"none"``: it keeps its default, for
#: options only a replay or a test sets, such as an arranged start).
CONTROLS = ("switch", "choice", "several", "number", "data_set", "none")


@dataclass(frozen=True)
class OptionText:
    """An option as a player reads it in the new-game wizard: a few words (``label``) and a
    sentence saying what it does (``sentence``), both through :func:`companion.i18n.t`; the rule
    it comes from is the option's own (``Option.rule``), shown beside it as a small reference.
    ``values`` say in words what each value means (for ``"choice"`` and ``"several"``)."""

    label: str
    sentence: str
    control: str
    values: tuple[tuple[Any, str], ...] = ()  #: (value, its words), in the order shown
    low: int = 0  #: the smallest number (``"number"``)
    high: int = 0  #: the largest number (``"number"``)


def describe_option(option: Any) -> OptionText:
    """The wizard's words for an option a game does not describe (a test's own game): its name
    and its documentation, a control fitting its default; lists and objects are not offered,
    since nobody types JSON on a phone."""
    label = option.name.replace("_", " ").capitalize()
    if isinstance(option.default, bool):
        return OptionText(label, option.doc, "switch")
    if option.choices:
        return OptionText(label, option.doc, "choice", tuple((c, str(c)) for c in option.choices))
    if isinstance(option.default, int):
        return OptionText(label, option.doc, "number", low=0, high=max(option.default * 2, 10))
    return OptionText(label, option.doc, "none")


@dataclass(frozen=True)
class Catalogs:
    """A game's gettext catalogs, in ``<package>/translations/<lang>/LC_MESSAGES``."""

    server: tuple[str, ...] = ()  #: the rules' texts (translated in every snapshot)
    pages: tuple[str, ...] = ()  #: the page module's texts


@dataclass(eq=False)
class GamePlugin:
    """One game, as the rest of the companion sees it. Parts are given as objects or as
    ``"module:attribute"`` strings relative to ``package`` (imported on first use)."""

    id: str
    title: str
    package: str  #: the game's package, ``companion.games.<id>``
    rules: Any
    inputs: Any = None
    lights: Any = None
    sim: Any = None
    data_sets: Any = None
    option_texts: Any = None
    actuators: dict[str, Any] = field(default_factory=dict)
    static: str | None = "static"  #: the page module's folder in the package; None: no page
    catalogs: Catalogs = Catalogs()
    #: the game's BoardGameGeek id, for the BG Stats export (``docs/plays.md``); None unless it
    #: is confirmed from a source (a wrong id would log the play against another game)
    bgg_id: int | None = None

    # -- the parts, loaded on first use ---------------------------------------------------------

    @functools.cached_property
    def game(self) -> Game:
        """The rules core (one instance, stateless)."""
        rules = self._load(self.rules)
        return rules() if isinstance(rules, type) else rules

    @functools.cached_property
    def input_mapping(self) -> Any:
        """How the table's sensors read the game (a ``GameInputs``); None when the game names
        none (the table then uses the base ``GameInputs``: ``table.inputs.inputs_for``)."""
        if self.inputs is None:
            return None
        inputs = self._load(self.inputs)
        return inputs(self.game) if isinstance(inputs, type) else inputs

    @functools.cached_property
    def drawer(self) -> GameLights | None:
        """How the game draws on the LED strips; None when it names nothing (the table then
        draws the status lights: ``lights.StatusLights``)."""
        if self.lights is None:
            return None
        lights = self._load(self.lights)
        return lights() if isinstance(lights, type) else lights

    @functools.cached_property
    def hands(self) -> type | None:
        """The simulated hands' class (a ``GameHands`` subclass); None when the game names none
        (the simulated table then uses the base ``GameHands``: no stickers, no acts)."""
        return self._load(self.sim) if self.sim is not None else None

    @functools.cached_property
    def data(self) -> DataSets | None:
        """The game's data sets, if it has any."""
        if self.data_sets is None:
            return None
        sets = self._load(self.data_sets)
        return sets() if isinstance(sets, type) else sets

    @functools.cached_property
    def described_options(self) -> dict[str, OptionText]:
        """Every option of the rules core as the new-game wizard tells it, by name: the game's
        own words (``option_texts``), else words made from the option (:func:`describe_option`)."""
        own = self._load(self.option_texts) if self.option_texts is not None else {}
        return {o.name: own.get(o.name) or describe_option(o) for o in self.game.options}

    def actuator(self, name: str) -> Actuator | None:
        """What makes the device ``name`` follow this game, if the game moves one."""
        part = self.actuators.get(name)
        if part is None:
            return None
        loaded = self._load(part)
        return loaded() if isinstance(loaded, type) else loaded

    @property
    def folder(self) -> Path:
        """The game's package folder."""
        return Path(importlib.import_module(self.package).__file__).parent

    @property
    def static_folder(self) -> Path | None:
        return self.folder / self.static if self.static else None

    @property
    def translations(self) -> Path:
        return self.folder / "translations"

    def _load(self, part: Any) -> Any:
        if not isinstance(part, str):
            return part
        module, _, attribute = part.partition(":")
        loaded = importlib.import_module(f"{self.package}.{module}" if module else self.package)
        return getattr(loaded, attribute) if attribute else loaded
