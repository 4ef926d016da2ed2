"""The phone pages as an installable, offline-capable app: the manifest and its icons, the service
worker and what it may store, the version that replaces an old release's cache, the offline page,
and the home-screen icons, which must be exactly what ``companion.web.icons`` draws."""

from __future__ import annotations

import json
import re
import shutil
import struct
import zlib
from pathlib import Path

import pytest
from support import Server, get_bytes, request

from companion.web import icons, pwa

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "web" / "static"
TEMPLATES = ROOT / "web" / "templates"
PRIVATE = ("/api/", "/p/", "/host/", "/join/")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server.start(tmp_path_factory.mktemp("pwa"))
    yield s
    s.stop()


fetch = get_bytes


def palette(dark: bool = False) -> dict[str, str]:
    """app.css's colours: the light ``:root`` block, or the dark one."""
    css = (STATIC / "app.css").read_text()
    if dark:
        block = css[css.index("@media (prefers-color-scheme: dark)") :]
    else:
        block = css[css.index(":root {") :]
    block = block[: block.index("}")]
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{3,6})\s*;", block))


def read_png(data: bytes) -> tuple[int, int, int, bytes]:
    """(width, height, channels, pixels) of an 8-bit RGB or RGBA PNG; every chunk's CRC checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, chunks = 8, []
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        assert zlib.crc32(kind + body) & 0xFFFFFFFF == crc, f"bad CRC in {kind!r}"
        chunks.append((kind, body))
        pos += 12 + length
    assert chunks[0][0] == b"IHDR" and chunks[-1][0] == b"IEND"
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    assert depth == 8 and colour in (2, 6) and interlace == 0
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    stride = width * channels
    assert len(raw) == height * (stride + 1)
    out, previous = bytearray(), bytearray(stride)
    for y in range(height):
        kind, line = (
            raw[y * (stride + 1)],
            bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)]),
        )
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
            else:
                assert kind == 0, f"filter {kind}"
        out += line
        previous = line
    return width, height, channels, bytes(out)


# -- the manifest ---------------------------------------------------------------------------------


def test_the_manifest_is_served_with_what_an_install_needs(server):
    status, body, headers = fetch(server, "/manifest.webmanifest")
    assert status == 200
    assert headers["Content-Type"].startswith("application/manifest+json")
    assert body == (STATIC / "manifest.webmanifest").read_bytes()
    manifest = json.loads(body)
    assert manifest["name"] == "companion"
    assert manifest["short_name"] and len(manifest["short_name"]) <= 12  # fits under an icon
    assert manifest["description"]
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    colours = palette()
    assert manifest["background_color"] == colours["bg"]
    assert manifest["theme_color"] == colours["card"]  # the header bar's colour


def test_the_manifests_icons_exist_and_are_served(server):
    manifest = json.loads((STATIC / "manifest.webmanifest").read_text())
    seen = set()
    for icon in manifest["icons"]:
        status, body, headers = fetch(server, icon["src"])
        assert status == 200, icon
        assert headers["Content-Type"].startswith(icon["type"]), icon
        seen.add((icon["sizes"], icon["purpose"], icon["type"]))
        if icon["type"] == "image/png":
            width, height, _, _ = read_png(body)
            assert icon["sizes"] == f"{width}x{height}", icon
        else:
            assert icon["src"] == "/static/icon.svg" and b"<svg" in body
    assert seen == {
        ("any", "any", "image/svg+xml"),
        ("192x192", "any", "image/png"),
        ("512x512", "any", "image/png"),
        ("512x512", "maskable", "image/png"),
    }


def test_every_page_links_the_manifest_and_the_home_screen_icon(server):
    for path in ("/table", "/offline"):
        status, body, _ = fetch(server, path)
        assert status == 200
        html = body.decode()
        manifest = re.search(r'<link rel="manifest" href="([^"]+)">', html).group(1)
        assert manifest == "/manifest.webmanifest"
        touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', html).group(1)
        assert fetch(server, touch)[0] == 200
        assert read_png(fetch(server, touch)[1])[:2] == (192, 192)
        themes = {
            m: c
            for c, m in re.findall(
                r'<meta name="theme-color" content="(#[0-9a-f]+)" media="\(prefers-color-scheme: (\w+)\)">',
                html,
            )
        }
        assert themes == {"light": palette()["card"], "dark": palette(dark=True)["card"]}
        assert '<meta name="mobile-web-app-capable" content="yes">' in html
        assert '<meta name="apple-mobile-web-app-capable" content="yes">' in html
        # registered by a file, not inline: the CSP allows scripts from 'self' only
        assert '<script type="module" src="/static/js/pwa.js"></script>' in html
        assert fetch(server, "/static/js/pwa.js")[0] == 200


# -- the service worker ---------------------------------------------------------------------------


def precache_of(source: str) -> list[str]:
    return json.loads(re.search(r"const PRECACHE = (\[.*?\]);", source).group(1))


def test_the_service_worker_is_served_from_the_root_with_its_version(server):
    status, body, headers = fetch(server, "/sw.js")
    assert status == 200
    assert headers["Content-Type"].split(";")[0] in ("text/javascript", "application/javascript")
    assert headers["Cache-Control"] == "no-cache"  # a new release is noticed at once
    source = body.decode()
    app = server.companion.app
    version = pwa.shell_version(Path(app.static_folder), Path(app.root_path, app.template_folder))
    assert re.fullmatch(r"[0-9a-f]{16}", version)
    assert f'const VERSION = "{version}";' in source
    assert pwa.VERSION_MARK not in source and pwa.PRECACHE_MARK not in source


def test_the_precache_names_the_whole_shell_and_only_files_that_are_served(server):
    _, body, _ = fetch(server, "/sw.js")
    urls = precache_of(body.decode())
    assert len(urls) == len(set(urls))
    expected = {"/offline", "/manifest.webmanifest", "/static/app.css", "/static/icon.svg"}
    expected |= {
        f"/static/{p.relative_to(STATIC).as_posix()}"
        for pattern in ("js/*.js", "icons/*.png")
        for p in STATIC.glob(pattern)
    }
    assert set(urls) == expected
    assert "/static/js/pwa.js" in urls and "/static/js/seats.js" in urls
    for url in urls:
        assert not url.startswith(PRIVATE), url
        status, _, _ = fetch(server, url)
        assert status == 200, url
        if url.startswith("/static/"):
            assert (STATIC / url.removeprefix("/static/")).is_file()


def test_the_worker_stores_nothing_private():
    """The worker's own rules: only GETs, never the API, the private pages, join codes or
    streams. The browser test checks what it really stores."""
    source = (STATIC / "sw.js").read_text()
    listed = json.loads(re.search(r"const PRIVATE = (\[.*?\]);", source).group(1))
    assert set(listed) == set(PRIVATE)
    assert 'if (request.method !== "GET") return;' in source
    assert "text/event-stream" in source
    # the only writes to the cache: the precache at install, and public files under /static/
    assert source.count("cache.put(") == 1 and source.count("cache.addAll(") == 1
    assert 'pathname.startsWith("/static/")) {\n      event.waitUntil(cache.put(' in source
    assert "caches.delete(" in source  # old releases' caches go on activate


def copy_assets(tmp_path: Path) -> tuple[Path, Path]:
    static, templates = tmp_path / "static", tmp_path / "templates"
    shutil.copytree(STATIC, static)
    shutil.copytree(TEMPLATES, templates)
    return static, templates


def test_the_version_changes_when_any_shell_file_changes(tmp_path):
    static, templates = copy_assets(tmp_path)
    first = pwa.shell_version(static, templates)
    assert pwa.shell_version(static, templates) == first  # the same files, the same version
    assert first == pwa.shell_version(STATIC, TEMPLATES)
    for changed in (
        static / "app.css",
        static / "js" / "common.js",
        static / "js" / "seats.js",
        static / "icons" / "icon-192.png",
        static / "manifest.webmanifest",
        static / "sw.js",
        templates / "offline.html",
        templates / "base.html",
    ):
        before = changed.read_bytes()
        changed.write_bytes(before + b"\n")
        assert pwa.shell_version(static, templates) != first, changed
        changed.write_bytes(before)
        assert pwa.shell_version(static, templates) == first, changed
    (static / "js" / "new.js").write_text("export const x = 1;\n")
    assert pwa.shell_version(static, templates) != first  # a new module is part of the shell
    (static / "js" / "new.js").unlink()
    (static / "notes.txt").write_text("not part of the shell")
    (templates / "player.html").write_text("not what the offline page is made of")
    assert pwa.shell_version(static, templates) == first


def test_a_new_release_is_a_new_worker(tmp_path):
    """Served: an asset changed on disk changes the worker's cache name, and so the browser
    installs the new worker, which replaces the old cache."""
    static, _ = copy_assets(tmp_path / "assets")
    s = Server.start(tmp_path / "data")
    try:
        s.companion.app.static_folder = str(static)
        status, before, _ = request(f"{s.base}/sw.js")
        assert status == 200
        (static / "app.css").write_text((static / "app.css").read_text() + "\n.new { }\n")
        status, after, _ = request(f"{s.base}/sw.js")
        assert status == 200
        version = re.compile(r'const VERSION = "([0-9a-f]+)";')
        assert version.search(before).group(1) != version.search(after).group(1)
        assert precache_of(before) == precache_of(after)
    finally:
        s.stop()


# -- the offline page -----------------------------------------------------------------------------


def test_the_offline_page_says_what_is_going_on(server):
    status, body, headers = fetch(server, "/offline")
    assert status == 200
    assert headers["Content-Type"].startswith("text/html")
    html = body.decode()
    assert "The table cannot be reached." in html
    assert "reconnects by itself" in html
    assert '<body class="offline">' in html
    # it is stored on every phone: the same for everyone, with no CSRF token in it
    assert '<meta name="csrf-token" content="">' in html
    status, again, _ = fetch(server, "/offline")
    assert again == body


# -- the icons ------------------------------------------------------------------------------------


def test_the_checked_in_icons_are_what_the_script_draws(tmp_path):
    """``python -m companion.web.icons`` draws exactly the PNGs in web/static/icons/ (compared
    pixel by pixel: zlib's bytes may differ between versions), so they cannot drift apart."""
    assert icons.main(["--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(icons.ICONS)
    assert sorted(p.name for p in (STATIC / "icons").iterdir()) == sorted(icons.ICONS)
    for name, (size, maskable) in icons.ICONS.items():
        drawn = read_png((tmp_path / name).read_bytes())
        checked_in = read_png((STATIC / "icons" / name).read_bytes())
        assert checked_in[:3] == (size, size, 3 if maskable else 4), name
        assert drawn == checked_in, f"{name} differs: run python -m companion.web.icons"


def test_the_icons_look_like_the_svg():
    """The plain icon is a rounded square (transparent corners) with the light card in the
    middle; the maskable one is opaque to the edge, with every part of the artwork inside the
    safe zone (a circle of 40% of the size around the centre)."""
    size = 192
    channels, pixels = icons.render(size)
    assert channels == 4

    def at(x, y):
        i = (y * size + x) * 4
        return tuple(pixels[i : i + 4])

    assert at(0, 0)[3] == 0 and at(size - 1, size - 1)[3] == 0  # rounded corners
    assert at(size // 2, 4) == (*icons.BACKGROUND, 255)
    assert at(int(size * 0.3), int(size * 0.7)) == (*icons.CARD, 255)  # the card, beside the "?"
    assert at(size // 2, int(size * 0.68)) == (*icons.INK, 255)  # the question mark's dot

    size = 512
    channels, pixels = icons.render(size, maskable=True)
    assert channels == 3
    centre, radius = size / 2, icons.SAFE_ZONE * size
    art = 0
    for y in range(size):
        for x in range(size):
            i = (y * size + x) * 3
            if tuple(pixels[i : i + 3]) != icons.BACKGROUND:
                art += 1
                assert (x + 0.5 - centre) ** 2 + (y + 0.5 - centre) ** 2 <= radius**2, (x, y)
    assert art > size * size // 5  # and the card is not lost in the middle
