"""The secrets harness: for any registered game, no page, API or stream shows a role anything that
role may not see (not a test module; ``tests/web/test_secrets_harness.py`` runs it for every game
of the registry, and ``docs/secrets.md`` explains it).

It plays random games through a running server, as people would: phone decisions through the
players' ``/api/action``, deals, draws, removals and rolls as the table's sensors report them. At
every step, for every role (each player, the table display, the host, and a phone with no token or
a wrong one), it fetches every GET endpoint the Flask app has (read from ``app.url_map``, so a new
endpoint is covered the day it is added; a stream is read up to its first snapshot). Then it swaps
the server's state for ``game.indistinguishable(state, viewer, rng)`` (everything the role may not
see, dealt anew) and the private parts of the logged events the role may not see for others,
fetches everything again, and fails naming the role, the endpoint and the first differing bytes.
A role reaching an endpoint that is not its own must get 401, 403 or 404, and no game data.

What it cannot see: refusal reasons and the public parts of events are recorded when they happen,
so a swap does not change them; they are the rules' own tests' business (a refusal never names
hidden information).
"""

from __future__ import annotations

import http.client
import json
import random
import re
import secrets
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlsplit

from companion.rules import EVERYTHING, HOST, TABLE, Game, get_game
from companion.table.inputs import inputs_for
from support import Server, claim, get, join_all, post

#: A phone with no token, or a made-up one: it sees what the table display shows, no more.
NOBODY = "@nobody"

#: Endpoints the harness does not fetch, and why.
EXCLUDED_ENDPOINTS = {
    # the pages' own files: the same bytes for everyone, no game in them
    "static": "static files",
}
EXCLUDED_PREFIXES = {
    # The simulated table's world and LEDs show the physical world on purpose (every stone face,
    # where each sticker lies): a simulation tool behind the host's link, never a player's page.
    "/host/<token>/sim": "the simulated table (shows the physical world on purpose)",
}
#: Whose page an endpoint with a ``<token>`` is: a player's token or a host's.
TOKEN_PREFIXES = {"/p/<token>": "player", "/host/<token>": "host"}
DENIED = (401, 403, 404)
IGNORED_HEADERS = {"date"}  # the clock, not the game
PLAYER_NAMES = ["Xanthe", "Yorick", "Zephyrine", "Quillon", "Wystan", "Ottoline", "Ignatius",
                "Perpetua"]


class Leak(AssertionError):
    """A response a role got changed when only what it may not see changed."""


@dataclass
class Fetch:
    name: str  #: the rule, e.g. ``/p/<token>/api/state``, with the arguments that differ
    url: str
    own: bool | None  #: True: the role's own page (must answer); False: not its (must refuse)


@dataclass
class Report:
    game: str
    players: list[str]
    seed: int
    steps: int = 0
    checks: int = 0  #: role checks made (one role, one step: everything fetched twice)
    changed: int = 0  #: of them, how many swaps really changed something (the referee's view)
    fetches: int = 0
    phases: Counter = field(default_factory=Counter)
    actions: Counter = field(default_factory=Counter)
    endpoints: set[str] = field(default_factory=set)
    finished: bool = False


def random_options(game: Game, rng: random.Random) -> dict[str, Any]:
    """Options for a random game: each option with choices or a yes/no picked at random."""
    out: dict[str, Any] = {}
    for opt in game.options:
        if opt.choices:
            out[opt.name] = rng.choice(opt.choices)
        elif isinstance(opt.default, bool):
            out[opt.name] = rng.random() < 0.5
    return out


