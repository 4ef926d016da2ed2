"""What keeps a misbehaving dice reader in bounds: the host driver's small bookkeeping types.

``SerialDiceReader`` (``companion.devices.dice``) uses them so that, whatever a reader sends, the
driver's memory and the events it emits stay bounded and only believable reports become events:

``NoiseLedger``
    counts the noise and tells it: the first piece after a quiet ``NOISE_REPORT_INTERVAL`` at
    once, the rest summed up in one report per interval; ``NoiseTotals`` is its running count;
``LineBudget``
    how much may be parsed in one second (``MAX_LINES_PER_SECOND``, ``MAX_BYTES_PER_SECOND``);
``RollBook``
    one die's roll numbers, to tell a new roll from a replayed or forged one (``ROLL_WINDOW``);
``AskedProfile``
    the profile the host asked for a die, and so the faces its reports may show;
``Rejected``
    raised for a well-formed line that is not believed, with the kind of noise it is.

None of them does I/O or starts a thread; only ``NoiseLedger`` is read from other threads.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import Counter, deque
from dataclasses import dataclass, field

from companion_dice import profiles as dice_profiles

from .dice_protocol import MAX_LINE_LENGTH

#: At most one ``DeviceNoise`` per reader per this many seconds; the rest is summed up in the next.
NOISE_REPORT_INTERVAL = 1.0
#: Lines the driver parses per second at most: the real firmware sends about 300 at the most.
MAX_LINES_PER_SECOND = 2000
#: Bytes the driver parses per second at most: as many lines, each of the longest length.
MAX_BYTES_PER_SECOND = MAX_LINES_PER_SECOND * (MAX_LINE_LENGTH + 2)
#: A ROLL is believed when its number is at most this far after the die's last delivered roll.
ROLL_WINDOW = 1000
#: Delivered roll numbers remembered per die, so that a replayed ROLL is dropped.
ROLL_MEMORY = 64
#: The kinds of noise counted in ``NoiseTotals.kinds``.
NOISE_KINDS = (
    "rejected line",
    "incomplete line",
    "sequence gap",
    "malformed",
    "undeclared die",
    "wrong face",
    "stale roll",
    "reader error",
    "flood",
)


class Rejected(Exception):
    """A well-formed line the driver does not act on: noise of ``kind`` (one of
    ``NOISE_KINDS``), told as ``detail``."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


@dataclass(frozen=True)
class NoiseTotals:
    """What a driver has discarded since it was created (for the status page).

    ``lines``: lines rejected or ignored, incomplete ones included; ``bytes``: their bytes (line
    endings not counted) plus every byte discarded unparsed; ``missed``: lines the sequence
    numbers say never arrived; ``flooded``: bytes discarded unparsed because the reader sent more
    than the budget; ``kinds``: how often each of ``NOISE_KINDS`` happened.
    """

    lines: int = 0
    bytes: int = 0
    missed: int = 0
    flooded: int = 0
    kinds: dict[str, int] = field(default_factory=dict)


@dataclass
class NoiseSummary:
    """The noise folded since the last report, waiting for the next one."""

    lines: int = 0
    size: int = 0
    gaps: int = 0
    missed: int = 0
    flooded: int = 0
    first: str | None = None
    since: float = 0.0  # when the first of it came

    def __bool__(self) -> bool:
        return bool(self.lines or self.gaps or self.flooded or self.first)

    def describe(self, elapsed: float) -> str:
        """The detail of the ``DeviceNoise`` that tells it, ``elapsed`` s after the last one."""
        parts = []
        if self.lines:
            parts.append(f"{self.lines} line(s) ({self.size} bytes) rejected")
        if self.gaps:
            parts.append(f"{self.gaps} sequence gap(s) ({self.missed} message(s) missed)")
        if self.flooded:
            parts.append(f"flooded: {self.flooded} bytes discarded unparsed")
        text = f"noise in the last {elapsed:.1f} s: " + ", ".join(parts)
        return text + (f"; first: {self.first}" if self.first else "")


