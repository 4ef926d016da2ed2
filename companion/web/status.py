"""The host's status page: every device of the table, connected or not, what it did last and what
went wrong; an LED test pattern; the companion's addresses and version.

It lives behind the host's link (``/host/<token>/status``): the devices' details (ports, pins, the
dice lying on the tray) are for whoever looks after the table, not for the players.

Everything it says comes from what the table and the devices already know: the table's
``devices`` entries (filled by device events and status reports), the refusals it keeps, and the
:class:`~companion.devices.factory.Devices` the companion opened (``app.extensions["companion"]``
holds them, with the configuration, its ``urls`` and when it started, when the app belongs to a
:class:`~companion.server.Companion`). What a device does not report is said to be unreported
("no report"), never guessed: seat buttons and LED strips cannot tell whether they are wired.
"""

from __future__ import annotations

import io
import json
import time
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import segno
from flask import (
    Blueprint,
    Response,
    current_app,
    jsonify,
    render_template,
    request,
    url_for,
)

from .. import __version__
from ..i18n import t
from ..table.runtime import LED_TEST_STEP
from .access import hashed
from .common import KEEPALIVE, WAKE_KEY, answer, stream_response, streams, table, translator
from .host import check_host
from .streams import Feed

bp = Blueprint("status", __name__, url_prefix="/host/<token>/status")

TEST_COLOURS = ("red", "green", "blue", "white")  # the names of doctor.PATTERN's colours
LOOPBACK = ("127.0.0.1", "localhost", "::1")

CONNECTED, NOT_CONNECTED = "connected", "not connected"
NO_REPORT_YET = "no report yet"  # a device that reports, but has not yet
NO_REPORT = "no report"  # a device that cannot report whether it is connected
NOT_CONFIGURED = "not configured"


@bp.url_value_preprocessor
def _check_token(endpoint, values):
    check_host((values or {}).get("token", ""))


def _companion() -> dict[str, Any]:
    return current_app.extensions["companion"]


@bp.get("")
def page(token: str):
    addresses = _addresses(_companion(), request.host_url)
    return render_template(
        "status.html",
        token=token,
        addresses=addresses,
        version=__version__,
        api=url_for("status.api", token=token),
        stream=url_for("status.stream", token=token),
        led_test=url_for("status.led_test", token=token),
        qr=url_for("status.qr", token=token),
        host=url_for("host.page", token=token),
    )


@bp.get("/api")
def api(token: str):
    ext = _companion()
    return jsonify(translator()(status(ext, _addresses(ext, request.host_url))))


@bp.get("/stream")
def stream(token: str):
    """The status as Server-Sent Events (``snapshot``, like every other stream): on connect,
    after every change of the table (a device report, an event) and when an LED test starts or
    ends; keep-alives between; a client that hangs up is noticed within a second."""
    ext = _companion()
    t = ext["table"]
    addresses = _addresses(ext, request.host_url)
    localise = translator()
    _, limits = streams()
    slot = limits.open(
        f"status:{hashed(token)[:16]}",
        request.remote_addr or "?",
        request.environ.get(WAKE_KEY, t.wake_streams),
    )

    def key() -> tuple[int, bool]:
        return t.version, t.led_test_colour(t.clock()) is not None

    def render() -> bytes:
        snapshot = json.dumps(localise(status(ext, addresses)), separators=(",", ":"))
        return f"event: snapshot\nid: {t.version}\ndata: {snapshot}\n\n".encode()

    return stream_response(
        Feed(
            t,
            render,
            key=key,
            poll=LED_TEST_STEP,
            slot=slot,
            limits=limits,
            keepalive=current_app.config.get("SSE_KEEPALIVE", KEEPALIVE),
        )
    )


@bp.post("/api/led_test")
def led_test(token: str):
    """Every strip red, green, blue, then white, then back to the game's frames; the answer comes
    at once, the table shows the pattern by itself (:meth:`Table._op_led_test`)."""
    return answer(table().call("led_test", "host"))


