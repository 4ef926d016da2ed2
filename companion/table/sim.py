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

import functools
import random
import threading
import time
from typing import Any

from companion_dice import profiles as dice_profiles

from ..devices.factory import Devices
from .runtime import Table

GAME = "abracadawhat"


def _one_at_a_time(act):
    """Acts of the simulated hands happen one after another, as at a real table."""
    @functools.wraps(act)
    def wrapper(self, *args, **kwargs):
        with self._hands:
            return act(self, *args, **kwargs)
    return wrapper


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
        # One pair of hands at the reader: two requests never draw the same stone at once.
        self._hands = threading.RLock()

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

    def _sensed(self, act) -> list[dict[str, Any]]:
        """Do ``act`` through a simulated device; return what the table made of it."""
        before = self.table.inputs_handled
        act()
        self.table.sync()
        return self.table.outcomes_since(before)

    @_one_at_a_time
    def tap(self, uid: str) -> list[dict[str, Any]]:
        return self._sensed(lambda: self.devices.nfc["board"].tap(uid))

    @_one_at_a_time
    def tap_unknown(self) -> list[dict[str, Any]]:
        uid = "04" + "".join(f"{self.rng.randrange(256):02X}" for _ in range(6))
        return self.tap(uid)

    @_one_at_a_time
    def draw(self) -> list[dict[str, Any]]:
        """Draw a face-down stone from the pile and tap it (dealing or refilling)."""
        pile = self._pile()
        return self.tap(self.rng.choice(pile)) if pile else []

    @_one_at_a_time
    def draw_all(self) -> list[dict[str, Any]]:
        """Keep drawing while the table asks for stones (the whole deal, or a whole refill)."""
        outcomes: list[dict[str, Any]] = []
        while (view := self._state()) is not None and view["phase"] in ("deal", "refill"):
            got = self.draw()
            outcomes += got
            if not got or not all(o["ok"] for o in got):
                break  # nothing to draw, or refused: stop rather than loop
        return outcomes

    @_one_at_a_time
    def remove(self) -> list[dict[str, Any]]:
        """The right neighbour takes a stone of the declared number from the caster's rack."""
        view = self._state()
        if view is None or view["phase"] != "remove":
            return []
        caster = view["active"]
        spell = view["pending"]["spell"]
        for stone in self.world()["places"][f"rack:{caster}"]:
            if stone["stone"] == spell:
                return self.tap(stone["uid"])
        return []

    @_one_at_a_time
    def take_secret(self, slot: int) -> list[dict[str, Any]]:
        stone = self.world()["secret"][slot] if 0 <= slot < 4 else None
        return self.tap(stone["uid"]) if stone is not None else []

    @_one_at_a_time
    def press(self, seat: int, long: bool = False) -> list[dict[str, Any]]:
        hold = self.devices.buttons.hold_time + 0.2 if long else 0.0
        return self._sensed(lambda: self.devices.buttons.press(seat, hold=hold))

    @_one_at_a_time
    def roll(self, face: int | str | None = None, die: int = 0,
             timeout: float = 10.0) -> list[dict[str, Any]]:
        """Throw a die on the simulated reader (the real firmware logic reads it); waits until
        the table has handled the roll. ``ValueError`` if the die has no such face."""
        self._check_face(die, face)
        return self._until_handled(lambda: self.devices.sim_dice.roll(die, face), timeout)

    @_one_at_a_time
    def crooked(self, die: int = 0, timeout: float = 10.0) -> list[dict[str, Any]]:
        """Throw a die that lands leaning against something: the reader cannot read it."""
        return self._until_dice_settle(lambda: self.devices.sim_dice.crooked(die), die, timeout)

    @_one_at_a_time
    def place(self, face: int | str | None = None, die: int = 0,
              timeout: float = 10.0) -> list[dict[str, Any]]:
        """Set a die down by hand instead of rolling it."""
        self._check_face(die, face)
        return self._until_dice_settle(lambda: self.devices.sim_dice.place(die, face), die,
                                       timeout)

    @_one_at_a_time
    def dice_noise(self, timeout: float = 5.0) -> list[dict[str, Any]]:
        """Garbage on the serial line, and a roll whose line arrives with a wrong checksum."""
        def noise():
            self.devices.sim_dice.garbage(64)
            self.devices.sim_dice.bad_checksum()
            self.devices.sim_dice.roll(0)
        return self._until_handled(noise, timeout)

    def _check_face(self, die: int, face: int | str | None) -> None:
        if not 0 <= die < self.devices.sim_dice.dice:
            raise ValueError(f"the simulated reader has no die {die}")
        if face is not None:
            name, faces = self.devices.dice.profile(die)
            profile = dice_profiles.get(name, ",".join(faces) if faces else None)
            if str(face) not in profile.labels():
                raise ValueError(f"die {die} ({name}) has no face {face!r}; its faces are "
                                 f"{', '.join(profile.labels())}")

    def _until_dice_settle(self, act, die: int, timeout: float) -> list[dict[str, Any]]:
        """Do ``act`` and wait until the table heard how die ``die`` came to rest."""
        seen = self.table.dice_reports

        def settled() -> bool:
            report = self.table.devices.get(self.devices.dice.name, {}).get("dice", {}).get(
                str(die), {})
            # A die's report after the act that ends it (not a state report that crossed it).
            return report.get("n", 0) > seen and report["state"] in ("crooked", "placed",
                                                                     "rolled")
        return self._after(act, settled, timeout)

    def _until_handled(self, act, timeout: float) -> list[dict[str, Any]]:
        """For inputs that cross a process and a pty: wait for the table to handle something."""
        before = self.table.inputs_handled
        return self._after(act, lambda: self.table.inputs_handled != before, timeout)

    def _after(self, act, done, timeout: float) -> list[dict[str, Any]]:
        """Do ``act``, wait (at most ``timeout``) until ``done()``, and return what the table
        made of the inputs handled meanwhile."""
        before = self.table.inputs_handled
        act()
        deadline = time.monotonic() + timeout
        while not done() and time.monotonic() < deadline:
            self.table.wait_for_change(self.table.version, 0.05)
        self.table.sync()
        return self.table.outcomes_since(before)
