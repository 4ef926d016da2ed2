"""The contract every rules core implements.

A rules core is pure: no I/O, no clock, no global randomness. A game is data (a JSON-serialisable
``dict`` state) plus functions over it:

* ``new(players, options, seed)`` builds the state before anything happened;
* ``apply(state, action)`` returns :class:`Accepted` (a *new* state and the events it caused) or a
  :class:`Refusal` naming the rule that forbids the action, in one sentence; the input state is
  never modified;
* ``chance(state)`` says when the next input is a chance step (a die roll, a deal, a draw) and
  ``sample(state)`` resolves it from the state's own seed, so a simulated game is reproducible;
* ``view(state, viewer)`` removes everything that viewer may not see;
* ``indistinguishable(state, viewer, rng)`` deals anew, at random, everything that viewer may not
  see: the secrets harness (``tests/secrets_harness.py``, ``docs/secrets.md``) serves both states
  and fails on any byte of difference;
* ``outcome(state)`` says whether the game is over, who won, and the scores.

Actions and events are plain dicts with a ``"type"`` key; players are named by their (unique) names.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..i18n import reason_of, t
from .errors import SetupError
from .names import clean_name, glyph_key, name_key

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

# Viewers that are not players. A player viewer is the player's name.
TABLE = "@table"  #: the public table display: everything every player may see, nothing more
HOST = "@host"  #: whoever runs the table; usually also a player, so it sees no hidden information
EVERYTHING = "@all"  #: a referee's view of the whole state, for replays and tests; never served

# Rule IDs for refusals that are not about a game's rules but about the action itself.
MALFORMED = "INPUT-1"  #: a field is missing or has the wrong type
UNKNOWN_ACTION = "INPUT-2"  #: the game has no action of that type
UNKNOWN_PLAYER = "INPUT-3"  #: the named player is not at this table


@dataclass(frozen=True)
class Refusal:
    """An action the rules do not allow: the rule that forbids it and why, in one sentence.

    A refusal's reason is shown to everyone at the table, so it never names hidden information.
    """

    rule: str
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"rule": self.rule, "reason": self.reason}


@dataclass(frozen=True)
class Accepted:
    """An action the rules accepted: the state after it and the events it caused, in order."""

    state: State
    events: tuple[Event, ...] = ()


Result = Accepted | Refusal


@dataclass(frozen=True)
class Chance:
    """The game is waiting for chance: a die roll, a deal or a draw that the world supplies.

    ``kind`` is ``"die"``, ``"deal"`` or ``"draw"``; ``player`` is who performs it (who rolls, whose
    rack is refilled), ``rule`` the rule that asks. For a die: ``profile`` names the die the
    dice reader must read (``"d6"``, another of the reader's profiles, or ``"custom"`` with its
    labels in ``faces``; see ``companion_dice.profiles``), ``faces`` are the
    faces the rules accept, and ``dice`` how many dice are rolled together.
    """

    kind: str
    rule: str
    player: str | None = None
    profile: str | None = None
    faces: tuple[Any, ...] = ()
    dice: int = 1

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "rule": self.rule,
            "player": self.player,
            "profile": self.profile,
            "faces": list(self.faces),
            "dice": self.dice,
        }


@dataclass(frozen=True)
class Outcome:
    finished: bool
    winners: tuple[str, ...] = ()
    scores: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Option:
    """A documented game option: its name, default, allowed values and the rule it comes from."""

    name: str
    default: Any
    doc: str
    rule: str
    choices: tuple[Any, ...] = ()  #: allowed values; empty means "any value of the default's type"
    aliases: tuple[str, ...] = ()  #: other accepted spellings, e.g. the rule ID of a variant

    def check(self, value: Any) -> Any:
        if self.choices:
            if value not in self.choices or type(value) is not type(self.default):
                raise SetupError(
                    t(
                        "option {option} must be one of {choices}, not {value}",
                        option=repr(self.name),
                        choices=str(list(self.choices)),
                        value=repr(value),
                    )
                )
            return value
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise SetupError(
                    t(
                        "option {option} must be true or false, not {value}",
                        option=repr(self.name),
                        value=repr(value),
                    )
                )
        elif isinstance(self.default, int):
            if not isinstance(value, int) or isinstance(value, bool):
                raise SetupError(
                    t(
                        "option {option} must be an integer, not {value}",
                        option=repr(self.name),
                        value=repr(value),
                    )
                )
        elif isinstance(self.default, list):
            if not isinstance(value, list) or not value:
                raise SetupError(
                    t(
                        "option {option} must be a non-empty list, not {value}",
                        option=repr(self.name),
                        value=repr(value),
                    )
                )
        return value


class Game(ABC):
    """One game's rules. Subclasses are stateless; every method is a pure function of its input."""

    id: str
    title: str
    spec: str  #: the specification file in the shared rules folder, e.g. "<game>.md"
    min_players: int
    max_players: int
    options: tuple[Option, ...] = ()
    #: component name -> how many the box holds, e.g. {"stone 5": 5}; the tag registry uses it
    components: dict[str, int] = {}

    # -- setting up ------------------------------------------------------------------------------

    def resolve_options(self, given: dict[str, Any] | None) -> dict[str, Any]:
        """Every option with its value: the defaults overridden by ``given`` (names or aliases)."""
        given = dict(given or {})
        by_name = {}
        for opt in self.options:
            for key in (opt.name, *opt.aliases):
                by_name[key] = opt
        resolved = {opt.name: _copy_json(opt.default) for opt in self.options}
        seen: dict[str, str] = {}
        for key, value in given.items():
            opt = by_name.get(key)
            if opt is None:
                known = ", ".join(o.name for o in self.options) or "none"
                raise SetupError(
                    t(
                        "{game} has no option {option} (options: {known})",
                        game=self.title,
                        option=repr(key),
                        known=known,
                    )
                )
            if opt.name in seen:
                raise SetupError(
                    t(
                        "option {option} given twice ({first} and {second})",
                        option=repr(opt.name),
                        first=repr(seen[opt.name]),
                        second=repr(key),
                    )
                )
            seen[opt.name] = key
            resolved[opt.name] = opt.check(value)
        return resolved

    def check_players(self, players: list[str]) -> list[str]:
        """The players' names as the table keeps them, in seat order: each cleaned
        (:func:`.names.clean_name`), refused with its seat when it cannot be a name, and no two
        alike (:func:`.names.name_key`, :func:`.names.glyph_key`), since every page, the table
        display and the LED legend tell the players apart by their names alone."""
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise SetupError(t("players must be a list of names"))
        if not self.min_players <= len(players) <= self.max_players:
            raise SetupError(
                t(
                    "{game} is for {low} to {high} players, not {n}",
                    game=self.title,
                    low=self.min_players,
                    high=self.max_players,
                    n=len(players),
                )
            )
        names: list[str] = []
        keys: list[tuple[str, str]] = []
        for seat, given in enumerate(players, start=1):
            try:
                name = clean_name(given)
            except SetupError as error:
                raise SetupError(
                    t("seat {seat}: {problem}", seat=seat, problem=reason_of(error))
                ) from None
            key = (name_key(name), glyph_key(name))
            for other, other_key in zip(names, keys):
                if other == name:
                    raise SetupError(t("two players have the same name: {name}", name=name))
                if key[0] == other_key[0] or key[1] == other_key[1]:
                    raise SetupError(
                        t(
                            "two players' names look alike: {first} and {second}",
                            first=other,
                            second=name,
                        )
                    )
            names.append(name)
            keys.append(key)
        return names

    @abstractmethod
    def new(
        self, players: list[str], options: dict[str, Any] | None = None, seed: int = 0
    ) -> State:
        """The state of a new game. ``players`` are in clockwise seat order."""

    # -- playing ---------------------------------------------------------------------------------

    @abstractmethod
    def apply(self, state: State, action: Action) -> Result:
        """The result of ``action`` in ``state``; ``state`` itself is left unchanged."""

    @abstractmethod
    def legal_actions(self, state: State) -> list[Action]:
        """The choices players can make now. Empty while the game waits for chance (see chance)."""

    @abstractmethod
    def chance(self, state: State) -> Chance | None:
        """What chance step the game waits for, if any."""

    @abstractmethod
    def sample(self, state: State) -> Action:
        """The awaited chance step, resolved deterministically from the state's seed."""

    # -- seeing ----------------------------------------------------------------------------------

    @abstractmethod
    def view(self, state: State, viewer: str) -> dict[str, Any]:
        """What ``viewer`` (a player's name, TABLE, HOST or EVERYTHING) may see of ``state``."""

    def view_event(self, event: Event, viewer: str) -> Event:
        """What ``viewer`` may see of an event.

        An event may carry a ``"private"`` dict meant only for the players listed in its
        ``"audience"``; everyone else receives the event without both keys.
        """
        if "private" not in event:
            return event
        if viewer == EVERYTHING or viewer in event.get("audience", ()):
            return event
        return {k: v for k, v in event.items() if k not in ("private", "audience")}

    def describe(self, state: State, action: Action) -> str | None:
        """``action``, made in ``state``, in a few words for everyone at the table ("Ben's
        removal of Ann's 5"): the undo says what it withdrew with them. Public: never what any
        player may not see. None (the default): the table names the action by its type."""
        return None

    def put_back(self, before: State, action: Action, after: State) -> str | None:
        """What the players put back by hand when ``action`` (which led from ``before`` to
        ``after``) is undone, in one public sentence ("Put the 5 back on Ann's rack."), or None
        when nothing on the table moves back."""
        return None

    def placement(self, state: State) -> Counter | None:
        """The physical table of ``state`` in public terms: a :data:`.putting_back.Placement`
        (how many of each ``Thing`` lie in each ``Place``), the same for every state the table
        display cannot tell from ``state``. None: the game does not describe its table, and an
        undo says only ``put_back``'s sentence."""
        return None

    def put_back_steps(self, before: State, action: Action, after: State) -> list[Any]:
        """The :class:`.putting_back.Step` values that reverse by hand what ``action`` (from
        ``before`` to ``after``) changed on the table: followed in order, they turn
        ``placement(after)`` into ``placement(before)``. Public, like ``put_back``. Empty (the
        default) when nothing on the table moves back or the game has no ``placement``."""
        return []

    def indistinguishable(self, state: State, viewer: str, rng: random.Random) -> State:
        """A state that ``viewer`` cannot tell apart from ``state``, with everything hidden from
        ``viewer`` dealt anew at random where the rules allow it.

        The new state must give ``viewer`` the same ``view``, the same ``legal_actions`` (those of
        ``viewer``, for a player) and the same ``chance`` step, and must be a state the game can
        be in (the components' accounting holds, a piece the viewer knows the place of stays
        there); what ``viewer`` may not see (a hidden hand, the order of a deck, a face-down
        piece, for the table display and the host every player's secrets) is shuffled and dealt
        back into the same places with the same sizes. ``state`` is left unchanged; ``rng`` is
        the only randomness; for ``EVERYTHING`` the state comes back unchanged.

        The secrets harness (``tests/secrets_harness.py``) serves a running game's pages, APIs
        and streams for each role, swaps in this state, serves them again and fails on any
        difference: a registered game must provide this method. Events are kept by the table,
        not the state; their ``private`` parts are checked by the harness separately.
        """
        raise NotImplementedError(
            f"{type(self).__name__} has no indistinguishable(state, viewer, rng): a registered "
            f"game must provide it, so that the secrets harness (tests/secrets_harness.py, "
            f"docs/secrets.md) can prove that no page shows a viewer what it may not see"
        )

    @abstractmethod
    def outcome(self, state: State) -> Outcome:
        """Whether the game is over, its winners and every player's score."""

    def start_player(self, state: State) -> str | None:
        """Who played first in the game that led to ``state`` (any state of it, the last
        included), as the rules decided it: the Plays page and the BG Stats export name them.
        None while the rules have not decided yet (a start roll still being rolled). The default:
        the first seat."""
        players = self.players(state)
        return players[0] if players else None

    def progress(self, state: State) -> str | None:
        """Where the game stands, in a few public words (``t("turn {n}", n=15)``, "round 2"):
        the host's list of kept games and the confirmation before a running game is set aside
        name it. A translatable text (:func:`companion.i18n.t`) that tells no secret; None when
        the game does not say (a registered game must: the plug-in contract checks it)."""
        return None

    def deadline(self, state: State) -> dict[str, Any] | None:
        """A countdown the table runs for the game (optional; default: none): ``{"key": str,
        "seconds": int, "action": {...}}``. When ``seconds`` have passed and the game's
        ``deadline`` still has the same ``key``, the table applies ``action`` through the one
        path of every action (logged and durable), as the table itself. Every page shows the
        countdown alike, so it must come from public facts only: two states a viewer cannot tell
        apart (``indistinguishable``) have the same deadline (the secrets harness checks it)."""
        return None

    def players(self, state: State) -> list[str]:
        return list(state["players"])


def _copy_json(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy_json(v) for k, v in value.items()}
    return value
