"""The table display: what every player may see, and nothing more."""

from __future__ import annotations

from flask import Blueprint, jsonify, redirect, render_template, url_for

from ..rules import TABLE
from .common import sse, table

bp = Blueprint("public", __name__)


@bp.get("/")
def index():
    return redirect(url_for("public.table_page"))


@bp.get("/table")
def table_page():
    return render_template("table.html", stream=url_for("public.stream"),
                           state=url_for("public.state"))


@bp.get("/api/table")
def state():
    return jsonify(table().snapshot(TABLE))


@bp.get("/api/table/stream")
def stream():
    return sse(lambda t: TABLE)


@bp.get("/healthz")
def health():
    return jsonify({"ok": True, "version": table().version})


@bp.get("/favicon.ico")
def favicon():
    return redirect(url_for("static", filename="icon.svg"))
