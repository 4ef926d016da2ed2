"""What an undo asks to put back, at the running table with the simulated devices: the checklist
every snapshot carries alike, the taps that confirm its steps (a confirmation, never a game
action), any other tap as usual, a new action or the host replacing the list, the LEDs' pulse,
and the simulated hands that put the pieces back (``SimulatedTable.put_back``)."""

from __future__ import annotations

import pytest
from support import Server, post

from companion.i18n import t
from companion.lights import PUT_BACK_HZ, PUT_BACK_LOW, WHITE, scale
from companion.rules import HOST, TABLE
from companion.rules.putting_back import Confirm, Place, Step, Thing

STONE = Thing("stone")

PLAYERS = ["Elena", "Denise", "Marta"]


@pytest.fixture
def server(tmp_path):
    server = Server.start(tmp_path)
    yield server
    server.stop()


def removed_and_undone(server: Server, removal: str = "tap") -> tuple[dict, str, int]:
    """A dealt game in which the active player cast a stone of their rack, the right neighbour
    removed it (tapped, with ``removal`` "tap"), and the host undid the removal (or the cast);
    the players' links, the caster and the stone."""
    for seed in range(1, 60):
        links = server.new_game(PLAYERS, {"removal": removal}, seed=seed)
        assert post(f"{server.host}/sim/draw_all")[1]["ok"]
        view = server.table.referee_view()
        caster = view["active"]
        rack = [n for n in view["players"][caster]["rack"] if n not in (1, 3, 4)]  # no die
        if view["phase"] != "declare" or not rack:
            continue
        stone = max(rack)
        status, answer = post(f"{links[caster]}/api/action", {"type": "cast", "spell": stone})
        assert status == 200 and answer["ok"], answer
        if removal == "tap":
            assert post(f"{server.host}/sim/remove")[1]["ok"]
        if server.table.referee_view()["phase"] == "deal":  # the round ended: another seed
            continue
        assert post(f"{server.host}/api/undo")[1]["ok"]
        return links, caster, stone
    raise AssertionError("no seed gives a plain cast")


def test_a_confirming_tap_ticks_the_step_off_and_is_no_action(server):
    """After undoing a tapped removal the table waits for the stone on the caster's rack: the
    table would take a tap of that stone as the removal again, but while the step waits the tap
    confirms it (journaled as a confirmation, no entry in the log, the state unchanged). The
    simulated hands move the pieces as the steps say: the table is as the game says again."""
    links, caster, stone = removed_and_undone(server)
    table = server.table
    listed = table.snapshot(TABLE)["put_back"]
    assert [s["text"] for s in listed["steps"]] == [
        f"Put the {stone} from the board back on {caster}'s rack."
    ]
    assert listed["steps"][0]["confirm"] == {"component": f"stone {stone}", "seat": None}
    assert listed["steps"][0]["done"] is False
    for viewer in (HOST, *PLAYERS):  # alike for every viewer
        assert table.snapshot(viewer)["put_back"] == listed
    count, state = table.history.count, table.history.state
    placement = table.history.game.placement(state)
    assert server.companion.sim.layout() != placement  # the stone still lies on the board
    outcomes = server.companion.sim.put_back()
    assert [(o["ok"], o.get("confirmed")) for o in outcomes] == [(True, 1)]
    assert "action" not in outcomes[0]
    assert table.history.count == count and table.history.state is state
    assert table.snapshot(TABLE)["put_back"]["steps"][0]["done"] is True
    assert table.snapshot(TABLE)["events"][-1]["text"] == (
        f"Put back: Put the {stone} from the board back on {caster}'s rack."
    )
    assert server.companion.sim.layout() == placement
    assert table.referee_view()["phase"] == "remove"  # still waiting for the removal
    assert post(f"{server.host}/sim/remove")[1]["ok"]  # now the same tap is the removal
    assert table.history.count == count + 1
    assert table.snapshot(TABLE)["put_back"] is None


def test_a_tap_that_confirms_nothing_is_ordinary_input(server):
    """A stone of another number tapped while the step waits is what it always is: here a
    removal of the wrong stone, refused under ABR-CAST-4; the step still waits."""
    links, caster, stone = removed_and_undone(server)
    hands = server.companion.sim.hands("abracadawhat")
    other = next(n for n in range(1, 9) if n != stone)
    outcomes = server.companion.sim.tap(hands.sticker_for(f"stone {other}"))
    assert [(o["ok"], o.get("rule")) for o in outcomes] == [(False, "ABR-CAST-4")]
    assert server.table.snapshot(TABLE)["put_back"]["steps"][0]["done"] is False


