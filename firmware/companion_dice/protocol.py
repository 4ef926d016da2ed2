"""The dice reader's line protocol (``docs/dice-protocol.md``): a pure codec, no I/O.

A line is ASCII, ends in ``\\n`` (``\\r\\n`` is tolerated) and reads::

    VERB SEQ key=value key=value*HH

``SEQ`` is a decimal sequence number 0..65535 that wraps; ``HH`` is the XOR of every byte before
the ``*``, as two upper-case hex digits. Parsers accept any well-formed verb and field, so the
protocol can grow: whoever acts on a message ignores the verbs and fields it does not know.

This module runs on the reader (MicroPython) and on the host (CPython); the host driver imports
it through ``companion.devices.dice_protocol``. Hence plain loops instead of ``re``.
"""

#: The longest line, in bytes, not counting its ``\\n`` or ``\\r\\n``.
MAX_LINE_LENGTH = 200
#: Sequence numbers run 0..SEQ_MODULUS - 1 and then wrap to 0.
SEQ_MODULUS = 65536
#: A receiver discards an incomplete line when no byte arrived for this long (s).
LINE_IDLE_TIMEOUT = 0.2
#: The protocol version that HELLO announces as ``proto=``.
PROTOCOL_VERSION = 1

_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LOWER = "abcdefghijklmnopqrstuvwxyz"
_DIGITS = "0123456789"
_VERB_REST = _UPPER + _DIGITS + "_"
_KEY_REST = _LOWER + _DIGITS + "_"


class ProtocolError(ValueError):
    """A line that does not follow the protocol; the message says why."""


class Message:
    """One parsed line: its verb, sequence number and fields (a dict, in line order)."""

    __slots__ = ("verb", "seq", "fields")

    def __init__(self, verb, seq, fields=None):
        self.verb = verb
        self.seq = seq
        self.fields = dict(fields) if fields else {}

    def __eq__(self, other):
        return (
            isinstance(other, Message)
            and self.verb == other.verb
            and self.seq == other.seq
            and self.fields == other.fields
        )

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = None

    def __repr__(self):
        return "Message(%r, %r, %r)" % (self.verb, self.seq, self.fields)


def checksum(data):
    """The XOR of all bytes of ``data`` as two upper-case hex digits."""
    value = 0
    for byte in data:
        value ^= byte
    return "%02X" % value


def is_verb(text):
    """Upper-case letter, then upper-case letters, digits or ``_``."""
    if not text or text[0] not in _UPPER:
        return False
    for char in text:
        if char not in _VERB_REST:
            return False
    return True


def is_key(text):
    """Lower-case letter, then lower-case letters, digits or ``_``."""
    if not text or text[0] not in _LOWER:
        return False
    for char in text:
        if char not in _KEY_REST:
            return False
    return True


def is_value(text):
    """One or more printable ASCII characters other than space and ``*``."""
    if not text:
        return False
    for char in text:
        if char <= " " or char > "~" or char == "*":
            return False
    return True


def is_seq(text):
    """A decimal 0..65535 without leading zeros."""
    if not text or len(text) > 5 or (text[0] == "0" and len(text) > 1):
        return False
    for char in text:
        if char not in _DIGITS:
            return False
    return int(text) < SEQ_MODULUS


def line(verb, seq, pairs=()):
    """The complete line for ``verb``, ``seq`` and ``pairs`` of (key, value), ``\\n`` included.

    Values are converted with ``str()``. Raises ``ValueError`` if the verb, the sequence
    number, a key or a value is not allowed by the grammar, or the line would be too long.
    """
    if not isinstance(verb, str) or not is_verb(verb):
        raise ValueError("bad verb %r: want upper-case letters, digits or '_'" % (verb,))
    if type(seq) is not int or not 0 <= seq < SEQ_MODULUS:
        raise ValueError("bad seq %r: want an int 0..%d" % (seq, SEQ_MODULUS - 1))
    parts = [verb, str(seq)]
    for key, raw in pairs:
        value = str(raw)
        if not isinstance(key, str) or not is_key(key):
            raise ValueError("bad field key %r: want lower-case letters, digits or '_'" % (key,))
        if not is_value(value):
            raise ValueError(
                "bad value %r for %s: want printable ASCII without spaces or '*'" % (value, key)
            )
        parts.append(key + "=" + value)
    body = " ".join(parts).encode()
    text = body + b"*" + checksum(body).encode()
    if len(text) > MAX_LINE_LENGTH:
        raise ValueError("line too long: %d bytes (max %d)" % (len(text), MAX_LINE_LENGTH))
    return text + b"\n"


def encode(verb, seq, **fields):
    """``line()`` with the fields as keyword arguments (kept in order on CPython)."""
    return line(verb, seq, fields.items())


