"""Dork Tower on the LEDs (its plug-in's ``lights``: ``companion.lights.render`` calls ``draw``
for its views).

* strip ``tower``: the ring around the tower's base, ``Layout.segment_pixels`` pixels per wedge of
  the map (``Layout.segment_pixels``: the ring is laid in eighths, one per wedge), pixel 0 at the
  counter-clockwise edge of wedge 0, clockwise. Every pixel of a wedge in
  day shows ``SUN`` (warm and bright), of a wedge in night ``MOON`` (a dim blue): day and night
  differ in brightness, not only in hue (DT-TIME-1). The middle pixel of the wedge the door faces
  (pixel ``wedge_pixels // 2`` of it) shows ``DOOR``, white (DT-TOWER-1).
* strip ``table``: per seat a status light (the active player's colour, steady; a player the
  table waits for who is not the active player blinks white; at the end the winners blink their
  colour slowly), then an experience gauge toward levelling up (one pixel per ``XP_PER_PIXEL`` XP,
  at most ``GAUGE_PIXELS``, in the seat's colour: full at 10 XP, the cost of a level, DT-LVL-1),
  then, on the segment's last pixel, the seat's colour when the hero is high level.
* strip ``score``: dark.

When the tower turns (DT-TIME-2, a ``"tower_turned"`` cue) the ring animates for ``TOWER_TURN``
(0.8 s): for ``TOWER_SLIDE`` the whole day/night/door pattern slides clockwise from where it was
to where it is now, one wedge, pixel by pixel; then for ``TOWER_COLOUR`` every pixel but the door
shows the colour of the player whose turn begins; then the steady ring. The steady frames depend
on the view alone, so after a restart the LEDs are right at once. A cue whose step is no longer the
view's (an undo came within the animation) is not drawn.
"""

from __future__ import annotations

import math
from typing import Any

from companion.i18n import t
from companion.lights import (
    OFF,
    RING_SEGMENTS,
    WHITE,
    Cue,
    Layout,
    Pixel,
    draw_refusals,
    draw_status_lights,
    legend_part,
    status_legend,
    status_lights_blink,
)

WEDGES = RING_SEGMENTS  # the map's 8 wedges around the tower: one eighth of the ring each
TOWER_SLIDE = 0.5  # seconds the day/night pattern takes to slide one wedge clockwise
TOWER_COLOUR = 0.3  # seconds the ring then shows the colour of the player whose turn begins
TOWER_TURN = TOWER_SLIDE + TOWER_COLOUR  # the whole turn animation: under one second

SUN: Pixel = (255, 176, 48)  #: a wedge in day: warm and bright
MOON: Pixel = (16, 28, 96)  #: a wedge in night: a dim blue
DOOR: Pixel = WHITE  #: the wedge the tower's door faces (its middle pixel)

XP_PER_PIXEL = 2
GAUGE_PIXELS = 5  # 5 pixels of 2 XP: full at 10 XP, when the hero may level up (DT-LVL-1)


def ring(tower: dict[str, Any], layout: Layout) -> list[Pixel]:
    """The steady ring for the view's ``tower``: day, night and the door, as the view says."""
    per = layout.segment_pixels
    pixels = [OFF] * layout.tower_pixels
    for j, wedge in enumerate(tower["wedges"][:WEDGES]):
        colour = SUN if wedge["day"] else MOON
        for k in range(per):
            pixels[j * per + k] = colour
    pixels[door_pixel(tower["door_wedge"], layout)] = DOOR
    return pixels


def door_pixel(door_wedge: int, layout: Layout) -> int:
    """The ring pixel marking the door: the middle one of its wedge."""
    return (door_wedge % WEDGES) * layout.segment_pixels + layout.segment_pixels // 2


