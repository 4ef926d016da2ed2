"""The legitimate side of a table for the benchmarks, over HTTP only: phones and displays that
read their event streams from their own loopback addresses, and a bot that plays
Abracada...What? through the players' phones and the simulated table's hands.

Linux routes all of 127.0.0.0/8 to the loopback interface, so every phone can have an address of
its own (127.0.0.N) and a server that limits connections per address sees them apart.
"""

from __future__ import annotations

import collections
import http.client
import json
import random
import socket
import threading
import time
from array import array
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from common import claimed, http_json, join_links

PLAYERS = ["Elena", "Denise", "Marta", "Bruno", "Ivo"]
HOST_ADDRESS = "127.0.0.10"
#: the phones' addresses: the players', the host's, the two table displays'
PLAYER_ADDRESSES = {name: f"127.0.0.{11 + seat}" for seat, name in enumerate(PLAYERS)}
TABLE_ADDRESSES = ["127.0.0.16", "127.0.0.17"]
RETRY = 2.0  # seconds before a stream is opened again (the pages' EventSource waits 2 s)


class StreamReader(threading.Thread):
    """Reads one Server-Sent Events stream continuously, from its own address, and opens it again
    (after RETRY seconds, or at once when ``retarget`` gives it a new address) when it ends.

    Keeps the latest snapshot's version and raw data (parsed only when asked) and the size in
    bytes of every snapshot received."""

    def __init__(self, url: str, source: str, name: str):
        super().__init__(daemon=True, name=f"stream {name}")
        self.url, self.source, self.label = url, source, name
        self.sizes = array("I")  #: bytes of each snapshot's data line
        self.version = -1
        self.raw = b""
        self.connects = 0  #: times the stream was opened (1 when it never broke)
        self.failures = 0  #: opens that failed, or streams that ended without a goodbye
        self.gone = 0  #: streams that ended with ``event: gone`` (its seat left the game)
        self.ended = threading.Event()
        self.cond = threading.Condition()
        self._sock: socket.socket | None = None
        self._reading = ""  #: the URL of the stream being read
        self._stop = False

    def retarget(self, url: str) -> None:
        """Read ``url`` from now on (a seat's new page after a new game): at once when the old
        stream ends (with ``gone``), or after 5 s without it."""
        with self.cond:
            self.url = url
            self.version, self.raw = -1, b""
        timer = threading.Timer(5.0, self._hang_up, (url,))
        timer.daemon = True
        timer.start()

    def close(self) -> None:
        self._stop = True
        self._hang_up()

    def _hang_up(self, unless: str | None = None) -> None:
        """Close the stream being read (unless it is already ``unless``'s)."""
        sock = self._sock
        if sock is not None and (unless is None or self._reading != unless):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def run(self) -> None:
        while not self._stop:
            url = self.url
            try:
                ended = self._read(url)
            except (OSError, http.client.HTTPException, ValueError):
                ended = "error"
            if ended == "gone":
                self.gone += 1
            if self._stop or url != self.url:  # closed, or retargeted: open the new one at once
                continue
            if ended not in ("gone", "bye"):
                self.failures += 1  # refused, broken or ended without a word: the page retries
            time.sleep(RETRY)
        self.ended.set()

    def _read(self, url: str) -> str:
        """Read one stream until it ends: "gone", "bye", "closed" or "status" (not 200)."""
        parts = urlsplit(url)
        conn = http.client.HTTPConnection(
            parts.hostname, parts.port, timeout=60, source_address=(self.source, 0)
        )
        try:
            conn.request("GET", parts.path, headers=claimed(parts.path))
            self._sock, self._reading = conn.sock, url
            response = conn.getresponse()
            if response.status != 200:
                return "status"
            self.connects += 1
            event, version = None, None
            while True:
                line = response.readline()
                if not line:
                    return "closed"
                if line.startswith(b"event:"):
                    event = line[6:].strip()
                    if event in (b"gone", b"bye"):
                        return event.decode()
                elif line.startswith(b"id:"):
                    version = int(line[3:])
                elif line.startswith(b"data:") and event == b"snapshot":
                    data = line[5:].strip()
                    self.sizes.append(len(data))
                    if version is None:
                        version = json.loads(data)["version"]
                    with self.cond:
                        if url == self.url:
                            self.version, self.raw = version, data
                            self.cond.notify_all()
                elif line in (b"\n", b"\r\n"):
                    event, version = None, None
        finally:
            self._sock = None
            conn.close()

    def snapshot_at_least(self, version: int, timeout: float) -> dict[str, Any] | None:
        """The latest snapshot once its version is at least ``version`` (None on timeout)."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while self.version < version:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.cond.wait(left)
            raw = self.raw
        return json.loads(raw)


@dataclass
class Move:
    """What the bot does next: ``kind`` is "sim" (the table's hands, from the host's phone),
    "phone" (a player's decision from the player's phone), "virtual_roll" or "new_game"."""

    kind: str
    what: str = ""  #: the sim act's name, or the acting player
    body: dict | None = None


class AbracadaBot:
    """Plays Abracada...What? like ``tests/support.py``'s ``Bot``, but never needs a die: it never
    casts Ancient Dragon (1) or Sweet Dreams (3), whose effects are rolled; if a roll is asked
    anyway it rolls through the simulated table, else asks for a virtual roll, else starts a new
    game. It sees the game through the streams (the host's for the phase, another player's for the
    active player's rack) once they show a version after its last move's (every move, accepted or
    refused, changes the table's version), and through ``/api/table`` and ``/sim/world`` when they
    have not within ``stale`` seconds. Its requests go over each phone's kept-alive connection,
    as a browser's do: one request per move, nothing polled."""

    NO_DIE = (2, 4, 5, 6, 7, 8)
    GAME = "abracadawhat"

    def __init__(
        self, base: str, host: str, seed: int = 0, timeout: float = 10.0, stale: float = 3.0
    ):
        self.base, self.host = base, host
        self.rng = random.Random(seed)
        self.timeout, self.stale = timeout, stale
        self.links: dict[str, str] = {}
        self.host_stream: StreamReader | None = None
        self.player_streams: dict[str, StreamReader] = {}
        self.games = 0
        self.fallbacks = 0  #: times the streams had not caught up and the bot asked instead
        self.refusals: collections.Counter = collections.Counter()  #: moves not accepted, why
        self._roll_tries = 0
        self._after = 0  #: the version the streams must reach to show the last move

    # -- set-up --------------------------------------------------------------------------------

    def new_game(self) -> None:
        """A new 5-player game, every seat claimed from its phone's address, the stones dealt
        later by the bot itself (``deal`` phase); the player streams follow the new seats."""
        self.games += 1
        status, answer = http_json(
            f"{self.host}/api/new_game",
            "POST",
            {
                "confirm": True,
                "game": self.GAME,
                "players": PLAYERS,
                "seed": self.rng.randrange(2**31),
            },
            timeout=self.timeout,
            source=HOST_ADDRESS,
        )
        if status != 200:
            raise RuntimeError(f"new game refused: {status} {answer}")
        self.links = join_links(self.host, PLAYER_ADDRESSES)
        for player, stream in self.player_streams.items():
            stream.retarget(f"{self.links[player]}/stream")
        self._roll_tries = 0

    def open_streams(self) -> list[StreamReader]:
        """The 8 legitimate streams: the 5 players', the host's and 2 table displays'."""
        self.player_streams = {
            name: StreamReader(f"{self.links[name]}/stream", PLAYER_ADDRESSES[name], name)
            for name in PLAYERS
        }
        self.host_stream = StreamReader(f"{self.host}/stream", HOST_ADDRESS, "host")
        tables = [
            StreamReader(f"{self.base}/api/table/stream", address, f"table {number + 1}")
            for number, address in enumerate(TABLE_ADDRESSES)
        ]
        streams = [*self.player_streams.values(), self.host_stream, *tables]
        for stream in streams:
            stream.start()
        return streams

    # -- seeing the game -----------------------------------------------------------------------

    def view(self) -> tuple[dict | None, list[int] | None]:
        """The public view of the game and the active player's rack (None when unknown)."""
        version = self._after
        snap = self.host_stream.snapshot_at_least(version, self.stale) if self.host_stream else None
        if snap is None:
            self.fallbacks += 1
            _, snap = http_json(
                f"{self.base}/api/table", timeout=self.timeout, source=HOST_ADDRESS, keep=True
            )
        view = snap.get("view")
        if view is None or view["phase"] != "declare":
            return view, None
        active = view["active"]
        other = next(
            (name for name in PLAYERS if name != active and name in self.player_streams), None
        )
        seen = self.player_streams[other].snapshot_at_least(version, self.stale) if other else None
        if (
            seen is not None
            and seen.get("view")
            and seen["view"]["players"][active]["rack"] is not None
        ):
            return view, list(seen["view"]["players"][active]["rack"])
        self.fallbacks += 1
        _, world = http_json(
            f"{self.host}/sim/world", timeout=self.timeout, source=HOST_ADDRESS, keep=True
        )
        return view, [stone["stone"] for stone in world["places"].get(f"rack:{active}", [])]

    # -- playing -------------------------------------------------------------------------------

    def decide(self, view: dict | None, rack: list[int] | None) -> Move:
        if view is None or view["finished"]:
            return Move("new_game")
        phase, active = view["phase"], view["active"]
        if phase != "roll":
            self._roll_tries = 0
        if phase in ("deal", "refill"):
            return Move("sim", "draw", {})
        if phase == "remove":
            return Move("sim", "remove", {})
        if phase == "roll":
            self._roll_tries += 1
            if self._roll_tries == 1:
                return Move("sim", "roll", {"face": self.rng.randint(1, 6)})
            if self._roll_tries == 2:
                return Move("virtual_roll", active)
            return Move("new_game")
        if phase == "secret":
            free = [slot for slot, there in enumerate(view["secret_slots"]) if there]
            if free and self.rng.random() < 0.5:
                return Move("phone", active, {"type": "take_secret", "slot": self.rng.choice(free)})
            return Move("phone", active, {"type": "decline_secret"})
        if phase == "objection":
            other = self.rng.choice([name for name in view["order"] if name != active])
            return Move("phone", other, {"type": "allow"})
        # declare: cast a stone the caster holds, never one that needs the die
        floor = view["last_cast"] or 1
        good = sorted({spell for spell in (rack or []) if spell >= floor and spell in self.NO_DIE})
        if view["successes"] and (not good or self.rng.random() < 0.35):
            return Move("phone", active, {"type": "end_turn"})
        if good and self.rng.random() < 0.9:
            return Move("phone", active, {"type": "cast", "spell": self.rng.choice(good)})
        missing = [spell for spell in self.NO_DIE if spell not in (rack or [])] or list(self.NO_DIE)
        return Move("phone", active, {"type": "cast", "spell": self.rng.choice(missing)})

    def perform(self, move: Move) -> tuple[int, Any]:
        """Do ``move``; (HTTP status, answer). A new game answers (200, {"ok": True})."""
        if move.kind == "new_game":
            self.new_game()
            return 200, {"ok": True, "new_game": True}
        if move.kind == "sim":
            return http_json(
                f"{self.host}/sim/{move.what}",
                "POST",
                move.body,
                timeout=self.timeout,
                source=HOST_ADDRESS,
                keep=True,
            )
        if move.kind == "virtual_roll":
            return http_json(
                f"{self.links[move.what]}/api/virtual_roll",
                "POST",
                {},
                timeout=self.timeout,
                source=PLAYER_ADDRESSES[move.what],
                keep=True,
            )
        return http_json(
            f"{self.links[move.what]}/api/action",
            "POST",
            move.body,
            timeout=self.timeout,
            source=PLAYER_ADDRESSES[move.what],
            keep=True,
        )

    def step(self) -> tuple[Move, bool]:
        """One move; whether the table accepted it as a game action (a new game is not one)."""
        move = self.decide(*self.view())
        before = self.host_stream.version if self.host_stream is not None else -1
        status, answer = self.perform(move)
        self._after = before + 1  # the move changed the table: the streams will show it
        accepted = (
            move.kind != "new_game"
            and status == 200
            and isinstance(answer, dict)
            and bool(answer.get("ok"))
        )
        if move.kind == "sim" and status == 200 and isinstance(answer, dict):
            # the simulated table answers with every input the table handled meanwhile, others'
            # refusals too (a flood's): the bot's own act is the one accepted, if any
            accepted = any(outcome.get("ok") for outcome in answer.get("outcomes", []))
        if not accepted and move.kind != "new_game":
            what = move.what if move.kind == "sim" else (move.body or {}).get("type", move.kind)
            rule = answer.get("rule") if isinstance(answer, dict) else None
            self.refusals[f"{what} {status} {rule}"] += 1
        return move, accepted


class LegalBot(AbracadaBot):
    """Plays any game the table knows by its rules' own word: each player's stream carries the
    moves the rules allow that player now (``legal``); the bot makes a random one, from that
    player's phone. When nobody may move, the table waits for chance: the simulated hands draw
    what it waits for, throw the dice, or the roller's phone asks for a virtual roll. Used for
    Dork Tower, whose snapshots (the board, the heroes) are the larger ones."""

    def __init__(self, base: str, host: str, game: str, seed: int = 0, **kwargs: Any):
        super().__init__(base, host, seed=seed, **kwargs)
        self.GAME = game

    def view(self) -> tuple[dict | None, dict[str, list[dict]]]:
        """The host's snapshot and each player's legal moves, once the streams show the last
        move (asked for when they do not within ``stale`` seconds)."""
        version = self._after
        snap = self.host_stream.snapshot_at_least(version, self.stale) if self.host_stream else None
        if snap is None:
            self.fallbacks += 1
            _, snap = http_json(
                f"{self.host}/api/state", timeout=self.timeout, source=HOST_ADDRESS, keep=True
            )
        legal = {}
        for player, stream in self.player_streams.items():
            seen = stream.snapshot_at_least(version, self.stale)
            if seen is None:
                self.fallbacks += 1
                _, seen = http_json(
                    f"{self.links[player]}/api/state",
                    timeout=self.timeout,
                    source=PLAYER_ADDRESSES[player],
                    keep=True,
                )
            legal[player] = seen.get("legal") or []
        return snap, legal

    def decide(self, snap: dict | None, legal: dict[str, list[dict]]) -> Move:  # type: ignore[override]
        view = (snap or {}).get("view")
        if view is None or view.get("finished"):
            return Move("new_game")
        movers = [player for player, moves in legal.items() if moves]
        if movers:
            player = self.rng.choice(movers)
            action = self.rng.choice(legal[player])
            return Move("phone", player, {k: v for k, v in action.items() if k != "player"})
        awaited = (snap.get("dice") or {}).get("awaited")
        if awaited is not None:
            if snap["dice"].get("virtual") or not snap["dice"].get("reader"):
                roller = awaited.get("player") or self.rng.choice(list(self.links))
                return Move("virtual_roll", roller)
            return Move("sim", "throw", {})
        return Move("sim", "draw_all", {})
