"""The dice reader: its dice, their profiles and the line protocol, with no I/O.

The board layer (``firmware/main.py``) calls ``sample()`` with every accelerometer reading,
``host_bytes()`` with what the host sent and ``tick()`` often, then writes ``take_output()`` to
the USB serial port and lights the LEDs as ``die_led()`` and ``status_led()`` say. The simulated
reader on the host runs this same class behind a pty. ``docs/dice-protocol.md`` documents every
line it sends and every command it obeys.
"""

from . import FIRMWARE_VERSION
from .profiles import get as get_profile
from .protocol import PROTOCOL_VERSION, SEQ_MODULUS, LineSplitter, ProtocolError, line, parse_line
from .sensing import DieTracker

#: How often the reader reports its supply without being asked (ms).
POWER_EVERY_MS = 30000
#: A host line left incomplete this long is discarded (ms), as the protocol says.
LINE_IDLE_MS = 200
#: The longest FLASH or IDENTIFY blink a host may ask for (ms).
MAX_BLINK_MS = 60000
#: IDENTIFY blinks the board LED this long when the host does not say (ms).
IDENTIFY_MS = 3000
#: FLASH lights a die's LED this long when the host does not say (ms).
FLASH_MS = 1000

_SAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-/"


def _safe_text(text, limit=80):
    """``text`` squeezed into a protocol value: unsafe characters become ``-``."""
    out = []
    for char in str(text)[:limit]:
        out.append(char if char in _SAFE else "-")
    return "".join(out) or "-"


def _ms_field(fields, default):
    """The optional ``ms`` field: None if malformed."""
    raw = fields.get("ms")
    if raw is None:
        return default
    if not raw or len(raw) > 6 or not raw.isdigit():
        return None
    value = int(raw)
    return value if value <= MAX_BLINK_MS else None


class _Die:
    """What the reader knows of one die."""

    __slots__ = ("tracker", "profile", "led", "sensor", "roll", "flash_until")

    def __init__(self, settings, led):
        self.tracker = DieTracker(settings)
        self.profile = get_profile("d6")
        self.led = led
        self.sensor = None  # None: no reading yet; True: reading; False: failed
        self.roll = 0  # the number of the last roll since boot
        self.flash_until = 0


