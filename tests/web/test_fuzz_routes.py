"""Bad requests get 4xx, never 500: property-based fuzzing of every route of ``app.url_map``.

For each rule of the app (every method), Hypothesis makes requests with arguments that are
right (the real tokens, join codes, games and data sets) or wrong (made up, empty, non-ASCII,
percent-encoded, very long, bidi and control characters), random query strings, headers and
cookies (the companion's own cookies included, with junk in them), and bodies: JSON of random
shapes (with the keys the views read), JSON nested up to a thousand deep, bytes that are not
JSON, forms. Half of the POSTs carry the right CSRF token for their page, so the bodies reach the
views. Every answer must be below 500.

The requests go through Flask's test client against a running table (a real table loop, store
and simulated devices), so they are fast; ``test_fuzz_http.py`` sends raw bytes to the real
server.
"""

from __future__ import annotations

import json
import random
import re
from urllib.parse import quote, urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import Server, join_all, post

EXAMPLES = 25  # per route; the JSON bodies get more below
KNOWN_KEYS = [
    "type",
    "player",
    "spell",
    "stone",
    "slot",
    "game",
    "players",
    "options",
    "seed",
    "colours",
    "component",
    "uid",
    "data",
    "replace",
    "brightness",
    "pin",
    "face",
    "faces",
    "die",
    "reader",
    "long",
    "seat",
    "card",
    "space",
    "action",
    "format",
    "tags",
    "to",
    "target",
    "item",
    "scroll",
    "choice",
]
COOKIES = [
    "companion_lang",
    "companion_host",
    "companion_seat",
    "companion_claim",
    "companion_visitor",
    "companion_display",
]
NASTY = [
    "",
    " ",
    "é",
    "%C3%A9",
    "%",
    "%ZZ",
    "..",
    "../..",
    "\\",
    "//evil.example",
    "null",
    "[]",
    "{}",
    "\u202e",
    "\x00",
    "\x1b[31m",
    "💥",
    "a" * 3000,
    "0" * 40,
    "-1",
    "9" * 30,
    "1e999",
    "NaN",
    "<script>",
    "'\"",
    "\ud7ff",
    "\ufeff",
    "\u0301",
]

text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
latin1 = st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF), max_size=40)
nasty = st.sampled_from(NASTY)


def json_values(depth_keys=st.sampled_from(KNOWN_KEYS) | text):
    scalars = (
        st.none()
        | st.booleans()
        | st.integers(-(2**70), 2**70)
        | st.floats(allow_nan=False, allow_infinity=False)
        | text
        | nasty
    )
    return st.recursive(
        scalars,
        lambda children: (
            st.lists(children, max_size=4) | st.dictionaries(depth_keys, children, max_size=5)
        ),
        max_leaves=25,
    )


@st.composite
def deep_json(draw) -> bytes:
    depth = draw(st.sampled_from([33, 990, 1200, 20_000]))
    opening = draw(st.sampled_from(["[", '{"type":']))
    closing = "]" if opening == "[" else "}"
    return (opening * depth + "1" + closing * depth).encode()


bodies = st.one_of(
    json_values().map(lambda value: ("application/json", json.dumps(value).encode())),
    st.dictionaries(st.sampled_from(KNOWN_KEYS), json_values(), max_size=6).map(
        lambda value: ("application/json", json.dumps(value).encode())
    ),
    deep_json().map(lambda raw: ("application/json", raw)),
    deep_json().map(lambda raw: ("application/json", raw)),  # twice: it must reach the views
    st.binary(max_size=300).map(lambda raw: ("application/json", raw)),
    st.dictionaries(st.sampled_from(KNOWN_KEYS), latin1, max_size=4).map(
        lambda form: ("application/x-www-form-urlencoded", urlencode(form).encode())
    ),
    st.just(("", b"")),
)


