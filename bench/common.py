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


def http_json(url: str, method: str = "GET", body=None, timeout: float = 10.0):
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        data = json.dumps(body).encode() if body is not None else None
        conn.request(method, parts.path, data,
                     {"Content-Type": "application/json"} if data else {})
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        conn.close()


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
