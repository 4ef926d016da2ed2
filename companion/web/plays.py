"""The Plays pages: every game ever set up at this table, listed, filtered, and stepped through
from start to end; the BG Stats link of a finished play; every play as JSON or CSV.

Two places show them, and no player's phone: the host's (``/host/<token>/plays``) and the table
display's (``/table/plays``, only on the screen that opened the display link: its cookie). A
step is the table display's own view of the state after that many actions (``game.view(state,
TABLE)``): what the table showed then, never more; a finished play's last step shows what the
table showed at its end. The downloads are the host's only. ``docs/plays.md`` tells the whole.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request, url_for

from ..i18n import DEFAULT, has_text, t, translate
from ..lights import SEAT_COLOURS
from ..rules import SetupError
from ..table.play_exports import bgstats_link, plays_csv, plays_json
from ..table.plays import PAGE_SIZE, Play, Plays
from .common import access, catalog, data_words, message_page, select_locale, table, translator
from .host import check_host
from .public import DISPLAY_COOKIE

MAX_NAME = 64  #: the longest player name a filter may give (names are shorter)
MAX_PAGE = 10_000

host_bp = Blueprint("host_plays", __name__, url_prefix="/host/<token>/plays")
table_bp = Blueprint("table_plays", __name__, url_prefix="/table/plays")


@host_bp.url_value_preprocessor
def _check_host(endpoint, values):
    check_host((values or {}).get("token", ""))


@table_bp.before_request
def _check_display():
    """Only the table display's screen (its cookie) sees its Plays pages: a phone on the
    table's network that opens ``/table`` sees the game, not this."""
    if not access().is_display(request.cookies.get(DISPLAY_COOKIE)):
        return message_page(
            403,
            t("Only the table display"),
            t("The plays are shown on the table display and the host's page."),
        )
    return None


def plays() -> Plays:
    """The app's plays (one :class:`Plays`, with its caches, per app)."""
    found = current_app.extensions.get("companion_plays")
    if found is None or found.store is not table().store:
        found = current_app.extensions["companion_plays"] = Plays(table().store)
    return found


# -- the host's ---------------------------------------------------------------------------------


@host_bp.get("")
def host_page(token: str):
    return _list_page(
        api=url_for("host_plays.host_api", token=token),
        back=url_for("host.page", token=token),
        downloads={
            "json": url_for("host_plays.download_json", token=token),
            "csv": url_for("host_plays.download_csv", token=token),
        },
    )


@host_bp.get("/api")
def host_api(token: str):
    return _listing(lambda play_id: url_for("host_plays.host_play", token=token, play=play_id))


@host_bp.get("/<int:play>")
def host_play(token: str, play: int):
    return _play_page(
        play,
        api=url_for("host_plays.host_play_api", token=token, play=play),
        back=url_for("host_plays.host_page", token=token),
        chart=url_for("statistics_host.host_page", token=token, play=play),
    )


@host_bp.get("/<int:play>/api")
def host_play_api(token: str, play: int):
    return _play_api(play)


@host_bp.get("/<int:play>/steps/<int:step>")
def host_step(token: str, play: int, step: int):
    return _step(play, step)


@host_bp.get("/plays.json")
def download_json(token: str):
    body = plays_json(plays().all(), _titles())
    return _download(body, "application/json", "plays.json")


@host_bp.get("/plays.csv")
def download_csv(token: str):
    body = plays_csv(plays().all(), _titles())
    return _download(body, "text/csv", "plays.csv")


# -- the table display's ------------------------------------------------------------------------


@table_bp.get("")
def table_page():
    return _list_page(
        api=url_for("table_plays.table_api"), back=url_for("public.table_page"), downloads=None
    )


@table_bp.get("/api")
def table_api():
    return _listing(lambda play_id: url_for("table_plays.table_play", play=play_id))


@table_bp.get("/<int:play>")
def table_play(play: int):
    return _play_page(
        play,
        api=url_for("table_plays.table_play_api", play=play),
        back=url_for(".table_page"),
        chart=url_for("statistics_table.table_page", play=play),
    )


@table_bp.get("/<int:play>/api")
def table_play_api(play: int):
    return _play_api(play)


@table_bp.get("/<int:play>/steps/<int:step>")
def table_step(play: int, step: int):
    return _step(play, step)


# -- shared -------------------------------------------------------------------------------------


def _list_page(api: str, back: str, downloads: dict[str, str] | None) -> str:
    return render_template("plays.html", api=api, back=back, downloads=downloads)


def _play_page(play_id: int, api: str, back: str, chart: str) -> Any:
    """A play's page; a finished one links to its chart on the Statistics page."""
    try:
        found = plays().play(play_id)
    except KeyError:
        return _no_play(play_id)
    chart_link = chart if found.finished else None
    return render_template("play.html", api=api, back=back, play=play_id, chart=chart_link)


def _no_play(play_id: int) -> Response:
    return message_page(404, t("No such play"), t("No game {id} was set up here.", id=play_id))


