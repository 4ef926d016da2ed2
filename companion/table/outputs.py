"""What the table shows (a part of :class:`~.runtime.Table`): the snapshot each page gets, the
LED frames and the tower motor.

A snapshot is built for one viewer with nothing that viewer may not see: the game's view and
events for that viewer, the refusals, the devices' public summary (connected or not, noise; never
what they sensed), the dice on the tray, and whether the table can record. Snapshots are cached
per version and viewer, so many streams of one viewer cost one.
"""

from __future__ import annotations

import logging
import secrets
import time
from typing import Any

from ..i18n import t
from ..rules import EVERYTHING, HOST, TABLE
from .leds import PALETTE, SEAT_COLOURS, animating, render, storage_failed

log = logging.getLogger("companion.table")

ANIMATION_FPS = 20
SNAPSHOT_EVENTS = 20  #: the most recent events in a snapshot (the pages show 12)
TOWER_MOTOR_STEP = "tower_motor_step"  # setting: the tower step the motor last turned to
TOWER_STEPS = 8  # the tower turns in eighths


class TableOutputs:
    """Snapshots, LEDs and the tower motor; mixed into :class:`~.runtime.Table`."""

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
        given = code.encode("utf-8", "surrogatepass")
        return next((p for p, c in record.joins.items()
                     if secrets.compare_digest(c.encode(), given)), None)

    def viewer_for_token(self, token: Any) -> str | None:
        """The player a seat's token belongs to, in the current game (anything that is not a
        token, non-ASCII text included, belongs to nobody)."""
        if self.record is None or not isinstance(token, str) or not token:
            return None
        given = token.encode("utf-8", "surrogatepass")
        for player, seat_token in self.record.tokens.items():
            if secrets.compare_digest(seat_token.encode(), given):
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
                                    "refusals": [dict(r) for r in self.refusals],
                                    "devices": self.reports.public()}
            if self.history is not None and self.record is not None:
                game, state = self.history.game, self.history.state
                rec = self.record
                snap["game"] = {"id": rec.id, "game": game.id, "title": game.title,
                                "players": rec.players,
                                "colours": dict(zip(rec.players, self.colour_names())),
                                "started_at": rec.started_at, "undoable":
                                    self.history.count > 0, "paused": self.paused}
                if viewer in (TABLE, HOST):  # the seats no phone has claimed: their codes
                    snap["joins"] = [{"player": p, "code": rec.joins[p],
                                      "colour": snap["game"]["colours"][p]}
                                     for p in rec.players if p in rec.joins]
                snap["view"] = game.view(state, viewer)
                snap["events"] = [
                    {"n": e["n"], "at": e["at"], **game.view_event(e["event"], viewer)}
                    for e in self._recent_events()]
                if viewer in state["players"]:
                    everyone = self._cache.get(("legal", self.version))
                    if everyone is None:  # worked out once per version, for every player
                        everyone = self._cache[("legal", self.version)] = \
                            game.legal_actions(state)
                    snap["legal"] = [a for a in everyone if a.get("player") == viewer]
            if self.history is None:  # no game: only the table's own notes are left
                snap["events"] = [{"n": e["n"], "at": e["at"], **e["event"]}
                                  for e in self._recent_events()]
            snap["dice"] = self._dice_snapshot(viewer)
            snap["storage"] = None if self._storage is None else {"ok": False, "text": t(
                "The table cannot record anything now: its storage is full or failing. Nothing "
                "anyone does is applied until the host fixes it.")}
            if viewer == HOST:
                snap["enrolling"] = self.enrolment()
                if self._storage is not None:
                    snap["storage"]["problem"] = self._storage.problem
            self._cache[key] = snap
            return snap

    def _recent_events(self) -> list[dict[str, Any]]:
        """The events a snapshot carries: the most recent ones (the pages list the last 12; a
        snapshot is built for every viewer after every change, so it stays small)."""
        events = self.events
        return list(events)[-SNAPSHOT_EVENTS:] if len(events) > SNAPSHOT_EVENTS else list(events)

    def _dice_snapshot(self, viewer: str) -> dict[str, Any]:
        """The awaited roll (public), what the dice are doing, and whether ``viewer`` may ask
        the server for a virtual roll (only while no dice reader is connected)."""
        chance = self.awaited_roll()
        connected = self.dice_connected()
        return {"awaited": chance.to_json() if chance else None, "reader": connected,
                "dice": self.reports.dice(getattr(self.dice, "name", None)),
                "rolled": self.rolled_so_far(),
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
        if self._storage is not None:
            return storage_failed(t, self.layout, self.brightness)
        with self._lock:
            view, cues = self.public_view(), list(self.cues)
        return render(view, self.colours(), cues, t, self.layout, self.brightness)

    def _show_leds(self, only_changed: bool = False) -> None:
        """Show the current frames; with ``only_changed`` (the animator, 20 times a second), only
        the strips whose pixels differ from what they show (a blink changes a few times a
        second: the strips are not rewritten in between)."""
        if not self.strips:
            return
        with self._led_lock:
            shown = self._shown_pixels
            for name, pixels in self.frames().items():
                strip = self.strips.get(name)
                if strip is None or (only_changed and shown.get(name) == pixels):
                    continue
                strip.show(pixels)
                shown[name] = pixels

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
            was, moving = moving, (animating(view, cues, t) or self._storage is not None
                                   or self.led_test_colour(t) is not None)
            if moving or was:  # and one frame more once it stops: the steady frame
                self._show_leds(only_changed=True)
