"""The simulated table: the physical pieces, and hands that move them through the simulated devices.

In simulation the companion still only *senses*: this module plays the people at the table. Each
game's box of stickers (its plug-in's ``sim``, a :class:`GameHands`) has UIDs fixed by the seed
and is enrolled on first start, as a maker would enrol real stickers. The hands act by tapping
stickers on the simulated readers, pressing simulated seat buttons and rolling the simulated dice
reader; every act goes through the same queue, mapping and rules as real hardware. What a game's
hands do with its own pieces (deal a stone, draw a token, turn a tower) is its ``GameHands``'.

The hands see every piece, like the physical world does; the host page that shows them is
therefore a simulation tool, never a player's page. A host who plays a seat sees it *blind*: the
world, the buttons and the acts a game's hands offer ``viewer`` (the player the host plays) hold
nothing that player may not see, and the hands choose unseen what that player would take without
looking (a stone of one's own rack, a stone from the reserve).
"""

from __future__ import annotations

import functools
import random
import threading
import time
from typing import Any

from companion_dice import profiles as dice_profiles

from ..devices.factory import Devices
from ..games import ids, plugin
from ..lights import legend
from ..rules import Accepted, Refusal
from ..rules.putting_back import Placement, Step, follow
from .inputs import inputs_for
from .runtime import Table


def one_at_a_time(act):
    """Acts of the simulated hands happen one after another, as at a real table."""

    @functools.wraps(act)
    def wrapper(self, *args, **kwargs):
        with self._hands:
            return act(self, *args, **kwargs)

    return wrapper


def sticker_box(label: str, seed: int, components: dict[str, int]) -> dict[str, str]:
    """A game's simulated box of stickers: UID -> component name, as many stickers as the box
    holds of each component, in ``components``' order; the UIDs (seven bytes, as NTAG stickers
    have) are fixed by ``label`` and ``seed``."""
    rng = random.Random(f"{label}-stickers/{seed}")
    tags: dict[str, str] = {}
    for name, count in components.items():
        for _ in range(count):
            uid = "04" + "".join(f"{rng.randrange(256):02X}" for _ in range(6))
            while uid in tags:
                uid = "04" + "".join(f"{rng.randrange(256):02X}" for _ in range(6))
            tags[uid] = name
    return tags