def choices(game: Game, state: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """What could happen next, in a random order: the players' legal actions and the awaited
    chance step (sampled from the state's seed). The order is random by type first, so that a
    type with many variants (a spell for every number, a card for every card) does not crowd
    out the others."""
    options = list(game.legal_actions(state))
    if game.chance(state) is not None:
        options.append(game.sample(state))
    kinds = sorted({a["type"] for a in options})
    rng.shuffle(kinds)
    out = []
    for kind in kinds:
        of_kind = [a for a in options if a["type"] == kind]
        rng.shuffle(of_kind)
        out += of_kind
    return out


class Harness:
    """One random game of ``game`` on ``server``, checked at every step."""

    def __init__(self, server: Server, game: Game, players: list[str], seed: int,
                 options: dict[str, Any] | None = None, fetch_timeout: float = 10.0):
        self.server = server
        self.game = game
        self.players = players
        self.seed = seed
        self.rng = random.Random(f"secrets/{game.id}/{seed}")
        self.options = options if options is not None else random_options(game, self.rng)
        self.links: dict[str, str] = {}
        self.tokens: dict[str, str] = {}
        self.wrong = secrets.token_urlsafe(32)  # nobody's token, and nobody's join code
        self.stale: list[str] = []  # the links of seats handed over: nobody's any more
        self.visitor = secrets.token_urlsafe(16)  # every browser's visitor cookie (the PIN form)
        self.timeout = fetch_timeout
        self.report = Report(game.id, list(players), seed)

    # -- the game ------------------------------------------------------------------------------

    def start(self) -> None:
        status, answer = post(f"{self.server.host}/api/new_game",
                              {"game": self.game.id, "players": self.players,
                               "options": self.options, "seed": self.seed})
        assert status == 200 and answer.get("ok"), answer

    def claim_seats(self) -> None:
        self.links = join_all(self.server.host)
        self.tokens = {p: url.rsplit("/", 1)[1] for p, url in self.links.items()}

    def state(self) -> dict[str, Any]:
        return self.server.table.history.state

    def step(self) -> bool:
        """One thing happens (a random choice of what may); False when nothing can."""
        state = self.state()
        if self.game.outcome(state).finished:
            self.report.finished = True
            return False
        mapper = inputs_for(self.game)
        for action in choices(self.game, state, self.rng):
            player = action.get("player")
            if player in self.links and action["type"] in mapper.phone_actions:
                body = {k: v for k, v in action.items() if k != "player"}
                ok = post(f"{self.links[player]}/api/action", body)[0] == 200
            else:  # what the table's sensors report: a deal, a draw, a removal, a roll
                ok = self.server.table.call("action", "test", action=action)["ok"]
            if ok:
                self.report.steps += 1
                self.report.actions[action["type"]] += 1
                return True
        return False

    def hand_over(self) -> None:
        """The host hands a random seat to another phone: everything is checked while the old
        link is dead and the seat's new join code is on the table display; then a new phone
        claims the seat."""
        player = self.rng.choice(sorted(self.tokens))
        status, answer = post(f"{self.server.host}/api/hand_over", {"player": player})
        assert status == 200 and answer.get("ok"), answer
        self.stale.append(self.tokens.pop(player))
        del self.links[player]
        self.check()
        link = get(f"{self.server.host}/api/setup")["links"][player]["url"]
        self.links[player] = claim(link)
        self.tokens[player] = self.links[player].rsplit("/", 1)[1]
        self.report.actions["hand_over"] += 1

    def play(self, steps: int, every: int = 1, hand_over_at: int | None = -1) -> Report:
        """Start a game, check it before the seats are claimed, claim them, then make ``steps``
        random moves, checking every role before each ``every``-th and after the last; a seat
        is handed over at step ``hand_over_at`` (-1: half way; None: never)."""
        if hand_over_at == -1:
            hand_over_at = steps // 2
        self.start()
        self.check(roles=[TABLE, HOST, NOBODY])  # the join codes are on the table display
        self.claim_seats()
        for n in range(steps):
            if n == hand_over_at:
                self.hand_over()
            if n % every == 0:
                self.check()
            if not self.step():
                break
        self.check()
        return self.report

    # -- the roles and what they fetch ---------------------------------------------------------

    def roles(self) -> list[str]:
        return [*self.tokens, TABLE, HOST, NOBODY]

    @staticmethod
    def viewer(role: str) -> str:
        return TABLE if role == NOBODY else role

    def token(self, role: str) -> str | None:
        if role == HOST:
            return self.server.companion.host_token
        if role == NOBODY:
            return self.wrong
        return self.tokens.get(role)

    def cookies(self, role: str) -> str:
        jar = [f"companion_visitor={self.visitor}"]
        if role == HOST:
            jar.append(f"companion_host={self.token(role)}")
        elif role in self.tokens:
            jar.append(f"companion_seat={self.token(role)}")
        return "; ".join(jar)

    def rules(self) -> list[Any]:
        """Every GET rule of the app but the excluded ones."""
        out = []
        for rule in self.server.companion.app.url_map.iter_rules():
            if "GET" not in (rule.methods or ()) or rule.endpoint in EXCLUDED_ENDPOINTS:
                continue
            if any(rule.rule.startswith(p) for p in EXCLUDED_PREFIXES):
                continue
            out.append(rule)
        return out

    def plan(self, role: str) -> list[Fetch]:
        """Everything ``role`` fetches: every GET endpoint, its arguments filled for the role."""
        out: list[Fetch] = []
        for rule in self.rules():
            if role == NOBODY and not secret_arguments(rule):
                continue  # the same requests as the table display's
            for values in self.arguments(rule, role):
                url = re.sub(r"<(?:[^<>:]+:)?([^<>]+)>",
                             lambda m, v=values: quote(str(v[m.group(1)]), safe=""), rule.rule)
                own = None
                if "token" in rule.arguments:
                    kind = next((k for p, k in TOKEN_PREFIXES.items()
                                 if rule.rule.startswith(p)), None)
                    mine = "host" if role == HOST else "player" if role in self.tokens else None
                    own = kind is not None and kind == mine
                if role == NOBODY and secret_arguments(rule):
                    own = False
                shown = {k: v for k, v in values.items() if k != "token"}
                if role == NOBODY and "token" in values:
                    shown["token"] = "made up" if values["token"] == self.wrong else "stale"
                name = rule.rule + (f" {json.dumps(shown, sort_keys=True)}" if shown else "")
                out.append(Fetch(name, self.server.base + url, own))
        return out

    def arguments(self, rule: Any, role: str) -> list[dict[str, Any]]:
        """The values of a rule's arguments for ``role`` (several: one fetch each)."""
        args = set(rule.arguments)
        options: list[dict[str, Any]] = [{}]
        if "token" in args:
            token = self.token(role)
            if token is None:  # the table display has no token: NOBODY tries the wrong ones
                return []
            options = [{"token": token}]
            if role == NOBODY:  # a made-up token, and the dead links of seats handed over
                options += [{"token": old} for old in self.stale]
            args.discard("token")
        if "code" in args and rule.rule.startswith("/join/"):
            # the seats' join codes are on the table display: anyone may scan them
            record = self.server.table.record
            codes = sorted(record.joins.values()) if record is not None and role != NOBODY \
                else []
            options = [o | {"code": c} for o in options for c in (codes or [self.wrong])]
            args.discard("code")
        if "code" in args and rule.rule.startswith("/lang/"):  # the languages a phone can pick
            options = [o | {"code": c} for o in options for c in languages()]
            args.discard("code")
        if {"game", "name"} <= args:  # a game's printed data sets
            names = sorted(getattr(self.game, "datasets", None) or {}) or ["none"]
            options = [o | {"game": self.game.id, "name": n} for o in options for n in names]
            args -= {"game", "name"}
        if args:
            raise AssertionError(f"the secrets harness does not know what to put for "
                                 f"{sorted(args)} in {rule.rule}: teach Harness.arguments, so "
                                 f"that the endpoint is checked for every role")
        return options

    # -- fetching ------------------------------------------------------------------------------

    def fetch(self, f: Fetch, role: str) -> tuple[int, bytes]:
        """The status and a comparable text of one response: its headers (but the date) and its
        body, or a stream's first snapshot."""
        parts = urlsplit(f.url)
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=self.timeout)
        try:
            conn.request("GET", parts.path, headers={"Cookie": self.cookies(role),
                                                     "Accept": "*/*"})
            response = conn.getresponse()
            headers = sorted((k.lower(), v) for k, v in response.getheaders()
                             if k.lower() not in IGNORED_HEADERS)
            if response.getheader("Content-Type", "").startswith("text/event-stream"):
                body = _first_snapshot(response)
            else:
                body = response.read()
            self.report.fetches += 1
            head = f"{response.status}\n" + "".join(f"{k}: {v}\n" for k, v in headers)
            return response.status, head.encode() + b"\n" + body
        finally:
            conn.close()

    def fetch_all(self, plan: list[Fetch], role: str) -> dict[str, tuple[int, bytes]]:
        return {f.name: self.fetch(f, role) for f in plan}

    # -- the check -------------------------------------------------------------------------------

    def check(self, roles: list[str] | None = None) -> None:
        self.report.phases[self.state().get("phase", "?")] += 1
        for role in roles or self.roles():
            self.check_role(role)

    def check_role(self, role: str, attempts: int = 6) -> None:
        """Everything ``role`` fetches, for the real state and for one it cannot tell apart.

        A response may change with the clock (an uptime, a device's last report): what differs
        between two readings of the real state is not evidence. A difference under the swap
        that no reading of the real state shows is checked once more with the same swapped
        state; if it is there again, it is a leak."""
        plan = self.plan(role)
        table = self.server.table
        for _ in range(attempts):
            version = table.version
            swap = _Swap(self, self.viewer(role))
            before = self.fetch_all(plan, role)
            with swap:
                after = self.fetch_all(plan, role)
            differing = [f for f in plan if after[f.name] != before[f.name]]
            again = self.fetch_all(differing, role)
            if table.version != version:
                continue  # a device reported, a seat was claimed: compare again
            real = {f.name: [before[f.name][1], again[f.name][1]] for f in differing}
            suspects = [f for f in differing
                        if leak_at(real[f.name], [after[f.name][1]]) is not None]
            if suspects:  # the same swap once more, between two more readings of the real state
                first = self.fetch_all(suspects, role)
                with swap:
                    once_more = self.fetch_all(suspects, role)
                last = self.fetch_all(suspects, role)
                if table.version != version:
                    continue
                for f in suspects:
                    readings = real[f.name] + [first[f.name][1], last[f.name][1]]
                    at = leak_at(readings, [after[f.name][1], once_more[f.name][1]])
                    if at not in (None, UNDECIDED):
                        raise Leak(f"{self.game.id}: {f.name} leaks to {_role_name(role)} what "
                                   f"it may not see (seed {self.seed}, step "
                                   f"{self.report.steps}, phase "
                                   f"{self.state().get('phase')!r}):\n"
                                   f"{first_difference(before[f.name][1], after[f.name][1], at)}")
                continue  # the clock, not the game: compare again
            break
        else:
            raise AssertionError(f"{self.game.id}: the table kept changing while "
                                 f"{_role_name(role)}'s pages were compared")
        self.report.checks += 1
        self.report.changed += swap.changed
        for f in plan:
            self.report.endpoints.add(f.name.split(" ")[0])
            self.check_access(f, role, *before[f.name])

    def check_access(self, f: Fetch, role: str, status: int, text: bytes) -> None:
        """A role's own page answers; any other token's page refuses, with no game data."""
        if f.own is True:
            assert status < 400, (f"{_role_name(role)} cannot reach its own {f.name}: "
                                  f"{status}\n{text[:500]!r}")
        elif f.own is False:
            assert status in DENIED, (f"{_role_name(role)} reaches {f.name}, which is not its "
                                      f"page, with {status} (expected one of {DENIED})")
            body = text.split(b"\n\n", 1)[-1]
            names = [p for p in self.players if p.encode() in body]
            assert not names, (f"{_role_name(role)} is refused {f.name} but the refusal names "
                               f"{names}")


