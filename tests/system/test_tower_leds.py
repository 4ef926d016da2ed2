"""The tower's LED ring over 16 turns of Dork Tower, with a SIGKILL and a restart in the middle.

A real ``companion run`` process plays three heroes who end every turn in their home city; turns
are ended by the phone, the seat button and the tower's own sticker in rotation. After every turn
the ring's steady frame must be the tower geometry of the data file (read here straight from
``tower.json``, not through the rules core): each wedge's pixels lit as the wall that faces it,
sun or moon, and the door's pixel white. Halfway the process is killed with SIGKILL; the frame
after the restart is right at once, and the turns go on from where they were.
"""

from __future__ import annotations

import json
import time
from urllib.parse import urlsplit

import pytest
from support import get, join_all, post
from test_crash import Process

from companion.games.dorktower.lights import MOON, SUN
from companion.games.dorktower.rules.data import example_directory
from companion.lights import WHITE

PLAYERS = ["Ann", "Bo", "Cy"]
HEROES = {
    "Ann": {"character": "topdeck", "home": "rv-city"},
    "Bo": {"character": "lumpin", "home": "th-city"},
    "Cy": {"character": "grimnir", "home": "cd-city"},
}
BRIGHTNESS = 0.5  # the default configuration's
PIXELS = 16  # the default ring
TURNS = 16
KILL_AFTER = 7


def _hex(pixel) -> str:
    r, g, b = (round(v * BRIGHTNESS) for v in pixel)
    return f"#{r:02x}{g:02x}{b:02x}"


def expected_ring(step: int) -> list[str]:
    """The steady ring after ``step`` turns, from the data file alone (DT-AMB-1's reading:
    walls clockwise; at setup the door wall faces ``door_faces``; a step turns one wedge)."""
    tower = json.loads((example_directory() / "tower.json").read_text(encoding="utf-8"))
    wedges, walls, door_wall = tower["wedges"], tower["walls"], tower["door_wall"]
    door0 = wedges.index(tower["door_faces"])
    per = PIXELS // len(wedges)
    ring = []
    for j in range(len(wedges)):
        wall = (j - door0 - step + door_wall) % len(walls)
        ring += [_hex(SUN if walls[wall] == "sun" else MOON)] * per
    door = (door0 + step) % len(wedges)
    ring[door * per + per // 2] = _hex(WHITE)
    return ring


def steady_ring(proc: Process, step: int) -> list[str]:
    """The ring once the turn's animation (under a second) is over."""
    deadline = time.monotonic() + 5
    while True:
        view = get(f"{proc.base}/api/table")["view"]
        if view["tower"]["step"] == step % 8:  # the tower's position, 0..7 (DT-TIME-2)
            break
        assert time.monotonic() < deadline, f"the tower did not reach step {step}"
        time.sleep(0.05)
    time.sleep(0.85)
    return get(f"{proc.host}/sim/leds")["tower"]


def end_turn(proc: Process, links: dict[str, str], turn: int, active: str) -> None:
    """The phone, the seat button, then the tower's sticker, in rotation."""
    how = turn % 3
    if how == 0:
        status, answer = post(f"{links[active]}/api/action", {"type": "end_turn"})
    elif how == 1:
        status, answer = post(f"{proc.host}/sim/press", {"seat": PLAYERS.index(active)})
    else:
        status, answer = post(f"{proc.host}/sim/turn_tower")
    assert status == 200, answer
    outcomes = answer.get("outcomes", [answer])
    assert any(o.get("ok") for o in outcomes), answer


@pytest.mark.slow
def test_the_ring_follows_the_tower_for_16_turns_across_a_sigkill(tmp_path):
    """DT-TIME-1, DT-TIME-2, DT-TOWER-1, DT-EX-3: the ring shows day and night as the walls face
    each wedge, the door marked, one step clockwise per turn, and is right after a restart."""
    data = tmp_path / "data"
    proc = Process(data)
    try:
        status, answer = post(
            f"{proc.host}/api/new_game",
            {
                "confirm": True,
                "game": "dorktower",
                "players": PLAYERS,
                "seed": 5,
                "options": {"scenario": {"heroes": HEROES}},
            },
        )
        assert status == 200, answer
        links = join_all(proc.host)
        assert steady_ring(proc, 0) == expected_ring(0)
        for turn in range(TURNS):
            active = get(f"{proc.base}/api/table")["view"]["active"]
            assert active == PLAYERS[turn % 3]
            end_turn(proc, links, turn, active)
            step = turn + 1
            ring = steady_ring(proc, step)
            assert ring == expected_ring(step), f"after turn {step}"
            if step == KILL_AFTER:
                proc.kill()
                proc = Process(data)
                # the seats' tokens survive: the same pages, at the new process's address
                links = {p: proc.base + urlsplit(url).path for p, url in links.items()}
                view = get(f"{proc.base}/api/table")["view"]
                assert view["tower"]["step"] == step % 8
                # no animation is replayed after a restart: the first frame is the steady one
                assert get(f"{proc.host}/sim/leds")["tower"] == expected_ring(step)
        assert expected_ring(TURNS) == expected_ring(TURNS - 8) == expected_ring(0)
    finally:
        proc.kill()
