"""The host's page: start, pause, undo, end and resume games, hand seats over, teach the tag
registry.

The host is usually a player too, so the host's view of the game hides as much as the table
display does; the host page only adds the controls, the join codes of the seats no phone has
claimed yet (never a claimed seat's link) and the PIN that lets another phone in as host.
"""

from __future__ import annotations

import json

from flask import Blueprint, Response, jsonify, render_template, request, url_for

from ..i18n import t
from ..lights import PALETTE
from ..rules import HOST
from ..table.inputs import BAD_REQUEST, inputs_for
from . import playing
from .common import (
    HOST_COOKIE,
    access,
    answer,
    csrf_token,
    own_words,
    refuse_request,
    select_locale,
    sim,
    sse,
    table,
    translator,
)

bp = Blueprint("host", __name__, url_prefix="/host/<token>")
NO_EXPORT_IN_GAME = "TABLE-TAG-6"


@bp.url_value_preprocessor
def _check_token(endpoint, values):
    check_host((values or {}).get("token", ""))


def check_host(token: str) -> None:
    """Abort with 403 unless ``token`` is a host session's (for every blueprint under
    ``/host/<token>``)."""
    if not access().is_host(token):
        refuse_request(t("This is not a host's link (any more): sign in with the PIN again."))


def _body() -> dict:
    data = request.get_json(silent=True)
    return data if isinstance(data, dict) else {}


def _bad_request(reason: str, what: str, given) -> tuple:
    """A malformed host request: refused, logged and shown like any other bad input."""
    return answer(
        table().call(
            "refuse", "host", rule=BAD_REQUEST, reason=reason, raw={"kind": "request", what: given}
        )
    )


@bp.get("")
def page(token: str):
    return render_template(
        "host.html",
        token=token,
        simulated=sim() is not None,
        seats=table().layout.seats,
        stream=url_for("host.stream", token=token),
        state=url_for("host.state", token=token),
    )


@bp.get("/api/state")
def state(token: str):
    return jsonify(translator()(table().snapshot(HOST)) | {"csrf": csrf_token()})


@bp.get("/stream")
def stream(token: str):
    from .access import hashed

    return sse(lambda t: HOST, stream_of=f"host:{hashed(token)[:16]}")


@bp.get("/api/setup")
def setup(token: str):
    """What the new-game form and the join panel need: the games, their options, the links."""
    t = table()
    links = {}
    if t.record is not None:  # the seats no phone has claimed: their join links
        for player, code in t.record.joins.items():
            links[player] = {
                "url": request.host_url.rstrip("/") + url_for("entry.join", code=code),
                "qr": url_for("entry.join_qr", code=code),
            }
    return jsonify(
        translator()(
            {
                "games": [
                    {
                        "id": g.id,
                        "title": g.title,
                        "min_players": g.min_players,
                        "max_players": min(g.max_players, t.layout.seats),
                        "game_max_players": g.max_players,  # more than the seats: say why not
                        "components": g.components,
                        "options": own_words(found.id)([_option(found, o) for o in g.options]),
                        "table_defaults": dict(inputs_for(found.game).option_defaults),
                    }
                    for found in t.games()
                    for g in [found.game]
                ],
                "links": links,
                "tags": {found.id: t.tags.count(found.id) for found in t.games()},
                "simulated": sim() is not None,
                "pin": access().pin,
                "pin_configured": access().configured_pin is not None,
                "display": url_for("public.display", key=access().display_key),
                "brightness": t.brightness,
                "palette": {name: "#%02x%02x%02x" % rgb for name, rgb in PALETTE.items()},
                "seats": list(t.record.players) if t.record is not None else [],
            }
        )
    )


def _option(game, option) -> dict:
    """An option as the new-game wizard shows it: its name and default (what is sent back), the
    game's words for it (a label, a sentence, each value's words), the control that sets it and
    the rule it comes from. A game's data sets are the values of its ``data_set`` option, told
    by their titles, the one new games use by default first."""
    told = game.described_options[option.name]
    out = {
        "name": option.name,
        "default": option.default,
        "label": told.label,
        "sentence": told.sentence,
        "rule": option.rule,
        "control": told.control,
        "values": [{"value": value, "label": words} for value, words in told.values],
        "low": told.low,
        "high": told.high,
    }
    if not out["values"] and option.choices:
        out["values"] = [{"value": c, "label": str(c)} for c in option.choices]
    data_sets = game.data
    if told.control == "data_set" and data_sets is not None:
        out["default"] = data_sets.default()
        names = data_sets.names()
        names.sort(key=lambda name: name != out["default"])
        # each set told by its title, in the phone's language where the set gives it
        localised = getattr(data_sets, "localised", None)
        lang = select_locale()

        def title(name: str) -> str:
            data = localised(name, lang) if localised is not None else data_sets.get(name)
            return str((data or {}).get("title") or name)

        out["values"] = [{"value": name, "label": title(name)} for name in names]
    return out


@bp.post("/api/new_game")
def new_game(token: str):
    body = _body()
    if not isinstance(body.get("game"), str) or not isinstance(body.get("players"), list):
        return _bad_request(t("A new game needs a game and a list of players."), "new_game", body)
    return answer(
        table().call(
            "new_game",
            "host",
            game=body["game"],
            players=body["players"],
            options=body.get("options") or {},
            seed=body.get("seed"),
            colours=body.get("colours"),
            confirm=body.get("confirm") is True,
        )
    )


