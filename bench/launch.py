"""Start a simulated companion in this process with a chosen web server, for the benchmarks.

The benchmarks measure a companion from the outside (HTTP and /proc), so that the same scripts
measure any version of the code. This launcher uses only the stable entry points:
``companion.config.Config``, ``companion.server.Companion`` and, for ``waitress-tuned``, the
Flask app (``companion.app``) and the table (``companion.table``).

    python bench/launch.py --data DIR [--server shipped|waitress-tuned] [--threads N]
                           [--dice-port PATH] [--seed N]

Run it with the tree to measure first on ``PYTHONPATH`` (``tree`` and ``tree/firmware``);
``common.start_launcher`` does that and checks which ``companion`` was imported.

* ``shipped``: ``Companion.start()`` and ``serve_forever()``, exactly what ``companion run``
  does (whatever server the tree ships).
* ``waitress-tuned``: the table started, and the app served by a waitress server tuned to
  survive an attack as well as waitress can: every live event stream holds one waitress thread,
  so there are more threads than streams (8 phones and 50 unread attacking streams, with room
  for page loads), a high connection limit (waitress stops accepting beyond it) and a short idle
  timeout, checked every second (idle connections are closed sooner).
* ``--dice-port PATH``: the simulated dice reader (and its simulator process) is closed and a
  ``SerialDiceReader`` on PATH takes its place (a pty the benchmark owns).

It prints, like ``companion run``, the table display's address and the console host link
(``  Host (console): http://127.0.0.1:PORT/host/TOKEN``), and the file of the imported
``companion`` module; SIGTERM or SIGINT stops it cleanly (``Companion.close()``).
Logging goes to stderr at INFO, as ``companion run`` sets it.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
import time
import warnings
from pathlib import Path

#: waitress-tuned's settings (threads: 8 phones + 50 attacking streams + room for requests)
TUNED = {
    "threads": 96,
    "connection_limit": 2000,
    "channel_timeout": 10,
    "cleanup_interval": 1,
    "asyncore_use_poll": True,
    "backlog": 2048,
}


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", required=True, type=Path, help="the companion's data folder")
    parser.add_argument("--server", choices=("shipped", "waitress-tuned"), default="shipped")
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help=f"waitress-tuned's threads (default {TUNED['threads']})",
    )
    parser.add_argument(
        "--dice-port",
        default=None,
        help="read the dice from this serial port (a pty) instead of the simulator",
    )
    parser.add_argument("--seed", type=int, default=2014, help="the simulated devices' seed")
    return parser.parse_args()


def swap_dice(companion, port: str) -> None:
    """Close the simulated dice reader and its simulator; read the dice from ``port`` instead."""
    from companion.devices.dice import SerialDiceReader

    devices = companion.devices
    for device in (devices.dice, devices.sim_dice):  # the reader before the simulator
        if device is not None:
            device.close()
    devices.sim_dice = None
    reader = SerialDiceReader(port, companion.table.emit, name="dice")
    devices.dice = companion.table.dice = reader


def tuned_server(companion, threads: int | None):
    """A waitress server for ``companion.app`` with the TUNED settings; prints them."""
    from waitress import create_server

    settings = dict(TUNED, threads=threads or TUNED["threads"])
    print(
        "  waitress-tuned: "
        + " ".join(f"{name}={value}" for name, value in settings.items())
        + " send_bytes=1 channel_request_lookahead=1",
        flush=True,
    )
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "send_bytes", DeprecationWarning)
        return create_server(
            companion.app,
            host="127.0.0.1",
            port=0,
            send_bytes=1,
            channel_request_lookahead=1,
            ident="companion",
            **settings,
        )


def stop_with_parent() -> None:
    """A benchmark that dies without stopping its companion: the companion stops too."""
    parent = os.getppid()
    while os.getppid() == parent:
        time.sleep(1.0)
    os.kill(os.getpid(), signal.SIGTERM)


def main() -> int:
    args = parse_args()
    logging.basicConfig(
        level=logging.INFO,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
        stream=sys.stderr,
    )
    import companion as package
    from companion.config import Config
    from companion.server import Companion

    print(f"  Companion module: {package.__file__}", flush=True)
    config = Config(
        data_dir=args.data, host="127.0.0.1", port=0, dice_speed=0.0, seed=args.seed
    ).check()
    companion = Companion(config)
    if args.dice_port:
        swap_dice(companion, args.dice_port)
    server = None
    if args.server == "shipped":
        companion.start()
        port = companion.port
        serve = companion.serve_forever
    else:
        companion.table.start()
        server = tuned_server(companion, args.threads)
        port = server.effective_port
        serve = server.run
    base = f"http://127.0.0.1:{port}"
    print(f"  Table display : {base}/table", flush=True)
    print(f"  Host (console): {base}/host/{companion.host_token}", flush=True)
    print(f"  Server        : {args.server} (pid {os.getpid()})", flush=True)

    def stop(signum, frame):
        companion.table.close()  # every stream says goodbye, so the server's threads can end
        # if the server does not come back from serving, do not hang: the benchmark waits
        threading.Timer(20.0, os._exit, (3,)).start()
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    threading.Thread(target=stop_with_parent, daemon=True).start()
    try:
        serve()
    except KeyboardInterrupt:
        pass
    except OSError:
        if not companion.table.closing:
            raise
    finally:
        if server is not None:
            server.task_dispatcher.shutdown(timeout=3)
            server.close()
        companion.close()
    try:
        print("  launcher: stopped", flush=True)
    except OSError:  # nobody reads our output any more (the benchmark died)
        pass
    os._exit(0)  # the 20 s timer above must not keep the process


if __name__ == "__main__":
    sys.exit(main())
