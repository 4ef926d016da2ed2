"""Every roll of every die, kept for the fairness test (a part of :class:`~.store.Store`).

A die is a physical die as the table knows it: the dice reader's name, the die's index on that
reader and the profile it was read with (its six labels by position; ``VIRTUAL`` is the reader of
the rolls the server makes when no reader is connected). Three tables, beside the log:

* ``dice``: each die seen, with when it was first and last rolled; at most ``MAX_DICE`` (a die
  beyond them is not kept, and counted in ``meta.dice_not_kept``);
* ``dice_counts``: per die, per kind and per face, how many rolls: always kept, so bounded by
  the die's faces (three kinds by at most six faces);
* ``dice_rolls``: the rolls themselves (when, which face, the game at the table, the kind), the
  newest ``KEEP_ROLLS`` per die and kind (older ones are deleted as new ones come; their counts
  stay).

Kinds: ``read`` (a genuine roll the reader saw tumble and settle: the only kind the fairness
test uses), ``placed`` (a die set down by hand, not rolled) and ``virtual`` (a face the server
chose at random). Writes go through the store's transactions and are durable when they return
(``synchronous=FULL``), but unmarked, like refusals: the game's truth is its log, and a roll's
record is a statistic beside it (``docs/dice-fairness.md``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

#: the kinds of roll, kept apart
READ, PLACED, VIRTUAL = "read", "placed", "virtual"
KINDS = (READ, PLACED, VIRTUAL)
#: the rolls kept per die and kind (their counts are always kept)
KEEP_ROLLS = 1000
#: the dice kept: a reader declares at most 8, a game asks for a few profiles
MAX_DICE = 64
#: the reader name of the server's virtual rolls (a real reader is named "dice")
VIRTUAL_READER = "virtual"


@dataclass(frozen=True)
class Roll:
    """One roll to keep: the die (``reader``, ``die``, ``profile`` and its six ``faces`` by
    position), the ``face`` up, its ``kind`` and the game at the table (or None)."""

    reader: str
    die: int
    profile: str
    faces: tuple[str, ...]
    face: str
    kind: str
    game_id: int | None = None


@dataclass(frozen=True)
class DieRecord:
    """A die the table has seen, with its counts per kind and face."""

    id: int
    reader: str
    die: int
    profile: str
    faces: tuple[str, ...]  #: its six labels by position (a label may repeat)
    first_at: str
    last_at: str
    counts: dict[str, dict[str, int]] = field(default_factory=dict)  #: kind -> face -> rolls

    @property
    def virtual(self) -> bool:
        return self.reader == VIRTUAL_READER

    def weights(self) -> dict[str, int]:
        """How many of its faces carry each label (a label printed twice weighs twice)."""
        return dict(Counter(self.faces))

    def total(self, kind: str) -> int:
        return sum(self.counts.get(kind, {}).values())


def roll_problem(roll: Roll) -> str | None:
    """Why ``roll`` cannot be kept, or None."""
    if roll.kind not in KINDS:
        return f"unknown kind {roll.kind!r}"
    if len(roll.faces) != 6:
        return f"a die has six faces, not {len(roll.faces)}"
    if roll.face not in roll.faces:
        return f"{roll.face!r} is not a face of {roll.profile}"
    return None


class DiceRecords:
    """The dice tables' reads and writes, mixed into :class:`~.store.Store`."""

    def keep_rolls(self, rolls: list[Roll], at: str) -> int:
        """Keep ``rolls`` (one transaction, unmarked); returns how many were kept. A roll whose
        face is not its die's, or of an unknown kind, is a ValueError and nothing is kept; a new
        die beyond ``MAX_DICE`` is not kept (counted in ``meta.dice_not_kept``)."""
        for roll in rolls:
            problem = roll_problem(roll)
            if problem:
                raise ValueError(problem)
        kept = 0
        with self._transaction("Keeping the dice's rolls", marked=False) as db:
            for roll in rolls:
                die_id = _die_id(db, roll, at)
                if die_id is None:
                    db.execute(
                        "INSERT INTO meta (key, value) VALUES ('dice_not_kept', 1) "
                        "ON CONFLICT (key) DO UPDATE SET value = value + 1"
                    )
                    continue
                db.execute(
                    "INSERT INTO dice_counts (die_id, kind, face, count) VALUES (?, ?, ?, 1) "
                    "ON CONFLICT (die_id, kind, face) DO UPDATE SET count = count + 1",
                    (die_id, roll.kind, roll.face),
                )
                db.execute(
                    "INSERT INTO dice_rolls (die_id, kind, face, game_id, at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (die_id, roll.kind, roll.face, roll.game_id, at),
                )
                db.execute(
                    "DELETE FROM dice_rolls WHERE die_id = ? AND kind = ? AND id <= ("
                    "SELECT id FROM dice_rolls WHERE die_id = ? AND kind = ? "
                    "ORDER BY id DESC LIMIT 1 OFFSET ?)",
                    (die_id, roll.kind, die_id, roll.kind, KEEP_ROLLS),
                )
                kept += 1
        return kept

    def dice(self) -> list[DieRecord]:
        """Every die kept, with its counts: the physical dice by reader and index, then the
        virtual ones."""
        operation = "Reading the dice"
        rows = self._read(
            operation, "SELECT id, reader, die, profile, faces, first_at, last_at FROM dice"
        )
        counts = self._read(operation, "SELECT die_id, kind, face, count FROM dice_counts")
        found = _with_counts(rows, counts)
        return sorted(found, key=lambda d: (d.virtual, d.reader, d.die, d.profile, d.faces))

    def die_record(self, die_id: int) -> DieRecord | None:
        """The die ``die_id`` with its counts, or None."""
        operation = f"Reading die {die_id}"
        rows = self._read(
            operation,
            "SELECT id, reader, die, profile, faces, first_at, last_at FROM dice WHERE id = ?",
            (die_id,),
        )
        counts = self._read(
            operation,
            "SELECT die_id, kind, face, count FROM dice_counts WHERE die_id = ?",
            (die_id,),
        )
        found = _with_counts(rows, counts)
        return found[0] if found else None

    def die_rolls(self, die_id: int, kind: str, limit: int = KEEP_ROLLS) -> list[dict[str, Any]]:
        """The newest ``limit`` kept rolls of a die of one kind, oldest first."""
        rows = self._read(
            f"Reading the rolls of die {die_id}",
            "SELECT face, game_id, at FROM dice_rolls WHERE die_id = ? AND kind = ? "
            "ORDER BY id DESC LIMIT ?",
            (die_id, kind, limit),
        )
        return [{"face": f, "game_id": g, "at": at} for f, g, at in reversed(rows)]


