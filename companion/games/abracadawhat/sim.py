"""Abracada...What? on the simulated table: a box of 36 stones with stickers, and the hands that
deal them from the face-down pile, remove the declared stone from the caster's rack and take a
secret stone. The hands know where each stone lies from what the table has sensed."""

from __future__ import annotations

import random
from typing import Any

from companion.i18n import t
from companion.table.sim import GameHands


def stone_tags(seed: int) -> dict[str, int]:
    """The simulated box: UID -> stone number, 7-byte NTAG-style UIDs fixed by ``seed``."""
    rng = random.Random(f"stickers/{seed}")
    tags: dict[str, int] = {}
    for n in range(1, 9):
        for _ in range(n):
            uid = "04" + "".join(f"{rng.randrange(256):02X}" for _ in range(6))
            tags[uid] = n
    return tags


class AbracadaHands(GameHands):
    acts = {
        "draw": {},
        "draw_all": {},
        "remove": {},
        "take_secret": {"slot": (int, "take_secret needs a slot")},
    }
    controls = (
        ("draw", t("Tap a stone from the pile"), False),
        ("draw_all", t("Deal / draw all asked for"), True),
        ("remove", t("Right neighbour removes the stone"), False),
        ("roll", t("Roll the die"), False),
    )

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.box = stone_tags(self.seed)

    def stickers(self) -> dict[str, str]:
        return {uid: f"stone {n}" for uid, n in self.box.items()}

    # -- where the stones are ----------------------------------------------------------------

    def world(self) -> dict[str, Any]:
        """Every stone and where it lies, for the simulation panel."""
        view = self.state()
        sensed = view["tags"] if view else {}
        players = view["order"] if view else []
        places: dict[str, list[dict[str, Any]]] = {"pile": [], "board": [], "removed": []}
        for p in players:
            places[f"rack:{p}"] = []
            places[f"acquired:{p}"] = []
        secret: dict[int, dict[str, Any]] = {}
        for uid, n in self.box.items():
            where = sensed.get(uid, ["pile"])[0]
            stone = {"uid": uid, "stone": n}
            if where.startswith(("rack:", "acquired:")):
                kind, seat = where.split(":")
                places[f"{kind}:{players[int(seat)]}"].append(stone)
            elif where.startswith("secret:"):
                secret[int(where.split(":")[1])] = stone
            else:
                places.setdefault(where, []).append(stone)
        for stones in places.values():
            stones.sort(key=lambda s: (s["stone"], s["uid"]))
        return {
            "places": places,
            "secret": [secret.get(i) for i in range(4)],
            "phase": view["phase"] if view else None,
        }

    def _pile(self) -> list[str]:
        return [s["uid"] for s in self.world()["places"]["pile"]]

    # -- hands --------------------------------------------------------------------------------

    def draw(self) -> list[dict[str, Any]]:
        """Draw a face-down stone from the pile and tap it (dealing or refilling)."""
        pile = self._pile()
        return self.tap(self.rng.choice(pile)) if pile else []

    def draw_all(self) -> list[dict[str, Any]]:
        """Keep drawing while the table asks for stones (the whole deal, or a whole refill)."""
        outcomes: list[dict[str, Any]] = []
        while (view := self.state()) is not None and view["phase"] in ("deal", "refill"):
            got = self.draw()
            outcomes += got
            if not got or not all(o["ok"] for o in got):
                break  # nothing to draw, or refused: stop rather than loop
        return outcomes

    def remove(self) -> list[dict[str, Any]]:
        """The right neighbour takes a stone of the declared number from the caster's rack."""
        view = self.state()
        if view is None or view["phase"] != "remove":
            return []
        caster = view["active"]
        spell = view["pending"]["spell"]
        for stone in self.world()["places"][f"rack:{caster}"]:
            if stone["stone"] == spell:
                return self.tap(stone["uid"])
        return []

    def take_secret(self, slot: int) -> list[dict[str, Any]]:
        stone = self.world()["secret"][slot] if 0 <= slot < 4 else None
        return self.tap(stone["uid"]) if stone is not None else []
