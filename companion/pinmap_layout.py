"""Where the wiring diagram's parts go (:mod:`companion.pinmap_svg` draws them).

The header stands in the middle, pin 1 at the top left. Each device is a box on the side where
most of its pins are, its ports level with their pins where it can be; a wire from a pin on the
other side runs over (or under) the header and into the box's outer edge. Everything is in whole
pixels and in a fixed order, so the same map always gives the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass

from .pinmap_model import DEVICES, PinMap, Use

WIDTH = 1400
PITCH = 30  #: between header rows, and between a box's ports
TOP = 190  #: y of header row 1
MIN_TOP = TOP - 20  #: no box above this (the wires over the header run higher)
X_PIN = {1: 685, 0: 715}  #: odd pins' column, even pins' column
BOX_X, BOX_W = 70, 300  #: a left box's x and width (mirrored on the right)
GAP = 20  #: between boxes
_SIDE = {"buttons": -1, "leds": -1, "stepper": -1, "nfc": 1}  #: usual sides: -1 is left


def _row(pin: int) -> int:
    return (pin + 1) // 2


def pin_y(pin: int) -> int:
    """The y of header pin ``pin`` (its row's)."""
    return TOP + (_row(pin) - 1) * PITCH


def side_of_pin(pin: int) -> int:
    """The side of the header ``pin`` is on: -1 (left) for the odd pins, 1 for the even ones."""
    return -1 if pin % 2 else 1


def mirror_x(side: int, x: int) -> int:
    """x on ``side`` for a left-side x (the drawing is symmetric about the header)."""
    return x if side < 0 else WIDTH - x


def _notes(device: str, pinmap: PinMap) -> list[str]:
    if device == "buttons":
        return ["momentary push buttons, pin to GND;", "a press reads low (internal pull-ups)"]
    if device == "leds":
        return [
            f'powered at 5 V; devices.leds = "{pinmap.led_bus}"',
            "its pins 1, 4, 5, 7, 9, 10, 12, 13 to GND",
        ]
    if device == "nfc":
        if pinmap.nfc_interface == "i2c":
            return ["interface switches: I2C (SEL0/I0 on)", 'devices.nfc_port = "/dev/i2c-1"']
        return ["interface switches: UART (HSU), both off", 'devices.nfc_port = "/dev/serial0"']
    if not pinmap.of("stepper"):
        return [
            "optional, not fitted: uncomment its",
            "lines in hardware/pinmap.toml, then",
            "redraw this diagram",
        ]
    return ["28BYJ-48 (5 V) on the ULN2003 board", "devices.tower_motor_pins: IN1 to IN4"]


@dataclass
class _Wire:
    """A wire from a header pin to its device's box, and where it runs."""

    use: Use
    side: int  #: the side of the header its pin is on
    dest: int  #: the side its device's box is on
    over: bool = True  #: a cross wire: over the header (else under it)
    track: int = 0  #: a cross wire: the y of its run across
    port_y: int = 0
    slot: int = 0  #: the x of its vertical beside the header
    outer: int = 0  #: a cross wire: the x of its vertical outside the boxes

    @property
    def crosses(self) -> bool:
        return self.side != self.dest


@dataclass
class _Box:
    """A device's box: its side, its wires (its ports, from the top), its notes, its top."""

    device: str
    side: int
    wires: list[_Wire]
    notes: list[str]
    top: int = 0
    extra: int = 0  #: rows for ports of no header wire (the level shifter's output)

    @property
    def rows(self) -> int:
        return len(self.wires) + self.extra

    @property
    def height(self) -> int:
        ports = 44 + PITCH * (self.rows - 1) + 14 if self.rows else 36
        return ports + 16 * len(self.notes) + 4

    def out_y(self) -> int:
        """The y of the level shifter's output port, on the edge facing away from the header:
        level with its last port on the other edge, else on a row of its own."""
        inner = [w.port_y for w in self.wires if not w.crosses]
        return inner[-1] if inner else self.top + 44 + PITCH * len(self.wires)

    @property
    def bottom(self) -> int:
        return self.top + self.height

    @property
    def left(self) -> int:
        return BOX_X if self.side < 0 else WIDTH - BOX_X - BOX_W

    def edge(self, inner: bool) -> int:
        """The x of the box's edge facing the header (``inner``) or facing away from it."""
        return mirror_x(self.side, BOX_X + BOX_W if inner else BOX_X)

    def desired_top(self) -> int | None:
        """The top that puts most of its ports level with their pins."""
        level = sorted(
            pin_y(w.use.header) - 44 - PITCH * i for i, w in enumerate(self.wires) if not w.crosses
        )
        return level[(len(level) - 1) // 2] if level else None


def lay_out(pinmap: PinMap) -> tuple[list[_Box], list[_Wire]]:
    """Every device's box (a device not fitted too) and every wire of ``pinmap``, placed."""
    boxes: list[_Box] = []
    for name in DEVICES:
        uses = pinmap.of(name)
        lean = sum(side_of_pin(u.header) for u in uses)
        side = (1 if lean > 0 else -1) if lean else _SIDE[name]
        wires = [_Wire(u, side_of_pin(u.header), side, over=_row(u.header) <= 10) for u in uses]
        # Ports from the top: wires arriving over the header, the box's own side's wires in the
        # order of their pins, then wires arriving from under the header.
        wires.sort(
            key=lambda w: (
                0 if w.crosses and w.over else 2 if w.crosses else 1,
                w.use.header if w.crosses else pin_y(w.use.header),
            )
        )
        boxes.append(
            _Box(
                name,
                side,
                wires,
                _notes(name, pinmap),
                extra=int(name == "leds" and bool(wires) and all(w.crosses for w in wires)),
            )
        )
    fitted = [b for b in boxes if b.wires]
    for b in boxes:
        if not b.wires:  # a device not fitted: on the side with more room
            load = {s: sum(x.height for x in fitted if x.side == s) for s in (-1, 1)}
            b.side = min((-1, 1), key=lambda s: (load[s], s != _SIDE[b.device]))
    for side in (-1, 1):
        mine = sorted(
            (b for b in fitted if b.side == side),
            key=lambda b: (
                b.desired_top()
                if b.desired_top() is not None
                else MIN_TOP
                if b.wires[0].over
                else 10_000,
                b.device,
            ),
        )
        tops = [max(MIN_TOP, b.desired_top() or MIN_TOP) for b in mine]
        for i in reversed(range(len(mine) - 1)):  # move boxes up rather than down...
            tops[i] = min(tops[i], tops[i + 1] - GAP - mine[i].height)
        for i, box in enumerate(mine):  # ... but never above the top, nor onto each other
            floor = MIN_TOP if i == 0 else mine[i - 1].bottom + GAP
            box.top = max(tops[i], floor)
            for k, w in enumerate(box.wires):
                w.port_y = box.top + 44 + PITCH * k
        below = max((b.bottom for b in mine), default=MIN_TOP - GAP) + GAP
        for box in (b for b in boxes if not b.wires and b.side == side):
            box.top, below = below, below + box.height + GAP
    wires = [w for b in boxes for w in b.wires]
    cross = sorted((w for w in wires if w.crosses), key=lambda w: (w.side, w.use.header))
    over = [w for w in cross if w.over]
    under = [w for w in cross if not w.over]
    for k, w in enumerate(over):
        w.track = TOP - 44 - 9 * k
    lowest = max([b.bottom for b in boxes] + [pin_y(40) + 30])
    for k, w in enumerate(under):
        w.track = lowest + 24 + 9 * k
    for side in (-1, 1):
        # Beside the header: wires going up nearest to it, the topmost first; wires going down
        # further out, the topmost furthest. So no two wires of one box cross.
        mine = [w for w in wires if w.side == side]
        end = {id(w): w.track if w.crosses else w.port_y for w in mine}
        up = sorted(
            (w for w in mine if end[id(w)] < pin_y(w.use.header)), key=lambda w: pin_y(w.use.header)
        )
        down = sorted(
            (w for w in mine if end[id(w)] > pin_y(w.use.header)),
            key=lambda w: -pin_y(w.use.header),
        )
        step = max(5, min(9, 80 // max(1, len(up) + len(down))))
        for k, w in enumerate(up + down):
            w.slot = mirror_x(side, 452 - step * k)
        # Outside the boxes: the cross wires arriving on this side.
        arriving = [w for w in cross if w.dest == side]
        ordered = sorted((w for w in arriving if w.over), key=lambda w: w.port_y) + sorted(
            (w for w in arriving if not w.over), key=lambda w: -w.port_y
        )
        for k, w in enumerate(ordered):
            w.outer = mirror_x(side, 56 - 8 * k)
    return boxes, wires
