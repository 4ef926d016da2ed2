"""Race to Ten on the simulated table: one sticker, the bonus card, and a hand that taps it."""

from __future__ import annotations

import random
from typing import Any

from companion.i18n import t
from companion.table.sim import GameHands


class ToyHands(GameHands):
    acts = {"tap_bonus": {}}
    controls = (("tap_bonus", t("Tap the bonus card"), False), ("roll", t("Roll the die"), True))

    def stickers(self) -> dict[str, str]:
        rng = random.Random(f"toy-stickers/{self.seed}")
        return {"04" + "".join(f"{rng.randrange(256):02X}" for _ in range(6)): "bonus card"}

    def world(self, viewer: str | None = None) -> dict[str, Any]:
        # a host who plays a seat sees how many bonus stickers there are, not their UIDs
        stickers = sorted(self.stickers())
        return {"bonus": stickers if viewer is None else [None] * len(stickers)}

    def tap_bonus(self) -> list[dict[str, Any]]:
        return self.tap(next(iter(self.stickers())))
