"""Charts drawn on the server as SVG: no script, no library, nothing the pages' content security
policy forbids (presentation attributes only: no ``style``).

Two kinds, both generic (the caller passes every text, already translated):

* :class:`Bars`: one bar per label (win rate per player, counts per face of a die), drawn across
  so a long label never meets the next one, with an optional expected value (one dashed line, or
  a mark per bar) to read the bars against;
* :class:`Lines`: a line per series over numbered steps (each player's score after each action
  of a play), each series told by its colour (the Okabe–Ito palette, safe for colour-blind eyes)
  *and* its own marker shape and dash pattern, named in a legend under the plot.

Sizes are in the view box's units, 360 wide: drawn across a 390-px phone's card the box is about 327 px
wide, so the 14-unit texts are never smaller than 12 px. Texts are in ``currentColor`` (the page's
ink, light or dark theme); a standalone SVG (``standalone=True``) brings its own background and
ink. Every label is escaped (player names are typed by people), long labels are cut with "…"
(whole in the bar's tooltip and the table), and a series longer than :data:`MAX_POINTS` is
thinned to that many points. :func:`figure` wraps a chart with its caption and a table of its
numbers, the text alternative under every chart.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

#: Okabe & Ito's colour-blind-safe palette, in the order series take it (its black last, drawn
#: in the page's ink so that it shows on the dark theme too).
PALETTE = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#F0E442",  # yellow
    "currentColor",  # black
)
#: each series' marker and dash pattern, so that colour is never the only cue
MARKERS = ("circle", "square", "triangle", "diamond", "triangle-down", "plus", "cross", "star")
DASHES = ("", "8 3", "2 3", "10 3 2 3", "5 5", "1 4", "14 4", "6 2 2 2 2 2")
MAX_POINTS = 200  #: a longer series is thinned to this many points
MAX_BARS = 40  #: bars drawn at most (the table under the chart lists them all)
MAX_SERIES = len(PALETTE)
MARKS_PER_SERIES = 12  #: markers along a line; a marker on every point of up to twice as many
WIDTH = 360
FONT = 14  #: text size in view-box units: >= 12 px on a 390-px-wide phone (drawn ~327 px wide)
LABEL_CHARS = 13  #: a bar's label longer than this is cut
LEGEND_CHARS = 36


def plain(value: float) -> str:
    """A number as the charts write it by default: a whole number without decimals, else one."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.1f}"


@dataclass(frozen=True)
class Bars:
    """A bar chart: ``values[i]`` for ``labels[i]``, read along ``axis`` (its caption)."""

    title: str
    labels: Sequence[str]
    values: Sequence[float]
    axis: str
    #: what each bar is expected to be: one value for all, one per bar (None: none), or none
    expected: float | Sequence[float | None] | None = None
    expected_label: str = ""
    top: float | None = None  #: the scale's end (100 for a percentage); else the largest value
    fmt: Callable[[float], str] = plain


@dataclass(frozen=True)
class Lines:
    """A line chart: each series' values at the steps ``x`` (None: no value there, a gap)."""

    title: str
    x_axis: str
    y_axis: str
    x: Sequence[int]
    series: Sequence[tuple[str, Sequence[float | int | None]]]
    fmt: Callable[[float], str] = plain
    empty: str = ""  #: what the plot says when no series has a value (a game without scores)


def esc(text: Any) -> str:
    return escape(str(text), quote=True)


def cut(text: str, chars: int) -> str:
    """``text`` cut to ``chars`` characters, the last an ellipsis when it was longer."""
    text = " ".join(str(text).split())
    return text if len(text) <= chars else text[: chars - 1].rstrip() + "…"


