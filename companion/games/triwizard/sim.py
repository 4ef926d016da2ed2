"""The Triwizard Maze Game on the simulated table: a box of stickers (the 4 pieces, every Battle
Card, Obstacle Card and Resource Tile, the 4 Cup Tiles and every Path space of the maze), and the
hands that do what the table waits for: they draw a card or a tile, lay out an Obstacle Card,
flip a Cup Tile, peek at one with the Four Point Spell and take a tile with Red Sparks, each
picked with the game's own ``sample`` on the referee's state (the draw pile's order is unknown to
everyone, the Cup Tiles' places too until one is flipped or peeked, TW-AMB-31).

What is public is tapped at the board's reader (an Obstacle Card laid out, a Cup Tile flipped);
what is private is tapped at the reader of the drawer's own seat when the table has one, else told
on the drawer's phone, as a player would (``inputs``: never at the board's reader). A component
without a sticker (a data set the box was not made for) is told on a phone too: the drawer's, or
for a public one the active player's. The hands
never say who holds what: the world shows the stickers of each component and what is awaited, not
where a card or a tile lies; for a host who plays a seat it shows no sticker's UID either (only
how many stickers each component has), and a blind host may not tap a card, a tile or a Cup Tile
by name (it would choose what that player cannot see: ``draw`` picks unseen).
"""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.table.sim import GameHands, sticker_box

from .rules.stickers import sticker_name

#: a drawn thing's action -> (sticker kind, the action's key naming it, told in public)
DRAWS = {
    "draw_card": ("battle", "card", False),
    "draw_tile": ("tile", "tile", False),
    "steal": ("tile", "tile", False),
    "peek": ("cup", "tile", False),
    "reveal_obstacle": ("obstacle", "card", True),
    "flip_cup": ("cup", "tile", True),
}
#: the pending steps the hands do (the die is thrown, not drawn)
AWAITED = ("card", "tile", "obstacle", "cup", "peek", "steal")
#: stickers a blind host may not tap by name: their faces are hidden
HIDDEN_KINDS = ("battle", "tile", "cup", "obstacle")


def triwizard_tags(seed: int, components: dict[str, int]) -> dict[str, str]:
    """The simulated box: UID -> component ("piece 1", "battle b07", "cup headstone-2"), as
    many stickers as the box holds of each, UIDs fixed by ``seed``."""
    return sticker_box("triwizard", seed, components)


