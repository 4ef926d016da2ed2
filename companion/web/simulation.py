"""The simulated table's controls: hands that tap stickers, press seat buttons and roll the dice,
and the acts of the game being played (its simulated hands' ``acts``: deal, draw, remove...).

Registered only when the devices are simulated. It shows every stone face, as the physical world
does, so it lives behind the host's link; it is a simulation tool, not a player's page. For a host
who plays a seat (``playing.py``) it is blind: the world, the buttons and the acts are the ones its
game's hands offer that seat's player, and an act's answer says only whether the table accepted
it and why not (never the stone or card the hands took).
"""

from __future__ import annotations

import json

from flask import Blueprint, abort, jsonify, request

from . import playing
from .access import hashed
from .common import (
    KEEPALIVE,
    WAKE_KEY,
    answer,
    forbidden,
    sim,
    stream_response,
    streams,
    table,
    translator,
)
from .host import _check_token
from .streams import Feed

bp = Blueprint("sim", __name__, url_prefix="/host/<token>/sim")
bp.url_value_preprocessor(_check_token)

LED_FPS = 15


def _body() -> dict:
    data = request.get_json(silent=True)
    return data if isinstance(data, dict) else {}


@bp.get("/world")
def world(token: str):
    """The simulated table's world, blind for the seat this host plays (if any); and which seat
    that is (``plays``) and the seats there are (``seats``)."""
    plays = playing.plays(token)
    record = table().record
    return jsonify(
        translator()(
            sim().world(plays.player)
            | {"plays": plays.to_json(), "seats": list(record.players) if record else []}
        )
    )


@bp.post("/plays")
def choose_seat(token: str):
    """``{"player": "Elena"}`` (or ``null``): the seat this host plays; the panel is blind for
    it from now on."""
    player = _body().get("player")
    if player is not None and not isinstance(player, str):
        return forbidden("say which seat you play: a player's name, or null", 400)
    return answer(playing.choose(token, player))


@bp.post("/<act>")
def act(token: str, act: str):
    """Do something at the simulated table; answer with what the table made of it (for a host
    who plays a seat, only whether it was accepted, and why not)."""
    viewer = playing.plays(token).player
    try:
        outcomes = _do(sim(), act, _body(), viewer)
    except ValueError as exc:  # a malformed request, or one the simulated world cannot do
        return forbidden(str(exc), 400)
    refused = [o for o in outcomes if not o["ok"]]
    if viewer is not None:  # blind: what was tapped or drawn stays unseen
        outcomes = [
            {"ok": True} if o["ok"] else {"ok": False, "rule": o["rule"], "reason": o["reason"]}
            for o in outcomes
        ]
    result = {"ok": bool(outcomes) and not refused, "outcomes": outcomes}
    if refused:
        result.update(rule=refused[-1]["rule"], reason=refused[-1]["reason"])
    return jsonify(translator()(result))


def _do(s, act: str, body: dict, viewer: str | None = None) -> list[dict]:
    """The simulated hands' act; ``ValueError`` for arguments that make no sense."""
    if act in ("tap_unknown", "tap_box", "dice_noise", "crooked", "put_back"):
        return getattr(s, act)()
    if act == "tap":
        return s.tap(
            _arg(body, "uid", str, "tap needs a uid"),
            reader=_arg(body, "reader", str, "tap's reader is a name", default="board"),
        )
    if act == "press":
        seat = _arg(body, "seat", int, "press needs a seat")
        if not 0 <= seat < s.devices.buttons.seats:
            raise ValueError("press needs a seat")
        return s.press(seat, long=bool(body.get("long")))
    if act in ("roll", "place"):
        face = body.get("face")
        if not _face_ok(face):
            raise ValueError(f"{act} takes a face label or none")
        die = _arg(body, "die", int, f"{act} takes a die number (0 for the first)", default=0)
        return getattr(s, act)(face, die=die)
    if act == "throw":
        faces = body.get("faces")
        if faces is not None and (not isinstance(faces, list) or not all(map(_face_ok, faces))):
            raise ValueError("throw takes a list of face labels (or none)")
        return s.throw(faces)
    arguments = s.game_acts(viewer).get(act)
    if arguments is None:  # no such act, or not in the game being played (or for this host)
        abort(404)
    return s.game_act(
        act,
        viewer,
        **{name: _arg(body, name, kind, message) for name, (kind, message) in arguments.items()},
    )


def _arg(body: dict, key: str, kind: type, message: str, default=None):
    value = body.get(key, default)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ValueError(message)
    return value


def _face_ok(face) -> bool:
    """A face label: none, a number or a short word (checked against the die's profile later)."""
    return face is None or (
        not isinstance(face, bool)
        and isinstance(face, (int, str))
        and str(face).replace("-", "").replace("_", "").isalnum()
    )


@bp.get("/leds")
def leds(token: str):
    t = table()
    return jsonify(
        {
            name: [f"#{r:02x}{g:02x}{b:02x}" for r, g, b in pixels]
            for name, pixels in t.frames().items()
        }
    )


@bp.get("/leds/stream")
def leds_stream(token: str):
    """The frames the simulated strips show, at most LED_FPS times a second, when they change."""
    t = table()
    strips = s.devices.strips if (s := sim()) else {}
    _, limits = streams()
    slot = limits.open(
        f"leds:{hashed(token)[:16]}",
        request.remote_addr or "?",
        request.environ.get(WAKE_KEY, t.wake_streams),
    )

    def shown() -> tuple[int | None, ...]:
        """Which frame each strip shows (its sequence number): what the stream follows."""
        return tuple(strip.latest().seq if strip.latest() else None for strip in strips.values())

    def render() -> bytes:
        current = {
            name: [
                f"#{r:02x}{g:02x}{b:02x}"
                for r, g, b in (strip.latest().pixels if strip.latest() else [])
            ]
            for name, strip in strips.items()
        }
        return f"event: frame\ndata: {json.dumps(current)}\n\n".encode()

    return stream_response(
        Feed(t, render, key=shown, poll=1 / LED_FPS, slot=slot, limits=limits, keepalive=KEEPALIVE)
    )
