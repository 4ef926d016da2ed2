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

from pathlib import Path
from typing import Any

from flask import Flask


def assets_dir() -> Path:
    """Where ``templates/`` and ``static/`` are: inside the installed package, or the source tree."""
    installed = Path(__file__).parent / "assets"
    if (installed / "templates").is_dir():
        return installed
    source = Path(__file__).resolve().parents[2] / "web"
    if (source / "templates").is_dir():
        return source
    raise RuntimeError("the web assets are missing: reinstall the companion package")


def create_app(table: Any, *, access: Any = None, sim: Any = None,
               config: dict[str, Any] | None = None) -> Flask:
    """The Flask application for ``table``. ``access`` holds the host's PIN and sessions (a new
    :class:`~companion.web.access.Access` on the table's store when not given); ``sim`` is the
    simulated table, if any."""
    from .access import Access

    assets = assets_dir()
    app = Flask("companion", template_folder=str(assets / "templates"),
                static_folder=str(assets / "static"), static_url_path="/static")
    app.config.update(config or {})
    app.config["MAX_CONTENT_LENGTH"] = 256 * 1024
    app.json.sort_keys = False  # keep the seat order of the rules core
    access = access if access is not None else Access(table.store)
    app.extensions["companion"] = {"table": table, "access": access, "sim": sim}

    from flask_babel import Babel

    from ..i18n import LANGUAGES, TRANSLATIONS
    from . import entry, host, player, public, pwa, status
    from .common import check_post, csrf_token, js_catalog, select_locale

    Babel(app, locale_selector=select_locale,
          default_translation_directories=str(TRANSLATIONS))
    app.register_blueprint(public.bp)
    app.register_blueprint(entry.bp)
    app.register_blueprint(player.bp)
    app.register_blueprint(host.bp)
    app.register_blueprint(status.bp)  # the host's device status page
    app.register_blueprint(pwa.bp)  # the web app manifest and the service worker
    if sim is not None:
        from . import simulation

        app.register_blueprint(simulation.bp)
    app.before_request(check_post)
    app.context_processor(lambda: {"csrf_token": csrf_token(), "lang": select_locale(),
                                   "languages": LANGUAGES, "js_catalog": js_catalog()})

    @app.after_request
    def _headers(response):  # the table has no internet and needs no third party
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
            "frame-ancestors 'none'; form-action 'self'")
        if response.mimetype in ("application/json", "text/event-stream", "text/html"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    return app