class Fixture:
    """A running table with a dealt game and every seat claimed, and what its requests need."""

    def __init__(self, server: Server):
        self.server = server
        self.app = server.companion.app
        self.access = server.companion.access
        # no cookie jar: the Cookie headers a test draws reach the app as they are
        self.client = self.app.test_client(use_cookies=False)
        self.tokens: dict[str, str] = {}
        self.deal()

    def deal(self) -> None:
        """A new dealt game with every seat claimed (a route's fuzzing may have ended the last
        one, or handed its seats over)."""
        status, answer = post(
            f"{self.server.host}/api/new_game",
            {
                "confirm": True,
                "game": "abracadawhat",
                "players": ["Elena", "Denise", "Marta"],
                "seed": 4,
            },
        )
        assert status == 200, answer
        links = join_all(self.server.host)
        post(f"{self.server.host}/sim/draw_all")
        self.tokens = {p: url.rsplit("/", 1)[1] for p, url in links.items()}

    def right(self, name: str) -> list[str]:
        """The values of a rule's argument that mean something to the table now."""
        table = self.server.table
        if name == "token":
            return [self.server.companion.host_token, *self.tokens.values()]
        if name == "code":
            joins = list(table.record.joins.values()) if table.record else []
            return joins + ["en", "it"]
        if name == "key":
            return [self.access.display_key]
        if name == "game":
            return ["abracadawhat", "dorktower"]
        if name == "name":
            return ["example"]
        if name == "act":
            return [
                "draw",
                "remove",
                "roll",
                "place",
                "throw",
                "tap",
                "press",
                "tap_component",
                "take_secret",
                "dice_noise",
                "crooked",
                "turn_tower",
                "tap_unknown",
                "world",
            ]
        if name == "filename":
            return ["app.css", "js/common.js", "page.js", "../pyproject.toml"]
        if name == "play_id":  # the plays kept: a finished one has a chart, others none
            return [str(game.id) for game in table.store.games()] + ["0", "99999999999999999999"]
        return []

    def csrf(self, rule: str, values: dict[str, str], visitor: str) -> str:
        if "token" in values:
            kind = "player" if rule.startswith("/p/") else "host"
            return self.access.csrf(f"{kind}:{values['token']}")
        if "code" in values:
            return self.access.csrf(f"join:{values['code']}")
        return self.access.csrf(f"visitor:{visitor}")


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory):
    server = Server.start(tmp_path_factory.mktemp("fuzz"))
    server.companion.app.config["SSE_KEEPALIVE"] = 0.2
    try:
        yield Fixture(server)
    finally:
        server.stop()


def rules() -> list[tuple[str, str]]:
    """(rule, method) of every route, from an app built like the real one (with the simulated
    table's routes) on a table that is not started."""
    import tempfile
    from pathlib import Path

    from companion.table.runtime import Table
    from companion.table.store import Store
    from companion.web import create_app

    store = Store(Path(tempfile.mkdtemp(prefix="companion-rules-")) / "companion.db")
    try:
        app = create_app(Table(store), sim=object())
        return sorted(
            {
                (rule.rule, method)
                for rule in app.url_map.iter_rules()
                for method in rule.methods - {"HEAD", "OPTIONS"}
            }
        )
    finally:
        store.close()


ROUTES = rules()
ARGUMENT = re.compile(r"<(?:[^<>:]+:)?([^<>]+)>")


@st.composite
def requests(draw, fuzz: Fixture, rule: str, method: str):
    values = {}
    for name in ARGUMENT.findall(rule):
        choices = fuzz.right(name)
        value = draw(
            st.sampled_from(choices) if choices and draw(st.booleans()) else st.one_of(text, nasty)
        )
        values[name] = value
    raw_path = draw(st.booleans())

    def fill(match: re.Match) -> str:
        value = values[match.group(1)]
        return (
            value
            if raw_path and "/" not in value and "?" not in value and "#" not in value
            else quote(value, safe="")
        )

    path = ARGUMENT.sub(fill, rule)
    query = draw(st.dictionaries(text, text, max_size=3))
    visitor = draw(st.sampled_from(["visitor-1", "é", ""]))
    cookies = {
        name: draw(st.sampled_from(fuzz.right("token")) | latin1)
        for name in draw(st.lists(st.sampled_from(COOKIES), max_size=3, unique=True))
    }
    if visitor:
        cookies.setdefault("companion_visitor", visitor)
    if rule.startswith("/p/") and "token" in values and draw(st.booleans()):
        # the phone that claimed the seat: its claim reaches the views
        cookies["companion_claim"] = fuzz.access.seat_claim(values["token"])
    headers = {
        name: draw(latin1)
        for name in draw(
            st.lists(
                st.sampled_from(
                    [
                        "Origin",
                        "X-CSRF-Token",
                        "Accept-Language",
                        "Accept",
                        "Referer",
                        "User-Agent",
                        "If-None-Match",
                        "Range",
                    ]
                ),
                max_size=3,
                unique=True,
            )
        )
    }
    if method == "POST" and draw(st.booleans()):
        headers["X-CSRF-Token"] = fuzz.csrf(rule, values, cookies.get("companion_visitor", ""))
        headers.pop("Origin", None)
    content_type, body = draw(bodies) if method == "POST" else ("", b"")
    if content_type:
        headers["Content-Type"] = content_type
    return path, query, headers, cookies, body


