"""The wiring diagram ``hardware/wiring.svg``, drawn from a pin map (:func:`render_svg`): the
header with every wire from its pins to the devices' boxes (placed by
:mod:`companion.pinmap_layout`), the LED strips, the Pi and the dice reader below, and a legend.
The same map always gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from .pinmap_layout import (
    BOX_W,
    BOX_X,
    PITCH,
    TOP,
    WIDTH,
    X_PIN,
    lay_out,
    mirror_x,
    pin_y,
    side_of_pin,
)
from .pinmap_model import FIXED, HEADER, RAILS, SPECIAL, PinMap, Use, rail_name

#: The command that redraws the diagram (said by the test that finds it out of date).
SVG_COMMAND = "python -m companion.pinmap --svg hardware/wiring.svg"

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
GREY = "#9A9A9A"
COLOURS = {
    "5V": "#D55E00",
    "3V3": "#E69F00",
    "GND": "#222222",
    "buttons": "#0072B2",
    "leds": "#009E73",
    "nfc": "#CC79A7",
    "stepper": "#8C6D1F",
    "usb": "#777777",
}
TITLES = {
    "buttons": "Seat buttons",
    "leds": "LED level shifter: 74AHCT125",
    "nfc": "PN532 NFC reader",
    "stepper": "Tower stepper (ULN2003)",
}
SHORT = {"buttons": "buttons", "leds": "level shifter", "nfc": "PN532", "stepper": "ULN2003"}


def _colour(u: Use) -> str:
    return COLOURS[u.use] if u.use in RAILS else COLOURS[u.owner or "usb"]


def _tint(colour: str) -> str:
    """A very light version of ``colour``, for a box's background."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#{:02X}{:02X}{:02X}".format(*(255 - (255 - c) // 10 for c in (r, g, b)))


def _port_name(u: Use) -> str:
    if u.use == "button":
        return f"seat {u.seat}"
    if u.use == "stepper":
        return str(u.input)
    names = {
        "led data": "1A: data in",
        "nfc txd": "RXD (from Pi TXD)",
        "nfc rxd": "TXD (to Pi RXD)",
        "nfc sda": "SDA",
        "nfc scl": "SCL",
    }
    if u.use in names:
        return names[u.use]
    if u.owner == "buttons":
        return "GND: every button"
    if u.owner == "stepper":
        return "+ (5 V)" if u.use == "5V" else "− (GND)"
    return {"5V": "VCC 5 V", "3V3": "VCC 3.3 V", "GND": "GND"}[u.use]


def _wire_label(u: Use) -> str:
    if u.use in RAILS:
        return f"{rail_name(u.use)} · {SHORT[u.owner or '']}"
    if u.use in FIXED:
        return f"NFC {SPECIAL[FIXED[u.use]]} · BCM {u.bcm}"
    if u.use == "led data":
        return f"LED data · BCM {u.bcm} ({SPECIAL[u.bcm or 0]})"
    return f"{u.label} · BCM {u.bcm}"


class _Svg:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text)

    def text(
        self,
        x: int,
        y: int,
        s: str,
        *,
        size: int = 12,
        anchor: str = "start",
        bold: bool = False,
        fill: str = "#222222",
    ) -> None:
        weight = ' font-weight="bold"' if bold else ""
        self.add(
            f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}"{weight} '
            f'fill="{fill}">{escape(s)}</text>'
        )

    def line(
        self,
        points: Sequence[tuple[int, int]],
        colour: str,
        width: int = 3,
        dash: str | None = None,
        halo: bool = False,
    ) -> None:
        path = " ".join(f"{x},{y}" for x, y in points)
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        if halo:  # a white edge, so that a crossing reads clearly
            self.add(
                f'<polyline points="{path}" fill="none" stroke="#ffffff" '
                f'stroke-width="{width + 4}" stroke-linejoin="round"/>'
            )
        self.add(
            f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="{width}" '
            f'stroke-linejoin="round" stroke-linecap="round"{extra}/>'
        )

    def rect(
        self,
        x: int,
        y: int,
        w: int,
        h: int,
        *,
        stroke: str,
        fill: str = "#ffffff",
        rx: int = 8,
        dash: str | None = None,
        width: int = 2,
    ) -> None:
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(
            f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{rx}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{width}"{extra}/>'
        )

    def card(
        self,
        x: int,
        y: int,
        title: str,
        lines: Sequence[str],
        colour: str,
        height: int | None = None,
        dash: str | None = None,
    ) -> int:
        """A box with a title and lines of text; returns its height."""
        height = height or 40 + 17 * len(lines)
        self.rect(x, y, BOX_W, height, stroke=colour, fill=_tint(colour), dash=dash)
        self.text(x + 12, y + 22, title, size=14, bold=True, fill=colour)
        for i, line in enumerate(lines):
            self.text(x + 12, y + 42 + 17 * i, line, size=11, fill="#333333")
        return height