def thin(count: int, limit: int = MAX_POINTS) -> list[int]:
    """The indices kept of ``count`` points: all of them up to ``limit``, else ``limit`` spread
    evenly, the first and the last always among them."""
    if count <= limit:
        return list(range(count))
    step = (count - 1) / (limit - 1)
    return sorted({round(i * step) for i in range(limit)})


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round values from below ``low`` to above ``high``, about ``count`` of them."""
    if not math.isfinite(low) or not math.isfinite(high):
        low, high = 0.0, 1.0
    if high <= low:
        high = low + 1
    raw = (high - low) / max(count - 1, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    start = math.floor(low / step) * step
    ticks = []
    value = start
    while value < high + step * 0.5 and len(ticks) < 12:
        ticks.append(round(value, 10))
        value += step
    return ticks


def _svg(title: str, height: float, body: list[str], standalone: bool) -> str:
    label = esc(title)
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} '
        f'{math.ceil(height)}" role="img" aria-label="{label}" font-size="{FONT}" '
        f'font-family="system-ui, sans-serif"'
    )
    if standalone:  # opened alone or as an <img>: no page to take the ink from
        head += ' color="#1b1b1f"'
        body = [f'<rect width="{WIDTH}" height="{math.ceil(height)}" fill="#ffffff"/>', *body]
    return head + f"><title>{label}</title>" + "".join(body) + "</svg>"


def _n(value: float) -> str:
    """A coordinate, short."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


# -- bars ------------------------------------------------------------------------------------------


def _expected_of(bars: Bars, count: int) -> list[float | None]:
    if bars.expected is None:
        return [None] * count
    if isinstance(bars.expected, int | float):
        return [float(bars.expected)] * count
    given = [None if v is None else float(v) for v in list(bars.expected)[:count]]
    return given + [None] * (count - len(given))


def bar_svg(bars: Bars, standalone: bool = False) -> str:
    """The bar chart's SVG: a row per bar, its label on the left, its value after the bar."""
    values = [_finite(v) for v in list(bars.values)[:MAX_BARS]]
    labels = [str(label) for label in list(bars.labels)[: len(values)]]
    values = values[: len(labels)]
    expected = _expected_of(bars, len(values))
    single = bars.expected is not None and isinstance(bars.expected, int | float)
    known = [v for v in values + expected if v is not None]
    top = bars.top if bars.top is not None else max(known, default=0.0)
    ticks = nice_ticks(0.0, max(top, 1e-9) if top > 0 else 1.0, 5)
    end = ticks[-1] if bars.top is None else max(bars.top, 1e-9)
    if bars.top is not None:
        ticks = [t for t in ticks if t <= bars.top] or [0.0, bars.top]
    left, right, row, bar_h, top_y = 130.0, WIDTH - 48.0, 30.0, 18.0, 8.0
    span = right - left

    def x(value: float) -> float:
        return left + span * max(0.0, min(value, end)) / end

    body: list[str] = []
    bottom = top_y + row * len(values)
    for tick in ticks:  # the grid
        body.append(
            f'<line x1="{_n(x(tick))}" y1="{_n(top_y)}" x2="{_n(x(tick))}" y2="{_n(bottom)}" '
            f'stroke="currentColor" stroke-opacity="0.2"/>'
        )
    body.append('<g class="bars">')
    for i, (label, value) in enumerate(zip(labels, values, strict=True)):
        y = top_y + row * i
        middle = y + row / 2
        body.append(
            f'<text class="bar-label" x="{_n(left - 6)}" y="{_n(middle)}" text-anchor="end" '
            f'dominant-baseline="central" fill="currentColor">{esc(cut(label, LABEL_CHARS))}</text>'
        )
        width = x(value) - left
        body.append(
            f'<rect class="bar" x="{_n(left)}" y="{_n(middle - bar_h / 2)}" width="{_n(width)}" '
            f'height="{_n(bar_h)}" fill="{PALETTE[0]}" stroke="currentColor" stroke-width="1">'
            f"<title>{esc(label)}: {esc(bars.fmt(value))}</title></rect>"
        )
        body.append(
            f'<text class="bar-value" x="{_n(x(value) + 4)}" y="{_n(middle)}" '
            f'dominant-baseline="central" fill="currentColor">{esc(bars.fmt(value))}</text>'
        )
        if expected[i] is not None and not single:
            ex = x(expected[i])
            body.append(
                f'<line class="expected-mark" x1="{_n(ex)}" y1="{_n(y + 2)}" x2="{_n(ex)}" '
                f'y2="{_n(y + row - 2)}" stroke="currentColor" stroke-width="2.5" '
                f'stroke-dasharray="3 2"/>'
            )
    body.append("</g>")
    if single and expected and expected[0] is not None:
        ex = x(expected[0])
        body.append(
            f'<line class="expected-line" x1="{_n(ex)}" y1="{_n(top_y - 4)}" x2="{_n(ex)}" '
            f'y2="{_n(bottom + 2)}" stroke="currentColor" stroke-width="2" '
            f'stroke-dasharray="6 3"/>'
        )
    y = bottom + 4
    for tick in ticks:  # the axis's numbers, then its caption
        body.append(
            f'<text class="tick" x="{_n(x(tick))}" y="{_n(y + FONT)}" text-anchor="middle" '
            f'fill="currentColor">{esc(bars.fmt(tick))}</text>'
        )
    y += FONT + 20
    body.append(
        f'<text class="axis" x="{_n(left + span / 2)}" y="{_n(y)}" text-anchor="middle" '
        f'fill="currentColor">{esc(cut(bars.axis, LEGEND_CHARS + 6))}</text>'
    )
    if bars.expected is not None and bars.expected_label:
        y += 22
        dash = "6 3" if single else "3 2"
        body.append(
            f'<g class="legend"><line x1="{_n(left - 40)}" y1="{_n(y - 4)}" x2="{_n(left - 8)}" '
            f'y2="{_n(y - 4)}" stroke="currentColor" stroke-width="2" stroke-dasharray="{dash}"/>'
            f'<text x="{_n(left)}" y="{_n(y)}" fill="currentColor">'
            f"{esc(cut(bars.expected_label, LEGEND_CHARS))}</text></g>"
        )
    return _svg(bars.title, y + 8, body, standalone)


