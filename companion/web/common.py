"""Helpers shared by the blueprints: the table, JSON answers, refusals and SSE streams."""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

from flask import (Response, abort, current_app, jsonify, make_response, render_template,
                   request)

from ..i18n import t

KEEPALIVE = 15.0  # seconds between comments on an idle stream
HANG_UP_CHECK = 1.0  # seconds between checks that the client is still there


def table() -> Any:
    return current_app.extensions["companion"]["table"]


def sim() -> Any:
    return current_app.extensions["companion"]["sim"]


def access() -> Any:
    """The host's PIN and sessions and the CSRF tokens (:class:`companion.web.access.Access`)."""
    return current_app.extensions["companion"]["access"]


LANG_COOKIE = "companion_lang"
VISITOR_COOKIE = "companion_visitor"
HOST_COOKIE = "companion_host"
SEAT_COOKIE = "companion_seat"
BAD_CSRF = "TABLE-REQUEST-3"


def select_locale() -> str:
    """The phone's language: the one it chose (a cookie), else its browser's first that the
    companion speaks, else English."""
    from ..i18n import DEFAULT, LANGUAGES

    chosen = request.cookies.get(LANG_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES)) or DEFAULT


@functools.lru_cache(maxsize=None)
def catalog(lang: str, kind: str) -> Any:
    """The compiled gettext catalogs of ``lang``, merged: the server's texts (``"server"``: the
    table's and the games' rules') or the pages' scripts' (``"pages"``)."""
    from babel.support import NullTranslations, Translations

    from ..i18n import DEFAULT, PAGE_DOMAINS, SERVER_DOMAINS, TRANSLATIONS

    merged: Any = NullTranslations()
    if lang == DEFAULT:
        return merged
    for domain in SERVER_DOMAINS if kind == "server" else PAGE_DOMAINS:
        found = Translations.load(str(TRANSLATIONS), [lang], domain)
        if not isinstance(found, Translations):  # not compiled: its messages stay English
            continue
        if isinstance(merged, Translations):
            merged.merge(found)
        else:
            merged = found
    return merged


def translator() -> Callable[[Any], Any]:
    """This request's snapshot translator (it still works after the request, for a stream):
    English as it is; another language made from the catalog's templates."""
    from ..i18n import DEFAULT, has_text, translate

    lang = select_locale()
    if lang == DEFAULT:
        return lambda value: value
    gettext = catalog(lang, "server").gettext
    return lambda value: translate(value, gettext) if has_text(value) else value


def js_catalog() -> dict[str, str]:
    """The pages' scripts' messages in this request's language (msgid -> translation)."""
    return _page_messages(select_locale())


@functools.lru_cache(maxsize=None)
def _page_messages(lang: str) -> dict[str, str]:
    messages = getattr(catalog(lang, "pages"), "_catalog", {})
    return {k: v for k, v in messages.items() if isinstance(k, str) and k and v}


def csrf_scope() -> str | None:
    """What this request's page is, for its CSRF token: the host's or a player's token, a join
    code, or (for the PIN form) the visitor's cookie; None when it has none."""
    args = request.view_args or {}
    blueprint = request.blueprint or ""
    if "token" in args and blueprint != "player":
        return f"host:{args['token']}"  # the host's page and everything under it
    if "token" in args:
        return f"player:{args['token']}"
    if "code" in args:
        return f"join:{args['code']}"
    visitor = request.cookies.get(VISITOR_COOKIE)
    return f"visitor:{visitor}" if visitor else None


def csrf_token() -> str:
    """The CSRF token the page being rendered puts in its ``<meta name="csrf-token">``."""
    scope = csrf_scope()
    return access().csrf(scope) if scope else ""


