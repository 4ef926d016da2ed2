"""The LEDs: a pure function from what the table shows to the pixels of every strip, and what
every game's drawing shares.

``render`` hands the drawing to the game's drawer (its plug-in's ``lights``, a
:class:`~companion.plugin.GameLights`); a game without one gets :class:`StatusLights`. This
module keeps the layout, the cues, the palette, the blink helpers, the status lights and the
refusal signal.

Layout (``Layout``; the pin and strip wiring itself is the hardware's business):

* strip ``table``: one segment of 7 pixels per seat, in seat order: pixel 0 is the seat's status
  light, pixels 1..6 show what the game keeps per player (life, experience, ...).
* strip ``score``: a score track of 8 pixels.
* strip ``tower``: a ring of ``tower_pixels`` (16 by default; a multiple of 8, ``RING_SEGMENTS``)
  around a tower, pixel 0 at the counter-clockwise edge of segment 0, clockwise.

A game uses the strips it needs and leaves the others dark. Its drawer's ``legend(layout)``
(:func:`legend`) names the strips it uses and what each pixel or group of them means; the host's
simulation panel draws only those strips, with that legend.

Status light (:func:`draw_status_lights`): the active player's seat shows its colour steadily; a
player the table is waiting for who is not the active player blinks white; at the end of the game
the winners blink their colour slowly. A refused action blinks white three times, fast, over the
whole segment of the seat it came from (or every status light when no seat is known). While an
undo's steps wait to be put back by hand (:func:`draw_put_back`), the status light of each seat
with a step to do pulses white, slowly, rising and falling (every status light, for a step on the
board), over the game's own drawing, until the steps are confirmed or the table goes on.

Colours: the Okabe-Ito palette, chosen to stay distinguishable with the common kinds of colour
blindness; no signal relies on hue alone (position, steady/blinking, brightness and white carry the
meaning).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

from .i18n import Text, t

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

REFUSAL_FLASH = 0.9  # three blinks
PUT_BACK_HZ = 0.8  #: the put-back pulse: rising and falling, never dark (a blink is on/off)
PUT_BACK_LOW = 0.2  #: the pulse's dimmest level
BLINK_HZ = 2.0
RING_SEGMENTS = 8  #: the ring around the tower is laid out in eighths


@dataclass(frozen=True)
class Layout:
    seats: int = 5
    life_pixels: int = 6
    score_pixels: int = 8
    tower_pixels: int = 16

    def __post_init__(self) -> None:
        if (
            not isinstance(self.tower_pixels, int)
            or self.tower_pixels < RING_SEGMENTS
            or self.tower_pixels % RING_SEGMENTS
        ):
            raise ValueError(
                f"the tower ring needs a multiple of {RING_SEGMENTS} pixels (one or "
                f"more per eighth), not {self.tower_pixels!r}"
            )

    @property
    def seat_pixels(self) -> int:
        return 1 + self.life_pixels

    @property
    def segment_pixels(self) -> int:
        """Pixels of the tower ring per eighth of it."""
        return self.tower_pixels // RING_SEGMENTS

    def strips(self) -> dict[str, int]:
        """Strip name -> pixel count."""
        return {
            "table": self.seats * self.seat_pixels,
            "score": self.score_pixels,
            "tower": self.tower_pixels,
        }


@dataclass(frozen=True)
class Cue:
    """Something that just happened and is animated for ``length`` seconds.

    ``kind`` says what: ``"refused"`` (the segment of ``seat``, or every status light, blinks) is
    the table's own; a game's drawer makes and draws its own kinds (``lo``, ``hi`` and ``step``
    are theirs to use)."""

    kind: str
    at: float
    seat: int | None = None
    lo: int = 0
    hi: int = 0
    step: int = 0
    length: float = REFUSAL_FLASH

    def active(self, now: float) -> bool:
        return 0 <= now - self.at < self.length


def refusal_cue(seat: int | None, at: float) -> Cue:
    return Cue("refused", at, seat)


def blink(now: float, hz: float = BLINK_HZ) -> bool:
    """Whether a light blinking at ``hz`` is on at ``now``."""
    return math.floor(now * hz * 2) % 2 == 0


@functools.lru_cache(maxsize=1024)  # a frame's pixels come from a few colours: scaled once
def scale(p: Pixel, k: float) -> Pixel:
    return (round(p[0] * k), round(p[1] * k), round(p[2] * k))


def draw_refusal(table: list[Pixel], cue: Cue, now: float, layout: Layout, seated: int) -> None:
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


def put_back_level(now: float) -> float:
    """The put-back pulse's brightness at ``now``: from ``PUT_BACK_LOW`` to 1 and back."""
    wave = 0.5 - 0.5 * math.cos(2 * math.pi * PUT_BACK_HZ * now)
    return PUT_BACK_LOW + (1 - PUT_BACK_LOW) * wave


