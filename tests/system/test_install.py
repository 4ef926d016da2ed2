"""``pip install .`` gives a working install: the wheel carries the web assets, the ``companion``
command and ``python -m companion`` both work, and the installed package serves its pages."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(out),
            str(ROOT),
        ],
        check=True,
    )
    (built,) = out.glob("companion-*.whl")
    return built


def test_the_wheel_carries_every_web_asset(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for path in (ROOT / "web").rglob("*"):
        if path.is_file():
            inside = "companion/web/assets/" + path.relative_to(ROOT / "web").as_posix()
            assert inside in names, inside
    assert "companion/pinmap.toml" in names  # the pin map the configuration's defaults come from
    games = ROOT / "companion" / "games"
    for path in games.rglob("*"):  # each game's package: rules, data sets, page, catalogs
        if path.is_file() and "__pycache__" not in path.parts:
            inside = path.relative_to(ROOT).as_posix()
            assert inside in names, inside
    assert "companion/games/dorktower/data/example/map.json" in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "companion = companion.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_the_installed_package_serves_its_pages(wheel, tmp_path):
    site = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--target",
            str(site),
            str(wheel),
        ],
        check=True,
    )
    probe = (
        "import companion, companion.web as w\n"
        "from companion.table.store import Store\n"
        "from companion.table.runtime import Table\n"
        "print(companion.__file__)\n"
        "print(w.assets_dir())\n"
        f"t = Table(Store({str(tmp_path / 'db')!r}))\n"
        "app = w.create_app(t)\n"
        "c = app.test_client()\n"
        "print(c.get('/table').status_code, c.get('/static/js/table.js').status_code)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(site))
    done = subprocess.run(
        [sys.executable, "-c", probe],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    module, assets, statuses = done.stdout.splitlines()
    assert module.startswith(str(site))
    assert assets.startswith(str(site)) and assets.endswith("assets")
    assert statuses == "200 200"


def test_python_dash_m_and_the_console_script(tmp_path):
    for command in (
        [sys.executable, "-m", "companion", "--help"],
        [str(Path(sys.executable).parent / "companion"), "--help"],
    ):
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        assert "replay" in done.stdout and "run" in done.stdout


def test_companion_replay_reports_a_bad_file_clearly(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": "chess", "players": ["A", "B"]}\n')
    done = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(bad)], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "no game called 'chess'" in done.stderr and "line 1" in done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(tmp_path / "none")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and "cannot read" in done.stderr


def test_tags_export_and_import_from_the_command_line(tmp_path):
    data = tmp_path / "data"
    tags = tmp_path / "tags.json"
    tags.write_text(
        '{"format": "companion-tags/1", "tags": [{"uid": "04A1B2C3D4E5F6", '
        '"game": "abracadawhat", "component": "stone 5"}]}'
    )
    run = [sys.executable, "-m", "companion", "tags"]
    subprocess.run(
        run + ["import", str(tags), "--data", str(data)], check=True, capture_output=True
    )
    done = subprocess.run(
        run + ["export", "-", "--data", str(data)], check=True, capture_output=True, text=True
    )
    assert '"uid": "04A1B2C3D4E5F6"' in done.stdout and "stone 5" in done.stdout
    tags.write_text("{}")
    done = subprocess.run(
        run + ["import", str(tags), "--data", str(data)], capture_output=True, text=True
    )
    assert done.returncode == 2 and "not a tag file" in done.stderr