def bar_rows(bars: Bars) -> list[list[str]]:
    """The numbers of a bar chart, a row per bar (its label, value and expected value)."""
    expected = _expected_of(bars, len(bars.values))
    rows = []
    for i, (label, value) in enumerate(zip(bars.labels, bars.values, strict=False)):
        row = [str(label), bars.fmt(_finite(value))]
        if bars.expected is not None:
            row.append("" if expected[i] is None else bars.fmt(expected[i]))
        rows.append(row)
    return rows


def _finite(value: Any) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return 0.0
    return number if math.isfinite(number) else 0.0


# -- lines -----------------------------------------------------------------------------------------


def marker(shape: str, x: float, y: float, colour: str, r: float = 4.5) -> str:
    """One marker of ``shape`` at (x, y): filled with the series' colour, edged in the ink."""
    edge = f'fill="{colour}" stroke="currentColor" stroke-width="1"'
    if shape == "circle":
        return f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" {edge}/>'
    if shape in ("plus", "cross"):  # drawn as strokes: a filled plus would read as a square
        a = r * 1.2
        if shape == "plus":
            d = f"M{_n(x - a)} {_n(y)}H{_n(x + a)}M{_n(x)} {_n(y - a)}V{_n(y + a)}"
        else:
            d = (
                f"M{_n(x - a)} {_n(y - a)}L{_n(x + a)} {_n(y + a)}"
                f"M{_n(x - a)} {_n(y + a)}L{_n(x + a)} {_n(y - a)}"
            )
        return f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="3"/>'
    points = {
        "square": [(-1, -1), (1, -1), (1, 1), (-1, 1)],
        "triangle": [(0, -1.25), (1.15, 0.9), (-1.15, 0.9)],
        "triangle-down": [(0, 1.25), (1.15, -0.9), (-1.15, -0.9)],
        "diamond": [(0, -1.3), (1.3, 0), (0, 1.3), (-1.3, 0)],
        "star": [
            (
                math.sin(k * math.pi / 5) * (1.4 if k % 2 == 0 else 0.6),
                -math.cos(k * math.pi / 5) * (1.4 if k % 2 == 0 else 0.6),
            )
            for k in range(10)
        ],
    }[shape]
    d = "M" + "L".join(f"{_n(x + px * r * 0.9)} {_n(y + py * r * 0.9)}" for px, py in points) + "Z"
    return f'<path d="{d}" {edge}/>'


