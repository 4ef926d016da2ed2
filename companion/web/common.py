"""Helpers shared by the blueprints: the table, JSON answers, refusals and SSE streams."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NoReturn

from flask import Response, abort, current_app, jsonify, make_response, render_template, request

from ..i18n import t
from .streams import Feed, SnapshotEvents, StreamLimits, blocking_body

KEEPALIVE = 15.0  # seconds between comments on an idle stream
#: the environ key under which a view leaves its stream's feed for an event-loop server
FEED_KEY = "companion.feed"
#: the environ key of the event-loop server's "wake the streams" callable
WAKE_KEY = "companion.wake"


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
CLAIM_COOKIE = "companion_claim"  # the seat's claim, kept under its own path (/p/<token>)
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
def catalog(lang: str, kind: str, game: str | None = None) -> Any:
    """The compiled gettext catalogs of ``lang``, merged: the server's texts (``"server"``: the
    table's and the games' rules') or the pages' scripts' (``"pages"``). Two games may translate
    the same English text differently: ``game``'s own catalogs come last, so its texts win."""
    from babel.support import NullTranslations, Translations

    from ..i18n import DEFAULT
    from ..i18n.catalogs import catalogs

    merged: Any = NullTranslations()
    if lang == DEFAULT:
        return merged
    known = catalogs(kind)
    for found in sorted(known, key=lambda known: known.game is not None and known.game == game):
        loaded = Translations.load(str(found.folder), [lang], found.domain)
        if not isinstance(loaded, Translations):  # not compiled: its messages stay English
            continue
        if isinstance(merged, Translations):
            merged.merge(loaded)
        else:
            merged = loaded
    return merged


def translator() -> Callable[[Any], Any]:
    """This request's snapshot translator (it still works after the request, for a stream):
    English as it is; another language made from the catalog's templates, the game being
    played's own first."""
    from ..i18n import DEFAULT, has_text, translate

    lang = select_locale()
    if lang == DEFAULT:
        return lambda value: value
    tab = table()

    def localise(value: Any) -> Any:
        if not has_text(value):
            return value
        history = tab.history
        game = history.game.id if history is not None else None
        gettext = catalog(lang, "server", game).gettext
        names = data_words(tab, game, lang)
        if not names:
            return translate(value, gettext)

        def lookup(msgid: str) -> str:
            found = gettext(msgid)
            return names.get(msgid, found) if found == msgid else found

        return translate(value, lookup)

    return localise


def data_words(tab: Any, game: str | None, lang: str) -> dict[str, str]:
    """The names ``game``'s data sets translate into ``lang`` (English -> translation): the names
    of items, spaces... in the rules' texts, which the catalogs cannot know. ``tab`` is the table
    (a stream translates after its request, without the app's context)."""
    if game is None:
        return {}
    from ..rules import SetupError

    try:
        data_sets = tab.game_plugin(game).data
    except SetupError:  # a game this companion no longer has: its texts stay as they are
        return {}
    words = getattr(data_sets, "words", None)
    return words(lang) if words is not None else {}


def own_words(game: str) -> Callable[[Any], Any]:
    """A translator of ``game``'s own texts outside its snapshots (the new-game wizard's words
    for its options): its catalogs win over another game's that translates a text otherwise."""
    from ..i18n import DEFAULT, translate

    lang = select_locale()
    if lang == DEFAULT:
        return lambda value: value
    return lambda value: translate(value, catalog(lang, "server", game).gettext)


def js_catalog() -> dict[str, Any]:
    """The pages' scripts' messages in this request's language: ``messages`` (msgid ->
    translation, every catalog merged) and, per game, its own page catalogs' (``games``), which
    win while a page shows that game."""
    return _page_messages(select_locale())


@functools.lru_cache(maxsize=None)
def _page_messages(lang: str) -> dict[str, Any]:
    from ..i18n.catalogs import catalogs

    def messages(found: Any) -> dict[str, str]:
        return {
            k: v
            for k, v in getattr(found, "_catalog", {}).items()
            if isinstance(k, str) and k and v
        }

    games = {known.game for known in catalogs("pages") if known.game is not None}
    return {
        "messages": messages(catalog(lang, "pages")),
        "games": {game: messages(_own(lang, game)) for game in sorted(games)},
    }


def _own(lang: str, game: str) -> Any:
    """Only ``game``'s own page catalogs, merged."""
    from babel.support import NullTranslations, Translations

    from ..i18n import DEFAULT
    from ..i18n.catalogs import catalogs

    merged: Any = NullTranslations()
    if lang == DEFAULT:
        return merged
    for found in catalogs("pages"):
        if found.game != game:
            continue
        loaded = Translations.load(str(found.folder), [lang], found.domain)
        if not isinstance(loaded, Translations):
            continue
        if isinstance(merged, Translations):
            merged.merge(loaded)
        else:
            merged = loaded
    return merged


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
            reason = t(
                "The request's CSRF token is missing or wrong, so it was refused; reload "
                "the page and try again."
            )
    if reason is None:
        return None
    source = request.blueprint or "web"
    table().refuse_quietly(
        f"web:{source}",
        BAD_CSRF,
        reason,
        {"kind": "request", "path": request.path[:80].split("/")[1:2]},
    )
    return jsonify({"ok": False, "rule": BAD_CSRF, "reason": translator()(reason)}), 403


