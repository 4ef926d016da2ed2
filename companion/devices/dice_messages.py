"""What a dice reader's lines mean (a part of :class:`~.dice.SerialDiceReader`).

Each line the reader sends is parsed (a line that does not parse is noise), checked against the
sequence numbers, and becomes an event: ``DieRolled`` for a ``ROLL`` of a declared die with a face
of the profile asked for it (and a roll number the die has not delivered yet, see
:class:`~.dice_guard.RollBook`), ``DieState`` for a die's state, ``DeviceStatus`` for ``HELLO``,
``POWER`` and ``PONG``, the answer to a waiting request for ``OK`` and ``ERR``; anything else it
says wrongly is noise (:class:`~.dice_guard.Rejected`). Every method runs on the reader's thread.
"""

from __future__ import annotations

import dataclasses

from companion_dice import profiles as dice_profiles

from ..i18n import t
from .dice_guard import AskedProfile, Rejected, RollBook
from .dice_protocol import Message, ProtocolError, int_field, parse_line
from .events import DIE_STATES, DeviceStatus, DieRolled, DieState

#: The dice a reader has until its HELLO says (the standard build), and the most it may declare.
DEFAULT_DICE = 2
MAX_DICE = 8

_NOISE_SAMPLE = 40  # bytes of a rejected line quoted in its DeviceNoise
#: the reader verbs that report a die's state (besides ROLL), and the state each one means
_STATE_VERBS = {"MOVING": "moving", "ROLLING": "rolling", "CROOKED": "crooked", "PLACED": "placed"}


