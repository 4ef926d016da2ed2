"""A die's counts per face as an SVG bar chart drawn on the server, against the count a fair die
is expected to give (a dashed line over each bar).

Colour-blind-safe (Okabe-Ito: blue bars, a vermillion dashed line, told apart by shape too),
readable at 390 px (the SVG scales to its box), for screen readers an image with a title and a
description; the page shows the same numbers in a table beside it (:func:`bar_chart` is only a
picture of them). Presentation attributes only: the pages' content security policy allows no
inline style.
"""

from __future__ import annotations

from markupsafe import Markup, escape

BAR = "#0072B2"  #: Okabe-Ito blue
EXPECTED = "#D55E00"  #: Okabe-Ito vermillion
WIDTH, HEIGHT = 360, 220
LEFT, RIGHT, TOP, BOTTOM = 36, 8, 16, 40


def _nice_top(value: float) -> int:
    """A round number at or above ``value`` for the axis's top (at least 1)."""
    magnitude = 1
    while True:
        for step in (1, 2, 5):
            if step * magnitude >= value:
                return step * magnitude
        magnitude *= 10


def bar_chart(
    bars: list[tuple[str, int, float]], title: str, description: str, chart_id: str
) -> Markup:
    """An SVG of ``bars`` (each: the face's label, its count and its expected count), titled
    ``title`` and described by ``description`` (both already in the page's language);
    ``chart_id`` makes its title's and description's ids unique in the page."""
    highest = max([1.0] + [max(count, expected) for _, count, expected in bars])
    top = _nice_top(highest)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_w / max(1, len(bars))
    bar_w = slot * 0.6

    def y(value: float) -> float:
        return TOP + plot_h * (1 - value / top)

    parts = [
        f'<svg class="dice-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{chart_id}-title {chart_id}-desc" '
        f'xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{chart_id}-title">{escape(title)}</title>',
        f'<desc id="{chart_id}-desc">{escape(description)}</desc>',
    ]
    for tick in (0, top / 2, top):
        ty = y(tick)
        parts.append(
            f'<line class="grid" x1="{LEFT}" y1="{ty:.1f}" x2="{WIDTH - RIGHT}" y2="{ty:.1f}" '
            'stroke="currentColor" stroke-opacity="0.25" stroke-width="1"/>'
        )
        parts.append(
            f'<text x="{LEFT - 4}" y="{ty + 4:.1f}" text-anchor="end" font-size="11" '
            f'fill="currentColor">{_count(tick)}</text>'
        )
    for n, (label, count, expected) in enumerate(bars):
        x = LEFT + n * slot + (slot - bar_w) / 2
        bar_top = y(count)
        parts.append(
            f'<rect x="{x:.1f}" y="{bar_top:.1f}" width="{bar_w:.1f}" '
            f'height="{TOP + plot_h - bar_top:.1f}" fill="{BAR}"/>'
        )
        ey = y(expected)
        parts.append(
            f'<line class="expected" x1="{x - 4:.1f}" y1="{ey:.1f}" x2="{x + bar_w + 4:.1f}" '
            f'y2="{ey:.1f}" stroke="{EXPECTED}" stroke-width="3" stroke-dasharray="6 3"/>'
        )
        parts.append(
            f'<text x="{x + bar_w / 2:.1f}" y="{max(TOP - 2, bar_top - 4):.1f}" '
            f'text-anchor="middle" font-size="12" fill="currentColor">{count}</text>'
        )
        parts.append(
            f'<text x="{x + bar_w / 2:.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle" '
            f'font-size="12" font-weight="700" fill="currentColor">{escape(label)}</text>'
        )
    parts.append(
        f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{WIDTH - RIGHT}" y2="{TOP + plot_h}" '
        'stroke="currentColor" stroke-width="1.5"/>'
    )
    parts.append("</svg>")
    return Markup("".join(parts))


def _count(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"
