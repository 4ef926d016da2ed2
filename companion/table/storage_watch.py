"""The table while its storage cannot record (a part of :class:`~.runtime.Table`).

Nothing can be made durable on a full or failing disk, so nothing is applied: from the first
failure (a write that raised, a refusal or a mark not written) every input is refused, and the
LEDs and every page say so, until a small durable write works again (the loop tries one now and
then). ``_storage`` (set by the table) is the failure, or None while the table can record.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from ..devices.events import ButtonPressed
from ..i18n import t
from ..lights import refusal_cue
from .device_inputs import source_of
from .storage import StorageError
from .store import now

log = logging.getLogger("companion.table")

CANNOT_RECORD = "TABLE-STORE-1"


@dataclass(frozen=True)
class InputSource:
    """Where a refused input came from, when only that is known."""

    source: str
    seat: int | None


class StorageWatch:
    """What the table does while its storage fails; mixed into :class:`~.runtime.Table`."""

    def storage_problem(self) -> str | None:
        """Why the table cannot record now (for the host and ``/healthz``), or None."""
        failure = self._storage
        return failure.problem if failure is not None else None

    def _storage_failed(self, failure: StorageError) -> None:
        """From now on every input is refused (nothing can be made durable, so nothing is
        applied) until the storage works again; the LEDs and every page say so."""
        first = self._storage is None
        self._storage = failure
        if first:
            log.error("the table cannot record: %s", failure)
            self._note(
                {
                    "type": "storage_failed",
                    "text": t(
                        "The table cannot record anything: its storage is full or failing. Nothing is "
                        "applied until the host fixes it (the host's status page says how)."
                    ),
                }
            )
            self._show_leds()

    def _cannot_record(self, failure: StorageError, item: Any) -> dict[str, Any]:
        """An input that could not be recorded: refused, and the table says it cannot record."""
        self._storage_failed(failure)
        seat = item.seat if isinstance(item, (ButtonPressed, InputSource)) else None
        reason = t(
            "The table cannot record this: its storage is full or failing. Nothing was done."
        )
        with self._lock:
            self.refusal_log.shown.append(
                {
                    "rule": CANNOT_RECORD,
                    "reason": reason,
                    "source": getattr(item, "source", None) or source_of(item),
                    "at": now(),
                    "seat": seat,
                    "count": 1,
                }
            )
            self._add_cues([refusal_cue(seat, self.clock())])
            self._bump()
        return {"ok": False, "rule": CANNOT_RECORD, "reason": reason}

    def _check_storage(self) -> None:
        """While the storage fails: try a small durable write; once it works, say so."""
        try:
            self.store.probe()
        except StorageError as exc:
            self._storage = exc
            return
        self._storage = None
        log.warning("the table can record again")
        self._note({"type": "storage_ok", "text": t("The table can record again.")})
        self._show_leds()