def check_post() -> Any:
    """Before any POST's view: the page it came from must be ours (``Origin``) and it must carry
    that page's CSRF token. A refused request changes nothing; it is logged and shown."""
    if request.method != "POST":
        return None
    origin = request.headers.get("Origin")
    own = request.host_url.rstrip("/")
    reason = None
    if origin is not None and origin != own:
        reason = t("The request came from another site's page and was refused.")
    else:
        scope = csrf_scope()
        given = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token")
        if scope is None or not access().csrf_ok(scope, given):
            reason = t("The request's CSRF token is missing or wrong, so it was refused; reload "
                       "the page and try again.")
    if reason is None:
        return None
    source = request.blueprint or "web"
    table().call("refuse", f"web:{source}", rule=BAD_CSRF, reason=reason,
                 raw={"kind": "request", "path": request.path[:80].split("/")[1:2]})
    return jsonify({"ok": False, "rule": BAD_CSRF, "reason": translator()(reason)}), 403


def answer(result: dict[str, Any]) -> tuple[Response, int]:
    """A table answer as HTTP: 200 when accepted, 409 when the rules refused, 400 if malformed."""
    result = translator()(result)
    if result.get("ok"):
        return jsonify(result), 200
    status = 400 if result.get("rule", "").startswith(("INPUT-", "TABLE-REQUEST-")) else 409
    return jsonify(result), status


def forbidden(message: str, status: int = 403) -> tuple[Response, int]:
    return jsonify({"ok": False, "error": translator()(message)}), status


def refuse_request(message: str, status: int = 403) -> NoReturn:
    """End the request now with :func:`forbidden`'s answer (from a check before the view)."""
    body, status = forbidden(message, status)
    body.status_code = status
    abort(body)


def message_page(status: int, title: str, text: str) -> Response:
    """A page that only says something (a link that is not valid, a seat already taken)."""
    localise = translator()
    response = make_response(render_template("message.html", title=localise(title),
                                             text=localise(text)), status)
    return response


def sse(viewer: Callable[[Any], str | None],
        extra: Callable[[], dict[str, Any]] | None = None) -> Response:
    """A Server-Sent Events stream of snapshots for the viewer that ``viewer(table)`` names.

    ``viewer`` is asked again after every change: when it answers ``None`` (the game the token
    belonged to was replaced), the stream says ``gone`` and ends. The stream runs after the
    request's context is gone, so it holds the table itself. A client that hangs up (a phone going
    to sleep) is noticed within a second, so its server thread is free again at once.
    """
    t = table()
    hung_up = client_gone()
    more = (lambda: {}) if extra is None else _bound(extra)
    localise = translator()
    keepalive = current_app.config.get("SSE_KEEPALIVE", KEEPALIVE)

    def events() -> Iterator[str]:
        yield f"retry: 2000\n: {' ' * 2048}\n\n"  # the padding flushes headers through proxies
        seen = -1
        while not t.closing and not hung_up():
            who = viewer(t)
            if who is None:
                yield "event: gone\ndata: {}\n\n"
                return
            if t.version != seen:
                snap = t.snapshot(who)
                seen = snap["version"]
                snap = localise(snap | more())
                yield f"event: snapshot\nid: {seen}\ndata: {json.dumps(snap)}\n\n"
            else:
                yield ": keep-alive\n\n"
            idle_until = time.monotonic() + keepalive
            while (t.version == seen and not t.closing and not hung_up()
                   and (left := idle_until - time.monotonic()) > 0):
                t.wait_for_change(seen, min(left, HANG_UP_CHECK))
        if t.closing:
            yield "event: bye\ndata: {}\n\n"

    return Response(events(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _bound(function: Callable[[], Any]) -> Callable[[], Any]:
    """``function``, callable after the request's context is gone (a stream runs then)."""
    app = current_app._get_current_object()

    def call() -> Any:
        with app.app_context():
            return function()

    return call


def client_gone() -> Callable[[], bool]:
    """A check that says whether the client of this request has hung up (under waitress)."""
    return request.environ.get("waitress.client_disconnected", lambda: False)
