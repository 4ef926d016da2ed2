"""A game's page module: ``GET /games/<game>/static/<path>`` serves the files of the game's
plug-in's static folder (``page.js``, the modules beside it, ``page.css``), which the generic
pages import by the game's id (``docs/pages.md``).

They are public, like ``/static``, and cached the same way; the web reaches a game only through
the table (:meth:`game_plugin`). An unknown game, a game without a page, a missing file or a path
that climbs out of the folder: 404.
"""

from __future__ import annotations

from flask import Blueprint, abort, send_from_directory

from ..rules import SetupError
from .common import table

bp = Blueprint("game_static", __name__)


@bp.get("/games/<game>/static/<path:filename>")
def page_module(game: str, filename: str):
    try:
        folder = table().game_plugin(game).static_folder
    except SetupError:
        abort(404)
    if folder is None or not folder.is_dir():
        abort(404)
    return send_from_directory(folder, filename)  # 404 for a missing file or one outside
