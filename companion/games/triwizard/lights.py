"""The Triwizard Maze Game on the LEDs (its plug-in's ``lights``: ``companion.lights.render``
calls ``draw`` for its public views). Everything drawn comes from the table's view: who plays,
who wears the Cloak, how many cards and tiles each player holds; never what they are.

* strip ``table``, per seat (``Layout.seat_pixels``):

  * pixel 0: the status light (the active player's colour, steady; a player the table waits for
    who is not the active player blinks white; at the end the winner blinks their colour slowly);
  * pixel 1: the Cloak, white while that player's piece wears it (TW-CLOAK-4/5);
  * pixels 2-3: the Battle Cards held (TW-BCARD-2): one light per two cards in the seat's colour,
    the last one dim for an odd card (4 cards: both lit, 3: one lit and one dim);
  * pixels 4-6: the Resource Tiles held (TW-RES-2, at most 6), the same way: one light per two
    tiles, the last one dim for an odd tile.

  A layout with fewer pixels per seat drops the tiles' gauge first, then the cards'.

* strips ``score`` and ``tower``: dark.

A battle's result (TW-BATTLE-4) is a cue on the fighter's segment, ``BATTLE_CUE`` seconds long,
over the Cloak and the gauges: a win fills the segment with white from the status light outwards,
light by light; a loss empties it, every light lit in the seat's colour going dark from the far
end inwards. The two differ in direction and colour, not in hue alone. The cue comes from the
rules' events: an event with a ``player`` and a ``result`` of ``"won"``, ``"lost"`` or
``"no_match"`` (a loss without a roll, TW-BATTLE-2); a first roll that fell ``"short"`` starts
nothing (a Double Die may still win, TW-BATTLE-5).
"""

from __future__ import annotations

import math
from typing import Any

from companion.i18n import t
from companion.lights import (
    OFF,
    WHITE,
    Cue,
    Layout,
    Pixel,
    draw_refusals,
    draw_status_lights,
    legend_part,
    scale,
    status_legend,
    status_lights_blink,
)

CLOAK_PIXEL = 1
CARDS = (2, 2)  #: the Battle Cards' gauge: first pixel, pixels (4 cards, two a light)
TILES = (4, 3)  #: the Resource Tiles' gauge: first pixel, pixels (6 tiles, two a light)
PER_LIGHT = 2  #: cards or tiles a gauge's light stands for
DIM = 0.25  #: the brightness of a light standing for one card or tile, not two
CLOAK: Pixel = WHITE
BATTLE_CUE = 1.5  #: seconds a battle's result is shown
WON, LOST = "battle_won", "battle_lost"
#: an event's result -> the cue it starts
RESULTS = {"won": WON, "lost": LOST, "no_match": LOST}


def _gauge(layout: Layout, gauge: tuple[int, int]) -> int:
    """How many pixels of ``gauge`` the layout's segment holds (0: none)."""
    first, count = gauge
    return max(0, min(count, layout.life_pixels - first + 1))


def legend(layout: Layout) -> dict[str, dict[str, Any]]:
    """The strip this game uses (``table``), and what its pixels mean."""
    table = status_legend(layout)
    if layout.life_pixels >= CLOAK_PIXEL:
        table["parts"].append(
            legend_part(
                CLOAK_PIXEL,
                1,
                "mark",
                t(
                    "The Invisibility Cloak: white while that player's piece wears it. After a "
                    "battle the segment fills with white for a win, empties for a loss."
                ),
            )
        )
    cards = _gauge(layout, CARDS)
    if cards:
        table["parts"].append(
            legend_part(
                CARDS[0],
                cards,
                "gauge",
                t(
                    "Battle Cards held: one light per two cards in the seat's colour, the last "
                    "one dim for an odd card."
                ),
            )
        )
    tiles = _gauge(layout, TILES)
    if tiles:
        table["parts"].append(
            legend_part(
                TILES[0],
                tiles,
                "gauge",
                t(
                    "Resource Tiles held (six at most): one light per two tiles in the seat's "
                    "colour, the last one dim for an odd tile."
                ),
            )
        )
    return {"table": table}


def gauge_pixels(count: int, lights: int, colour: Pixel) -> list[Pixel]:
    """``lights`` pixels standing for ``count`` things, two a light, the last one dim for an
    odd one."""
    count = max(0, int(count or 0))
    out = []
    for k in range(lights):
        held = count - k * PER_LIGHT
        out.append(colour if held >= PER_LIGHT else scale(colour, DIM) if held == 1 else OFF)
    return out


def draw(
    strips: dict[str, list[Pixel]],
    view: dict[str, Any],
    colours: list[Pixel],
    cues: list[Cue],
    now: float,
    layout: Layout,
) -> None:
    """Draw the public ``view`` onto ``strips`` (all dark when called)."""
    table = strips["table"]
    draw_status_lights(table, view, colours, now, layout)
    cards, tiles = _gauge(layout, CARDS), _gauge(layout, TILES)
    players = view.get("players") or {}
    for seat, name in enumerate(view.get("order", ())[: layout.seats]):
        base = seat * layout.seat_pixels
        shown = players.get(name) or {}
        colour = colours[seat]
        if layout.life_pixels >= CLOAK_PIXEL and (
            shown.get("cloaked") or view.get("cloak") == name
        ):
            table[base + CLOAK_PIXEL] = CLOAK
        for k, pixel in enumerate(gauge_pixels(shown.get("hand_count", 0), cards, colour)):
            table[base + CARDS[0] + k] = pixel
        for k, pixel in enumerate(gauge_pixels(shown.get("tile_count", 0), tiles, colour)):
            table[base + TILES[0] + k] = pixel
    for cue in cues:
        if cue.kind in (WON, LOST) and cue.active(now) and cue.seat is not None:
            _battle(table, cue, colours, now, layout)
    draw_refusals(table, view, cues, now, layout)


def _battle(table: list[Pixel], cue: Cue, colours: list[Pixel], now: float, layout: Layout) -> None:
    """A battle's result over the fighter's segment (not the status light): a win fills it with
    white from the status light outwards; a loss empties it from the far end inwards."""
    if cue.seat >= layout.seats or cue.seat >= len(colours):
        return
    lights = layout.life_pixels
    done = min(1.0, max(0.0, (now - cue.at) / cue.length))
    base = cue.seat * layout.seat_pixels + 1
    if cue.kind == WON:
        lit = min(lights, math.floor(done * (lights + 1)))
        for k in range(lights):
            table[base + k] = WHITE if k < lit else OFF
    else:
        lit = max(0, lights - math.floor(done * (lights + 1)))
        for k in range(lights):
            table[base + k] = colours[cue.seat] if k < lit else OFF


def animating(view: dict[str, Any], now: float) -> bool:
    """Whether the frames change with time alone, cues aside: someone blinks."""
    return status_lights_blink(view)


def cues(events: list[dict[str, Any]], players: list[str], at: float) -> list[Cue]:
    """A battle's result: an event naming the fighter (``player``) and a final ``result``
    (won, lost, no_match; not a first roll that fell ``short``) starts the cue on that player's
    segment."""
    found = []
    for event in events:
        result = RESULTS.get(event.get("result"))
        player = event.get("player")
        if result is not None and player in players:
            found.append(Cue(result, at, players.index(player), length=BATTLE_CUE))
    return found
