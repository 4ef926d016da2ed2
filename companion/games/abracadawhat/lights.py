"""Abracada...What? on the LEDs (its plug-in's ``lights``: ``companion.lights.render`` calls
``draw`` for its views).

* strip ``table``: per seat a status light, then its life in the seat's colour; a lost point
  flashes white and the seat colour for a moment, then goes dark.
* strip ``score``: the score track, pixel *k* is space *k + 1* of the board's track (score 0 is
  "below space 1": no light). Players on the same space take turns on that pixel.
* strip ``tower``: dark.

Status light: the active player's seat shows its colour steadily; a player the table is waiting for
who is not the active player (the right neighbour who must remove the stone, players who may object)
blinks white; while dealing, the seat receiving stones blinks its colour; at the end of the game the
winners blink their colour slowly.
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
    blink,
    draw_refusal,
    legend_part,
    status_legend,
)

LOSS_FLASH = 1.2  # seconds a lost life point flashes before it goes dark
SHARE_PERIOD = 0.6  # seconds each player shows on a shared score pixel


def cues(events: list[dict[str, Any]], players: list[str], at: float) -> list[Cue]:
    """A life lost (a ``life`` event with a negative ``delta``): its pixels flash (``lo`` up to
    ``hi - 1`` of the seat's life)."""
    found = []
    for event in events:
        if (
            event.get("type") == "life"
            and event.get("delta", 0) < 0
            and event.get("player") in players
        ):
            found.append(
                Cue(
                    "life_lost",
                    at,
                    players.index(event["player"]),
                    event["life"],
                    event["life"] - event["delta"],
                    length=LOSS_FLASH,
                )
            )
    return found


def legend(layout: Layout) -> dict[str, dict[str, Any]]:
    """The strips this game uses, and what their pixels mean (the tower ring stays dark)."""
    table = status_legend(layout)
    table["parts"].append(
        legend_part(
            1,
            layout.life_pixels,
            "gauge",
            t("Life: one light per life point, in the seat's colour; a lost one flashes white."),
        )
    )
    track = t(
        "Score track: light 1 is space 1 of the board's track; a player's colour shows where "
        "their score stands (players on the same space take turns)."
    )
    return {
        "table": table,
        "score": {"per_seat": None, "parts": [legend_part(0, layout.score_pixels, "track", track)]},
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
    table, score = strips["table"], strips["score"]
    names = view["order"]
    seat_of = {name: i for i, name in enumerate(names)}
    waiting = set(view.get("waiting_for", ()))
    winners = set(view.get("winners", ()))
    deal_to = (view.get("deal") or {}).get("player") if view["phase"] == "deal" else None

    for i, name in enumerate(names[: layout.seats]):
        base = i * layout.seat_pixels
        colour = colours[i]
        p = view["players"][name]
        status = OFF
        if view["phase"] == "over":
            status = colour if name in winners and blink(now, 1.0) else OFF
        elif view["phase"] == "deal":
            status = colour if name == deal_to and blink(now) else OFF
        elif name == view["active"]:
            status = colour
        elif name in waiting:
            status = WHITE if blink(now) else OFF
        table[base] = status
        for k in range(layout.life_pixels):
            table[base + 1 + k] = colour if k < p["life"] else OFF

    for cue in cues:
        if not cue.active(now):
            continue
        if cue.kind == "life_lost" and cue.seat is not None and cue.seat < layout.seats:
            base = cue.seat * layout.seat_pixels + 1
            flash = WHITE if blink(now, 4.0) else colours[cue.seat]
            for k in range(cue.lo, min(cue.hi, layout.life_pixels)):
                table[base + k] = flash
        elif cue.kind == "refused":
            draw_refusal(table, cue, now, layout, len(names))

    spaces: dict[int, list[int]] = {}
    for name in names:
        points = view["players"][name]["score"]
        if points > 0:
            spaces.setdefault(min(points, layout.score_pixels) - 1, []).append(seat_of[name])
    for space, seats in spaces.items():
        shown = seats[math.floor(now / SHARE_PERIOD) % len(seats)]
        score[space] = colours[shown]


def animating(view: dict[str, Any], now: float) -> bool:
    """Whether the frames change with time alone, cues aside."""
    if view["phase"] in ("deal", "over"):
        return True
    if set(view.get("waiting_for", ())) - {view["active"]}:
        return True
    scores = [p["score"] for p in view["players"].values() if p["score"] > 0]
    return len(scores) != len(set(min(s, 8) for s in scores))
