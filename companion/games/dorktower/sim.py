"""Dork Tower on the simulated table: a box of stickers (the tower, the board's spaces, every
encounter token, every item and scroll card), and the hands that draw what the table waits for
(a token from the bowl, the top card of a deck, picked with the game's own ``sample`` on the
referee's state) and turn the tower. They never say who holds which scroll; for a host who plays
a seat the panel shows no sticker's UID either (only how many stickers each component has), and
what a draw for another player drew is not told (``companion/web/simulation.py``)."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.table.sim import GameHands, sticker_box

#: a drawn thing's action -> (component kind, the action's key naming it)
DRAWS = {
    "draw_token": ("token", "token"),
    "draw_item": ("item", "card"),
    "draw_scroll": ("scroll", "scroll"),
}


def dorktower_tags(seed: int, components: dict[str, int]) -> dict[str, str]:
    """The simulated Dork Tower box: UID -> component ("tower", "token goblin", "item dagger",
    "scroll hex"), as many stickers as the box holds of each, UIDs fixed by ``seed``."""
    return sticker_box("dorktower", seed, components)


class DorkTowerHands(GameHands):
    acts = {
        "draw": {},
        "draw_all": {},
        "turn_tower": {},
        "tap_component": {"component": (str, "tap_component needs a component")},
    }
    controls = (
        ("draw", t("Draw what is asked for (tap its sticker)"), False),
        ("draw_all", t("Draw all asked for"), True),
        ("throw", t("Throw the dice"), False),
        ("turn_tower", t("Turn the tower (tap its sticker)"), False),
    )

    def stickers(self) -> dict[str, str]:
        return dorktower_tags(self.seed, self.game.components)

    def world(self, viewer: str | None = None) -> dict[str, Any]:
        """The box: every component with its stickers, and the awaited draw. Where each card lies
        is not shown (a scroll in hand is its owner's secret). For ``viewer`` (a host who plays
        that seat) each component's count of stickers instead of their UIDs: a UID seen once
        names the card it is stuck on."""
        stickers: dict[str, list[str]] = {}
        for row in self.table.tags.export()["tags"]:
            if row["game"] == self.game.id:
                stickers.setdefault(row["component"], []).append(row["uid"])
        awaiting = self._awaited_draw()
        if viewer is None:
            return {"stickers": stickers, "awaiting": awaiting}
        public = ("kind", "player", "face", "why", "left")
        return {
            "stickers": {name: len(stickers[name]) for name in sorted(stickers)},  # not by UID
            "awaiting": {k: awaiting[k] for k in public if k in awaiting} if awaiting else None,
        }

    def _awaited_draw(self) -> dict[str, Any] | None:
        history = self.table.history
        if history is None or history.game.id != self.game.id:
            return None
        awaited = history.game.awaited(history.state)
        return awaited if awaited and awaited["kind"] in ("token", "item", "scroll") else None

    def _stickers_of(self, component: str) -> list[str]:
        """The enrolled stickers of a component: the simulated box's, or any other sticker the
        host enrolled as that component."""
        return sorted(
            row["uid"]
            for row in self.table.tags.export()["tags"]
            if row["game"] == self.game.id and row["component"] == component
        )

    def draw(self) -> list[dict[str, Any]]:
        """The hand at the bowl or the deck: what the world draws is the game's own sample of
        the referee's state; a sticker of that component is tapped on the reader."""
        if self._awaited_draw() is None:
            return []
        history = self.table.history
        action = history.game.sample(history.state)
        kind, key = DRAWS[action["type"]]
        stickers = self._stickers_of(f"{kind} {action[key]}")
        if not stickers:
            return []
        return self.tap(self.rng.choice(stickers))

    def draw_all(self) -> list[dict[str, Any]]:
        """Every token and card the table asks for, until it waits for something else."""
        outcomes: list[dict[str, Any]] = []
        while self._awaited_draw() is not None:
            got = self.draw()
            outcomes += got
            if not got or not all(o["ok"] for o in got):
                break
        return outcomes

    def turn_tower(self) -> list[dict[str, Any]]:
        """Turn the tower: its sticker is tapped on the reader (the turn ends)."""
        stickers = self._stickers_of("tower")
        return self.tap(stickers[0]) if stickers else []

    def tap_component(self, component: str) -> list[dict[str, Any]]:
        """Tap a sticker of a named component ("token goblin", "scroll hex", ...)."""
        stickers = self._stickers_of(" ".join(component.lower().split()))
        if not stickers:
            raise ValueError(f"no sticker of {component!r} is enrolled")
        return self.tap(self.rng.choice(stickers))