def draw_put_back(table: list[Pixel], seats: Any, now: float, layout: Layout, seated: int) -> None:
    """The status light of each of ``seats`` (a seat with a step of an undo to do by hand;
    None: a step on the board, shown at every one of the ``seated`` players' lights) pulses
    white."""
    if not seats:
        return
    lit = scale(WHITE, round(put_back_level(now), 2))
    shown = range(min(seated, layout.seats)) if None in seats else seats
    for seat in shown:
        if seat is not None and 0 <= seat < layout.seats:
            table[seat * layout.seat_pixels] = lit


def draw_status_lights(
    table: list[Pixel], view: dict[str, Any], colours: list[Pixel], now: float, layout: Layout
) -> None:
    """Every seat's status light from the view's common keys (``order``, ``active``,
    ``waiting_for``, ``finished``, ``winners``): the active player's colour, steady; a player the
    table waits for who is not the active player, blinking white; at the end, the winners'
    colours blinking slowly."""
    waiting = set(view.get("waiting_for", ()))
    winners = set(view.get("winners", ()))
    finished = bool(view.get("finished")) or view.get("phase") == "over"
    for seat, name in enumerate(view.get("order", ())[: layout.seats]):
        status = OFF
        if finished:
            status = colours[seat] if name in winners and blink(now, 1.0) else OFF
        elif name == view.get("active"):
            status = colours[seat]
        elif name in waiting:
            status = WHITE if blink(now) else OFF
        table[seat * layout.seat_pixels] = status


def draw_refusals(
    table: list[Pixel], view: dict[str, Any], cues: list[Cue], now: float, layout: Layout
) -> None:
    """The refusal cues that are still running."""
    for cue in cues:
        if cue.kind == "refused" and cue.active(now):
            draw_refusal(table, cue, now, layout, len(view.get("order", ())))


def status_lights_blink(view: dict[str, Any]) -> bool:
    """Whether the status lights change with time alone: someone blinks."""
    if view.get("finished") or view.get("phase") == "over":
        return bool(view.get("winners"))
    return bool(set(view.get("waiting_for", ())) - {view.get("active")})


#: The kinds of a legend's part, as the pages draw them: a seat's ``status`` light (its own
#: shape, set apart by a gap), a ``gauge`` of round lights counting something, a single
#: ``mark`` light, a ``track`` of spaces, a ``ring`` round a tower.
LEGEND_KINDS = ("status", "gauge", "mark", "track", "ring")


def legend_part(first: int, count: int, kind: str, label: Text) -> dict[str, Any]:
    """One part of a strip's legend: ``count`` pixels from ``first`` (within a seat's segment
    when the strip repeats per seat), drawn as ``kind`` (``LEGEND_KINDS``), meaning ``label``."""
    if kind not in LEGEND_KINDS:
        raise ValueError(f"a legend part is one of {', '.join(LEGEND_KINDS)}, not {kind!r}")
    return {"first": first, "count": count, "kind": kind, "label": label}


