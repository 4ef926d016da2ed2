"""What the devices reported, split by who may see it.

* **Diagnostics** (:meth:`DeviceReports.diagnostics`), for the host's status page only: each
  device's connection and what it said of itself (a port, a firmware, its power), what it sensed
  last and when, its errors, the dice on the tray. A tag read is never told by its UID once the
  tag is enrolled: a UID and the tag registry would name a hidden stone, so the status page says
  only that an enrolled sticker was read (an unknown sticker's UID is shown: it names nothing,
  and it helps to enrol it).
* **What the table may see** (:meth:`DeviceReports.public`), in every snapshot: whether each
  device is connected, and how much noise it sent. Nothing a sensor read, no raw line, no UID.

Noise (a corrupt line, a flood) is counted here, straight from the device's thread: it is never
queued for the table loop one report at a time, so a device sending garbage costs a counter.

Everything is bounded: devices are the configured ones (at most ``MAX_DEVICES`` names are kept),
and a dice reader has at most ``MAX_DICE`` dice.
"""

from __future__ import annotations

import copy
import threading
from typing import Any

from ..i18n import t
from .store import now

MAX_DEVICES = 32
MAX_DICE = 8  #: die numbers from 0 to MAX_DICE - 1; a report of another die is noise
NOISE_SAMPLE = 80  #: characters of a noise report kept for the status page
#: a die's states (``companion.devices.events.DIE_STATES``) as the status page says them
DIE_STATES_SAID = {
    "rest": t("at rest"),
    "moving": t("moving"),
    "rolling": t("rolling"),
    "crooked": t("crooked"),
    "placed": t("placed"),
    "missing": t("missing"),
}


class DeviceReports:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: dict[str, dict[str, Any]] = {}
        #: how many die reports (rolls and states) the table has seen
        self.dice_reports = 0

    # -- what devices say ----------------------------------------------------------------------

    def _entry(self, device: str, connected: bool | None = True) -> dict[str, Any] | None:
        """The entry of ``device`` (made on its first report); None past MAX_DEVICES."""
        entry = self._entries.get(device)
        if entry is None:
            if len(self._entries) >= MAX_DEVICES:
                return None
            entry = self._entries[device] = {"errors": 0, "noise": 0}
            if connected is not None:
                entry["connected"] = connected
        return entry

    def status(self, device: str, connected: bool, detail: str) -> bool:
        """A device says whether it is usable; True when that changed what is known."""
        with self._lock:
            entry = self._entry(device, connected=None)
            if entry is None:
                return False
            changed = entry.get("connected") != connected
            if detail == "pong":  # a heartbeat: it says nothing new about the device
                if not changed:
                    return False
            elif detail.startswith("power: "):  # kept beside what the device said last
                entry["power"] = detail.removeprefix("power: ")
            else:
                entry["detail"] = detail
            entry.update(connected=connected, at=now())
            return True

    def sensed(self, device: str, what: str) -> None:
        """What a device sensed last (a press, a sticker read), for the status page."""
        with self._lock:
            entry = self._entry(device)
            if entry is not None:
                entry.update(last=what, last_at=now())

    def tag_read(self, reader: str, uid: str, enrolled: bool) -> None:
        """A reader read a sticker: an enrolled one is never named by its UID."""
        self.sensed(
            f"nfc:{reader}",
            t("an enrolled sticker was read")
            if enrolled
            else t("an unknown sticker was read: {uid}", uid=uid),
        )

    def die(self, reader: str, die: int, state: str, face: str | None) -> bool:
        """A die's state or roll; False (and nothing kept) for a die no reader has."""
        with self._lock:
            entry = self._entry(reader)
            if entry is None or not 0 <= die < MAX_DICE:
                if entry is not None:
                    entry["noise"] += 1
                return False
            dice = entry.setdefault("dice", {})
            self.dice_reports += 1
            dice[str(die)] = {"state": state, "face": face, "at": now(), "n": self.dice_reports}
            said = DIE_STATES_SAID.get(state, state)
            last = (
                t("die {die}: {state}, {face} up", die=die, state=said, face=face)
                if face
                else t("die {die}: {state}", die=die, state=said)
            )
            entry.update(last=last, last_at=now())
            if state == "missing":
                entry["errors"] += 1
            return True

    def noise(self, device: str, detail: str, count: int = 1) -> int:
        """Noise from ``device`` (any thread); the device's noise count after it."""
        with self._lock:
            entry = self._entry(device)
            if entry is None:
                return 0
            entry["noise"] += count
            entry["errors"] += count
            entry["last_noise"] = str(detail)[:NOISE_SAMPLE]
            entry["last_noise_at"] = now()
            return entry["noise"]

    def dropped(self, device: str) -> None:
        """An event of ``device`` was dropped: its queue was full (it floods the table)."""
        self.noise(device, t("the table's queue for this device was full: an event was dropped"))

    # -- what is shown ---------------------------------------------------------------------------

    def unreported_noise(self, device: str) -> int:
        """The noise of ``device`` since the last call (the table reports it as one refusal)."""
        with self._lock:
            entry = self._entries.get(device)
            if entry is None:
                return 0
            fresh = entry["noise"] - entry.get("reported", 0)
            entry["reported"] = entry["noise"]
            return fresh

    def public(self) -> dict[str, dict[str, Any]]:
        """What the table display and every phone may see: connected or not, and the noise."""
        with self._lock:
            return {
                name: {"connected": entry.get("connected"), "noise": entry["noise"]}
                for name, entry in sorted(self._entries.items())
            }

    def dice(self, reader: str | None) -> dict[str, dict[str, Any]]:
        """The dice of ``reader`` as every page shows them: each die's state and face (a die on
        the tray is in plain sight)."""
        with self._lock:
            entry = self._entries.get(reader or "", {})
            return {
                die: {"state": seen["state"], "face": seen["face"]}
                for die, seen in entry.get("dice", {}).items()
            }

    def connected(self, device: str | None) -> bool:
        with self._lock:
            return device is not None and bool(self._entries.get(device, {}).get("connected"))

    def diagnostics(self) -> dict[str, dict[str, Any]]:
        """Everything known of every device: the host's status page only."""
        with self._lock:
            return copy.deepcopy(self._entries)
