"""How Race to Ten reads the table: the die from the dice reader, the bonus card's sticker at the
board reader, a seat button's short press ends its player's turn (the default)."""

from __future__ import annotations

from companion.i18n import t
from companion.rules import Action, Refusal, State
from companion.table.inputs import WRONG_KIND, GameInputs
from companion.table.tags import Component


class ToyInputs(GameInputs):
    phone_actions = frozenset({"end_turn"})
    sensor_actions = frozenset({"roll", "bonus"})

    def tag(self, state: State, component: Component, uid: str, reader: str) -> Action | Refusal:
        if component.game != self.game.id or component.name != "bonus card":
            return Refusal(WRONG_KIND, t("That tag is not Race to Ten's bonus card."))
        return {"type": "bonus"}