class _Swap:
    """The server's state and event log changed in exactly what ``viewer`` may not see, for as
    long as the ``with`` lasts (under the table's lock; restored afterwards); the same changed
    state every time it is entered. ``changed`` says whether the referee would tell the two
    states apart (a swap that changes nothing proves nothing)."""

    def __init__(self, harness: Harness, viewer: str):
        game, table, rng = harness.game, harness.server.table, harness.rng
        self.table = table
        with table._lock:
            self.depth = len(table.history._states)
            self.real = table.history._states[-1]
            self.other = game.indistinguishable(self.real, viewer, rng)
            self.changed = int(game.view(self.other, EVERYTHING) !=
                               game.view(self.real, EVERYTHING))
            self.events = []  # private parts meant for others: changed as well
            for entry in table.events:
                event = entry["event"]
                if "private" in event and viewer not in event.get("audience", ()):
                    hidden = event | {"private": {"changed": rng.getrandbits(64)}}
                    self.events.append((entry, event, hidden))
                    self.changed = 1

    def __enter__(self) -> _Swap:
        table = self.table
        with table._lock:
            history = table.history
            assert len(history._states) == self.depth and history._states[-1] is self.real, \
                "the game moved on while it was being compared"
            history._states[-1] = self.other
            for entry, _, hidden in self.events:
                entry["event"] = hidden
            table._cache.clear()
        return self

    def __exit__(self, *exc: object) -> None:
        table = self.table
        with table._lock:
            history = table.history
            assert len(history._states) == self.depth, \
                "an action was applied while the state was swapped"
            history._states[-1] = self.real
            for entry, event, _ in self.events:
                entry["event"] = event
            table._cache.clear()


