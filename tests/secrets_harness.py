"""The secrets harness: for any registered game, no page, API or stream shows a role anything that
role may not see (not a test module; ``tests/web/test_secrets_harness.py`` runs it for every game
of the registry, and ``docs/secrets.md`` explains it).

It plays random games through a running server, as people would: phone decisions through the
players' ``/api/action``; deals, draws, removals and rolls through the table's devices (a sticker
tapped on the board's reader, a die rolled on the dice reader), and now and then the devices say
something else (a status, a raw noise line, a press at an empty seat). At every step, for every
role (each player, the table display, the host, and a phone with no token or a wrong one), it
fetches every GET endpoint the Flask app has (read from ``app.url_map``, so a new endpoint is
covered the day it is added; a stream is read up to its first snapshot). Then it swaps what the
role may not see (``secrets_swap.Swap``: the game's hidden facts dealt anew, the stickers' UIDs
renamed, the devices' diagnostics scrambled), fetches everything again, and fails naming the
role, the endpoint and the first differing bytes (``secrets_compare`` tells them from what a
clock changes). A role reaching an endpoint that is not its own must get 401, 403 or 404, and no
game data; no response carries an enrolled sticker's UID, the host's PIN is only on the table
display's own page and the host's, and a role's key (a seat's token, the host's link, the display
key) reaches no other role.

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

from secrets_arguments import COPIED, NO_DIE, NOBODY, EndpointArguments
from secrets_compare import UNDECIDED, excerpt, first_difference, first_snapshot, in_order, leak_at
from secrets_play import TablePlay, choices, random_options
from secrets_swap import Swap
from support import Server, claim, get, post

from companion.games import get_game
from companion.rules import HOST, TABLE, Game
from companion.web.access import HOST as HOST_SESSION
from companion.web.access import hashed
from companion.web.public import DISPLAY_COOKIE

__all__ = [
    "COPIED",
    "NOBODY",
    "UNDECIDED",
    "Harness",
    "Leak",
    "Report",
    "choices",
    "leak_at",
    "player_counts",
    "random_options",
    "run",
]

#: Endpoints the harness does not fetch, and why.
EXCLUDED_ENDPOINTS = {
    # the pages' own files: the same bytes for everyone, no game in them
    "static": "static files",
}
EXCLUDED_PREFIXES = {
    # The simulated table's world and LEDs show the physical world on purpose (every stone face,
    # where each sticker lies): a simulation tool behind the host's link, never a player's page.
    # For a host who plays a seat, its world is blind for that seat's player: each player's role
    # fetches it too (``PLAYING_WORLD``, through a host session that plays that seat).
    "/host/<token>/sim": "the simulated table (shows the physical world on purpose)",
}
#: The simulated world of a host who plays a seat: part of that seat's player's fetches.
PLAYING_WORLD = "/host/<token>/sim/world"
#: Whose page an endpoint with a ``<token>`` is: a player's token or a host's.
TOKEN_PREFIXES = {"/p/<token>": "player", "/host/<token>": "host"}
#: The sticker map (UID -> component): the host's, and refused (409) while a game is played.
STICKER_MAP = "/host/<token>/tags.json"
#: The table display's own page: the only one but the host's that may show the host's PIN.
DISPLAY_PAGE = "/table"
#: The table display's Plays pages: its own (the display cookie), refused to every phone.
DISPLAY_ONLY = "/table/plays"
#: The table display's Statistics page: its own (the display cookie), refused to every phone.
DISPLAY_STATISTICS = "/table/statistics"
DENIED = (401, 403, 404)
#: the clock, not the game; the body's length (the body itself is compared, and shows where)
IGNORED_HEADERS = {"date", "content-length"}
PLAYER_NAMES = [
    "Xanthe",
    "Yorick",
    "Zephyrine",
    "Quillon",
    "Wystan",
    "Ottoline",
    "Ignatius",
    "Perpetua",
]
_HEX_RUN = re.compile(rb"[0-9A-Fa-f]{8,}")


class Leak(AssertionError):
    """A response a role got changed when only what it may not see changed, or showed it a
    sticker's UID or the host's PIN."""


@dataclass
class Fetch:
    name: str  #: the rule, e.g. ``/p/<token>/api/state``, with the arguments that differ
    url: str
    own: bool | None  #: True: the role's own page (must answer); False: not its (must refuse)
    rule: str = ""
    uids_allowed: bool = False  #: the sticker map, when no game is played: UIDs on purpose


@dataclass
class Report:
    game: str
    players: list[str]
    seed: int
    steps: int = 0
    checks: int = 0  #: role checks made (one role, one step: everything fetched twice)
    changed: int = 0  #: of them, how many swaps really changed something (the referee's view)
    uid_checks: int = 0  #: of them, how many with enrolled UIDs in the game state (renamed)
    fetches: int = 0
    streams: int = 0  #: stream readings (each checked not to predate the table's version)
    phases: Counter = field(default_factory=Counter)
    actions: Counter = field(default_factory=Counter)
    taps: int = 0  #: sensor actions reported by tapping a sticker on the board's reader
    rolls: int = 0  #: die rolls reported by the dice reader
    direct: Counter = field(default_factory=Counter)  #: sensor actions no device could report
    refused: int = 0  #: device reports the table refused (then the action went the direct way)
    chatter: Counter = field(default_factory=Counter)  #: device reports besides the game
    endpoints: set[str] = field(default_factory=set)
    finished: bool = False
    #: checks made while an undo's checklist of what to put back was in every snapshot
    put_back_checks: int = 0


class Harness(EndpointArguments, TablePlay):
    """One random game of ``game`` on ``server`` (played as :class:`TablePlay` says), checked
    at every step."""

    def __init__(
        self,
        server: Server,
        game: Game,
        players: list[str],
        seed: int,
        options: dict[str, Any] | None = None,
        fetch_timeout: float = 10.0,
    ):
        self.server = server
        self.game = game
        self.players = players
        self.seed = seed
        self.rng = random.Random(f"secrets/{game.id}/{seed}")
        self.options = options if options is not None else random_options(game, self.rng)
        self.links: dict[str, str] = {}
        self.tokens: dict[str, str] = {}
        self.wrong = secrets.token_urlsafe(32)  # nobody's token, join code or display key
        self.stale: list[str] = []  # the links of seats handed over: nobody's any more
        #: per player, a host session that plays that seat (the simulated world it is served is
        #: blind for that player, and checked as that player's)
        self.playing: dict[str, str] = {}
        self.visitor = secrets.token_urlsafe(16)  # every browser's visitor cookie (the PIN form)
        self.access = server.companion.app.extensions["companion"]["access"]
        self.timeout = fetch_timeout
        self.report = Report(game.id, list(players), seed)

    # -- the game ------------------------------------------------------------------------------

    def claim_seats(self) -> None:
        """Every seat claimed by a phone; and for each, a host session that says it plays that
        seat (on another phone), when the table is simulated."""
        super().claim_seats()
        if "sim.world" not in self.server.companion.app.view_functions:
            return
        for player in self.players:
            token = secrets.token_urlsafe(32)
            self.access.store.add_session(hashed(token), HOST_SESSION)
            status, answer = post(f"{self.server.base}/host/{token}/sim/plays", {"player": player})
            assert status == 200 and answer["plays"] == {"player": player, "held": False}, answer
            self.playing[player] = token

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

    def undo_and_put_back(self, tries: int = 8) -> None:
        """The host undoes the last action (and the one before, up to ``tries``, until one
        moved something on the table); everything is checked while the undo's checklist
        (``put_back``) is in every snapshot; then the simulated hands put the pieces back (the
        host dismisses the list on a table without them), so that no tap of the game is taken
        for a confirmation."""
        if self.game.placement(self.state()) is None:  # its undos give no steps
            tries = 1
        for _ in range(tries):
            status, answer = post(f"{self.server.host}/api/undo")
            if not answer.get("ok"):
                return
            self.report.actions["undo"] += 1
            if self.server.table.put_back_shown() is not None:
                break
        else:
            return
        roles = len(self.roles())
        self.check()
        self.report.put_back_checks += roles
        if "sim.act" in self.server.companion.app.view_functions:
            post(f"{self.server.host}/sim/put_back")
        post(f"{self.server.host}/api/put_back/dismiss")

    def play(
        self, steps: int, every: int = 1, hand_over_at: int | None = -1, undo_at: int | None = -1
    ) -> Report:
        """Start a game, let every device report, check it before the seats are claimed, claim
        them, then make ``steps`` random moves, checking every role before each ``every``-th
        and after the last; a seat is handed over at step ``hand_over_at`` (-1: half way; None:
        never); the host undoes the last action at step ``undo_at`` (-1: a third of the way;
        None: never), checked while its checklist shows (:meth:`undo_and_put_back`)."""
        if hand_over_at == -1:
            hand_over_at = steps // 2
        if undo_at == -1:
            undo_at = steps // 3
        self.start()
        self.chatter(every_kind=True)
        self.check(roles=[TABLE, HOST, NOBODY])  # the join codes are on the table display
        self.claim_seats()
        for n in range(steps):
            if n == hand_over_at:
                self.hand_over()
            if n == undo_at and n:
                self.undo_and_put_back()
            if n % every == 0:
                self.check()
            if not self.step():
                break
        self.check()
        return self.report

    # -- the roles and what they fetch ---------------------------------------------------------

    def roles(self) -> list[str]:
        return [*self.tokens, TABLE, HOST, NOBODY, COPIED]

    @staticmethod
    def viewer(role: str) -> str:
        return TABLE if role in (NOBODY, COPIED) else role

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
        elif role == TABLE:  # the screen that opened the display link
            jar.append(f"{DISPLAY_COOKIE}={self.access.display_key}")
        elif role in self.tokens:  # the phone that claimed the seat
            jar.append(f"companion_seat={self.token(role)}")
            jar.append(f"companion_claim={self.access.seat_claim(self.token(role))}")
        elif role == COPIED and self.tokens:  # the seat cookie is the link's token: it can
            jar.append(f"companion_seat={min(self.tokens.values())}")  # be made, not the claim
        return "; ".join(jar)

    def phase(self) -> str | None:
        """The game's phase, for the report (None: no game)."""
        history = self.server.table.history
        return None if history is None else history.state.get("phase", "?")

    def in_play(self) -> bool:
        """Whether a game is being played: started, not abandoned, not over."""
        table = self.server.table
        return (
            table.record is not None
            and not table.record.abandoned
            and table.history is not None
            and not self.game.outcome(table.history.state).finished
        )

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
        """Everything ``role`` fetches: every GET endpoint, its arguments filled for the role
        (a phone without a token fetches them all too: it has no display cookie)."""
        out: list[Fetch] = []
        for rule in self.rules():
            for values in self.arguments(rule, role):
                url = re.sub(
                    r"<(?:[^<>:]+:)?([^<>]+)>",
                    lambda m, v=values: quote(str(v[m.group(1)]), safe=""),
                    rule.rule,
                )
                own = None
                if "token" in rule.arguments:
                    kind = next(
                        (k for p, k in TOKEN_PREFIXES.items() if rule.rule.startswith(p)), None
                    )
                    mine = "host" if role == HOST else "player" if role in self.tokens else None
                    own = kind is not None and kind == mine
                if "key" in rule.arguments:  # the display link: the table display's alone
                    own = role == TABLE
                if rule.rule.startswith(
                    (DISPLAY_ONLY, DISPLAY_STATISTICS)
                ):  # the display's own pages
                    own = role == TABLE
                if role == NOBODY and secret_arguments(rule):
                    own = False
                if own is True and values.get("die_id") == NO_DIE:
                    own = None  # no die kept yet: the host's own page answers 404
                shown = {k: v for k, v in values.items() if k not in ("token", "key")}
                if role == NOBODY and "token" in values:
                    shown["token"] = "made up" if values["token"] == self.wrong else "stale"
                if role == COPIED and "token" in values:
                    shown["token"] = next(p for p, t in self.tokens.items() if t == values["token"])
                if "key" in values:
                    shown["key"] = "made up" if values["key"] == self.wrong else "the display's"
                name = rule.rule + (f" {json.dumps(shown, sort_keys=True)}" if shown else "")
                out.append(
                    Fetch(
                        name,
                        self.server.base + url,
                        own,
                        rule.rule,
                        uids_allowed=rule.rule == STICKER_MAP
                        and own is True
                        and not self.in_play(),
                    )
                )
        if role in self.playing:  # the simulated table, blind for this player, is theirs
            url = PLAYING_WORLD.replace("<token>", self.playing[role])
            name = f"{PLAYING_WORLD} (a host who plays {role})"
            out.append(Fetch(name, self.server.base + url, True, PLAYING_WORLD))
        return out

    # -- fetching ------------------------------------------------------------------------------

    def fetch(self, f: Fetch, role: str) -> tuple[int, bytes]:
        """The status and a comparable text of one response: its headers (but the date) and its
        body, or a stream's first snapshot (which must not predate the table's version)."""
        parts = urlsplit(f.url)
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=self.timeout)
        try:
            version = self.server.table.version
            conn.request("GET", parts.path, headers={"Cookie": self.cookies(role), "Accept": "*/*"})
            response = conn.getresponse()
            headers = sorted(
                (k.lower(), v) for k, v in response.getheaders() if k.lower() not in IGNORED_HEADERS
            )
            if response.getheader("Content-Type", "").startswith("text/event-stream"):
                body, sent_at = first_snapshot(response)
                assert sent_at is None or sent_at >= version, (
                    f"{f.name} sent {_role_name(role)} a first snapshot of version {sent_at}, "
                    f"older than the table's {version}"
                )
                self.report.streams += 1
            else:
                body = response.read()
            self.report.fetches += 1
            head = f"{response.status}\n" + "".join(f"{k}: {v}\n" for k, v in headers)
            text = head.encode() + b"\n" + body
            return response.status, in_order(text) if f.uids_allowed else text
        finally:
            conn.close()

    def fetch_all(self, plan: list[Fetch], role: str) -> dict[str, tuple[int, bytes]]:
        return {f.name: self.fetch(f, role) for f in plan}

    # -- the check -------------------------------------------------------------------------------

    def check(self, roles: list[str] | None = None) -> None:
        self.report.phases[self.phase()] += 1
        for role in roles or self.roles():
            self.check_role(role)

    def check_role(self, role: str, attempts: int = 6) -> None:
        """Everything ``role`` fetches, for the real server and for one changed in what the
        role may not see (``Swap``); then what no response may hold (a UID, the PIN, a key).

        A response may change with the clock (an uptime, a device's last report): what differs
        between two readings of the real state is not evidence. A difference under the swap
        that no reading of the real state shows is checked once more with the same swap; if it
        is there again, it is a leak."""
        plan = self.plan(role)
        table = self.server.table
        for _ in range(attempts):
            version = table.version
            swap = Swap(self, self.viewer(role))
            before = self.fetch_all(plan, role)
            with swap:
                after = self._swapped(plan, role, swap)
            differing = [f for f in plan if after[f.name] != before[f.name]]
            again = self.fetch_all(differing, role)
            if table.version != version or swap.disturbed:
                continue  # a device reported, a seat was claimed: compare again
            real = {f.name: [before[f.name][1], again[f.name][1]] for f in differing}
            suspects = [
                f for f in differing if leak_at(real[f.name], [after[f.name][1]]) is not None
            ]
            if suspects:  # the same swap once more, between two more readings of the real state
                first = self.fetch_all(suspects, role)
                with swap:
                    once_more = self._swapped(suspects, role, swap)
                last = self.fetch_all(suspects, role)
                if table.version != version or swap.disturbed:
                    continue
                for f in suspects:
                    readings = real[f.name] + [first[f.name][1], last[f.name][1]]
                    at = leak_at(readings, [after[f.name][1], once_more[f.name][1]])
                    if at not in (None, UNDECIDED):
                        raise Leak(
                            f"{self.game.id}: {f.name} leaks to {_role_name(role)} what "
                            f"it may not see (seed {self.seed}, step "
                            f"{self.report.steps}, phase {self.phase()!r}):\n"
                            f"{first_difference(before[f.name][1], after[f.name][1], at)}"
                        )
                continue  # the clock, not the game: compare again
            break
        else:
            raise AssertionError(
                f"{self.game.id}: the table kept changing while "
                f"{_role_name(role)}'s pages were compared"
            )
        self.report.checks += 1
        self.report.changed += swap.changed
        self.report.uid_checks += bool(swap.uids)
        for f in plan:
            self.report.endpoints.add(f.rule)
            self.check_access(f, role, *before[f.name])
            self.check_uids(f, role, before[f.name][1])
            self.check_pin(f, role, before[f.name][1])
            self.check_keys(f, role, before[f.name][1])

    def _swapped(self, plan: list[Fetch], role: str, swap: Swap) -> dict[str, tuple[int, bytes]]:
        """Everything in ``plan`` fetched while swapped; the sticker map, where it may show the
        UIDs, read back with their real names."""
        out = self.fetch_all(plan, role)
        for f in plan:
            if f.uids_allowed:
                status, text = out[f.name]
                out[f.name] = status, in_order(swap.renaming.undo(text))
        return out

    def check_access(self, f: Fetch, role: str, status: int, text: bytes) -> None:
        """A role's own page answers (the sticker map refuses while a game is played, and may
        after it); any other token's page refuses, with no game data."""
        if f.own is True and f.rule == STICKER_MAP and self.in_play():
            assert status == 409, (
                f"{self.game.id}: {f.name} answers {_role_name(role)} with "
                f"{status} while a game is being played (expected 409: the "
                f"sticker map names hidden pieces)"
            )
        elif f.own is True and not (f.rule == STICKER_MAP and status == 409):
            assert status < 400, (
                f"{_role_name(role)} cannot reach its own {f.name}: {status}\n{text[:500]!r}"
            )
        elif f.own is False:
            assert status in DENIED, (
                f"{_role_name(role)} reaches {f.name}, which is not its "
                f"page, with {status} (expected one of {DENIED})"
            )
            body = text.split(b"\n\n", 1)[-1]
            names = [p for p in self.players if _names_word(p, body)]
            assert not names, (
                f"{_role_name(role)} is refused {f.name} but the refusal names {names}"
            )

    def check_uids(self, f: Fetch, role: str, text: bytes) -> None:
        """No response shows anyone, the host included, an enrolled sticker's UID (in any case):
        with the registry, it names a hidden piece. (The swap catches a UID in any other form.)"""
        if f.uids_allowed:
            return
        enrolled = self.server.table.tags._tags
        for run in _HEX_RUN.finditer(text):
            hexes = run.group(0).decode().upper()
            for size in {len(uid) for uid in enrolled}:
                for start in range(len(hexes) - size + 1):
                    if hexes[start : start + size] in enrolled:
                        raise Leak(
                            f"{self.game.id}: {f.name} shows {_role_name(role)} the UID "
                            f"of an enrolled sticker (seed {self.seed}, step "
                            f"{self.report.steps}):\n"
                            f"{excerpt(text, run.start() + start)}"
                        )

    def check_pin(self, f: Fetch, role: str, text: bytes) -> None:
        """The host's PIN is in no response but the table display's own page (while a made-up
        PIN is offered) and the host's own pages: anyone on the table's network can read the
        rest. It is not a game fact (a swap does not change it), so it is looked for."""
        pin = self.access.pin
        head = text.index(b"\n\n") + 2  # not the headers: a length may have six digits
        found = re.compile(rb"(?<!\d)" + pin.encode() + rb"(?!\d)").search(text, head)
        display = role == TABLE and f.rule == DISPLAY_PAGE
        if display and self.access.pin_offered():
            assert found, f"the table display's {f.name} does not show the PIN it offers"
        if found and not display and not (role == HOST and f.own is True):
            raise Leak(
                f"{self.game.id}: {f.name} shows {_role_name(role)} the host's PIN (only "
                f"the table display's {DISPLAY_PAGE} and the host's pages may):\n"
                f"{excerpt(text, found.start())}"
            )

    def check_keys(self, f: Fetch, role: str, text: bytes) -> None:
        """The keys to a role (a seat's token, the host's link, the display key) reach no one
        else: a swap does not change them either. The host never sees a claimed seat's link."""
        keys = {
            self.server.companion.host_token: ("the host's link", {HOST}),
            self.access.display_key: ("the display key", {TABLE, HOST}),
        }
        keys |= {  # a copied link is known to the phone it was copied to
            token: (f"{player}'s seat token", {player, COPIED})
            for player, token in self.tokens.items()
        }
        for key, (what, allowed) in keys.items():
            at = text.find(key.encode())
            if at >= 0 and role not in allowed:
                raise Leak(
                    f"{self.game.id}: {f.name} shows {_role_name(role)} {what}:\n"
                    f"{excerpt(text, at)}"
                )


