"""NFC readers: something that reports tags being tapped.

The simulated reader lives here; the PN532 driver (``nfc_pn532``) subclasses ``NfcReader`` and
emits ``TagTapped`` from its own thread. A table has one reader everyone uses, ``"board"``, and
optionally one at each seat, ``"seat1"`` to ``"seat8"``: a tag there makes only that seat's
player's actions.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from .events import Emit, TagTapped

#: The most seats a table has, and so the most seat readers.
MAX_SEATS = 8


def reader_seat(name: str) -> int | None:
    """The seat (0 for seat 1) of the reader called ``"seat1"`` to ``"seat8"``: a seat's own
    reader; None for any other name (``"board"``, the reader everyone uses)."""
    number = name.removeprefix("seat")
    if name.startswith("seat") and number.isdigit() and number == str(int(number)):
        seat = int(number) - 1
        return seat if 0 <= seat < MAX_SEATS else None
    return None


class NfcReader(ABC):
    """A source of ``TagTapped`` events, identified by ``name``."""

    name: str

    @abstractmethod
    def close(self) -> None:
        """Stop reading and release the reader; calling it again does nothing."""


class SimNfcReader(NfcReader):
    """A reader driven by code: ``tap(uid)`` emits ``TagTapped(name, uid)``."""

    def __init__(self, name: str, emit: Emit) -> None:
        self.name = name
        self._emit = emit
        self._closed = False

    def tap(self, uid: str) -> None:
        """Emit a tap of the tag ``uid``, normalised.

        Raises ``ValueError`` (and emits nothing) if ``uid`` is not a valid
        tag uid, and ``RuntimeError`` if the reader is closed.
        """
        if self._closed:
            raise RuntimeError(f"NFC reader {self.name!r} is closed")
        event = TagTapped(self.name, uid)
        self._emit(event)

    def close(self) -> None:
        """Refuse further taps."""
        self._closed = True