@bp.get("/qr.svg")
def qr(token: str):
    """The QR code of the companion's home page, for a phone to scan."""
    home = _addresses(_companion(), request.host_url)["home"]
    out = io.BytesIO()
    title = translator()(t("The companion's home page"))
    segno.make(home, error="m").save(
        out, kind="svg", scale=6, border=2, dark="#000", light="#fff", title=title
    )
    return Response(out.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


# -- what the page shows -----------------------------------------------------------------------


def status(ext: dict[str, Any], addresses: dict[str, Any]) -> dict[str, Any]:
    """The status page's JSON: the devices, the companion's addresses, version, mode, uptime."""
    t = ext["table"]
    devices = ext.get("devices")
    config = ext.get("config")
    started = ext.get("started")
    with t._lock:  # one consistent reading of what the table knows
        known = t.devices  # a copy of the diagnostics: the host's page alone sees them
        refusals = [dict(r) for r in t.refusals]
        changed = t.version
    simulated = devices.simulated if devices is not None else ext.get("sim") is not None
    clock = t.clock()
    test = t.led_test_colour(clock)
    return {
        "version": __version__,
        "mode": "simulated" if simulated else "real",
        "uptime": round(time.monotonic() - started, 1) if started is not None else None,
        "seats": t.layout.seats,
        "addresses": addresses,
        "led_test": {
            "running": test is not None,
            "seconds_left": round(max(0.0, t.led_test_until - clock), 2),
            "colours": list(TEST_COLOURS),
            "step": LED_TEST_STEP,
            "brightness": t.brightness,
        },
        "devices": (
            _nfc(t, devices, known, refusals)
            + [_dice(t, known, refusals)]
            + [_buttons(devices, config, known, refusals, simulated)]
            + _strips(devices.strips if devices is not None else t.strips)
            + _motor(t, devices)
        ),
        "changed": changed,
        "storage": None
        if t.storage_problem() is None
        else {"ok": False, "problem": t.storage_problem()},
        "web_refusals": [dict(r) for r in t.refusal_log.quiet],
    }


def _device(
    kind: str,
    name: str,
    label: str,
    connected: bool | None,
    state: str,
    entry: dict[str, Any] | None,
    **extra: Any,
) -> dict[str, Any]:
    entry = entry or {}
    return {
        "kind": kind,
        "name": name,
        "label": label,
        "connected": connected,
        "state": state,
        "detail": entry.get("detail"),
        "last": entry.get("last"),
        "last_at": entry.get("last_at"),
        "errors": entry.get("errors", 0),
        "last_error": None,
        **extra,
    }


def _reported(entry: dict[str, Any] | None) -> tuple[bool | None, str]:
    """Connected or not, as the device's own reports to the table say; unknown until one came."""
    if not entry or "connected" not in entry:
        return None, NO_REPORT_YET
    return bool(entry["connected"]), CONNECTED if entry["connected"] else NOT_CONNECTED


def _last_error(
    device: str,
    entry: dict[str, Any] | None,
    refusals: list[dict[str, Any]],
    more: list[tuple[str, str]] = (),
) -> dict[str, str] | None:
    """The newest error the table still knows of for ``device``: a corrupt message it refused,
    the reason it is not connected, or one of ``more`` ((at, text) pairs)."""
    found = [(r["at"], r["reason"]) for r in refusals if r.get("source") == f"device:{device}"]
    if entry and entry.get("connected") is False:
        found.append((entry.get("at") or "", entry.get("detail") or t("not connected")))
    found += list(more)
    if not found:
        return None
    at, text = max(found, key=lambda f: f[0])
    return {"text": text, "at": at or None}


def _nfc(
    tab: Any, devices: Any, known: dict[str, dict[str, Any]], refusals: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """One entry per NFC reader. A reader's taps are the table's ``nfc:<name>`` entry; what its
    driver says of itself (a PN532 connecting, losing its bus, corrupt answers) is ``<name>``."""
    if devices is not None:
        readers = {name: reader for name, reader in devices.nfc.items()}
    else:
        readers = {k.removeprefix("nfc:"): None for k in known if k.startswith("nfc:")}
    out = []
    for name, reader in readers.items():
        own, taps = known.get(name), known.get(f"nfc:{name}")
        connected, state = _reported(own) if own and "connected" in own else _reported(taps)
        seat = tab.reader_seat(name)
        label = (
            t("NFC reader, seat {seat}", seat=seat + 1)
            if seat is not None
            else t("NFC reader of the table")
            if name == "board"
            else t("NFC reader, {name}", name=name)
        )
        item = _device(
            "nfc",
            name,
            label,
            connected,
            state,
            taps,
            driver=type(reader).__name__ if reader is not None else None,
            port=getattr(reader, "port", None),
            seat=seat,
        )
        item["detail"] = (own or {}).get("detail") or (
            t("on {port}", port=item["port"])
            if item["port"]
            else t("reports only the tags tapped on it")
        )
        item["errors"] = (own or {}).get("errors", 0) + (taps or {}).get("errors", 0)
        item["last_error"] = _last_error(name, own, refusals)
        out.append(item)
    return out


def _dice(
    tab: Any, known: dict[str, dict[str, Any]], refusals: list[dict[str, Any]]
) -> dict[str, Any]:
    reader = tab.dice
    if reader is None:
        return _device(
            "dice",
            "dice",
            t("Dice reader"),
            None,
            NOT_CONFIGURED,
            None,
            detail=t("no dice reader is configured: the phones roll virtual dice"),
        )
    name = getattr(reader, "name", "dice")
    entry = known.get(name)
    connected, state = _reported(entry)
    dice = (entry or {}).get("dice", {})
    missing = [
        (d["at"], t("die {n} went missing", n=int(n) + 1))
        for n, d in dice.items()
        if d.get("state") == "missing"
    ]
    item = _device(
        "dice",
        name,
        t("Dice reader"),
        connected,
        state,
        entry,
        port=getattr(reader, "port", None),
        power=(entry or {}).get("power"),
        dice=[
            {"die": int(n) + 1, "state": d.get("state"), "face": d.get("face"), "at": d.get("at")}
            for n, d in sorted(dice.items())
        ],
        firmware=dict(getattr(reader, "info", {}) or {}) or None,
    )
    item["last_error"] = _last_error(name, entry, refusals, missing)
    return item


def _buttons(
    devices: Any,
    config: Any,
    known: dict[str, dict[str, Any]],
    refusals: list[dict[str, Any]],
    simulated: bool,
) -> dict[str, Any]:
    buttons = devices.buttons if devices is not None else None
    entry = known.get("buttons")
    count = getattr(buttons, "seats", None)
    if config is None:
        factory = None
    elif simulated:
        factory = "mock (simulated)"
    else:
        factory = config.button_factory
    pins = (
        list(config.button_pins[:count]) if config is not None and count and not simulated else None
    )
    if buttons is None and devices is not None:
        return _device(
            "buttons",
            "buttons",
            t("Seat buttons"),
            None,
            NOT_CONFIGURED,
            entry,
            count=0,
            pin_factory=factory,
            pins=None,
        )
    item = _device(
        "buttons",
        "buttons",
        t("Seat buttons"),
        None,
        NO_REPORT,
        entry,
        count=count,
        pin_factory=factory,
        pins=pins,
    )
    item["detail"] = _buttons_detail(count, factory, pins, simulated)
    item["last_error"] = _last_error("buttons", entry, refusals)
    return item


def _buttons_detail(
    count: int | None, factory: str | None, pins: list[int] | None, simulated: bool
) -> str:
    """How many buttons, gpiozero's pin factory and the GPIO pins, as far as they are known."""
    if factory and simulated:
        factory = t("mock (simulated)")
    gpio = ", ".join(map(str, pins)) if pins else None
    if count is None:
        if factory:
            return (
                t("buttons, gpiozero's {factory} pin factory", factory=factory)
                if not gpio
                else t(
                    "buttons, gpiozero's {factory} pin factory, GPIO {pins}",
                    factory=factory,
                    pins=gpio,
                )
            )
        return t("buttons") if not gpio else t("buttons, GPIO {pins}", pins=gpio)
    if factory:
        return (
            t("{count} buttons, gpiozero's {factory} pin factory", count=count, factory=factory)
            if not gpio
            else t(
                "{count} buttons, gpiozero's {factory} pin factory, GPIO {pins}",
                count=count,
                factory=factory,
                pins=gpio,
            )
        )
    return (
        t("{count} buttons", count=count)
        if not gpio
        else t("{count} buttons, GPIO {pins}", count=count, pins=gpio)
    )


def _strips(strips: dict[str, Any]) -> list[dict[str, Any]]:
    """Each LED strip: its pixels and driver; a NeoPixel strip's chain (the named strips sharing
    its data line, in wiring order) and output. Strips never answer, so: no report."""
    out = []
    for name, strip in strips.items():
        chain = getattr(strip, "chain", None)  # a ChainSegment of a NeoPixel chain
        physical = chain.strip if chain is not None else strip
        neopixel = hasattr(physical, "max_brightness")
        latest = strip.latest() if hasattr(strip, "latest") else None
        item = _device(
            "leds",
            name,
            t("LED strip, {name}", name=name),
            None,
            NO_REPORT,
            None,
            pixels=strip.length,
            driver="NeoPixel" if neopixel else "simulated",
            driver_class=type(physical).__name__,
            chain=list(chain.segments) if chain is not None else None,
            output=physical.name if neopixel else None,
            max_brightness=getattr(physical, "max_brightness", None),
        )
        if latest is not None:  # a simulated strip keeps its frames
            item.update(last=t("frame {n} shown", n=latest.seq + 1), last_at=_wall(latest.at))
        elif neopixel and hasattr(physical, "amps"):
            item["last"] = t("last frame about {amps} A", amps=f"{physical.amps:.2f}")
        if neopixel:
            item["detail"] = t(
                "{pixels} pixels, {driver} ({driver_class} on {output}; chain: {chain})",
                pixels=strip.length,
                driver=item["driver"],
                driver_class=item["driver_class"],
                output=item["output"],
                chain=" → ".join(item["chain"] or [name]),
            )
        else:
            item["detail"] = t(
                "{pixels} pixels, {driver}", pixels=strip.length, driver=t("simulated")
            )
        out.append(item)
    return out


def _motor(tab: Any, devices: Any) -> list[dict[str, Any]]:
    motor = devices.tower_motor if devices is not None else tab.tower_motor
    if motor is None:
        return []
    step = tab.store.setting("tower_motor_step")
    kind, steps = type(motor).__name__, getattr(motor, "steps_per_turn", "?")
    detail = (
        t(
            "{motor}, {steps} steps a turn; last turned to tower step {step}",
            motor=kind,
            steps=steps,
            step=step,
        )
        if step
        else t("{motor}, {steps} steps a turn", motor=kind, steps=steps)
    )
    return [_device("motor", "tower motor", t("Tower motor"), None, NO_REPORT, None, detail=detail)]


def _wall(monotonic_at: float) -> str:
    """A ``time.monotonic()`` moment as the table's ISO time."""
    seconds = time.time() - (time.monotonic() - monotonic_at)
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds")


def _addresses(ext: dict[str, Any], host_url: str) -> dict[str, Any]:
    """The table display's and the home page's addresses, as the console prints them
    (:meth:`Companion.urls`); from the request's own host when the LAN address is unknown (the
    companion found only loopback) or there is no companion behind the app."""
    urls_of = ext.get("urls")
    urls = None
    if urls_of is not None:
        try:
            urls = urls_of()
        except (OSError, AttributeError):  # e.g. no server listening yet: the request knows
            urls = None
    base = host_url.rstrip("/")
    if urls is not None and (
        urlsplit(urls["home"]).hostname not in LOOPBACK or urlsplit(base).hostname in LOOPBACK
    ):
        home, display, source = urls["home"], urls["table"], "companion"
    else:
        home, display, source = f"{base}/", f"{base}/table", "request"
    return {
        "home": home,
        "table": display,
        "source": source,
        "lan_address": urlsplit(home).hostname,
    }
