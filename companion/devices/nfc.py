"""NFC readers: something that reports tags being tapped.

Only the simulated reader lives here for now; a driver for a real reader
subclasses ``NfcReader`` and emits ``TagTapped`` from its own thread.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from .events import Emit, TagTapped


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
