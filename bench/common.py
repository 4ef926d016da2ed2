"""Small helpers shared by the benchmarks (they do not import the tests)."""

from __future__ import annotations

import http.client
import json
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def summary(values: list[float], unit: str = "ms", scale: float = 1000.0) -> str:
    v = [x * scale for x in values]
    return (f"n={len(v)} p50={percentile(v, 50):.2f}{unit} p90={percentile(v, 90):.2f}{unit} "
            f"p99={percentile(v, 99):.2f}{unit} max={max(v):.2f}{unit} "
            f"mean={statistics.fmean(v):.2f}{unit}")


_CSRF: dict[str, str] = {}


def _request(url: str, method: str, body, headers: dict[str, str], timeout: float):
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        data = json.dumps(body).encode() if body is not None else None
        if data:
            headers = {"Content-Type": "application/json", **headers}
        conn.request(method, parts.path, data, headers)
        response = conn.getresponse()
        return response.status, response.read(), response.getheader("Content-Type", "")
    finally:
        conn.close()


def csrf(url: str, timeout: float = 10.0) -> str:
    """The CSRF token of the page a POST to ``url`` comes from, as a phone has it: a host's
    or a player's page (``/host/<token>``, ``/p/<token>``) or a seat's join page."""
    parts = urlsplit(url)
    segments = parts.path.split("/")
    origin = f"{parts.scheme}://{parts.netloc}"
    if segments[1] == "join":
        _, page, _ = _request(url, "GET", None, {}, timeout)
        return re.search(rb'<meta name="csrf-token" content="([^"]*)">', page).group(1).decode()
    prefix = f"{origin}/{segments[1]}/{segments[2]}"
    if prefix not in _CSRF:
        _, page, _ = _request(f"{prefix}/api/state", "GET", None, {}, timeout)
        _CSRF[prefix] = json.loads(page)["csrf"]
    return _CSRF[prefix]


def http_json(url: str, method: str = "GET", body=None, timeout: float = 10.0):
    """(status, JSON) of a request; a POST carries its page's CSRF token, as from a phone."""
    headers = {"X-CSRF-Token": csrf(url, timeout)} if method == "POST" else {}
    status, payload, _ = _request(url, method, body, headers, timeout)
    return status, json.loads(payload or b"null")


def join_links(host: str) -> dict[str, str]:
    """Every seat of the game being played taken, as phones do from the seats' join codes:
    each player's private page."""
    links = {}
    for player, link in http_json(f"{host}/api/setup")[1]["links"].items():
        status, answer = http_json(link["url"], "POST", {})
        assert status == 200, answer
        parts = urlsplit(link["url"])
        links[player] = f"{parts.scheme}://{parts.netloc}{answer['url']}"
    return links


class SSEClient(threading.Thread):
    """Reads snapshots from one stream in its own thread; records when each version arrived."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.url = url
        self.arrivals: list[tuple[float, int]] = []  # (perf_counter, version)
        self.ready = threading.Event()
        self.cond = threading.Condition()

    def run(self):
        parts = urlsplit(self.url)
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        conn.request("GET", parts.path)
        response = conn.getresponse()
        event = None
        while True:
            line = response.readline()
            if not line:
                return
            line = line.decode().rstrip("\r\n")
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:") and event == "snapshot":
                version = json.loads(line[5:])["version"]
                with self.cond:
                    self.arrivals.append((time.perf_counter(), version))
                    self.cond.notify_all()
                self.ready.set()

    def first_after(self, version: int, timeout: float = 5.0) -> float | None:
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for at, v in self.arrivals:
                    if v > version:
                        return at
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.cond.wait(left)

    def latest(self) -> int:
        with self.cond:
            return self.arrivals[-1][1] if self.arrivals else -1


def start_companion(data: Path, extra: list[str] | None = None) -> tuple[subprocess.Popen, str, str]:
    """``companion run`` as its own process; returns (process, base URL, host URL)."""
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--data", str(data),
                             "--host", "127.0.0.1", "--port", "0", *(extra or [])],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            cwd=ROOT)
    host = None
    while host is None:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("companion run did not start")
        found = re.search(r"Host \(console\)\s*:\s*(http://\S+)", line)
        if found:
            host = found.group(1)
    threading.Thread(target=proc.stdout.read, daemon=True).start()
    return proc, host.split("/host/")[0], host
