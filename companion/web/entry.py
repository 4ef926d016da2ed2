"""The ways in: the landing page, the host's PIN, and the seats' one-time join codes.

* ``/`` sends a phone that is already a host or a seat back to its page (the home-screen app
  starts here), and shows everyone else the ways in.
* ``/host`` asks for the PIN; the right one makes this phone a host (a new session, its own link);
  wrong ones are rate-limited (429 with ``Retry-After``).
* ``/join/<code>`` is a seat's QR code on the table display: it asks "Join as Elena?", and the
  phone that confirms takes the seat (its claim cookie is set: the seat's link works only on this
  phone); the code is then spent and the QR code disappears.
* ``/p`` without a token: 401, with where to find one.
"""

from __future__ import annotations

import io
import math
import secrets

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)

from ..i18n import t
from . import playing
from .common import (
    CLAIM_COOKIE,
    HOST_COOKIE,
    LANG_COOKIE,
    SEAT_COOKIE,
    VISITOR_COOKIE,
    access,
    message_page,
    table,
    translator,
)

bp = Blueprint("entry", __name__)

#: The seats' shapes, in seat order: the pages' own (``MARKS`` in ``web/static/js/seats.js``)
SEAT_MARKS = ("●", "▲", "■", "◆", "★", "✚", "⬟")
COOKIE_AGE = 30 * 24 * 3600  # a home-screen app finds its page again for a month
BAD_PIN = "TABLE-HOST-1"
SLOW_DOWN = "TABLE-HOST-2"
BAD_JOIN = "TABLE-JOIN-1"
SPENT = t(
    "This join code is not valid any more: its seat was taken, or a new game began. Ask "
    "the host to hand the seat over."
)


def _cookie(response: Response, name: str, value: str) -> Response:
    response.set_cookie(name, value, max_age=COOKIE_AGE, httponly=True, samesite="Lax")
    return response


@bp.get("/")
def index():
    """A phone that is a host or holds a seat goes to its page; the table display and everyone
    else see the ways in."""
    host = request.cookies.get(HOST_COOKIE, "")
    if host and access().is_host(host):
        return redirect(url_for("host.page", token=host))
    seat = request.cookies.get(SEAT_COOKIE, "")
    if seat and table().viewer_for_token(seat) is not None:
        return redirect(url_for("player.page", token=seat))
    return render_template("landing.html")


@bp.get("/host")
def sign_in_page():
    """The PIN form. Its CSRF token is tied to a random cookie of this browser."""
    visitor = request.cookies.get(VISITOR_COOKIE) or secrets.token_urlsafe(16)
    response = make_response(
        render_template(
            "signin.html",
            csrf=access().csrf(f"visitor:{visitor}"),
            shown=access().pin_on_display() is not None,
        )
    )
    response.set_cookie(VISITOR_COOKIE, visitor, httponly=True, samesite="Strict")
    return response


@bp.post("/host")
def sign_in():
    """The PIN, as JSON ``{"pin": "123456"}`` (or a form): the right one answers with this
    phone's host link and sets its cookie; a wrong one 401; too many 429."""
    body = request.get_json(silent=True)
    pin = body.get("pin") if isinstance(body, dict) else request.form.get("pin")
    client = request.remote_addr or "?"
    result = access().sign_in(client, pin)
    if result.token is not None:
        url = url_for("host.page", token=result.token)
        table().call("note", "host", text=t("A phone signed in as host."))
        return _cookie(jsonify({"ok": True, "url": url}), HOST_COOKIE, result.token)
    if not result.checked:
        seconds = math.ceil(result.wait)
        reason = t("Too many wrong PINs: wait {n} seconds before the next try.", n=seconds)
        table().refuse_quietly(
            "web:host", SLOW_DOWN, reason, {"kind": "request", "sign_in": "slowed"}
        )
        response = jsonify(
            {"ok": False, "rule": SLOW_DOWN, "reason": translator()(reason), "wait": seconds}
        )
        response.headers["Retry-After"] = str(seconds)
        return response, 429
    reason = t("That is not the host's PIN.")
    if result.wait > 0:
        reason = t(
            "That is not the host's PIN. Too many wrong PINs: wait {n} seconds before the "
            "next try.",
            n=math.ceil(result.wait),
        )
    table().refuse_quietly(
        "web:host", BAD_PIN, reason, {"kind": "request", "sign_in": "wrong"}
    )  # never the PIN tried
    return jsonify({"ok": False, "rule": BAD_PIN, "reason": translator()(reason)}), 401