class NoiseLedger:
    """Counts a reader's noise and decides what is told: the first of a burst at once, the rest
    in one summary per ``interval``. ``record`` and ``due`` return the detail to emit, if any."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self._lock = threading.Lock()  # the totals are read by other threads
        self._totals = NoiseTotals()
        self._kinds: Counter[str] = Counter()
        self._pending = NoiseSummary()
        self._told_at: float | None = None  # when the last report went out

    def record(
        self,
        now: float,
        kind: str,
        detail: str | None,
        *,
        lines: int = 1,
        size: int = 0,
        missed: int = 0,
        flooded: int = 0,
    ) -> str | None:
        """Count one piece of noise of ``kind``: ``lines`` lines of ``size`` bytes, ``missed``
        messages (a sequence gap) or ``flooded`` bytes discarded unparsed; ``detail`` None adds
        to a piece already counted (more of a flood). Returns ``detail`` if it is to be told now
        (the first after a quiet interval), else None: it waits in the summary."""
        with self._lock:
            totals = self._totals
            self._totals = dataclasses.replace(
                totals,
                lines=totals.lines + lines,
                bytes=totals.bytes + size + flooded,
                missed=totals.missed + missed,
                flooded=totals.flooded + flooded,
            )
            if detail is not None:
                self._kinds[kind] += 1
        quiet = not self._pending and (
            self._told_at is None or now - self._told_at >= self.interval
        )
        if detail is not None and quiet and not flooded:
            self._told_at = now
            return detail
        pending = self._pending
        if not pending:
            pending.since = now
        pending.lines += lines
        pending.size += size
        pending.gaps += 1 if missed else 0
        pending.missed += missed
        pending.flooded += flooded
        if pending.first is None:
            pending.first = detail
        return None

    def due(self, now: float, *, force: bool = False) -> str | None:
        """The summary of the folded noise, once ``interval`` has passed (or at once if
        ``force``); None if there is nothing to tell yet."""
        pending = self._pending
        if not pending:
            return None
        if not force and self._told_at is not None and now - self._told_at < self.interval:
            return None
        detail = pending.describe(
            now - (self._told_at if self._told_at is not None else pending.since)
        )
        self._pending = NoiseSummary()
        self._told_at = now
        return detail

    def totals(self) -> NoiseTotals:
        """A snapshot of the running totals (safe from any thread)."""
        with self._lock:
            return dataclasses.replace(self._totals, kinds=dict(self._kinds))


class LineBudget:
    """How much a reader may have parsed in one second; past it, the rest of that second is a
    flood, discarded unparsed."""

    def __init__(self, lines: int, size: int) -> None:
        if lines < 1 or size < 1:
            raise ValueError(f"the budgets must be at least 1, not {lines} lines, {size} bytes")
        self.max_lines, self.max_bytes = lines, size
        self.flood_told = False  # whether this second's flood was recorded
        self._start = float("-inf")
        self._lines = self._bytes = 0

    def _second(self, now: float) -> None:
        if now - self._start >= 1.0:
            self._start, self._lines, self._bytes, self.flood_told = now, 0, 0, False

    def exhausted(self, now: float) -> bool:
        """Whether this second's budget is spent (a new second starts a new budget)."""
        self._second(now)
        return self._lines > self.max_lines or self._bytes > self.max_bytes

    def remaining(self, now: float) -> float:
        """Seconds until this second's budget renews."""
        return max(0.0, 1.0 - (now - self._start))

    def spend(self, now: float, *, lines: int = 0, size: int = 0) -> bool:
        """Spend ``lines`` and ``size`` bytes; False if that goes over this second's budget."""
        self._second(now)
        self._lines += lines
        self._bytes += size
        return self._lines <= self.max_lines and self._bytes <= self.max_bytes


class RollBook:
    """One die's roll numbers this boot, to tell a new roll from a replayed or forged one."""

    __slots__ = ("last", "announced", "_recent")

    def __init__(self) -> None:
        self.last: int | None = None  # the last roll number delivered
        self.announced: int | None = None  # the number of the latest ROLLING, until delivered
        self._recent: deque[int] = deque(maxlen=ROLL_MEMORY)

    def refusal(self, roll: int) -> str | None:
        """Why roll number ``roll`` is not a new roll, or None if it is one."""
        if roll in self._recent:
            return "was already delivered"
        last = self.last
        if last is None or last < roll <= last + ROLL_WINDOW or roll == self.announced:
            return None
        announced = f"roll {self.announced}" if self.announced is not None else "none"
        return (
            f"is neither within {ROLL_WINDOW} after roll {last}, the last delivered, nor "
            f"the roll its latest ROLLING announced ({announced})"
        )

    def deliver(self, roll: int) -> None:
        """Roll ``roll`` was delivered: the window starts after it."""
        self.last = roll
        self._recent.append(roll)
        if roll == self.announced:
            self.announced = None


@dataclass(frozen=True)
class AskedProfile:
    """The profile the host asked for a die (``set_profile``): the faces its reports may show."""

    name: str
    faces: tuple[str, ...] | None
    known: dice_profiles.Profile | None = field(default=None, compare=False)

    @classmethod
    def of(cls, name: str, faces: tuple[str, ...] | None) -> AskedProfile:
        """Profile ``name`` (``faces`` for a custom one) as asked, with its faces if known."""
        try:
            known = dice_profiles.get(name, list(faces) if faces is not None else None)
        except ValueError:
            known = None  # the reader refuses it too: none of its faces can be this profile's
        return cls(name, faces, known)

    def face(self, label: str) -> dice_profiles.Face | None:
        """The face labelled ``label``, or None if this profile has none."""
        faces = self.known.faces if self.known is not None else ()
        return next((face for face in faces if face.label == label), None)

    def named_by(self, fields: dict[str, str]) -> bool:
        """Whether a ``DIE`` line's ``profile`` (and for ``custom`` its ``faces``) is this one."""
        return fields.get("profile") == self.name and (
            self.faces is None or fields.get("faces") == ",".join(self.faces)
        )
