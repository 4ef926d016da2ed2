"""Helpers shared by the blueprints: the table, JSON answers, refusals and SSE streams."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from flask import Response, current_app, jsonify

KEEPALIVE = 15.0  # seconds between comments on an idle stream


def table() -> Any:
    return current_app.extensions["companion"]["table"]


def sim() -> Any:
    return current_app.extensions["companion"]["sim"]


def host_token() -> str:
    return current_app.extensions["companion"]["host_token"]


def answer(result: dict[str, Any]) -> tuple[Response, int]:
    """A table answer as HTTP: 200 when accepted, 409 when the rules refused, 400 if malformed."""
    if result.get("ok"):
        return jsonify(result), 200
    status = 400 if result.get("rule", "").startswith(("INPUT-", "TABLE-REQUEST-")) else 409
    return jsonify(result), status


def forbidden(message: str, status: int = 403) -> tuple[Response, int]:
    return jsonify({"ok": False, "error": message}), status


def sse(viewer: Callable[[Any], str | None], keepalive: float = KEEPALIVE) -> Response:
    """A Server-Sent Events stream of snapshots for the viewer that ``viewer(table)`` names.

    ``viewer`` is asked again after every change: when it answers ``None`` (the game the token
    belonged to was replaced), the stream says ``gone`` and ends. The stream runs after the
    request's context is gone, so it holds the table itself.
    """
    t = table()

    def events() -> Iterator[str]:
        yield f"retry: 2000\n: {' ' * 2048}\n\n"  # the padding flushes headers through proxies
        seen = -1
        while not t.closing:
            who = viewer(t)
            if who is None:
                yield "event: gone\ndata: {}\n\n"
                return
            if t.version != seen:
                snap = t.snapshot(who)
                seen = snap["version"]
                yield f"event: snapshot\nid: {seen}\ndata: {json.dumps(snap)}\n\n"
            elif not t.closing:
                yield ": keep-alive\n\n"
            t.wait_for_change(seen, keepalive)
        yield "event: bye\ndata: {}\n\n"

    return Response(events(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
