"""The host's requests about the running table (a part of :class:`~.runtime.Table`): pause,
resume and end the game, the LED test, the table's settings, a note for every page, and the games
the table can set up (the web reaches them through the table). Every method runs on the table
loop.
"""

from __future__ import annotations

import math
from typing import Any

from ..devices.leds import TEST_PATTERN
from ..devices.nfc import reader_seat
from ..games import GamePlugin, plugin, plugins
from ..i18n import t
from . import inputs as rules_inputs

LED_TEST_STEP = 0.5  # seconds each colour of the host's LED test pattern shows


class HostRequests:
    """Pause, resume, end, the LED test, the settings and notes; mixed into
    :class:`~.runtime.Table`."""

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

    def _op_led_test(self, source: str) -> dict[str, Any]:
        """The host's LED test: every strip red, green, blue, then white (the doctor's pattern, at
        the table's brightness), LED_TEST_STEP seconds each, then the normal frames again. It only
        sets the moment the test ends: :meth:`frames` draws the pattern until then, and the
        animator shows it, so the request does not wait and the pattern goes out through the same
        path (and lock) as every other frame."""
        seconds = len(TEST_PATTERN) * LED_TEST_STEP
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
        step = len(TEST_PATTERN) - math.ceil(left / LED_TEST_STEP)
        return TEST_PATTERN[min(max(step, 0), len(TEST_PATTERN) - 1)]

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
        """The host ends the game: no game is at the table, and every seat's link stops
        working. An unfinished game is set aside like one a new game replaces (kept with its
        pause, resumable from the host's list, marked as ended by the host); a finished one
        stays finished."""
        if self.record is None:
            return self._refuse(
                {"kind": "request", "end_game": True},
                source,
                rules_inputs.NO_GAME,
                t("No game is being played."),
            )
        kept = self.running_game() is not None
        self.store.end_game(self.record.id, paused=self.paused)
        self.store.drop_setting("paused")
        title = self.history.game.title if self.history else "the game"
        with self._lock:
            self.record, self.history, self.paused = None, None, False
            self.cues.clear()
            self.events.clear()  # the game's own events are seen only through its view_event
            self.refusal_log.show_game(None)  # the ended game's refusals stay with it
        text = (
            t("The host ended {game}; it is kept and can be resumed.", game=title)
            if kept
            else t("The host ended {game}.", game=title)
        )
        self._note({"type": "game_ended", "text": text})
        self._show_leds()
        self._follow_actuators()
        return {"ok": True}
