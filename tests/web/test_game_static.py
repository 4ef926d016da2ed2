"""A game's page module, served from its package's static folder at ``/games/<id>/static/``: the
files are there with their types, cached and guarded like ``/static``; an unknown game, a missing
file and a path that climbs out of the folder are 404."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from support import Server, get_bytes

from companion.games import plugin


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server.start(tmp_path_factory.mktemp("game-static"))
    yield s
    s.stop()


fetch = get_bytes


@pytest.mark.parametrize("game", ["abracadawhat", "dorktower"])
def test_a_games_page_module_is_served_from_its_package(server, game):
    folder = plugin(game).static_folder
    status, body, headers = fetch(server, f"/games/{game}/static/page.js")
    assert status == 200
    assert headers["Content-Type"].split(";")[0] in ("text/javascript", "application/javascript")
    assert body == (folder / "page.js").read_bytes()
    status, body, headers = fetch(server, f"/games/{game}/static/page.css")
    assert status == 200 and headers["Content-Type"].split(";")[0] == "text/css"
    assert body == (folder / "page.css").read_bytes()


def test_cached_and_guarded_like_the_shared_static_files(server):
    _, _, shared = fetch(server, "/static/js/common.js")
    status, _, own = fetch(server, "/games/dorktower/static/page.js")
    assert status == 200
    for header in ("Cache-Control", "Content-Security-Policy", "X-Content-Type-Options"):
        assert own.get(header) == shared.get(header), header
    assert own["X-Content-Type-Options"] == "nosniff"
    assert "script-src 'self'" in own["Content-Security-Policy"]
    assert "ETag" in own  # a page loaded again asks whether the module changed


def test_the_modules_beside_page_js_are_served_too(server):
    for module in sorted(plugin("dorktower").static_folder.glob("*.js")):
        status, _, _ = fetch(server, f"/games/dorktower/static/{module.name}")
        assert status == 200, module.name


@pytest.mark.parametrize(
    "path",
    [
        "/games/chess/static/page.js",  # no such game
        "/games/%00/static/page.js",
        "/games/dorktower/static/nothing.js",  # no such file
        "/games/dorktower/static/",
        "/games/dorktower/static/../__init__.py",  # out of the folder
        "/games/dorktower/static/%2e%2e/__init__.py",
        "/games/dorktower/static/..%2f__init__.py",
        "/games/dorktower/static/%2e%2e%2f%2e%2e%2fplugin.py",
        "/games/dorktower/static/%2fetc%2fpasswd",
        "/games/abracadawhat/static/../../dorktower/__init__.py",
    ],
)
def test_an_unknown_game_a_missing_file_or_a_path_out_is_404(server, path):
    status, body, headers = fetch(server, path)
    if status == 308:  # Werkzeug merges the slashes of a path first: the same answer after
        location = urlsplit(headers["Location"]).path
        assert location.startswith("/games/dorktower/static/"), location
        status, body, _ = fetch(server, location)
    assert status == 404, path
    assert b"PLUGIN" not in body and b"root:" not in body
