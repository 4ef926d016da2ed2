"""What Dork Tower's browser tests share: waiting for the public view, and a phone's screenshot
with the map card at its top."""

from __future__ import annotations

from support import wait_until


def until(server, predicate, timeout: float = 10.0):
    """Wait until the public view satisfies ``predicate``; returns that view."""

    def check():
        v = server.table.public_view()
        return v if v is not None and predicate(v) else None

    return wait_until(check, timeout)


def map_shot(page, shots, name: str) -> None:
    """The phone's screen with the map card at its top, the toast put away."""
    page.evaluate("document.getElementById('toast').hidden = true")
    page.locator("#dt-bmap-card").evaluate(
        "n => window.scrollTo(0, n.getBoundingClientRect().top + window.scrollY - 8)"
    )
    shots(page, name, full=False)