def secret_arguments(rule: Any) -> bool:
    """Whether a rule takes a secret: a page's token, a seat's join code, the display's key."""
    return (
        "token" in rule.arguments
        or "key" in rule.arguments
        or ("code" in rule.arguments and rule.rule.startswith("/join/"))
    )


def _names_word(word: str, body: bytes) -> bool:
    """Whether ``body`` holds ``word`` on its own, not inside a random token (CSRF tokens and
    page tokens are URL-safe base64, so a two-letter name turns up in them by chance)."""
    return (
        re.search(rb"(?<![A-Za-z0-9_-])" + re.escape(word.encode()) + rb"(?![A-Za-z0-9_-])", body)
        is not None
    )


def _role_name(role: str) -> str:
    return {
        TABLE: "the table display",
        HOST: "the host",
        NOBODY: "a phone without a token (or a wrong one)",
        COPIED: "a phone with a player's link but not the seat's claim",
    }.get(role, role)


def player_counts(game: Game, seats: int) -> list[int]:
    """The table sizes to play: the smallest, and the largest (at most 5 and the table's seats)."""
    top = min(game.max_players, seats, 5)
    return sorted({game.min_players, top})


def run(
    server: Server, game: Game | str, players: int, seed: int, steps: int, every: int = 1
) -> Report:
    """One random game of ``game`` (a registered game or its id) for ``players`` players,
    checked at every ``every``-th step; its report."""
    if isinstance(game, str):
        game = get_game(game)
    return Harness(server, game, PLAYER_NAMES[:players], seed).play(steps, every)
