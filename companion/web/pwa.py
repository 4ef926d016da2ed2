"""The phone pages as an installable app that copes with the table's network dropping (a
Progressive Web App): the web app manifest, the service worker at the site's root, and the page the
worker shows when the table cannot be reached.

The worker (``static/sw.js``) keeps only the public shell on the phone: the files :data:`SHELL`
names, the manifest and the offline page, under a cache named by :func:`shell_version`, a hash of
those files, the worker and the offline page's templates. Any change to them is a new worker, which
replaces the old cache. Private pages, the API and the streams are never stored (see ``sw.js``).
The icons are drawn by :mod:`companion.web.icons`.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from flask import Blueprint, current_app, render_template, send_from_directory, url_for

bp = Blueprint("pwa", __name__)

MANIFEST = "manifest.webmanifest"
WORKER = "sw.js"
# The static files every page needs, as globs under static/: precached by the worker.
SHELL = ("app.css", "icon.svg", MANIFEST, "js/*.js", "js/games/*.js", "icons/*.png")
# The templates the offline page is rendered from: they are part of the version too.
OFFLINE_TEMPLATES = ("base.html", "offline.html")
VERSION_MARK = "__VERSION__"
PRECACHE_MARK = "/*PRECACHE*/"


def shell_files(static: Path) -> list[Path]:
    """The shell's files under ``static``, in a stable order."""
    files: list[Path] = []
    for pattern in SHELL:
        files += sorted(p for p in static.glob(pattern) if p.is_file())
    return files


def shell_version(static: Path, templates: Path) -> str:
    """A short hash of everything the worker stores or is: it changes when any of them does."""
    digest = hashlib.sha256()
    named = [
        (f"static/{p.relative_to(static).as_posix()}", p)
        for p in [*shell_files(static), static / WORKER]
    ]
    named += [(f"templates/{name}", templates / name) for name in OFFLINE_TEMPLATES]
    for name, path in named:
        data = path.read_bytes()
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()[:16]


def _folders() -> tuple[Path, Path]:
    app = current_app
    return Path(app.static_folder or ""), Path(app.root_path, app.template_folder or "")


def precache_urls() -> list[str]:
    """What the worker stores at install: the offline page, the manifest (at its own address) and
    the shell's static files."""
    static, _ = _folders()
    urls = [url_for("pwa.offline"), url_for("pwa.manifest")]
    urls += [
        url_for("static", filename=p.relative_to(static).as_posix())
        for p in shell_files(static)
        if p.name != MANIFEST
    ]
    return urls


@bp.get("/sw.js")
def worker():
    static, templates = _folders()
    source = (static / WORKER).read_text(encoding="utf-8")
    if VERSION_MARK not in source or PRECACHE_MARK not in source:
        raise RuntimeError(f"{WORKER} has lost its {VERSION_MARK} or {PRECACHE_MARK} mark")
    urls = ", ".join(json.dumps(u) for u in precache_urls())
    source = source.replace(VERSION_MARK, shell_version(static, templates), 1)
    source = source.replace(PRECACHE_MARK, urls, 1)
    response = current_app.response_class(source, mimetype="text/javascript")
    # no-cache: the browser asks for it again on every check, so a new release is seen at once
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/manifest.webmanifest")
def manifest():
    static, _ = _folders()
    response = send_from_directory(static, MANIFEST, mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline")
def offline():
    """What the worker shows in place of a page when the table cannot be reached. It is stored on
    the phone, so it is the same for everyone: no CSRF token, nothing about the game."""
    return render_template("offline.html", csrf_token="")
