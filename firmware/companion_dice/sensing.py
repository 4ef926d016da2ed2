"""One die's motion and settle logic: from accelerometer samples to "rolled", "placed" and so on.

The die holds an LIS3DH accelerometer. At rest it reads 1 g (1000 mg) pointing UP, out of the
face that shows; in free fall it reads about 0; an impact reads several g; a die tumbling over
its edges turns the 1 g vector from one sensor axis to the next. ``DieTracker`` is fed the
samples of one die (``feed(t_ms, x, y, z)``, milli-g ints, about every 10 ms) and returns events:

``("rest", slot_or_None)``
    the first time the die comes to rest after creation or ``reset()``: a power-on state
    report, never a roll;
``("moving",)``
    the die started to move (a sustained change, not a jolt of the table);
``("rolling",)``
    at most once per motion: the motion now has a roll signature, i.e. the up-axis changed at
    least ``min_tumbles`` times AND there was a free-fall phase or an impact;
``("roll", slot)``
    the die came to rest after a motion with a roll signature, flat enough to read;
``("crooked",)``
    it came to rest after a roll signature but cannot be read: tilted more than
    ``crooked_deg`` (leaning against a wall or another die) or not reading 1 g;
``("placed", slot_or_None)``
    it came to rest after a motion WITHOUT a roll signature (picked up and set down, turned
    by hand): never a roll.

Slots are indices into ``profiles.SLOTS``: the sensor axis that points up.

How it works (each sample costs O(1) time and memory, in integer arithmetic; floats appear
only once per rest):

* Rest: a still window. Every sample must stay within ``still_mg``, on each axis, of the
  mean of the window's samples before it (so the first sample is the reference for the
  second), else the window starts again at that sample. When a window has lasted
  ``settle_ms`` the die is at rest and the event fires at once. The window keeps running
  sums, not samples: the test is |n*x - sum| <= n*``still_mg``, and the rest vector is the
  window's mean. Comparing with the mean rather than with the first sample alone (which
  the rule "within still_mg of the window's first sample" would do, for the same cost in
  practice) means that a window starting on the last small movement of a settling die is
  not thrown away later because noise lands on the far side of that one sample.
* Moving: the samples are smoothed (an exponential average with weight 1/2**``smooth_shift``,
  about 35 ms at 100 Hz, whose step is clipped to ``smooth_clip_mg`` >> ``smooth_shift``), and
  the die moves when the smoothed vector stays more than ``move_mg`` (on some axis) from the
  rest vector for ``move_ms``. A tilt, a lift or a throw keeps it away; a jolt of the table
  is a few samples of ringing that the clipped average flattens and that does not last.
  Motion features are collected from the first sample of such a deviation, and dropped if it
  does not last.
* Roll signature: free fall is |a|^2 < ``freefall_mg``^2 for ``freefall_ms``; an impact is
  |a|^2 > ``impact_mg``^2 on one sample; the up-axis is followed only on samples whose |a| is
  within ``orient_tol_mg`` of 1 g (in free fall and in impacts gravity cannot be seen) and
  whose dominant axis is clearly dominant (within 35.26 degrees of it: 3 m^2 >= 2 |a|^2, so
  that noise around a 45-degree tilt does not count), and a new up-axis counts as a tumble
  once it is seen on ``tumble_samples`` such samples in a row (an impact spike may look like a
  1 g vector on one sample).
* Readable rest: |a| within ``gravity_tol_mg`` of 1000 and the dominant component m close
  enough to the whole vector: m^2 >= |a|^2 cos^2(``crooked_deg``), i.e. the vector is within
  ``crooked_deg`` of the nearest axis (no sqrt, no angle).

Time is in milliseconds from any counter that does not wrap while the reader runs (the board
keeps one with ``time.ticks_diff``); it must not go backwards. Missed samples are harmless:
every window is measured in time, not in samples.

Plain Python for MicroPython and CPython alike (see the package docstring).
"""

import math

GRAVITY_MG = 1000
DEFAULT_CROOKED_DEG = 20

# the events without a slot, made once (feed allocates nothing for them)
MOVING_EVENT = ("moving",)
ROLLING_EVENT = ("rolling",)
CROOKED_EVENT = ("crooked",)


