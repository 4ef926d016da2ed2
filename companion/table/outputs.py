"""What the table shows (a part of :class:`~.runtime.Table`): the snapshot each page gets, the
LED frames and the actuators (a tower motor).

A snapshot is built for one viewer with nothing that viewer may not see: the game's view and
events for that viewer, the refusals, the devices' public summary (connected or not, noise; never
what they sensed), the dice on the tray, and whether the table can record. Snapshots are cached
per version and viewer, so many streams of one viewer cost one.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from ..games import plugin
from ..i18n import t
from ..lights import PALETTE, SEAT_COLOURS, StatusLights, animating, render, storage_failed
from ..rules import EVERYTHING, HOST, TABLE

log = logging.getLogger("companion.table")

ANIMATION_FPS = 20
_NO_GAME = StatusLights()  # no game: nothing is drawn (the view is None)
_STATUS_LIGHTS = StatusLights()  # a game that draws nothing of its own: the status lights
SNAPSHOT_EVENTS = 20  #: the most recent events in a snapshot (the pages show 12)
EVENT_VIEWS_KEPT = 512  #: event views kept (SNAPSHOT_EVENTS for each of a table's viewers)


class TableOutputs:
    """Snapshots, LEDs and the tower motor; mixed into :class:`~.runtime.Table`."""

    # ------------------------------------------------------------------------------------------
    # Outputs

    def colour_names(self) -> list[str]:
        """Each seat's colour: the game's players' chosen colours, the palette's order after."""
        chosen = list(self.record.colours) if self.record is not None else []
        rest = [c for c in SEAT_COLOURS if c not in chosen]
        return (chosen + rest + list(SEAT_COLOURS) * 2)[: max(self.layout.seats, len(chosen))]

    def colours(self) -> list[tuple[int, int, int]]:
        return [PALETTE[name] for name in self.colour_names()[: self.layout.seats]]

    def snapshot(self, viewer: str) -> dict[str, Any]:
        """Everything a page shows, for one viewer, with nothing that viewer may not see.

        A snapshot is built for every viewer after every change, so what every viewer sees alike
        is built once per version (:meth:`_shared`) and each logged event's view once per viewer
        (:meth:`_viewed_events`). Snapshots and their parts are shared: never change one."""
        with self._lock:
            key = (self.version, viewer)
            cached = self._cache.get(key)
            if cached is not None:
                return cached
            shared = self._shared()
            snap: dict[str, Any] = {
                "version": self.version,
                "viewer": viewer,
                "game": shared["game"],
                "view": None,
                "legal": [],
                "events": shared["events"],
                "refusals": shared["refusals"],
                "devices": shared["devices"],
                "countdown": shared["countdown"],
                "put_back": shared["put_back"],
            }
            if self.history is not None and self.record is not None:
                game, state = self.history.game, self.history.state
                if viewer in (TABLE, HOST):  # the seats no phone has claimed: their codes
                    snap["joins"] = shared["joins"]
                snap["view"] = game.view(state, viewer)
                snap["events"] = self._viewed_events(viewer)
                if viewer in state["players"]:
                    everyone = shared.get("legal")
                    if everyone is None:  # worked out once per version, for every player
                        everyone = shared["legal"] = game.legal_actions(state)
                    snap["legal"] = [a for a in everyone if a.get("player") == viewer]
            chance = shared["awaited"]
            snap["dice"] = shared["dice"] | {
                "virtual": chance is not None
                and not (shared["dice"]["reader"] and self.readable(chance))
                and (chance.player is None or viewer == chance.player)
            }
            snap["storage"] = (
                None
                if self._storage is None
                else {
                    "ok": False,
                    "text": t(
                        "The table cannot record anything now: its storage is full or failing. Nothing "
                        "anyone does is applied until the host fixes it."
                    ),
                }
            )
            if viewer == HOST:
                snap["enrolling"] = self.enrolment()
                if self._storage is not None:
                    snap["storage"]["problem"] = self._storage.problem
            self._cache[key] = snap
            return snap

    def _shared(self) -> dict[str, Any]:
        """What every viewer's snapshot of this version holds alike (built once per version):
        the game's record, the unclaimed seats' codes, the table's own events, the refusals, the
        devices' public summary and the dice (the awaited roll, which is public, and the tray)."""
        shared = self._cache.get(("shared", self.version))
        if shared is not None:
            return shared
        shared = {
            "game": None,
            "joins": [],
            "legal": None,
            "events": [{"n": e["n"], "at": e["at"], **e["event"]} for e in self._recent_events()]
            if self.history is None
            else [],
            "refusals": [dict(r) for r in self.refusals],
            "devices": self.reports.public(),
            #: the game's countdown, alike for every viewer (``countdown``)
            "countdown": self.countdown_shown(),
            #: what an undo asks to put back, alike for every viewer (``put_back``)
            "put_back": self.put_back_shown(),
        }
        record = self.record
        if self.history is not None and record is not None:
            colours = dict(zip(record.players, self.colour_names()))
            shared["game"] = {
                "id": record.id,
                "game": self.history.game.id,
                "title": self.history.game.title,
                "players": record.players,
                "colours": colours,
                "started_at": record.started_at,
                "undoable": self.history.count > 0,
                "paused": self.paused,
                #: where it stands, in the rules' words ("turn 15"); public
                "progress": self.history.game.progress(self.history.state),
                "finished": self.history.game.outcome(self.history.state).finished,
            }
            shared["joins"] = [
                {"player": p, "code": record.joins[p], "colour": colours[p]}
                for p in record.players
                if p in record.joins
            ]
        chance = shared["awaited"] = self.awaited_roll()
        shared["dice"] = {
            "awaited": chance.to_json() if chance else None,
            "reader": self.dice_connected(),
            "dice": self.reports.dice(getattr(self.dice, "name", None)),
            "rolled": self.rolled_so_far(),
        }
        self._cache[("shared", self.version)] = shared
        return shared

    def _recent_events(self) -> list[dict[str, Any]]:
        """The events a snapshot carries: the most recent ones (the pages list the last 12; a
        snapshot is built for every viewer after every change, so it stays small)."""
        events = self.events
        return list(events)[-SNAPSHOT_EVENTS:] if len(events) > SNAPSHOT_EVENTS else list(events)

    def _viewed_events(self, viewer: str) -> list[dict[str, Any]]:
        """The recent events of the game as ``viewer`` sees them. An event never changes once it
        is logged, so its view is kept per viewer (a new version views only its new events);
        views of events that are no longer recent are dropped."""
        game, kept = self.history.game, self._event_views
        recent = self._recent_events()
        viewed = []
        for entry in recent:
            key = (entry["n"], viewer)
            seen = kept.get(key)
            if seen is None:
                seen = kept[key] = {
                    "n": entry["n"],
                    "at": entry["at"],
                    **game.view_event(entry["event"], viewer),
                }
            viewed.append(seen)
        if len(kept) > EVENT_VIEWS_KEPT:
            oldest = recent[0]["n"] if recent else 0
            for key in [key for key in kept if key[0] < oldest]:
                del kept[key]
            if len(kept) > EVENT_VIEWS_KEPT:  # many viewers at once: start again
                kept.clear()
        return viewed

    def forget_cached(self) -> None:
        """Forget every snapshot, part and view made so far (a test that changes what the table
        holds without a new version calls it, under the table's lock)."""
        with self._lock:
            self._cache.clear()
            self._event_views.clear()
            self._public = (-1, None)

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
            view, cues, drawer = self.public_view(), list(self.cues), self.drawer()
            seats = self.put_back_seats()
        return render(
            drawer, view, self.colours(), cues, t, self.layout, self.brightness, put_back=seats
        )

    def drawer(self) -> Any:
        """How the game being played draws on the LEDs (its plug-in's ``lights``)."""
        history = self.history
        if history is None:
            return _NO_GAME
        return plugin(history.game.id).drawer or _STATUS_LIGHTS

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

    def _follow_actuators(self) -> None:
        """Move every actuator device the table has (``actuators``, e.g. a tower motor) that the
        game drives to where its public view says (the game's plug-in says how), and remember
        where each stands (the setting ``<name>_step``), so a restart catches up."""
        if not self.actuators or self.history is None:
            return
        game = plugin(self.history.game.id)
        with self._actuator_lock:
            view = self.public_view()  # the game's view for TABLE, computed once per change
            for name, device in self.actuators.items():
                follower = game.actuator(name) if device is not None else None
                if follower is None:
                    continue
                key = f"{name}_step"
                remembered = self.store.setting(key)
                try:
                    now = follower.follow(view, device, remembered)
                except Exception:  # a fault must not stop the table; the next change retries
                    log.exception("the %s could not follow the game", name.replace("_", " "))
                    continue
                if now is not None and now != remembered:
                    self.store.set_setting(key, now)

    def _animate(self) -> None:
        period = 1.0 / ANIMATION_FPS
        moving = False
        while not self._closing:
            time.sleep(period)
            with self._lock:
                view, cues, drawer = self.public_view(), list(self.cues), self.drawer()
                seats = self.put_back_seats()
            t = self.clock()
            was, moving = (
                moving,
                (
                    animating(drawer, view, cues, t, put_back=seats)
                    or self._storage is not None
                    or self.led_test_colour(t) is not None
                ),
            )
            if moving or was:  # and one frame more once it stops: the steady frame
                self._show_leds(only_changed=True)