class ReaderMessages:
    """The reader's messages, parsed and turned into events or noise; mixed into
    :class:`~.dice.SerialDiceReader`, whose state (the declared dice, the profiles asked, the
    roll numbers, the waiting requests) they read and update."""

    def _handle(self, line: bytes) -> None:
        try:
            message = parse_line(line)
        except ProtocolError as error:
            self._noise(
                "rejected line", f"rejected line: {error}: {line[:_NOISE_SAMPLE]!r}", size=len(line)
            )
            return
        if message.verb == "HELLO":
            self._tracker.reset()
        missed = self._tracker.check(message.seq)
        if missed:
            self._noise(
                "sequence gap",
                f"sequence gap: {missed} message(s) missed before seq {message.seq}",
                lines=0,
                missed=missed,
            )
        try:
            self._dispatch(message)
        except Rejected as rejected:
            self._noise(rejected.kind, rejected.detail, size=len(line))

    def _dispatch(self, message: Message) -> None:
        verb, fields = message.verb, message.fields
        if verb == "ROLL":
            self._roll(message)
        elif verb in _STATE_VERBS:
            self._state(message, _STATE_VERBS[verb])
        elif verb == "DIE":
            state = fields.get("state", "")
            if state in DIE_STATES:
                self._state(message, state)
            elif (die := int_field(message, "die")) is not None:
                self._check_declared(message, die)  # "unknown": nothing to report
        elif verb == "HELLO":
            self._hello(message)
        elif verb == "POWER":
            volts = int_field(message, "mv")
            supply = fields.get("src", "?") + (f" {volts / 1000:.2f} V" if volts else "")
            self._emit(DeviceStatus(self.name, True, f"power: {supply}"))
        elif verb == "PONG":
            self._emit(DeviceStatus(self.name, True, "pong"))
            self._pong.set()
        elif verb in ("OK", "ERR"):
            self._answer(message)
        # Any other verb is from a newer protocol: ignored.

    def _hello(self, message: Message) -> None:
        fields = message.fields
        boot = fields.get("boot", "")
        restarted = self._boot is not None and (boot != self._boot or fields.get("why") == "power")
        if boot != self._boot or fields.get("why") == "power":
            self._rolls.clear()  # roll numbers start again at every boot
        self._boot = boot
        self.info = dict(fields)
        declared = int_field(message, "dice")
        self.dice_count = min(declared, MAX_DICE) if declared else DEFAULT_DICE
        firmware, protocol = fields.get("fw", "?"), fields.get("proto", "?")
        detail = (
            t("reader firmware {fw}, protocol {proto}, restarted", fw=firmware, proto=protocol)
            if restarted
            else t("reader firmware {fw}, protocol {proto}", fw=firmware, proto=protocol)
        )
        self._emit(DeviceStatus(self.name, True, detail))
        with self._lock:
            profiles = dict(self._profiles)
        for die, asked in sorted(profiles.items()):
            if self._declared(die):
                self._send_profile(die, asked)
        self.send("STATUS")
        self._ready.set()

    def _check_declared(self, message: Message, die: int) -> None:
        if not self._declared(die):
            raise Rejected(
                "undeclared die",
                f"{message.verb} {message.seq} ignored: die {die} "
                f"is not one of the {self.dice_count} dice the reader declared",
            )

    @staticmethod
    def _face(message: Message, die: int, label: str, asked: AskedProfile) -> dice_profiles.Face:
        """The face ``label`` of ``asked``, the profile asked for die ``die``; else noise."""
        face = asked.face(label)
        if face is None:
            raise Rejected(
                "wrong face",
                f"{message.verb} {message.seq} ignored: die {die} "
                f"reads profile {asked.name}, which has no face {label!r}",
            )
        return face

    def _roll(self, message: Message) -> None:
        fields, seq = message.fields, message.seq
        die, roll = int_field(message, "die"), int_field(message, "roll")
        label, value = fields.get("face"), fields.get("value")
        try:
            if die is None or roll is None or label is None:
                raise ValueError("without integer die and roll and a face")
            if value is not None and not (
                value.isdigit() or (value[:1] == "-" and value[1:].isdigit())
            ):
                raise ValueError(f"with a value that is not a number: {value!r}")
            DieRolled(die, label, seq, self.name, roll=roll)  # checks the label's form
        except (TypeError, ValueError) as error:
            raise Rejected("malformed", f"ROLL {seq} rejected: {error}: {fields}") from None
        self._check_declared(message, die)
        asked = self._asked(die)
        face = self._face(message, die, label, asked)
        wrong = None
        if fields.get("profile", asked.name) != asked.name:
            wrong = f"it was read with profile {fields['profile']}, not {asked.name}"
        elif value is not None and int(value) != face.value:
            wrong = f"value {value} is not the value of face {label!r} ({face.value})"
        elif "again" in fields and (fields["again"] == "1") != face.again:
            wrong = f"again={fields['again']} does not fit face {label!r}"
        if wrong is not None:
            raise Rejected("wrong face", f"ROLL {seq} ignored: die {die}: {wrong}")
        book = self._rolls.setdefault(die, RollBook())
        refusal = book.refusal(roll)
        if refusal is not None:
            raise Rejected("stale roll", f"ROLL {seq} ignored: die {die} roll {roll} {refusal}")
        book.deliver(roll)
        self._emit(
            DieRolled(
                die,
                label,
                seq,
                self.name,
                value=face.value,
                roll=roll,
                profile=fields.get("profile"),
                again=face.again,
            )
        )

    def _state(self, message: Message, state: str) -> None:
        """A ``DieState`` for a declared die, with a face of its asked profile if any."""
        fields = message.fields
        die = int_field(message, "die")
        detail = f"profile {fields.get('profile', '?')}" if message.verb == "DIE" else ""
        try:
            if die is None:
                raise ValueError("without an integer die")
            event = DieState(
                die,
                state,
                self.name,
                face=fields.get("face"),
                roll=int_field(message, "roll"),
                detail=detail,
            )
        except ValueError as error:
            raise Rejected(
                "malformed", f"{message.verb} {message.seq} rejected: {error}: {fields}"
            ) from None
        self._check_declared(message, die)
        if event.face is not None:
            asked = self._asked(die)
            if message.verb == "DIE" and not asked.named_by(fields):
                event = dataclasses.replace(event, face=None)  # read with another profile
            else:
                self._face(message, die, event.face, asked)
        if message.verb == "ROLLING" and event.roll is not None:
            self._rolls.setdefault(die, RollBook()).announced = event.roll
        self._emit(event)

    def _answer(self, message: Message) -> None:
        fields = message.fields
        ref = int_field(message, "ref")
        with self._lock:
            waiter = self._waiting.pop(ref, None) if ref is not None else None
        if waiter is not None:
            waiter[1] = message
            waiter[0].set()
        if message.verb == "OK":
            return
        code, msg = fields.get("code", "?"), fields.get("msg", "?")
        die = int_field(message, "die")
        if code == "sensor" and die is not None:
            self._check_declared(message, die)
            self._emit(DieState(die, "missing", self.name, detail=f"sensor error: {msg}"))
        elif waiter is None:
            raise Rejected("reader error", f"reader reports error {code}: {msg}")