class Settings:
    """Thresholds of ``DieTracker``; pass any of them as keyword arguments to change them.

    The defaults were tuned on the synthetic traces of ``companion.devices.dice_world`` (which
    model a 4 mg/digit LIS3DH with a few mg of noise, per-die offset and gain errors, hand
    tremor, bounces, rolling and sliding) and leave margin on both sides of each decision.
    """

    __slots__ = (
        "sample_ms",
        "settle_ms",
        "still_mg",
        "move_mg",
        "move_ms",
        "smooth_shift",
        "smooth_clip_mg",
        "freefall_mg",
        "freefall_ms",
        "impact_mg",
        "orient_tol_mg",
        "tumble_samples",
        "min_tumbles",
        "crooked_deg",
        "gravity_tol_mg",
    )

    def __init__(self, **changes):
        # The sensor's output period (100 Hz). Informational: the tracker measures time from
        # t_ms, so a late or missed sample does not matter.
        self.sample_ms = 10
        # Stillness window: how long the samples must stay still before the die counts as at
        # rest. A rolled die has stopped rocking and sliding once it is still this long (its
        # last bounce is a larger change than still_mg), and 300 ms is quick enough that a
        # roll shows at once. The event fires 300-310 ms after the die's last movement.
        self.settle_ms = 300
        # Max per-axis deviation of a sample from the mean of the window so far. The sensor's
        # noise is a few mg (a 4 mg digit); 50 mg leaves room for 16 mg digits and ~10 mg of
        # noise, while a die in a hand (tremor, drift, turning) breaks it within 300 ms.
        self.still_mg = 50
        # Smoothed deviation from the rest vector (on some axis) that means "moved": 150 mg is
        # a tilt of about 9 degrees or a clear lift, far above noise and offset drift.
        self.move_mg = 150
        # How long that deviation must last. A bumped table rings for 10-40 ms; even a jolt of
        # 3.7 g keeps the smoothed signal past move_mg for under 30 ms (in the synthetic
        # traces), so 100 ms leaves room for a table that rings longer. Lifting or tipping a
        # die keeps it there for hundreds of ms.
        self.move_ms = 100
        # Motion detection looks at a smoothed signal: each sample moves it by 1/2**smooth_shift
        # of the difference (2: a 1/4 exponential average, time constant about 35 ms at 100 Hz),
        # the difference first clipped to +-smooth_clip_mg. The clip makes one huge sample (a
        # knock on the table reads several g) count no more than a moderate one: the smoothed
        # signal climbs at most 75 mg per sample, so a jolt of a few samples cannot hold it
        # past move_mg for move_ms, while a tilt or a lift does.
        self.smooth_shift = 2
        self.smooth_clip_mg = 300
        # Free fall: |a| below this, for freefall_ms. A spinning die reads some centripetal
        # acceleration (up to ~200 mg when the sensor is off-centre), so 400 mg; a hand
        # lifting or lowering a die stays above ~500 mg. 40 ms is 5 samples; a throw falls for
        # 100-250 ms and a bounce flies for 50-150 ms.
        self.freefall_mg = 400
        self.freefall_ms = 40
        # Impact: |a| above this on any sample. A die hitting a table reads 3-8 g (and clips at
        # 8 g per axis); setting it down by hand, even firmly, stays below about 2 g.
        self.impact_mg = 3000
        # The up-axis is followed only on samples with |a| within this of 1 g: outside that
        # band the vector is free fall or an impact and does not show which way is up.
        self.orient_tol_mg = 400
        # A new up-axis counts as a tumble after this many usable samples in a row.
        self.tumble_samples = 2
        # Up-axis changes a motion needs to look like a roll. A thrown die turns over several
        # times; a hand turning a die to a neighbouring face changes it once.
        self.min_tumbles = 2
        # Max angle between the rest vector and the nearest axis for a readable face. Uneven
        # felt and mounting tolerance tilt a flat die by under ~10 degrees; a die leaning
        # against a box wall or another die is tilted 25-45 degrees.
        self.crooked_deg = DEFAULT_CROOKED_DEG
        # At rest |a| must be 1000 mg +- this: the LIS3DH's offset (+-40 mg typical per axis)
        # and gain errors stay well inside; a stuck or disconnected sensor does not.
        self.gravity_tol_mg = 200
        for name in changes:
            if name not in Settings.__slots__:
                raise ValueError("unknown dice setting %r" % (name,))
            setattr(self, name, changes[name])

    def as_dict(self):
        """Every setting by name."""
        return {name: getattr(self, name) for name in Settings.__slots__}

    def __repr__(self):
        return "Settings(%s)" % ", ".join(
            "%s=%r" % (name, getattr(self, name)) for name in Settings.__slots__
        )


def cos2(degrees):
    """cos^2 of an angle in degrees (a float)."""
    c = math.cos(degrees * math.pi / 180.0)
    return c * c