UNDECIDED = -1  # readings of one state differ in their structure: compare again
_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|\w+|\s+|.', re.S)


def leak_at(real: list[bytes], swapped: list[bytes]) -> int | None:
    """Where the readings of the swapped state differ from those of the real state where all
    readings of each agree (a byte offset in the first swapped reading), or None, or UNDECIDED.

    The texts are cut into tokens (JSON strings, numbers, words, single characters). A token
    that differs between readings of the real state moves by itself (a clock), and so does one
    that differs between readings of the one swapped state; neither is evidence. A leak is the
    same bytes every time the swapped state is read, and never when the real one is. If the
    readings of either state do not have the same number of tokens, the swapped ones being all
    alike and different from the real ones is a leak; otherwise nothing can be told apart."""
    ours, theirs = [_TOKEN.findall(r) for r in real], [_TOKEN.findall(s) for s in swapped]
    if len({len(x) for x in ours}) != 1 or len({len(x) for x in theirs}) != 1:
        return UNDECIDED
    if len(theirs[0]) != len(ours[0]):
        if len(set(swapped)) != 1:
            return UNDECIDED
        return next((k for k, (x, y) in enumerate(zip(real[0], swapped[0])) if x != y),
                    min(len(real[0]), len(swapped[0])))
    offset = 0
    for i, token in enumerate(theirs[0]):
        if token != ours[0][i] and all(x[i] == ours[0][i] for x in ours) \
                and all(x[i] == token for x in theirs):
            return offset
        offset += len(token)
    return None


