"""The table display: what every player may see, and nothing more; and the games' printed
components (a data set is the printed board, tables and cards: public)."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, redirect, render_template, url_for

from ..rules import TABLE, SetupError, get_game
from .common import access, sse, table, translator


def _display() -> dict:
    """What only the table display adds: the host's PIN while no phone has signed in as host
    (a PIN set in the configuration is never shown)."""
    return {"pin": access().pin_on_display()}

bp = Blueprint("public", __name__)


@bp.get("/table")
def table_page():
    return render_template("table.html", stream=url_for("public.stream"),
                           state=url_for("public.state"))


@bp.get("/api/table")
def state():
    return jsonify(translator()(table().snapshot(TABLE)) | _display())


@bp.get("/api/table/stream")
def stream():
    return sse(lambda t: TABLE, _display)


@bp.get("/api/games/<game>/data/<name>")
def game_data(game: str, name: str):
    """A game's data set, normalised (Dork Tower: map, tower, tables, tokens, item and scroll
    cards, characters, XP costs). It is what is printed on the board and the cards, the same for
    every viewer; it says nothing about the game being played (no deck order, no hand)."""
    try:
        rules = get_game(game)
    except SetupError:
        abort(404)
    data = getattr(rules, "datasets", {}).get(name)
    if data is None:
        abort(404)
    return jsonify(data)


@bp.get("/healthz")
def health():
    return jsonify({"ok": True, "version": table().version})


@bp.get("/favicon.ico")
def favicon():
    return redirect(url_for("static", filename="icon.svg"))
