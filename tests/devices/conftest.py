"""Fixtures for the device tests: an event collector and a leak check."""

from __future__ import annotations

import os
import queue
from collections.abc import Callable, Iterator

import pytest

from companion.devices.events import DeviceEvent

WAIT = 3.0  # seconds to wait for an event that should come


class Events:
    """Collects emitted events; every wait has a timeout."""

    def __init__(self) -> None:
        self.queue: queue.Queue[DeviceEvent] = queue.Queue()

    def emit(self, event: DeviceEvent) -> None:
        self.queue.put(event)

    def get(self, timeout: float = WAIT) -> DeviceEvent:
        """The next event; fails the test if none comes within ``timeout``."""
        try:
            return self.queue.get(timeout=timeout)
        except queue.Empty:
            pytest.fail(f"no event within {timeout} s")

    def until(
        self, predicate: Callable[[DeviceEvent], bool], timeout: float = WAIT
    ) -> tuple[list[DeviceEvent], DeviceEvent]:
        """Events up to the first matching ``predicate``: (those before, the match)."""
        before = []
        while not predicate(event := self.get(timeout)):
            before.append(event)
        return before, event

    def pending(self) -> list[DeviceEvent]:
        """Whatever is queued now, without waiting."""
        events = []
        while True:
            try:
                events.append(self.queue.get_nowait())
            except queue.Empty:
                return events


@pytest.fixture
def events() -> Events:
    return Events()


@pytest.fixture
def make_events() -> type[Events]:
    """For tests that need more than one collector."""
    return Events


def _open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


@pytest.fixture
def no_leaked_fds() -> Iterator[None]:
    """Fail if the test leaves file descriptors open (Linux only)."""
    if not os.path.isdir("/proc/self/fd"):
        yield
        return
    before = _open_fds()
    yield
    leaked = _open_fds() - before
    assert not leaked, f"file descriptors left open: {sorted(leaked)}"
