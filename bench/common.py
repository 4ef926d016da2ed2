"""Small helpers shared by the benchmarks (they do not import the tests)."""

from __future__ import annotations

import http.client
import json
import os
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
    return (
        f"n={len(v)} p50={percentile(v, 50):.2f}{unit} p90={percentile(v, 90):.2f}{unit} "
        f"p99={percentile(v, 99):.2f}{unit} max={max(v):.2f}{unit} "
        f"mean={statistics.fmean(v):.2f}{unit}"
    )


_CSRF: dict[str, str] = {}

#: The seats' claims (a seat's path -> its claim cookie), kept as the phone that claimed a seat
#: keeps its cookie, and sent with every request under that path (a tree from before the claims
#: sets none).
CLAIMS: dict[str, str] = {}


def claimed(path: str, headers: dict[str, str] | None = None) -> dict[str, str]:
    """``headers`` with the claim of the seat of ``path``, if this process claimed it."""
    headers = dict(headers or {})
    for prefix, value in CLAIMS.items():
        if path == prefix or path.startswith(prefix + "/"):
            cookie = f"companion_claim={value}"
            headers["Cookie"] = f"{headers['Cookie']}; {cookie}" if "Cookie" in headers else cookie
    return headers


def keep_claims(response: http.client.HTTPResponse) -> None:
    """Remember the seat claim a response sets (the answer to a seat's join code)."""
    for cookie in response.msg.get_all("Set-Cookie") or []:
        fields = [field.strip() for field in cookie.split(";")]
        name, _, value = fields[0].partition("=")
        if name == "companion_claim":
            CLAIMS[next((f[5:] for f in fields if f.lower().startswith("path=")), "/")] = value


class KeptConnections:
    """One kept-alive HTTP connection per phone (its loopback address) and server, as a phone's
    browser keeps its connection between requests; opened again when the server closed it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._free: dict[tuple[str, str | None], list[http.client.HTTPConnection]] = {}

    def request(
        self,
        url: str,
        method: str,
        data: bytes | None,
        headers: dict[str, str],
        timeout: float,
        source: str | None,
    ):
        parts = urlsplit(url)
        key = (parts.netloc, source)
        with self._lock:
            free = self._free.setdefault(key, [])
            conn = free.pop() if free else None
        for attempt in range(2):
            if conn is None:
                conn = http.client.HTTPConnection(
                    parts.hostname,
                    parts.port,
                    timeout=timeout,
                    source_address=(source, 0) if source else None,
                )
            try:
                conn.request(method, parts.path, data, claimed(parts.path, headers))
                response = conn.getresponse()
                keep_claims(response)
                payload = response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                conn.close()  # the server closed an idle kept connection: open a new one
                conn = None
                if attempt:
                    raise
                continue
            with self._lock:
                if response.will_close:
                    conn.close()
                else:
                    self._free[key].append(conn)
            return response.status, payload, response.getheader("Content-Type", "")
        raise AssertionError("unreachable")


#: the benchmarks' phones keep their connections (a fresh one per request only where asked)
KEPT = KeptConnections()


def _request(
    url: str,
    method: str,
    body,
    headers: dict[str, str],
    timeout: float,
    source: str | None = None,
    keep: bool = False,
):
    data = json.dumps(body).encode() if body is not None else None
    if data:
        headers = {"Content-Type": "application/json", **headers}
    if keep:
        return KEPT.request(url, method, data, headers, timeout, source)
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(
        parts.hostname, parts.port, timeout=timeout, source_address=(source, 0) if source else None
    )
    try:
        conn.request(method, parts.path, data, claimed(parts.path, headers))
        response = conn.getresponse()
        keep_claims(response)
        return response.status, response.read(), response.getheader("Content-Type", "")
    finally:
        conn.close()


def csrf(url: str, timeout: float = 10.0, source: str | None = None) -> str:
    """The CSRF token of the page a POST to ``url`` comes from, as a phone has it: a host's
    or a player's page (``/host/<token>``, ``/p/<token>``) or a seat's join page (fetched from
    the loopback address ``source`` if given)."""
    parts = urlsplit(url)
    segments = parts.path.split("/")
    origin = f"{parts.scheme}://{parts.netloc}"
    if segments[1] == "join":
        _, page, _ = _request(url, "GET", None, {}, timeout, source)
        return re.search(rb'<meta name="csrf-token" content="([^"]*)">', page).group(1).decode()
    prefix = f"{origin}/{segments[1]}/{segments[2]}"
    if prefix not in _CSRF:
        _, page, _ = _request(f"{prefix}/api/state", "GET", None, {}, timeout, source)
        _CSRF[prefix] = json.loads(page)["csrf"]
    return _CSRF[prefix]


def http_json(
    url: str,
    method: str = "GET",
    body=None,
    timeout: float = 10.0,
    source: str | None = None,
    keep: bool = False,
):
    """(status, JSON) of a request; a POST carries its page's CSRF token, as from a phone.
    ``source``: the loopback address to send from (127.0.0.N), as from a phone of its own;
    ``keep``: over that phone's kept-alive connection (as a browser does), not a fresh one."""
    headers = {"X-CSRF-Token": csrf(url, timeout, source)} if method == "POST" else {}
    status, payload, _ = _request(url, method, body, headers, timeout, source, keep)
    return status, json.loads(payload or b"null")