class GameHands:
    """One game's pieces on the simulated table and what the hands do with them. A game's plug-in
    names its subclass (``sim``); this base has no stickers and no acts of its own.

    ``acts`` are the game's acts the host's simulation panel may ask for (``/sim/<act>``): each
    name is a method of the subclass, with its arguments as ``{name: (type, what it must be)}``.
    ``controls`` are the panel's buttons: ``(act, label, primary)``.

    A host who plays a seat gets the panel *blind* for that seat's player (``viewer``): the world
    of :meth:`world` with ``viewer``, the buttons ``blind_controls`` and, besides ``acts``, the
    ``blind_acts``, called with ``viewer=`` and their arguments (the hands choose unseen what the
    player would take without looking). :meth:`refuse_blind` says which act would name what
    ``viewer`` may not see."""

    acts: dict[str, dict[str, tuple[type, str]]] = {}
    controls: tuple[tuple[str, str, bool], ...] = ()
    blind_acts: dict[str, dict[str, tuple[type, str]]] = {}
    blind_controls: tuple[tuple[str, str, bool], ...] | None = None  #: None: ``controls``

    def __init__(self, sim: SimulatedTable | None, game: Any, seed: int):
        """The hands of ``game`` at the simulated table ``sim`` (None: only its box, which
        depends on the game and the seed alone, is asked for)."""
        self.sim = sim
        self.table = sim.table if sim is not None else None
        self.game = game
        self.seed = seed

    @property
    def rng(self) -> random.Random:
        return self.sim.rng

    def stickers(self) -> dict[str, str]:
        """The box: UID -> component name, fixed by the seed."""
        return {}

    def world(self, viewer: str | None = None) -> dict[str, Any]:
        """What the simulation panel shows of the game's pieces: everything (``viewer`` None),
        or only what the player ``viewer`` may see (no sticker's UID either: a UID seen once
        names a stone for ever)."""
        return {}

    def acts_for(self, viewer: str | None) -> dict[str, dict[str, tuple[type, str]]]:
        """The acts the panel of ``viewer`` (None: a host who plays no seat) may ask for."""
        return self.acts | self.blind_acts if viewer is not None else dict(self.acts)

    def controls_for(self, viewer: str | None) -> tuple[tuple[str, str, bool], ...]:
        """The panel's buttons for ``viewer`` (None: a host who plays no seat)."""
        if viewer is None or self.blind_controls is None:
            return self.controls
        return self.blind_controls

    def refuse_blind(self, act: str, arguments: dict[str, Any], viewer: str) -> str | None:
        """Why a host who plays ``viewer`` may not do ``act`` with ``arguments`` (its answer
        would name something ``viewer`` may not see); None: they may."""
        return None

    def do(self, act: str, viewer: str | None, **arguments: Any) -> list[dict[str, Any]]:
        """Do the act ``act`` for the panel of ``viewer``; ``ValueError`` if it may not."""
        if act not in self.acts_for(viewer):
            raise ValueError(f"no act {act!r} in this game")
        if viewer is not None:
            refused = self.refuse_blind(act, arguments, viewer)
            if refused is not None:
                raise ValueError(refused)
        if act in self.blind_acts and act not in self.acts:
            return getattr(self, act)(viewer=viewer, **arguments)
        return getattr(self, act)(**arguments)

    def accepted_taps(self, uids: list[str]) -> list[str]:
        """Of the stickers ``uids``, those whose tap on the board's reader the game would accept
        now (its input mapping turns the tap into an action the rules accept): what a hand may
        choose among without looking."""
        history = self.table.history
        if history is None or history.game.id != self.game.id:
            return []
        state, mapper = history.state, inputs_for(history.game)
        found = []
        for uid in uids:
            component = self.table.tags.lookup(uid)
            if component is None:
                continue
            mapped = mapper.tag(state, component, uid, "board")
            if not isinstance(mapped, Refusal) and isinstance(
                history.game.apply(state, mapped), Accepted
            ):
                found.append(uid)
        return found

    def tap(self, uid: str) -> list[dict[str, Any]]:
        """Tap the sticker ``uid`` on the board's reader."""
        return self.sim.tap(uid)

    def sticker_for(self, component: str) -> str | None:
        """A sticker of ``component`` that the table knows (its pieces of one kind look
        alike), to tap for a step an undo asks to put back; None: the box has none."""
        for uid, name in self.stickers().items():
            known = self.table.tags.lookup(uid)
            if name == component and known is not None and known.name == component:
                return uid
        return None

    def state(self) -> dict[str, Any] | None:
        """The referee's view of this game's state, while it is the one being played."""
        view = self.table.referee_view()
        return view if view is not None and view.get("game") == self.game.id else None