def test_a_new_action_replaces_the_list_and_says_what_was_left(server):
    """With removal "auto", undoing the cast asks for the stone back; the caster casting again
    replaces the list, and an event says what was left unconfirmed."""
    links, caster, stone = removed_and_undone(server, removal="auto")
    table = server.table
    assert len(table.snapshot(TABLE)["put_back"]["steps"]) == 1
    status, answer = post(f"{links[caster]}/api/action", {"type": "cast", "spell": stone})
    assert status == 200 and answer["ok"], answer
    assert answer["seen"][0]["type"] == "declared"  # the phone hears what its cast caused
    snap = table.snapshot(TABLE)
    assert snap["put_back"] is None
    assert snap["events"][-answer["events"] - 1]["type"] == "put_back_left"
    left = [e for e in snap["events"] if e["type"] == "put_back_left"]
    assert [e["text"] for e in left] == [
        f"Left unconfirmed: Put the {stone} from the board back on {caster}'s rack."
    ]


def test_the_host_dismisses_the_list(server):
    """The host's dismissal sets the list aside (answered with how many steps it held); a
    second one has nothing left to dismiss and changes nothing."""
    removed_and_undone(server)
    version = server.table.version
    status, answer = post(f"{server.host}/api/put_back/dismiss")
    assert status == 200 and answer == {"ok": True, "dismissed": 1}
    snap = server.table.snapshot(TABLE)
    assert snap["put_back"] is None and snap["events"][-1]["type"] == "put_back_dismissed"
    assert server.table.version > version
    version = server.table.version
    assert post(f"{server.host}/api/put_back/dismiss")[1] == {"ok": True, "dismissed": 0}
    assert server.table.version == version


def test_the_leds_pulse_at_the_seat_with_a_step_until_it_is_confirmed(server):
    """The status light of the seat the stone goes back to pulses white: dimmest at t = 0, full
    half a period later; once the tap confirms the step, the light is the game's again."""
    links, caster, stone = removed_and_undone(server)
    table = server.table
    seat = PLAYERS.index(caster)
    pixel = seat * table.layout.seat_pixels
    dim = scale(scale(WHITE, PUT_BACK_LOW), table.brightness)
    assert table.put_back_seats() == frozenset({seat})
    assert table.frames(0.0)["table"][pixel] == dim
    assert table.frames(0.5 / PUT_BACK_HZ)["table"][pixel] == scale(WHITE, table.brightness)
    others = [s * table.layout.seat_pixels for s in range(len(PLAYERS)) if s != seat]
    assert all(table.frames(0.0)["table"][p] != dim for p in others)
    server.companion.sim.put_back()
    assert table.put_back_seats() == frozenset()
    assert table.frames(0.0)["table"][pixel] != dim


def test_a_step_confirmed_at_a_seat_waits_for_that_seats_reader(tmp_path):
    """A step whose tap belongs at Denise's own reader (``Confirm(seat="Denise")``) is not
    confirmed by the same sticker on the board's reader (that tap is ordinary input), only on
    Denise's (seat 2); a step on the board pulses every seated player's status light."""
    readers = tuple((f"seat{n}", f"/dev/ttyUSB{n}") for n in (1, 2, 3))
    server = Server.start(tmp_path, nfc_readers=readers)
    try:
        server.new_game(PLAYERS, seed=3)
        assert post(f"{server.host}/sim/draw_all")[1]["ok"]
        table, sim = server.table, server.companion.sim
        at_seat = Step(
            Thing("stone", "8"),
            Place("board"),
            Place("reserve"),
            t("Put the 8 back."),
            confirm=Confirm("stone 8", "Denise"),
        )
        on_board = Step(STONE, Place("reserve"), Place("board"), t("Lay a stone on the board."))
        with table._lock:
            table.put_back_list = {
                "game": table.record.id,
                "undo": table.history.count,
                "undone": "Undone: a test.",
                "steps": [
                    step.to_json() | {"n": n, "done": False}
                    for n, step in enumerate([at_seat, on_board], start=1)
                ],
                "more": 0,
            }
            table._bump()
        assert table.put_back_seats() == frozenset({1, None})
        dim = scale(scale(WHITE, PUT_BACK_LOW), table.brightness)
        status = [s * table.layout.seat_pixels for s in range(len(PLAYERS))]
        assert [table.frames(0.0)["table"][p] for p in status] == [dim] * 3
        uid = sim.hands("abracadawhat").sticker_for("stone 8")
        assert all("confirmed" not in o for o in sim.tap(uid, reader="board"))
        assert [o.get("confirmed") for o in sim.tap(uid, reader="seat2")] == [1]
        assert [s["done"] for s in table.snapshot(TABLE)["put_back"]["steps"]] == [True, False]
    finally:
        server.stop()
