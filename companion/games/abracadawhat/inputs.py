"""How Abracada...What? reads the table: a stone tapped at the board reader, and the seat
buttons."""

from __future__ import annotations

from companion.i18n import t
from companion.rules import TABLE, Action, Refusal, State
from companion.table.inputs import NOTHING_TO_TAP, WRONG_KIND, GameInputs
from companion.table.tags import Component


class AbracadaInputs(GameInputs):
    """Stones are tapped at the board reader; what a tap means follows the phase of the round."""

    phone_actions = frozenset(
        {"cast", "end_turn", "take_secret", "decline_secret", "object", "allow"}
    )
    sensor_actions = frozenset({"deal", "deal_stone", "remove", "refill", "roll"})
    option_defaults = {"removal": "tap"}  # the board reader senses the right neighbour's removal

    def tag(self, state: State, component: Component, uid: str, reader: str) -> Action | Refusal:
        if component.game != self.game.id or component.kind != "stone":
            return Refusal(
                WRONG_KIND,
                t(
                    "That tag is {component} of another game, not a stone of {game}.",
                    component=component.name,
                    game=self.game.title,
                ),
            )
        stone = component.value
        phase = state["phase"]
        if phase == "deal":
            return {"type": "deal_stone", "stone": stone, "tag": uid}
        if phase == "remove":
            return {"type": "remove", "stone": stone, "tag": uid}
        if phase == "refill":
            return {
                "type": "refill",
                "player": state["players"][state["active"]],
                "stone": stone,
                "tag": uid,
            }
        if phase == "secret":
            return {"type": "take_secret", "player": state["players"][state["active"]], "tag": uid}
        return Refusal(
            NOTHING_TO_TAP,
            t(
                "No stone is expected at the reader now; {prompt}",
                prompt=self.game.view(state, TABLE)["prompt"],
            ),
        )

    def short_press(self, state: State, player: str) -> Action | Refusal:
        """The seat button ends the active player's turn, or objects to an out-of-order cast."""
        if state["phase"] == "objection" and state["players"][state["active"]] != player:
            return {"type": "object", "player": player}
        return {"type": "end_turn", "player": player}
