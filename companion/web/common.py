"""Helpers shared by the blueprints: the table, JSON answers, refusals and SSE streams."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Response, current_app, jsonify, request

KEEPALIVE = 15.0  # seconds between comments on an idle stream
HANG_UP_CHECK = 1.0  # seconds between checks that the client is still there


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


def sse(viewer: Callable[[Any], str | None]) -> Response:
    """A Server-Sent Events stream of snapshots for the viewer that ``viewer(table)`` names.

    ``viewer`` is asked again after every change: when it answers ``None`` (the game the token
    belonged to was replaced), the stream says ``gone`` and ends. The stream runs after the
    request's context is gone, so it holds the table itself. A client that hangs up (a phone going
    to sleep) is noticed within a second, so its server thread is free again at once.
    """
    t = table()
    hung_up = client_gone()
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


def client_gone() -> Callable[[], bool]:
    """A check that says whether the client of this request has hung up (under waitress)."""
    return request.environ.get("waitress.client_disconnected", lambda: False)
