"""Inputs become game actions: a tapped tag, a seat button and a die roll turn into the very same
actions that the phone sends, so one rules core and one test suite serve every source.

A mapping never changes state; it returns an action for the rules core to judge, or a
:class:`Refusal` when the input cannot mean anything now (an unknown tag, a tag of another game,
a button at an empty seat). The table-level rule IDs are documented in ``docs/rule-ids.md``.
"""

from __future__ import annotations

from typing import Any

from random import Random

from ..devices.events import DieRolled
from ..i18n import t
from ..rules import TABLE, Action, Chance, Game, Refusal, State
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
    """How one game reads the table's sensors. Subclass per game and register in ``INPUTS``."""

    #: the action types a player may send from the phone; the rest come from the sensors
    phone_actions: frozenset[str] = frozenset()
    #: the action types only the sensors make (a phone sending one is refused as such)
    sensor_actions: frozenset[str] = frozenset()
    #: option values that suit a table with sensors, offered as the defaults of a new game
    option_defaults: dict[str, Any] = {}

    def __init__(self, game: Game):
        self.game = game

    def tag(self, state: State, component: Component, uid: str, reader: str) -> Action | Refusal:
        raise NotImplementedError

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
        raise NotImplementedError

    def die(self, state: State, roll: DieRolled) -> Action | Refusal:
        """A genuine roll, while the game waits for one: the face's number by default."""
        return {"type": "roll", "value": roll.value if roll.value is not None else roll.face}

    def dice(self, state: State, rolls: list[DieRolled]) -> Action | Refusal:
        """Several dice rolled together (``Chance.dice`` of them), in die order."""
        return {"type": "roll",
                "values": [r.value if r.value is not None else r.face for r in rolls]}

    def virtual_roll(self, state: State, chance: Chance, rng: Random) -> Action | Refusal:
        """A roll the server makes for a table without a dice reader: fair faces of the dice."""
        if chance.dice == 1:
            return {"type": "roll", "value": rng.choice(chance.faces)}
        return {"type": "roll", "values": [rng.choice(chance.faces) for _ in range(chance.dice)]}


class AbracadaInputs(GameInputs):
    """Stones are tapped at the board reader; what a tap means follows the phase of the round."""

    phone_actions = frozenset({"cast", "end_turn", "take_secret", "decline_secret", "object",
                               "allow"})
    sensor_actions = frozenset({"deal", "deal_stone", "remove", "refill", "roll"})
    option_defaults = {"removal": "tap"}  # the board reader senses the right neighbour's removal

    def tag(self, state: State, component: Component, uid: str, reader: str) -> Action | Refusal:
        if component.game != self.game.id or component.kind != "stone":
            return Refusal(WRONG_KIND, t("That tag is {component} of another game, not a stone "
                                         "of {game}.", component=component.name,
                                         game=self.game.title))
        stone = component.value
        phase = state["phase"]
        if phase == "deal":
            return {"type": "deal_stone", "stone": stone, "tag": uid}
        if phase == "remove":
            return {"type": "remove", "stone": stone, "tag": uid}
        if phase == "refill":
            return {"type": "refill", "player": state["players"][state["active"]],
                    "stone": stone, "tag": uid}
        if phase == "secret":
            return {"type": "take_secret", "player": state["players"][state["active"]],
                    "tag": uid}
        return Refusal(NOTHING_TO_TAP, t("No stone is expected at the reader now; {prompt}",
                                         prompt=self.game.view(state, TABLE)["prompt"]))

    def short_press(self, state: State, player: str) -> Action | Refusal:
        """The seat button ends the active player's turn, or objects to an out-of-order cast."""
        if state["phase"] == "objection" and state["players"][state["active"]] != player:
            return {"type": "object", "player": player}
        return {"type": "end_turn", "player": player}


class DorkTowerInputs(GameInputs):
    """Tokens and cards are tapped at the board reader when they are drawn; a space's sticker
    (on a stickered board) is the active hero's step there; the tower's own sticker, or the seat
    button, ends the turn (the tower turns one step)."""

    sensor_actions = frozenset({"roll"})
    #: without stickers on the tokens and cards, the drawer says on the phone what he drew
    phone_actions = frozenset({
        "choose", "step", "stop", "enter_tower", "resolve", "play_scroll", "take_back", "done",
        "pass", "buy_six", "flee", "die", "shop", "shop_more", "buy", "buy_scroll", "sell",
        "work", "offer", "accept", "decline", "equip", "unequip", "discard", "level_up",
        "end_turn", "draw_token", "draw_item", "draw_scroll"})

    def tag(self, state: State, component: Component, uid: str, reader: str) -> Action | Refusal:
        if component.game != self.game.id:
            return Refusal(WRONG_KIND, t("That tag is {component} of another game, not a piece "
                                         "of {game}.", component=component.name,
                                         game=self.game.title))
        kind, value = component.kind, component.name.split(" ", 1)[-1]
        if kind == "tower":
            if state["phase"] in ("start_roll", "choose"):
                return Refusal(NOTHING_TO_TAP, t("The tower turns at the end of a turn; {prompt}",
                                                 prompt=self.game.view(state, TABLE)["prompt"]))
            return {"type": "end_turn", "player": state["players"][state["active"]]}
        if kind == "space":  # a sticker on the board: the hero steps there
            if state["phase"] != "move":
                return Refusal(NOTHING_TO_TAP, t("A space is tapped while moving; {prompt}",
                                                 prompt=self.game.view(state, TABLE)["prompt"]))
            return {"type": "step", "player": state["players"][state["active"]], "to": value}
        awaited = self.game.awaited(state)
        wanted = {"token": "token", "item": "item", "scroll": "scroll"}.get(kind)
        if awaited is None or awaited["kind"] != wanted:
            prompt = self.game.view(state, TABLE)["prompt"]
            return Refusal(NOTHING_TO_TAP, {
                "token": t("No token is being drawn now; {prompt}", prompt=prompt),
                "item": t("No item card is being drawn now; {prompt}", prompt=prompt),
                "scroll": t("No scroll is being drawn now; {prompt}", prompt=prompt),
            }.get(kind, t("Nothing is being drawn now; {prompt}", prompt=prompt)))
        if kind == "token":
            return {"type": "draw_token", "token": value}
        if kind == "item":
            return {"type": "draw_item", "card": value}
        return {"type": "draw_scroll", "scroll": value, "player": awaited["player"]}

    def tag_owner(self, state: State, action: Action) -> str | None:
        """A draw is the drawer's (the awaited player's); a step or the tower the active
        hero's."""
        if action["type"] in ("draw_token", "draw_item", "draw_scroll"):
            awaited = self.game.awaited(state) or {}
            return awaited.get("player") or state["players"][state["active"]]
        return super().tag_owner(state, action)

    def short_press(self, state: State, player: str) -> Action | Refusal:
        """The seat button ends its player's turn: the tower turns one step."""
        return {"type": "end_turn", "player": player}


INPUTS: dict[str, type[GameInputs]] = {"abracadawhat": AbracadaInputs,
                                       "dorktower": DorkTowerInputs}


def inputs_for(game: Game) -> GameInputs:
    return INPUTS[game.id](game)
