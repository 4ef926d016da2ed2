"""Who sits where (a part of :class:`~.runtime.Table`): each seat's token (a phone's key to its
seat, in the player's private link) and the one-time join code of a seat no phone has claimed
yet; a phone claiming a seat with its code, the host handing a seat over to another phone, and
which player a token or a join code belongs to. The requests run on the table loop.
"""

from __future__ import annotations

import secrets
from typing import Any

from ..i18n import t
from . import inputs as rules_inputs

BAD_JOIN = "TABLE-JOIN-1"
BAD_SEAT = "INPUT-3"


def new_token() -> str:
    """A seat's key: 256 random bits, in the player's private link."""
    return secrets.token_urlsafe(32)


def new_join_code() -> str:
    """A seat's one-time join code (128 random bits), spent when a phone claims the seat."""
    return secrets.token_urlsafe(16)


class Seats:
    """Seat tokens and join codes: claims, hand-overs and lookups; mixed into
    :class:`~.runtime.Table`."""

    def player_for_join(self, code: Any) -> str | None:
        """The player whose seat the join code ``code`` opens (a seat no phone has taken)."""
        record = self.record
        if record is None or not isinstance(code, str) or not code:
            return None
        given = code.encode("utf-8", "surrogatepass")
        return next(
            (p for p, c in record.joins.items() if secrets.compare_digest(c.encode(), given)), None
        )

    def viewer_for_token(self, token: Any) -> str | None:
        """The player a seat's token belongs to, in the current game (anything that is not a
        token, non-ASCII text included, belongs to nobody)."""
        if self.record is None or not isinstance(token, str) or not token:
            return None
        given = token.encode("utf-8", "surrogatepass")
        for player, seat_token in self.record.tokens.items():
            if secrets.compare_digest(seat_token.encode(), given):
                return player
        return None

    def _op_claim_seat(self, source: str, code: str) -> dict[str, Any]:
        """A phone scanned a seat's join code: the seat is its own from now on (the code is
        spent), and the answer carries the seat's token."""
        raw = {"kind": "request", "claim_seat": True}  # never the code itself: it is a secret
        record = self.record
        player = self.player_for_join(code)
        if player is None or record is None:
            return self._refuse(
                raw,
                source,
                BAD_JOIN,
                "This join code is not valid any more: "
                "its seat was taken, or a new game began. Ask the host to hand "
                "the seat over.",
            )
        joins = {p: c for p, c in record.joins.items() if p != player}
        self._set_seats(record.tokens, joins)
        self._note(
            {
                "type": "seat_claimed",
                "text": t("{player}'s phone joined.", player=player),
                "player": player,
            }
        )
        return {"ok": True, "player": player, "token": record.tokens[player]}

    def _op_hand_over(self, source: str, player: str) -> dict[str, Any]:
        """The host hands a seat to another phone: its old link stops working at once, and the
        seat gets a new join code."""
        raw = {"kind": "request", "hand_over": player}
        record = self.record
        if record is None:
            return self._refuse(raw, source, rules_inputs.NO_GAME, t("No game is being played."))
        if player not in record.tokens:
            return self._refuse(
                raw, source, BAD_SEAT, t("{player} is not at this table.", player=str(player)[:40])
            )
        tokens = dict(record.tokens) | {player: new_token()}
        joins = dict(record.joins) | {player: new_join_code()}
        self._set_seats(tokens, joins)
        self._note(
            {
                "type": "seat_handed_over",
                "player": player,
                "text": t(
                    "{player}'s seat can be joined again, from its code on the table "
                    "display; the old link no longer works.",
                    player=player,
                ),
            }
        )
        return {"ok": True, "player": player}

    def _set_seats(self, tokens: dict[str, str], joins: dict[str, str]) -> None:
        assert self.record is not None
        record = self.store.set_seats(self.record.id, tokens, joins)
        with self._lock:
            self.record = record
            self._bump()