def line_svg(lines: Lines, standalone: bool = False) -> str:
    """The line chart's SVG: the plot, its axes, and a legend line per series."""
    kept = thin(len(lines.x))
    xs = [lines.x[i] for i in kept]
    series = [
        (str(name), [_value(values, i) for i in kept])
        for name, values in list(lines.series)[:MAX_SERIES]
    ]
    known = [v for _, values in series for v in values if v is not None]
    low, high = (min(known), max(known)) if known else (0.0, 1.0)
    y_ticks = nice_ticks(min(low, 0.0), high, 5)
    x_first, x_last = (xs[0], xs[-1]) if xs else (0, 1)
    x_ticks = [
        t for t in nice_ticks(x_first, max(x_last, x_first + 1), 5) if x_first <= t <= x_last
    ]
    left, right, top, plot_h = 44.0, WIDTH - 14.0, 26.0, 190.0
    bottom = top + plot_h

    def px(value: float) -> float:
        return left + (right - left) * (value - x_first) / max(x_last - x_first, 1)

    def py(value: float) -> float:
        return bottom - plot_h * (value - y_ticks[0]) / (y_ticks[-1] - y_ticks[0])

    body = [
        f'<text class="axis" x="4" y="{_n(FONT + 2)}" fill="currentColor">'
        f"{esc(cut(lines.y_axis, LEGEND_CHARS))}</text>"
    ]
    for tick in y_ticks:
        body.append(
            f'<line x1="{_n(left)}" y1="{_n(py(tick))}" x2="{_n(right)}" y2="{_n(py(tick))}" '
            f'stroke="currentColor" stroke-opacity="0.2"/>'
            f'<text class="tick" x="{_n(left - 5)}" y="{_n(py(tick))}" text-anchor="end" '
            f'dominant-baseline="central" fill="currentColor">{esc(lines.fmt(tick))}</text>'
        )
    for tick in x_ticks:
        body.append(
            f'<text class="tick" x="{_n(px(tick))}" y="{_n(bottom + FONT + 5)}" '
            f'text-anchor="middle" fill="currentColor">{esc(lines.fmt(tick))}</text>'
        )
    body.append(
        f'<line x1="{_n(left)}" y1="{_n(bottom)}" x2="{_n(right)}" y2="{_n(bottom)}" '
        f'stroke="currentColor"/>'
        f'<text class="axis" x="{_n((left + right) / 2)}" y="{_n(bottom + 2 * FONT + 12)}" '
        f'text-anchor="middle" fill="currentColor">{esc(cut(lines.x_axis, LEGEND_CHARS))}</text>'
    )
    if not known and lines.empty:
        body.append(
            f'<text class="empty" x="{_n((left + right) / 2)}" y="{_n(top + plot_h / 2)}" '
            f'text-anchor="middle" fill="currentColor">{esc(cut(lines.empty, LEGEND_CHARS))}</text>'
        )
    every = 1 if len(xs) <= 2 * MARKS_PER_SERIES else math.ceil(len(xs) / MARKS_PER_SERIES)
    for s, (name, values) in enumerate(series):
        colour, shape, dash = PALETTE[s], MARKERS[s], DASHES[s]
        body.append(f'<g class="series" data-marker="{shape}" data-dash="{dash or "solid"}">')
        path, pen_down = [], False
        for x, v in zip(xs, values, strict=True):
            if v is None:
                pen_down = False
                continue
            path.append(f"{'L' if pen_down else 'M'}{_n(px(x))} {_n(py(v))}")
            pen_down = True
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        if path:
            body.append(
                f'<path class="line" d="{"".join(path)}" fill="none" stroke="{colour}" '
                f'stroke-width="2.5" stroke-linejoin="round"{dashes}/>'
            )
        offset = (s * every) // max(len(series), 1)  # markers of different series apart
        for i in range(len(xs)):
            last = i == len(xs) - 1
            if values[i] is not None and ((i - offset) % every == 0 or last):
                body.append(marker(shape, px(xs[i]), py(values[i]), colour))
        body.append("</g>")
    y = bottom + 2 * FONT + 24
    body.append('<g class="legend">')
    for s, (name, _) in enumerate(series):
        y += 22
        colour, dash = PALETTE[s], DASHES[s]
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        body.append(
            f'<line x1="8" y1="{_n(y - 4)}" x2="44" y2="{_n(y - 4)}" stroke="{colour}" '
            f'stroke-width="2.5"{dashes}/>'
            + marker(MARKERS[s], 26, y - 4, colour)
            + f'<text x="52" y="{_n(y)}" fill="currentColor">{esc(cut(name, LEGEND_CHARS))}</text>'
        )
    body.append("</g>")
    return _svg(lines.title, y + 10, body, standalone)


