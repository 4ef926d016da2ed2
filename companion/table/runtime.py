"""The running table: inputs → rules → log → outputs.

Every input — a device event (tag, button, die, status) or a request from a phone or the host —
goes through one inbox (:mod:`.inbox`: a short queue per source, served in turn, so a flooding
device never delays a phone) and is handled by one thread, in order. Device noise is counted where
it happens and reported once a second, never queued line by line. For an action the rules accept,
the entry is committed to SQLite first; only then do the state, the LEDs and the phones change. A
refused input changes nothing; it is logged (refusals of one source and rule within a second are
one entry with a count, :mod:`.refusals`), shown on every page with its rule ID and reason, and
signalled on the LEDs.

An answer is the truth: a request whose caller stopped waiting is cancelled if the loop has not
begun it (and the caller says the table was busy), or waited for until it is done; it is never
applied after an error was returned.

On start the table resumes the game that was at the table (the store's ``current_game``) by
replaying its log, so a crash or a pulled plug loses nothing that was acknowledged. A game is
never dropped: another game started or resumed, or the host's "end", sets it aside, resumable
(:mod:`.kept_games`).

Actuators (``actuators``: devices the game moves, such as a tower motor) follow the game after
every accepted action, a new game and on start, as the game's plug-in says; where each stands is
kept in the store's settings (``<name>_step``), so a restart with one behind catches up.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from ..devices.events import ButtonPressed, DeviceStatus, DieRolled, DieState, TagTapped
from ..i18n import t
from ..lights import Cue, Layout, refusal_cue
from ..rules import Refusal, SetupError
from . import inputs as rules_inputs
from .countdown import Countdown
from .device_inputs import DeviceInputs, NoiseReport
from .device_reports import DeviceReports
from .dice_tally import DiceTally
from .enrolment import ENROL_FAILED, Enrolment
from .game_requests import GameRequests, colours_problem
from .history import History
from .host_requests import LED_TEST_STEP, HostRequests
from .inbox import REQUEST_BACKLOG, Inbox
from .kept_games import KeptGames
from .outputs import ANIMATION_FPS, TableOutputs
from .put_back import PutBack
from .refusals import RefusalLog
from .seats import BAD_JOIN, BAD_SEAT, Seats, new_join_code, new_token
from .storage import StorageError
from .storage_watch import CANNOT_RECORD, InputSource, StorageWatch
from .store import GameRecord, Store, now
from .tags import TagRegistry

log = logging.getLogger("companion.table")

#: re-exported: the web layer and the tests know them from here
__all__ = [
    "ANIMATION_FPS",
    "BAD_JOIN",
    "BAD_SEAT",
    "CANNOT_RECORD",
    "ENROL_FAILED",
    "LED_TEST_STEP",
    "Command",
    "Table",
    "busy",
    "colours_problem",
    "new_join_code",
    "new_token",
]

KEEP_EVENTS = 60
KEEP_JOURNAL = 200
HOUSEKEEPING = 0.5  # seconds: how often an idle loop writes refusal counts and checks storage
PAUSED = "TABLE-GAME-3"
BUSY = "TABLE-BUSY-1"


@dataclass
class Command:
    """A request from the web (phone, host, simulated table) for the table loop."""

    op: str
    args: dict[str, Any]
    source: str
    future: Future = field(default_factory=Future)


def busy(op: str) -> dict[str, Any]:
    """The answer to a request the table could not take (its queue was full, or the caller
    stopped waiting before the loop began it): nothing was done."""
    return {
        "ok": False,
        "rule": BUSY,
        "op": op,
        "reason": t("The table is busy; nothing was done. Try again in a moment."),
    }


class Table(
    GameRequests,
    KeptGames,
    Seats,
    HostRequests,
    Enrolment,
    DeviceInputs,
    DiceTally,
    StorageWatch,
    TableOutputs,
    Countdown,
    PutBack,
):
    """The running table: one loop taking every input in turn (see the module's docstring).
    Its parts: :class:`~.game_requests.GameRequests` (a new game, actions, undo, virtual rolls),
    :class:`~.kept_games.KeptGames` (set-aside games: confirmation, list, resuming),
    :class:`~.seats.Seats` (tokens and join codes), :class:`~.host_requests.HostRequests` (pause,
    resume, end, the LED test, settings), :class:`~.enrolment.Enrolment` (the stickers),
    :class:`~.device_inputs.DeviceInputs` (device events), :class:`~.dice_tally.DiceTally`
    (every roll kept for the dice's fairness), :class:`~.storage_watch.StorageWatch`
    (a storage that cannot record), :class:`~.outputs.TableOutputs` (snapshots, LEDs,
    actuators), :class:`~.countdown.Countdown` (the game's countdown) and
    :class:`~.put_back.PutBack` (what an undo asks to put back, and its taps). This class holds its state, its life cycle, the loop and the one path of every
    game action."""

    def __init__(
        self,
        store: Store,
        *,
        layout: Layout | None = None,
        brightness: float = 1.0,
        strips: dict[str, Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.store = store
        self.tags = TagRegistry(store)
        self.layout = layout or Layout()
        #: the LEDs' brightness: the configuration's, unless the host changed it on the phone
        stored = store.setting("brightness")
        self.brightness = float(stored) if stored is not None else brightness
        self.strips = dict(strips or {})
        self.clock = clock
        self.inbox = Inbox()
        #: what the devices reported: diagnostics for the host, a summary for everyone
        self.reports = DeviceReports()
        self._noisy: set[str] = set()  # devices with a NoiseReport waiting in the inbox
        self._noise_lock = threading.Lock()
        self._listeners: list[Callable[[], None]] = []
        #: why the table cannot record now (a full or failing disk); None while it can
        self._storage: StorageError | None = None
        #: the dice reader, told which die profile a roll needs (None: no reader configured)
        self.dice: Any = None
        #: devices the game moves, by name (``"tower_motor"``: a motor turning a real tower)
        self.actuators: dict[str, Any] = {}
        self._rolled: tuple[Any, dict[int, DieRolled]] = (None, {})  # (awaited roll, dice in)
        self._profile_for = -1  # the version whose chance step was last told to the reader
        self._random = random.SystemRandom()  # virtual rolls, when no reader is connected
        self.enrolling: dict[str, Any] | None = None
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._led_lock = threading.Lock()
        self._shown_pixels: dict[str, list] = {}  # what each strip shows (the animator skips it)
        self._actuator_lock = threading.Lock()  # start() and the loop may both catch up
        self._closing = False
        self._thread: threading.Thread | None = None
        self._animator: threading.Thread | None = None
        #: the LED test pattern (see _op_led_test) shows until this moment of ``clock``
        self.led_test_until = -1e9
        self.version = 0
        self.record: GameRecord | None = None
        self.history: History | None = None
        self.events: deque[dict[str, Any]] = deque(maxlen=KEEP_EVENTS)
        self.refusal_log = RefusalLog(store, clock)
        self._event_n = 0
        self._seq = 0  # the last entry's number in the current game's log
        self.cues: list[Cue] = []
        #: what each handled input became: accepted as an action, or refused; newest last
        self.journal: deque[dict[str, Any]] = deque(maxlen=KEEP_JOURNAL)
        self.inputs_handled = 0
        self._cache: dict[tuple[Any, ...], Any] = {}  # per version: snapshots and their parts
        self._event_views: dict[tuple[int, str], dict[str, Any]] = {}  # (event n, viewer) -> view
        self._public: tuple[int, dict[str, Any] | None] = (-1, None)
        #: the host paused the game: every input but the host's is refused until it resumes
        self.paused = False
        self._resume()
        self.refusal_log.show_game(self.record.id if self.record else None)

    # ------------------------------------------------------------------------------------------
    # Life cycle

    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, name="table-loop", daemon=True)
        self._thread.start()
        self._animator = threading.Thread(target=self._animate, name="table-leds", daemon=True)
        self._animator.start()
        self._show_leds()
        self._follow_actuators()

    def close(self) -> None:
        """Stop the loop after the inputs already queued, and wake every live stream."""
        if self._closing:
            return
        with self._lock:
            self._closing = True
        self.wake_streams()
        self.inbox.close()
        for thread in (self._thread, self._animator):
            if thread is not None:
                thread.join(timeout=5)
        for item in self.inbox.drain():  # never started: their callers hear the table is busy
            if isinstance(item, Command) and item.future.set_running_or_notify_cancel():
                item.future.set_result(busy(item.op))
        self.refusal_log.flush()

    @property
    def closing(self) -> bool:
        return self._closing

    @property
    def refusals(self) -> deque[dict[str, Any]]:
        """The refusals every page shows (newest last)."""
        return self.refusal_log.shown

    def game_in_progress(self) -> bool:
        """Whether a game is being played (started and not over)."""
        with self._lock:
            history = self.history
            return history is not None and not history.game.outcome(history.state).finished

    @property
    def devices(self) -> dict[str, dict[str, Any]]:
        """Everything the devices reported (a copy): for the host's status page only."""
        return self.reports.diagnostics()

    @property
    def dice_reports(self) -> int:
        """How many die reports (rolls and states) the table has seen."""
        return self.reports.dice_reports

    def _resume(self) -> None:
        """At start: the game that was at the table, replayed from its log."""
        record = self.store.current_game()
        if record is None:
            return
        replayed = self._replay(record)
        if isinstance(replayed, SetupError):  # logged; the host's Games card can tell why
            return
        history, self._seq, events = replayed
        for happened, at in events:
            self._keep_events(happened, at)
        self.record, self.history = record, history
        self.paused = self.store.setting("paused") == str(record.id)
        self.version += 1
        self._track_countdown()
        log.info("resumed game %s (%s) after %s entries", record.id, record.game, history.count)

    # ------------------------------------------------------------------------------------------
    # Requests, and the loop that takes every input in turn (devices: DeviceInputs.emit)

    def submit(self, op: str, source: str, **args: Any) -> Future:
        """Queue a request; the future resolves to ``{"ok": True, ...}`` or a refusal dict (at
        once, saying the table is busy, when the source already has too many requests waiting)."""
        command = Command(op, args, source)
        if not self.inbox.put(source, command, REQUEST_BACKLOG, barrier=op == "sync"):
            command.future.set_running_or_notify_cancel()
            command.future.set_result(busy(op))
        return command.future

    def call(self, op: str, source: str, timeout: float = 10.0, **args: Any) -> dict[str, Any]:
        """Ask the table and wait for its answer. If the loop has not begun the request within
        ``timeout`` seconds, it is cancelled (never applied later) and the answer says the table
        is busy; a request the loop has begun is waited for until it is done."""
        future = self.submit(op, source, **args)
        try:
            return future.result(timeout)
        except TimeoutError:
            if future.cancel():
                return busy(op)
            return future.result()

    def sync(self, timeout: float = 10.0) -> None:
        """Wait until every input queued before this call has been handled."""
        self.call("sync", "sync", timeout)

    def outcomes_since(self, handled: int) -> list[dict[str, Any]]:
        """What the inputs handled after ``inputs_handled`` was ``handled`` became."""
        with self._lock:
            return [j for j in self.journal if j["n"] > handled]

    def _loop(self) -> None:
        housekept = self.clock()
        while True:
            item = self.inbox.get(timeout=HOUSEKEEPING)
            if item is None and self._closing:
                return
            if item is not None and not (
                isinstance(item, Command) and not item.future.set_running_or_notify_cancel()
            ):
                try:
                    self._handle(item)
                except Exception as exc:  # a bug must not stop the table; it is logged loudly
                    log.exception("input %r failed", item)
                    if isinstance(item, Command) and not item.future.done():
                        item.future.set_exception(exc)
            if self.clock() - housekept >= HOUSEKEEPING:
                housekept = self.clock()
                try:
                    self._housekeeping()
                except Exception:  # a bug must not stop the table; it is logged loudly
                    log.exception("the table's housekeeping failed")

    def _housekeeping(self) -> None:
        """What the loop does now and then: write the counts of refusals whose second is over,
        and tell the pages when a shown count grew (at most every HOUSEKEEPING seconds)."""
        self.refusal_log.flush()
        if self.refusal_log.take_changed():
            self._bump()
        failed, self.refusal_log.storage_problem = self.refusal_log.storage_problem, None
        failed = failed or self.store.failure  # a refusal not written, or a mark not written
        if self._storage is None and failed is not None:
            self._storage_failed(failed)
        if self._storage is not None:
            self._check_storage()
        self.countdown_due()

    def _handle(self, item: Any) -> None:
        try:
            result = self._dispatch(item)
        except StorageError as exc:  # nothing was applied: the write came first
            result = self._cannot_record(exc, item)
            if isinstance(item, Command) and not item.future.done():
                item.future.set_result(result)
        self._tell_dice()
        if isinstance(result, dict) and not (isinstance(item, Command) and item.op == "sync"):
            with self._lock:
                self.inputs_handled += 1
                self.journal.append(
                    {
                        "n": self.inputs_handled,
                        "source": getattr(item, "source", None) or type(item).__name__,
                        **{k: v for k, v in result.items() if k != "seen"},
                    }
                )

    def _dispatch(self, item: Any) -> dict[str, Any] | None:
        if isinstance(item, Command):
            handler = getattr(self, f"_op_{item.op}", None)
            if handler is None:
                result = self._refuse(
                    {"op": item.op},
                    item.source,
                    rules_inputs.BAD_REQUEST,
                    t("The table has no request {op}.", op=repr(item.op)),
                )
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
        elif isinstance(item, NoiseReport):
            return self._noise(item)
        else:
            log.warning("ignored unknown input %r", item)
        return None

    def _op_sync(self, source: str) -> dict[str, Any]:
        return {"ok": True}

    # -- the one path of every game action -------------------------------------------------

    def _act(
        self, action: Any, source: str, raw: dict[str, Any], seat: int | None = None
    ) -> dict[str, Any]:
        if isinstance(action, Refusal):
            return self._refuse(raw, source, action.rule, action.reason, seat)
        if self._storage is not None:  # nothing can be made durable: nothing is applied
            return self._cannot_record(self._storage, InputSource(source, seat))
        if self.paused and not (source == "host" and action.get("type") == "undo"):
            return self._refuse(
                raw | {"action": action},
                source,
                PAUSED,
                t("The game is paused; the host resumes it."),
                seat,
            )
        assert self.history is not None and self.record is not None
        result = self.history.check(action)
        if isinstance(result, Refusal):
            return self._refuse(raw | {"action": action}, source, result.rule, result.reason, seat)
        # Durable before anything shows it.
        seq = self._seq + 1
        finished = self.history.game.outcome(result.state).finished
        progress = self.history.game.progress(result.state)
        at = self.store.append(
            self.record.id, seq, action, source, finished=finished, progress=progress
        )
        with self._lock:
            self.history.commit(action, result)
            self._seq = seq
            self._put_back_after(action, result)  # before the entry's events: they end the list
            self._keep_events(result.events, at)
            self._add_cues(
                self.drawer().cues(list(result.events), self.history.state["players"], self.clock())
            )
            self._bump()
        self._show_leds()
        self._follow_actuators()
        return {"ok": True, "action": action, "events": len(result.events)}

    def _refuse(
        self,
        raw: dict[str, Any],
        source: str,
        rule: str,
        reason: str,
        seat: int | None = None,
        count: int = 1,
    ) -> dict[str, Any]:
        """Refuse an input: written, shown and signalled once; the same refusal again from the
        same source within a second only counts (the pages see the count within a second)."""
        game_id = self.record.id if self.record else None
        _, new = self.refusal_log.add(game_id, raw, source, rule, reason, seat, count=count)
        if new:
            log.info("refused %s from %s: %s %s", raw, source, rule, reason)
            with self._lock:
                self._add_cues([refusal_cue(seat, self.clock())])
                self._bump()
            self._show_leds()
        return {"ok": False, "rule": rule, "reason": reason}

    def refuse_quietly(
        self, source: str, rule: str, reason: str, raw: dict[str, Any]
    ) -> dict[str, Any]:
        """A web request refused before it reached the table (a wrong join code, a missing CSRF
        token, a wrong PIN): written and counted (one entry a second per source and rule), shown
        to the host's status page, but never on the pages nor the LEDs, so an unknown client
        cannot blink the table or wake every phone. Safe from any thread."""
        _, new = self.refusal_log.add(
            self.record.id if self.record else None, raw, source, rule, reason, public=False
        )
        if new:
            log.info("refused a web request from %s: %s %s", source, rule, reason)
        return {"ok": False, "rule": rule, "reason": reason}

    # -- every change: its events and cues, the version, the streams and listeners ---------

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
            self._track_countdown()
            self._changed.notify_all()
        self._tell_listeners()

    def listen(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (from any thread, quickly, without arguments) after every change and
        when streams must look again (:meth:`wake_streams`): an event-loop server wakes its
        streams with it."""
        self._listeners.append(callback)

    def unlisten(self, callback: Callable[[], None]) -> None:
        if callback in self._listeners:
            self._listeners.remove(callback)

    def wake_streams(self) -> None:
        """Make every waiting stream look again (one was ended, or the table is closing)."""
        with self._changed:
            self._changed.notify_all()
        self._tell_listeners()

    def _tell_listeners(self) -> None:
        for callback in list(self._listeners):
            try:
                callback()
            except Exception:  # a listener must not stop the table
                log.exception("a change listener failed")