def send(
    fuzz: Fixture, method: str, path: str, query: dict, headers: dict, cookies: dict, body: bytes
) -> int:
    cookie = "; ".join(f"{name}={value}" for name, value in cookies.items())
    if cookie:
        headers = headers | {"Cookie": cookie}
    response = fuzz.client.open(
        path,
        method=method,
        query_string=urlencode(query),
        headers=headers,
        data=body,
        buffered=False,
    )
    try:
        return response.status_code
    finally:
        response.close()


@pytest.mark.slow
@pytest.mark.parametrize(("rule", "method"), ROUTES, ids=[f"{m} {r}" for r, m in ROUTES])
def test_no_request_gets_a_500(fuzz, rule, method):
    fuzz.deal()

    @settings(
        max_examples=EXAMPLES * (4 if method == "POST" else 1),
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(data=st.data())
    def check(data):
        path, query, headers, cookies, body = data.draw(requests(fuzz, rule, method))
        status = send(fuzz, method, path, query, headers, cookies, body)
        assert status < 500, (method, path, query, headers, cookies, body[:200], status)

    check()


def test_the_table_still_works_after_the_fuzzing(fuzz):
    """Whatever the fuzzing did (it may have ended the game or started others), the table
    answers, keeps its log and accepts a new game."""
    status, answer = post(
        f"{fuzz.server.host}/api/new_game",
        {"confirm": True, "game": "abracadawhat", "players": ["Ann", "Bo"], "seed": 1},
    )
    assert status == 200 and answer["ok"], answer
    assert fuzz.client.get("/healthz").status_code == 200


def test_known_bad_requests_are_4xx(fuzz):
    """The requests an attacker found giving 500 before: a non-ASCII token in the path and in
    the seat cookie, JSON nested 990 deep, a 100,000-character name."""
    fuzz.deal()
    client = fuzz.client
    assert client.get("/p/%C3%A9").status_code == 403
    assert client.get("/p/%C3%A9/api/state").status_code == 403
    assert client.get("/", headers={"Cookie": "companion_seat=\xe9"}).status_code == 200
    token = fuzz.tokens["Elena"]
    headers = {
        "X-CSRF-Token": fuzz.access.csrf(f"player:{token}"),
        "Content-Type": "application/json",
        "Cookie": f"companion_claim={fuzz.access.seat_claim(token)}",
    }
    deep = b"[" * 990 + b"]" * 990
    assert client.post(f"/p/{token}/api/action", data=deep, headers=headers).status_code == 400
    long_name = {"game": "abracadawhat", "players": ["A" * 100_000, "B"]}
    host = fuzz.server.companion.host_token
    response = client.post(
        f"/host/{host}/api/new_game",
        json=long_name,
        headers={"X-CSRF-Token": fuzz.access.csrf(f"host:{host}")},
    )
    assert response.status_code == 409 and response.json["rule"] == "TABLE-GAME-2"
    assert len(response.data) < 2000  # the refusal does not echo the name back
    rng = random.Random(5)
    for _ in range(20):  # random bytes as a JSON body
        raw = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
        assert client.post(f"/p/{token}/api/action", data=raw, headers=headers).status_code in (
            400,
            403,
            409,
        )
