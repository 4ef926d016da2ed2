"""The table display: what every player may see, and nothing more; and the games' printed
components (a data set is the printed board, tables and cards: public).

The made-up host PIN is shown only by *the* table display's page (the screen that opened the
display link ``/table/<key>``, which leaves a cookie), while no phone has signed in as host. It
is in no API and no stream: anyone on the table's network can read those.
"""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for

from ..i18n import LANGUAGES, t
from ..rules import TABLE, SetupError
from .common import access, message_page, select_locale, sse, table, translator

DISPLAY_COOKIE = "companion_display"


def _display() -> dict:
    """What the table's pages add to its snapshot: whether a made-up PIN is still offered (the
    display's page then shows it; the PIN itself is only in that page)."""
    return {"pin_offered": access().pin_offered()}


bp = Blueprint("public", __name__)


@bp.get("/table")
def table_page():
    is_display = access().is_display(request.cookies.get(DISPLAY_COOKIE))
    return render_template(
        "table.html",
        stream=url_for("public.stream"),
        state=url_for("public.state"),
        pin=access().pin_on_display() if is_display else None,
        # the Plays pages are the table display's screen's (and the host's), no phone's
        plays=url_for("table_plays.table_page") if is_display else None,
        statistics=url_for("statistics_table.table_page") if is_display else None,
    )


@bp.get("/table/<key>")
def display(key: str):
    """The display link: this screen becomes the table display (a cookie), then /table."""
    if not access().is_display(key):
        from ..i18n import t

        return message_page(
            404,
            t("Not the display link"),
            t("This is not the table display's link. The host's page has it."),
        )
    response = redirect(url_for("public.table_page"))
    response.set_cookie(
        DISPLAY_COOKIE, key, max_age=365 * 24 * 3600, httponly=True, samesite="Strict"
    )
    return response


@bp.get("/api/table")
def state():
    return jsonify(translator()(table().snapshot(TABLE)) | _display())


@bp.get("/api/table/stream")
def stream():
    acc = access()  # the stream asks after the request is over: no app context then
    return sse(lambda t: TABLE, lambda: {"pin_offered": acc.pin_offered()})


@bp.get("/api/games/<game>/data/<name>")
def game_data(game: str, name: str):
    """A game's data set, normalised (what its plug-in's data sets hold: a map, tables, cards...).
    It is what is printed on the board and the cards, the same for every viewer; it says nothing
    about the game being played (no deck order, no hand). ``?lang=it`` asks for its names and
    texts in that language where the set gives them (the page's own language by default; the
    address names it, so a cache never serves one language's names to the other's page)."""
    try:
        data_sets = table().game_plugin(game).data
    except SetupError:
        abort(404)
    lang = request.args.get("lang") or select_locale()
    if lang not in LANGUAGES:
        return jsonify(
            {
                "ok": False,
                "reason": translator()(
                    t("The companion speaks no language {lang}.", lang=lang[:20])
                ),
            }
        ), 400
    localised = getattr(data_sets, "localised", None)
    if localised is not None:
        data = localised(name, lang)
    else:
        data = data_sets.get(name) if data_sets is not None else None
    if data is None:
        abort(404)
    return jsonify(data)


@bp.get("/healthz")
def health():
    """Whether the table works: 200, or 503 with the problem (it cannot record its log)."""
    problem = table().storage_problem()
    if problem is not None:
        return jsonify({"ok": False, "version": table().version, "storage": problem}), 503
    return jsonify({"ok": True, "version": table().version})


@bp.get("/favicon.ico")
def favicon():
    return redirect(url_for("static", filename="icon.svg"))