def _turning(
    steady: list[Pixel],
    tower: dict[str, Any],
    cue: Cue,
    colours: list[Pixel],
    now: float,
    layout: Layout,
) -> list[Pixel]:
    """The ring during the turn animation of ``cue``."""
    per, n = layout.segment_pixels, layout.tower_pixels
    t = now - cue.at
    if t < TOWER_SLIDE:
        # per + 1 positions, from one wedge counter-clockwise of now (the old pattern) to now
        moved = min(per, math.floor(t / TOWER_SLIDE * (per + 1)))
        behind = per - moved
        return [steady[(i + behind) % n] for i in range(n)]
    if cue.seat is None or cue.seat >= len(colours):
        return steady
    door = door_pixel(tower["door_wedge"], layout)
    return [DOOR if i == door else colours[cue.seat] for i in range(n)]


def legend(layout: Layout) -> dict[str, dict[str, Any]]:
    """The strips this game uses, and what their pixels mean (the score track stays dark)."""
    table = status_legend(layout)
    gauge = max(0, min(GAUGE_PIXELS, layout.life_pixels - 1))
    if gauge:
        table["parts"].append(
            legend_part(
                1,
                gauge,
                "gauge",
                t(
                    "Experience: one light per {n} XP, in the seat's colour; all lit, the hero "
                    "may level up.",
                    n=XP_PER_PIXEL,
                ),
            )
        )
    if layout.life_pixels >= 1:
        table["parts"].append(
            legend_part(
                layout.life_pixels,
                1,
                "mark",
                t("High level: the segment's last light, in the seat's colour."),
            )
        )
    ring_text = t(
        "The ring round the tower: an eighth per wedge of the map, bright and warm for day, dim "
        "blue for night; the white light marks the wedge the door faces."
    )
    return {
        "table": table,
        "tower": {
            "per_seat": None,
            "parts": [legend_part(0, layout.tower_pixels, "ring", ring_text)],
        },
    }


def draw(
    strips: dict[str, list[Pixel]],
    view: dict[str, Any],
    colours: list[Pixel],
    cues: list[Cue],
    now: float,
    layout: Layout,
) -> None:
    """Draw ``view`` onto ``strips`` (all dark when called)."""
    table = strips["table"]
    draw_status_lights(table, view, colours, now, layout)
    gauge = max(0, min(GAUGE_PIXELS, layout.life_pixels - 1))
    for i, name in enumerate(view["order"][: layout.seats]):
        base = i * layout.seat_pixels
        colour = colours[i]
        p = view["players"][name]
        lit = min(gauge, max(0, p.get("xp", 0)) // XP_PER_PIXEL)
        for k in range(gauge):
            table[base + 1 + k] = colour if k < lit else OFF
        if layout.life_pixels >= 1 and p.get("level") == "high":
            table[base + layout.life_pixels] = colour

    tower = view.get("tower")
    if tower:
        steady = ring(tower, layout)
        turn = None
        for cue in cues:
            if (
                cue.kind == "tower_turned"
                and cue.active(now)
                and cue.step == tower["step"]
                and cue.hi == tower["door_wedge"] % WEDGES
            ):
                turn = cue  # the latest one wins
        strips["tower"] = (
            steady if turn is None else _turning(steady, tower, turn, colours, now, layout)
        )
    draw_refusals(table, view, cues, now, layout)


def animating(view: dict[str, Any], now: float) -> bool:
    """Whether the frames change with time alone, cues aside: someone blinks."""
    return status_lights_blink(view)


def cues(events: list[dict[str, Any]], players: list[str], at: float) -> list[Cue]:
    """The tower turned (a ``tower_turned`` event): the ring animates for ``TOWER_TURN``, the door
    moving from wedge ``lo`` to wedge ``hi``; ``seat`` is the player whose turn begins (None when
    not seated)."""
    found = []
    for event in events:
        if (
            event.get("type") == "tower_turned"
            and isinstance(event.get("door_wedge"), int)
            and isinstance(event.get("step"), int)
        ):
            seat = players.index(event["next"]) if event.get("next") in players else None
            door = event["door_wedge"] % WEDGES
            found.append(
                Cue(
                    "tower_turned",
                    at,
                    seat,
                    (door - 1) % WEDGES,
                    door,
                    event["step"],
                    length=TOWER_TURN,
                )
            )
    return found