@bp.get("/join/<code>")
def join(code: str):
    """A seat's join code: whose seat it is, and a button to take it."""
    player = _seat_of(code)
    if player is None:
        return _spent()
    seat = _seat_number(player)
    return render_template(
        "join.html",
        player=player,
        code=code,
        colour=_colour(player),
        seat=seat,
        mark=SEAT_MARKS[(seat - 1) % len(SEAT_MARKS)],
    )


@bp.post("/join/<code>")
def claim(code: str):
    """Take the seat: the answer (JSON) is the seat's private page; its cookie is set. A code
    that opens no seat is refused here, quietly (counted, never shown on the table), so a script
    trying codes cannot wake the table."""
    if _seat_of(code) is None:
        result = table().refuse_quietly(
            "web:join", BAD_JOIN, SPENT, {"kind": "request", "claim_seat": True}
        )
        return jsonify(translator()(result)), 403
    result = table().call("claim_seat", "web:join", code=code)
    if not result.get("ok"):
        status = (
            503 if str(result.get("rule", "")).startswith(("TABLE-BUSY-", "TABLE-STORE-")) else 403
        )
        return jsonify(translator()(result)), status
    token = result["token"]
    playing.seat_opened(result["player"], token)  # a host's phone: the simulation goes blind
    url = url_for("player.page", token=token)
    response = _cookie(
        jsonify({"ok": True, "player": result["player"], "url": url}), SEAT_COOKIE, token
    )
    # the seat is this phone's: its link works only beside this cookie (sent to the seat's pages)
    response.set_cookie(
        CLAIM_COOKIE,
        access().seat_claim(token),
        max_age=COOKIE_AGE,
        path=url,
        httponly=True,
        samesite="Lax",
    )
    return response


@bp.get("/join/<code>.svg")
def join_qr(code: str):
    """The QR code of a seat's join link, for the table display and the host's page."""
    if _seat_of(code) is None:
        abort(404)
    url = request.host_url.rstrip("/") + url_for("entry.join", code=code)
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out,
        kind="svg",
        scale=6,
        border=2,
        dark="#000",
        light="#fff",
        title=f"Join as {_seat_of(code)}",
    )
    return Response(out.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


@bp.get("/lang/<code>")
def language(code: str):
    """This phone's language, kept in a cookie; back to the page it came from."""
    from ..i18n import LANGUAGES

    target = request.args.get("next", "/")
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        target = "/"  # never a redirect to another site
    response = redirect(target)
    if code in LANGUAGES:
        response.set_cookie(LANG_COOKIE, code, max_age=365 * 24 * 3600, samesite="Lax")
    return response


@bp.get("/p")
@bp.get("/p/")
def no_seat():
    return message_page(
        401,
        t("Which seat?"),
        t(
            "A player's page needs its seat's link: scan your seat's code on the table display, or "
            "ask the host."
        ),
    )


def _seat_of(code: str) -> str | None:
    return table().player_for_join(code)


def _seat_number(player: str) -> int:
    return table().record.players.index(player) + 1


def _colour(player: str) -> str:
    return table().colour_names()[_seat_number(player) - 1]


def _spent() -> Response:
    return message_page(
        403,
        t("Seat taken"),
        t(
            "This join code is not valid any more: its seat was taken, or a new game began. Ask the "
            "host to hand the seat over."
        ),
    )
