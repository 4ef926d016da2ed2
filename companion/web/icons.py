"""The home-screen icons, drawn with the standard library only (zlib and struct; no Pillow).

They draw what ``web/static/icon.svg`` draws, on its 64-unit grid: a dark rounded square, a light
card with a border, and a question mark made of round-capped strokes and a dot. Each shape is a
signed distance, so edges are smooth at any size. Only + - * / and sqrt are used, which IEEE 754
rounds the same way everywhere: every machine draws the same pixels, and a test checks that the
PNGs in ``web/static/icons/`` are exactly what this module draws.

Regenerate them after changing the artwork::

    python -m companion.web.icons --out web/static/icons
"""

from __future__ import annotations

import argparse
import struct
import zlib
from collections.abc import Callable
from itertools import pairwise
from math import sqrt
from pathlib import Path

GRID = 64.0  # icon.svg's viewBox
CENTRE = GRID / 2
BACKGROUND = (0x2F, 0x2A, 0x40)  # the icon's dark square (also a secret stone in app.css)
CARD = (0xEF, 0xE6, 0xD2)  # a stone's face
CARD_EDGE = (0xB9, 0xA7, 0x7A)
INK = (0x2B, 0x24, 0x10)
SAFE_ZONE = 0.4  # a maskable icon's artwork stays within this fraction of its size from the centre
MASKABLE_SCALE = 0.82  # the card and its "?" shrunk to sit well inside the safe zone

# The "?": a hook of round-capped strokes through points on an arc (centre (32, 25.5), radius 6.2,
# every 15 degrees from 165 to -60), a short curve into the stem, and the stem. The points are
# written out rather than computed with sin and cos, so that every machine draws the same.
QUESTION_STROKE = 5.4
QUESTION_PATH = [
    (26.01, 23.90),
    (26.63, 22.40),
    (27.62, 21.12),
    (28.90, 20.13),
    (30.40, 19.51),
    (32.00, 19.30),
    (33.60, 19.51),
    (35.10, 20.13),
    (36.38, 21.12),
    (37.37, 22.40),
    (37.99, 23.90),
    (38.20, 25.50),
    (37.99, 27.10),
    (37.37, 28.60),
    (36.38, 29.88),
    (35.10, 30.87),
    (33.74, 31.58),
    (32.77, 32.37),
    (32.19, 33.24),
    (32.00, 34.20),
    (32.00, 35.60),
]
QUESTION_DOT = (32.0, 43.6, 3.3)

# name: (size in pixels, maskable)
ICONS: dict[str, tuple[int, bool]] = {
    "icon-192.png": (192, False),
    "icon-512.png": (512, False),
    "maskable-512.png": (512, True),
}


def _rounded_box(x: float, y: float, cx: float, cy: float, hx: float, hy: float, r: float) -> float:
    """Signed distance from (x, y) to a rectangle centred on (cx, cy) with half-sizes (hx, hy)
    and corners of radius r: negative inside."""
    qx = abs(x - cx) - (hx - r)
    qy = abs(y - cy) - (hy - r)
    outside = sqrt(max(qx, 0.0) ** 2 + max(qy, 0.0) ** 2)
    return outside + min(max(qx, qy), 0.0) - r


def _segment(x: float, y: float, ax: float, ay: float, bx: float, by: float) -> float:
    """Distance from (x, y) to the segment from (ax, ay) to (bx, by)."""
    px, py, dx, dy = x - ax, y - ay, bx - ax, by - ay
    t = min(max((px * dx + py * dy) / (dx * dx + dy * dy), 0.0), 1.0)
    ex, ey = px - t * dx, py - t * dy
    return sqrt(ex * ex + ey * ey)


def _question(x: float, y: float) -> float:
    """Signed distance to the question mark."""
    if not (20.0 <= x <= 44.0 and 14.0 <= y <= 50.0):  # far from it: skip the strokes
        return 8.0
    stroke = min(_segment(x, y, *a, *b) for a, b in pairwise(QUESTION_PATH))
    dx, dy, r = QUESTION_DOT
    dot = sqrt((x - dx) ** 2 + (y - dy) ** 2) - r
    return min(stroke - QUESTION_STROKE / 2, dot)


# The artwork above the background, bottom first: (colour, signed distance on the 64-unit grid).
# The card's 3-unit border (icon.svg's stroke) is a box 1.5 units larger behind a box 1.5 smaller.
ARTWORK: list[tuple[tuple[int, int, int], Callable[[float, float], float]]] = [
    (CARD_EDGE, lambda x, y: _rounded_box(x, y, 32.0, 32.0, 19.5, 21.5, 8.5)),
    (CARD, lambda x, y: _rounded_box(x, y, 32.0, 32.0, 16.5, 18.5, 5.5)),
    (INK, _question),
]


def _coverage(distance: float, pixel: float) -> float:
    """How much of a pixel (``pixel`` grid units wide) a shape covers, from the signed distance
    at the pixel's centre."""
    return min(max(0.5 - distance / pixel, 0.0), 1.0)


def render(size: int, maskable: bool = False) -> tuple[int, bytes]:
    """The icon's pixels: (channels, rows of RGBA or RGB bytes, top to bottom).

    A plain icon is the rounded square on transparency (RGBA). A maskable one fills the whole
    square (the phone cuts its own shape out of it) and keeps the card inside the safe zone (RGB).
    """
    pixel = GRID / size
    scale = MASKABLE_SCALE if maskable else 1.0
    channels = 3 if maskable else 4
    out = bytearray()
    for row in range(size):
        y = (row + 0.5) * pixel
        art_y = CENTRE + (y - CENTRE) / scale
        for col in range(size):
            x = (col + 0.5) * pixel
            alpha = (
                1.0
                if maskable
                else _coverage(_rounded_box(x, y, 32.0, 32.0, 32.0, 32.0, 14.0), pixel)
            )
            r, g, b = (float(c) for c in BACKGROUND)
            art_x = CENTRE + (x - CENTRE) / scale
            if alpha > 0.0 and 10.0 <= art_x <= 54.0 and 8.0 <= art_y <= 56.0:  # near the card
                for colour, shape in ARTWORK:
                    cover = _coverage(shape(art_x, art_y) * scale, pixel)
                    if cover > 0.0:
                        r += (colour[0] - r) * cover
                        g += (colour[1] - g) * cover
                        b += (colour[2] - b) * cover
            out += bytes((int(r + 0.5), int(g + 0.5), int(b + 0.5)))
            if not maskable:
                out.append(int(alpha * 255 + 0.5))
    return channels, bytes(out)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data))
        + kind
        + data
        + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )


def png(size: int, channels: int, pixels: bytes) -> bytes:
    """A PNG file of a square image: 8 bits a channel, RGB (3) or RGBA (4), no filtering."""
    stride = size * channels
    raw = b"".join(b"\x00" + pixels[i * stride : (i + 1) * stride] for i in range(size))
    colour_type = {3: 2, 4: 6}[channels]
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, colour_type, 0, 0, 0))
        + _chunk(b"IDAT", zlib.compress(raw, 9))
        + _chunk(b"IEND", b"")
    )


def write(out: Path) -> list[Path]:
    """Draw every icon into ``out``; the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (size, maskable) in ICONS.items():
        channels, pixels = render(size, maskable)
        path = out / name
        path.write_bytes(png(size, channels, pixels))
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion.web.icons", description="Draw the home-screen icons as PNG files."
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("web/static/icons"),
        help="the folder to write them to (default: web/static/icons)",
    )
    args = parser.parse_args(argv)
    for path in write(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
