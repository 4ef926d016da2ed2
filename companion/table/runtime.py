"""The running table: inputs → rules → log → outputs.

Every input — a device event (tag, button, die, status, noise) or a request from a phone or the
host — goes through one queue and is handled by one thread, in order. For an action the rules
accept, the entry is committed to SQLite first; only then do the state, the LEDs and the phones
change. A refused input changes nothing; it is logged, shown on every page with its rule ID and
reason, and signalled on the LEDs.

On start the table resumes the latest game by replaying its log, so a crash or a pulled plug loses
nothing that was acknowledged.

An optional tower motor (Dork Tower's real tower, ``tower_motor``) follows the game's tower: after
every accepted action, a new game and on start, the motor turns clockwise until the tower stands
at the public view's ``tower.step`` (modulo 8); the step it was last turned to is kept in the
store's settings (``tower_motor_step``), so a restart with the tower behind catches up. The motor
never turns backwards: an undo of a turn of the tower turns it 7 steps on, clockwise.
"""

from __future__ import annotations

import logging
import math
import queue
import random
import secrets
import threading
import time
from collections import deque
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable

from ..devices.events import (
    ButtonPressed,
    DeviceNoise,
    DeviceStatus,
    DieRolled,
    DieState,
    TagTapped,
)
from ..devices.nfc import reader_seat
from ..i18n import reason_of, t
from ..rules import EVERYTHING, HOST, TABLE, Chance, Refusal, SetupError, get_game
from ..rules.api import MALFORMED
from . import inputs as rules_inputs
from .history import History
from .inputs import inputs_for
from .leds import PALETTE, SEAT_COLOURS, Cue, Layout, animating, cues_from_events, refusal_cue, render
from .store import GameRecord, Store, now
from .tags import TagError, TagRegistry

log = logging.getLogger("companion.table")



KEEP_EVENTS = 60
KEEP_REFUSALS = 20
KEEP_JOURNAL = 200
NOISE_QUIET = 1.0  # seconds: a burst of serial noise is reported once
ANIMATION_FPS = 20
LED_TEST_STEP = 0.5  # seconds each colour of the host's LED test pattern shows
BAD_SETUP = "TABLE-GAME-2"
PAUSED = "TABLE-GAME-3"
ENROL_FAILED = "TABLE-TAG-4"
BAD_JOIN = "TABLE-JOIN-1"
BAD_SEAT = "INPUT-3"


def colours_problem(colours: Any, players: Any) -> str | None:
    """Why ``colours`` cannot be the players' colours (one each, from the colour-blind-safe
    palette, no two alike), or None."""
    if not isinstance(colours, list) or not isinstance(players, list) or \
            len(colours) != len(players):
        return t("give one colour for each player")
    unknown = [c for c in colours if c not in PALETTE]
    if unknown:
        return t("{colour} is not a colour of the palette ({palette})",
                 colour=repr(str(unknown[0])[:20]), palette=", ".join(PALETTE))
    if len(set(colours)) != len(colours):
        return t("two players have the same colour")
    return None


def new_token() -> str:
    """A seat's key: 256 random bits, in the player's private link."""
    return secrets.token_urlsafe(32)


def new_join_code() -> str:
    """A seat's one-time join code (128 random bits), spent when a phone claims the seat."""
    return secrets.token_urlsafe(16)
TOWER_MOTOR_STEP = "tower_motor_step"  # setting: the tower step the motor last turned to
TOWER_STEPS = 8  # the tower turns in eighths


@dataclass
class Command:
    """A request from the web (phone, host, simulated table) for the table loop."""

    op: str
    args: dict[str, Any]
    source: str
    future: Future = field(default_factory=Future)