def status_legend(layout: Layout) -> dict[str, Any]:
    """The strip ``table`` as a segment per seat, its first pixel the seat's status light."""
    return {
        "per_seat": layout.seat_pixels,
        "parts": [
            legend_part(
                0,
                1,
                "status",
                t(
                    "Status light (the square, set apart): steady in the seat's colour on its "
                    "turn; blinking white while the table waits for that player; blinking in the "
                    "colour for the winners; pulsing white, slowly, while something of an undo "
                    "is to be put back there (at every seat: on the board)."
                ),
            )
        ],
    }


def legend(drawer: Any, layout: Layout) -> dict[str, dict[str, Any]]:
    """What a game's LEDs mean: strip name -> ``{"per_seat": pixels of a seat's segment, or
    None for a strip that does not repeat per seat, "parts": [legend_part, ...]}``, for the
    strips the game uses only. From the drawer's ``legend(layout)``; a drawer without one (or
    none: :class:`StatusLights`) uses the status lights alone."""
    found = getattr(drawer, "legend", None) if drawer is not None else None
    return found(layout) if found is not None else StatusLights().legend(layout)


class StatusLights:
    """The drawing of a game with no LEDs of its own: the status lights and the refusals."""

    def legend(self, layout: Layout) -> dict[str, dict[str, Any]]:
        return {"table": status_legend(layout)}

    def draw(
        self,
        strips: dict[str, list[Pixel]],
        view: dict[str, Any],
        colours: list[Pixel],
        cues: list[Cue],
        now: float,
        layout: Layout,
    ) -> None:
        draw_status_lights(strips["table"], view, colours, now, layout)
        draw_refusals(strips["table"], view, cues, now, layout)

    def animating(self, view: dict[str, Any], now: float) -> bool:
        return status_lights_blink(view)

    def cues(self, events: list[dict[str, Any]], players: list[str], at: float) -> list[Cue]:
        return []


def render(
    drawer: Any,
    view: dict[str, Any] | None,
    colours: list[Pixel],
    cues: list[Cue],
    now: float,
    layout: Layout = Layout(),
    brightness: float = 1.0,
    put_back: Any = (),
) -> dict[str, list[Pixel]]:
    """Every strip's pixels for the public ``view`` of the game, drawn by the game's ``drawer``
    (``view`` None: no game, all dark), with the put-back pulse over it at the seats
    ``put_back`` names (:func:`draw_put_back`)."""
    strips = {name: [OFF] * n for name, n in layout.strips().items()}
    if view is None:
        return strips
    drawer.draw(strips, view, colours, cues, now, layout)
    draw_put_back(strips["table"], put_back, now, layout, len(view.get("order", ())))
    if brightness != 1.0:
        for name, pixels in strips.items():
            strips[name] = [scale(p, brightness) for p in pixels]
    return strips


def animating(
    drawer: Any, view: dict[str, Any] | None, cues: list[Cue], now: float, put_back: Any = ()
) -> bool:
    """Whether the frames change with time alone (so the table keeps redrawing)."""
    if any(c.active(now) for c in cues):
        return True
    if view is None:
        return False
    if put_back:
        return True
    return drawer.animating(view, now)


STORAGE_RED: Pixel = (255, 0, 0)


def storage_failed(
    now: float, layout: Layout = Layout(), brightness: float = 1.0
) -> dict[str, list[Pixel]]:
    """The frame while the table cannot record (a full or failing SD card): every other strip
    dark, every seat's status light alternating red and white twice a second. No game signal
    uses that alternation, so it reads as "something is wrong with the table", not "your turn",
    whatever one's colour vision."""
    strips = {name: [OFF] * n for name, n in layout.strips().items()}
    lit = scale(STORAGE_RED if blink(now) else WHITE, brightness)
    for seat in range(layout.seats):
        strips["table"][seat * layout.seat_pixels] = lit
    return strips
