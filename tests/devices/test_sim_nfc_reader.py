"""The simulated NFC reader."""

from __future__ import annotations

import pytest

from companion.devices.events import TagTapped
from companion.devices.nfc import NfcReader, SimNfcReader


def test_tap_emits_a_normalised_tag(events) -> None:
    reader = SimNfcReader("board", events.emit)
    reader.tap("04:a1:b2:c3")
    reader.tap("04 d4 e5 f6 07 18 29")
    assert events.pending() == [
        TagTapped("board", "04A1B2C3"),
        TagTapped("board", "04D4E5F6071829"),
    ]


def test_a_bad_uid_raises_and_emits_nothing(events) -> None:
    reader = SimNfcReader("board", events.emit)
    with pytest.raises(ValueError, match="non-hex"):
        reader.tap("04:zz:b2:c3")
    assert events.pending() == []


def test_a_closed_reader_refuses_taps(events) -> None:
    reader = SimNfcReader("board", events.emit)
    reader.close()
    reader.close()
    with pytest.raises(RuntimeError, match="closed"):
        reader.tap("04a1b2c3")
    assert events.pending() == []


def test_sim_reader_is_an_nfc_reader(events) -> None:
    reader = SimNfcReader("board", events.emit)
    assert isinstance(reader, NfcReader)
    assert reader.name == "board"
