"""Helpers for the tests that run a whole table: a server, HTTP and SSE clients, a bot, and
a way to change exactly what one viewer may not see."""

from __future__ import annotations

import contextlib
import http.client
import json
import random
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from companion.config import Config
from companion.server import Companion

# -- HTTP ---------------------------------------------------------------------------------------


#: The seats' claims this test process took (a seat's path -> its claim cookie), as the phone
#: that claimed a seat keeps the cookie: sent with every request under that seat's path.
CLAIMS: dict[str, str] = {}
CLAIM_COOKIE = "companion_claim"


def claim_cookie(path: str) -> str | None:
    """The ``Cookie`` header a phone that claimed the seat of ``path`` sends (None: no claim)."""
    for prefix, value in CLAIMS.items():
        if path == prefix or path.startswith(prefix + "/"):
            return f"{CLAIM_COOKIE}={value}"
    return None


def claimed_headers(path: str, headers: dict[str, str] | None = None) -> dict[str, str]:
    """``headers`` with the claim of the seat of ``path`` added to its cookies, as the phone that
    claimed the seat sends them (unchanged when this process claimed no such seat)."""
    headers = dict(headers or {})
    claimed = claim_cookie(path)
    given = next((name for name in headers if name.lower() == "cookie"), None)
    if claimed is not None and given is None:
        headers["Cookie"] = claimed
    elif claimed is not None and given is not None and CLAIM_COOKIE not in headers[given]:
        headers[given] = f"{headers[given]}; {claimed}"
    return headers


def keep_claims(set_cookies: list[str]) -> None:
    """Remember the seat claims among a response's ``Set-Cookie`` headers."""
    for cookie in set_cookies:
        fields = [field.strip() for field in cookie.split(";")]
        name, _, value = fields[0].partition("=")
        if name != CLAIM_COOKIE:
            continue
        path = next((f[5:] for f in fields[1:] if f.lower().startswith("path=")), "/")
        CLAIMS[path] = value


def request(
    url: str,
    method: str = "GET",
    body: Any = None,
    raw: bytes | None = None,
    timeout: float = 10.0,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any, dict[str, str]]:
    """(status, JSON or text, headers) of one request."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    headers = dict(headers or {})
    headers = claimed_headers(parts.path, headers)
    data = raw
    if body is not None:
        data = json.dumps(body).encode()
        headers.setdefault("Content-Type", "application/json")
    elif raw is not None:
        headers.setdefault("Content-Type", "application/json")
    try:
        conn.request(method, parts.path + (f"?{parts.query}" if parts.query else ""), data, headers)
        response = conn.getresponse()
        keep_claims(response.msg.get_all("Set-Cookie") or [])
        payload = response.read()
        kind = response.getheader("Content-Type", "")
        value: Any = payload  # bytes, unless it is text
        if kind.startswith("application/json"):
            value = json.loads(payload)
        elif (
            kind.startswith(
                ("text/", "image/svg", "application/javascript", "application/manifest")
            )
            or not kind
        ):
            value = payload.decode()
        return response.status, value, dict(response.getheaders())
    finally:
        conn.close()


def get(url: str) -> Any:
    status, value, _ = request(url)
    assert status == 200, (url, status, value)
    return value


_CSRF: dict[str, str] = {}


def csrf_for(url: str) -> str | None:
    """The CSRF token a page would give for a POST to ``url``: its ``/host/<token>`` or
    ``/p/<token>`` page's (from its ``/api/state``), or a join page's (from its meta tag)."""
    parts = urlsplit(url)
    segments = parts.path.split("/")
    origin = f"{parts.scheme}://{parts.netloc}"
    if len(segments) >= 3 and segments[1] in ("host", "p"):
        prefix = f"{origin}/{segments[1]}/{segments[2]}"
        if prefix not in _CSRF:
            status, value, _ = request(f"{prefix}/api/state")
            if status != 200:
                return None
            _CSRF[prefix] = value["csrf"]
        return _CSRF[prefix]
    if len(segments) >= 3 and segments[1] == "join":
        status, page, _ = request(url)
        return meta_csrf(page) if status == 200 else None
    return None


def meta_csrf(page: str) -> str:
    match = re.search(r'<meta name="csrf-token" content="([^"]*)">', page)
    assert match, "the page has no CSRF token"
    return match.group(1)


def post(url: str, body: Any = None, csrf: str | None = None) -> tuple[int, Any]:
    """POST JSON with the CSRF token of the page the URL belongs to (or ``csrf``, if given)."""
    token = csrf if csrf is not None else csrf_for(url)
    status, value, _ = request(
        url,
        "POST",
        body if body is not None else {},
        headers={"X-CSRF-Token": token} if token else None,
    )
    return status, value


def claim(join_url: str) -> str:
    """Open a seat's join link and take the seat, as a phone does; the seat's private page."""
    status, answer = post(join_url)
    assert status == 200 and answer["ok"], answer
    parts = urlsplit(join_url)
    return f"{parts.scheme}://{parts.netloc}{answer['url']}"


def claim_answer(join_url: str) -> tuple[int, Any, list[str]]:
    """Take a seat as another phone does: (status, answer, every Set-Cookie of the answer); the
    claim is not kept in :data:`CLAIMS`."""
    parts = urlsplit(join_url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.request(
            "POST",
            parts.path,
            b"{}",
            {"Content-Type": "application/json", "X-CSRF-Token": csrf_for(join_url)},
        )
        response = conn.getresponse()
        return response.status, json.loads(response.read()), response.msg.get_all("Set-Cookie")
    finally:
        conn.close()


def join_all(host: str) -> dict[str, str]:
    """Every unclaimed seat of the game being played, claimed: the players' private pages."""
    links = get(f"{host}/api/setup")["links"]
    return {player: claim(link["url"]) for player, link in links.items()}


