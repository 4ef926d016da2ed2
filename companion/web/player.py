"""One private page per player, reached by the secret token in the join link or QR code, on the
phone that claimed the seat (its claim cookie, set by ``entry.claim``).

The token decides the viewer: everything served here is the player's own view, built by the rules
core's ``view`` on the server, so a player's own stones never reach the player's phone.
"""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, render_template, request, url_for

from ..i18n import t
from ..table.inputs import inputs_for
from . import playing
from .common import (
    CLAIM_COOKIE,
    access,
    answer,
    csrf_token,
    message_page,
    refuse_request,
    sse,
    table,
    translator,
)

bp = Blueprint("player", __name__, url_prefix="/p/<token>")

FROM_SENSORS = "TABLE-REQUEST-2"
NOT_A_SEAT = t(
    "This link is not a seat of the game being played (any more): the host may have "
    "handed the seat to another phone, or a new game began. Scan your seat's code on "
    "the table display, or ask the host."
)


ON_ANOTHER_PHONE = "TABLE-SEAT-2"
NOT_THIS_PHONE = t(
    "This seat is on another phone: its link works only on the phone that joined with the "
    "seat's code. To move the seat to this phone, ask the host to hand it over, then scan its "
    "new code."
)


@bp.url_value_preprocessor
def _check_token(endpoint, values):
    """A token that is no seat's gets 403 and nothing else, on every route of the blueprint; so
    does a seat's link without the claim of the phone that took the seat (a copied link)."""
    token = (values or {}).get("token", "")
    if _player(token) is None:
        kept = table().kept_game_for_token(token)
        claimed = kept is not None and access().claim_ok(token, request.cookies.get(CLAIM_COOKIE))
        if endpoint == "player.back" and claimed:  # its phone waits for the game to come back
            return
        if endpoint == "player.page":
            if claimed:
                title = _title(kept.game)
                text = t(
                    "The game of {game} this seat belongs to is no longer at the table: the "
                    "host set it aside, ended it or started a new one. If the host resumes it, "
                    "reload this page. To play the new game, scan your seat's code on the table "
                    "display, or ask the host.",
                    game=title,
                )
                abort(message_page(403, t("Your game is not at the table"), text))
            abort(message_page(403, t("Not your seat"), NOT_A_SEAT))
        refuse_request(NOT_A_SEAT)
    if not access().claim_ok(token, request.cookies.get(CLAIM_COOKIE)):
        if endpoint == "player.page":
            abort(message_page(403, t("This seat is on another phone"), NOT_THIS_PHONE))
        refuse_request(NOT_THIS_PHONE, rule=ON_ANOTHER_PHONE)


def _title(game_id: str) -> str:
    try:
        return table().game_plugin(game_id).title
    except (ValueError, KeyError):  # a game this companion no longer has
        return game_id


def _player(token: str) -> str | None:
    return table().viewer_for_token(token)


def _seat(token: str) -> str:
    """The token's player; 403 if the seat was handed over since the request began."""
    player = _player(token)
    if player is None:
        refuse_request(NOT_A_SEAT)
    return player


@bp.get("")
def page(token: str):
    player = _seat(token)
    playing.seat_opened(player, token)  # a host's phone: the simulation goes blind for the seat
    return render_template(
        "player.html",
        token=token,
        player=player,
        stream=url_for("player.stream", token=token),
        state=url_for("player.state", token=token),
        act=url_for("player.act", token=token),
        roll=url_for("player.virtual_roll", token=token),
    )


@bp.get("/api/back")
def back(token: str):
    """Whether this seat is at the table again, asked now and then by the page of a game that
    left the table, on the phone that claimed the seat: false (200) while its game is set aside
    and resumable, true once it is resumed; 403 like every route for anyone else, or when the
    game can no longer come back."""
    return jsonify({"back": _player(token) is not None})


@bp.get("/api/state")
def state(token: str):
    return jsonify(translator()(table().snapshot(_seat(token))) | {"csrf": csrf_token()})


@bp.get("/stream")
def stream(token: str):
    return sse(lambda t: t.viewer_for_token(token), stream_of=f"seat:{_seat(token)}")


@bp.post("/api/action")
def act(token: str):
    """A player's decision: the server, not the phone, says which player makes it.

    A phone may send only the game's decisions (``phone_actions``): never a deal, a draw, a
    removal or a roll, which the table's sensors observe, and never an undo, which is the host's.
    """
    player = _seat(token)
    tbl = table()
    source = f"phone:{player}"
    action = request.get_json(silent=True)
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return answer(tbl.call("action", source, action=action, player=player))  # INPUT-1
    action = {k: v for k, v in action.items() if k != "player"} | {"player": player}
    mapper = inputs_for(tbl.history.game) if tbl.history else None
    kind = action["type"]
    if mapper is not None and not mapper.from_phone(kind):
        if kind in mapper.sensor_actions:
            reason = t("That action comes from the table's sensors, not from a phone.")
        elif mapper.phone_actions:
            reason = t(
                "A phone cannot send {action}; it can send {actions}.",
                action=repr(kind),
                actions=", ".join(sorted(mapper.phone_actions)),
            )
        else:
            reason = t("A phone cannot send {action}.", action=repr(kind))
        result = tbl.call(
            "refuse",
            source,
            rule=FROM_SENSORS,
            reason=reason,
            raw={"kind": "request", "action": action},
        )
        return jsonify(translator()(result)), 403
    return answer(tbl.call("action", source, action=action, player=player))


@bp.post("/api/virtual_roll")
def virtual_roll(token: str):
    """With no dice reader connected, the roller asks the server to roll for them."""
    player = _seat(token)
    return answer(table().call("virtual_roll", f"phone:{player}", player=player))