def parse_line(data):
    """Parse one line, with or without its ``\\n`` or ``\\r\\n``.

    Raises ``ProtocolError`` whose message starts with the reason: ``too long``, ``empty
    line``, ``non-ASCII``, ``control byte``, ``no checksum``, ``bad checksum``, ``bad verb``,
    ``bad seq`` or ``bad field``.
    """
    if data[-1:] == b"\n":
        data = data[:-1]
    if data[-1:] == b"\r":
        data = data[:-1]
    if len(data) > MAX_LINE_LENGTH:
        raise ProtocolError("too long: %d bytes (max %d)" % (len(data), MAX_LINE_LENGTH))
    if not data:
        raise ProtocolError("empty line")
    offset = 0
    for byte in data:
        if byte > 0x7F:
            raise ProtocolError("non-ASCII byte 0x%02X at offset %d" % (byte, offset))
        if byte < 0x20 or byte == 0x7F:
            raise ProtocolError("control byte 0x%02X at offset %d" % (byte, offset))
        offset += 1
    text = data.decode()
    star = text.rfind("*")
    if star < 0:
        raise ProtocolError("no checksum: the line does not end in '*HH'")
    body, given = text[:star], text[star + 1 :]
    if len(given) != 2 or given[0] not in "0123456789ABCDEF" or given[1] not in "0123456789ABCDEF":
        raise ProtocolError("no checksum: %r after '*' is not two upper-case hex digits" % (given,))
    computed = checksum(data[:star])
    if given != computed:
        raise ProtocolError("bad checksum: line says %s, bytes give %s" % (given, computed))
    words = body.split(" ")
    verb = words[0]
    if not is_verb(verb):
        raise ProtocolError("bad verb %r" % (verb,))
    if len(words) < 2:
        raise ProtocolError("bad seq: missing")
    if not is_seq(words[1]):
        raise ProtocolError("bad seq %r: want a decimal 0..%d" % (words[1], SEQ_MODULUS - 1))
    fields = {}
    for token in words[2:]:
        equals = token.find("=")
        key, value = token[:equals], token[equals + 1 :]
        if equals < 0 or not is_key(key) or not is_value(value):
            raise ProtocolError("bad field %r: want key=value" % (token,))
        if key in fields:
            raise ProtocolError("bad field %r: %s given twice" % (token, key))
        fields[key] = value
    return Message(verb, int(words[1]), fields)


def int_field(message, key):
    """The field ``key`` as a non-negative decimal int (at most 9 digits), else None."""
    value = message.fields.get(key)
    if value is None or len(value) > 9:
        return None
    for char in value:
        if char not in _DIGITS:
            return None
    return int(value)


class LineSplitter:
    """Cuts a byte stream into lines, however the bytes are chunked.

    ``feed()`` returns the complete lines so far, without ``\\n`` or ``\\r\\n``. A line longer
    than ``max_length`` is dropped: its bytes are discarded up to the next ``\\n``, and when that
    comes ``on_overlong(length)`` is called with the number of bytes dropped (all but the
    ``\\n``). ``discard_pending()`` drops an incomplete line (a receiver does this after
    ``LINE_IDLE_TIMEOUT``).
    """

    def __init__(self, max_length=MAX_LINE_LENGTH, on_overlong=None):
        self.max_length = max_length
        self._on_overlong = on_overlong
        self._buffer = bytearray()
        self._overlong = 0  # bytes of an over-long line discarded so far, else 0

    @property
    def pending(self):
        """How many bytes of an incomplete line are held (or being discarded)."""
        return self._overlong or len(self._buffer)

    def feed(self, data):
        """Add ``data`` to the stream and return the lines it completed."""
        lines = []
        start = 0
        size = len(data)
        while start < size:
            end = data.find(b"\n", start)
            chunk = data[start:] if end < 0 else data[start:end]
            start = size if end < 0 else end + 1
            if self._overlong:
                self._overlong += len(chunk)
            else:
                self._buffer += chunk
                # One byte of slack: it may be the '\r' of a '\r\n'.
                if len(self._buffer) > self.max_length + 1:
                    self._overlong = len(self._buffer)
                    self._buffer = bytearray()
            if end >= 0:
                self._end_line(lines)
        return lines

    def _end_line(self, lines):
        if self._overlong:
            length = self._overlong
            self._overlong = 0
            self._report(length)
            return
        done = bytes(self._buffer)
        self._buffer = bytearray()
        if done[-1:] == b"\r":
            done = done[:-1]
        if len(done) > self.max_length:
            self._report(len(done))
        else:
            lines.append(done)

    def _report(self, length):
        if self._on_overlong is not None:
            self._on_overlong(length)

    def discard_pending(self):
        """Drop the incomplete line, if any, and return how many bytes it had.

        An over-long line being discarded counts as dropped here, without a call to
        ``on_overlong``.
        """
        length = self.pending
        self._buffer = bytearray()
        self._overlong = 0
        return length


class SequenceTracker:
    """Counts the messages missed between sequence numbers, across the wrap."""

    def __init__(self):
        self._last = None

    def reset(self):
        """Forget the last number (a HELLO starts a new session)."""
        self._last = None

    def check(self, seq):
        """Record ``seq`` and return how many numbers were skipped before it.

        The first number after ``reset()`` is never a gap. Arithmetic is modulo 65536, so a
        repeated or older number counts as a long gap.
        """
        if not 0 <= seq < SEQ_MODULUS:
            raise ValueError("seq %d out of range 0..%d" % (seq, SEQ_MODULUS - 1))
        last = self._last
        self._last = seq
        if last is None:
            return 0
        return (seq - last - 1) % SEQ_MODULUS