def join_links(host: str, sources: dict[str, str] | None = None) -> dict[str, str]:
    """Every seat of the game being played taken, as phones do from the seats' join codes:
    each player's private page. ``sources``: each player's phone's loopback address."""
    links = {}
    for player, link in http_json(f"{host}/api/setup")[1]["links"].items():
        source = (sources or {}).get(player)
        status, answer = http_json(link["url"], "POST", {}, source=source)
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
        conn.request("GET", parts.path, headers=claimed(parts.path))
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


def start_companion(
    data: Path, extra: list[str] | None = None
) -> tuple[subprocess.Popen, str, str]:
    """``companion run`` as its own process; returns (process, base URL, host URL)."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "run",
            "--data",
            str(data),
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            *(extra or []),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
    )
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


# -- a companion of any tree, started by bench/launch.py ---------------------------------------

LAUNCHER = Path(__file__).resolve().parent / "launch.py"
SERVERS = ("shipped", "waitress-tuned")


class Launched:
    """A companion started by ``bench/launch.py`` in its own process."""

    def __init__(self, proc: subprocess.Popen, base: str, host: str, module: str, lines: list[str]):
        self.proc, self.pid, self.base, self.host = proc, proc.pid, base, host
        self.module = module  #: the file of the ``companion`` package it imported
        self.lines = lines  #: what it printed on stdout (the reader thread keeps adding)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self, timeout: float = 25.0) -> int:
        """SIGTERM, then SIGKILL after ``timeout`` seconds; the exit code (negative: killed)."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        return self.proc.returncode


def start_launcher(
    tree: Path,
    data: Path,
    server: str = "shipped",
    dice_port: str | None = None,
    python: str = sys.executable,
    threads: int | None = None,
    stderr_path: Path | None = None,
    timeout: float = 60.0,
) -> Launched:
    """``bench/launch.py`` for the source tree ``tree`` (``tree`` and ``tree/firmware`` first
    on PYTHONPATH, run in ``tree``); waits for its host link and checks that the ``companion``
    it imported is the tree's. Its stderr (the companion's log) goes to ``stderr_path``."""
    tree = Path(tree).resolve()
    env = dict(os.environ)
    before = [env["PYTHONPATH"]] if env.get("PYTHONPATH") else []
    env["PYTHONPATH"] = os.pathsep.join([str(tree), str(tree / "firmware"), *before])
    command = [python, str(LAUNCHER), "--data", str(data), "--server", server]
    if dice_port:
        command += ["--dice-port", dice_port]
    if threads:
        command += ["--threads", str(threads)]
    with open(stderr_path or os.devnull, "wb") as err:
        proc = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=err, text=True, cwd=tree, env=env
        )
    lines: list[str] = []
    module = host = None
    deadline = time.monotonic() + timeout
    while host is None:
        line = proc.stdout.readline()
        if not line or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"bench/launch.py did not start; it said: {''.join(lines)}")
        lines.append(line)
        if line.strip().startswith("Companion module:"):
            module = line.split(":", 1)[1].strip()
        found = re.search(r"Host \(console\)\s*:\s*(http://\S+)", line)
        if found:
            host = found.group(1)

    threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True).start()
    if module is None or not Path(module).resolve().is_relative_to(tree):
        proc.kill()
        raise RuntimeError(f"the launcher imported companion from {module}, not from {tree}")
    print(f"companion imported from {module} (server {server}, pid {proc.pid})", flush=True)
    for line in lines:
        if "waitress-tuned:" in line:
            print(line.strip(), flush=True)
    return Launched(proc, host.split("/host/")[0], host, module, lines)


def add_tree_arguments(parser) -> None:
    """The options every script that starts a companion takes."""
    parser.add_argument(
        "--tree",
        type=Path,
        default=ROOT,
        help="the source tree to measure (default: this script's repository)",
    )
    parser.add_argument(
        "--server",
        choices=SERVERS,
        default="shipped",
        help="shipped: what `companion run` serves with; waitress-tuned: "
        "waitress with limits tuned against attacks (bench/launch.py)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="waitress-tuned's thread count (default: the launcher's)",
    )
    parser.add_argument(
        "--python",
        default=sys.executable,
        help="the Python that runs the companion (default: this one)",
    )


# -- a process seen from /proc -------------------------------------------------------------------

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def rss_kb(pid: int) -> int:
    """VmRSS of ``pid`` in kB."""
    with open(f"/proc/{pid}/status") as f:
        for row in f:
            if row.startswith("VmRSS:"):
                return int(row.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """utime + stime of ``pid`` (fields 14 and 15 of /proc/<pid>/stat), in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def socket_count(pid: int) -> int:
    """How many sockets ``pid`` holds open (the listening one and every accepted connection)."""
    count = 0
    try:
        names = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return -1
    for name in names:
        try:
            if os.readlink(f"/proc/{pid}/fd/{name}").startswith("socket:"):
                count += 1
        except OSError:
            pass
    return count