#: Refusals answered with another status than 409 (the rules refused): malformed requests 400,
#: a busy table or one that cannot record 503 (try again; nothing was done).
_STATUS_OF = {"INPUT-": 400, "TABLE-REQUEST-": 400, "TABLE-BUSY-": 503, "TABLE-STORE-": 503}


def answer(result: dict[str, Any]) -> tuple[Response, int]:
    """A table answer as HTTP: 200 when accepted, 409 when the rules refused, 400 if malformed,
    503 (with ``Retry-After``) when the table was busy or cannot record."""
    result = translator()(result)
    if result.get("ok"):
        return jsonify(result), 200
    rule = str(result.get("rule", ""))
    status = next((code for prefix, code in _STATUS_OF.items() if rule.startswith(prefix)), 409)
    response = jsonify(result)
    if status == 503:
        response.headers["Retry-After"] = "2"
    return response, status


def same_secret(given: Any, secret: str | None) -> bool:
    """Whether ``given`` is ``secret`` (a token, a code), in constant time; anything that is not
    a string of the secret's alphabet (non-ASCII, ``None``) is simply not it."""
    import hmac

    if not isinstance(given, str) or not secret:
        return False
    return hmac.compare_digest(
        given.encode("utf-8", "surrogatepass"), secret.encode("utf-8", "surrogatepass")
    )


def forbidden(message: str, status: int = 403, rule: str | None = None) -> tuple[Response, int]:
    body: dict[str, Any] = {"ok": False, "error": translator()(message)}
    if rule is not None:
        body["rule"] = rule
    return jsonify(body), status


def refuse_request(message: str, status: int = 403, rule: str | None = None) -> NoReturn:
    """End the request now with :func:`forbidden`'s answer (from a check before the view)."""
    body, status = forbidden(message, status, rule)
    body.status_code = status
    abort(body)


def message_page(status: int, title: str, text: str) -> Response:
    """A page that only says something (a link that is not valid, a seat already taken)."""
    localise = translator()
    response = make_response(
        render_template("message.html", title=localise(title), text=localise(text)), status
    )
    return response


def streams() -> tuple[SnapshotEvents, StreamLimits]:
    """The app's snapshot-event cache and stream limits."""
    ext = current_app.extensions["companion"]
    return ext["snapshot_events"], ext["stream_limits"]


def stream_response(feed: Feed) -> Response:
    """The HTTP response of a stream: an event-loop server drives ``feed`` itself (it finds it
    in the environ); any other server iterates the blocking body."""
    request.environ[FEED_KEY] = feed
    return Response(
        blocking_body(feed, client_gone()),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


def sse(
    viewer: Callable[[Any], str | None],
    extra: Callable[[], dict[str, Any]] | None = None,
    stream_of: str | None = None,
) -> Response:
    """A Server-Sent Events stream of snapshots for the viewer that ``viewer(table)`` names.

        ``viewer`` is asked again after every change: when it answers ``None`` (the game the token
        belonged to was replaced), the stream says ``gone`` and ends. ``extra()`` adds a few fields
        the page needs besides the table's snapshot (they are part of the cache key, so keep them
        small; it is called after the request is over, without an app context, and often: keep it
        cheap). ``stream_of`` names whose stream it is for the limits (a seat, a host session; none
    for the table display, limited only by the client's address). The
        stream runs after the request's context is gone, so it holds the table itself.
    """
    tab = table()
    events, limits = streams()
    localise = translator()
    language = select_locale()
    more = (lambda: {}) if extra is None else extra
    wake = request.environ.get(WAKE_KEY, tab.wake_streams)
    slot = limits.open(stream_of or "", request.remote_addr or "?", wake)

    def render() -> bytes | None:
        who = viewer(tab)
        if who is None:
            return None
        return events.event(tab, who, language, localise, more())

    def cached() -> bytes | None:
        return events.cached(tab, viewer(tab), language, more())

    feed = Feed(
        tab,
        render,
        keepalive=current_app.config.get("SSE_KEEPALIVE", KEEPALIVE),
        slot=slot,
        limits=limits,
        cached=cached,
    )
    return stream_response(feed)


def client_gone() -> Callable[[], bool]:
    """A check that says whether the client of this request has hung up (under waitress; other
    servers notice when a write fails)."""
    return request.environ.get("waitress.client_disconnected", lambda: False)