def render_svg(pinmap: PinMap) -> str:
    """The wiring diagram of ``pinmap`` as an SVG document; the same map gives the same bytes."""
    boxes, wires = lay_out(pinmap)
    by_device = {b.device: b for b in boxes}
    leds = by_device["leds"] if pinmap.led_bus else None
    band = (
        max([b.bottom for b in boxes] + [w.track for w in wires if w.crosses] + [pin_y(40) + 30])
        + 40
    )
    strips = [
        f"  {i}. "
        + {
            "table": "table strip: 7 pixels per seat",
            "score": "score strip: 8 pixels",
            "tower": "tower ring: devices.tower_pixels",
        }[s]
        for i, s in enumerate(pinmap.led_chain, start=1)
    ]
    strip_lines = [
        "DIN ← 330 Ω ← 1Y (pin 3) of the 74AHCT125",
        *strips,
        "5 V and GND from the LED supply (5 V, 6 A),",
        "1000 µF across it at the first strip;",
        "its GND joined to the Pi's GND",
    ]
    band_h = 40 + 17 * len(strip_lines)
    legend_y = band + band_h + 44
    height = legend_y + 130

    svg = _Svg()
    svg.add(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT}">'
    )
    svg.add(f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#ffffff"/>')
    svg.text(
        WIDTH // 2,
        38,
        "The table's wiring to the Raspberry Pi",
        size=22,
        anchor="middle",
        bold=True,
    )
    svg.text(
        WIDTH // 2,
        62,
        f"Drawn from hardware/pinmap.toml by {SVG_COMMAND}: change the file, not this drawing.",
        size=12,
        anchor="middle",
        fill="#555555",
    )
    svg.text(
        WIDTH // 2,
        80,
        "The 40-pin header seen from above with the Pi's USB ports facing "
        "down: pin 1 (square) at the top left, odd pins on the left.",
        size=12,
        anchor="middle",
        fill="#555555",
    )

    # The header's body, the wires from its pins, then the pins, each numbered (a pin not in use
    # shows its name).
    used = {u.header: u for u in pinmap.uses}
    svg.rect(X_PIN[1] - 22, TOP - 22, 74, PITCH * 19 + 44, stroke="#444444", fill="#2F2F2F", rx=4)

    # The wires, in the order of their pins.
    for w in sorted(wires, key=lambda w: w.use.header):
        u, side = w.use, w.side
        y0 = pin_y(u.header)
        box = by_device[u.owner or ""]
        points = [(X_PIN[u.header % 2], y0)]
        if not w.crosses and w.port_y == y0:
            points.append((box.edge(inner=True), y0))
        elif not w.crosses:
            points += [(w.slot, y0), (w.slot, w.port_y), (box.edge(inner=True), w.port_y)]
        else:
            points += [
                (w.slot, y0),
                (w.slot, w.track),
                (w.outer, w.track),
                (w.outer, w.port_y),
                (box.edge(inner=False), w.port_y),
            ]
        svg.line(points, _colour(u), halo=True)
        svg.text(
            mirror_x(side, 654),
            y0 - 6,
            _wire_label(u),
            size=11,
            anchor="end" if side < 0 else "start",
            bold=True,
            fill=_colour(u),
        )

    for pin in range(1, 41):
        x, y, side = X_PIN[pin % 2], pin_y(pin), side_of_pin(pin)
        u = used.get(pin)
        fill = _colour(u) if u else GREY
        if pin == 1:
            svg.add(
                f'<rect x="{x - 10}" y="{y - 10}" width="20" height="20" rx="2" '
                f'fill="{fill}" stroke="#ffffff" stroke-width="1"/>'
            )
        else:
            svg.add(
                f'<circle cx="{x}" cy="{y}" r="10" fill="{fill}" stroke="#ffffff" '
                f'stroke-width="1"/>'
            )
        ink = "#000000" if fill in (COLOURS["3V3"], GREY) else "#ffffff"
        svg.text(x, y + 4, str(pin), size=10, anchor="middle", bold=True, fill=ink)
        if u is None:
            name = HEADER[pin]
            label = (
                rail_name(name)
                if isinstance(name, str)
                else f"BCM {name}" + (f" {SPECIAL[name]}" if name in SPECIAL else "")
            )
            svg.text(
                mirror_x(side, 654),
                y + 4,
                label,
                size=11,
                anchor="end" if side < 0 else "start",
                fill="#8A8A8A",
            )

    # The device boxes.
    for box in boxes:
        colour = COLOURS[box.device]
        svg.rect(
            box.left,
            box.top,
            BOX_W,
            box.height,
            stroke=colour,
            fill=_tint(colour),
            dash=None if box.wires else "8 6",
        )
        svg.text(box.left + 12, box.top + 22, TITLES[box.device], size=14, bold=True, fill=colour)
        for w in box.wires:
            edge = box.edge(inner=not w.crosses)
            on_right = edge > box.left + BOX_W // 2
            svg.add(f'<circle cx="{edge}" cy="{w.port_y}" r="4" fill="{_colour(w.use)}"/>')
            svg.text(
                edge - 10 if on_right else edge + 10,
                w.port_y + 4,
                _port_name(w.use),
                size=12,
                anchor="end" if on_right else "start",
            )
        y = box.top + 44 + PITCH * box.rows
        for line in box.notes:
            svg.text(box.left + 12, y, line, size=11, fill="#333333")
            y += 16

    # Below: the LED strips (fed by the level shifter), the Pi, the dice reader on USB.
    pi_x, pi_w = WIDTH // 2 - 140, 280
    svg.rect(pi_x, band, pi_w, 112, stroke="#555555", fill="#F2F2F2")
    svg.text(WIDTH // 2, band + 24, "Raspberry Pi 4 / Pi 5", size=14, anchor="middle", bold=True)
    for i, line in enumerate(
        [
            "USB-C: its own supply (Pi 5: 27 W,",
            "Pi 4: 15.3 W); the header's 5 V",
            "pins are fed from it",
            "USB-A: the dice reader",
        ]
    ):
        svg.text(WIDTH // 2, band + 46 + 17 * i, line, size=11, anchor="middle")
    svg.line([(WIDTH // 2, TOP + PITCH * 19 + 22), (WIDTH // 2, band)], "#555555", 2, dash="3 5")
    strip_side = leds.side if leds else -1  # the strips below their level shifter
    dice_x = WIDTH - BOX_X - BOX_W if strip_side < 0 else BOX_X  # the dice reader opposite
    if leds:
        svg.card(
            WIDTH - BOX_X - BOX_W if strip_side > 0 else BOX_X,
            band,
            "LED strips: one data chain",
            strip_lines,
            COLOURS["leds"],
        )
        # 1Y of the level shifter -> 330 ohm -> the first strip's DIN, outside the other boxes.
        out_y, edge, lane = leds.out_y(), leds.edge(inner=False), mirror_x(strip_side, 24)
        svg.add(f'<circle cx="{edge}" cy="{out_y}" r="4" fill="{COLOURS["leds"]}"/>')
        svg.text(
            edge + 10 if strip_side < 0 else edge - 10,
            out_y + 4,
            "1Y: to the strips",
            size=12,
            anchor="start" if strip_side < 0 else "end",
        )
        svg.line(
            [
                (edge, out_y),
                (lane, out_y),
                (lane, band + 38),
                (mirror_x(strip_side, BOX_X), band + 38),
            ],
            COLOURS["leds"],
            halo=True,
        )
    svg.card(
        dice_x,
        band,
        "Dice reader: Raspberry Pi Pico",
        [
            "on USB: no header pins",
            'devices.dice_port = "/dev/serial/by-id/…"',
            "parts, wiring, firmware: firmware/README.md",
        ],
        COLOURS["usb"],
    )
    pi_end, dice_end = (pi_x + pi_w, dice_x) if dice_x > pi_x else (pi_x, dice_x + BOX_W)
    svg.line([(pi_end, band + 96), (dice_end, band + 96)], COLOURS["usb"], 6)
    svg.text(
        (pi_end + dice_end) // 2, band + 88, "USB cable", size=11, anchor="middle", fill="#555555"
    )

    # The legend.
    svg.text(BOX_X, legend_y, "Legend", size=14, bold=True)
    entries = [
        ("5V", "5 V"),
        ("3V3", "3.3 V"),
        ("GND", "ground (GND)"),
        ("buttons", "seat buttons"),
        ("leds", "LED data"),
        ("nfc", "NFC reader (PN532)"),
        ("stepper", "tower stepper"),
        ("usb", "USB"),
    ]
    for i, (key, text) in enumerate(entries):
        x, y = BOX_X + (i % 4) * 320, legend_y + 28 + (i // 4) * 26
        svg.line([(x, y - 4), (x + 40, y - 4)], COLOURS[key], 4)
        svg.text(x + 52, y, text, size=12)
    y = legend_y + 88
    svg.add(f'<circle cx="{BOX_X + 20}" cy="{y - 4}" r="9" fill="{GREY}"/>')
    svg.text(BOX_X + 52, y, "a pin not in use, its name beside it", size=12)
    svg.add(f'<rect x="{BOX_X + 331}" y="{y - 13}" width="18" height="18" rx="2" fill="{GREY}"/>')
    svg.text(BOX_X + 372, y, "pin 1", size=12)
    svg.line([(BOX_X + 640, y - 4), (BOX_X + 680, y - 4)], COLOURS["stepper"], 2, dash="8 6")
    svg.text(BOX_X + 692, y, "a dashed box: a device not fitted", size=12)
    svg.text(
        BOX_X,
        y + 28,
        "BCM n is the GPIO number the software uses; the number on a pin is "
        "its place on the header. A box's ports are named as on that board.",
        size=12,
        fill="#555555",
    )
    svg.add("</svg>")
    return "\n".join(svg.parts) + "\n"
