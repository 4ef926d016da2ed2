"""The LED renderer: a pure function from what the table shows to the pixels of every strip.

Layout (``Layout``; the pin and strip wiring itself is the hardware's business):

* strip ``table``: one segment of 7 pixels per seat, in seat order: pixel 0 is the seat's status
  light, pixels 1..6 its life. Life is shown in the seat's colour; a lost point flashes white and
  the seat colour for a moment, then goes dark.
* strip ``score``: the score track, pixel *k* is space *k + 1* of the board's track (score 0 is
  "below space 1": no light). Players on the same space take turns on that pixel.

Status light: the active player's seat shows its colour steadily; a player the table is waiting for
who is not the active player (the right neighbour who must remove the stone, players who may object)
blinks white; while dealing, the seat receiving stones blinks its colour; at the end of the game the
winners blink their colour slowly. A refused action blinks white three times, fast, over the whole
segment of the seat it came from (or every status light when no seat is known).

Colours: the Okabe-Ito palette, chosen to stay distinguishable with the common kinds of colour
blindness; no signal relies on hue alone (position, steady/blinking and white carry the meaning).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

Pixel = tuple[int, int, int]

OFF: Pixel = (0, 0, 0)
WHITE: Pixel = (255, 255, 255)

#: Okabe & Ito's colour-blind-safe palette, in the order seats get them.
PALETTE: dict[str, Pixel] = {
    "blue": (0, 114, 178),
    "orange": (230, 159, 0),
    "bluish green": (0, 158, 115),
    "reddish purple": (204, 121, 167),
    "yellow": (240, 228, 66),
    "sky blue": (86, 180, 233),
    "vermillion": (213, 94, 0),
}
SEAT_COLOURS: tuple[str, ...] = tuple(PALETTE)

LOSS_FLASH = 1.2  # seconds a lost life point flashes before it goes dark
REFUSAL_FLASH = 0.9  # three blinks
BLINK_HZ = 2.0
SHARE_PERIOD = 0.6  # seconds each player shows on a shared score pixel


@dataclass(frozen=True)
class Layout:
    seats: int = 5
    life_pixels: int = 6
    score_pixels: int = 8

    @property
    def seat_pixels(self) -> int:
        return 1 + self.life_pixels

    def strips(self) -> dict[str, int]:
        """Strip name -> pixel count."""
        return {"table": self.seats * self.seat_pixels, "score": self.score_pixels}


@dataclass(frozen=True)
class Cue:
    """Something that just happened and is animated for a moment.

    ``kind`` is ``"life_lost"`` (life pixels ``lo`` up to ``hi - 1`` flash) or ``"refused"``."""

    kind: str
    at: float
    seat: int | None = None
    lo: int = 0
    hi: int = 0

    def active(self, now: float) -> bool:
        length = LOSS_FLASH if self.kind == "life_lost" else REFUSAL_FLASH
        return 0 <= now - self.at < length


def cues_from_events(events: list[dict[str, Any]], players: list[str], at: float) -> list[Cue]:
    cues = []
    for e in events:
        if e.get("type") == "life" and e.get("delta", 0) < 0 and e.get("player") in players:
            cues.append(Cue("life_lost", at, players.index(e["player"]), e["life"],
                            e["life"] - e["delta"]))
    return cues


def refusal_cue(seat: int | None, at: float) -> Cue:
    return Cue("refused", at, seat)


def _blink(now: float, hz: float = BLINK_HZ) -> bool:
    return math.floor(now * hz * 2) % 2 == 0


def _scale(p: Pixel, k: float) -> Pixel:
    return (round(p[0] * k), round(p[1] * k), round(p[2] * k))


def render(view: dict[str, Any] | None, colours: list[Pixel], cues: list[Cue], now: float,
           layout: Layout = Layout(), brightness: float = 1.0) -> dict[str, list[Pixel]]:
    """Every strip's pixels for the public ``view`` of the game (or ``None``: no game, all dark)."""
    strips = {name: [OFF] * n for name, n in layout.strips().items()}
    if view is None:
        return strips
    table, score = strips["table"], strips["score"]
    names = view["order"]
    seat_of = {name: i for i, name in enumerate(names)}
    waiting = set(view.get("waiting_for", ()))
    winners = set(view.get("winners", ()))
    deal_to = (view.get("deal") or {}).get("player") if view["phase"] == "deal" else None

    for i, name in enumerate(names[:layout.seats]):
        base = i * layout.seat_pixels
        colour = colours[i]
        p = view["players"][name]
        status = OFF
        if view["phase"] == "over":
            status = colour if name in winners and _blink(now, 1.0) else OFF
        elif view["phase"] == "deal":
            status = colour if name == deal_to and _blink(now) else OFF
        elif name == view["active"]:
            status = colour
        elif name in waiting:
            status = WHITE if _blink(now) else OFF
        table[base] = status
        for k in range(layout.life_pixels):
            table[base + 1 + k] = colour if k < p["life"] else OFF

    for cue in cues:
        if not cue.active(now):
            continue
        if cue.kind == "life_lost" and cue.seat is not None and cue.seat < layout.seats:
            base = cue.seat * layout.seat_pixels + 1
            flash = WHITE if _blink(now, 4.0) else colours[cue.seat]
            for k in range(cue.lo, min(cue.hi, layout.life_pixels)):
                table[base + k] = flash
        elif cue.kind == "refused":
            on = math.floor((now - cue.at) / (REFUSAL_FLASH / 6)) % 2 == 0
            if cue.seat is not None and cue.seat < layout.seats:
                base = cue.seat * layout.seat_pixels
                for k in range(layout.seat_pixels):
                    table[base + k] = WHITE if on else OFF
            else:
                for s in range(min(len(names), layout.seats)):
                    table[s * layout.seat_pixels] = WHITE if on else OFF

    spaces: dict[int, list[int]] = {}
    for name in names:
        points = view["players"][name]["score"]
        if points > 0:
            spaces.setdefault(min(points, layout.score_pixels) - 1, []).append(seat_of[name])
    for space, seats in spaces.items():
        shown = seats[math.floor(now / SHARE_PERIOD) % len(seats)]
        score[space] = colours[shown]

    if brightness != 1.0:
        for name, pixels in strips.items():
            strips[name] = [_scale(p, brightness) for p in pixels]
    return strips


def animating(view: dict[str, Any] | None, cues: list[Cue], now: float) -> bool:
    """Whether the frames change with time alone (so the table keeps redrawing)."""
    if any(c.active(now) for c in cues):
        return True
    if view is None:
        return False
    if view["phase"] in ("deal", "over"):
        return True
    if set(view.get("waiting_for", ())) - {view["active"]}:
        return True
    scores = [p["score"] for p in view["players"].values() if p["score"] > 0]
    return len(scores) != len(set(min(s, 8) for s in scores))