def line_rows(lines: Lines) -> list[list[str]]:
    """The numbers of a line chart (thinned like the chart): a row per step, a column per series."""
    rows = []
    for i in thin(len(lines.x)):
        row = [lines.fmt(lines.x[i])]
        for _, values in list(lines.series)[:MAX_SERIES]:
            value = _value(values, i)
            row.append("" if value is None else lines.fmt(value))
        rows.append(row)
    return rows


def _value(values: Sequence[Any], i: int) -> float | None:
    value = values[i] if i < len(values) else None
    if value is None or isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


# -- figures ---------------------------------------------------------------------------------------


def figure(chart: Bars | Lines, numbers: str, *, headers: Sequence[str] = ()) -> str:
    """A chart as HTML: a ``<figure>`` with its caption, the SVG, and the text alternative under
    it: a table of its numbers (in a ``<details>`` titled ``numbers``). ``headers`` are the
    table's column titles (for bars: label, value, expected; for lines: the step, then the
    series' names are added)."""
    if isinstance(chart, Bars):
        svg, rows = bar_svg(chart), bar_rows(chart)
        head = list(headers)[: 3 if chart.expected is not None else 2]
    else:
        svg, rows = line_svg(chart), line_rows(chart)
        head = [*list(headers)[:1], *(str(name) for name, _ in list(chart.series)[:MAX_SERIES])]
    table = ["<table><thead><tr>"]
    table += [f'<th scope="col">{esc(h)}</th>' for h in head]
    table.append("</tr></thead><tbody>")
    for row in rows:
        table.append(f'<tr><th scope="row">{esc(row[0])}</th>')
        table += [f"<td>{esc(cell)}</td>" for cell in row[1:]]
        table.append("</tr>")
    table.append("</tbody></table>")
    return (
        f'<figure class="chart-figure"><figcaption>{esc(chart.title)}</figcaption>{svg}'
        f'<details class="chart-numbers"><summary>{esc(numbers)}</summary>'
        f'<div class="table-scroll" tabindex="0" role="region" aria-label="{esc(numbers)}">'
        f"{''.join(table)}</div></details></figure>"
    )


def play_lines(play: Any, points: Sequence[Any], labels: Mapping[str, str], fmt=plain) -> Lines:
    """Each player's score after each action of ``play`` (a :class:`~companion.table.plays.Play`
    and its :class:`~companion.table.plays.Point` s), in seat order."""
    players = list(dict.fromkeys(play.players))
    return Lines(
        title=labels["title"],
        x_axis=labels["x"],
        y_axis=labels["y"],
        x=[point.action for point in points],
        series=[(player, [point.scores.get(player) for point in points]) for player in players],
        fmt=fmt,
        empty=labels.get("empty", ""),
    )


def play_chart(play: Any, points: Sequence[Any], labels: Mapping[str, str], fmt=plain) -> str:
    """The chart of a play, as HTML (figure, SVG and table), for any page that shows a play.
    ``labels`` are translated texts: ``title``, ``x`` (the actions' axis), ``y`` (the scores'),
    ``numbers`` (the table's summary), ``action`` (its first column's title) and, optionally,
    ``empty`` (what the plot says when the game keeps no score)."""
    lines = play_lines(play, points, labels, fmt)
    return figure(lines, labels["numbers"], headers=[labels["action"]])
