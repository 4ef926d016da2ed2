"""The host's page: start a game, hand out the join codes, undo, and teach the tag registry.

The host is usually a player too, so the host's view of the game hides as much as the table
display does; the host page only adds the controls and the players' join links.
"""

from __future__ import annotations

import io
import json
import secrets

import segno
from flask import Blueprint, Response, abort, jsonify, render_template, request, url_for

from ..rules import HOST, games
from ..table.inputs import BAD_REQUEST
from .common import answer, forbidden, host_token, sim, sse, table

bp = Blueprint("host", __name__, url_prefix="/host/<token>")


@bp.url_value_preprocessor
def _check_token(endpoint, values):
    token = (values or {}).get("token", "")
    if not secrets.compare_digest(token.encode(), host_token().encode()):
        body, status = forbidden("This is not the host's link.")
        body.status_code = status
        abort(body)


def _body() -> dict:
    data = request.get_json(silent=True)
    return data if isinstance(data, dict) else {}


def _bad_request(reason: str, what: str, given) -> tuple:
    """A malformed host request: refused, logged and shown like any other bad input."""
    return answer(table().call("refuse", "host", rule=BAD_REQUEST, reason=reason,
                               raw={"kind": "request", what: given}))


@bp.get("")
def page(token: str):
    return render_template("host.html", token=token, simulated=sim() is not None,
                           stream=url_for("host.stream", token=token),
                           state=url_for("host.state", token=token))


@bp.get("/api/state")
def state(token: str):
    return jsonify(table().snapshot(HOST))


@bp.get("/stream")
def stream(token: str):
    return sse(lambda t: HOST)


@bp.get("/api/setup")
def setup(token: str):
    """What the new-game form and the join panel need: the games, their options, the links."""
    t = table()
    links = {}
    if t.record is not None:
        for player, player_token in t.record.tokens.items():
            links[player] = {"url": request.host_url.rstrip("/") + url_for(
                "player.page", token=player_token),
                "qr": url_for("host.qr", token=token, player=player)}
    return jsonify({
        "games": [{"id": g.id, "title": g.title, "min_players": g.min_players,
                   "max_players": min(g.max_players, t.layout.seats),
                   "components": g.components,
                   "options": [_option(g, o) for o in g.options],
                   "table_defaults": _table_defaults(g)} for g in games()],
        "links": links,
        "tags": {g.id: t.tags.count(g.id) for g in games()},
        "simulated": sim() is not None,
    })


def _option(game, option) -> dict:
    """An option as the new-game form shows it; a game's data sets are the choices of its
    ``data_set`` option, the one new games use by default first."""
    out = {"name": option.name, "default": option.default, "doc": option.doc,
           "rule": option.rule, "choices": list(option.choices)}
    datasets = getattr(game, "datasets", None)
    if option.name == "data_set" and datasets:
        out["default"] = getattr(game, "default_set", option.default)
        out["choices"] = sorted(datasets)
    return out


def _table_defaults(game) -> dict:
    from ..table.inputs import INPUTS

    mapper = INPUTS.get(game.id)
    return dict(mapper.option_defaults) if mapper else {}


@bp.get("/join/<player>.svg")
def qr(token: str, player: str):
    t = table()
    if t.record is None or player not in t.record.tokens:
        abort(404)
    url = request.host_url.rstrip("/") + url_for("player.page", token=t.record.tokens[player])
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=6, border=2, dark="#000",
                                    light="#fff", title=f"Join as {player}")
    return Response(out.getvalue(), mimetype="image/svg+xml")


@bp.post("/api/new_game")
def new_game(token: str):
    body = _body()
    if not isinstance(body.get("game"), str) or not isinstance(body.get("players"), list):
        return _bad_request("A new game needs a game and a list of players.", "new_game", body)
    return answer(table().call("new_game", "host", game=body["game"], players=body["players"],
                               options=body.get("options") or {}, seed=body.get("seed")))


@bp.post("/api/undo")
def undo(token: str):
    return answer(table().call("undo", "host"))


@bp.post("/api/enrol")
def enrol(token: str):
    body = _body()
    if not isinstance(body.get("game"), str) or not isinstance(body.get("component"), str):
        return _bad_request("Enrolment needs a game and a component name.", "enrol", body)
    return answer(table().call("enrol", "host", game=body["game"], component=body["component"]))


@bp.post("/api/enrol/cancel")
def enrol_cancel(token: str):
    return answer(table().call("enrol_cancel", "host"))


@bp.get("/tags.json")
def export_tags(token: str):
    data = json.dumps(table().tags.export(), indent=2)
    return Response(data, mimetype="application/json",
                    headers={"Content-Disposition": "attachment; filename=companion-tags.json"})


@bp.post("/api/tags")
def import_tags(token: str):
    body = _body()
    return answer(table().call("import_tags", "host", data=body.get("data"),
                               replace=bool(body.get("replace"))))


@bp.post("/api/tags/forget")
def forget_tag(token: str):
    uid = _body().get("uid")
    if not isinstance(uid, str):
        return _bad_request("Say which sticker to forget (its uid).", "forget_tag", uid)
    return answer(table().call("forget_tag", "host", uid=uid.upper()))
