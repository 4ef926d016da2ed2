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


@dataclass(frozen=True)
class DieRolled(_Event):
    """Die ``die`` (0-based) came to rest showing ``value``.

    ``seq`` is the reader's message sequence number (0..65535), kept so that
    the log can be matched with the reader's own.
    """

    kind: ClassVar[str] = "die_rolled"
    die: int
    value: int
    seq: int
    reader: str = "dice"

    def __post_init__(self) -> None:
        _check_index("die", self.die)
        if not isinstance(self.value, int) or isinstance(self.value, bool):
            raise TypeError(f"value must be an int, not {type(self.value).__name__}")
        _check_index("seq", self.seq)
        if self.seq > 0xFFFF:
            raise ValueError(f"seq must be <= 65535, got {self.seq}")


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


DeviceEvent: TypeAlias = TagTapped | ButtonPressed | DieRolled | DeviceStatus | DeviceNoise
"""Any event a device can emit."""

Emit: TypeAlias = Callable[[DeviceEvent], None]
"""What every device is given to report events; the table passes ``queue.put``."""
