"""The Statistics page: who wins what at this table, per player, per game and per player at each
game, with charts drawn on the server (``companion.web.charts``) and a chart of each finished
play's scores over its actions.

Two addresses show it, with the same content: the host's (``/host/<token>/statistics``) and the
table display's (``/table/statistics``, only for the screen that opened the display link, like
the Plays pages: a phone gets 403). It holds only game facts anyone at the table saw: the
numbers of finished plays (winners and scores as their rules' outcome says at the end), and of a
play not finished only that it was played. The page charts a finished play (``?play=<id>``);
``…/plays/<id>/chart.svg`` draws any kept play's chart alone, for the Plays pages: every
player's score after each action, public at every step (a game's ``indistinguishable`` keeps
its ``outcome``: the secrets harness holds every registered game to it).

Its plays come from :class:`PlaySources`, set once when the app is made (``create_app``): by
default the store's plays (:mod:`companion.table.plays`); the tests give their own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, current_app, render_template, request, url_for
from markupsafe import Markup

from ..i18n import t
from ..rules import SetupError
from ..table.plays import Play, Point
from ..table.statistics import Statistics, Tally, statistics
from . import numbers
from .charts import Bars, figure, line_svg, play_chart, play_lines
from .common import access, forbidden, message_page, table, translator
from .host import check_host
from .public import DISPLAY_COOKIE

#: finished plays offered in the page's list of plays to chart (the newest)
PLAYS_LISTED = 50
#: the longest ``?play=`` value read (an id is a few digits)
MAX_QUERY = 12


@dataclass(frozen=True)
class PlaySources:
    """Where the page gets its plays: ``plays(table)`` lists them, ``series(table, play_id)``
    gives one play's scores after each action."""

    plays: Callable[[Any], list[Play]]
    series: Callable[[Any, int], list[Point]]


def stored_plays(table: Any) -> list[Play]:
    """Every play kept in the table's store, as the Plays pages read them (one reader per app,
    with its caches: ``companion.web.plays``)."""
    from . import plays

    return plays.plays().all()


def stored_series(table: Any, play_id: int) -> list[Point]:
    """A stored play's scores after each of its actions."""
    from . import plays

    return plays.plays().series(play_id)


STORED = PlaySources(stored_plays, stored_series)


def sources() -> PlaySources:
    return current_app.extensions["companion"]["play_sources"]


host_bp = Blueprint("statistics_host", __name__, url_prefix="/host/<token>/statistics")
table_bp = Blueprint("statistics_table", __name__, url_prefix="/table/statistics")


@host_bp.url_value_preprocessor
def _check_token(endpoint, values):
    check_host((values or {}).get("token", ""))


@host_bp.get("")
def host_page(token: str):
    return _page(
        back=url_for("host.page", token=token),
        back_text=t("Back to the host page"),
        chart_url=lambda play_id: url_for("statistics_host.chart", token=token, play_id=play_id),
    )


@host_bp.get("/plays/<int:play_id>/chart.svg")
def chart(token: str, play_id: int):
    return _chart(play_id)


@table_bp.before_request
def _check_display():
    """Only the table display's screen (its cookie) sees the table's statistics: a phone on the
    table's network that opens ``/table`` sees the game, not this."""
    if not access().is_display(request.cookies.get(DISPLAY_COOKIE)):
        return message_page(
            403,
            t("Only the table display"),
            t("The statistics are shown on the table display and the host's page."),
        )
    return None


@table_bp.get("")
def table_page():
    return _page(
        back=url_for("public.table_page"),
        back_text=t("Back to the table"),
        chart_url=lambda play_id: url_for("statistics_table.table_chart", play_id=play_id),
    )


@table_bp.get("/plays/<int:play_id>/chart.svg")
def table_chart(play_id: int):
    return _chart(play_id)


# -- what the page shows ---------------------------------------------------------------------------


def _page(back: str, back_text: str, chart_url: Callable[[int], str]) -> tuple[str, int]:
    tr = translator()
    plays = sources().plays(table())
    stats = statistics(plays)
    finished = sorted(
        (play for play in plays if play.finished),
        key=lambda play: (play.ended_at or play.started_at, play.id),
        reverse=True,
    )
    status, note, chosen = _chosen(request.args.get("play"), finished)
    play_figure = None
    if chosen is not None:
        play_figure = Markup(play_chart(chosen, _series(chosen), _play_labels(chosen), _number))
    return render_template(
        "statistics.html",
        back=back,
        back_text=tr(back_text),
        note=tr(note) if note is not None else None,
        stats=stats,
        players=_player_rows(stats),
        games=_game_rows(stats),
        player_games=_player_game_rows(stats),
        wins_chart=_wins_chart(stats),
        games_chart=_games_chart(stats),
        listed=[_play_option(play) for play in finished[:PLAYS_LISTED]],
        chosen=chosen.id if chosen is not None else None,
        play_figure=play_figure,
        chart_url=chart_url(chosen.id) if chosen is not None else None,
    ), status


