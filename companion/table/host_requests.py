"""The host's and the joining phones' requests of the table (a part of
:class:`~.runtime.Table`): seats claimed and handed over, pause, resume and end, the LED test,
the table's settings, and teaching the stickers (enrolment, tag files). Every method runs on the
table loop. A host-only request that is refused is answered to the host and written, never shown
on the pages (it may name a sticker's UID).
"""

from __future__ import annotations

import math
import secrets
from typing import Any

from ..devices.nfc import reader_seat
from ..games import GamePlugin, get_game, plugin, plugins
from ..i18n import reason_of, t
from ..rules import SetupError
from . import inputs as rules_inputs
from .device_inputs import ENROL_FAILED
from .tags import TagError

LED_TEST_STEP = 0.5  # seconds each colour of the host's LED test pattern shows
NO_STICKERS_IN_GAME = "TABLE-TAG-6"
BAD_JOIN = "TABLE-JOIN-1"
BAD_SEAT = "INPUT-3"


def new_token() -> str:
    """A seat's key: 256 random bits, in the player's private link."""
    return secrets.token_urlsafe(32)


def new_join_code() -> str:
    """A seat's one-time join code (128 random bits), spent when a phone claims the seat."""
    return secrets.token_urlsafe(16)


class HostRequests:
    """Requests about seats, pausing, the LEDs and the stickers; mixed into
    :class:`~.runtime.Table`."""

    # -- seats, pause and end: the host's and the joining phones' requests -----------------------

    # -- the games the table can set up (the web reaches them through the table) -------------

    @staticmethod
    def games() -> list[GamePlugin]:
        """Every game's plug-in, in the project's order (each imported if it was not yet)."""
        return plugins()

    @staticmethod
    def game_plugin(game_id: str) -> GamePlugin:
        """The plug-in of ``game_id``; :class:`SetupError` for an id no game has."""
        return plugin(game_id)

    @staticmethod
    def reader_seat(reader: str) -> int | None:
        """The seat (1, 2, ...) of an NFC reader named ``seatN``; None for the board's."""
        return reader_seat(reader)

    def _op_claim_seat(self, source: str, code: str) -> dict[str, Any]:
        """A phone scanned a seat's join code: the seat is its own from now on (the code is
        spent), and the answer carries the seat's token."""
        raw = {"kind": "request", "claim_seat": True}  # never the code itself: it is a secret
        record = self.record
        player = self.player_for_join(code)
        if player is None or record is None:
            return self._refuse(
                raw,
                source,
                BAD_JOIN,
                "This join code is not valid any more: "
                "its seat was taken, or a new game began. Ask the host to hand "
                "the seat over.",
            )
        joins = {p: c for p, c in record.joins.items() if p != player}
        self._set_seats(record.tokens, joins)
        self._note(
            {
                "type": "seat_claimed",
                "text": t("{player}'s phone joined.", player=player),
                "player": player,
            }
        )
        return {"ok": True, "player": player, "token": record.tokens[player]}

    def _op_hand_over(self, source: str, player: str) -> dict[str, Any]:
        """The host hands a seat to another phone: its old link stops working at once, and the
        seat gets a new join code."""
        raw = {"kind": "request", "hand_over": player}
        record = self.record
        if record is None:
            return self._refuse(raw, source, rules_inputs.NO_GAME, t("No game is being played."))
        if player not in record.tokens:
            return self._refuse(
                raw, source, BAD_SEAT, t("{player} is not at this table.", player=str(player)[:40])
            )
        tokens = dict(record.tokens) | {player: new_token()}
        joins = dict(record.joins) | {player: new_join_code()}
        self._set_seats(tokens, joins)
        self._note(
            {
                "type": "seat_handed_over",
                "player": player,
                "text": t(
                    "{player}'s seat can be joined again, from its code on the table "
                    "display; the old link no longer works.",
                    player=player,
                ),
            }
        )
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
        self._note(
            {
                "type": "led_test",
                "text": t("The LED test pattern ran: every strip red, green, blue, then white."),
            }
        )
        self._show_leds()
        return {"ok": True, "seconds": seconds}

    def led_test_colour(self, at: float) -> tuple[int, int, int] | None:
        """The colour of the LED test pattern at ``at`` (a moment of ``clock``; before the
        table's brightness), or None when no test runs."""
        left = self.led_test_until - at
        if left <= 0:  # (asked 20 times a second: nothing else is done while no test runs)
            return None
        from ..doctor import PATTERN

        step = len(PATTERN) - math.ceil(left / LED_TEST_STEP)
        return PATTERN[min(max(step, 0), len(PATTERN) - 1)]

    def _op_settings(self, source: str, brightness: Any = None) -> dict[str, Any]:
        """The host's settings of the running table (kept across restarts): the LEDs'
        brightness, from 0.05 to 1 (the LED drivers' own ceiling still applies)."""
        if (
            isinstance(brightness, bool)
            or not isinstance(brightness, (int, float))
            or not 0.05 <= brightness <= 1.0
        ):
            return self._refuse(
                {"kind": "request", "settings": True},
                source,
                rules_inputs.BAD_REQUEST,
                t("The brightness must be a number from 0.05 to 1."),
            )
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
            return self._refuse(
                {"kind": "request", "pause": True},
                source,
                rules_inputs.NO_GAME,
                t("No game is being played."),
            )
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
            return self._refuse(
                {"kind": "request", "end_game": True},
                source,
                rules_inputs.NO_GAME,
                t("No game is being played."),
            )
        self.store.end_game(self.record.id)
        self.store.drop_setting("paused")
        title = self.history.game.title if self.history else "the game"
        with self._lock:
            self.record, self.history, self.paused = None, None, False
            self.cues.clear()
            self.events.clear()  # the game's own events are seen only through its view_event
        self._note({"type": "game_ended", "text": t("The host ended {game}.", game=title)})
        self._show_leds()
        self._follow_actuators()
        return {"ok": True}

    def _op_enrol(self, source: str, game: str, component: str) -> dict[str, Any]:
        raw = {"kind": "request", "enrol": {"game": game, "component": component}}
        try:
            self.tags.check("00000000", game, component)
        except TagError as exc:
            if "already enrolled" not in str(exc):
                return self._refuse_host(
                    raw, source, ENROL_FAILED, t("Cannot enrol: {problem}.", problem=reason_of(exc))
                )
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
            return self._refuse_host(
                {"kind": "request", "enrol_guide": str(game)[:40]},
                source,
                ENROL_FAILED,
                t("Cannot enrol: {problem}.", problem=reason_of(exc)),
            )
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
            return self._refuse_host(
                {"kind": "request", "forget_game_tags": str(game)[:40]},
                source,
                ENROL_FAILED,
                t("Cannot forget: {problem}.", problem=reason_of(exc)),
            )
        count = self.tags.forget_game(game)
        with self._lock:
            if self.enrolling and self.enrolling["game"] == game:
                self.enrolling = (
                    self._next_to_enrol(game) if self.enrolling.get("guide") else self.enrolling
                )
        self._note(
            {
                "type": "tags_forgotten",
                "game": game,
                "text": t("{n} stickers of {game} were forgotten.", n=count, game=title),
            }
        )
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
        return {
            **wanted,
            "done": sum(min(counts.get(c, 0), n) for c, n in box.items()),
            "total": sum(box.values()),
            "component_done": counts.get(name, 0),
            "component_total": box.get(name, 0),
        }

    def _op_enrol_cancel(self, source: str) -> dict[str, Any]:
        with self._lock:
            self.enrolling = None
            self._bump()
        return {"ok": True}

    def _refuse_in_game(self, raw: dict[str, Any], source: str) -> dict[str, Any] | None:
        """Sticker files and forgetting stickers wait for the end of a game: their answers tell
        whether a UID is enrolled and as what, and a sticker's UID is readable from its back (a
        phone's NFC reads it), so they would name a player's hidden pieces."""
        if not self.game_in_progress():
            return None
        return self._refuse_host(
            raw,
            source,
            NO_STICKERS_IN_GAME,
            t(
                "Stickers are not imported or forgotten while a game is being played: the answer "
                "would tell what a sticker is. End the game first."
            ),
        )

    def _op_import_tags(self, source: str, data: Any, replace: bool = False) -> dict[str, Any]:
        refused = self._refuse_in_game({"kind": "request", "import_tags": True}, source)
        if refused is not None:
            return refused
        try:
            count = self.tags.import_(data, replace=replace)
        except TagError as exc:
            return self._refuse_host(
                {"kind": "request", "import_tags": True},
                source,
                ENROL_FAILED,
                t("The tag file was not imported: {problem}.", problem=reason_of(exc)),
            )
        self._note({"type": "tags_imported", "text": t("{n} stickers imported.", n=count)})
        return {"ok": True, "count": count}

    def _op_forget_tag(self, source: str, uid: str) -> dict[str, Any]:
        refused = self._refuse_in_game({"kind": "request", "forget_tag": True}, source)
        if refused is not None:
            return refused
        if not self.tags.forget(uid):
            return self._refuse_host(
                {"kind": "request", "forget_tag": uid},
                source,
                rules_inputs.UNKNOWN_TAG,
                t("That sticker is not enrolled."),
            )
        self._note({"type": "tag_forgotten", "text": t("A sticker was forgotten.")})
        return {"ok": True}
