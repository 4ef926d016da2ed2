"""The simulated table: the physical pieces, and hands that move them through the simulated devices.

In simulation the companion still only *senses*: this module plays the people at the table. It owns
a box of 36 stones with NFC stickers for Abracada...What?, and a box of Dork Tower stickers (every
component the game names: the tower, the board's spaces, every encounter token, every item and
scroll card); their UIDs are fixed by the seed and
enrolled on first start, as a maker would enrol real stickers. It knows where each stone lies from
what the table has sensed, and acts by tapping stickers on the simulated reader, pressing simulated
seat buttons and rolling the simulated dice reader. Every act goes through the same queue, mapping
and rules as real hardware.

It sees every stone face, like the physical world does; the host page that shows it is therefore a
simulation tool, never a player's page. For Dork Tower it picks what the world would draw (a token
from the bowl, the top card of a deck) with the game's own ``sample`` on the referee's state, and
taps a sticker of that component; it never says who holds which scroll.
"""

from __future__ import annotations

import functools
import random
import threading
import time
from typing import Any

from companion_dice import profiles as dice_profiles

from ..devices.factory import Devices
from ..rules import get_game
from .runtime import Table

GAME = "abracadawhat"
DORKTOWER = "dorktower"
DRAWS = {"draw_token": ("token", "token"), "draw_item": ("item", "card"),
         "draw_scroll": ("scroll", "scroll")}  # a drawn thing's action -> (component kind, key)


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


def dorktower_tags(seed: int, components: dict[str, int]) -> dict[str, str]:
    """The simulated Dork Tower box: UID -> component ("tower", "token goblin", "item dagger",
    "scroll hex"), as many stickers as the box holds of each, UIDs fixed by ``seed``."""
    rng = random.Random(f"dorktower-stickers/{seed}")
    tags: dict[str, str] = {}
    for name, count in components.items():
        for _ in range(count):
            uid = "04" + "".join(f"{rng.randrange(256):02X}" for _ in range(6))
            while uid in tags:
                uid = "04" + "".join(f"{rng.randrange(256):02X}" for _ in range(6))
            tags[uid] = name
    return tags


