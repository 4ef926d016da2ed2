"""Dice end to end: a roll made on the simulated reader (the real firmware logic behind a pty, the
real host driver) reaches the rules, the LEDs and every phone; rolls nobody asked for, crooked dice
and dice set down by hand change nothing and say why; without a reader the roller's phone rolls."""

from __future__ import annotations

import time

import pytest
from support import SSE, get, post, wait_until

from companion.games.abracadawhat.lights import LOSS_FLASH

PLAYERS = ["Elena", "Denise", "Marta"]


def referee(server):
    return server.table.referee_view()


@pytest.fixture
def dragon(server):
    """Elena has cast the Ancient Dragon; the table waits for her roll."""
    return server.dragon_roll(PLAYERS, "Elena")


def life_pixels(server, seat: int) -> int:
    layout = server.table.layout
    frame = server.companion.devices.strips["table"].latest().pixels
    base = seat * layout.seat_pixels + 1
    return sum(1 for p in frame[base : base + layout.life_pixels] if p != (0, 0, 0))


def snapshot_after(stream: SSE, predicate, timeout: float = 5.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        snap = stream.snapshot()
        if predicate(snap):
            return snap
    raise AssertionError("no such snapshot")


def test_a_dragon_roll_on_the_simulated_reader_changes_life_on_leds_and_phones(server, dragon):
    """ABR-SPELL-1 through the dice reader: one roll, applied to every other player."""
    assert server.companion.devices.dice.profile(0) == ("d6", None)  # the table asked for a d6
    streams = {p: SSE(f"{dragon[p]}/stream") for p in PLAYERS}
    try:
        before = {p: s.snapshot() for p, s in streams.items()}
        life = {p: before["Elena"]["view"]["players"][p]["life"] for p in PLAYERS}
        assert before["Elena"]["dice"]["awaited"]["player"] == "Elena"
        assert before["Elena"]["dice"]["reader"] is True
        assert not before["Elena"]["dice"]["virtual"]  # a reader is connected: roll the real die
        status, answer = post(f"{server.host}/sim/roll", {"face": 3})
        assert answer["ok"], answer
        assert answer["outcomes"][-1]["action"] == {"type": "roll", "value": 3}
        for player, stream in streams.items():
            snap = snapshot_after(stream, lambda s: s["view"]["phase"] != "roll")
            for other in ("Denise", "Marta"):
                assert snap["view"]["players"][other]["life"] == max(life[other] - 3, 0), player
            assert snap["view"]["players"]["Elena"]["life"] == life["Elena"]
            assert snap["dice"]["dice"]["0"]["state"] == "rolled"
    finally:
        for stream in streams.values():
            stream.close()
    time.sleep(LOSS_FLASH + 0.2)  # the lost points flash, then go dark
    server.table._show_leds()
    for seat, player in enumerate(PLAYERS):
        assert life_pixels(server, seat) == referee(server)["players"][player]["life"]
    assert life_pixels(server, 1) == max(life["Denise"] - 3, 0)


def test_a_crooked_die_asks_for_a_re_roll_and_changes_nothing(server, dragon):
    """TABLE-DICE-3: the roller's seat blinks, every phone shows why; the next roll counts."""
    before = referee(server)
    status, answer = post(f"{server.host}/sim/crooked")
    assert answer["outcomes"][-1]["rule"] == "TABLE-DICE-3", answer
    assert referee(server) == before
    snap = get(f"{dragon['Marta']}/api/state")
    assert snap["refusals"][-1]["rule"] == "TABLE-DICE-3"
    assert "roll it again" in snap["refusals"][-1]["reason"]
    assert snap["dice"]["dice"]["0"]["state"] == "crooked"
    assert server.table.cues[-1].kind == "refused" and server.table.cues[-1].seat == 0
    status, answer = post(f"{server.host}/sim/roll", {"face": 2})
    assert answer["ok"] and referee(server)["phase"] != "roll"


def test_a_die_set_down_by_hand_is_not_a_roll(server, dragon):
    """TABLE-DICE-4: turning the die to a 6 by hand does not count."""
    before = referee(server)
    status, answer = post(f"{server.host}/sim/place", {"face": 6})
    assert answer["outcomes"][-1]["rule"] == "TABLE-DICE-4", answer
    assert referee(server) == before


def test_a_roll_nobody_asked_for_is_logged_and_ignored(server, dragon):
    """TABLE-DICE-2."""
    post(f"{server.host}/sim/roll", {"face": 4})  # the awaited roll
    assert referee(server)["phase"] != "roll"
    before = referee(server)
    status, answer = post(f"{server.host}/sim/roll", {"face": 5})
    assert answer["outcomes"][-1]["rule"] == "TABLE-DICE-2"
    assert referee(server) == before
    assert server.table.store.refusals()[-1]["rule"] == "TABLE-DICE-2"


def test_corrupt_lines_never_become_a_roll(server, dragon):
    """Garbage and a roll whose line was corrupted on the wire: noise, and still waiting."""
    status, answer = post(f"{server.host}/sim/dice_noise")
    assert referee(server)["phase"] == "roll"
    assert all(o.get("rule") != "ABR-SPELL-1" for o in answer["outcomes"])
    assert any(o.get("rule") == "TABLE-DICE-1" for o in answer["outcomes"])


def test_a_sim_face_the_die_does_not_have_is_a_clear_400(server, dragon):
    status, answer = post(f"{server.host}/sim/roll", {"face": 9})
    assert status == 400 and "has no face 9" in answer["error"]


def test_without_a_reader_the_roller_rolls_on_the_phone(server, dragon):
    """The game never stalls: the roller's phone offers a virtual roll, nobody else's does."""
    assert post(f"{dragon['Elena']}/api/virtual_roll")[1]["rule"] == "TABLE-DICE-5"
    server.companion.devices.sim_dice.unplug()
    wait_until(lambda: not server.table.dice_connected())
    elena = get(f"{dragon['Elena']}/api/state")
    assert elena["dice"]["virtual"] and not elena["dice"]["reader"]
    assert not get(f"{dragon['Denise']}/api/state")["dice"]["virtual"]
    status, answer = post(f"{dragon['Denise']}/api/virtual_roll")
    assert status == 409 and answer["rule"] == "TABLE-DICE-6"
    before = referee(server)
    status, answer = post(f"{dragon['Elena']}/api/virtual_roll")
    assert status == 200 and answer["ok"], answer
    assert answer["action"]["type"] == "roll" and answer["action"]["value"] in range(1, 7)
    assert referee(server) != before and referee(server)["phase"] != "roll"
    status, answer = post(f"{dragon['Elena']}/api/virtual_roll")
    assert answer["rule"] == "TABLE-DICE-2"  # nothing to roll for now
    server.companion.devices.sim_dice.plug()
    wait_until(server.table.dice_connected, timeout=3)  # back within 2 s of the cable


def test_a_die_the_reader_cannot_read_is_rolled_on_the_phone(server):
    """A custom four-faced die (ABR-AMB-1's die_faces) has no reader profile: even with the
    reader connected, the roller's phone rolls it, fairly, from its own faces."""
    links = server.dragon_roll(PLAYERS, "Elena", {"die_faces": [1, 2, 3, 4]})
    assert server.table.dice_connected()
    elena = get(f"{links['Elena']}/api/state")
    assert elena["dice"]["virtual"] and elena["dice"]["reader"]
    assert elena["dice"]["awaited"]["faces"] == [1, 2, 3, 4]
    status, answer = post(f"{links['Elena']}/api/virtual_roll")
    assert status == 200 and answer["action"]["value"] in (1, 2, 3, 4)