def secret_arguments(rule: Any) -> bool:
    """Whether a rule takes a secret: a page's token, or a seat's join code."""
    return "token" in rule.arguments or ("code" in rule.arguments
                                         and rule.rule.startswith("/join/"))


def languages() -> list[str]:
    """The languages the pages speak (English first)."""
    try:
        from companion.i18n import DEFAULT, LANGUAGES
    except ImportError:
        return ["en"]
    return [DEFAULT, *sorted(set(LANGUAGES) - {DEFAULT})]


def _first_snapshot(response: http.client.HTTPResponse, limit: int = 50) -> bytes:
    """A stream's first event with data (a snapshot, or ``gone``/``bye``), as bytes."""
    event, data = b"message", []
    for _ in range(limit * 100):
        line = response.readline()
        if not line:
            break
        line = line.rstrip(b"\r\n")
        if line == b"":
            if data:
                return b"event: " + event + b"\n" + b"\n".join(data)
            event = b"message"
            continue
        if line.startswith(b"event:"):
            event = line[6:].strip()
        elif line.startswith(b"data:"):
            data.append(line[5:].lstrip())
    raise AssertionError("the stream sent no event")


def first_difference(a: bytes, b: bytes, at: int | None = None, around: int = 80) -> str:
    """Where two responses first differ (from byte ``at`` on), with some bytes either side."""
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y and k >= (at or 0)),
             min(len(a), len(b)))
    start = max(0, i - around)
    return (f"first difference at byte {i} of {len(a)}/{len(b)}:\n"
            f"  real:    …{a[start:i + around]!r}…\n"
            f"  changed: …{b[start:i + around]!r}…")


def _role_name(role: str) -> str:
    return {TABLE: "the table display", HOST: "the host",
            NOBODY: "a phone without a token (or a wrong one)"}.get(role, role)


def player_counts(game: Game, seats: int) -> list[int]:
    """The table sizes to play: the smallest, and the largest (at most 5 and the table's seats)."""
    top = min(game.max_players, seats, 5)
    return sorted({game.min_players, top})


def run(server: Server, game: Game | str, players: int, seed: int, steps: int,
        every: int = 1) -> Report:
    """One random game of ``game`` (a registered game or its id) for ``players`` players,
    checked at every ``every``-th step; its report."""
    if isinstance(game, str):
        game = get_game(game)
    return Harness(server, game, PLAYER_NAMES[:players], seed).play(steps, every)
