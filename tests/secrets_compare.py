"""How the secrets harness (``secrets_harness.py``) reads and compares what a role is served: a
stream's first snapshot, the sticker map in one order, where the readings of the swapped state
differ from those of the real state in a way no clock explains (``leak_at``), and the excerpts
its failures show (``docs/secrets.md``)."""

from __future__ import annotations

import http.client
import json
import re

UNDECIDED = -1  # readings of one state differ in their structure: compare again
_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|\w+|\s+|.', re.S)


def leak_at(real: list[bytes], swapped: list[bytes]) -> int | None:
    """Where the readings of the swapped state differ from those of the real state where all
    readings of each agree (a byte offset in the first swapped reading), or None, or UNDECIDED.

    The texts are cut into tokens (JSON strings, numbers, words, single characters). A token
    that differs between readings of the real state moves by itself (a clock), and so does one
    that differs between readings of the one swapped state; neither is evidence. A leak is the
    same bytes every time the swapped state is read, and never when the real one is. If the
    readings of either state do not have the same number of tokens, the swapped ones being all
    alike and different from the real ones is a leak; otherwise nothing can be told apart."""
    ours, theirs = [_TOKEN.findall(r) for r in real], [_TOKEN.findall(s) for s in swapped]
    if len({len(x) for x in ours}) != 1 or len({len(x) for x in theirs}) != 1:
        return UNDECIDED
    if len(theirs[0]) != len(ours[0]):
        if len(set(swapped)) != 1:
            return UNDECIDED
        return next(
            (k for k, (x, y) in enumerate(zip(real[0], swapped[0])) if x != y),
            min(len(real[0]), len(swapped[0])),
        )
    offset = 0
    for i, token in enumerate(theirs[0]):
        if (
            token != ours[0][i]
            and all(x[i] == ours[0][i] for x in ours)
            and all(x[i] == token for x in theirs)
        ):
            return offset
        offset += len(token)
    return None


def first_snapshot(response: http.client.HTTPResponse, limit: int = 50) -> tuple[bytes, int | None]:
    """A stream's first event with data (a snapshot, or ``gone``/``bye``), as bytes, and the
    table version it was made at (its ``id``, if it has one)."""
    event, data, sent_at = b"message", [], None
    for _ in range(limit * 100):
        line = response.readline()
        if not line:
            break
        line = line.rstrip(b"\r\n")
        if line == b"":
            if data:
                return b"event: " + event + b"\n" + b"\n".join(data), sent_at
            event, sent_at = b"message", None
            continue
        if line.startswith(b"event:"):
            event = line[6:].strip()
        elif line.startswith(b"id:") and line[3:].strip().isdigit():
            sent_at = int(line[3:].strip())
        elif line.startswith(b"data:"):
            data.append(line[5:].lstrip())
    raise AssertionError("the stream sent no event")


def in_order(text: bytes) -> bytes:
    """The sticker map with its rows in one order (the export sorts them by UID, and a swap
    renames the UIDs at random)."""
    head, _, body = text.partition(b"\n\n")
    try:
        data = json.loads(body)
    except ValueError:
        return text
    if isinstance(data, dict) and isinstance(data.get("tags"), list):
        data["tags"] = sorted(data["tags"], key=lambda row: json.dumps(row, sort_keys=True))
    return head + b"\n\n" + json.dumps(data, sort_keys=True).encode()


def excerpt(text: bytes, at: int, around: int = 80) -> str:
    """Byte ``at`` of a response, with some bytes either side."""
    return f"at byte {at} of {len(text)}: …{text[max(0, at - around) : at + around]!r}…"


def first_difference(a: bytes, b: bytes, at: int | None = None, around: int = 80) -> str:
    """Where two responses first differ (from byte ``at`` on), with some bytes either side."""
    i = next(
        (k for k, (x, y) in enumerate(zip(a, b)) if x != y and k >= (at or 0)), min(len(a), len(b))
    )
    start = max(0, i - around)
    return (
        f"first difference at byte {i} of {len(a)}/{len(b)}:\n"
        f"  real:    …{a[start : i + around]!r}…\n"
        f"  changed: …{b[start : i + around]!r}…"
    )