class TriwizardHands(GameHands):
    acts = {
        "draw": {},
        "draw_all": {},
        "tap_component": {"component": (str, "tap_component needs a component")},
        "tell": {"component": (str, "tell needs a component: obstacle <id> or cup <identity>")},
    }
    controls = (
        ("draw", t("Draw, flip or peek what is asked for"), False),
        ("draw_all", t("Draw all asked for"), True),
        ("throw", t("Throw the die"), False),
    )

    def stickers(self) -> dict[str, str]:
        return triwizard_tags(self.seed, self.game.components)

    def world(self, viewer: str | None = None) -> dict[str, Any]:
        """The box: every component with its stickers, and what is awaited (which draw, whose,
        which Cup Tile). Where each card or tile lies is not shown. For ``viewer`` (a host who
        plays that seat) each component's count of stickers instead of their UIDs."""
        stickers: dict[str, list[str]] = {}
        for row in self.table.tags.export()["tags"]:
            if row["game"] == self.game.id:
                stickers.setdefault(row["component"], []).append(row["uid"])
        awaiting = self._awaited()
        if viewer is None:
            return {"stickers": stickers, "awaiting": awaiting}
        return {
            "stickers": {name: len(stickers[name]) for name in sorted(stickers)},
            "awaiting": awaiting,
        }

    def _awaited(self) -> dict[str, Any] | None:
        """The pending step the hands may do, in public words: its kind, for whom (a name), and
        the Cup Tile's slot for a flip or a peek."""
        history = self.table.history
        if history is None or history.game.id != self.game.id:
            return None
        pending = history.state.get("pending") or []
        if not pending or pending[0].get("kind") not in AWAITED:
            return None
        step = pending[0]
        players = history.state["players"]
        player = step.get("player")
        if isinstance(player, int) and 0 <= player < len(players):
            player = players[player]
        public = {"kind": step["kind"], "player": player if isinstance(player, str) else None}
        for key in ("why", "slot"):
            if key in step:
                public[key] = step[key]
        return public

    def _stickers_of(self, component: str) -> list[str]:
        """The enrolled stickers of a component: the simulated box's, or any other sticker the
        host enrolled as that component."""
        return sorted(
            row["uid"]
            for row in self.table.tags.export()["tags"]
            if row["game"] == self.game.id and row["component"] == component
        )

    def draw(self) -> list[dict[str, Any]]:
        """Do the awaited draw, reveal, flip, peek or steal: what the world gives is the game's
        own sample of the referee's state; its sticker is tapped at the board's reader when the
        table sees it, else at the drawer's own reader or told on the drawer's phone."""
        if self._awaited() is None:
            return []
        history = self.table.history
        action = history.game.sample(history.state)
        kind, key, public = DRAWS[action["type"]]
        stickers = self._stickers_of(sticker_name(kind, action[key]))
        if public and stickers:
            return self.tap(self.rng.choice(stickers))
        player = action.get("player")
        if public:  # no sticker on it (a data set the box was not made for): the mover's phone
            state = history.state
            seat = state["active"] if state["active"] is not None else 0
            return self._phone(state["players"][seat], action)
        seat = (
            history.state["players"].index(player) if player in history.state["players"] else None
        )
        reader = f"seat{seat + 1}" if seat is not None else None
        if stickers and reader in self.sim.devices.nfc:
            return self.sim.tap(self.rng.choice(stickers), reader=reader)
        return self._phone(player, action)

    def _phone(self, player: str | None, action: dict[str, Any]) -> list[dict[str, Any]]:
        """The drawer tells the draw on their own phone (a table without a reader at the seat,
        or a card without a sticker)."""
        before = self.table.inputs_handled
        self.table.call("action", f"phone:{player}", action=action, player=player)
        self.table.sync()
        return self.table.outcomes_since(before)

    def draw_all(self) -> list[dict[str, Any]]:
        """Everything the table asks to be drawn, laid out or flipped, until it waits for
        something else."""
        outcomes: list[dict[str, Any]] = []
        while self._awaited() is not None:
            got = self.draw()
            outcomes += got
            if not got or not all(o["ok"] for o in got):
                break
        return outcomes

    def tap_component(self, component: str) -> list[dict[str, Any]]:
        """Tap a sticker of a named component ("piece 2", "space k5", "battle b07") at the
        board's reader."""
        stickers = self._stickers_of(" ".join(component.lower().split()))
        if not stickers:
            raise ValueError(f"no sticker of {component!r} is enrolled")
        return self.tap(self.rng.choice(stickers))

    def tell(self, component: str) -> list[dict[str, Any]]:
        """A public draw picked by its face on the host's page ("obstacle o03", "cup cup"): its
        sticker tapped at the board's reader when one is enrolled, else told on the active
        player's phone (the first seat's before the first turn), as a table without stickers
        does."""
        kind, _, value = " ".join(component.split()).partition(" ")
        if kind not in ("obstacle", "cup") or not value:
            raise ValueError("tell needs a component: obstacle <id> or cup <identity>")
        awaited = self._awaited()
        if awaited is None or awaited["kind"] != kind:
            raise ValueError("no such public draw is awaited now")
        stickers = self._stickers_of(sticker_name(kind, value))
        if stickers:
            return self.tap(self.rng.choice(stickers))
        state = self.table.history.state
        action: dict[str, Any] = (
            {"type": "reveal_obstacle", "card": value}
            if kind == "obstacle"
            else {"type": "flip_cup", "slot": awaited.get("slot"), "tile": value}
        )
        seat = state["active"] if state["active"] is not None else 0
        return self._phone(state["players"][seat], action)

    def refuse_blind(self, act: str, arguments: dict[str, Any], viewer: str) -> str | None:
        """A blind host taps pieces and spaces by name, and the cards and tiles of their own
        hand; never another card, tile or a Cup Tile: it would choose a face the player cannot
        see (``draw`` picks unseen)."""
        if act not in ("tap_component", "tell"):
            return None
        name = " ".join(str(arguments.get("component", "")).lower().split())
        kind = name.split(" ", 1)[0]
        if kind not in HIDDEN_KINDS or name in self._own(viewer):
            return None
        return t(
            "{player} cannot pick a card, a tile or a Cup Tile by its face; draw what is asked "
            "for instead.",
            player=viewer,
        )

    def _own(self, viewer: str) -> set[str]:
        """The stickers of the cards and tiles ``viewer`` holds, as their own view shows them."""
        history = self.table.history if self.table is not None else None
        if history is None or history.game.id != self.game.id:
            return set()
        if viewer not in history.state["players"]:
            return set()
        shown = history.game.view(history.state, viewer)["players"].get(viewer) or {}
        own = {sticker_name("battle", card["card"]) for card in shown.get("hand") or []}
        return own | {sticker_name("tile", tile["tile"]) for tile in shown.get("tiles") or []}
