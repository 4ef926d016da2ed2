"""The simulated table: the physical pieces, and hands that move them through the simulated devices.

In simulation the companion still only *senses*: this module plays the people at the table. It owns
a box of 36 stones with NFC stickers (their UIDs are fixed by the seed and enrolled on first start,
as a maker would enrol real stickers), knows where each stone lies from what the table has sensed,
and acts by tapping stickers on the simulated reader, pressing simulated seat buttons and rolling
the simulated dice reader. Every act goes through the same queue, mapping and rules as real hardware.

It sees every stone face, like the physical world does; the host page that shows it is therefore a
simulation tool, never a player's page.
"""

from __future__ import annotations

import random
from typing import Any

from ..devices.factory import Devices
from .runtime import Table

GAME = "abracadawhat"


def stone_tags(seed: int) -> dict[str, int]:
    """The simulated box: UID -> stone number, 7-byte NTAG-style UIDs fixed by ``seed``."""
    rng = random.Random(f"stickers/{seed}")
    tags: dict[str, int] = {}
    for n in range(1, 9):
        for _ in range(n):
            uid = "04" + "".join(f"{rng.randrange(256):02X}" for _ in range(6))
            tags[uid] = n
    return tags


class SimulatedTable:
    def __init__(self, table: Table, devices: Devices, seed: int):
        self.table = table
        self.devices = devices
        self.rng = random.Random(f"hands/{seed}")
        self.box = stone_tags(seed)

    def enrol_box(self) -> int:
        """Enrol the simulated stickers that the registry does not know yet; returns how many."""
        missing = [{"uid": uid, "game": GAME, "component": f"stone {n}"}
                   for uid, n in self.box.items() if self.table.tags.lookup(uid) is None]
        if missing:
            self.table.tags.import_({"format": "companion-tags/1", "tags": missing})
        return len(missing)

    # -- where the stones are ----------------------------------------------------------------

    def _state(self) -> dict[str, Any] | None:
        view = self.table.referee_view()
        return view if view is not None and view["game"] == GAME else None

    def world(self) -> dict[str, Any]:
        """Every stone and where it lies, for the simulation panel."""
        view = self._state()
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
        return {"places": places, "secret": [secret.get(i) for i in range(4)],
                "phase": view["phase"] if view else None,
                "dice": self.devices.sim_dice is not None and self.devices.sim_dice.running}

    def _pile(self) -> list[str]:
        return [s["uid"] for s in self.world()["places"]["pile"]]

    # -- hands --------------------------------------------------------------------------------

    def tap(self, uid: str) -> None:
        self.devices.nfc["board"].tap(uid)
        self.table.sync()

    def tap_unknown(self) -> str:
        uid = "04" + "".join(f"{self.rng.randrange(256):02X}" for _ in range(6))
        self.tap(uid)
        return uid

    def draw(self) -> bool:
        """Draw a face-down stone from the pile and tap it (dealing or refilling)."""
        pile = self._pile()
        if not pile:
            return False
        self.tap(self.rng.choice(pile))
        return True

    def draw_all(self) -> int:
        """Keep drawing while the table asks for stones (the whole deal, or a whole refill)."""
        count = 0
        while (view := self._state()) is not None and view["phase"] in ("deal", "refill"):
            before = view["round"], view["phase"], view["active"], view["deal"], \
                view["refill_left"]
            if not self.draw():
                break
            after = self._state()
            if after is None or (after["round"], after["phase"], after["active"], after["deal"],
                                 after["refill_left"]) == before:
                break  # refused: stop rather than loop
            count += 1
        return count

    def remove(self) -> bool:
        """The right neighbour takes a stone of the declared number from the caster's rack."""
        view = self._state()
        if view is None or view["phase"] != "remove":
            return False
        caster = view["active"]
        spell = view["pending"]["spell"]
        for stone in self.world()["places"][f"rack:{caster}"]:
            if stone["stone"] == spell:
                self.tap(stone["uid"])
                return True
        return False

    def take_secret(self, slot: int) -> bool:
        stone = self.world()["secret"][slot] if 0 <= slot < 4 else None
        if stone is None:
            return False
        self.tap(stone["uid"])
        return True

    def press(self, seat: int, long: bool = False) -> None:
        hold = self.devices.buttons.hold_time + 0.2 if long else 0.0
        self.devices.buttons.press(seat, hold=hold)
        self.table.sync()

    def roll(self, face: int | None = None) -> None:
        self.devices.sim_dice.roll(0, face)

    def dice_noise(self) -> None:
        self.devices.sim_dice.garbage(64)
        self.devices.sim_dice.bad_checksum()
