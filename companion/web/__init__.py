"""The web layer: a thin Flask app over the running table.

Blueprints: ``public`` (the table display), ``entry`` (the landing page, the host's PIN, the
seats' join codes), ``player`` (one private page per player, reached by a secret token), ``host``
(new game, pause, undo, end, seats, tags) and ``sim`` (the simulated table's controls, registered
only when the devices are simulated). Who may do what is :mod:`companion.web.access`; every POST
is checked for its CSRF token before it reaches a view. Live updates are Server-Sent Events:
each stream sends a full snapshot for its viewer on connect and after every change, with
keep-alives between. Templates and static files live in the top-level ``web/`` folder of the
source tree, which the wheel carries as ``companion/web/assets``.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from flask import Flask
from flask.json.provider import DefaultJSONProvider

log = logging.getLogger("companion.web")

#: JSON bodies nested deeper than this are refused (400): no request needs more than a few levels.
MAX_JSON_DEPTH = 32


def json_depth(value: Any) -> int:
    """How deeply ``value`` (parsed JSON) nests lists and objects; without recursion."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        todo.extend((child, depth + 1) for child in children)
    return deepest


class BoundedJSON(DefaultJSONProvider):
    """Flask's JSON, refusing a body nested deeper than MAX_JSON_DEPTH as malformed (a
    ``ValueError``, so ``get_json(silent=True)`` answers None) rather than recursing on it."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        try:
            value = json.loads(s, **kwargs)
        except RecursionError:
            raise ValueError("JSON nested too deeply") from None
        if json_depth(value) > MAX_JSON_DEPTH:
            raise ValueError("JSON nested too deeply")
        return value


class _App(Flask):
    json_provider_class = BoundedJSON


def assets_dir() -> Path:
    """Where ``templates/`` and ``static/`` are: inside the installed package, or the source tree."""
    installed = Path(__file__).parent / "assets"
    if (installed / "templates").is_dir():
        return installed
    source = Path(__file__).resolve().parents[2] / "web"
    if (source / "templates").is_dir():
        return source
    raise RuntimeError("the web assets are missing: reinstall the companion package")


def create_app(
    table: Any,
    *,
    access: Any = None,
    sim: Any = None,
    config: dict[str, Any] | None = None,
    play_sources: Any = None,
) -> Flask:
    """The Flask application for ``table``. ``access`` holds the host's PIN and sessions (a new
    :class:`~companion.web.access.Access` on the table's store when not given); ``sim`` is the
    simulated table, if any; ``play_sources`` where the Statistics page gets its plays (a
    :class:`~companion.web.statistics_page.PlaySources`; the store's by default)."""
    from .access import Access
    from .statistics_page import STORED
    from .streams import SnapshotEvents, StreamLimits

    assets = assets_dir()
    app = _App(
        "companion",
        template_folder=str(assets / "templates"),
        static_folder=str(assets / "static"),
        static_url_path="/static",
    )
    app.config.update(config or {})
    app.config["MAX_CONTENT_LENGTH"] = 256 * 1024
    app.json.sort_keys = False  # keep the seat order of the rules core
    access = access if access is not None else Access(table.store)
    limits = StreamLimits(**app.config.get("STREAM_LIMITS", {}))
    app.extensions["companion"] = {
        "table": table,
        "access": access,
        "sim": sim,
        "snapshot_events": SnapshotEvents(),
        "stream_limits": limits,
        "play_sources": play_sources if play_sources is not None else STORED,
    }

    from flask_babel import Babel

    from ..i18n import LANGUAGES, TRANSLATIONS
    from . import (
        dice,
        entry,
        game_static,
        host,
        player,
        plays,
        public,
        pwa,
        statistics_page,
        status,
    )
    from .common import check_post, csrf_token, js_catalog, select_locale

    Babel(app, locale_selector=select_locale, default_translation_directories=str(TRANSLATIONS))
    app.register_blueprint(public.bp)
    app.register_blueprint(entry.bp)
    app.register_blueprint(player.bp)
    app.register_blueprint(host.bp)
    app.register_blueprint(status.bp)  # the host's device status page
    app.register_blueprint(dice.bp)  # the host's dice fairness pages
    app.register_blueprint(statistics_page.host_bp)  # who wins what, for the host
    app.register_blueprint(statistics_page.table_bp)  # and on the table display
    app.register_blueprint(pwa.bp)  # the web app manifest and the service worker
    app.register_blueprint(game_static.bp)  # the games' page modules
    app.register_blueprint(plays.host_bp)  # every play: the host's list, steps and downloads
    app.register_blueprint(plays.table_bp)  # and the table display's
    if sim is not None:
        from . import simulation

        app.register_blueprint(simulation.bp)
    app.before_request(check_post)
    app.context_processor(
        lambda: {
            "csrf_token": csrf_token(),
            "lang": select_locale(),
            "languages": LANGUAGES,
            "js_catalog": js_catalog(),
        }
    )

    _errors(app)

    @app.after_request
    def _headers(response):  # the table has no internet and needs no third party
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
            "frame-ancestors 'none'; form-action 'self'",
        )
        if response.mimetype in ("application/json", "text/event-stream", "text/html"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    return app


def _errors(app: Flask) -> None:
    """Answers for what went wrong below the views: storage that cannot record is a 503 that
    says so (nothing was done); anything else unexpected is logged loudly and answered in JSON,
    never with a traceback (the tests make sure no request reaches it)."""
    from flask import jsonify

    from ..i18n import t
    from ..table.storage import StorageError
    from .common import translator

    @app.errorhandler(StorageError)
    def _storage(error: StorageError):
        log.error("storage failed during %s: %s", _where(), error)
        reason = t(
            "The table cannot record anything now: {problem} Nothing was done.",
            problem=error.problem,
        )
        response = jsonify({"ok": False, "rule": "TABLE-STORE-1", "reason": translator()(reason)})
        response.headers["Retry-After"] = "5"
        return response, 503

    @app.errorhandler(Exception)
    def _unexpected(error: Exception):
        from werkzeug.exceptions import HTTPException

        if isinstance(error, HTTPException):  # 404, 405, 413...: Flask's own answers
            return error
        log.exception("unexpected error during %s", _where())
        return jsonify({"ok": False, "error": "internal error; it was logged"}), 500


def _where() -> str:
    from flask import request

    return f"{request.method} {request.path[:80]}"
