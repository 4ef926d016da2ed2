"""Kept games (a part of :class:`~.runtime.Table`): no game is ever lost by accident.

A game at the table that is not over is *set aside* when another one starts or is resumed, or
when the host ends it: kept with its log, its refusals, its seats' tokens and its pause, and
resumable. Resuming replays its log (:meth:`KeptGames._replay`, the same replay as a restart), so
the game comes back exactly as it was, and its players' links and claims work again.

Setting aside a game that is being played needs the host's confirmation: a request without it is
refused (``CONFIRM``) with the running game's title and where it stands (its rules'
``progress``), so the host page can ask "A game of … is running (turn 15). Set it aside…?".
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

from ..games import get_game, plugin
from ..i18n import reason_of, t
from ..rules import Refusal, SetupError
from . import inputs as rules_inputs
from .history import History
from .store import KEEP_LISTED, GameRecord, now

log = logging.getLogger("companion.table")

CONFIRM = "TABLE-GAME-4"
NOT_KEPT = "TABLE-GAME-5"


class KeptGames:
    """Confirmation before a game is set aside, the list of kept games and their resumption;
    mixed into :class:`~.runtime.Table`."""

    # -- the running game and the confirmation ---------------------------------------------

    def running_game(self) -> dict[str, Any] | None:
        """The game being played (started, not over), as the confirmation names it; None."""
        with self._lock:
            record, history = self.record, self.history
            if record is None or history is None or history.game.outcome(history.state).finished:
                return None
            return {
                "id": record.id,
                "game": record.game,
                "title": history.game.title,
                "progress": history.game.progress(history.state),
            }

    def _unconfirmed(self, source: str, raw: dict[str, Any], confirm: Any, resuming: bool):
        """The refusal of a request that would set the running game aside without the host's
        confirmation (``confirm`` is not ``True``); None when it may go on. Quiet: the host's
        page asks, the players' phones hear nothing of it."""
        running = self.running_game()
        if running is None or confirm is True:
            return None
        values = {"game": running["title"], "progress": running["progress"]}
        if running["progress"] is None:
            reason = (
                t("A game of {game} is running. Set it aside and resume the other one?", **values)
                if resuming
                else t("A game of {game} is running. Set it aside and start a new one?", **values)
            )
        elif resuming:
            reason = t(
                "A game of {game} is running ({progress}). Set it aside and resume the other "
                "one? It is kept: you can resume it.",
                **values,
            )
        else:
            reason = t(
                "A game of {game} is running ({progress}). Set it aside and start a new one? It "
                "is kept: you can resume it.",
                **values,
            )
        answer = self.refuse_quietly(source, CONFIRM, reason, raw)
        return answer | {"running": running}

    # -- the list ----------------------------------------------------------------------------

    def kept_games(self, limit: int = KEEP_LISTED) -> dict[str, Any]:
        """The host's list of games: the ``limit`` most recent set-aside (unfinished, resumable)
        and finished games, newest first, and the id of the game at the table. Safe from any
        thread (it reads the store)."""
        kept = self.store.kept_games(limit)
        current = self.record.id if self.record is not None else None
        return {
            "current": current,
            "unfinished": [_listed(r, current) for r in kept["unfinished"]],
            "finished": [_listed(r, current) for r in kept["finished"]],
            "limit": limit,
        }

    def kept_game_for_token(self, token: Any) -> GameRecord | None:
        """The set-aside game (of the listed ones) a seat's token belonged to, if any: its page
        then says the game is no longer at the table."""
        if not isinstance(token, str) or not token:
            return None
        given = token.encode("utf-8", "surrogatepass")
        for record in self.store.kept_games()["unfinished"]:
            if any(secrets.compare_digest(mine.encode(), given) for mine in record.tokens.values()):
                return record
        return None

    # -- resuming --------------------------------------------------------------------------

    def _replay(self, record: GameRecord) -> tuple[History, int, list] | SetupError:
        """A kept game replayed from its log: its history, its last entry's number and the
        events of each entry (with their moments); the game's own reason (a SetupError) when it
        cannot be set up any more: a data set no longer configured, or changed since (the
        game's rules say so, e.g. naming the data's fingerprints then and now)."""
        try:
            history = History(get_game(record.game), record.players, record.options, record.seed)
        except SetupError as exc:
            log.error("game %s (%s) cannot be resumed: %s", record.id, record.game, exc)
            return exc
        seq, events = 0, []
        for entry in self.store.entries(record.id):
            seq = entry.seq
            result = history.submit(entry.action)
            if isinstance(result, Refusal):  # only if the rules changed since the entry was made
                log.error(
                    "game %s entry %s no longer accepted: %s", record.id, entry.seq, result.reason
                )
                continue
            events.append((result.events, entry.at))
        return history, seq, events

    def _op_resume_game(self, source: str, game_id: Any, confirm: Any = False) -> dict[str, Any]:
        """The host resumes a set-aside game exactly as it was (its log replayed); the game
        being played, if any, is set aside (after the host's confirmation)."""
        raw = {"kind": "request", "resume_game": game_id if isinstance(game_id, int) else None}
        if isinstance(game_id, bool) or not isinstance(game_id, int):
            return self._refuse(
                raw, source, rules_inputs.BAD_REQUEST, t("Say which game to resume (its id).")
            )
        try:
            record = self.store.game(game_id)
        except KeyError:
            record = None
        if record is None or not record.abandoned:
            return self._refuse(
                raw,
                source,
                NOT_KEPT,
                t("There is no set-aside game {id} to resume.", id=game_id),
            )
        refused = self._unconfirmed(source, raw, confirm, resuming=True)
        if refused is not None:
            return refused
        replayed = self._replay(record)
        if isinstance(replayed, SetupError):
            return self._refuse(
                raw,
                source,
                NOT_KEPT,
                t(
                    "Game {id} cannot be set up any more, so it cannot be resumed: {problem}.",
                    id=game_id,
                    problem=reason_of(replayed),
                ),
            )
        history, seq, events = replayed
        over = history.game.outcome(history.state).finished
        finished_at = (events[-1][1] if events else now()) if over else None
        title = history.game.title
        aside, paused = self.running_game(), record.paused
        record = self.store.resume_game(
            game_id,
            finished_at=finished_at,
            aside_paused=self.paused and aside is not None,
            paused=paused,
        )
        with self._lock:
            self.record, self.history, self._seq = record, history, seq
            self.paused = paused
            self.put_back_list = None  # a resumed game has nothing to put back
            self.events.clear()
            self.cues.clear()
            for happened, at in events:
                self._keep_events(happened, at)
            self.refusal_log.show_game(record.id)  # the resumed game's own, again
            self._note(
                {
                    "type": "game_resumed",
                    "text": t("The host resumed the game of {game}.", game=title),
                }
            )
        self._show_leds()
        self._follow_actuators()
        return {"ok": True, "game_id": record.id, "set_aside": aside["id"] if aside else None}


def _listed(record: GameRecord, current: int | None) -> dict[str, Any]:
    """A kept game as the host's list shows it."""
    try:
        title, known = plugin(record.game).title, True
    except (SetupError, KeyError, ValueError):  # a game this companion no longer has
        title, known = record.game, False
    if record.finished:
        state, label = "finished", t("finished")
    elif record.ended:
        state, label = "ended", t("ended by the host")
    else:
        state, label = "set_aside", t("set aside")
    return {
        "id": record.id,
        "game": record.game,
        "title": title,
        "players": list(record.players),
        "started_at": record.started_at,
        "left_at": record.finished_at,
        "progress": record.progress,
        "state": state,
        "state_text": label,
        "paused": record.paused,
        "current": record.id == current,
        "resumable": known and record.abandoned,
    }