def _bad(reason: str) -> tuple[Response, int]:
    return jsonify({"ok": False, "reason": translator()(reason)}), 400


def _listing(link: Callable[[int], str]) -> Any:
    """One page of the plays, newest first, filtered by ``?game=`` and ``?player=``."""
    args = request.args
    game, player, page = args.get("game") or None, args.get("player") or None, args.get("page")
    known = _titles()
    if game is not None and game not in known:
        return _bad(t("There is no game {game} to list.", game=game[:MAX_NAME]))
    if player is not None and len(player) > MAX_NAME:
        return _bad(t("A player's name is at most {n} characters.", n=MAX_NAME))
    try:
        number = int(page) if page is not None else 1
    except ValueError:
        number = 0
    if not 1 <= number <= MAX_PAGE:
        return _bad(t("Pages are numbered from 1 to {n}.", n=MAX_PAGE))
    everyone = plays().records()
    found, total = plays().listing(game, player, number, PAGE_SIZE, among=everyone)
    return jsonify(
        {
            "ok": True,
            "plays": [_play_json(p, link(p.id)) for p in found],
            "total": total,
            "page": number,
            "pages": max(1, -(-total // PAGE_SIZE)),
            "games": [{"id": g, "title": known[g]} for g in known],
            "players": sorted({name for r in everyone for name in r.players}, key=str.casefold),
            "filter": {"game": game, "player": player},
        }
    )


def _play_json(play: Play, link: str | None = None) -> dict[str, Any]:
    title, bgg_id = _title(play.game)
    return {
        "id": play.id,
        "game": play.game,
        "title": title,
        "started_at": play.started_at,
        "ended_at": play.ended_at,
        "duration": play.duration,
        "players": play.players,
        "data_set": play.data_set,
        "finished": play.finished,
        "winners": play.winners,
        "scores": play.scores,
        "start_player": play.start_player,
        "actions": play.actions,
        "link": link,
        "bgstats": bgstats_link(play, title, bgg_id) if play.finished else None,
    }


def _play_api(play_id: int) -> Any:
    try:
        play = plays().play(play_id)
    except KeyError:
        return jsonify(
            {"ok": False, "reason": translator()(t("There is no play {id}.", id=play_id))}
        ), 404
    return jsonify({"ok": True, "play": _play_json(play)})


def _step(play_id: int, step: int) -> Any:
    """The table display's snapshot of a play after ``step`` actions: what its page module
    draws (``docs/pages.md``), from the table's view of that state only."""
    try:
        found = plays().step(play_id, step)
        play = plays().play(play_id)
    except KeyError:
        return jsonify(
            {"ok": False, "reason": translator()(t("There is no play {id}.", id=play_id))}
        ), 404
    except IndexError:
        steps = plays().replay(play_id).count
        reason = t("Play {id} has steps 0 to {last}.", id=play_id, last=steps)
        return jsonify({"ok": False, "reason": translator()(reason)}), 404
    title, _bgg = _title(play.game)
    chosen = list(table().store.game(play_id).colours)
    colours = chosen + [c for c in SEAT_COLOURS if c not in chosen] + list(SEAT_COLOURS) * 2
    snap = {
        "ok": True,
        "viewer": "table",
        "step": found.step,
        "steps": found.steps,
        "at": found.at,
        "game": {
            "id": play.id,
            "game": play.game,
            "title": title,
            "players": play.players,
            "colours": dict(zip(play.players, colours)),
            "started_at": play.started_at,
            "undoable": False,
            "paused": False,
            "progress": found.progress,
            "finished": found.finished,
        },
        "view": found.view,
        "legal": [],
        "events": [{"n": n, "at": found.at, **e} for n, e in enumerate(found.events)],
        "refusals": [],
        "countdown": None,
        "dice": {"awaited": None, "reader": False, "dice": [], "rolled": [], "virtual": False},
    }
    return jsonify(_translator(play.game)(snap))


def _translator(game: str) -> Callable[[Any], Any]:
    """Translate a play's texts with its own game's catalogs (the table may be playing
    another game now)."""
    lang = select_locale()
    if lang == DEFAULT:
        return lambda value: value
    gettext = catalog(lang, "server", game).gettext
    names = data_words(table(), game, lang)

    def lookup(msgid: str) -> str:
        found = gettext(msgid)
        return names.get(msgid, found) if found == msgid else found

    return lambda value: translate(value, lookup) if has_text(value) else value


def _titles() -> dict[str, str]:
    """Every game this companion has, by id: its title."""
    return {found.id: found.title for found in table().games()}


def _title(game: str) -> tuple[str, int | None]:
    """A game's title and BoardGameGeek id (a game this companion no longer has: its id)."""
    try:
        found = table().game_plugin(game)
    except SetupError:
        return game, None
    return found.title, getattr(found, "bgg_id", None)


def _download(body: str, mimetype: str, name: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["Cache-Control"] = "no-store"
    return response
