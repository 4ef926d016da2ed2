"""Who may do what: the host's PIN and sessions, the players' seats, and CSRF tokens.

Roles, each reached by a long random token in the page's link (a phone keeps its link; a cookie
brings the home-screen app back to it):

* **host** (``/host/<session>``): a phone that entered the host's PIN, or the console link printed
  when the companion starts. It starts, pauses, resumes, undoes and ends games, hands seats over,
  enrols stickers and sees the devices. A PIN is either set in the configuration
  (``server.host_pin``) or made up by the companion and shown on the table display until the
  first phone signs in as host. Wrong PINs are rate-limited per phone and for the whole table.
* **player** (``/p/<token>``): one seat of the game being played. The token is handed to the first
  phone that opens the seat's one-time join code (the QR code on the table display), and replaced
  when the host hands the seat over. The seat belongs to that phone: its pages and APIs need the
  link *and* the claim cookie set at the claim (:meth:`Access.seat_claim`), so a copied link
  shows only that the seat is on another phone.
* **table display** (``/table``): what everyone may see; no token. The screen that is *the*
  table display also shows the made-up PIN until the first phone signs in: it is opened once with
  the display link (``/table/<display key>``, printed when the companion starts and offered on
  the host's page), which leaves a cookie. The PIN is never in an API or a stream: anyone on the
  table's network can read ``/table`` and ``/api/table``.

Every POST carries a CSRF token tied to its page's token (``X-CSRF-Token``, or a ``csrf_token``
form field): an HMAC of the token under a secret kept in the database, so it survives restarts and
cannot be made without the secret. A POST from another site's page is refused, and so is one
whose ``Origin`` is not this server.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

HOST = "host"
PIN_DIGITS = 6
#: Wrong PINs from one phone before it must wait, and how long (doubling, up to the maximum).
FREE_TRIES = 5
FIRST_WAIT = 30.0
MAX_WAIT = 15 * 60.0
#: Wrong PINs from every phone together, within WINDOW seconds, before everyone must wait.
TABLE_TRIES = 30
WINDOW = 10 * 60.0


class PinError(ValueError):
    """A PIN that the configuration may not set."""


def check_pin(pin: str) -> str:
    if not (isinstance(pin, str) and pin.isdigit() and pin.isascii() and 4 <= len(pin) <= 12):
        raise PinError("server.host_pin must be 4 to 12 digits")
    return pin


def hashed(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class _Tries:
    wrong: int = 0
    until: float = 0.0  #: no PIN is checked for this client before this moment


@dataclass
class PinGuard:
    """Counts wrong PINs: after ``FREE_TRIES`` from one client it must wait ``FIRST_WAIT`` s,
    doubling with every further wrong PIN; after ``TABLE_TRIES`` from all clients within
    ``WINDOW`` s every client waits (a phone can change its address)."""

    clock: Callable[[], float] = time.monotonic
    _clients: dict[str, _Tries] = field(default_factory=dict)
    _recent: list[float] = field(default_factory=list)
    _all_until: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def wait(self, client: str) -> float:
        """Seconds ``client`` must wait before its next try (0: it may try now)."""
        now = self.clock()
        with self._lock:
            tries = self._clients.get(client)
            return max(0.0, self._all_until - now, (tries.until - now) if tries else 0.0)

    def wrong(self, client: str) -> float:
        """Count a wrong PIN; the seconds the client must now wait."""
        now = self.clock()
        with self._lock:
            tries = self._clients.setdefault(client, _Tries())
            tries.wrong += 1
            if tries.wrong >= FREE_TRIES:
                tries.until = now + min(MAX_WAIT, FIRST_WAIT * 2 ** (tries.wrong - FREE_TRIES))
            self._recent = [t for t in self._recent if now - t < WINDOW] + [now]
            if len(self._recent) >= TABLE_TRIES:
                self._all_until = now + FIRST_WAIT
                self._recent.clear()
        return self.wait(client)

    def right(self, client: str) -> None:
        with self._lock:
            self._clients.pop(client, None)


@dataclass(frozen=True)
class SignIn:
    """What became of a PIN: a session ``token`` (right PIN), or none; ``checked`` is False when
    the client had to wait and the PIN was not even looked at; ``wait``: seconds until the next
    try."""

    token: str | None
    checked: bool
    wait: float


class Access:
    """The host's PIN and sessions and the CSRF secret, kept in the table's store."""

    def __init__(
        self, store: Any, *, pin: str | None = None, clock: Callable[[], float] = time.monotonic
    ):
        self.store = store
        self.configured_pin = check_pin(pin) if pin is not None else None
        secret = store.setting("csrf_secret")
        if secret is None:
            secret = secrets.token_hex(32)
            store.set_setting("csrf_secret", secret)
        self._secret = bytes.fromhex(secret)
        console = store.setting("host_token")
        if console is None:
            console = secrets.token_urlsafe(32)
            store.set_setting("host_token", console)
        #: the console's host link, printed when the companion starts
        self.console_token = console
        display = store.setting("display_key")
        if display is None:
            display = secrets.token_urlsafe(24)
            store.set_setting("display_key", display)
        #: the table display's key: the screen that opened /table/<key> shows the PIN
        self.display_key = display
        self.guard = PinGuard(clock)
        self._hosts_signed_in = bool(store.count_sessions(HOST))

    # -- the PIN ---------------------------------------------------------------------------------

    @property
    def pin(self) -> str:
        """The host's PIN: the configured one, or one made up once and kept."""
        if self.configured_pin is not None:
            return self.configured_pin
        pin = self.store.setting("host_pin")
        if pin is None:
            pin = "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))
            self.store.set_setting("host_pin", pin)
        return pin

    def pin_offered(self) -> bool:
        """Whether the table display shows a made-up PIN (until the first phone signs in);
        reads no storage."""
        return self.configured_pin is None and not self._hosts_signed_in

    def pin_on_display(self) -> str | None:
        """The PIN the table display shows: a made-up PIN, until the first phone signs in."""
        return self.pin if self.pin_offered() else None

    def is_display(self, key: Any) -> bool:
        """Whether ``key`` is the table display's key."""
        return isinstance(key, str) and hmac.compare_digest(
            key.encode("utf-8", "surrogatepass"), self.display_key.encode()
        )

    def new_pin(self) -> str:
        """Replace a made-up PIN (the host may, after showing it to someone)."""
        self.store.drop_setting("host_pin")
        return self.pin

    def sign_in(self, client: str, pin: Any) -> SignIn:
        """A new host session for the right PIN; a wrong one counted (and how long the client
        must now wait); while it must wait, no PIN is even checked."""
        wait = self.guard.wait(client)
        if wait > 0:
            return SignIn(None, checked=False, wait=wait)
        if not isinstance(pin, str) or not hmac.compare_digest(
            pin.strip().encode(), self.pin.encode()
        ):
            return SignIn(None, checked=True, wait=self.guard.wrong(client))
        self.guard.right(client)
        token = secrets.token_urlsafe(32)
        self.store.add_session(hashed(token), HOST)
        self._hosts_signed_in = True
        return SignIn(token, checked=True, wait=0.0)

    def is_host(self, token: Any) -> bool:
        if not isinstance(token, str) or not token:
            return False
        if hmac.compare_digest(token.encode("utf-8", "surrogatepass"), self.console_token.encode()):
            return True
        return self.store.session_role(hashed(token)) == HOST

    def sign_out(self, token: str) -> bool:
        """End one host session (the console link cannot be signed out)."""
        dropped = self.store.drop_session(hashed(token))
        self._hosts_signed_in = bool(self.store.count_sessions(HOST))
        return dropped

    # -- seats ------------------------------------------------------------------------------------

    def seat_claim(self, token: str) -> str:
        """The claim of the seat whose token is ``token``: the cookie the phone that claimed the
        seat holds beside its link. It cannot be made from the link without the table's secret,
        and a seat handed over (a new token) has a new one."""
        return hmac.new(
            self._secret, f"claim/{token}".encode("utf-8", "surrogatepass"), hashlib.sha256
        ).hexdigest()

    def claim_ok(self, token: str, given: Any) -> bool:
        return isinstance(given, str) and hmac.compare_digest(
            given.encode("utf-8", "surrogatepass"), self.seat_claim(token).encode()
        )

    # -- CSRF ------------------------------------------------------------------------------------

    def csrf(self, scope: str) -> str:
        """The CSRF token of a page: ``scope`` names it (``host:<token>``, ``player:<token>``,
        ``join:<code>``, ``visitor:<id>``)."""
        return hmac.new(
            self._secret, f"csrf/{scope}".encode("utf-8", "surrogatepass"), hashlib.sha256
        ).hexdigest()[:40]

    def csrf_ok(self, scope: str, given: Any) -> bool:
        return isinstance(given, str) and hmac.compare_digest(
            given.encode("utf-8", "surrogatepass"), self.csrf(scope).encode()
        )