class SSE:
    """A Server-Sent Events reader over a plain HTTP connection."""

    def __init__(self, url: str, timeout: float = 10.0):
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
        headers = claimed_headers(parts.path, {"Accept": "text/event-stream"})
        self.conn.request("GET", parts.path, headers=headers)
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.headers = dict(self.response.getheaders())

    def next(self) -> tuple[str, str]:
        """The next (event, data); comments come back as ("comment", text)."""
        event, data, comment = "message", [], None
        while True:
            line = self.response.readline()
            if not line:
                raise EOFError("the stream ended")
            line = line.decode().rstrip("\r\n")
            if line == "":
                if data:
                    return event, "\n".join(data)
                if comment is not None:
                    return "comment", comment
                continue
            if line.startswith(":"):
                comment = line[1:].strip()
            elif line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].lstrip())

    def snapshot(self) -> dict[str, Any]:
        while True:
            event, data = self.next()
            if event == "snapshot":
                return json.loads(data)
            if event in ("gone", "bye"):
                raise EOFError(event)

    def close(self) -> None:
        self.conn.close()


# -- a server in this process -------------------------------------------------------------------


@dataclass
class Server:
    companion: Companion
    base: str
    thread: threading.Thread

    @classmethod
    def start(cls, data_dir: Path, **config: Any) -> Server:
        config.setdefault("dice_speed", 0.0)  # simulated throws land at once
        cfg = Config(data_dir=data_dir, host="127.0.0.1", port=0, **config).check()
        companion = Companion(cfg)
        companion.start()
        thread = threading.Thread(target=companion.serve_forever, daemon=True)
        thread.start()
        return cls(companion, f"http://127.0.0.1:{companion.port}", thread)

    @property
    def table(self):
        return self.companion.table

    @property
    def host(self) -> str:
        return f"{self.base}/host/{self.companion.host_token}"

    def new_game(self, players: list[str], options: dict | None = None, seed: int = 1) -> dict:
        status, result = post(
            f"{self.host}/api/new_game",
            {
                "confirm": True,
                "game": "abracadawhat",
                "players": players,
                "options": options or {},
                "seed": seed,
            },
        )
        assert status == 200, result
        return join_all(self.host)

    def stop(self) -> None:
        self.companion.close()
        self.thread.join(timeout=5)

    def dragon_roll(
        self, players: list[str], caster: str, options: dict | None = None
    ) -> dict[str, str]:
        """A dealt game in which ``caster``, to play, has cast the Ancient Dragon (stone 1), the
        right neighbour has removed it, and the table waits for the die; the players' links."""
        for seed in range(1, 200):
            links = self.new_game(players, options, seed=seed)
            status, answer = post(f"{self.host}/sim/draw_all")
            assert status == 200 and answer["ok"], answer
            view = self.companion.table.referee_view()
            if (
                view["phase"] == "declare"
                and view["active"] == caster
                and 1 in view["players"][caster]["rack"]
            ):
                status, answer = post(f"{links[caster]}/api/action", {"type": "cast", "spell": 1})
                assert status == 200, answer
                status, answer = post(f"{self.host}/sim/remove")
                assert answer["ok"], answer
                assert self.companion.table.referee_view()["phase"] == "roll"
                return links
        raise AssertionError(f"no seed deals {caster} the Ancient Dragon")


# -- a bot that plays through the same doors as people --------------------------------------------


