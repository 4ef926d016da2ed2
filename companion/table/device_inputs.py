"""What the devices' events mean at the table (a part of :class:`~.runtime.Table`).

A sticker tapped on a reader, a seat button pressed, a die rolled, moving, landing crooked or set
down by hand, a device saying it is (not) connected, and the noise a device sent: each becomes a
game action through the game's input mapping (:mod:`.inputs`), or a refusal, or only a report
(:mod:`.device_reports`). A sticker tapped while the host enrols stickers is enrolled
(:mod:`.enrolment`).

Devices call :meth:`DeviceInputs.emit` from their own threads: noise is counted there and the
loop hears of it once; every other event joins its device's queue in the inbox. Every other
method runs on the table loop.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from ..devices.events import (
    ButtonPressed,
    DeviceNoise,
    DeviceStatus,
    DieRolled,
    DieState,
    TagTapped,
)
from ..devices.nfc import reader_seat
from ..i18n import t
from ..rules import Chance, Refusal
from . import inputs as rules_inputs
from .inbox import DEVICE_BACKLOG
from .inputs import inputs_for

log = logging.getLogger("companion.table")

FLOODED = "TABLE-DEVICE-1"


@dataclass(frozen=True)
class NoiseReport:
    """A device sent noise since the loop last looked (the noise itself is counted already)."""

    device: str
    detail: str
    flood: bool = False  #: its events came faster than the table takes them: some were dropped


def source_of(event: Any) -> str:
    """The inbox source of a device event: the device that sent it."""
    if isinstance(event, TagTapped):
        return f"nfc:{event.reader}"
    if isinstance(event, ButtonPressed):
        return "buttons"
    if isinstance(event, (DieRolled, DieState)):
        return event.reader
    if isinstance(event, DeviceStatus):
        return event.device
    return "device"


class DeviceInputs:
    """Device events: their arrival (:meth:`emit`, from the devices' threads) and what each
    means on the table loop; mixed into :class:`~.runtime.Table`."""

    # -- from the devices' threads -----------------------------------------------------------

    def emit(self, event: Any) -> None:
        """Devices call this from their own threads. Noise is counted here and the loop hears of
        it once (not once per line); a newer status replaces one still waiting; any other event
        joins its device's queue, and is dropped and counted as noise when that queue is full."""
        if isinstance(event, DeviceNoise):
            self.reports.noise(event.device, event.detail)
            self._noise_seen(NoiseReport(event.device, event.detail))
            return
        source = source_of(event)
        if isinstance(event, DeviceStatus):
            queued = self.inbox.replace_last(
                source,
                event,
                lambda waiting: (
                    isinstance(waiting, DeviceStatus) and waiting.device == event.device
                ),
            )
        else:
            queued = self.inbox.put(source, event, DEVICE_BACKLOG)
        if not queued:
            self.reports.dropped(source)
            self._noise_seen(NoiseReport(source, "flood", flood=True))

    def _noise_seen(self, report: NoiseReport) -> None:
        """Tell the loop a device sent noise, once until it has looked (a queue of its own, so a
        device whose queue is full is still told about)."""
        with self._noise_lock:
            if report.device in self._noisy:
                return
            self._noisy.add(report.device)
        if not self.inbox.put(f"noise:{report.device}", report, 1):
            with self._noise_lock:
                self._noisy.discard(report.device)

    # -- device events ---------------------------------------------------------------------

    def _tag(self, tap: TagTapped) -> dict[str, Any]:
        source = f"nfc:{tap.reader}"
        self.reports.tag_read(tap.reader, tap.uid, enrolled=self.tags.lookup(tap.uid) is not None)
        raw = {"kind": "tag", "reader": tap.reader, "uid": tap.uid}
        if self.enrolling is not None:  # the host is teaching the table this sticker
            return self._enrol_tapped(tap, raw, source)
        component = self.tags.lookup(tap.uid)
        if component is None:
            return self._refuse(
                raw,
                source,
                rules_inputs.UNKNOWN_TAG,
                t("That sticker is not enrolled; the host can enrol it on the host page."),
            )
        if self.history is None:
            return self._refuse(raw, source, rules_inputs.NO_GAME, t("No game is being played."))
        players = self.history.state["players"]
        seat = reader_seat(tap.reader)  # a seat's own reader, or None for the board's
        if seat is not None and seat >= len(players):
            return self._refuse(
                raw,
                source,
                rules_inputs.EMPTY_SEAT,
                t("Nobody sits at seat {seat}; its reader is not in use.", seat=seat + 1),
            )
        if component.game == self.history.game.id:  # a step of an undo it confirms, if any
            confirmed = self._confirm_put_back(component.name, seat, raw, source)
            if confirmed is not None:
                return confirmed
        mapper = inputs_for(self.history.game)
        mapped = mapper.tag(self.history.state, component, tap.uid, tap.reader)
        if seat is not None and not isinstance(mapped, Refusal):
            owner = mapper.tag_owner(self.history.state, mapped)
            if owner is not None and owner != players[seat]:
                return self._refuse(
                    raw | {"action": mapped},
                    source,
                    rules_inputs.WRONG_READER,
                    t(
                        "That is {player}'s reader, at seat {seat}; {owner} taps "
                        "this one (at their seat or the board).",
                        player=players[seat],
                        seat=seat + 1,
                        owner=owner,
                    ),
                    seat,
                )
        return self._act(mapped, source, raw, seat=seat)

    def _button(self, press: ButtonPressed) -> dict[str, Any]:
        source = f"button:{press.seat}"
        self.reports.sensed(
            "buttons",
            t("seat {seat}: a long press", seat=press.seat)
            if press.long
            else t("seat {seat}: a press", seat=press.seat),
        )
        raw = {"kind": "button", "seat": press.seat, "long": press.long}
        if self.history is None:
            return self._refuse(raw, source, rules_inputs.NO_GAME, t("No game is being played."))
        players = self.history.state["players"]
        if not 0 <= press.seat < len(players):
            return self._refuse(
                raw,
                source,
                rules_inputs.EMPTY_SEAT,
                t("Nobody sits at seat {seat}.", seat=press.seat + 1),
            )
        mapped = inputs_for(self.history.game).button(
            self.history.state, players[press.seat], press.long
        )
        return self._act(mapped, source, raw, seat=press.seat)

    def awaited_roll(self) -> Chance | None:
        """The die roll the game waits for, if it waits for one (worked out once per version:
        every snapshot asks)."""
        with self._lock:
            key = ("awaited roll", self.version)
            if key in self._cache:
                return self._cache[key]
            history = self.history
            chance = history.game.chance(history.state) if history is not None else None
            awaited = chance if chance is not None and chance.kind == "die" else None
            self._cache[key] = awaited
            return awaited

    def _roller_seat(self, chance: Chance) -> int | None:
        players = self.history.state["players"] if self.history else []
        return players.index(chance.player) if chance.player in players else None

    def _die(self, roll: DieRolled) -> dict[str, Any]:
        """A genuine roll: what it means at the table, then kept for its die's fairness
        (after, so keeping it never delays the roll's effect)."""
        result = self._die_roll(roll)
        self._tally_read(roll)
        return result

    def _die_roll(self, roll: DieRolled) -> dict[str, Any]:
        source = f"dice:{roll.reader}"
        self.reports.die(roll.reader, roll.die, "rolled", roll.face)  # _act/_refuse bump
        raw = {
            "kind": "die",
            "die": roll.die,
            "face": roll.face,
            "value": roll.value,
            "roll": roll.roll,
        }
        if self.history is None:
            return self._refuse(raw, source, rules_inputs.NO_GAME, t("No game is being played."))
        chance = self.awaited_roll()
        if chance is None:
            return self._refuse(
                raw,
                source,
                rules_inputs.UNASKED_ROLL,
                t("Nobody was asked to roll; the {face} rolled was ignored.", face=roll.face),
            )
        seat = self._roller_seat(chance)
        if roll.die >= chance.dice:
            return self._refuse(
                raw,
                source,
                rules_inputs.UNASKED_ROLL,
                t(
                    "This roll takes {n} dice (numbered from 0); die {die} was ignored.",
                    n=chance.dice,
                    die=roll.die,
                )
                if chance.dice != 1
                else t(
                    "This roll takes 1 die (numbered from 0); die {die} was ignored.", die=roll.die
                ),
                seat,
            )
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
        return self._act(
            mapper.dice(self.history.state, rolls),
            source,
            raw | {"dice": [r.face for r in rolls]},
            seat=seat,
        )

    def _roll_key(self) -> tuple[Any, int]:
        """Which awaited roll dice belong to: the game and its last log entry."""
        return (self.record.id if self.record else None, self._seq)

    def rolled_so_far(self) -> dict[str, str]:
        """Of several dice rolled together, the faces of those already rolled (die -> face)."""
        rolled = self._rolled[1] if self._rolled[0] == self._roll_key() else {}
        return {str(d): r.face for d, r in sorted(rolled.items())}

    def _die_state(self, state: DieState) -> dict[str, Any] | None:
        """A die moving, rolling, crooked, set down by hand or gone: shown; refused if it
        spoils an awaited roll. A die set down by hand is kept for its die, apart from rolls."""
        result = self._die_moved(state)
        self._tally_placed(state)
        return result

    def _die_moved(self, state: DieState) -> dict[str, Any] | None:
        if self.reports.die(state.reader, state.die, state.state, state.face):
            self._bump()
        chance = self.awaited_roll()
        if chance is None or state.state not in ("crooked", "placed"):
            return None
        raw = {"kind": "die_state", "die": state.die, "state": state.state, "face": state.face}
        if state.state == "crooked":
            return self._refuse(
                raw,
                f"dice:{state.reader}",
                rules_inputs.CROOKED_DIE,
                t("The die landed crooked and cannot be read: roll it again."),
                self._roller_seat(chance),
            )
        return self._refuse(
            raw,
            f"dice:{state.reader}",
            rules_inputs.PLACED_DIE,
            t("The die was set down by hand, not rolled: roll it to count."),
            self._roller_seat(chance),
        )

    def dice_connected(self) -> bool:
        """Whether a dice reader is connected (and so rolls come from real dice)."""
        return self.reports.connected(getattr(self.dice, "name", None))

    @staticmethod
    def readable(chance: Chance) -> bool:
        """Whether a reader's die profiles can describe the awaited dice (a custom die has six
        faces)."""
        return chance.profile is not None and (chance.profile != "custom" or len(chance.faces) == 6)

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
        if self.reports.status(status.device, status.connected, status.detail):
            self._bump()
            log.info(
                "device %s %s: %s",
                status.device,
                "connected" if status.connected else "disconnected",
                status.detail,
            )

    def _noise(self, report: NoiseReport) -> dict[str, Any]:
        """A device sent noise (counted already, where it came in): one refusal a second per
        device on the pages, with how many lines it stands for."""
        with self._noise_lock:
            self._noisy.discard(report.device)
        log.warning("noise from %s: %s", report.device, report.detail)
        raw = {"kind": "noise", "device": report.device, "detail": report.detail[:200]}
        count = max(1, self.reports.unreported_noise(report.device))
        if report.flood:
            return self._refuse(
                raw,
                f"device:{report.device}",
                FLOODED,
                t(
                    "The {device} sent more than the table can take; what came too fast was "
                    "dropped. Check its wiring, or repeat what was not seen.",
                    device=report.device,
                ),
                count=count,
            )
        reason = t(
            "The {device} reader sent a corrupt line; it was ignored. Roll again if a "
            "roll was expected.",
            device=report.device,
        )
        return self._refuse(
            raw, f"device:{report.device}", rules_inputs.CORRUPT_DICE, reason, count=count
        )