def dominant(x, y, z):
    """``(slot, m)``: the slot whose axis has the largest component, and that component's size.

    Ties go to x, then y, then z.
    """
    ax = -x if x < 0 else x
    ay = -y if y < 0 else y
    az = -z if z < 0 else z
    if ax >= ay and ax >= az:
        return (1 if x < 0 else 0), ax
    if ay >= az:
        return (3 if y < 0 else 2), ay
    return (5 if z < 0 else 4), az


def up_slot_cos2(x, y, z, max_tilt_cos2):
    """``up_slot`` with the tilt limit given as cos^2 of the angle (see ``cos2``)."""
    slot, m = dominant(x, y, z)
    a2 = x * x + y * y + z * z
    if a2 == 0:
        return None, False
    return slot, m * m >= a2 * max_tilt_cos2


def up_slot(x, y, z, crooked_deg=DEFAULT_CROOKED_DEG):
    """``(slot, flat)`` for a rest vector: the slot pointing up, and whether it is flat enough.

    The slot is the axis with the largest component m (and its sign). The angle t between the
    vector a and that axis has cos t = m / |a|, so "t <= crooked_deg" is, squaring both sides
    (both are positive), m^2 >= |a|^2 cos^2(crooked_deg): no square root and no arc cosine.
    A zero vector gives ``(None, False)``. |a| itself is not checked here.
    """
    return up_slot_cos2(x, y, z, cos2(crooked_deg))


def tilt_deg(x, y, z):
    """The angle in degrees between (x, y, z) and the nearest sensor axis (for diagnostics)."""
    m = dominant(x, y, z)[1]
    a = math.sqrt(x * x + y * y + z * z)
    if a == 0:
        return 90.0
    return math.acos(min(1.0, m / a)) * 180.0 / math.pi


UNKNOWN = "unknown"
REST = "rest"
MOVING = "moving"