class Table:
    def __init__(self, store: Store, *, layout: Layout | None = None, brightness: float = 1.0,
                 strips: dict[str, Any] | None = None, clock: Callable[[], float] = time.monotonic):
        self.store = store
        self.tags = TagRegistry(store)
        self.layout = layout or Layout()
        #: the LEDs' brightness: the configuration's, unless the host changed it on the phone
        stored = store.setting("brightness")
        self.brightness = float(stored) if stored is not None else brightness
        self.strips = dict(strips or {})
        self.clock = clock
        self.queue: queue.Queue = queue.Queue()
        self.devices: dict[str, dict[str, Any]] = {}
        #: the dice reader, told which die profile a roll needs (None: no reader configured)
        self.dice: Any = None
        #: the motor turning a real tower, with ``advance(steps)`` (None: no motor configured)
        self.tower_motor: Any = None
        self._rolled: tuple[Any, dict[int, DieRolled]] = (None, {})  # (awaited roll, dice in)
        self.dice_reports = 0  #: how many die reports (rolls and states) the table has seen
        self._profile_for = -1  # the version whose chance step was last told to the reader
        self._random = random.SystemRandom()  # virtual rolls, when no reader is connected
        self.enrolling: dict[str, Any] | None = None
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._led_lock = threading.Lock()
        self._tower_lock = threading.Lock()  # start() and the loop may both catch the motor up
        self._closing = False
        self._thread: threading.Thread | None = None
        self._animator: threading.Thread | None = None
        self._noise_at = -1e9
        #: the LED test pattern (see _op_led_test) shows until this moment of ``clock``
        self.led_test_until = -1e9
        self.noise_count = 0
        self.version = 0
        self.record: GameRecord | None = None
        self.history: History | None = None
        self.events: deque[dict[str, Any]] = deque(maxlen=KEEP_EVENTS)
        self.refusals: deque[dict[str, Any]] = deque(maxlen=KEEP_REFUSALS)
        self._event_n = 0
        self._seq = 0  # the last entry's number in the current game's log
        self.cues: list[Cue] = []
        #: what each handled input became: accepted as an action, or refused; newest last
        self.journal: deque[dict[str, Any]] = deque(maxlen=KEEP_JOURNAL)
        self.inputs_handled = 0
        self._cache: dict[tuple[int, str], dict[str, Any]] = {}
        self._public: tuple[int, dict[str, Any] | None] = (-1, None)
        #: the host paused the game: every input but the host's is refused until it resumes
        self.paused = False
        self._resume()

    # ------------------------------------------------------------------------------------------
    # Life cycle

    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, name="table-loop", daemon=True)
        self._thread.start()
        self._animator = threading.Thread(target=self._animate, name="table-leds", daemon=True)
        self._animator.start()
        self._show_leds()
        self._turn_tower()

    def close(self) -> None:
        """Stop the loop after the inputs already queued, and wake every live stream."""
        if self._closing:
            return
        with self._lock:
            self._closing = True
            self._changed.notify_all()
        self.queue.put(None)
        for thread in (self._thread, self._animator):
            if thread is not None:
                thread.join(timeout=5)

    @property
    def closing(self) -> bool:
        return self._closing

    def _resume(self) -> None:
        record = self.store.latest_game()
        if record is None or record.abandoned:
            return
        try:
            history = History(get_game(record.game), record.players, record.options, record.seed)
        except SetupError as exc:  # e.g. a data set that is no longer configured
            log.error("game %s (%s) cannot be resumed: %s", record.id, record.game, exc)
            return
        for entry in self.store.entries(record.id):
            self._seq = entry.seq
            result = history.submit(entry.action)
            if isinstance(result, Refusal):  # only if the rules changed since the entry was made
                log.error("game %s entry %s no longer accepted: %s", record.id, entry.seq,
                          result.reason)
                continue
            self._keep_events(result.events, entry.at)
        self.record, self.history = record, history
        self.paused = self.store.setting("paused") == str(record.id)
        self.version += 1
        log.info("resumed game %s (%s) after %s entries", record.id, record.game,
                 len(history.actions))

    # ------------------------------------------------------------------------------------------
    # Inputs

    def emit(self, event: Any) -> None:
        """Devices call this from their own threads; the event joins the one queue."""
        self.queue.put(event)

    def submit(self, op: str, source: str, **args: Any) -> Future:
        """Queue a request; the future resolves to ``{"ok": True, ...}`` or a refusal dict."""
        command = Command(op, args, source)
        self.queue.put(command)
        return command.future

    def call(self, op: str, source: str, timeout: float = 10.0, **args: Any) -> dict[str, Any]:
        return self.submit(op, source, **args).result(timeout)

    def sync(self, timeout: float = 10.0) -> None:
        """Wait until every input queued before this call has been handled."""
        self.call("sync", "sync", timeout)

    def outcomes_since(self, handled: int) -> list[dict[str, Any]]:
        """What the inputs handled after ``inputs_handled`` was ``handled`` became."""
        with self._lock:
            return [j for j in self.journal if j["n"] > handled]

    def _loop(self) -> None:
        while True:
            item = self.queue.get()
            if item is None:
                return
            try:
                self._handle(item)
            except Exception as exc:  # a bug must not stop the table; it is logged loudly
                log.exception("input %r failed", item)
                if isinstance(item, Command) and not item.future.done():
                    item.future.set_exception(exc)

    def _handle(self, item: Any) -> None:
        result = self._dispatch(item)
        self._tell_dice()
        if isinstance(result, dict) and not (isinstance(item, Command) and item.op == "sync"):
            with self._lock:
                self.inputs_handled += 1
                self.journal.append({"n": self.inputs_handled,
                                     "source": getattr(item, "source", None) or type(item).__name__,
                                     **result})

    def _dispatch(self, item: Any) -> dict[str, Any] | None:
        if isinstance(item, Command):
            handler = getattr(self, f"_op_{item.op}", None)
            if handler is None:
                result = self._refuse({"op": item.op}, item.source, rules_inputs.BAD_REQUEST,
                                      t("The table has no request {op}.", op=repr(item.op)))
            else:
                result = handler(item.source, **item.args)
            item.future.set_result(result)
            return result
        if isinstance(item, TagTapped):
            return self._tag(item)
        if isinstance(item, ButtonPressed):
            return self._button(item)
        if isinstance(item, DieRolled):
            return self._die(item)
        if isinstance(item, DieState):
            return self._die_state(item)
        if isinstance(item, DeviceStatus):
            self._device_status(item)
        elif isinstance(item, DeviceNoise):
            return self._noise(item)
        else:
            log.warning("ignored unknown input %r", item)
        return None

    # -- device events ---------------------------------------------------------------------

    def _tag(self, tap: TagTapped) -> dict[str, Any]:
        source = f"nfc:{tap.reader}"
        self._device_event(f"nfc:{tap.reader}", f"tag {tap.uid}")
        raw = {"kind": "tag", "reader": tap.reader, "uid": tap.uid}
        if self.enrolling is not None:
            wanted = self.enrolling
            try:  # a refused sticker leaves the request open: the host taps another one
                comp = self.tags.enrol(tap.uid, wanted["game"], wanted["component"])
            except TagError as exc:
                return self._refuse(raw, source, ENROL_FAILED,
                                    t("The sticker was not enrolled: {problem}.",
                                      problem=reason_of(exc)))
            with self._lock:
                self.enrolling = self._next_to_enrol(wanted["game"]) if wanted.get("guide") \
                    else None
            self._note({"type": "tag_enrolled",
                        "text": t("Sticker enrolled as {component}.", component=comp.name),
                        "component": comp.name})
            if wanted.get("guide") and self.enrolling is None:
                title = get_game(wanted["game"]).title
                self._note({"type": "tags_complete", "game": wanted["game"],
                            "text": t("Every sticker of {game} is enrolled.", game=title)})
            return {"ok": True, "enrolled": comp.name}
        component = self.tags.lookup(tap.uid)
        if component is None:
            return self._refuse(raw, source, rules_inputs.UNKNOWN_TAG, "That sticker is not "
                                "enrolled; the host can enrol it on the host page.")
        if self.history is None:
            return self._refuse(raw, source, rules_inputs.NO_GAME, t("No game is being played."))
        players = self.history.state["players"]
        seat = reader_seat(tap.reader)  # a seat's own reader, or None for the board's
        if seat is not None and seat >= len(players):
            return self._refuse(raw, source, rules_inputs.EMPTY_SEAT,
                                t("Nobody sits at seat {seat}; its reader is not in use.",
                                  seat=seat + 1))
        mapper = inputs_for(self.history.game)
        mapped = mapper.tag(self.history.state, component, tap.uid, tap.reader)
        if seat is not None and not isinstance(mapped, Refusal):
            owner = mapper.tag_owner(self.history.state, mapped)
            if owner is not None and owner != players[seat]:
                return self._refuse(raw | {"action": mapped}, source, rules_inputs.WRONG_READER,
                                    t("That is {player}'s reader, at seat {seat}; {owner} taps "
                                      "this one (at their seat or the board).",
                                      player=players[seat], seat=seat + 1, owner=owner),
                                    seat)
        return self._act(mapped, source, raw, seat=seat)

    def _button(self, press: ButtonPressed) -> dict[str, Any]:
        source = f"button:{press.seat}"
        self._device_event("buttons", f"seat {press.seat} {'long ' if press.long else ''}press")
        raw = {"kind": "button", "seat": press.seat, "long": press.long}
        if self.history is None:
            return self._refuse(raw, source, rules_inputs.NO_GAME, t("No game is being played."))
        players = self.history.state["players"]
        if not 0 <= press.seat < len(players):
            return self._refuse(raw, source, rules_inputs.EMPTY_SEAT,
                                t("Nobody sits at seat {seat}.", seat=press.seat + 1))
        mapped = inputs_for(self.history.game).button(self.history.state, players[press.seat],
                                                      press.long)
        return self._act(mapped, source, raw, seat=press.seat)

    def awaited_roll(self) -> Chance | None:
        """The die roll the game waits for, if it waits for one."""
        if self.history is None:
            return None
        chance = self.history.game.chance(self.history.state)
        return chance if chance is not None and chance.kind == "die" else None

    def _roller_seat(self, chance: Chance) -> int | None:
        players = self.history.state["players"] if self.history else []
        return players.index(chance.player) if chance.player in players else None

    def _die(self, roll: DieRolled) -> dict[str, Any]:
        source = f"dice:{roll.reader}"
        self._die_seen(roll.reader, roll.die, "rolled", roll.face, bump=False)  # _act/_refuse do
        raw = {"kind": "die", "die": roll.die, "face": roll.face, "value": roll.value,
               "roll": roll.roll}
        if self.history is None:
            return self._refuse(raw, source, rules_inputs.NO_GAME, t("No game is being played."))
        chance = self.awaited_roll()
        if chance is None:
            return self._refuse(raw, source, rules_inputs.UNASKED_ROLL,
                                t("Nobody was asked to roll; the {face} rolled was ignored.",
                                  face=roll.face))
        seat = self._roller_seat(chance)
        if roll.die >= chance.dice:
            return self._refuse(raw, source, rules_inputs.UNASKED_ROLL,
                                t("This roll takes {n} dice (numbered from 0); die {die} was "
                                  "ignored.", n=chance.dice, die=roll.die) if chance.dice != 1
                                else t("This roll takes 1 die (numbered from 0); die {die} was "
                                       "ignored.", die=roll.die), seat)
        mapper = inputs_for(self.history.game)
        if chance.dice == 1:
            return self._act(mapper.die(self.history.state, roll), source, raw, seat=seat)
        # Several dice rolled together: each die's latest roll counts until all have been rolled.
        key = self._roll_key()
        if self._rolled[0] != key:
            self._rolled = (key, {})
        self._rolled[1][roll.die] = roll
        if len(self._rolled[1]) < chance.dice:
            self._bump()
            return {"ok": True, "waiting": chance.dice - len(self._rolled[1]), "raw": raw}
        rolls = [self._rolled[1][d] for d in range(chance.dice)]
        self._rolled = (None, {})
        return self._act(mapper.dice(self.history.state, rolls), source,
                         raw | {"dice": [r.face for r in rolls]}, seat=seat)

    def _roll_key(self) -> tuple[Any, int]:
        """Which awaited roll dice belong to: the game and its last log entry."""
        return (self.record.id if self.record else None, self._seq)

    def rolled_so_far(self) -> dict[str, str]:
        """Of several dice rolled together, the faces of those already rolled (die -> face)."""
        rolled = self._rolled[1] if self._rolled[0] == self._roll_key() else {}
        return {str(d): r.face for d, r in sorted(rolled.items())}

    def _die_state(self, state: DieState) -> dict[str, Any] | None:
        """A die moving, rolling, crooked, set down by hand or gone: shown; refused if it
        spoils an awaited roll."""
        self._die_seen(state.reader, state.die, state.state, state.face)
        chance = self.awaited_roll()
        if chance is None or state.state not in ("crooked", "placed"):
            return None
        raw = {"kind": "die_state", "die": state.die, "state": state.state, "face": state.face}
        if state.state == "crooked":
            return self._refuse(raw, f"dice:{state.reader}", rules_inputs.CROOKED_DIE,
                                t("The die landed crooked and cannot be read: roll it again."),
                                self._roller_seat(chance))
        return self._refuse(raw, f"dice:{state.reader}", rules_inputs.PLACED_DIE,
                            t("The die was set down by hand, not rolled: roll it to count."),
                            self._roller_seat(chance))

    def _die_seen(self, reader: str, die: int, state: str, face: str | None,
                  bump: bool = True) -> None:
        with self._lock:
            entry = self.devices.setdefault(reader, {"errors": 0, "connected": True})
            dice = entry.setdefault("dice", {})
            self.dice_reports += 1
            dice[str(die)] = {"state": state, "face": face, "at": now(), "n": self.dice_reports}
            entry.update(last=f"die {die} {state}" + (f" {face}" if face else ""),
                         last_at=now())
            if state == "missing":
                entry["errors"] = entry.get("errors", 0) + 1
            if bump:
                self._bump()

    def dice_connected(self) -> bool:
        """Whether a dice reader is connected (and so rolls come from real dice)."""
        with self._lock:
            name = getattr(self.dice, "name", None)
            return name is not None and bool(self.devices.get(name, {}).get("connected"))

    @staticmethod
    def readable(chance: Chance) -> bool:
        """Whether a reader's die profiles can describe the awaited dice (a custom die has six
        faces)."""
        return chance.profile is not None and (chance.profile != "custom"
                                               or len(chance.faces) == 6)

    def reader_can_roll(self, chance: Chance) -> bool:
        """Whether the connected reader can read the awaited dice."""
        return self.readable(chance) and self.dice_connected()

    def _tell_dice(self) -> None:
        """Tell the reader the profile of the die the game now waits for (safe to repeat)."""
        if self.dice is None or self._profile_for == self.version:
            return
        self._profile_for = self.version
        chance = self.awaited_roll()
        if chance is None or chance.profile is None:
            return
        faces = None if chance.profile != "custom" else tuple(str(f) for f in chance.faces)
        for die in range(chance.dice):
            try:
                self.dice.set_profile(die, chance.profile, faces)
            except (ValueError, OSError) as exc:
                log.warning("cannot set die %s to profile %s: %s", die, chance.profile, exc)

    def _device_status(self, status: DeviceStatus) -> None:
        with self._lock:
            entry = self.devices.setdefault(status.device, {"errors": 0})
            changed = entry.get("connected") != status.connected
            if status.detail == "pong":  # a heartbeat: it says nothing new about the device
                if not changed:
                    return
            elif status.detail.startswith("power: "):  # kept beside what the device said last
                entry["power"] = status.detail.removeprefix("power: ")
            else:
                entry["detail"] = status.detail
            entry.update(connected=status.connected, at=now())
            self._bump()
        log.log(logging.INFO if changed else logging.DEBUG, "device %s %s: %s", status.device,
                "connected" if status.connected else "disconnected", status.detail)

    def _noise(self, noise: DeviceNoise) -> dict[str, Any]:
        self.noise_count += 1
        log.warning("noise from %s: %s", noise.device, noise.detail)
        with self._lock:
            entry = self.devices.setdefault(noise.device, {"errors": 0})
            entry["errors"] = entry.get("errors", 0) + 1
        when = self.clock()
        raw = {"kind": "noise", "device": noise.device, "detail": noise.detail}
        reason = t("The {device} reader sent a corrupt line; it was ignored. Roll again if a "
                   "roll was expected.", device=noise.device)
        if when - self._noise_at >= NOISE_QUIET:  # one message per burst, every line is logged
            self._noise_at = when
            return self._refuse(raw, f"device:{noise.device}", rules_inputs.CORRUPT_DICE, reason)
        self.store.refuse(self.record.id if self.record else None, raw, f"device:{noise.device}",
                          rules_inputs.CORRUPT_DICE, reason)
        self._bump()
        return {"ok": False, "rule": rules_inputs.CORRUPT_DICE, "reason": reason}

    def _device_event(self, device: str, what: str) -> None:
        with self._lock:
            entry = self.devices.setdefault(device, {"errors": 0, "connected": True})
            entry.update(last=what, last_at=now())

    # -- requests --------------------------------------------------------------------------

    def _op_sync(self, source: str) -> dict[str, Any]:
        return {"ok": True}

    def _op_action(self, source: str, action: Any, player: str | None = None) -> dict[str, Any]:
        raw = {"kind": "request", "action": action}
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return self._refuse(raw, source, MALFORMED, t("A request needs an action with a type."))
        if self.history is None:
            return self._refuse(raw, source, rules_inputs.NO_GAME, t("No game is being played."))
        seat = None
        if player is not None:
            seat = self.history.state["players"].index(player)
        return self._act(action, source, raw, seat=seat)

    def _op_virtual_roll(self, source: str, player: str | None = None) -> dict[str, Any]:
        """A roll made by the server when no dice reader is connected, so a game never stalls."""
        raw = {"kind": "request", "virtual_roll": True}
        if self.history is None:
            return self._refuse(raw, source, rules_inputs.NO_GAME, t("No game is being played."))
        chance = self.awaited_roll()
        seat = self.history.state["players"].index(player) if player in \
            self.history.state["players"] else None
        if chance is None:
            return self._refuse(raw, source, rules_inputs.UNASKED_ROLL,
                                t("Nobody is asked to roll now."), seat)
        if self.reader_can_roll(chance):
            return self._refuse(raw, source, rules_inputs.READER_CONNECTED,
                                t("The dice reader is connected: roll the real die."), seat)
        if player is not None and chance.player is not None and player != chance.player:
            return self._refuse(raw, source, rules_inputs.NOT_YOUR_ROLL,
                                t("{roller} rolls now, not {player}.", roller=chance.player,
                                  player=player), seat)
        mapped = inputs_for(self.history.game).virtual_roll(self.history.state, chance,
                                                            self._random)
        return self._act(mapped, source, raw | {"action": mapped}, seat=seat)

    def _op_refuse(self, source: str, rule: str, reason: str,
                   raw: dict[str, Any]) -> dict[str, Any]:
        """A request the web layer refused before it reached the rules: logged and shown too."""
        return self._refuse(raw, source, rule, reason)

    def _op_undo(self, source: str) -> dict[str, Any]:
        raw = {"kind": "request", "action": {"type": "undo"}}
        if self.history is None:
            return self._refuse(raw, source, rules_inputs.NO_GAME, t("No game is being played."))
        return self._act({"type": "undo"}, source, raw)

    def _op_new_game(self, source: str, game: str, players: list[str],
                     options: dict[str, Any] | None = None, seed: int | None = None,
                     colours: list[str] | None = None) -> dict[str, Any]:
        raw = {"kind": "request", "new_game": {"game": game, "players": players}}
        if colours is not None:
            problem = colours_problem(colours, players)
            if problem:
                return self._refuse(raw, source, BAD_SETUP,
                                    t("The game cannot start: {problem}.", problem=problem))
        seed = secrets.randbelow(2**31) if seed is None else seed
        try:
            rules = get_game(game)
            options = {} if options is None else options
            if not isinstance(options, dict):
                raise SetupError("options must be an object")
            defaults = rules_inputs.INPUTS[rules.id].option_defaults
            history = History(rules, players, defaults | options, seed)
        except (ValueError, TypeError) as exc:  # SetupError is a ValueError
            return self._refuse(raw, source, BAD_SETUP,
                                t("The game cannot start: {problem}.", problem=reason_of(exc)))
        names = history.state["players"]
        if len(names) > self.layout.seats:
            return self._refuse(raw, source, BAD_SETUP, t("This table has {seats} seats, not {n}.",
                                                          seats=self.layout.seats, n=len(names)))
        tokens = {p: new_token() for p in names}
        joins = {p: new_join_code() for p in names}
        record = self.store.start_game(rules.id, names, history.state["options"], seed, tokens,
                                       joins, list(colours) if colours else None)
        self.store.drop_setting("paused")
        with self._lock:
            self.record, self.history = record, history
            self.paused = False
            self._seq = 0
            self.events.clear()
            self.cues.clear()
            self._note({"type": "game_started", "text": t("A game of {game} begins: {players}.",
                                                          game=rules.title,
                                                          players=", ".join(names))})
        self._turn_tower()
        return {"ok": True, "game_id": record.id}

    # -- seats, pause and end: the host's and the joining phones' requests -----------------------

    def _op_claim_seat(self, source: str, code: str) -> dict[str, Any]:
        """A phone scanned a seat's join code: the seat is its own from now on (the code is
        spent), and the answer carries the seat's token."""
        raw = {"kind": "request", "claim_seat": True}  # never the code itself: it is a secret
        record = self.record
        player = self.player_for_join(code)
        if player is None or record is None:
            return self._refuse(raw, source, BAD_JOIN, "This join code is not valid any more: "
                                "its seat was taken, or a new game began. Ask the host to hand "
                                "the seat over.")
        joins = {p: c for p, c in record.joins.items() if p != player}
        self._set_seats(record.tokens, joins)
        self._note({"type": "seat_claimed", "text": t("{player}'s phone joined.", player=player),
                    "player": player})
        return {"ok": True, "player": player, "token": record.tokens[player]}

    def _op_hand_over(self, source: str, player: str) -> dict[str, Any]:
        """The host hands a seat to another phone: its old link stops working at once, and the
        seat gets a new join code."""
        raw = {"kind": "request", "hand_over": player}
        record = self.record
        if record is None:
            return self._refuse(raw, source, rules_inputs.NO_GAME, t("No game is being played."))
        if player not in record.tokens:
            return self._refuse(raw, source, BAD_SEAT, t("{player} is not at this table.",
                                                         player=str(player)[:40]))
        tokens = dict(record.tokens) | {player: new_token()}
        joins = dict(record.joins) | {player: new_join_code()}
        self._set_seats(tokens, joins)
        self._note({"type": "seat_handed_over", "player": player,
                    "text": t("{player}'s seat can be joined again, from its code on the table "
                              "display; the old link no longer works.", player=player)})
        return {"ok": True, "player": player}

    def _set_seats(self, tokens: dict[str, str], joins: dict[str, str]) -> None:
        assert self.record is not None
        record = self.store.set_seats(self.record.id, tokens, joins)
        with self._lock:
            self.record = record
            self._bump()

    def _op_led_test(self, source: str) -> dict[str, Any]:
        """The host's LED test: every strip red, green, blue, then white (the doctor's pattern, at
        the table's brightness), LED_TEST_STEP seconds each, then the normal frames again. It only
        sets the moment the test ends: :meth:`frames` draws the pattern until then, and the
        animator shows it, so the request does not wait and the pattern goes out through the same
        path (and lock) as every other frame."""
        from ..doctor import PATTERN

        seconds = len(PATTERN) * LED_TEST_STEP
        with self._lock:
            self.led_test_until = self.clock() + seconds
        self._note({"type": "led_test", "text": t("The LED test pattern ran: every strip red, "
                                                  "green, blue, then white.")})
        self._show_leds()
        return {"ok": True, "seconds": seconds}

    def led_test_colour(self, at: float) -> tuple[int, int, int] | None:
        """The colour of the LED test pattern at ``at`` (a moment of ``clock``; before the
        table's brightness), or None when no test runs."""
        from ..doctor import PATTERN

        left = self.led_test_until - at
        if left <= 0:
            return None
        step = len(PATTERN) - math.ceil(left / LED_TEST_STEP)
        return PATTERN[min(max(step, 0), len(PATTERN) - 1)]

    def _op_settings(self, source: str, brightness: Any = None) -> dict[str, Any]:
        """The host's settings of the running table (kept across restarts): the LEDs'
        brightness, from 0.05 to 1 (the LED drivers' own ceiling still applies)."""
        if isinstance(brightness, bool) or not isinstance(brightness, (int, float)) or \
                not 0.05 <= brightness <= 1.0:
            return self._refuse({"kind": "request", "settings": True}, source,
                                rules_inputs.BAD_REQUEST,
                                t("The brightness must be a number from 0.05 to 1."))
        self.store.set_setting("brightness", repr(float(brightness)))
        with self._lock:
            self.brightness = float(brightness)
            self._bump()
        self._show_leds()
        return {"ok": True, "brightness": self.brightness}

    def _op_note(self, source: str, text: str) -> dict[str, Any]:
        """Something worth telling every page that is no game action (a host signed in)."""
        self._note({"type": "note", "text": str(text)[:200]})
        return {"ok": True}

    def _op_pause(self, source: str) -> dict[str, Any]:
        if self.record is None:
            return self._refuse({"kind": "request", "pause": True}, source, rules_inputs.NO_GAME,
                                t("No game is being played."))
        self.store.set_setting("paused", str(self.record.id))
        with self._lock:
            self.paused = True
        self._note({"type": "paused", "text": t("The host paused the game.")})
        self._show_leds()
        return {"ok": True}

    def _op_resume(self, source: str) -> dict[str, Any]:
        self.store.drop_setting("paused")
        with self._lock:
            was, self.paused = self.paused, False
        if was:
            self._note({"type": "resumed", "text": t("The game goes on.")})
        self._show_leds()
        return {"ok": True}

    def _op_end_game(self, source: str) -> dict[str, Any]:
        """The host ends the game: kept in the log, never resumed; every seat's link ends."""
        if self.record is None:
            return self._refuse({"kind": "request", "end_game": True}, source,
                                rules_inputs.NO_GAME, t("No game is being played."))
        self.store.end_game(self.record.id)
        self.store.drop_setting("paused")
        title = self.history.game.title if self.history else "the game"
        with self._lock:
            self.record, self.history, self.paused = None, None, False
            self.cues.clear()
            self.events.clear()  # the game's own events are seen only through its view_event
        self._note({"type": "game_ended", "text": t("The host ended {game}.", game=title)})
        self._show_leds()
        self._turn_tower()
        return {"ok": True}

    def _op_enrol(self, source: str, game: str, component: str) -> dict[str, Any]:
        raw = {"kind": "request", "enrol": {"game": game, "component": component}}
        try:
            self.tags.check("00000000", game, component)
        except TagError as exc:
            if "already enrolled" not in str(exc):
                return self._refuse(raw, source, ENROL_FAILED,
                                    t("Cannot enrol: {problem}.", problem=reason_of(exc)))
        with self._lock:
            self.enrolling = {"game": game, "component": " ".join(component.lower().split())}
            self._bump()
        return {"ok": True}

    def _op_enrol_guide(self, source: str, game: str) -> dict[str, Any]:
        """Ask for every component of ``game`` in turn, each as many times as the box holds it,
        starting with the first one still missing (so the guide resumes where it stopped)."""
        try:
            get_game(game)
        except SetupError as exc:
            return self._refuse({"kind": "request", "enrol_guide": str(game)[:40]}, source,
                                ENROL_FAILED, t("Cannot enrol: {problem}.",
                                                problem=reason_of(exc)))
        with self._lock:
            self.enrolling = self._next_to_enrol(game)
            self._bump()
        return {"ok": True, "done": self.enrolling is None}

    def _next_to_enrol(self, game: str) -> dict[str, Any] | None:
        counts = self.tags.count(game)
        for name, wanted in get_game(game).components.items():
            if counts.get(name, 0) < wanted:
                return {"game": game, "component": name, "guide": True}
        return None

    def _op_forget_game_tags(self, source: str, game: str) -> dict[str, Any]:
        """Forget every sticker of ``game`` (to teach a new set from the start)."""
        try:
            title = get_game(game).title
        except SetupError as exc:
            return self._refuse({"kind": "request", "forget_game_tags": str(game)[:40]}, source,
                                ENROL_FAILED, t("Cannot forget: {problem}.",
                                                problem=reason_of(exc)))
        count = self.tags.forget_game(game)
        with self._lock:
            if self.enrolling and self.enrolling["game"] == game:
                self.enrolling = self._next_to_enrol(game) if self.enrolling.get("guide") \
                    else self.enrolling
        self._note({"type": "tags_forgotten", "game": game,
                    "text": t("{n} stickers of {game} were forgotten.", n=count, game=title)})
        return {"ok": True, "count": count}

    def enrolment(self) -> dict[str, Any] | None:
        """What the host's page shows of an open enrolment: the component asked for, and the
        progress of its game's box."""
        wanted = self.enrolling
        if wanted is None:
            return None
        box = get_game(wanted["game"]).components
        counts = self.tags.count(wanted["game"])
        name = wanted["component"]
        return {**wanted, "done": sum(min(counts.get(c, 0), n) for c, n in box.items()),
                "total": sum(box.values()), "component_done": counts.get(name, 0),
                "component_total": box.get(name, 0)}

    def _op_enrol_cancel(self, source: str) -> dict[str, Any]:
        with self._lock:
            self.enrolling = None
            self._bump()
        return {"ok": True}

    def _op_import_tags(self, source: str, data: Any, replace: bool = False) -> dict[str, Any]:
        try:
            count = self.tags.import_(data, replace=replace)
        except TagError as exc:
            return self._refuse({"kind": "request", "import_tags": True}, source, ENROL_FAILED,
                                t("The tag file was not imported: {problem}.",
                                  problem=reason_of(exc)))
        self._note({"type": "tags_imported", "text": t("{n} stickers imported.", n=count)})
        return {"ok": True, "count": count}

    def _op_forget_tag(self, source: str, uid: str) -> dict[str, Any]:
        if not self.tags.forget(uid):
            return self._refuse({"kind": "request", "forget_tag": uid}, source,
                                rules_inputs.UNKNOWN_TAG, t("That sticker is not enrolled."))
        self._note({"type": "tag_forgotten", "text": t("A sticker was forgotten.")})
        return {"ok": True}

    # -- the one path of every game action -------------------------------------------------

    def _act(self, action: Any, source: str, raw: dict[str, Any],
             seat: int | None = None) -> dict[str, Any]:
        if isinstance(action, Refusal):
            return self._refuse(raw, source, action.rule, action.reason, seat)
        if self.paused and not (source == "host" and action.get("type") == "undo"):
            return self._refuse(raw | {"action": action}, source, PAUSED,
                                t("The game is paused; the host resumes it."), seat)
        assert self.history is not None and self.record is not None
        result = self.history.check(action)
        if isinstance(result, Refusal):
            return self._refuse(raw | {"action": action}, source, result.rule, result.reason, seat)
        # Durable before anything shows it.
        seq = self._seq + 1
        finished = self.history.game.outcome(result.state).finished
        at = self.store.append(self.record.id, seq, action, source, finished=finished)
        with self._lock:
            self.history.commit(action, result)
            self._seq = seq
            self._keep_events(result.events, at)
            self._add_cues(cues_from_events(list(result.events), self.history.state["players"],
                                            self.clock()))
            self._bump()
        self._show_leds()
        self._turn_tower()
        return {"ok": True, "action": action, "events": len(result.events)}

    def _refuse(self, raw: dict[str, Any], source: str, rule: str, reason: str,
                seat: int | None = None) -> dict[str, Any]:
        game_id = self.record.id if self.record else None
        at = self.store.refuse(game_id, raw, source, rule, reason)
        log.info("refused %s from %s: %s %s", raw, source, rule, reason)
        with self._lock:
            self.refusals.append({"rule": rule, "reason": reason, "source": source, "at": at,
                                  "seat": seat})
            self._add_cues([refusal_cue(seat, self.clock())])
            self._bump()
        self._show_leds()
        return {"ok": False, "rule": rule, "reason": reason}

    def _add_cues(self, cues: list[Cue]) -> None:
        """New LED cues; finished ones are dropped here, so the list stays short."""
        t = self.clock()
        self.cues = [c for c in self.cues if c.active(t)] + cues

    def _keep_events(self, events: tuple[dict[str, Any], ...] | list, at: str) -> None:
        for e in events:
            self._event_n += 1
            self.events.append({"n": self._event_n, "at": at, "event": e})

    def _note(self, event: dict[str, Any]) -> None:
        with self._lock:
            self._keep_events([event], now())
            self._bump()

    def _bump(self) -> None:
        with self._lock:
            self.version += 1
            self._cache.clear()
            self._changed.notify_all()

    # ------------------------------------------------------------------------------------------
    # Outputs

    def colour_names(self) -> list[str]:
        """Each seat's colour: the game's players' chosen colours, the palette's order after."""
        chosen = list(self.record.colours) if self.record is not None else []
        rest = [c for c in SEAT_COLOURS if c not in chosen]
        return (chosen + rest + list(SEAT_COLOURS) * 2)[:max(self.layout.seats, len(chosen))]

    def colours(self) -> list[tuple[int, int, int]]:
        return [PALETTE[name] for name in self.colour_names()[:self.layout.seats]]

    def player_for_join(self, code: Any) -> str | None:
        """The player whose seat the join code ``code`` opens (a seat no phone has taken)."""
        record = self.record
        if record is None or not isinstance(code, str) or not code:
            return None
        return next((p for p, c in record.joins.items()
                     if secrets.compare_digest(c.encode(), code.encode())), None)

    def viewer_for_token(self, token: str) -> str | None:
        """The player a join token belongs to, in the current game."""
        if self.record is None or not token:
            return None
        for player, t in self.record.tokens.items():
            if secrets.compare_digest(t, token):
                return player
        return None

    def snapshot(self, viewer: str) -> dict[str, Any]:
        """Everything a page shows, for one viewer, with nothing that viewer may not see."""
        with self._lock:
            key = (self.version, viewer)
            cached = self._cache.get(key)
            if cached is not None:
                return cached
            snap: dict[str, Any] = {"version": self.version, "viewer": viewer, "game": None,
                                    "view": None, "legal": [], "events": [],
                                    "refusals": list(self.refusals),
                                    "devices": {k: dict(v) for k, v in self.devices.items()}}
            if self.history is not None and self.record is not None:
                game, state = self.history.game, self.history.state
                rec = self.record
                snap["game"] = {"id": rec.id, "game": game.id, "title": game.title,
                                "players": rec.players,
                                "colours": dict(zip(rec.players, self.colour_names())),
                                "started_at": rec.started_at, "undoable": bool(
                                    self.history.actions), "paused": self.paused}
                if viewer in (TABLE, HOST):  # the seats no phone has claimed: their codes
                    snap["joins"] = [{"player": p, "code": rec.joins[p],
                                      "colour": snap["game"]["colours"][p]}
                                     for p in rec.players if p in rec.joins]
                snap["view"] = game.view(state, viewer)
                snap["events"] = [
                    {"n": e["n"], "at": e["at"], **game.view_event(e["event"], viewer)}
                    for e in self.events]
                if viewer in state["players"]:
                    snap["legal"] = [a for a in game.legal_actions(state)
                                     if a.get("player") == viewer]
            if self.history is None:  # no game: only the table's own notes are left
                snap["events"] = [{"n": e["n"], "at": e["at"], **e["event"]} for e in self.events]
            snap["dice"] = self._dice_snapshot(viewer)
            if viewer == HOST:
                snap["enrolling"] = self.enrolment()
            self._cache[key] = snap
            return snap

    def _dice_snapshot(self, viewer: str) -> dict[str, Any]:
        """The awaited roll (public), what the dice are doing, and whether ``viewer`` may ask
        the server for a virtual roll (only while no dice reader is connected)."""
        chance = self.awaited_roll()
        name = getattr(self.dice, "name", None)
        entry = self.devices.get(name, {}) if name else {}
        connected = self.dice_connected()
        return {"awaited": chance.to_json() if chance else None, "reader": connected,
                "dice": dict(entry.get("dice", {})), "rolled": self.rolled_so_far(),
                "virtual": chance is not None and not (connected and self.readable(chance)) and (
                    chance.player is None or viewer == chance.player)}

    def wait_for_change(self, seen: int, timeout: float) -> int:
        """Block until the version differs from ``seen`` (or the timeout, or closing)."""
        with self._changed:
            self._changed.wait_for(lambda: self.version != seen or self._closing, timeout)
            return self.version

    def public_view(self) -> dict[str, Any] | None:
        """The table display's view; computed once per change (the LED animator asks often)."""
        with self._lock:
            if self.history is None:
                return None
            if self._public[0] != self.version:
                self._public = (self.version, self.history.game.view(self.history.state, TABLE))
            return self._public[1]

    def referee_view(self) -> dict[str, Any] | None:
        """The whole state, for the simulated table only (it plays the physical world)."""
        with self._lock:
            if self.history is None:
                return None
            return self.history.game.view(self.history.state, EVERYTHING)

    def frames(self, t: float | None = None) -> dict[str, list[tuple[int, int, int]]]:
        t = self.clock() if t is None else t
        test = self.led_test_colour(t)
        if test is not None:  # the host's LED test pattern, for a moment (_op_led_test)
            lit = tuple(round(c * self.brightness) for c in test)
            return {name: [lit] * n for name, n in self.layout.strips().items()}
        with self._lock:
            view, cues = self.public_view(), list(self.cues)
        return render(view, self.colours(), cues, t, self.layout, self.brightness)

    def _show_leds(self) -> None:
        if not self.strips:
            return
        with self._led_lock:
            for name, pixels in self.frames().items():
                strip = self.strips.get(name)
                if strip is not None:
                    strip.show(pixels)

    def _turn_tower(self) -> None:
        """Turn the tower motor, if there is one, to the game's tower step (clockwise only: an
        undo of a turn costs 7 steps on), and remember where it stands."""
        motor = self.tower_motor
        if motor is None:
            return
        with self._tower_lock:
            view = self.public_view()  # the game's view for TABLE, computed once per change
            if not isinstance(view, dict) or not isinstance(view.get("tower"), dict):
                return
            step = view["tower"]["step"]
            stored = self.store.setting(TOWER_MOTOR_STEP)
            shown = int(stored) if stored is not None else 0  # placed at the setup position
            turns = (step - shown) % TOWER_STEPS
            try:
                if turns:
                    motor.advance(turns)
            except Exception:  # a motor fault must not stop the table; the next change retries
                log.exception("the tower motor could not turn %d steps", turns)
                return
            if stored != str(step):
                self.store.set_setting(TOWER_MOTOR_STEP, str(step))

    def _animate(self) -> None:
        period = 1.0 / ANIMATION_FPS
        moving = False
        while not self._closing:
            time.sleep(period)
            with self._lock:
                view, cues = self.public_view(), list(self.cues)
            t = self.clock()
            was, moving = moving, (animating(view, cues, t)
                                   or self.led_test_colour(t) is not None)
            if moving or was:  # and one frame more once it stops: the steady frame
                self._show_leds()