def _chosen(asked: str | None, finished: list[Play]) -> tuple[int, Any, Play | None]:
    """The play to chart: the one asked for (``?play=<id>``), else the newest finished; with the
    page's status and what to say when the one asked for cannot be charted."""
    newest = finished[0] if finished else None
    if asked is None:
        return 200, None, newest
    if len(asked) > MAX_QUERY or not asked.isdigit() or not asked.isascii():
        return 400, t("Say which play to chart by its number."), newest
    found = next((play for play in finished if play.id == int(asked)), None)
    if found is None:
        return 404, t("No finished play has the number {n}.", n=int(asked)), newest
    return 200, None, found


def _series(play: Play) -> list[Point]:
    return sources().series(table(), play.id)


def _chart(play_id: int) -> Response | tuple[Response, int]:
    """One play's chart alone, as an SVG image (404 for a play there is not). A play still at
    the table has one too: the scores are public at every step (``docs/statistics.md``)."""
    play = next((p for p in sources().plays(table()) if p.id == play_id), None)
    if play is None:
        return forbidden(t("There is no play {n}.", n=play_id), 404)
    lines = play_lines(play, _series(play), _play_labels(play), _number)
    response = Response(line_svg(lines, standalone=True), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"
    return response


def _play_labels(play: Play) -> dict[str, str]:
    tr = translator()
    return {
        "title": tr(t("Scores over play {n}, {game}", n=play.id, game=_title(play.game))),
        "x": tr(t("Action")),
        "y": tr(t("Score")),
        "numbers": tr(t("The numbers")),
        "action": tr(t("Action")),
        "empty": tr(t("No scores to draw")),
    }


def _title(game: str) -> str:
    """A game's name, or its id when this companion no longer has it."""
    try:
        return str(table().game_plugin(game).title)
    except SetupError:
        return game


def _number(value: float) -> str:
    return numbers.number(value)


def _rate(rate: float | None) -> str:
    return "–" if rate is None else numbers.percent(rate)


def _score(value: float | None) -> str:
    return "–" if value is None else _number(value)


def duration_text(seconds: float | None) -> Any:
    """A duration in words: "45 s", "25 min", "1 h 05 min" ("–" when unknown)."""
    if seconds is None:
        return "–"
    whole = round(seconds)
    if whole < 60:
        return t("{n} s", n=whole)
    minutes = round(whole / 60)
    if minutes < 60:
        return t("{n} min", n=minutes)
    hours, rest = divmod(minutes, 60)
    return t("{h} h {m} min", h=hours, m=str(rest).zfill(2))


def _tally_cells(tally: Tally) -> dict[str, Any]:
    tr = translator()
    return {
        "plays": tally.plays,
        "finished": tally.finished,
        "wins": tally.wins,
        "ties": tally.ties,
        "rate": _rate(tally.win_rate),
        "average": _score(tally.average_score),
        "best": _score(tally.best_score),
        "duration": tr(duration_text(tally.average_duration)),
    }


def _player_rows(stats: Statistics) -> list[dict[str, Any]]:
    return [{"name": name} | _tally_cells(tally) for name, tally in stats.players.items()]


def _game_rows(stats: Statistics) -> list[dict[str, Any]]:
    return [
        {"title": _title(game), "best_by": ", ".join(told.best_by), "no_winner": told.no_winner}
        | _tally_cells(told.tally)
        for game, told in stats.games.items()
    ]


def _player_game_rows(stats: Statistics) -> list[dict[str, Any]]:
    """Per game, its players' rows (ranked as on the players' table)."""
    out = []
    for game in stats.games:
        rows = [
            {"name": name} | _tally_cells(games[game])
            for name, games in stats.player_games.items()
            if game in games
        ]
        out.append({"title": _title(game), "rows": rows})
    return out


def _wins_chart(stats: Statistics) -> Markup | None:
    tr = translator()
    rated = [(name, tally) for name, tally in stats.players.items() if tally.win_rate is not None]
    if not rated:
        return None
    bars = Bars(
        title=tr(t("Win rate per player")),
        labels=[name for name, _ in rated],
        values=[100 * (tally.win_rate or 0) for _, tally in rated],
        axis=tr(t("Finished plays won (%)")),
        top=100,
        fmt=lambda value: numbers.percent(value / 100),
    )
    headers = [tr(t("Player")), tr(t("Win rate"))]
    return Markup(figure(bars, tr(t("The numbers")), headers=headers))


def _games_chart(stats: Statistics) -> Markup | None:
    tr = translator()
    if not stats.games:
        return None
    bars = Bars(
        title=tr(t("Plays per game")),
        labels=[_title(game) for game in stats.games],
        values=[told.tally.plays for told in stats.games.values()],
        axis=tr(t("Plays")),
        fmt=_number,
    )
    headers = [tr(t("Game")), tr(t("Plays"))]
    return Markup(figure(bars, tr(t("The numbers")), headers=headers))


def _play_option(play: Play) -> dict[str, Any]:
    return {
        "id": play.id,
        "game": _title(play.game),
        "date": _date(play.ended_at or play.started_at),
        "players": ", ".join(play.players),
    }


def _date(iso: str) -> str:
    return numbers.date(iso)
