"""One die's physics for the synthetic dice traces (:mod:`.dice_world` makes scenes of it).

A seeded model of the samples an LIS3DH inside a die reports (range +-8 g, 100 Hz,
high-resolution mode: 4 mg per digit). A sample is ``(t_ms, x_mg, y_mg, z_mg)``, all ints,
every 10 ms.

The model, in the sensor's frame. At rest the sensor reads 1 g along the up direction ``up``
(the sensor axis of the face that shows, tilted a little by uneven felt). A hand adds lift
and set-down accelerations of a few hundred mg, tremor (8-12 Hz, tens of mg) and a slow
drift, and turns ``up`` smoothly. A thrown die falls freely (it reads only the centripetal
acceleration of its spin, under 200 mg), hits the table (several g for one or two samples,
clipped at 8 g), bounces, rolls over its edges from face to face (``up`` turns 90 degrees
each time), slides with friction (a few hundred mg sideways) and stops abruptly. A bumped
table rings for one to three samples. Every reading then gets the die's own offset (+-40 mg
per axis) and gain error (+-3 %), Gaussian noise (3 mg), rounding to the digit (4 mg) and
clipping to +-8000 mg.

``DieWorld`` is one die; each act returns its samples, continues the die's clock, starts
with a short pause and ends with enough rest (``TAIL_MS``) for a tracker to report it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

Vec = tuple[float, float, float]
Sample = tuple[int, int, int, int]
WorldSample = tuple[int, int, int, int, int]

G_MG = 1000.0
FULL_SCALE_MG = 8000
SAMPLE_MS = 10
TAIL_MS = 600  # rest after each act: the 300 ms settle window, plus margin
LEAD_MS = (50, 250)  # the pause before each act, drawn in this range

SLOT_NAMES = ("+x", "-x", "+y", "-y", "+z", "-z")
AXES: tuple[Vec, ...] = (
    (1.0, 0.0, 0.0),
    (-1.0, 0.0, 0.0),
    (0.0, 1.0, 0.0),
    (0.0, -1.0, 0.0),
    (0.0, 0.0, 1.0),
    (0.0, 0.0, -1.0),
)
OPPOSITE = (1, 0, 3, 2, 5, 4)
# the two axes across each slot's axis, in right-handed order (used for tilt azimuths)
_ACROSS = {0: (2, 4), 1: (2, 4), 2: (4, 0), 3: (4, 0), 4: (0, 2), 5: (0, 2)}


def neighbours(slot: int) -> tuple[int, ...]:
    """The four slots one edge away from ``slot``: all but itself and its opposite."""
    return tuple(s for s in range(6) if s != slot and s != OPPOSITE[slot])


# --- small vector helpers (tuples of floats) ---


def _add(*vs: Vec) -> Vec:
    x = y = z = 0.0
    for v in vs:
        x += v[0]
        y += v[1]
        z += v[2]
    return (x, y, z)


def _scale(v: Vec, k: float) -> Vec:
    return (v[0] * k, v[1] * k, v[2] * k)


def _dot(a: Vec, b: Vec) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _norm(v: Vec) -> float:
    return math.sqrt(_dot(v, v))


def _unit(v: Vec) -> Vec:
    n = _norm(v)
    return _scale(v, 1.0 / n) if n > 0 else (0.0, 0.0, 1.0)


def _slerp(a: Vec, b: Vec, s: float) -> Vec:
    """The unit vector a fraction ``s`` of the way from unit ``a`` to unit ``b`` (not opposite)."""
    cos = max(-1.0, min(1.0, _dot(a, b)))
    angle = math.acos(cos)
    if angle < 1e-6:
        return a
    sin = math.sin(angle)
    return _unit(
        _add(_scale(a, math.sin((1 - s) * angle) / sin), _scale(b, math.sin(s * angle) / sin))
    )


def _tilted(u: Vec, toward: Vec, degrees: float) -> Vec:
    """Unit ``u`` turned by ``degrees`` toward ``toward`` (its part perpendicular to u)."""
    d = _unit(_add(toward, _scale(u, -_dot(toward, u))))
    r = math.radians(degrees)
    return _unit(_add(_scale(u, math.cos(r)), _scale(d, math.sin(r))))


def _random_unit(rng: random.Random) -> Vec:
    return _unit((rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 1)))


def _random_perp(rng: random.Random, u: Vec) -> Vec:
    """A random unit vector perpendicular to unit ``u``."""
    while True:
        v = _random_unit(rng)
        w = _add(v, _scale(u, -_dot(v, u)))
        if _norm(w) > 0.1:
            return _unit(w)


def _smoothstep(s: float) -> float:
    s = max(0.0, min(1.0, s))
    return s * s * (3 - 2 * s)


def slot_vector(
    slot: int, tilt_deg: float = 0.0, azimuth_deg: float = 0.0, g_mg: float = G_MG
) -> Vec:
    """The reading (mg, floats) of a die resting in ``slot``, tilted by ``tilt_deg``.

    Untilted it is ``g_mg`` along the slot's axis (slot 4, "+z": ``(0, 0, 1000)``). The tilt
    turns it by ``tilt_deg`` toward the direction ``azimuth_deg`` around the axis, measured
    from +y for the x slots, from +z for the y slots and from +x for the z slots, toward the
    remaining axis (+z, +x, +y respectively) at 90 degrees.
    """
    if not 0 <= slot < 6:
        raise ValueError(f"slot must be 0..5, not {slot}")
    a = AXES[slot]
    p, q = (AXES[i] for i in _ACROSS[slot])
    t = math.radians(tilt_deg)
    az = math.radians(azimuth_deg)
    across = _add(_scale(p, math.cos(az)), _scale(q, math.sin(az)))
    return _scale(_add(_scale(a, math.cos(t)), _scale(across, math.sin(t))), g_mg)


class DieWorld:
    """The physical state of one die and the samples of what happens to it.

    ``slot`` is the slot whose axis is nearest to up (the face showing, or leaned on), ``up``
    the unit up vector in the sensor frame, ``t_ms`` the die's clock (the time of its next
    sample) and ``last_stop_ms`` the time of the last sample in which the die moved, in the
    latest act that moved it (after it, only rest and noise; a bump does not move it). Each
    act's samples start at ``t_ms``.

    ``noise_mg`` (Gaussian, per axis) and ``lsb_mg`` (the size of a digit) can be raised to
    model a noisier sensor or a lower resolution mode.
    """

    def __init__(
        self,
        rng: random.Random,
        slot: int = 4,
        t_ms: int = 0,
        *,
        noise_mg: float = 3.0,
        lsb_mg: int = 4,
    ) -> None:
        if not 0 <= slot < 6:
            raise ValueError(f"slot must be 0..5, not {slot}")
        self.rng = rng
        self.t_ms = t_ms
        self.noise_mg = noise_mg
        self.lsb_mg = lsb_mg
        self.offset: Vec = (rng.uniform(-40, 40), rng.uniform(-40, 40), rng.uniform(-40, 40))
        self.gain: Vec = (rng.uniform(0.97, 1.03), rng.uniform(0.97, 1.03), rng.uniform(0.97, 1.03))
        self.slot = slot
        self.up: Vec = self._flat(slot)
        self.last_stop_ms = t_ms

    # --- readings ---

    def _flat(self, slot: int) -> Vec:
        """Lying on ``slot``, tilted by 0-3 degrees (felt, mounting)."""
        return _unit(slot_vector(slot, self.rng.uniform(0, 3), self.rng.uniform(0, 360)))

    def _read(self, force: Vec) -> Sample:
        """One sample of the specific force ``force`` (mg, sensor frame); advances the clock."""
        gain, offset, lsb, noise, gauss = (
            self.gain,
            self.offset,
            self.lsb_mg,
            self.noise_mg,
            self.rng.gauss,
        )
        full = FULL_SCALE_MG
        x = round((force[0] * gain[0] + offset[0] + gauss(0, noise)) / lsb) * lsb
        y = round((force[1] * gain[1] + offset[1] + gauss(0, noise)) / lsb) * lsb
        z = round((force[2] * gain[2] + offset[2] + gauss(0, noise)) / lsb) * lsb
        t = self.t_ms
        self.t_ms = t + SAMPLE_MS
        return (
            t,
            -full if x < -full else full if x > full else x,
            -full if y < -full else full if y > full else y,
            -full if z < -full else full if z > full else z,
        )

    def _still(self, ms: float) -> list[Sample]:
        force = _scale(self.up, G_MG)
        return [self._read(force) for _ in range(int(ms) // SAMPLE_MS)]

    def _lead(self, lead_ms: int | None) -> list[Sample]:
        if lead_ms is None:
            lead_ms = self.rng.randrange(LEAD_MS[0], LEAD_MS[1] + 1, SAMPLE_MS)
        return self._still(lead_ms)

    # --- the acts ---

    def rest(self, ms: int) -> list[Sample]:
        """``ms`` of the die lying still."""
        return self._still(ms)

    def throw(self, slot: int, *, lead_ms: int | None = None) -> list[Sample]:
        """A real roll that ends flat on ``slot``.

        The hand scoops the die up (and may shake it), throws it; it falls freely, hits the
        table, bounces one to three times, rolls over two to five edges (through at least two
        other faces) onto ``slot``, slides and stops.
        """
        if not 0 <= slot < 6:
            raise ValueError(f"slot must be 0..5, not {slot}")
        out = self._lead(lead_ms)
        out += self._scoop_and_throw()
        path = self._roll_path(slot)
        out += self._bounces(path[0])
        out += self._roll(path)
        out += self._slide_and_stop()
        self.slot = slot
        out += self._still(TAIL_MS)
        return out

    def throw_crooked(self, *, lead_ms: int | None = None) -> list[Sample]:
        """A real roll that ends leaning 30-40 degrees against something (a box wall, a die)."""
        slot = self.rng.randrange(6)
        out = self._lead(lead_ms)
        out += self._scoop_and_throw()
        path = self._roll_path(slot)
        out += self._bounces(path[0])
        out += self._roll(path)
        out += self._slide_into_lean(self.rng.uniform(30, 40))
        self.slot = slot
        out += self._still(TAIL_MS)
        return out

    def place(self, slot: int, *, lead_ms: int | None = None) -> list[Sample]:
        """Picked up, turned by hand to show ``slot``, set down gently.

        To a neighbouring face the hand turns the die over one edge (one up-axis change); to
        the opposite face it flips it over about a level axis (one change, or two when it
        passes close to a side face); to the same face it tilts it and puts it back. Never a
        free fall or an impact: the hand holds the die all along.
        """
        if not 0 <= slot < 6:
            raise ValueError(f"slot must be 0..5, not {slot}")
        if slot == self.slot:
            return self.pick_up_and_set_down(lead_ms=lead_ms)
        rng = self.rng
        start = self.up
        end = self._flat(slot)
        if slot == OPPOSITE[self.slot]:
            middle = _random_perp(rng, start)  # flipped over about a random level axis

            def orient(s: float) -> Vec:
                s = _smoothstep(s)
                return _slerp(start, middle, 2 * s) if s < 0.5 else _slerp(middle, end, 2 * s - 1)

        else:

            def orient(s: float) -> Vec:
                return _slerp(start, end, _smoothstep(s))

        out = self._lead(lead_ms)
        out += self._by_hand(rng.randrange(600, 1300, SAMPLE_MS), orient)
        self.up = end
        self.slot = slot
        out += self._still(TAIL_MS)
        return out

    def pick_up_and_set_down(self, *, lead_ms: int | None = None) -> list[Sample]:
        """Lifted, held and tilted by 15-40 degrees in the hand, put back on the same face."""
        rng = self.rng
        start = self.up
        end = self._flat(self.slot)
        toward = _random_perp(rng, start)
        wobble = _random_perp(rng, start)
        tilt = rng.uniform(15, 40)

        def orient(s: float) -> Vec:
            held = _tilted(start, toward, tilt * math.sin(math.pi * s))
            held = _tilted(held, wobble, 10 * math.sin(4 * math.pi * s))
            return _slerp(held, end, _smoothstep((s - 0.8) / 0.2))

        out = self._lead(lead_ms)
        out += self._by_hand(rng.randrange(500, 1300, SAMPLE_MS), orient)
        self.up = end
        out += self._still(TAIL_MS)
        return out

    def bump(self, *, lead_ms: int | None = None, strength: float = 1.0) -> list[Sample]:
        """The table is jolted: one to three samples of ringing (0.3-2.5 g), the die stays put."""
        rng = self.rng
        out = self._lead(lead_ms)
        amplitude = rng.uniform(300, 2500) * strength
        rest = _scale(self.up, G_MG)
        for _ in range(rng.randint(1, 3)):
            direction = _unit(
                _add(self.up, _scale(_random_perp(rng, self.up), rng.uniform(0, 0.5)))
            )
            sign = rng.choice((-1, 1))
            out.append(self._read(_add(rest, _scale(direction, sign * amplitude))))
            amplitude *= rng.uniform(0.3, 0.6)
        out += self._still(TAIL_MS)
        return out

    # --- pieces of acts ---

    def _by_hand(self, ms: int, orient: Callable[[float], Vec]) -> list[Sample]:
        """The die in a hand for ``ms``: lifted, turned by ``orient(0..1)``, set down."""
        rng = self.rng
        n = ms // SAMPLE_MS
        lift = rng.uniform(150, 300)
        lift_n = rng.randint(15, 25)
        down = rng.uniform(150, 300)
        down_n = rng.randint(15, 25)
        tremor = _scale(_random_unit(rng), rng.uniform(20, 40))
        tremor_hz = rng.uniform(8, 12)
        phase = rng.uniform(0, 2 * math.pi)
        drift = _scale(_random_unit(rng), rng.uniform(80, 200))
        drift_hz = rng.uniform(1.5, 3)
        out = []
        for i in range(n):
            s = i / (n - 1)
            u = orient(s)
            t = i * SAMPLE_MS / 1000
            force = _scale(u, G_MG)
            if i < lift_n:  # up, then slowing down
                force = _add(force, _scale(u, lift * math.sin(2 * math.pi * i / lift_n)))
            if i >= n - down_n:  # down, then slowing down before the table
                j = i - (n - down_n)
                force = _add(force, _scale(u, -down * math.sin(2 * math.pi * j / down_n)))
            else:  # the hand's tremor and drift while it holds the die
                force = _add(
                    force,
                    _scale(tremor, math.sin(2 * math.pi * tremor_hz * t + phase)),
                    _scale(drift, math.sin(2 * math.pi * drift_hz * t)),
                )
            out.append(self._read(force))
        # the die touches the table
        self.up = orient(1.0)
        out.append(self._read(_scale(self.up, G_MG + rng.uniform(200, 600))))
        self.last_stop_ms = out[-1][0]
        return out

    def _scoop_and_throw(self) -> list[Sample]:
        """Picked up into the hand (maybe shaken), then thrown: ends at the release."""
        rng = self.rng
        start = self.up
        in_hand = _unit(slot_vector(rng.randrange(6), rng.uniform(0, 30), rng.uniform(0, 360)))
        if _dot(start, in_hand) < 0:  # more than a quarter turn: go via a side
            middle = _random_perp(rng, start)

            def orient(s: float) -> Vec:
                return (
                    _slerp(start, middle, 2 * s) if s < 0.5 else _slerp(middle, in_hand, 2 * s - 1)
                )

        else:

            def orient(s: float) -> Vec:
                return _slerp(start, in_hand, s)

        n = rng.randint(20, 35)
        lift = rng.uniform(200, 500)
        tremor = _scale(_random_unit(rng), rng.uniform(15, 35))
        out = []
        for i in range(n):
            s = i / (n - 1)
            u = orient(_smoothstep(s))
            force = _add(
                _scale(u, G_MG + lift * math.sin(2 * math.pi * s)),
                _scale(tremor, math.sin(2 * math.pi * 10 * i * SAMPLE_MS / 1000)),
            )
            out.append(self._read(force))
        u = in_hand
        if rng.random() < 0.4:  # shaken in a cupped hand: rattling and turning
            shake = _random_perp(rng, u)
            hz = rng.uniform(4, 6)
            amp = rng.uniform(1200, 2500)
            n = rng.randint(20, 50)
            for i in range(n):
                t = i * SAMPLE_MS / 1000
                if rng.random() < 0.15:
                    u = _unit(_add(u, _scale(_random_unit(rng), 0.8)))
                force = _add(_scale(u, G_MG), _scale(shake, amp * math.sin(2 * math.pi * hz * t)))
                if rng.random() < 0.1:
                    force = _add(force, _scale(_random_unit(rng), rng.uniform(1500, 4000)))
                out.append(self._read(force))
        # the throw: the hand swings the die forward and lets go
        push = _random_perp(rng, u)
        amp = rng.uniform(800, 2000)
        n = rng.randint(6, 10)
        for i in range(n):
            force = _add(
                _scale(u, G_MG * 0.8), _scale(push, amp * math.sin(math.pi * (i + 1) / (n + 1)))
            )
            out.append(self._read(force))
        self.up = u
        return out

    def _flight(self, ms: int) -> list[Sample]:
        """Free fall while spinning: only the centripetal acceleration (under 200 mg) shows."""
        rng = self.rng
        spin = _scale(_random_unit(rng), rng.uniform(30, 200))
        out = []
        for _ in range(ms // SAMPLE_MS):
            jitter = (rng.gauss(0, 15), rng.gauss(0, 15), rng.gauss(0, 15))
            out.append(self._read(_add(spin, jitter)))
        return out

    def _impact(self, normal: Vec) -> list[Sample]:
        """The die hits the table: 3.5-12 g (clipped per axis at 8 g) for one or two samples."""
        rng = self.rng
        direction = _unit(_add(normal, _scale(_random_unit(rng), 0.7)))
        out = [self._read(_scale(direction, rng.uniform(3500, 12000)))]
        if rng.random() < 0.5:
            out.append(self._read(_scale(_random_unit(rng), rng.uniform(800, 2500))))
        return out

    def _roll_path(self, slot: int) -> list[int]:
        """Faces from the first landing to ``slot``, one edge apart: two to five edges."""
        rng = self.rng
        path = [slot]
        for _ in range(rng.randint(2, 5)):
            choices = [s for s in neighbours(path[-1]) if len(path) < 2 or s != path[-2]]
            path.append(rng.choice(choices))
        path.reverse()
        return path

    def _bounces(self, landing: int) -> list[Sample]:
        """Free fall from the hand, bounces, and the landing on face ``landing``."""
        rng = self.rng
        out = self._flight(rng.randrange(100, 260, SAMPLE_MS))
        for _ in range(rng.randint(1, 3)):
            out += self._impact(_random_unit(rng))
            out += self._flight(rng.randrange(40, 130, SAMPLE_MS))
        self.up = self._flat(landing)
        out += self._impact(self.up)
        return out

    def _roll(self, path: Sequence[int]) -> list[Sample]:
        """Rolling over edges along ``path`` (the die lies on ``path[0]`` already)."""
        rng = self.rng
        out: list[Sample] = []
        for k, slot in enumerate(path):
            u = self._flat(slot)
            if k > 0:
                # over the edge: up turns 90 degrees, with some centripetal pull
                previous = self.up
                n = rng.randint(5, 9)
                pull = _scale(_random_unit(rng), rng.uniform(80, 250))
                for i in range(n):
                    v = _slerp(previous, u, (i + 1) / (n + 1))
                    out.append(self._read(_add(_scale(v, G_MG), pull)))
                # lands on the new face with a clack
                out.append(self._read(_scale(u, G_MG + rng.uniform(500, 2000))))
            self.up = u
            if k < len(path) - 1:  # skids a little on this face before tipping on
                friction = _scale(_random_perp(rng, u), rng.uniform(150, 400))
                for _ in range(rng.randint(3, 8)):
                    out.append(self._read(_add(_scale(u, G_MG), friction)))
        return out

    def _slide_and_stop(self) -> list[Sample]:
        """Slides on its final face, rocking a little, and stops at once."""
        rng = self.rng
        u = self.up
        friction = _scale(_random_perp(rng, u), rng.uniform(250, 500))
        rock = _random_perp(rng, u)
        rock_deg = rng.uniform(0, 8)
        rock_hz = rng.uniform(6, 10)
        out = []
        for i in range(rng.randint(6, 20)):
            t = i * SAMPLE_MS / 1000
            v = _tilted(
                u, rock, rock_deg * math.exp(-t / 0.05) * math.sin(2 * math.pi * rock_hz * t)
            )
            out.append(self._read(_add(_scale(v, G_MG), friction)))
        self.last_stop_ms = out[-1][0]
        return out

    def _slide_into_lean(self, lean_deg: float) -> list[Sample]:
        """Slides into a wall (or another die) and ends up leaning on it, ``lean_deg`` off flat."""
        rng = self.rng
        u = self.up
        wall = _random_perp(rng, u)  # the direction of the slide, toward the wall
        out = []
        for _ in range(rng.randint(4, 12)):
            out.append(self._read(_add(_scale(u, G_MG), _scale(wall, -rng.uniform(250, 450)))))
        out.append(self._read(_add(_scale(u, G_MG), _scale(wall, -rng.uniform(800, 2000)))))
        leaning = _tilted(u, _scale(wall, -1), lean_deg)
        n = rng.randint(6, 12)
        for i in range(n):
            v = _slerp(u, leaning, _smoothstep((i + 1) / n))
            out.append(self._read(_add(_scale(v, G_MG), _scale(_random_unit(rng), 60))))
        self.up = leaning
        out.append(self._read(_scale(leaning, G_MG + rng.uniform(400, 900))))
        self.last_stop_ms = out[-1][0]
        return out