class Bot:
    """Plays Abracada...What? through the public page, the players' phones and the simulated table.

    ``step()`` makes one move and returns ``(kind, what, status, answer)``.
    """

    def __init__(self, host: str, links: dict[str, str], seed: int = 0, base: str | None = None):
        self.host = host
        self.links = links
        self.base = base or host.split("/host/")[0]
        self.rng = random.Random(seed)

    def phone(self, player: str, action: dict[str, Any]) -> tuple[int, Any]:
        return post(f"{self.links[player]}/api/action", action)

    def sim(self, act: str, body: dict | None = None) -> tuple[int, Any]:
        return post(f"{self.host}/sim/{act}", body or {})

    def step(self) -> tuple[str, Any, int, Any] | None:
        snap = get(f"{self.base}/api/table")
        view = snap["view"]
        if view is None or view["finished"]:
            return None
        phase, active = view["phase"], view["active"]
        if phase in ("deal", "refill"):
            return ("sim", "draw", *self.sim("draw"))
        if phase == "remove":
            return ("sim", "remove", *self.sim("remove"))
        if phase == "roll":
            face = self.rng.randint(1, 6)
            return ("sim", {"roll": face}, *self.sim("roll", {"face": face}))
        if phase == "secret":
            free = [i for i, there in enumerate(view["secret_slots"]) if there]
            action = (
                {"type": "take_secret", "slot": self.rng.choice(free)}
                if free and self.rng.random() < 0.85
                else {"type": "decline_secret"}
            )
            return ("phone", (active, action), *self.phone(active, action))
        if phase == "objection":
            other = self.rng.choice([p for p in view["order"] if p != active])
            action = {"type": self.rng.choice(["object", "allow"])}
            return ("phone", (other, action), *self.phone(other, action))
        # declare: usually cast a stone the caster holds (others can see it), sometimes not
        if view["successes"] and self.rng.random() < 0.35:
            action = {"type": "end_turn"}
        else:
            world = get(f"{self.host}/sim/world")
            held = sorted({s["stone"] for s in world["places"][f"rack:{active}"]})
            floor = view["last_cast"] or 1
            good = [n for n in held if n >= floor]
            spell = (
                self.rng.choice(good)
                if good and self.rng.random() < 0.8
                else self.rng.randint(1, 8)
            )
            action = {"type": "cast", "spell": spell}
        return ("phone", (active, action), *self.phone(active, action))


def wait_until(predicate, timeout: float = 10.0, interval: float = 0.02) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError("timed out waiting")


# -- change what one viewer may not see -------------------------------------------------------------


def perturb(state: dict[str, Any], viewer: str, rng: random.Random) -> dict[str, Any]:
    """A copy of an Abracada...What? state that differs only in what ``viewer`` may not see: the
    rules core's ``indistinguishable`` (its own rack, the reserve, the face-down secret stones,
    the other players' acquired ones, dealt anew; every rack for the table and the host)."""
    from companion.rules import get_game

    return get_game("abracadawhat").indistinguishable(state, viewer, rng)


# -- hidden information: what a viewer fetches must not change when what it may not see changes --


@contextlib.contextmanager
def hidden_changed(server: Server, viewer: str, rng: random.Random, change=None):
    """The server's current state, changed only where ``viewer`` cannot see, for a moment.
    ``change(state, viewer, rng)`` makes the changed copy (default: the game's
    ``indistinguishable``; ``tests/secrets_harness.py`` does this for every endpoint and role)."""
    table = server.table
    with table._lock:
        real = table.history._states[-1]
        change = change or table.history.game.indistinguishable
        table.history._states[-1] = change(real, viewer, rng)
        forget_served(server)
    try:
        yield
    finally:
        with table._lock:
            table.history._states[-1] = real
            forget_served(server)


def forget_served(server: Server) -> None:
    """Forget every cache of what the server serves (call it under the table's lock, after
    changing what the table holds without a new version): the table's snapshots and public view,
    and the streams' encoded snapshot events, kept per table version (without this, a stream
    opened after the change still sends the bytes made before it)."""
    server.table.forget_cached()
    events = server.companion.app.extensions["companion"].get("snapshot_events")
    if events is not None:
        events.forget()


def get_bytes(server: Server, path: str) -> tuple[int, bytes, dict[str, str]]:
    """(status, body as bytes, headers) of a GET of ``path`` exactly as written (no normalising)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.companion.port, timeout=10)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read(), dict(response.getheaders())
    finally:
        conn.close()


def fetch(url: str) -> str:
    """A response as one comparable string: the status and the body."""
    status, value, _ = request(url)
    return f"{status} {json.dumps(value, sort_keys=True) if not isinstance(value, str) else value}"


def first_snapshot(url: str) -> str:
    """The first snapshot a stream sends, as a comparable string."""
    stream = SSE(url)
    try:
        return json.dumps(stream.snapshot(), sort_keys=True)
    finally:
        stream.close()
