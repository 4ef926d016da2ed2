"""Which seat a host plays: the simulated table's panel is blind for that seat's player.

A host is usually a player too. The simulated table's panel (``simulation.py``) shows the physical
world, every stone face, so a host who plays a seat must see it as that seat's player would: the
panel is *blind* for that player (their own rack unseen, the hands choosing unseen for them).
Which seat a host session plays is kept per host session and per game, in the table's settings
(``plays/<hash of the session's token>``), for the last ``KEEP_GAMES`` games:

* **held**: a phone signed in as host (its host cookie) that claims a seat with its join code, or
  opens its claimed seat's page, plays that seat from then on. While that phone holds the seat
  (the seat's token is the one it opened), the host session cannot choose otherwise: the panel
  stays blind for the seat the phone holds (``TABLE-SIM-1``). A seat handed over to another
  phone is no longer held, and the host may choose again;
* **chosen**: on the host's page, "I play as" names the seat (or nobody), for a host who plays on
  another phone than the one with the host's page.
"""

from __future__ import annotations

import hmac
import json
import logging
from dataclasses import dataclass
from typing import Any

from flask import current_app, request

from ..i18n import t
from ..table.storage import StorageError
from .access import hashed
from .common import HOST_COOKIE, access, table

log = logging.getLogger(__name__)

KEEP_GAMES = 8  #: the games whose seat a host session remembers (the latest)
HELD = "TABLE-SIM-1"


@dataclass(frozen=True)
class Plays:
    """The seat a host session plays in the game being played: ``player`` (None: none), and
    whether the session's phone holds that seat (then it cannot choose another)."""

    player: str | None = None
    held: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "held": self.held}


def _remembered() -> dict[str, dict[str, Any]]:
    """This server's copy of what it wrote (a session's key -> its games), so a write the disk
    refused still blinds the panel until the companion restarts."""
    return current_app.extensions["companion"].setdefault("plays", {})


def _key(token: str) -> str:
    return f"plays/{hashed(token)}"


def _entries(token: str) -> dict[str, Any]:
    key = _key(token)
    if key in _remembered():
        return _remembered()[key]
    try:
        raw = access().store.setting(key)
        entries = json.loads(raw) if raw else {}
    except (StorageError, ValueError):
        entries = {}
    return entries if isinstance(entries, dict) else {}


def plays(token: str) -> Plays:
    """The seat the host session ``token`` plays in the game being played."""
    record = table().record
    if record is None:
        return Plays()
    entry = _entries(token).get(str(record.id))
    if not isinstance(entry, dict) or entry.get("player") not in record.players:
        return Plays()
    player = entry["player"]
    seat = record.tokens.get(player)
    held = (
        isinstance(entry.get("seat"), str)
        and seat is not None
        and hmac.compare_digest(entry["seat"], hashed(seat))
    )
    return Plays(player, held)


def _save(token: str, player: str | None, seat: str | None) -> None:
    record = table().record
    if record is None:
        return
    entries = {game: entry for game, entry in _entries(token).items() if game.isdigit()} | {
        str(record.id): {"player": player, "seat": seat}
    }
    kept = dict(sorted(entries.items(), key=lambda item: int(item[0]))[-KEEP_GAMES:])
    _remembered()[_key(token)] = kept
    try:
        access().store.set_setting(_key(token), json.dumps(kept))
    except StorageError as exc:  # remembered until a restart; the table shows the disk's fault
        log.warning("which seat a host plays was not saved: %s", exc)


def seat_opened(player: str, seat_token: str) -> None:
    """A phone claimed the seat ``seat_token`` of ``player``, or opened its page: if the phone is
    signed in as host (its host cookie), that host session plays the seat, held."""
    host = request.cookies.get(HOST_COOKIE, "")
    if not host or not access().is_host(host):
        return
    if plays(host) == Plays(player, True):
        return  # known: nothing to write
    _save(host, player, hashed(seat_token))


def choose(token: str, player: Any) -> dict[str, Any]:
    """The host says which seat they play (``None``: none); refused while their phone holds
    another seat, or for a name that is no seat of the game."""
    record = table().record
    if record is None:
        return {"ok": False, "rule": "TABLE-GAME-1", "reason": t("No game is being played.")}
    if player is not None and player not in record.players:
        return {
            "ok": False,
            "rule": "INPUT-3",
            "reason": t("{player} has no seat in this game.", player=str(player)[:40]),
        }
    current = plays(token)
    if current.held and player != current.player:
        return {
            "ok": False,
            "rule": HELD,
            "reason": t(
                "This phone holds {player}'s seat: the simulated table stays blind for {player} "
                "while it does. Hand the seat over to another phone first.",
                player=current.player,
            ),
        }
    if player != current.player:
        _save(token, player, None)
    return {"ok": True, "plays": plays(token).to_json()}


def forget(token: str) -> None:
    """A host session signed out: what it played is forgotten."""
    _remembered().pop(_key(token), None)
    try:
        access().store.drop_setting(_key(token))
    except StorageError as exc:
        log.warning("which seat a signed-out host played was not forgotten: %s", exc)
