"""The dice reader's line protocol, version 1 (first cut); pure, no I/O.

A line is ASCII, ends in ``\\n`` (``\\r\\n`` is tolerated) and reads::

    VERB SEQ key=value key=value*HH

``SEQ`` is a decimal sequence number 0..65535 that wraps; ``HH`` is the XOR of
every byte before the ``*``, as two upper-case hex digits.  Parsers accept any
well-formed verb and any well-formed field, so that the protocol can grow:
whoever acts on a message ignores verbs and fields it does not know.
``docs/dice-protocol.md`` is the reference.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

#: The longest line, in bytes, not counting its ``\\n`` or ``\\r\\n``.
MAX_LINE_LENGTH = 200
#: Sequence numbers run 0..SEQ_MODULUS - 1 and then wrap to 0.
SEQ_MODULUS = 65536
#: A receiver discards an incomplete line when no byte arrived for this long (s).
LINE_IDLE_TIMEOUT = 0.2
#: The protocol version that HELLO announces as ``proto=``.
PROTOCOL_VERSION = 1

_VERB = re.compile(r"[A-Z][A-Z0-9_]*")
_SEQ = re.compile(r"0|[1-9][0-9]{0,4}")
_KEY = re.compile(r"[a-z][a-z0-9_]*")
_VALUE = re.compile(r"[!-)+-~]+")  # printable ASCII except space and '*'
_CHECKSUM = re.compile(r"[0-9A-F]{2}")


class ProtocolError(ValueError):
    """A line that does not follow the protocol; the message says why."""


@dataclass(frozen=True)
class Message:
    """One parsed line: its verb, sequence number and fields (in line order)."""

    verb: str
    seq: int
    fields: dict[str, str] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "fields", dict(self.fields))


def checksum(data: bytes) -> str:
    """The XOR of all bytes of ``data`` as two upper-case hex digits."""
    value = 0
    for byte in data:
        value ^= byte
    return f"{value:02X}"


def encode(verb: str, seq: int, **fields: object) -> bytes:
    """Return the complete line, checksum and ``\\n`` included.

    Field values are converted with ``str()``.  Raises ``ValueError`` if the
    verb, the sequence number, a key or a value is not allowed by the grammar,
    or if the line would be longer than ``MAX_LINE_LENGTH``.
    """
    if not _VERB.fullmatch(verb):
        raise ValueError(f"bad verb {verb!r}: want upper-case letters, digits or '_'")
    if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq < SEQ_MODULUS:
        raise ValueError(f"bad seq {seq!r}: want an int 0..{SEQ_MODULUS - 1}")
    parts = [verb, str(seq)]
    for key, raw in fields.items():
        value = str(raw)
        if not _KEY.fullmatch(key):
            raise ValueError(f"bad field key {key!r}: want lower-case letters, digits or '_'")
        if not _VALUE.fullmatch(value):
            raise ValueError(
                f"bad value {value!r} for {key}: want printable ASCII without spaces or '*'"
            )
        parts.append(f"{key}={value}")
    body = " ".join(parts).encode("ascii")
    line = body + b"*" + checksum(body).encode("ascii")
    if len(line) > MAX_LINE_LENGTH:
        raise ValueError(f"line too long: {len(line)} bytes (max {MAX_LINE_LENGTH})")
    return line + b"\n"


def parse_line(line: bytes) -> Message:
    """Parse one line, with or without its ``\\n`` or ``\\r\\n``.

    Raises ``ProtocolError`` whose message starts with the reason: ``too
    long``, ``empty line``, ``non-ASCII``, ``control byte``, ``no checksum``,
    ``bad checksum``, ``bad verb``, ``bad seq`` or ``bad field``.
    """
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) > MAX_LINE_LENGTH:
        raise ProtocolError(f"too long: {len(line)} bytes (max {MAX_LINE_LENGTH})")
    if not line:
        raise ProtocolError("empty line")
    for offset, byte in enumerate(line):
        if byte > 0x7E:
            what = "non-ASCII" if byte > 0x7F else "control"
            raise ProtocolError(f"{what} byte 0x{byte:02X} at offset {offset}")
        if byte < 0x20:
            raise ProtocolError(f"control byte 0x{byte:02X} at offset {offset}")
    text = line.decode("ascii")
    body, star, given = text.rpartition("*")
    if not star:
        raise ProtocolError("no checksum: the line does not end in '*HH'")
    if not _CHECKSUM.fullmatch(given):
        raise ProtocolError(f"no checksum: {given!r} after '*' is not two upper-case hex digits")
    computed = checksum(body.encode("ascii"))
    if given != computed:
        raise ProtocolError(f"bad checksum: line says {given}, bytes give {computed}")
    verb, *rest = body.split(" ")
    if not _VERB.fullmatch(verb):
        raise ProtocolError(f"bad verb {verb!r}")
    if not rest:
        raise ProtocolError("bad seq: missing")
    if not _SEQ.fullmatch(rest[0]) or int(rest[0]) >= SEQ_MODULUS:
        raise ProtocolError(f"bad seq {rest[0]!r}: want a decimal 0..{SEQ_MODULUS - 1}")
    fields: dict[str, str] = {}
    for token in rest[1:]:
        key, equals, value = token.partition("=")
        if not equals or not _KEY.fullmatch(key) or not _VALUE.fullmatch(value):
            raise ProtocolError(f"bad field {token!r}: want key=value")
        if key in fields:
            raise ProtocolError(f"bad field {token!r}: {key} given twice")
        fields[key] = value
    return Message(verb, int(rest[0]), fields)


class LineSplitter:
    """Cuts a byte stream into lines, however the bytes are chunked.

    ``feed()`` returns the complete lines so far, without ``\\n`` or
    ``\\r\\n``.  A line longer than ``max_length`` is dropped: its bytes are
    discarded up to the next ``\\n``, and when that comes
    ``on_overlong(length)`` is called with the number of bytes dropped (all
    but the ``\\n``).  ``discard_pending()`` drops an incomplete line (a
    receiver does this after ``LINE_IDLE_TIMEOUT``).
    """

    def __init__(
        self,
        max_length: int = MAX_LINE_LENGTH,
        on_overlong: Callable[[int], None] | None = None,
    ) -> None:
        self.max_length = max_length
        self._on_overlong = on_overlong
        self._buffer = bytearray()
        self._overlong = 0  # bytes of an over-long line discarded so far, else 0

    @property
    def pending(self) -> int:
        """How many bytes of an incomplete line are held (or being discarded)."""
        return self._overlong or len(self._buffer)

    def feed(self, data: bytes) -> list[bytes]:
        """Add ``data`` to the stream and return the lines it completed."""
        lines: list[bytes] = []
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            chunk = data[start:] if end < 0 else data[start:end]
            start = len(data) if end < 0 else end + 1
            if self._overlong:
                self._overlong += len(chunk)
            else:
                self._buffer += chunk
                # One byte of slack: it may be the '\r' of a '\r\n'.
                if len(self._buffer) > self.max_length + 1:
                    self._overlong = len(self._buffer)
                    self._buffer.clear()
            if end >= 0:
                self._end_line(lines)
        return lines

    def _end_line(self, lines: list[bytes]) -> None:
        if self._overlong:
            length, self._overlong = self._overlong, 0
            self._report(length)
            return
        line = bytes(self._buffer)
        self._buffer.clear()
        if line.endswith(b"\r"):
            line = line[:-1]
        if len(line) > self.max_length:
            self._report(len(line))
        else:
            lines.append(line)

    def _report(self, length: int) -> None:
        if self._on_overlong is not None:
            self._on_overlong(length)

    def discard_pending(self) -> int:
        """Drop the incomplete line, if any, and return how many bytes it had.

        An over-long line being discarded counts as dropped here, without a
        call to ``on_overlong``.
        """
        length = self.pending
        self._buffer.clear()
        self._overlong = 0
        return length


class SequenceTracker:
    """Counts the messages missed between sequence numbers, across the wrap."""

    def __init__(self) -> None:
        self._last: int | None = None

    def reset(self) -> None:
        """Forget the last number (a HELLO starts a new session)."""
        self._last = None

    def check(self, seq: int) -> int:
        """Record ``seq`` and return how many numbers were skipped before it.

        The first number after ``reset()`` is never a gap.  Arithmetic is
        modulo 65536, so a repeated or older number counts as a long gap.
        """
        if not 0 <= seq < SEQ_MODULUS:
            raise ValueError(f"seq {seq} out of range 0..{SEQ_MODULUS - 1}")
        last, self._last = self._last, seq
        if last is None:
            return 0
        return (seq - last - 1) % SEQ_MODULUS
