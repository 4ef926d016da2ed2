"""Events that devices emit.

Every device is given an ``emit`` callable and calls it, from its own thread,
with one of the small immutable values below.  The table passes
``queue.put`` so that all devices feed one queue, and the table decides what
each event means for the game.  ``DeviceStatus`` and ``DeviceNoise`` are never
game actions: they are shown and logged.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

#: The lengths, in bytes, that an NFC tag uid can have (ISO/IEC 14443-3).
UID_LENGTHS = (4, 7, 10)

_SEPARATORS = re.compile(r"[:\- ]")
_HEX = re.compile(r"[0-9A-Fa-f]*")
_HEX_PAIR = re.compile(r"[0-9A-Fa-f]{2}")


def normalise_uid(text: str) -> str:
    """Return an NFC tag uid as upper-case hex without separators.

    Accepts ``"04a1b2c3"``, ``"04:A1:b2:c3"``, ``"04 a1 b2 c3"`` and
    ``"04-a1-b2-c3"``.  When separators are used, every group must be exactly
    two hex digits.  Raises ``ValueError`` for anything else, and for uids that
    are not 4, 7 or 10 bytes long.
    """
    if not isinstance(text, str):
        raise TypeError(f"tag uid must be a str, not {type(text).__name__}")
    stripped = text.strip()
    if not stripped:
        raise ValueError("tag uid is empty")
    groups = _SEPARATORS.split(stripped)
    digits = "".join(groups)
    if not _HEX.fullmatch(digits):
        bad = next(c for c in digits if c not in "0123456789abcdefABCDEF")
        raise ValueError(f"tag uid {text!r} contains a non-hex character {bad!r}")
    if len(groups) > 1:
        for group in groups:
            if not _HEX_PAIR.fullmatch(group):
                raise ValueError(
                    f"tag uid {text!r}: separated groups must be two hex digits each, got {group!r}"
                )
    if len(digits) % 2:
        raise ValueError(f"tag uid {text!r} has an odd number of hex digits ({len(digits)})")
    size = len(digits) // 2
    if size not in UID_LENGTHS:
        raise ValueError(f"tag uid {text!r} is {size} bytes long; NFC uids are 4, 7 or 10 bytes")
    return digits.upper()


def _check_index(what: str, value: object) -> None:
    """Raise unless ``value`` is a non-negative int (bool is not an int here)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{what} must be >= 0, got {value}")


class _Event:
    """Shared behaviour of all device events: a ``kind`` and ``to_json()``."""

    kind: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-ready dict of the event's fields plus its ``kind``."""
        return {"kind": self.kind, **dataclasses.asdict(self)}  # type: ignore[call-overload]


@dataclass(frozen=True)
class TagTapped(_Event):
    """An NFC tag was presented to ``reader``; ``uid`` is normalised on creation."""

    kind: ClassVar[str] = "tag_tapped"
    reader: str
    uid: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "uid", normalise_uid(self.uid))


@dataclass(frozen=True)
class ButtonPressed(_Event):
    """The button of ``seat`` (0-based) was pressed; ``long`` for a held press."""

    kind: ClassVar[str] = "button_pressed"
    seat: int
    long: bool = False

    def __post_init__(self) -> None:
        _check_index("seat", self.seat)


_FACE_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")


def _check_face(face: str) -> None:
    if not 1 <= len(face) <= 12 or not set(face) <= _FACE_CHARS:
        raise ValueError(f"face must be 1 to 12 letters, digits, '.', '_' or '-', not {face!r}")


@dataclass(frozen=True)
class DieRolled(_Event):
    """Die ``die`` (0-based) was rolled and came to rest showing ``face``.

    Only a genuine roll is a ``DieRolled``: the reader saw the die tumble and settle flat.
    ``face`` is the face's label in the die's profile (``"4"``, ``"CLOAK"``, ``"2P"``,
    ``"forest"``); an int is accepted and becomes its label. ``value`` is the face's number
    (``None`` for a face without one; derived from an all-digit label when not given);
    ``again`` means the face says "roll again and add" (the purple 2 of a battle die).
    ``seq`` is the reader's message sequence number (0..65535) and ``roll`` the reader's own
    number for the roll (counted from its power-on), kept so that the log can be matched with
    the reader's.
    """

    kind: ClassVar[str] = "die_rolled"
    die: int
    face: str
    seq: int
    reader: str = "dice"
    value: int | None = None
    roll: int | None = None
    profile: str | None = None
    again: bool = False

    def __post_init__(self) -> None:
        _check_index("die", self.die)
        if isinstance(self.face, int) and not isinstance(self.face, bool):
            _check_index("face", self.face)
            object.__setattr__(self, "face", str(self.face))
        if not isinstance(self.face, str):
            raise TypeError(f"face must be a str, not {type(self.face).__name__}")
        _check_face(self.face)
        if self.value is None and self.face.isdigit():
            object.__setattr__(self, "value", int(self.face))
        if self.value is not None and (
            not isinstance(self.value, int) or isinstance(self.value, bool)
        ):
            raise TypeError(f"value must be an int or None, not {type(self.value).__name__}")
        _check_index("seq", self.seq)
        if self.seq > 0xFFFF:
            raise ValueError(f"seq must be <= 65535, got {self.seq}")
        if self.roll is not None:
            _check_index("roll", self.roll)


#: What a ``DieState`` can report, besides a roll.
DIE_STATES = ("rest", "moving", "rolling", "crooked", "placed", "missing")


@dataclass(frozen=True)
class DieState(_Event):
    """What die ``die`` is doing, when it is not a roll: never a game action.

    ``state`` is one of ``DIE_STATES``: ``rest`` (lying still, e.g. at power-on), ``moving``
    (picked up or pushed), ``rolling`` (tumbling), ``crooked`` (a roll that came to rest
    unreadable: roll again), ``placed`` (set down by hand, not rolled) or ``missing`` (its
    sensor does not answer). ``face`` is the face up when known; ``detail`` says more.
    """

    kind: ClassVar[str] = "die_state"
    die: int
    state: str
    reader: str = "dice"
    face: str | None = None
    roll: int | None = None
    detail: str = ""

    def __post_init__(self) -> None:
        _check_index("die", self.die)
        if self.state not in DIE_STATES:
            raise ValueError(f"state must be one of {DIE_STATES}, not {self.state!r}")
        if self.face is not None:
            _check_face(self.face)


@dataclass(frozen=True)
class DeviceStatus(_Event):
    """``device`` is (or is no longer) usable; ``detail`` says why or what it is."""

    kind: ClassVar[str] = "device_status"
    device: str
    connected: bool
    detail: str = ""


@dataclass(frozen=True)
class DeviceNoise(_Event):
    """Input that ``device``'s driver discarded; logged, never a game action."""

    kind: ClassVar[str] = "device_noise"
    device: str
    detail: str


DeviceEvent: TypeAlias = (
    TagTapped | ButtonPressed | DieRolled | DieState | DeviceStatus | DeviceNoise
)
"""Any event a device can emit."""

Emit: TypeAlias = Callable[[DeviceEvent], None]
"""What every device is given to report events; the table passes ``queue.put``."""