class DieTracker:
    """Turns one die's samples into events (see the module docstring)."""

    def __init__(self, settings=None):
        self.settings = settings if settings is not None else Settings()
        s = self.settings
        self._ff2 = s.freefall_mg * s.freefall_mg
        self._impact2 = s.impact_mg * s.impact_mg
        lo = GRAVITY_MG - s.orient_tol_mg
        hi = GRAVITY_MG + s.orient_tol_mg
        self._band_lo2 = lo * lo if lo > 0 else 0
        self._band_hi2 = hi * hi
        lo = GRAVITY_MG - s.gravity_tol_mg
        hi = GRAVITY_MG + s.gravity_tol_mg
        self._rest_lo2 = lo * lo if lo > 0 else 0
        self._rest_hi2 = hi * hi
        self._flat_cos2 = cos2(s.crooked_deg)
        self.reset()

    def reset(self):
        """Forget everything: the next rest is reported as ``("rest", slot)`` again."""
        self._state = UNKNOWN
        self._slot = None
        # still window: start time, running sums and count, done flag
        self._w_t0 = None
        self._w_sx = self._w_sy = self._w_sz = 0
        self._w_n = 0
        self._w_done = False
        # smoothed sample (None until the first sample)
        self._f_x = None
        self._f_y = self._f_z = 0
        # rest vector and the up-axis seen at rest
        self._r_x = self._r_y = self._r_z = 0
        self._rest_axis = None
        # start of a deviation from the rest vector (a motion in the making), or None
        self._dev_t0 = None
        self._clear_motion()

    def _clear_motion(self):
        self._ff_t0 = None
        self._freefall = False
        self._impact = False
        self._axis = self._rest_axis
        self._pending = None
        self._pending_n = 0
        self._tumbles = 0
        self._rolling = False

    @property
    def state(self):
        """ "unknown" (no rest seen yet), "rest" or "moving"."""
        return self._state

    @property
    def slot(self):
        """The slot the die rests in, or None (moving, unknown, or resting unreadable)."""
        return self._slot

    @property
    def rest_vector(self):
        """The mean (x, y, z) of the last rest window, in mg."""
        return (self._r_x, self._r_y, self._r_z)

    @property
    def tumbles(self):
        """Up-axis changes seen in the current (or last) motion."""
        return self._tumbles

    @property
    def freefall(self):
        """Whether the current (or last) motion had a free-fall phase."""
        return self._freefall

    @property
    def impact(self):
        """Whether the current (or last) motion had an impact."""
        return self._impact

    def feed(self, t_ms, x, y, z):
        """Take one sample (time in ms, acceleration in mg); return the list of new events."""
        events = []
        s = self.settings

        # smoothed sample, for motion detection
        if self._f_x is None:
            self._f_x, self._f_y, self._f_z = x, y, z
        else:
            k = s.smooth_shift
            c = s.smooth_clip_mg
            d = x - self._f_x
            self._f_x += (c if d > c else -c if d < -c else d) >> k
            d = y - self._f_y
            self._f_y += (c if d > c else -c if d < -c else d) >> k
            d = z - self._f_z
            self._f_z += (c if d > c else -c if d < -c else d) >> k

        # still window: every sample within still_mg of the mean of the window's samples so
        # far, i.e. |n*x - sum_x| <= n*still_mg, with no division
        n = self._w_n
        lim = s.still_mg * n
        if (
            n == 0
            or x * n - self._w_sx > lim
            or self._w_sx - x * n > lim
            or y * n - self._w_sy > lim
            or self._w_sy - y * n > lim
            or z * n - self._w_sz > lim
            or self._w_sz - z * n > lim
        ):
            self._start_window(t_ms, x, y, z)
        elif not self._w_done:
            self._w_sx += x
            self._w_sy += y
            self._w_sz += z
            self._w_n += 1

        state = self._state
        if state == REST:
            lim = s.move_mg
            d = self._f_x - self._r_x
            far = d > lim or -d > lim
            if not far:
                d = self._f_y - self._r_y
                far = d > lim or -d > lim
            if not far:
                d = self._f_z - self._r_z
                far = d > lim or -d > lim
            if not far:
                self._dev_t0 = None
            else:
                if self._dev_t0 is None:
                    self._dev_t0 = t_ms
                    self._clear_motion()
                self._motion_sample(t_ms, x, y, z)
                if t_ms - self._dev_t0 >= s.move_ms:
                    self._state = state = MOVING
                    self._slot = None
                    self._dev_t0 = None
                    self._start_window(t_ms, x, y, z)
                    events.append(MOVING_EVENT)
                    if self._signature():
                        self._rolling = True
                        events.append(ROLLING_EVENT)
        elif state == MOVING:
            self._motion_sample(t_ms, x, y, z)
            if not self._rolling and self._signature():
                self._rolling = True
                events.append(ROLLING_EVENT)

        if not self._w_done and t_ms - self._w_t0 >= s.settle_ms:
            self._w_done = True
            event = self._came_to_rest()
            if event is not None:
                events.append(event)
        return events

    def _start_window(self, t_ms, x, y, z):
        self._w_t0 = t_ms
        self._w_sx, self._w_sy, self._w_sz = x, y, z
        self._w_n = 1
        self._w_done = False

    def _motion_sample(self, t_ms, x, y, z):
        """Collect the roll-signature features from one sample of a motion."""
        a2 = x * x + y * y + z * z
        if a2 < self._ff2:
            if self._ff_t0 is None:
                self._ff_t0 = t_ms
            if t_ms - self._ff_t0 >= self.settings.freefall_ms:
                self._freefall = True
        else:
            self._ff_t0 = None
            if a2 > self._impact2:
                self._impact = True
            elif a2 >= self._band_lo2 and a2 <= self._band_hi2:
                slot, m = dominant(x, y, z)
                if 3 * m * m < 2 * a2:
                    return  # near a diagonal: which face is up is not clear
                if slot == self._axis:
                    self._pending = None
                    self._pending_n = 0
                    return
                if slot == self._pending:
                    self._pending_n += 1
                else:
                    self._pending = slot
                    self._pending_n = 1
                if self._pending_n >= self.settings.tumble_samples:
                    if self._axis is not None:
                        self._tumbles += 1
                    self._axis = slot
                    self._pending = None
                    self._pending_n = 0

    def _signature(self):
        return self._tumbles >= self.settings.min_tumbles and (self._freefall or self._impact)

    def _came_to_rest(self):
        """The still window just completed: update the rest and return the event, if any."""
        n = self._w_n
        x = self._w_sx // n
        y = self._w_sy // n
        z = self._w_sz // n
        self._r_x, self._r_y, self._r_z = x, y, z
        self._dev_t0 = None
        a2 = x * x + y * y + z * z
        slot, flat = up_slot_cos2(x, y, z, self._flat_cos2)
        readable = flat and self._rest_lo2 <= a2 <= self._rest_hi2
        m = dominant(x, y, z)[1]
        self._rest_axis = slot if a2 > 0 and 3 * m * m >= 2 * a2 else None
        previous = self._state
        self._state = REST
        self._slot = slot if readable else None
        if previous == UNKNOWN:
            return ("rest", self._slot)
        if previous == MOVING:
            if self._rolling:
                return ("roll", slot) if readable else CROOKED_EVENT
            return ("placed", self._slot)
        return None  # a rest confirmed again (after a jolt, say): nothing to report
