"""The durable record of the table, in one SQLite file (standard library only).

* ``games``: every game ever started, with its players, options, seed, per-player tokens (a
  phone's key to its seat), the join codes of the seats no phone has claimed yet and where it
  stands (``progress``, "turn 15"); every game is kept with its history. A game is *at the
  table* (the setting ``current_game``), *finished* (``finished_at`` without ``abandoned``), or
  *set aside* (``abandoned``: unfinished and resumable; ``ended`` when the host ended it rather
  than start another; ``finished_at`` is then the moment it left the table).
* ``entries``: the event log. One row per accepted action (or undo), committed with
  ``synchronous=FULL`` before anything shows its effect, so a pulled plug loses nothing that was
  acknowledged. A game's state is the replay of its entries. Each row carries a CRC-32 of its
  fields, checked whenever it is read: damage inside a value is reported, not replayed.
* ``refusals``: every refused input, with the rule and the reason (never part of the state).
* ``tags``: the NFC tag registry (UID -> component).
* ``settings``: small key/value facts such as the host's PIN and the secret that signs CSRF tokens,
  and each play's summary once it has left the table (``play:<id>``, :mod:`.plays`: a cache).
* ``sessions``: the host's signed-in phones, by a hash of their session token.
* ``meta``: the store's own counters: ``changes`` (commits that must not vanish), ``entries``
  (the log's length) and ``heartbeat`` (:meth:`Store.probe`).
* ``dice``, ``dice_counts``, ``dice_rolls``: every die the table has seen and its rolls, for the
  fairness test (:mod:`.dice_store`).

The file itself, its schema, its transactions and its mark are :mod:`.store_file`'s: storage that
fails is a :class:`StorageError`, never a raw ``sqlite3`` or OS error, and a method that returns
has saved. ``docs/storage.md`` tells the whole story.

Every method takes the store's lock, so the web threads and the table loop can share one store.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..i18n import from_text_data, text_data
from .dice_store import DiceRecords
from .storage import explain
from .store_file import StoreFile

_GAME_COLUMNS = (
    "id, game, players, options, seed, tokens, started_at, finished_at, abandoned, joins, colours, "
    "ended, progress, paused"
)
#: the setting that names the game at the table: its id, or "" when none is (a database from
#: before it has none: the latest game is at the table unless it was set aside)
CURRENT = "current_game"
#: set aside and finished games the host's list shows, of each kind (the most recent)
KEEP_LISTED = 20
#: the settings that keep each play's summary (``play:<game id>``; :mod:`.plays`)
PLAY_SUMMARY = "play:"


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    players: list[str]
    options: dict[str, Any]
    seed: int
    tokens: dict[str, str]
    started_at: str
    finished_at: str | None
    abandoned: bool
    #: the join codes of the seats no phone has claimed yet (a claimed seat has none)
    joins: dict[str, str] = field(default_factory=dict)
    #: each player's colour, in seat order (empty: the palette's order)
    colours: list[str] = field(default_factory=list)
    #: set aside by the host's "end the game" (not by another game started or resumed)
    ended: bool = False
    #: where the game stands, as its rules say it ("turn 15", a translatable text), or None
    progress: Any = None
    #: it was paused when it was set aside (resuming it pauses it again)
    paused: bool = False

    @property
    def finished(self) -> bool:
        """The game is over by its rules."""
        return self.finished_at is not None and not self.abandoned


@dataclass(frozen=True)
class Entry:
    seq: int
    action: dict[str, Any]
    source: str
    at: str


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def entry_crc(game_id: int, seq: int, action: str, source: str, at: str) -> int:
    """The CRC-32 of an entry's fields as stored (the action as its JSON text); a field that
    damage turned into another type gives another checksum, not an error."""
    fields = (game_id, seq, action, source, at)
    return zlib.crc32("\x1f".join(map(str, fields)).encode("utf-8"))


class Store(DiceRecords, StoreFile):
    """The table's durable record in its SQLite file (:class:`~.store_file.StoreFile`). Opening
    it checks the storage and raises :class:`StorageError` when it cannot be used; ``disk`` is
    the seam tests use to make the file system fail. ``verify_mark=False`` opens a database that
    holds less than its mark (or whose mark is damaged): only for ``companion storage
    accept-loss``."""

    # -- the whole log, for ``companion storage`` -----------------------------------------------

    def counts(self) -> tuple[int, int]:
        """How many games and log entries the database holds."""
        return self._read(
            "Counting the games and entries",
            "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM entries)",
        )[0]

    def verify_entries(self) -> tuple[int, int]:
        """Check every entry of every game against its checksum (raises :class:`StorageError`,
        kind ``corrupt``, naming the first damaged one); returns how many were checked and how
        many are older entries without a checksum."""
        rows = self._read(
            "Checking every entry",
            "SELECT game_id, seq, action, source, at, crc FROM entries ORDER BY game_id, seq",
        )
        for game_id, *row in rows:
            self._entry(game_id, row, "Checking every entry")
        unchecked = sum(1 for row in rows if row[-1] is None)
        return len(rows) - unchecked, unchecked

    def _entry(self, game_id: int, row: list | tuple, operation: str) -> Entry:
        """One stored entry, checked against its checksum and decoded."""
        seq, action, source, at, crc = row
        if crc is not None and crc != entry_crc(game_id, seq, action, source, at):
            problem = f"entry {seq} of game {game_id} does not match its checksum"
        else:
            try:
                return Entry(seq, json.loads(action), source, at)
            except (ValueError, TypeError) as exc:
                problem = f"entry {seq} of game {game_id} does not decode: {exc}"
        raise explain("corrupt", self.path, problem, operation=operation, writing=False)

    # -- games and their log ---------------------------------------------------------------------

    def start_game(
        self,
        game: str,
        players: list[str],
        options: dict[str, Any],
        seed: int,
        tokens: dict[str, str],
        joins: dict[str, str] | None = None,
        colours: list[str] | None = None,
        *,
        progress: Any = None,
        aside_paused: bool = False,
    ) -> GameRecord:
        """A new game, now at the table; the game that was being played, if any, is set aside
        (kept, resumable; ``aside_paused``: it was paused), in the same transaction."""
        at = now()
        with self._transaction(f"Starting a game of {game}") as db:
            _set_aside(db, at, aside_paused)
            cur = db.execute(
                "INSERT INTO games (game, players, options, seed, tokens, started_at, joins, "
                "colours, progress) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game,
                    json.dumps(players),
                    json.dumps(options),
                    seed,
                    json.dumps(tokens),
                    at,
                    json.dumps(joins or {}),
                    json.dumps(colours or []),
                    _progress(progress),
                ),
            )
            _set_current(db, cur.lastrowid)
        return self.game(cur.lastrowid)

    def resume_game(
        self,
        game_id: int,
        *,
        finished_at: str | None = None,
        aside_paused: bool = False,
        paused: bool = False,
    ) -> GameRecord:
        """The set-aside game ``game_id`` is at the table again (``finished_at``: its log says
        it is over; ``paused``: paused again, as it was set aside); the game being played, if
        any, is set aside in the same transaction (``aside_paused``: it was paused)."""
        at = now()
        with self._transaction(f"Resuming game {game_id}") as db:
            _set_aside(db, at, aside_paused, but=game_id)
            db.execute(
                "UPDATE games SET abandoned = 0, ended = 0, paused = 0, finished_at = ? "
                "WHERE id = ?",
                (finished_at, game_id),
            )
            _set_current(db, game_id)
            if paused:
                db.execute(
                    "INSERT OR REPLACE INTO settings (key, value) VALUES ('paused', ?)",
                    (str(game_id),),
                )
            else:
                db.execute("DELETE FROM settings WHERE key = 'paused'")
        return self.game(game_id)

    def set_seats(self, game_id: int, tokens: dict[str, str], joins: dict[str, str]) -> GameRecord:
        """A game's seat tokens and open join codes, after a seat is claimed or handed over."""
        self._write(
            f"Saving the seats of game {game_id}",
            "UPDATE games SET tokens = ?, joins = ? WHERE id = ?",
            (json.dumps(tokens), json.dumps(joins), game_id),
        )
        return self.game(game_id)

    def end_game(self, game_id: int, *, paused: bool = False) -> None:
        """The host ended the game: no game is at the table any more. An unfinished game is
        kept set aside (``ended``, resumable; ``paused``: it was paused); a finished one stays
        finished."""
        with self._transaction(f"Ending game {game_id}") as db:
            db.execute(
                "UPDATE games SET finished_at = ?, abandoned = 1, ended = 1, paused = ? "
                "WHERE id = ? AND finished_at IS NULL",
                (now(), int(paused), game_id),
            )
            _set_current(db, None)

    def current_game(self) -> GameRecord | None:
        """The game at the table: the one the setting ``current_game`` names; in a database
        from before that setting, the latest game unless it was set aside."""
        current = self.setting(CURRENT)
        if current is None:
            record = self.latest_game()
            return None if record is None or record.abandoned else record
        try:
            return self.game(int(current)) if current else None
        except (KeyError, ValueError):
            return None

    def kept_games(self, limit: int = KEEP_LISTED) -> dict[str, list[GameRecord]]:
        """The host's list: the ``limit`` most recent set-aside games (``"unfinished"``) and
        finished games (``"finished"``), newest first."""
        operation = "Reading the kept games"
        found = {}
        for kind, where in (
            ("unfinished", "abandoned = 1"),
            ("finished", "abandoned = 0 AND finished_at IS NOT NULL"),
        ):
            rows = self._read(
                operation,
                f"SELECT {_GAME_COLUMNS} FROM games WHERE {where} ORDER BY id DESC LIMIT ?",
                (limit,),
            )
            found[kind] = [self._game(row, operation) for row in rows]
        return found

    def game(self, game_id: int) -> GameRecord:
        operation = f"Reading game {game_id}"
        rows = self._read(operation, f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise KeyError(game_id)
        return self._game(rows[0], operation)

    def latest_game(self) -> GameRecord | None:
        operation = "Reading the latest game"
        rows = self._read(operation, f"SELECT {_GAME_COLUMNS} FROM games ORDER BY id DESC LIMIT 1")
        return self._game(rows[0], operation) if rows else None

    def games(self) -> list[GameRecord]:
        operation = "Reading the games"
        rows = self._read(operation, f"SELECT {_GAME_COLUMNS} FROM games ORDER BY id")
        return [self._game(row, operation) for row in rows]

    def append(
        self,
        game_id: int,
        seq: int,
        action: dict[str, Any],
        source: str,
        finished: bool,
        progress: Any = None,
    ) -> str:
        """Commit one entry durably, and its mark; ``finished`` records whether the game is over
        after it, ``progress`` where it stands (None: as it was)."""
        at = now()
        text = json.dumps(action)
        with self._transaction(f"Saving entry {seq} of game {game_id}") as db:
            db.execute(
                "INSERT INTO entries (game_id, seq, action, source, at, crc) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, text, source, at, entry_crc(game_id, seq, text, source, at)),
            )
            db.execute(
                "UPDATE games SET finished_at = ? WHERE id = ? AND abandoned = 0",
                (at if finished else None, game_id),
            )
            if progress is not None:
                db.execute(
                    "UPDATE games SET progress = ? WHERE id = ?", (_progress(progress), game_id)
                )
            db.execute("UPDATE meta SET value = value + 1 WHERE key = 'entries'")
        return at

    def entries(self, game_id: int) -> list[Entry]:
        """A game's log in order, each entry checked against its checksum (an entry from before
        checksums is not): a mismatch or an action that does not decode raises
        :class:`StorageError` of kind ``corrupt`` naming the game and the entry."""
        operation = f"Reading the log of game {game_id}"
        rows = self._read(
            operation,
            "SELECT seq, action, source, at, crc FROM entries WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [self._entry(game_id, row, operation) for row in rows]

    def entry_counts(self, game_ids: list[int] | None = None) -> dict[int, int]:
        """How many log entries each game has (of ``game_ids``, or of every game); a game
        without entries is not named. The Plays list keys its summaries on them."""
        if game_ids is None:
            rows = self._read(
                "Counting the games' entries",
                "SELECT game_id, count(*) FROM entries GROUP BY game_id",
            )
        else:
            rows = []
            for start in range(0, len(game_ids), 500):  # SQLite's limit on parameters
                chunk = game_ids[start : start + 500]
                rows += self._read(
                    "Counting the games' entries",
                    f"SELECT game_id, count(*) FROM entries WHERE game_id IN "
                    f"({', '.join('?' * len(chunk))}) GROUP BY game_id",
                    tuple(chunk),
                )
        return {game_id: count for game_id, count in rows}

    def play_summaries(self, game_ids: list[int] | None = None) -> dict[int, str]:
        """The plays' summaries kept by :meth:`keep_play_summary` (of ``game_ids``, or all), by
        game id (JSON texts)."""
        if game_ids is None:
            rows = self._read(
                "Reading the plays' summaries",
                "SELECT key, value FROM settings WHERE key LIKE ?",
                (PLAY_SUMMARY + "%",),
            )
        else:
            rows = []
            for start in range(0, len(game_ids), 500):  # SQLite's limit on parameters
                keys = [f"{PLAY_SUMMARY}{i}" for i in game_ids[start : start + 500]]
                rows += self._read(
                    "Reading the plays' summaries",
                    f"SELECT key, value FROM settings WHERE key IN ({', '.join('?' * len(keys))})",
                    tuple(keys),
                )
        return {int(key[len(PLAY_SUMMARY) :]): value for key, value in rows}

    def keep_play_summary(self, game_id: int, text: str) -> None:
        """Keep a play's summary (a cache of its replayed log, as a JSON text, in the setting
        ``play:<id>``): not marked, since it is made again from the log if it is lost."""
        with self._transaction(f"Keeping the summary of play {game_id}", marked=False) as db:
            db.execute(
                "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
                (f"{PLAY_SUMMARY}{game_id}", text),
            )

    # -- refusals --------------------------------------------------------------------------------

    def refuse(
        self,
        game_id: int | None,
        input_: dict[str, Any],
        source: str,
        rule: str,
        reason: str,
        *,
        seat: int | None = None,
        public: bool = True,
        at: str | None = None,
    ) -> int:
        """Write a refusal; its row, for :meth:`count_refusal` (refusals of one source and rule
        within a second are one row with a count: ``companion.table.refusals``). The reason is
        kept in English and as its message (``message``), to be shown again in any language."""
        cursor = self._write(
            "Saving a refusal",
            "INSERT INTO refusals (game_id, input, source, rule, reason, at, seat, public, "
            "message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                json.dumps(input_),
                source,
                rule,
                str(reason),
                at or now(),
                seat,
                int(public),
                json.dumps(text_data(reason), default=str),
            ),
            marked=False,
        )
        return cursor.lastrowid

    def count_refusal(self, row: int, count: int) -> None:
        """How many refusals the row ``row`` stands for."""
        self._write(
            "Counting refusals",
            "UPDATE refusals SET count = ? WHERE id = ?",
            (count, row),
            marked=False,
        )

    def refusals(self, game_id: int | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """The last ``limit`` refusals (of the game ``game_id``, if given), oldest first."""
        where, args = ("WHERE game_id = ?", (game_id,)) if game_id is not None else ("", ())
        return self._refusal_rows(where, args, limit)

    def shown_refusals(self, game_id: int | None, limit: int) -> list[dict[str, Any]]:
        """The last ``limit`` refusals the pages showed while the game ``game_id`` was at the
        table (None: while no game was), oldest first: the public ones."""
        where = "WHERE public = 1 AND " + (
            "game_id = ?" if game_id is not None else "game_id IS NULL"
        )
        return self._refusal_rows(where, (game_id,) if game_id is not None else (), limit)

    def _refusal_rows(self, where: str, args: tuple, limit: int) -> list[dict[str, Any]]:
        operation = "Reading the refusals"
        rows = self._read(
            operation,
            "SELECT game_id, input, source, rule, reason, at, count, seat, public, message "
            f"FROM refusals {where} ORDER BY id DESC LIMIT ?",
            (*args, limit),
        )
        with self._storage_errors(operation, writing=False):
            return [
                {
                    "game_id": g,
                    "input": json.loads(i),
                    "source": s,
                    "rule": r,
                    "reason": from_text_data(json.loads(message)) if message else why,
                    "at": at,
                    "count": n,
                    "seat": seat,
                    "public": bool(public),
                }
                for g, i, s, r, why, at, n, seat, public, message in reversed(rows)
            ]

    # -- tags ------------------------------------------------------------------------------------

    def tags(self) -> dict[str, tuple[str, str]]:
        return {
            uid: (game, comp)
            for uid, game, comp in self._read(
                "Reading the stickers", "SELECT uid, game, component FROM tags ORDER BY uid"
            )
        }

    def put_tags(self, tags: dict[str, tuple[str, str]], replace: bool = False) -> None:
        at = now()
        with self._transaction("Saving the stickers") as db:
            if replace:
                db.execute("DELETE FROM tags")
            db.executemany(
                "INSERT OR REPLACE INTO tags (uid, game, component, enrolled_at) "
                "VALUES (?, ?, ?, ?)",
                [(uid, game, comp, at) for uid, (game, comp) in tags.items()],
            )

    def forget_tag(self, uid: str) -> bool:
        return (
            self._write(
                f"Forgetting sticker {uid}", "DELETE FROM tags WHERE uid = ?", (uid,)
            ).rowcount
            > 0
        )

    # -- settings --------------------------------------------------------------------------------

    def setting(self, key: str) -> str | None:
        rows = self._read(
            f"Reading the setting {key}", "SELECT value FROM settings WHERE key = ?", (key,)
        )
        return rows[0][0] if rows else None

    def set_setting(self, key: str, value: str) -> None:
        self._write(
            f"Saving the setting {key}",
            "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
            (key, value),
        )

    def drop_setting(self, key: str) -> None:
        self._write(f"Removing the setting {key}", "DELETE FROM settings WHERE key = ?", (key,))

    # -- sessions --------------------------------------------------------------------------------

    def add_session(self, token_hash: str, role: str) -> None:
        self._write(
            "Saving a host session",
            "INSERT OR REPLACE INTO sessions (token_hash, role, created_at) VALUES (?, ?, ?)",
            (token_hash, role, now()),
            marked=False,
        )

    def session_role(self, token_hash: str) -> str | None:
        rows = self._read(
            "Reading a host session",
            "SELECT role FROM sessions WHERE token_hash = ?",
            (token_hash,),
        )
        return rows[0][0] if rows else None

    def drop_session(self, token_hash: str) -> bool:
        return (
            self._write(
                "Removing a host session",
                "DELETE FROM sessions WHERE token_hash = ?",
                (token_hash,),
                marked=False,
            ).rowcount
            > 0
        )

    def count_sessions(self, role: str) -> int:
        return self._read(
            "Counting the host sessions", "SELECT COUNT(*) FROM sessions WHERE role = ?", (role,)
        )[0][0]

    def _game(self, row: tuple, operation: str) -> GameRecord:
        with self._storage_errors(operation, writing=False):
            return _game(row)


def _set_aside(db: Any, at: str, paused: bool, but: int | None = None) -> None:
    """Set aside the game being played, if any (unfinished, kept, resumable)."""
    db.execute(
        "UPDATE games SET finished_at = ?, abandoned = 1, ended = 0, paused = ? "
        "WHERE finished_at IS NULL AND id IS NOT ?",
        (at, int(paused), but),
    )


def _set_current(db: Any, game_id: int | None) -> None:
    db.execute(
        "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
        (CURRENT, "" if game_id is None else str(game_id)),
    )


def _progress(progress: Any) -> str | None:
    return None if progress is None else json.dumps(text_data(progress), default=str)


def _game(row: tuple) -> GameRecord:
    gid, game, players, options, seed, tokens, started, finished, abandoned, joins, colours = row[
        :11
    ]
    ended, progress, paused = row[11:]
    return GameRecord(
        gid,
        game,
        json.loads(players),
        json.loads(options),
        seed,
        json.loads(tokens),
        started,
        finished,
        bool(abandoned),
        json.loads(joins) if joins else {},
        json.loads(colours) if colours else [],
        bool(ended),
        from_text_data(json.loads(progress)) if progress else None,
        bool(paused),
    )