class SimulatedTable:
    def __init__(self, table: Table, devices: Devices, seed: int):
        self.table = table
        self.devices = devices
        self.rng = random.Random(f"hands/{seed}")
        self.box = stone_tags(seed)
        self.dt_box = {uid: name for uid, name in
                       dorktower_tags(seed, get_game(DORKTOWER).components).items()
                       if uid not in self.box}
        # One pair of hands at the reader: two requests never draw the same stone at once.
        self._hands = threading.RLock()

    def enrol_box(self) -> int:
        """Enrol the simulated stickers that the registry does not know yet; returns how many."""
        missing = [{"uid": uid, "game": GAME, "component": f"stone {n}"}
                   for uid, n in self.box.items() if self.table.tags.lookup(uid) is None]
        counts = self.table.tags.count(DORKTOWER)
        for uid, name in self.dt_box.items():
            if self.table.tags.lookup(uid) is None and counts.get(name, 0) < \
                    get_game(DORKTOWER).components.get(name, 0):
                counts[name] = counts.get(name, 0) + 1
                missing.append({"uid": uid, "game": DORKTOWER, "component": name})
        if missing:
            self.table.tags.import_({"format": "companion-tags/1", "tags": missing})
        return len(missing)

    def game(self) -> str | None:
        """The id of the game being played, if any."""
        history = self.table.history
        return history.game.id if history is not None else None

    # -- where the stones are ----------------------------------------------------------------

    def _state(self) -> dict[str, Any] | None:
        view = self.table.referee_view()
        return view if view is not None and view["game"] == GAME else None

    def world(self) -> dict[str, Any]:
        """Every stone and where it lies, for the simulation panel (for Dork Tower: the box of
        stickers and what the table waits for)."""
        if self.game() == DORKTOWER:
            return self._dt_world()
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
    def tap(self, uid: str, reader: str = "board") -> list[dict[str, Any]]:
        """Tap the tag ``uid`` at ``reader``: the board's, or a seat's own (when configured)."""
        if reader not in self.devices.nfc:
            raise ValueError(f"this table has no NFC reader {reader!r}; it has "
                             f"{', '.join(self.devices.nfc)}")
        return self._sensed(lambda: self.devices.nfc[reader].tap(uid))

    @_one_at_a_time
    def tap_box(self) -> list[dict[str, Any]]:
        """The hand enrolling stickers: it takes from the simulated box a sticker of the
        component the host asked for, one not enrolled yet if there is one (else one that is,
        which the table refuses)."""
        wanted = self.table.enrolling
        if wanted is None:
            raise ValueError("no sticker is being enrolled")
        if wanted["game"] == GAME:
            box = [uid for uid, n in self.box.items() if f"stone {n}" == wanted["component"]]
        else:
            box = [uid for uid, name in self.dt_box.items() if name == wanted["component"]]
        if not box:
            raise ValueError(f"the simulated box has no {wanted['component']}")
        fresh = [uid for uid in box if self.table.tags.lookup(uid) is None]
        return self.tap(self.rng.choice(fresh or box))

    @_one_at_a_time
    def tap_unknown(self) -> list[dict[str, Any]]:
        uid = "04" + "".join(f"{self.rng.randrange(256):02X}" for _ in range(6))
        return self.tap(uid)

    @_one_at_a_time
    def draw(self) -> list[dict[str, Any]]:
        """Draw a face-down stone from the pile and tap it (dealing or refilling); in Dork Tower,
        draw what the table waits for (a token from the bowl, an item or a scroll card)."""
        if self.game() == DORKTOWER:
            return self._dt_draw()
        pile = self._pile()
        return self.tap(self.rng.choice(pile)) if pile else []

    @_one_at_a_time
    def draw_all(self) -> list[dict[str, Any]]:
        """Keep drawing while the table asks for stones (the whole deal, or a whole refill); in
        Dork Tower, every token and card the table asks for until it waits for something else."""
        if self.game() == DORKTOWER:
            outcomes: list[dict[str, Any]] = []
            while self._dt_awaited_draw() is not None:
                got = self._dt_draw()
                outcomes += got
                if not got or not all(o["ok"] for o in got):
                    break
            return outcomes
        outcomes = []
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

    # -- Dork Tower ---------------------------------------------------------------------------

    def _dt_awaited_draw(self) -> dict[str, Any] | None:
        history = self.table.history
        if history is None or history.game.id != DORKTOWER:
            return None
        awaited = history.game.awaited(history.state)
        return awaited if awaited and awaited["kind"] in ("token", "item", "scroll") else None

    def _dt_stickers(self, component: str) -> list[str]:
        """The enrolled stickers of a Dork Tower component: the simulated box's, or any other
        sticker the host enrolled as that component."""
        return sorted(row["uid"] for row in self.table.tags.export()["tags"]
                      if row["game"] == DORKTOWER and row["component"] == component)

    def _dt_draw(self) -> list[dict[str, Any]]:
        """The hand at the bowl or the deck: what the world draws is the game's own sample of
        the referee's state; a sticker of that component is tapped on the reader."""
        if self._dt_awaited_draw() is None:
            return []
        history = self.table.history
        action = history.game.sample(history.state)
        kind, key = DRAWS[action["type"]]
        stickers = self._dt_stickers(f"{kind} {action[key]}")
        if not stickers:
            return []
        return self.tap(self.rng.choice(stickers))

    @_one_at_a_time
    def turn_tower(self) -> list[dict[str, Any]]:
        """Turn the tower: its sticker is tapped on the reader (the turn ends)."""
        stickers = self._dt_stickers("tower")
        return self.tap(stickers[0]) if stickers else []

    @_one_at_a_time
    def tap_component(self, component: str) -> list[dict[str, Any]]:
        """Tap a sticker of a named Dork Tower component ("token goblin", "scroll hex", ...)."""
        stickers = self._dt_stickers(" ".join(component.lower().split()))
        if not stickers:
            raise ValueError(f"no sticker of {component!r} is enrolled")
        return self.tap(self.rng.choice(stickers))

    def _dt_world(self) -> dict[str, Any]:
        """The Dork Tower box: every component with its stickers, and the awaited draw. Where
        each card lies is not shown (a scroll in hand is its owner's secret)."""
        stickers: dict[str, list[str]] = {}
        for row in self.table.tags.export()["tags"]:
            if row["game"] == DORKTOWER:
                stickers.setdefault(row["component"], []).append(row["uid"])
        return {"game": DORKTOWER, "stickers": stickers, "awaiting": self._dt_awaited_draw(),
                "dice": self.devices.sim_dice is not None and self.devices.sim_dice.running}

    # -- buttons and dice -------------------------------------------------------------------

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
    def throw(self, faces: list[int | str | None] | None = None,
              timeout: float = 10.0) -> list[dict[str, Any]]:
        """Throw several dice together (as many as the awaited roll takes, or as ``faces``
        lists, each face given or left to chance); waits until the table has handled each."""
        if faces is None:
            chance = self.table.awaited_roll()
            faces = [None] * (chance.dice if chance is not None else 1)
        if not 1 <= len(faces) <= self.devices.sim_dice.dice:
            raise ValueError(f"the simulated reader has {self.devices.sim_dice.dice} dice")
        for die, face in enumerate(faces):
            self._check_face(die, face)
        before = self.table.inputs_handled
        return self._after(lambda: self.devices.sim_dice.throw(dict(enumerate(faces))),
                           lambda: self.table.inputs_handled >= before + len(faces), timeout)

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
