"""Inputs become game actions: a tapped tag, a seat button and a die roll turn into the very same
actions that the phone sends, so one rules core and one test suite serve every source.

A mapping never changes state; it returns an action for the rules core to judge, or a
:class:`Refusal` when the input cannot mean anything now (an unknown tag, a tag of another game,
a button at an empty seat). The table-level rule IDs are documented in ``docs/rule-ids.md``.
"""

from __future__ import annotations

from random import Random
from typing import Any

from ..devices.events import DieRolled
from ..i18n import t
from ..rules import Action, Chance, Game, Refusal, State
from .tags import Component

UNKNOWN_TAG = "TABLE-TAG-1"
WRONG_KIND = "TABLE-TAG-2"
NOTHING_TO_TAP = "TABLE-TAG-3"
WRONG_READER = "TABLE-TAG-5"
EMPTY_SEAT = "TABLE-SEAT-1"
NO_GAME = "TABLE-GAME-1"
CORRUPT_DICE = "TABLE-DICE-1"
UNASKED_ROLL = "TABLE-DICE-2"
CROOKED_DIE = "TABLE-DICE-3"
PLACED_DIE = "TABLE-DICE-4"
READER_CONNECTED = "TABLE-DICE-5"
NOT_YOUR_ROLL = "TABLE-DICE-6"
BAD_REQUEST = "TABLE-REQUEST-1"


class GameInputs:
    """How one game reads the table's sensors: a game's plug-in names its subclass (``inputs``);
    this base, used as it is, takes every decision from the phone and no tag at all."""

    #: the action types a player may send from the phone; the rest come from the sensors
    phone_actions: frozenset[str] = frozenset()
    #: the action types only the sensors make (a phone sending one is refused as such)
    sensor_actions: frozenset[str] = frozenset()
    #: option values that suit a table with sensors, offered as the defaults of a new game
    option_defaults: dict[str, Any] = {}

    def from_phone(self, kind: str) -> bool:
        """Whether a phone may send an action of type ``kind``: one of the game's
        ``phone_actions``, or, for a game that names none, any action but the sensors' and the
        host's undo."""
        if self.phone_actions:
            return kind in self.phone_actions
        return kind not in self.sensor_actions and kind != "undo"

    def __init__(self, game: Game):
        self.game = game

    def tag(self, state: State, component: Component, uid: str, reader: str) -> Action | Refusal:
        """What a tapped sticker means now; by default nothing (the game has no stickers)."""
        return Refusal(
            WRONG_KIND,
            t(
                "That tag is {component}; {game} uses no stickers.",
                component=component.name,
                game=self.game.title,
            ),
        )

    def tag_owner(self, state: State, action: Action) -> str | None:
        """The player whose tap ``action`` (mapped from a tag) is, or None when anyone's is: a
        tag at a seat's own reader makes only that seat's player's actions."""
        player = action.get("player")
        return player if isinstance(player, str) else None

    def button(self, state: State, player: str, long: bool) -> Action | Refusal:
        """A long press undoes the last action; a short press is the game's own."""
        if long:
            return {"type": "undo"}
        return self.short_press(state, player)

    def short_press(self, state: State, player: str) -> Action | Refusal:
        """A seat button's short press; by default the seat's player ends the turn."""
        return {"type": "end_turn", "player": player}

    def die(self, state: State, roll: DieRolled) -> Action | Refusal:
        """A genuine roll, while the game waits for one: the face's number by default."""
        return {"type": "roll", "value": roll.value if roll.value is not None else roll.face}

    def dice(self, state: State, rolls: list[DieRolled]) -> Action | Refusal:
        """Several dice rolled together (``Chance.dice`` of them), in die order."""
        return {
            "type": "roll",
            "values": [r.value if r.value is not None else r.face for r in rolls],
        }

    def virtual_roll(self, state: State, chance: Chance, rng: Random) -> Action | Refusal:
        """A roll the server makes for a table without a dice reader: fair faces of the dice."""
        if chance.dice == 1:
            return {"type": "roll", "value": rng.choice(chance.faces)}
        return {"type": "roll", "values": [rng.choice(chance.faces) for _ in range(chance.dice)]}


_BASE: dict[Any, GameInputs] = {}  # the base mapping of each game that names none


def inputs_for(game: Game) -> GameInputs:
    """How the table's sensors read ``game``: its plug-in's ``inputs``, or this base."""
    from ..games import plugin

    found = plugin(game.id)
    if found.input_mapping is not None:
        return found.input_mapping
    if found not in _BASE:
        _BASE[found] = GameInputs(found.game)
    return _BASE[found]
