"""Teaching the table its stickers (a part of :class:`~.runtime.Table`): the host asks for one
component (enrol) or for every component of a game's box in turn (the guide), and the next
sticker tapped on any reader becomes it; stickers are forgotten one by one or a whole game's at
once, and imported from a tag file. Every method runs on the table loop.

A refused host-only request is answered to the host and written, never shown on the pages (it may
name a sticker's UID). Tag files and forgetting one sticker wait for the end of a game, since
their answers would tell what a sticker is.
"""

from __future__ import annotations

from typing import Any

from ..devices.events import TagTapped
from ..games import get_game
from ..i18n import reason_of, t
from ..rules import SetupError
from . import inputs as rules_inputs
from .tags import TagError

ENROL_FAILED = "TABLE-TAG-4"
NO_STICKERS_IN_GAME = "TABLE-TAG-6"


class Enrolment:
    """The stickers' enrolment, its guide, forgetting and tag files; mixed into
    :class:`~.runtime.Table`. ``enrolling`` is the open request (the game and the component
    asked for, and whether the guide asks for the next one), or None."""

    def _enrol_tapped(self, tap: TagTapped, raw: dict[str, Any], source: str) -> dict[str, Any]:
        """A sticker tapped while an enrolment is open: it becomes the component asked for."""
        wanted = self.enrolling
        try:  # a refused sticker leaves the request open: the host taps another one
            comp = self.tags.enrol(tap.uid, wanted["game"], wanted["component"])
        except TagError as exc:  # never naming what the sticker is: it may be a hidden one
            problem = t("it is already enrolled") if self.tags.lookup(tap.uid) else reason_of(exc)
            return self._refuse(
                raw,
                source,
                ENROL_FAILED,
                t("The sticker was not enrolled: {problem}.", problem=problem),
            )
        self.reports.tag_read(tap.reader, tap.uid, enrolled=True)  # its UID: named no more
        with self._lock:
            self.enrolling = self._next_to_enrol(wanted["game"]) if wanted.get("guide") else None
        self._note(
            {
                "type": "tag_enrolled",
                "text": t("Sticker enrolled as {component}.", component=comp.name),
                "component": comp.name,
            }
        )
        if wanted.get("guide") and self.enrolling is None:
            title = get_game(wanted["game"]).title
            self._note(
                {
                    "type": "tags_complete",
                    "game": wanted["game"],
                    "text": t("Every sticker of {game} is enrolled.", game=title),
                }
            )
        return {"ok": True, "enrolled": comp.name}

    def _refuse_host(
        self, raw: dict[str, Any], source: str, rule: str, reason: str
    ) -> dict[str, Any]:
        """A host-only request refused (enrolment, a tag file): the host is answered and the
        refusal written, but the pages never show it (it may name a sticker's UID)."""
        return self.refuse_quietly(source, rule, reason, raw)

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
