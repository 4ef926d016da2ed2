"""Fixtures shared by the tests: a running companion with simulated devices, and a dealt game."""

from __future__ import annotations

import pytest
from support import Server, post


@pytest.fixture
def server(tmp_path):
    """A companion serving on a free port, its streams' keep-alives quick."""
    s = Server.start(tmp_path)
    s.companion.app.config["SSE_KEEPALIVE"] = 0.3
    yield s
    s.stop()


@pytest.fixture
def game(server):
    """A dealt three-player game of Abracada...What?, Elena to play: the players' pages."""
    links = server.new_game(["Elena", "Denise", "Marta"], seed=7)
    status, answer = post(f"{server.host}/sim/draw_all")
    assert status == 200 and answer["ok"], answer
    return links
