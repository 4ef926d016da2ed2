"""What to put back after an undo, and the taps that confirm it (a part of
:class:`~.runtime.Table`).

An undo's event carries the game's steps (``Game.put_back_steps``, each ``Step.to_json``): move
this thing from here back to there. The table keeps them as a checklist, alike for every viewer
(public, like the undone event): every snapshot's ``put_back``, the pages' checklist, and the
LEDs, which pulse at the seat (or, for the board, at every seat) that has something to put back.

A step with a ``confirm`` is ticked off by that tap: the component tapped on the board's reader
(``seat`` None) or on that player's own reader. While such a step waits, its tap is a
confirmation, never a game action: it is journaled and told as one, and changes no state. Every
other input goes on as usual. The next accepted action or undo replaces the list (an event
says what was left unconfirmed); the host can dismiss it; a new or resumed game starts without
one. At most ``MAX_STEPS`` steps are kept. The list lives in memory only: after a restart the
undone event (in the log) still says in words what to put back.
"""

from __future__ import annotations

import logging
from typing import Any

from ..i18n import Text, t
from ..rules import Accepted
from ..rules.putting_back import joined
from .store import now

log = logging.getLogger("companion.table")

MAX_STEPS = 24  #: the most steps kept for one undo (the rest are counted, and said in words)


class PutBack:
    """The checklist of an undo's steps and its confirming taps; mixed into
    :class:`~.runtime.Table`. Every method runs on the table loop (under its lock where it
    changes what snapshots show)."""

    #: {"game": record id, "undo": its entry's number, "undone": the undone event's text,
    #: "steps": [step json | {"n", "done"}], "more": steps beyond MAX_STEPS}
    put_back_list: dict[str, Any] | None = None

    def _put_back_after(self, action: dict[str, Any], result: Accepted) -> None:
        """After an accepted entry: an undo's steps become the list; any entry replaces the
        one before, saying what of it was left unconfirmed."""
        left = self._put_back_left()
        new = None
        if action.get("type") == "undo" and result.events:
            undone = result.events[0]
            steps = list(undone.get("steps") or [])
            if steps:
                new = {
                    "game": self.record.id,
                    "undo": self._seq,  # the undo's entry: a new undo, a new list
                    "undone": undone.get("text"),
                    "steps": [
                        step | {"n": n, "done": False}
                        for n, step in enumerate(steps[:MAX_STEPS], start=1)
                    ],
                    "more": max(0, len(steps) - MAX_STEPS),
                }
        if left:
            self._keep_events(
                [
                    {
                        "type": "put_back_left",
                        "text": t("Left unconfirmed: {steps}", steps=joined(left)),
                        "steps": len(left),
                    }
                ],
                now(),
            )
        self.put_back_list = new

    def _put_back_left(self) -> list[Text]:
        """The texts of the current game's steps that a tap could confirm and none did yet."""
        shown = self.put_back_shown()
        if shown is None:
            return []
        return [s["text"] for s in shown["steps"] if s["confirm"] is not None and not s["done"]]

    def put_back_shown(self) -> dict[str, Any] | None:
        """The current game's checklist, as every snapshot carries it (None: nothing to put
        back)."""
        found = self.put_back_list
        if found is None or self.record is None or found["game"] != self.record.id:
            return None
        return found

    def _confirm_put_back(
        self, component: str, seat: int | None, raw: dict[str, Any], source: str
    ) -> dict[str, Any] | None:
        """A tap of ``component`` on ``seat``'s reader (None: the board's): the first waiting
        step it confirms is ticked off and the answer says so; None when it confirms none (the
        tap is then an ordinary input)."""
        shown = self.put_back_shown()
        if shown is None:
            return None
        players = self.history.state["players"]
        at = players[seat] if seat is not None and seat < len(players) else None
        for index, step in enumerate(shown["steps"]):
            confirm = step["confirm"]
            if step["done"] or confirm is None:
                continue
            if confirm["component"] == component and confirm["seat"] == at:
                with self._lock:
                    steps = list(shown["steps"])  # snapshots share the old list: never changed
                    steps[index] = step | {"done": True}
                    self.put_back_list = shown | {"steps": steps}
                    self._keep_events(
                        [
                            {
                                "type": "put_back_confirmed",
                                "text": t("Put back: {step}", step=step["text"]),
                                "step": step["n"],
                            }
                        ],
                        now(),
                    )
                    self._bump()
                self._show_leds()
                log.info("put back, confirmed by a tap on %s: step %s", source, step["n"])
                return {"ok": True, "confirmed": step["n"], "kind": raw["kind"]}
        return None

    def _op_dismiss_put_back(self, source: str) -> dict[str, Any]:
        """The host sets the checklist aside (the players put things right their own way)."""
        left = self._put_back_left()
        if self.put_back_shown() is None:
            return {"ok": True, "dismissed": 0}
        with self._lock:
            count = len(self.put_back_list["steps"])
            self.put_back_list = None
            text = (
                t("The host set aside what was left to put back: {steps}", steps=joined(left))
                if left
                else t("The host set aside the list of what to put back.")
            )
            self._keep_events([{"type": "put_back_dismissed", "text": text}], now())
            self._bump()
        self._show_leds()
        return {"ok": True, "dismissed": count}

    def put_back_seats(self) -> frozenset[int | None]:
        """The seats with a step still to do (None: the board's), for the LEDs: the seat whose
        reader confirms it, else the player whose place it moves from or to, else the board."""
        shown = self.put_back_shown()
        if shown is None or self.history is None:
            return frozenset()
        players = self.history.state["players"]
        seats: set[int | None] = set()
        for step in shown["steps"]:
            if step["done"]:
                continue
            confirm = step["confirm"] or {}
            who = confirm.get("seat") or step["from"]["owner"] or step["to"]["owner"]
            seats.add(players.index(who) if who in players else None)
        return frozenset(seats)