@bp.get("/api/games")
def games(token: str):
    """The kept games: the most recent set-aside (unfinished, resumable) and finished ones."""
    return jsonify(translator()(table().kept_games()))


@bp.post("/api/resume_game")
def resume_game(token: str):
    """Resume a set-aside game exactly as it was: ``{"game_id": 3, "confirm": true}`` (the
    confirmation sets aside the game being played)."""
    body = _body()
    game_id = body.get("game_id")
    if isinstance(game_id, bool) or not isinstance(game_id, int):
        return _bad_request(t("Say which game to resume (its id)."), "resume_game", game_id)
    return answer(
        table().call("resume_game", "host", game_id=game_id, confirm=body.get("confirm") is True)
    )


@bp.post("/api/undo")
def undo(token: str):
    return answer(table().call("undo", "host"))


@bp.post("/api/put_back/dismiss")
def dismiss_put_back(token: str):
    """Set aside the checklist of what an undo asks to put back (``put_back`` in snapshots)."""
    return answer(table().call("dismiss_put_back", "host"))


@bp.post("/api/pause")
def pause(token: str):
    return answer(table().call("pause", "host"))


@bp.post("/api/resume")
def resume(token: str):
    return answer(table().call("resume", "host"))


@bp.post("/api/end_game")
def end_game(token: str):
    return answer(table().call("end_game", "host"))


@bp.post("/api/hand_over")
def hand_over(token: str):
    """Give a seat to another phone: its old link stops working, and a new join code shows."""
    player = _body().get("player")
    if not isinstance(player, str):
        return _bad_request(t("Say whose seat to hand over."), "hand_over", player)
    return answer(table().call("hand_over", "host", player=player))


@bp.post("/api/settings")
def settings(token: str):
    """The running table's settings: ``{"brightness": 0.4}``."""
    return answer(table().call("settings", "host", brightness=_body().get("brightness")))


@bp.post("/api/new_pin")
def new_pin(token: str):
    """A new made-up PIN (after showing the old one to someone who should not keep it)."""
    if access().configured_pin is not None:
        return _bad_request(
            t("The PIN is set in the configuration (server.host_pin); change it there."),
            "new_pin",
            True,
        )
    access().new_pin()
    return jsonify({"ok": True})


@bp.post("/api/sign_out")
def sign_out(token: str):
    """This phone is no longer a host (the console link printed at start cannot sign out)."""
    access().sign_out(token)
    playing.forget(token)
    response = jsonify({"ok": True})
    response.delete_cookie(HOST_COOKIE)
    return response


@bp.post("/api/enrol")
def enrol(token: str):
    body = _body()
    if not isinstance(body.get("game"), str) or not isinstance(body.get("component"), str):
        return _bad_request(t("Enrolment needs a game and a component name."), "enrol", body)
    return answer(table().call("enrol", "host", game=body["game"], component=body["component"]))


@bp.post("/api/enrol/guide")
def enrol_guide(token: str):
    """Ask for each component of a game in turn until its whole box is enrolled."""
    game = _body().get("game")
    if not isinstance(game, str):
        return _bad_request(t("Say which game's stickers to enrol."), "enrol_guide", game)
    return answer(table().call("enrol_guide", "host", game=game))


@bp.post("/api/tags/forget_game")
def forget_game_tags(token: str):
    game = _body().get("game")
    if not isinstance(game, str):
        return _bad_request(t("Say which game's stickers to forget."), "forget_game_tags", game)
    return answer(table().call("forget_game_tags", "host", game=game))


@bp.post("/api/enrol/cancel")
def enrol_cancel(token: str):
    return answer(table().call("enrol_cancel", "host"))


@bp.get("/tags.json")
def export_tags(token: str):
    """The sticker map (UID -> component), to teach a second copy of a game. Not while a game is
    being played: with the map, a reader (or a phone's NFC) names a hidden stone from its
    sticker, and the host is usually a player too."""
    tab = table()
    if tab.game_in_progress():
        return answer(
            tab.refuse_quietly(
                "host",
                NO_EXPORT_IN_GAME,
                t(
                    "The sticker map is not exported while a game is being played: it would name hidden "
                    "pieces. End the game first (or use companion tags export on the table's computer)."
                ),
                {"kind": "request", "export_tags": True},
            )
        )
    data = json.dumps(tab.tags.export(), indent=2)
    return Response(
        data,
        mimetype="application/json",
        headers={"Content-Disposition": "attachment; filename=companion-tags.json"},
    )


@bp.post("/api/tags")
def import_tags(token: str):
    body = _body()
    return answer(
        table().call(
            "import_tags", "host", data=body.get("data"), replace=bool(body.get("replace"))
        )
    )


@bp.post("/api/tags/forget")
def forget_tag(token: str):
    uid = _body().get("uid")
    if not isinstance(uid, str):
        return _bad_request(t("Say which sticker to forget (its uid)."), "forget_tag", uid)
    return answer(table().call("forget_tag", "host", uid=uid.upper()))
