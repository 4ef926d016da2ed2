"""How Dork Tower reads the table: tokens and cards tapped as they are drawn, a board space's
sticker, the tower's sticker, and the seat buttons."""

from __future__ import annotations

from companion.i18n import t
from companion.rules import TABLE, Action, Refusal, State
from companion.table.inputs import NOTHING_TO_TAP, WRONG_KIND, GameInputs
from companion.table.tags import Component

from .rules.board import space_name


class DorkTowerInputs(GameInputs):
    """Tokens and cards are tapped at the board reader when they are drawn; a space's sticker
    (on a stickered board) is the active hero's move there (a step, or the map's route); the tower's own sticker, or the seat
    button, ends the turn (the tower turns one step)."""

    sensor_actions = frozenset({"roll"})
    #: without stickers on the tokens and cards, the drawer says on the phone what he drew
    phone_actions = frozenset(
        {
            "choose",
            "step",
            "travel",
            "stop",
            "enter_tower",
            "resolve",
            "play_scroll",
            "take_back",
            "done",
            "pass",
            "buy_six",
            "flee",
            "die",
            "shop",
            "shop_more",
            "buy",
            "buy_scroll",
            "sell",
            "work",
            "offer",
            "accept",
            "decline",
            "equip",
            "unequip",
            "discard",
            "level_up",
            "end_turn",
            "draw_token",
            "draw_item",
            "draw_scroll",
        }
    )

    def tag(self, state: State, component: Component, uid: str, reader: str) -> Action | Refusal:
        if component.game != self.game.id:
            return Refusal(
                WRONG_KIND,
                t(
                    "That tag is {component} of another game, not a piece of {game}.",
                    component=component.name,
                    game=self.game.title,
                ),
            )
        kind, value = component.kind, component.name.split(" ", 1)[-1]
        if kind == "tower":
            if state["phase"] in ("start_roll", "choose"):
                return Refusal(
                    NOTHING_TO_TAP,
                    t(
                        "The tower turns at the end of a turn; {prompt}",
                        prompt=self.game.view(state, TABLE)["prompt"],
                    ),
                )
            return {"type": "end_turn", "player": state["players"][state["active"]]}
        if kind == "space":  # a sticker on the board: the hero steps there
            if state["phase"] != "move":
                return Refusal(
                    NOTHING_TO_TAP,
                    t(
                        "A space is tapped while moving; {prompt}",
                        prompt=self.game.view(state, TABLE)["prompt"],
                    ),
                )
            return self._to_space(state, value)
        awaited = self.game.awaited(state)
        wanted = {"token": "token", "item": "item", "scroll": "scroll"}.get(kind)
        if awaited is None or awaited["kind"] != wanted:
            prompt = self.game.view(state, TABLE)["prompt"]
            return Refusal(
                NOTHING_TO_TAP,
                {
                    "token": t("No token is being drawn now; {prompt}", prompt=prompt),
                    "item": t("No item card is being drawn now; {prompt}", prompt=prompt),
                    "scroll": t("No scroll is being drawn now; {prompt}", prompt=prompt),
                }.get(kind, t("Nothing is being drawn now; {prompt}", prompt=prompt)),
            )
        if kind == "token":
            return {"type": "draw_token", "token": value}
        if kind == "item":
            return {"type": "draw_item", "card": value}
        return {"type": "draw_scroll", "scroll": value, "player": awaited["player"]}

    def _to_space(self, state: State, space: str) -> Action | Refusal:
        """A step to a next space, as the phone's; farther, the route the map would take when it
        costs only movement (no XP, no scroll, not the whole movement across a border): the same
        ``travel`` a tap on the map sends. A route that costs more is chosen on the phone."""
        player = state["players"][state["active"]]
        step = {"type": "step", "player": player, "to": space}
        data = self.game.data(state)
        here = state["heroes"][state["active"]]["space"]
        if space in data["adjacent"].get(here, {}):
            return step
        place = next(
            (
                entry
                for entry in self.game.view(state, player)["reach"] or []
                if entry["to"] == space
            ),
            None,
        )
        if place is None:
            return step  # the rules say why not (DT-MOVE-1, DT-MOVE-3 ...)
        for way in place["ways"]:
            if not way["xp"] and not way["scrolls"] and not way["whole"]:
                return {"type": "travel", "player": player, "path": way["path"], "pay": way["pay"]}
        crossing = any(
            cross["by"] not in ("ability", "item") for cross in place["ways"][0]["crossings"]
        )
        return Refusal(
            "DT-BORDER-2" if crossing else "DT-MOVE-2",
            t(
                "{space} is reached only by paying (XP, a scroll or the whole movement): "
                "{player} chooses how on the phone's map.",
                space=space_name(data, space),
                player=player,
            ),
        )

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
