"""``companion run``: the table, its devices and the web server in one process."""

from __future__ import annotations

import logging
import socket
import sys
import time
from typing import Any

from . import __version__
from .config import Config

log = logging.getLogger("companion")


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), or loopback.

    The address the default route leaves by; with no default route (a Pi offering its own Wi-Fi
    network, with no router), the first interface that has an IPv4 address."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.254.254.254", 1))
            return s.getsockname()[0]
        except OSError:
            pass
    for address in interface_addresses():
        return address
    return "127.0.0.1"


def interface_addresses() -> list[str]:
    """The IPv4 addresses of this machine's interfaces other than loopback (Linux), in
    interface order."""
    try:
        import fcntl
        import struct

        names = [name for _, name in socket.if_nameindex() if name != "lo"]
    except (ImportError, OSError):
        return []
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for name in names:
            try:
                packed = fcntl.ioctl(
                    s.fileno(),
                    0x8915,  # SIOCGIFADDR
                    struct.pack("256s", name.encode()[:15]),
                )
            except OSError:  # no IPv4 address on it
                continue
            found.append(socket.inet_ntoa(packed[20:24]))
    return found


class Companion:
    """Everything ``companion run`` starts, in the order it must start and stop."""

    def __init__(self, config: Config):
        from .devices.factory import open_devices
        from .lights import Layout
        from .table.runtime import Table
        from .table.store import Store
        from .web import create_app

        self.config = config
        from .web.access import Access

        self.store = Store(config.database)
        self.access = Access(self.store, pin=config.host_pin)
        #: the console's host link (printed at start): a host session for whoever runs the server
        self.host_token = self.access.console_token
        layout = Layout(seats=config.seats, tower_pixels=config.tower_pixels)
        self.table = Table(self.store, layout=layout, brightness=config.brightness)
        try:
            self.devices = open_devices(config, self.table.emit, layout.strips())
        except BaseException:
            self.store.close()
            raise
        self.table.strips = self.devices.strips
        self.table.dice = self.devices.dice
        if self.devices.tower_motor is not None:  # a motor turning a real tower, if configured
            self.table.actuators["tower_motor"] = self.devices.tower_motor
        self.sim = None
        if config.simulated:
            from .table.sim import SimulatedTable

            self.sim = SimulatedTable(self.table, self.devices, config.seed)
            enrolled = self.sim.enrol_box()
            if enrolled:
                log.info("enrolled the %d simulated stickers", enrolled)
        self.app = create_app(self.table, access=self.access, sim=self.sim)
        # what the host's status page (companion/web/status.py) reports besides the table
        self.app.extensions["companion"].update(
            devices=self.devices, config=config, urls=self.urls, started=time.monotonic()
        )
        self.server: Any = None
        self._closing = False

    def start(self) -> None:
        """Start the table and bind the server's socket (``serve_forever`` serves it)."""
        from .web.eventloop import EventLoopServer

        self.table.start()
        self.server = EventLoopServer(
            self.app,
            self.config.host,
            self.config.port,
            listen=self.table.listen,
            workers=self.config.threads,
        )

    @property
    def port(self) -> int:
        return self.server.port

    def urls(self) -> dict[str, str]:
        host = self.config.host
        address = lan_address() if host in ("0.0.0.0", "::") else host
        base = f"http://{address}:{self.port}"
        return {
            "table": f"{base}/table",
            "host": f"{base}/host/{self.host_token}",
            "home": f"{base}/",
            "display": f"{base}/table/{self.access.display_key}",
        }

    def serve_forever(self, on_signal: Any = None) -> None:
        """Serve until :meth:`close` (from any thread), or ``on_signal`` after SIGTERM/SIGINT
        (when serving in the main thread)."""
        self.server.serve_forever(on_signal=on_signal)

    def close(self) -> None:
        """Stop in order: the table (which ends every live stream), the server, the devices."""
        self._closing = True
        self.table.close()
        if self.server is not None:
            self.server.stop(timeout=3)  # the streams said goodbye when the table closed
        self.devices.close()
        self.store.close()


def run(config: Config) -> int:
    logging.basicConfig(
        level=logging.INFO,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
        stream=sys.stderr,
    )
    from .table.storage import EXIT_STORAGE, StorageError

    started = time.monotonic()
    try:
        companion = Companion(config)
        companion.start()
    except StorageError as exc:  # nothing started: the table cannot keep its log
        print(f"companion: cannot start: {exc}", file=sys.stderr)
        return EXIT_STORAGE
    except OSError as exc:
        print(f"companion: cannot start: {exc}", file=sys.stderr)
        return 1
    urls = companion.urls()
    mode = "simulated table" if config.simulated else "table"
    print(
        f"companion {__version__}: {mode} ready in {time.monotonic() - started:.2f} s "
        f"(data in {config.data_dir})",
        flush=True,
    )
    print(
        f"  Table display : {urls['display']}   (open it on the screen everyone sees: it "
        f"shows the host's PIN until a phone signs in; {urls['table']} shows the rest)",
        flush=True,
    )
    print(
        f"  Phones        : {urls['home']}   (the host signs in with the PIN "
        f"{companion.access.pin}; players scan their seat's code on the table display)",
        flush=True,
    )
    print(
        f"  Host (console): {urls['host']}   (signed in already"
        f"{'; the simulated table' if config.simulated else ''})",
        flush=True,
    )
    print("Press Ctrl+C to stop.", flush=True)

    def stop(signum=None, frame=None):
        companion.table.close()  # every stream says goodbye; the server stops after it

    try:
        companion.serve_forever(on_signal=stop)
    except KeyboardInterrupt:
        pass
    finally:
        companion.close()
    print("companion: stopped", flush=True)
    return 0
