"""One private page per player, reached by the secret token in the join link or QR code.

The token decides the viewer: everything served here is the player's own view, built by the rules
core's ``view`` on the server, so a player's own stones never reach the player's phone.
"""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, render_template, request, url_for

from ..table.inputs import inputs_for
from .common import answer, forbidden, sse, table

bp = Blueprint("player", __name__, url_prefix="/p/<token>")

FROM_SENSORS = "TABLE-REQUEST-2"


def _player(token: str) -> str | None:
    return table().viewer_for_token(token)


@bp.get("")
def page(token: str):
    player = _player(token)
    if player is None:
        abort(404)
    return render_template("player.html", player=player,
                           stream=url_for("player.stream", token=token),
                           state=url_for("player.state", token=token),
                           act=url_for("player.act", token=token),
                           roll=url_for("player.virtual_roll", token=token))


@bp.get("/api/state")
def state(token: str):
    player = _player(token)
    if player is None:
        return forbidden("This link is not valid for the game being played.", 404)
    return jsonify(table().snapshot(player))


@bp.get("/stream")
def stream(token: str):
    if _player(token) is None:
        return forbidden("This link is not valid for the game being played.", 404)
    return sse(lambda t: t.viewer_for_token(token))


@bp.post("/api/action")
def act(token: str):
    """A player's decision: the server, not the phone, says which player makes it.

    A phone may send only the game's decisions (``phone_actions``): never a deal, a draw, a
    removal or a roll, which the table's sensors observe, and never an undo, which is the host's.
    """
    player = _player(token)
    if player is None:
        return forbidden("This link is not valid for the game being played.", 404)
    t = table()
    source = f"phone:{player}"
    action = request.get_json(silent=True)
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return answer(t.call("action", source, action=action, player=player))  # INPUT-1
    action = {k: v for k, v in action.items() if k != "player"} | {"player": player}
    mapper = inputs_for(t.history.game) if t.history else None
    kind = action["type"]
    if mapper is not None and kind not in mapper.phone_actions:
        if kind in mapper.sensor_actions:
            reason = "That action comes from the table's sensors, not from a phone."
        else:
            reason = (f"A phone cannot send {kind!r}; it can send "
                      f"{', '.join(sorted(mapper.phone_actions))}.")
        result = t.call("refuse", source, rule=FROM_SENSORS, reason=reason,
                        raw={"kind": "request", "action": action})
        return jsonify(result), 403
    return answer(t.call("action", source, action=action, player=player))


@bp.post("/api/virtual_roll")
def virtual_roll(token: str):
    """With no dice reader connected, the roller asks the server to roll for them."""
    player = _player(token)
    if player is None:
        return forbidden("This link is not valid for the game being played.", 404)
    return answer(table().call("virtual_roll", f"phone:{player}", player=player))