def _die_id(db: Any, roll: Roll, at: str) -> int | None:
    """The die's row (made on its first roll; None beyond ``MAX_DICE``), its last roll now."""
    faces = ",".join(roll.faces)
    key = (roll.reader, roll.die, roll.profile, faces)
    row = db.execute(
        "SELECT id FROM dice WHERE reader = ? AND die = ? AND profile = ? AND faces = ?", key
    ).fetchone()
    if row is not None:
        db.execute("UPDATE dice SET last_at = ? WHERE id = ?", (at, row[0]))
        return row[0]
    if db.execute("SELECT count(*) FROM dice").fetchone()[0] >= MAX_DICE:
        return None
    return db.execute(
        "INSERT INTO dice (reader, die, profile, faces, first_at, last_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (*key, at, at),
    ).lastrowid


def _with_counts(rows: list[tuple], counts: list[tuple]) -> list[DieRecord]:
    per_die: dict[int, dict[str, dict[str, int]]] = {}
    for die_id, kind, face, count in counts:
        per_die.setdefault(die_id, {}).setdefault(kind, {})[face] = count
    return [
        DieRecord(i, reader, die, profile, tuple(faces.split(",")), first, last, per_die.get(i, {}))
        for i, reader, die, profile, faces, first, last in rows
    ]
