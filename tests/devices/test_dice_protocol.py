"""The dice reader line protocol: encoding, parsing, splitting, sequence numbers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.devices.dice_protocol import (
    MAX_LINE_LENGTH,
    LineSplitter,
    Message,
    ProtocolError,
    SequenceTracker,
    checksum,
    encode,
    parse_line,
)

PROTOCOL_DOC = Path(__file__).resolve().parents[2] / "docs" / "dice-protocol.md"

verbs = st.from_regex(r"[A-Z][A-Z0-9_]{0,7}", fullmatch=True)
keys = st.from_regex(r"[a-z][a-z0-9_]{0,7}", fullmatch=True)
values = st.text(
    alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E, blacklist_characters="*"),
    min_size=1,
    max_size=12,
)
seqs = st.integers(0, 65535)


def with_checksum(body: bytes) -> bytes:
    return body + b"*" + checksum(body).encode()


def test_checksum_is_the_xor_in_upper_case_hex() -> None:
    assert checksum(b"PING 3") == "03"
    assert checksum(b"") == "00"
    assert checksum(b"\x0f\xf0") == "FF"


def test_encode_writes_the_documented_line() -> None:
    assert encode("ROLL", 12, die=0, face=4) == b"ROLL 12 die=0 face=4*53\n"
    assert encode("PING", 3) == b"PING 3*03\n"


def test_the_examples_in_the_protocol_document_are_valid_lines() -> None:
    examples = re.findall(r"`([A-Z]+ \d+[^`]*\*[0-9A-F]{2})`", PROTOCOL_DOC.read_text())
    assert len(examples) >= 4
    for example in examples:
        parse_line(example.encode())


@given(verbs, seqs, st.dictionaries(keys, values, max_size=5))
def test_encode_then_parse_gives_the_message_back(verb, seq, fields) -> None:
    line = encode(verb, seq, **fields)
    assert line.endswith(b"\n")
    assert parse_line(line) == Message(verb, seq, fields)
    assert list(parse_line(line).fields) == list(fields)  # order kept


def test_parse_tolerates_crlf_and_a_missing_newline() -> None:
    expected = Message("ROLL", 7, {"die": "1", "face": "3"})
    line = encode("ROLL", 7, die=1, face=3)
    assert parse_line(line) == expected
    assert parse_line(line[:-1] + b"\r\n") == expected
    assert parse_line(line[:-1]) == expected


def test_unknown_verbs_and_fields_parse() -> None:
    line = with_checksum(b"SHAKE_V2 9 tilt=12 mood=:-)")
    assert parse_line(line) == Message("SHAKE_V2", 9, {"tilt": "12", "mood": ":-)"})


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"R" * (MAX_LINE_LENGTH + 1), "too long: 201 bytes"),
        (b"", "empty line"),
        (b"\r\n", "empty line"),
        (with_checksum("ROLL 1 die=\u00e9".encode("latin-1")), "non-ASCII byte 0xE9 at offset 11"),
        (with_checksum(b"ROLL 1\tdie=0"), "control byte 0x09 at offset 6"),
        (with_checksum(b"ROLL 1 die=0\x7f"), "control byte 0x7F"),
        (b"ROLL 1 die=0 face=3", "no checksum"),
        (b"ROLL 1 die=0 face=3*5", "no checksum"),
        (b"ROLL 1 die=0 face=3*5a", "no checksum"),
        (b"ROLL 1 die=0 face=3*00", "bad checksum: line says 00, bytes give"),
        (with_checksum(b"roll 1"), "bad verb 'roll'"),
        (with_checksum(b" ROLL 1"), "bad verb ''"),
        (with_checksum(b"ROLL"), "bad seq: missing"),
        (with_checksum(b"ROLL x"), "bad seq 'x'"),
        (with_checksum(b"ROLL 65536"), "bad seq '65536'"),
        (with_checksum(b"ROLL 007"), "bad seq '007'"),
        (with_checksum(b"ROLL -1"), "bad seq '-1'"),
        (with_checksum(b"ROLL 1 die"), "bad field 'die'"),
        (with_checksum(b"ROLL 1 die="), "bad field 'die='"),
        (with_checksum(b"ROLL 1 Die=0"), "bad field 'Die=0'"),
        (with_checksum(b"ROLL 1  die=0"), "bad field ''"),
        (with_checksum(b"ROLL 1 die=0 "), "bad field ''"),
        (with_checksum(b"ROLL 1 die=0*x"), "bad field"),
        (with_checksum(b"ROLL 1 die=0 die=1"), "bad field 'die=1': die given twice"),
    ],
)
def test_parse_line_rejects_with_a_precise_reason(line: bytes, reason: str) -> None:
    with pytest.raises(ProtocolError, match=re.escape(reason)):
        parse_line(line)


def test_a_line_of_exactly_the_maximum_length_parses() -> None:
    body = b"HELLO 1 fw="
    body += b"x" * (MAX_LINE_LENGTH - len(body) - 3)
    line = with_checksum(body)
    assert len(line) == MAX_LINE_LENGTH
    assert parse_line(line + b"\r\n").fields["fw"].startswith("xxx")


@pytest.mark.parametrize(
    ("verb", "seq", "fields", "reason"),
    [
        ("roll", 0, {}, "bad verb"),
        ("ROLL", 65536, {}, "bad seq"),
        ("ROLL", -1, {}, "bad seq"),
        ("ROLL", True, {}, "bad seq"),
        ("ROLL", 0, {"Die": 1}, "bad field key"),
        ("ROLL", 0, {"msg": "two words"}, "bad value"),
        ("ROLL", 0, {"msg": "a*b"}, "bad value"),
        ("ROLL", 0, {"msg": ""}, "bad value"),
        ("ROLL", 0, {"msg": "caf\u00e9"}, "bad value"),
        ("ERR", 0, {"msg": "x" * 200}, "line too long"),
    ],
)
def test_encode_refuses_what_the_grammar_forbids(verb, seq, fields, reason) -> None:
    with pytest.raises(ValueError, match=reason):
        encode(verb, seq, **fields)


# -- LineSplitter -----------------------------------------------------------------

line_bodies = st.lists(
    st.one_of(
        st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")),
        st.integers(MAX_LINE_LENGTH - 2, MAX_LINE_LENGTH + 30).map(lambda n: b"x" * n),
    ),
    max_size=8,
)


def expected_split(bodies: list[bytes], endings: list[bytes]) -> tuple[list[bytes], list[int]]:
    """The lines, and the lengths of the dropped ones (all bytes but the newline)."""
    lines, dropped = [], []
    for body, ending in zip(bodies, endings):
        before_newline = body + ending[:-1]
        line = before_newline.removesuffix(b"\r")
        if len(line) > MAX_LINE_LENGTH:
            dropped.append(len(before_newline))
        else:
            lines.append(line)
    return lines, dropped


@given(line_bodies, st.data())
def test_splitter_finds_the_same_lines_however_the_stream_is_chunked(bodies, data) -> None:
    endings = [data.draw(st.sampled_from([b"\n", b"\r\n"])) for _ in bodies]
    stream = b"".join(body + ending for body, ending in zip(bodies, endings))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    chunks = [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)])]

    dropped: list[int] = []
    splitter = LineSplitter(on_overlong=dropped.append)
    lines = [line for chunk in chunks for line in splitter.feed(chunk)]

    expected_lines, expected_dropped = expected_split(bodies, endings)
    assert lines == expected_lines
    assert dropped == expected_dropped
    assert splitter.pending == 0


def test_splitter_keeps_a_partial_line_until_it_ends() -> None:
    splitter = LineSplitter()
    assert splitter.feed(b"PING 1") == []
    assert splitter.pending == 6
    assert splitter.feed(b"*30\r") == []
    assert splitter.feed(b"\nPONG") == [b"PING 1*30"]
    assert splitter.pending == 4


def test_splitter_reports_each_overlong_line_with_its_length() -> None:
    dropped: list[int] = []
    splitter = LineSplitter(max_length=10, on_overlong=dropped.append)
    assert splitter.feed(b"0123456789\n") == [b"0123456789"]
    assert splitter.feed(b"0123456789\r\n") == [b"0123456789"]
    assert splitter.feed(b"0123456789A\n") == []
    assert splitter.feed(b"0123456789A\r\n") == []
    assert dropped == [11, 12]
    for chunk in (b"x" * 7, b"x" * 7, b"x" * 7, b"\r\nok\n"):
        lines = splitter.feed(chunk)
    assert lines == [b"ok"]
    assert dropped == [11, 12, 22]


def test_discard_pending_drops_the_fragment_so_the_next_line_parses() -> None:
    dropped: list[int] = []
    splitter = LineSplitter(max_length=10, on_overlong=dropped.append)
    splitter.feed(b"ROLL 5 di")
    assert splitter.discard_pending() == 9
    assert splitter.feed(b"PING 1\n") == [b"PING 1"]
    splitter.feed(b"y" * 30)
    assert splitter.pending == 30
    assert splitter.discard_pending() == 30
    assert splitter.feed(b"ok\n") == [b"ok"]
    assert dropped == []
    assert splitter.discard_pending() == 0


# -- SequenceTracker ------------------------------------------------------------


def test_consecutive_numbers_miss_nothing() -> None:
    tracker = SequenceTracker()
    assert [tracker.check(seq) for seq in (40, 41, 42, 43)] == [0, 0, 0, 0]


def test_a_gap_counts_the_missed_numbers() -> None:
    tracker = SequenceTracker()
    assert [tracker.check(seq) for seq in (0, 1, 4, 5, 7)] == [0, 0, 2, 0, 1]


def test_the_numbers_wrap_at_65536() -> None:
    tracker = SequenceTracker()
    assert [tracker.check(seq) for seq in (65534, 65535, 0, 1)] == [0, 0, 0, 0]
    tracker = SequenceTracker()
    assert [tracker.check(seq) for seq in (65534, 1)] == [0, 2]


def test_a_repeated_number_is_a_full_lap_missed() -> None:
    tracker = SequenceTracker()
    assert [tracker.check(seq) for seq in (9, 9)] == [0, 65535]


def test_reset_starts_a_new_count() -> None:
    tracker = SequenceTracker()
    tracker.check(100)
    tracker.reset()
    assert tracker.check(3) == 0
    assert tracker.check(4) == 0


def test_check_refuses_numbers_out_of_range() -> None:
    with pytest.raises(ValueError):
        SequenceTracker().check(65536)
