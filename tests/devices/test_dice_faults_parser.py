"""Fault injection, the parser path: the dice reader's line splitter and parser survive any
bytes, cut anywhere, and recover at the next line (``test_dice_faults_megabyte.py`` runs the
whole driver under a megabyte of faults)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.devices.dice_protocol import (
    MAX_LINE_LENGTH,
    SEQ_MODULUS,
    LineSplitter,
    Message,
    ProtocolError,
    encode,
    parse_line,
)

# -- the parser path, for any bytes -------------------------------------------------------

junk = st.one_of(
    st.binary(max_size=300),
    st.binary(min_size=MAX_LINE_LENGTH - 5, max_size=800),
    st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=250).map(str.encode),
    st.lists(
        st.sampled_from(
            [
                b"ROLL",
                b" ",
                b"1",
                b"die=",
                b"*",
                b"0A",
                b"\r",
                b"\n",
                b"=",
                b"face=CLOAK",
                b"\xff",
                b"\x00",
            ]
        ),
        max_size=60,
    ).map(b"".join),
)


@settings(max_examples=300, deadline=None)
@given(
    junk=junk,
    seq=st.integers(0, SEQ_MODULUS - 1),
    die=st.integers(0, 9),
    ending=st.sampled_from([b"\n", b"\r\n"]),
    data=st.data(),
)
def test_the_parser_path_survives_any_bytes_and_recovers_at_the_next_line(
    junk: bytes, seq: int, die: int, ending: bytes, data: st.DataObject
) -> None:
    valid = encode("ROLL", seq, die=die, roll=1, face="2P", profile="battle", value=2, again=1)
    stream = junk + ending + valid
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=12)))
    chunks = [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)])]
    # The receiver may drop a pending fragment (after a pause) at any point of the junk.
    idle_at = data.draw(st.none() | st.integers(0, len(chunks)))

    dropped: list[int] = []
    splitter = LineSplitter(on_overlong=dropped.append)
    messages: list[Message] = []
    for index, chunk in enumerate(chunks):
        if index == idle_at and sum(map(len, chunks[:index])) <= len(junk):
            splitter.discard_pending()
        for line in splitter.feed(chunk):
            try:
                messages.append(parse_line(line))
            except ProtocolError:
                pass  # anything else fails the test
    assert splitter.pending == 0
    assert messages and messages[-1] == Message(
        "ROLL",
        seq,
        {
            "die": str(die),
            "roll": "1",
            "face": "2P",
            "profile": "battle",
            "value": "2",
            "again": "1",
        },
    )
