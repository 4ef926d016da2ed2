"""The LED renderer: a pure function from what the table shows to the pixels of every strip.

``render`` and ``animating`` look at ``view["game"]`` and hand the drawing to that game's module:
``leds_abracadawhat`` (also any view without a ``"game"``) and ``leds_dorktower``. This module
keeps what every game shares: the layout, the cues, the palette, the blink helpers and the refusal
signal.

Layout (``Layout``; the pin and strip wiring itself is the hardware's business):

* strip ``table``: one segment of 7 pixels per seat, in seat order: pixel 0 is the seat's status
  light, pixels 1..6 show what the game keeps per player (life in Abracada...What?, experience and
  level in Dork Tower).
* strip ``score``: a score track of 8 pixels (Abracada...What?; dark in Dork Tower).
* strip ``tower``: a ring of ``tower_pixels`` (16 by default; a multiple of 8) around the base of
  Dork Tower's tower: pixel 0 sits at the counter-clockwise edge of wedge 0, the pixels run
  clockwise, ``tower_pixels // 8`` per wedge (dark in Abracada...What?).

Status light: the active player's seat shows its colour steadily; a player the table is waiting for
who is not the active player blinks white; at the end of the game the winners blink their colour
slowly. A refused action blinks white three times, fast, over the whole segment of the seat it came
from (or every status light when no seat is known).

Colours: the Okabe-Ito palette, chosen to stay distinguishable with the common kinds of colour
blindness; no signal relies on hue alone (position, steady/blinking, brightness and white carry the
meaning).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from types import ModuleType
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

WEDGES = 8  # Dork Tower's map: 8 wedges around the tower
TOWER_SLIDE = 0.5  # seconds the day/night pattern takes to slide one wedge clockwise
TOWER_COLOUR = 0.3  # seconds the ring then shows the colour of the player whose turn begins
TOWER_TURN = TOWER_SLIDE + TOWER_COLOUR  # the whole turn animation: under one second

_CUE_LENGTH = {"life_lost": LOSS_FLASH, "refused": REFUSAL_FLASH, "tower_turned": TOWER_TURN}


@dataclass(frozen=True)
class Layout:
    seats: int = 5
    life_pixels: int = 6
    score_pixels: int = 8
    tower_pixels: int = 16

    def __post_init__(self) -> None:
        if (not isinstance(self.tower_pixels, int) or self.tower_pixels < WEDGES
                or self.tower_pixels % WEDGES):
            raise ValueError(f"the tower ring needs a multiple of {WEDGES} pixels (one or more "
                             f"per wedge), not {self.tower_pixels!r}")

    @property
    def seat_pixels(self) -> int:
        return 1 + self.life_pixels

    @property
    def wedge_pixels(self) -> int:
        """Pixels of the tower ring per wedge of the map."""
        return self.tower_pixels // WEDGES

    def strips(self) -> dict[str, int]:
        """Strip name -> pixel count."""
        return {"table": self.seats * self.seat_pixels, "score": self.score_pixels,
                "tower": self.tower_pixels}


@dataclass(frozen=True)
class Cue:
    """Something that just happened and is animated for a moment.

    ``kind`` is ``"life_lost"`` (life pixels ``lo`` up to ``hi - 1`` of ``seat`` flash),
    ``"refused"`` (the segment of ``seat``, or every status light, blinks) or ``"tower_turned"``
    (the tower turned to ``step``, its door from wedge ``lo`` to wedge ``hi``; ``seat`` is the
    player whose turn begins, ``None`` if not seated)."""

    kind: str
    at: float
    seat: int | None = None
    lo: int = 0
    hi: int = 0
    step: int = 0

    @property
    def length(self) -> float:
        return _CUE_LENGTH.get(self.kind, REFUSAL_FLASH)

    def active(self, now: float) -> bool:
        return 0 <= now - self.at < self.length


def cues_from_events(events: list[dict[str, Any]], players: list[str], at: float) -> list[Cue]:
    cues = []
    for e in events:
        if e.get("type") == "life" and e.get("delta", 0) < 0 and e.get("player") in players:
            cues.append(Cue("life_lost", at, players.index(e["player"]), e["life"],
                            e["life"] - e["delta"]))
        elif e.get("type") == "tower_turned" and isinstance(e.get("door_wedge"), int) \
                and isinstance(e.get("step"), int):
            seat = players.index(e["next"]) if e.get("next") in players else None
            door = e["door_wedge"] % WEDGES
            cues.append(Cue("tower_turned", at, seat, (door - 1) % WEDGES, door, e["step"]))
    return cues


def refusal_cue(seat: int | None, at: float) -> Cue:
    return Cue("refused", at, seat)


def _blink(now: float, hz: float = BLINK_HZ) -> bool:
    return math.floor(now * hz * 2) % 2 == 0


@functools.lru_cache(maxsize=1024)  # a frame's pixels come from a few colours: scaled once
def _scale(p: Pixel, k: float) -> Pixel:
    return (round(p[0] * k), round(p[1] * k), round(p[2] * k))


def _draw_refusal(table: list[Pixel], cue: Cue, now: float, layout: Layout, seated: int) -> None:
    """Three fast white blinks over the seat's whole segment, or every status light of the
    ``seated`` players when the refusal has no seat."""
    on = math.floor((now - cue.at) / (REFUSAL_FLASH / 6)) % 2 == 0
    if cue.seat is not None and cue.seat < layout.seats:
        base = cue.seat * layout.seat_pixels
        for k in range(layout.seat_pixels):
            table[base + k] = WHITE if on else OFF
    else:
        for s in range(min(seated, layout.seats)):
            table[s * layout.seat_pixels] = WHITE if on else OFF


def _drawer(view: dict[str, Any]) -> ModuleType:
    """The module that draws ``view``'s game (imported here: those modules import this one)."""
    if view.get("game") == "dorktower":
        from . import leds_dorktower as drawer
    else:
        from . import leds_abracadawhat as drawer
    return drawer


def render(view: dict[str, Any] | None, colours: list[Pixel], cues: list[Cue], now: float,
           layout: Layout = Layout(), brightness: float = 1.0) -> dict[str, list[Pixel]]:
    """Every strip's pixels for the public ``view`` of the game (or ``None``: no game, all dark)."""
    strips = {name: [OFF] * n for name, n in layout.strips().items()}
    if view is None:
        return strips
    _drawer(view).draw(strips, view, colours, cues, now, layout)
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
    return _drawer(view).animating(view, now)


STORAGE_RED: Pixel = (255, 0, 0)


def storage_failed(now: float, layout: Layout = Layout(),
                   brightness: float = 1.0) -> dict[str, list[Pixel]]:
    """The frame while the table cannot record (a full or failing SD card): every other strip
    dark, every seat's status light alternating red and white twice a second. No game signal
    uses that alternation, so it reads as "something is wrong with the table", not "your turn",
    whatever one's colour vision."""
    strips = {name: [OFF] * n for name, n in layout.strips().items()}
    lit = _scale(STORAGE_RED if _blink(now) else WHITE, brightness)
    for seat in range(layout.seats):
        strips["table"][seat * layout.seat_pixels] = lit
    return strips