class SimulatedTable:
    def __init__(self, table: Table, devices: Devices, seed: int):
        self.table = table
        self.devices = devices
        self.seed = seed
        self.rng = random.Random(f"hands/{seed}")
        # One pair of hands at the reader: two requests never draw the same stone at once.
        self._hands = threading.RLock()
        self._games: dict[str, GameHands] = {}
        #: where the pieces lie while an undo waits to be put back (None: as the game says)
        self._layout: Placement | None = None
        self._layout_of: Any = None  # the state the pieces lie as, while nothing waits
        self._seen_undo: Any = None
        table.listen(self._watch)

    # -- the pieces on the table, in public terms (Game.placement) -----------------------------

    def _watch(self) -> None:
        """After every change (on the table's loop): while the game goes on, the hands keep
        the pieces as the game says; an undo moves none of them: they lie where they were until
        the hands put them back (:meth:`put_back`)."""
        history, waiting = self.table.history, self.table.put_back_shown()
        if history is None or waiting is None:
            self._layout, self._seen_undo = None, None
            self._layout_of = history.state if history is not None else None
            return
        key = (waiting["game"], waiting["undo"])
        if key != self._seen_undo:
            self._seen_undo = key
            if self._layout is None and self._layout_of is not None:
                self._layout = history.game.placement(self._layout_of)

    def layout(self) -> Placement | None:
        """Where the pieces lie now (None: the game does not describe its table)."""
        history = self.table.history
        if history is None:
            return None
        with self.table._lock:
            if self._layout is not None:
                return Placement(self._layout)
            return history.game.placement(history.state)

    @one_at_a_time
    def put_back(self) -> list[dict[str, Any]]:
        """The hands do what the undo asks: each step still to do, in order, moves its pieces
        (:func:`~companion.rules.putting_back.follow`; ``NotThere`` if they are not where the
        step says) and, where a tap confirms it, taps a sticker of that component on the
        board's reader or the player's own. Returns what the table made of the taps."""
        waiting = self.table.put_back_shown()
        history = self.table.history
        if waiting is None or history is None:
            return []
        hands = self.hands(history.game.id)
        players = history.state["players"]
        outcomes: list[dict[str, Any]] = []
        for data in waiting["steps"]:
            if data["done"]:
                continue
            step = Step.from_json(data)
            with self.table._lock:
                self._layout = follow(self.layout(), [step])
            if step.confirm is None:
                continue
            uid = hands.sticker_for(step.confirm.component)
            if uid is None:
                raise ValueError(f"the simulated box has no {step.confirm.component}")
            seat = step.confirm.seat
            reader = "board" if seat is None else f"seat{players.index(seat) + 1}"
            outcomes += self.tap(uid, reader)
        return outcomes

    def hands(self, game_id: str) -> GameHands:
        """The hands of the game ``game_id``, with its box."""
        found = self._games.get(game_id)
        if found is None:
            game = plugin(game_id)
            found = self._games[game_id] = (game.hands or GameHands)(self, game.game, self.seed)
        return found

    def boxes(self) -> dict[str, dict[str, str]]:
        """Every game's box of stickers (UID -> component), by game; a UID already in an
        earlier game's box is left out of a later one's."""
        seen: set[str] = set()
        boxes: dict[str, dict[str, str]] = {}
        for game_id in ids():
            box = {
                uid: name for uid, name in self.hands(game_id).stickers().items() if uid not in seen
            }
            seen.update(box)
            boxes[game_id] = box
        return boxes

    def enrol_box(self) -> int:
        """Enrol the simulated stickers that the registry does not know yet (no more of a
        component than its game's box holds); returns how many."""
        missing = []
        for game_id, box in self.boxes().items():
            wanted = plugin(game_id).game.components
            counts = self.table.tags.count(game_id)
            for uid, name in box.items():
                if self.table.tags.lookup(uid) is None and counts.get(name, 0) < wanted.get(
                    name, 0
                ):
                    counts[name] = counts.get(name, 0) + 1
                    missing.append({"uid": uid, "game": game_id, "component": name})
        if missing:
            self.table.tags.import_({"format": "companion-tags/1", "tags": missing})
        return len(missing)

    def game(self) -> str | None:
        """The id of the game being played, if any."""
        history = self.table.history
        return history.game.id if history is not None else None

    def world(self, viewer: str | None = None) -> dict[str, Any]:
        """What the simulation panel shows: the game being played's pieces (its hands' world,
        blind for ``viewer``, the player a host who plays is), the acts it offers, the legend
        of the LED strips the game uses, and whether the simulated dice are running."""
        game_id = self.game()
        dice = self.devices.sim_dice is not None and self.devices.sim_dice.running
        if game_id is None:
            return {"game": None, "controls": [], "dice": dice, "blind": None, "leds": {}}
        hands = self.hands(game_id)
        return {
            **hands.world(viewer),
            "game": game_id,
            "dice": dice,
            "blind": viewer,
            "controls": [
                {"act": act, "label": label, "primary": primary}
                for act, label, primary in hands.controls_for(viewer)
            ],
            "leds": legend(plugin(game_id).drawer, self.table.layout),
        }

    def game_acts(self, viewer: str | None = None) -> dict[str, dict[str, tuple[type, str]]]:
        """The acts of the game being played (name -> its arguments) for ``viewer``'s panel."""
        game_id = self.game()
        return self.hands(game_id).acts_for(viewer) if game_id is not None else {}

    @one_at_a_time
    def game_act(
        self, act: str, viewer: str | None = None, **arguments: Any
    ) -> list[dict[str, Any]]:
        """Do one of the game being played's acts (:meth:`game_acts`) for ``viewer``'s panel."""
        return self.hands(self.game()).do(act, viewer, **arguments)

    # -- hands ----------------------------------------------------------------------------------

    def _sensed(self, act) -> list[dict[str, Any]]:
        """Do ``act`` through a simulated device; return what the table made of it."""
        before = self.table.inputs_handled
        act()
        self.table.sync()
        return self.table.outcomes_since(before)

    @one_at_a_time
    def tap(self, uid: str, reader: str = "board") -> list[dict[str, Any]]:
        """Tap the tag ``uid`` at ``reader``: the board's, or a seat's own (when configured)."""
        if reader not in self.devices.nfc:
            raise ValueError(
                f"this table has no NFC reader {reader!r}; it has {', '.join(self.devices.nfc)}"
            )
        return self._sensed(lambda: self.devices.nfc[reader].tap(uid))

    @one_at_a_time
    def tap_box(self) -> list[dict[str, Any]]:
        """The hand enrolling stickers: it takes from the simulated box a sticker of the
        component the host asked for, one not enrolled yet if there is one (else one that is,
        which the table refuses)."""
        wanted = self.table.enrolling
        if wanted is None:
            raise ValueError("no sticker is being enrolled")
        box = [
            uid
            for uid, name in self.boxes().get(wanted["game"], {}).items()
            if name == wanted["component"]
        ]
        if not box:
            raise ValueError(f"the simulated box has no {wanted['component']}")
        fresh = [uid for uid in box if self.table.tags.lookup(uid) is None]
        return self.tap(self.rng.choice(fresh or box))

    @one_at_a_time
    def tap_unknown(self) -> list[dict[str, Any]]:
        uid = "04" + "".join(f"{self.rng.randrange(256):02X}" for _ in range(6))
        return self.tap(uid)

    # -- buttons and dice -------------------------------------------------------------------

    @one_at_a_time
    def press(self, seat: int, long: bool = False) -> list[dict[str, Any]]:
        hold = self.devices.buttons.hold_time + 0.2 if long else 0.0
        return self._sensed(lambda: self.devices.buttons.press(seat, hold=hold))

    @one_at_a_time
    def roll(
        self, face: int | str | None = None, die: int = 0, timeout: float = 10.0
    ) -> list[dict[str, Any]]:
        """Throw a die on the simulated reader (the real firmware logic reads it); waits until
        the table has handled the roll. ``ValueError`` if the die has no such face."""
        self._check_face(die, face)
        return self._until_handled(lambda: self.devices.sim_dice.roll(die, face), timeout)

    @one_at_a_time
    def throw(
        self, faces: list[int | str | None] | None = None, timeout: float = 10.0
    ) -> list[dict[str, Any]]:
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
        return self._after(
            lambda: self.devices.sim_dice.throw(dict(enumerate(faces))),
            lambda: self.table.inputs_handled >= before + len(faces),
            timeout,
        )

    @one_at_a_time
    def crooked(self, die: int = 0, timeout: float = 10.0) -> list[dict[str, Any]]:
        """Throw a die that lands leaning against something: the reader cannot read it."""
        return self._until_dice_settle(lambda: self.devices.sim_dice.crooked(die), die, timeout)

    @one_at_a_time
    def place(
        self, face: int | str | None = None, die: int = 0, timeout: float = 10.0
    ) -> list[dict[str, Any]]:
        """Set a die down by hand instead of rolling it."""
        self._check_face(die, face)
        return self._until_dice_settle(lambda: self.devices.sim_dice.place(die, face), die, timeout)

    @one_at_a_time
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
                raise ValueError(
                    f"die {die} ({name}) has no face {face!r}; its faces are "
                    f"{', '.join(profile.labels())}"
                )

    def _until_dice_settle(self, act, die: int, timeout: float) -> list[dict[str, Any]]:
        """Do ``act`` and wait until the table heard how die ``die`` came to rest."""
        seen = self.table.dice_reports

        def settled() -> bool:
            report = (
                self.table.devices.get(self.devices.dice.name, {}).get("dice", {}).get(str(die), {})
            )
            # A die's report after the act that ends it (not a state report that crossed it).
            return report.get("n", 0) > seen and report["state"] in ("crooked", "placed", "rolled")

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