class Reader:
    """A dice reader with ``dice`` dice; ``leds[i]`` says whether die ``i`` has an LED.

    ``boot`` names this power-on (the board draws it at random): the host tells a restarted
    reader by it, since roll numbers start again from 1 at every boot.
    """

    def __init__(self, dice=2, board="pico", uid="", leds=(True, True), settings=None, boot=""):
        if dice < 1:
            raise ValueError("a reader has at least one die")
        leds = tuple(leds)
        self.board = board
        self.uid = uid
        self.boot_id = boot
        self._dice = [_Die(settings, i < len(leds) and bool(leds[i])) for i in range(dice)]
        self._seq = 0
        self._out = []
        self._splitter = LineSplitter(on_overlong=self._overlong)
        self._last_rx = 0
        self._mv = None
        self._source = "usb"
        self._next_power = POWER_EVERY_MS
        self._identify_until = 0
        self._identify_from = 0

    @property
    def dice(self):
        """How many dice the reader has."""
        return len(self._dice)

    def profile(self, index):
        """Die ``index``'s profile."""
        return self._dice[index].profile

    # -- output ------------------------------------------------------------------------------

    def _send(self, verb, pairs=()):
        self._out.append(line(verb, self._seq, pairs))
        self._seq = (self._seq + 1) % SEQ_MODULUS

    def take_output(self):
        """The bytes to write to the host since the last call (``b""`` if none)."""
        if not self._out:
            return b""
        data = b"".join(self._out)
        self._out = []
        return data

    def _identity(self):
        """The fields that say which reader this is: firmware, board and (if known) its uid."""
        pairs = [("fw", FIRMWARE_VERSION), ("board", self.board)]
        if self.uid:
            pairs.append(("uid", _safe_text(self.uid)))
        return pairs

    def _hello(self, why):
        pairs = [("proto", PROTOCOL_VERSION)] + self._identity()
        if self.boot_id:
            pairs.append(("boot", _safe_text(self.boot_id, 16)))
        pairs.append(("dice", len(self._dice)))
        pairs.append(("why", why))
        self._send("HELLO", pairs)

    def _error(self, code, msg, ref=None, die=None):
        pairs = [("code", code)]
        if ref is not None:
            pairs.append(("ref", ref))
        if die is not None:
            pairs.append(("die", die))
        pairs.append(("msg", _safe_text(msg)))
        self._send("ERR", pairs)

    def _state(self, index):
        die = self._dice[index]
        if die.sensor is False:
            state = "missing"
        else:
            state = die.tracker.state
        pairs = [
            ("die", index),
            ("state", state),
            ("profile", die.profile.name),
            ("faces", die.profile.describe()),
        ]
        if state == "rest" and die.tracker.slot is not None:
            pairs.append(("face", die.profile.face_for_slot(die.tracker.slot).label))
        pairs.append(("led", 1 if die.led else 0))
        self._send("DIE", pairs)

    def _power(self):
        pairs = [("src", self._source)]
        if self._mv is not None:
            pairs.append(("mv", self._mv))
        self._send("POWER", pairs)

    # -- the board calls these ---------------------------------------------------------------

    def boot(self, now_ms):
        """Power-on: say HELLO (``why=power``, so the host can tell a restart)."""
        self._next_power = now_ms + POWER_EVERY_MS
        self._hello("power")

    def sample(self, index, now_ms, x, y, z):
        """One reading of die ``index``'s accelerometer, in milli-g."""
        die = self._dice[index]
        if die.sensor is False:
            die.sensor = True
            die.tracker.reset()
            self._state(index)
        die.sensor = True
        for event in die.tracker.feed(now_ms, x, y, z):
            kind = event[0]
            if kind == "moving":
                self._send("MOVING", [("die", index)])
            elif kind == "rolling":
                die.roll += 1
                self._send("ROLLING", [("die", index), ("roll", die.roll)])
            elif kind == "roll":
                face = die.profile.face_for_slot(event[1])
                pairs = [
                    ("die", index),
                    ("roll", die.roll),
                    ("face", face.label),
                    ("profile", die.profile.name),
                ]
                if face.value is not None:
                    pairs.append(("value", face.value))
                if face.again:
                    pairs.append(("again", 1))
                self._send("ROLL", pairs)
            elif kind == "crooked":
                self._send("CROOKED", [("die", index), ("roll", die.roll)])
            elif kind == "placed":
                pairs = [("die", index)]
                if event[1] is not None:
                    pairs.append(("face", die.profile.face_for_slot(event[1]).label))
                self._send("PLACED", pairs)
            elif kind == "rest":
                self._state(index)

    def sensor_failed(self, index, now_ms, why):
        """Reading die ``index``'s sensor failed (unplugged cable, bus error)."""
        die = self._dice[index]
        if die.sensor is not False:
            die.sensor = False
            die.tracker.reset()
            self._error("sensor", why, die=index)

    def power(self, mv, source="usb"):
        """The latest supply reading, in millivolts, and where power comes from."""
        self._mv = int(mv)
        self._source = _safe_text(source, 12)

    def tick(self, now_ms):
        """Time passes: drop a stale partial host line, report the supply now and then."""
        if self._splitter.pending and now_ms - self._last_rx >= LINE_IDLE_MS:
            dropped = self._splitter.discard_pending()
            self._error("line", "incomplete line of %d bytes discarded" % dropped)
        if now_ms >= self._next_power:
            self._next_power = now_ms + POWER_EVERY_MS
            self._power()

    def die_led(self, index, now_ms):
        """Whether die ``index``'s LED is lit now: it blinks 4 times a second while flashing."""
        die = self._dice[index]
        return die.led and now_ms < die.flash_until and (die.flash_until - now_ms) % 250 >= 125

    def status_led(self, now_ms):
        """The board LED: a fast blink while identifying, else a short blink every 2 s."""
        if now_ms < self._identify_until:
            return (now_ms - self._identify_from) % 200 < 100
        return now_ms % 2000 < 50

    # -- host commands -----------------------------------------------------------------------

    def host_bytes(self, data, now_ms):
        """Bytes from the host; every complete line is obeyed (or answered with ERR)."""
        self._last_rx = now_ms
        for text in self._splitter.feed(data):
            self._host_line(text, now_ms)

    def _overlong(self, length):
        self._error("line", "too long: %d bytes" % length)

    def _host_line(self, text, now_ms):
        try:
            message = parse_line(text)
        except ProtocolError as error:
            self._error("line", str(error))
            return
        verb, ref, fields = message.verb, message.seq, message.fields
        if verb == "HELLO":
            self._hello("host")
        elif verb == "PING":
            self._send("PONG", [("ref", ref)])
        elif verb == "STATUS":
            for index in range(len(self._dice)):
                self._state(index)
            self._power()
            self._send("OK", [("ref", ref), ("cmd", verb)])
        elif verb == "IDENTIFY":
            ms = _ms_field(fields, IDENTIFY_MS)
            if ms is None:
                self._error("field", "ms must be 0..%d" % MAX_BLINK_MS, ref)
                return
            self._identify_from = now_ms
            self._identify_until = now_ms + ms
            self._send("OK", [("ref", ref), ("cmd", verb)] + self._identity())
        elif verb == "PROFILE" or verb == "FLASH":
            index = self._die_field(fields, ref)
            if index is None:
                return
            if verb == "PROFILE":
                self._set_profile(index, fields, ref)
            else:
                self._flash(index, fields, ref, now_ms)
        else:
            self._error("verb", "unknown verb " + verb, ref)

    def _die_field(self, fields, ref):
        raw = fields.get("die", "")
        if not raw.isdigit() or len(raw) > 3:
            self._error("field", "die=<number> is required", ref)
            return None
        index = int(raw)
        if index >= len(self._dice):
            self._error("die", "no die %d: this reader has %d" % (index, len(self._dice)), ref)
            return None
        return index

    def _set_profile(self, index, fields, ref):
        name = fields.get("name")
        if name is None:
            self._error("field", "name=<profile> is required", ref, index)
            return
        try:
            profile = get_profile(name, fields.get("faces"))
        except ValueError as error:
            self._error("profile", str(error), ref, index)
            return
        self._dice[index].profile = profile
        self._state(index)
        self._send("OK", [("ref", ref), ("cmd", "PROFILE"), ("die", index)])

    def _flash(self, index, fields, ref, now_ms):
        die = self._dice[index]
        ms = _ms_field(fields, FLASH_MS)
        if ms is None:
            self._error("field", "ms must be 0..%d" % MAX_BLINK_MS, ref, index)
        elif not die.led:
            self._error("no-led", "die %d has no LED in this build" % index, ref, index)
        else:
            die.flash_until = now_ms + ms
            self._send("OK", [("ref", ref), ("cmd", "FLASH"), ("die", index)])
