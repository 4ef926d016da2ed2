"""The plays leave the table: BG Stats' "push a play" link, and every play as JSON or CSV.

BG Stats documents a link that opens its import dialog with one play
(``https://app.bgstatsapp.com/createPlay.html?data=<data>``, ``<data>`` the URL-encoded JSON of
the play): :func:`bgstats_payload` builds that JSON from a :class:`~.plays.Play` and
:func:`bgstats_link` the link. ``docs/plays.md`` describes the payload and both downloads.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import asdict
from datetime import datetime
from typing import Any
from urllib.parse import quote

from .plays import Play

BGSTATS_LINK = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE_NAME = "companion"
#: the CSV's columns, in order (players, winners, scores and options are JSON texts: a name
#: may hold any character, and a spreadsheet still reads them)
CSV_COLUMNS = (
    "id",
    "game",
    "title",
    "started_at",
    "ended_at",
    "duration",
    "players",
    "data_set",
    "finished",
    "winners",
    "scores",
    "start_player",
    "actions",
    "options",
)


def ranks(play: Play) -> dict[str, int]:
    """Each player's rank: the winners first (1); the others after them by score, highest
    first, equal scores sharing a rank; without scores, every other player shares the next."""
    winners = [p for p in play.players if p in play.winners]
    others = [p for p in play.players if p not in play.winners]
    found = {p: 1 for p in winners}
    first = 2 if winners else 1
    scored = sorted(others, key=lambda p: -(play.scores.get(p) or 0))
    for index, player in enumerate(scored):
        before = scored[index - 1] if index else None
        if before is not None and (play.scores.get(before) or 0) == (play.scores.get(player) or 0):
            found[player] = found[before]
        else:
            found[player] = first + index
    return found


def play_date(moment: str) -> str:
    """BG Stats' ``playDate``: ``YYYY-MM-DD HH:MM:SS``, in the table's local time (the log keeps
    UTC; the phone that opens the link is at the table)."""
    return datetime.fromisoformat(moment).astimezone().strftime("%Y-%m-%d %H:%M:%S")


def bgstats_payload(play: Play, title: str, bgg_id: int | None = None) -> dict[str, Any]:
    """The play in BG Stats' documented import format (only a finished play is worth logging,
    but any play can be written: an unfinished one has no winner)."""
    no_points = all(play.scores.get(p) is None for p in play.players)
    rank = ranks(play)
    game: dict[str, Any] = {
        "name": title,
        "highestWins": True,
        "noPoints": no_points,
        "sourceGameId": play.game,
    }
    if bgg_id is not None:
        game["bggId"] = bgg_id
    players = []
    for name in play.players:
        player: dict[str, Any] = {
            "name": name,
            "startPlayer": name == play.start_player,
            "winner": name in play.winners,
            "rank": rank[name],
            "role": "",
        }
        if not no_points and play.scores.get(name) is not None:
            player["score"] = play.scores[name]
        players.append(player)
    payload: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": str(play.id),
        "playDate": play_date(play.started_at),
        "board": play.data_set or "",
        "game": game,
        "players": players,
    }
    if play.duration is not None:
        payload["durationMin"] = max(1, round(play.duration / 60))
    return payload


def bgstats_link(play: Play, title: str, bgg_id: int | None = None) -> str:
    """The link that opens BG Stats' import dialog with ``play``."""
    data = json.dumps(
        bgstats_payload(play, title, bgg_id), ensure_ascii=False, separators=(",", ":")
    )
    return BGSTATS_LINK + quote(data, safe="")


def play_json(play: Play, title: str) -> dict[str, Any]:
    """One play as the JSON download holds it: every field of :class:`Play`, and the title."""
    return {"title": title, **asdict(play)}


def plays_json(plays: list[Play], titles: dict[str, str]) -> str:
    """Every play, newest first, as the JSON download (``{"plays": [...]}``)."""
    body = {"format": "companion-plays", "version": 1}
    body["plays"] = [play_json(p, titles.get(p.game, p.game)) for p in plays]
    return json.dumps(body, ensure_ascii=False, indent=1)


#: a text cell a spreadsheet would read as a formula (``=``, ``+``, ``-``, ``@``, a tab or a
#: carriage return first, after any apostrophes) gets one apostrophe before it
FORMULA = re.compile(r"'*[=+\-@\t\r]")


def csv_text(value: str) -> str:
    """A text as a CSV cell: a name like ``=HYPERLINK(…)`` is not run by a spreadsheet."""
    return "'" + value if FORMULA.match(value) else value


def csv_read_text(cell: str) -> str:
    """What :func:`csv_text` wrote, read back."""
    return cell[1:] if cell.startswith("'") and FORMULA.match(cell[1:]) else cell


def plays_csv(plays: list[Play], titles: dict[str, str]) -> str:
    """Every play, newest first, as the CSV download: one row a play (``CSV_COLUMNS``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for play in plays:
        writer.writerow(
            [
                play.id,
                play.game,
                csv_text(titles.get(play.game, play.game)),
                play.started_at,
                play.ended_at or "",
                "" if play.duration is None else play.duration,
                _json(play.players),
                csv_text(play.data_set or ""),
                "yes" if play.finished else "no",
                _json(play.winners),
                _json(play.scores),
                csv_text(play.start_player or ""),
                play.actions,
                _json(play.options),
            ]
        )
    return out.getvalue()


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
