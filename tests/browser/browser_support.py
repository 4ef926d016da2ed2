"""What the browser tests share besides their fixtures."""

from __future__ import annotations

from urllib.parse import urlsplit

from support import claim_cookie


def hold_claim(context, url: str) -> None:
    """If ``url`` is a seat this test claimed over HTTP (``support.claim``), the phone of
    ``context`` is the one that claimed it: it gets the seat's claim cookie."""
    parts = urlsplit(url)
    claimed = claim_cookie(parts.path)
    if claimed is not None:
        name, _, value = claimed.partition("=")
        seat = "/".join(parts.path.split("/")[:3])  # /p/<token>
        context.add_cookies(
            [{"name": name, "value": value, "domain": parts.hostname, "path": seat}]
        )
