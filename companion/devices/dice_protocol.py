"""The dice reader's line protocol, as the host uses it.

The codec itself is the firmware's own (``companion_dice.protocol``, in ``firmware/``): the reader
and the host run the very same code, so they cannot disagree about a line.
``docs/dice-protocol.md`` is the reference.
"""

from companion_dice.protocol import (
    LINE_IDLE_TIMEOUT,
    MAX_LINE_LENGTH,
    PROTOCOL_VERSION,
    SEQ_MODULUS,
    LineSplitter,
    Message,
    ProtocolError,
    SequenceTracker,
    checksum,
    encode,
    int_field,
    line,
    parse_line,
)

__all__ = [
    "LINE_IDLE_TIMEOUT",
    "MAX_LINE_LENGTH",
    "PROTOCOL_VERSION",
    "SEQ_MODULUS",
    "LineSplitter",
    "Message",
    "ProtocolError",
    "SequenceTracker",
    "checksum",
    "encode",
    "int_field",
    "line",
    "parse_line",
]
