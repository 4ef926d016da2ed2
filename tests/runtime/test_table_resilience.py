"""The table under pressure: a flooding device, a request nobody waits for any more, a full or
failing disk. Whatever happens, an answer is the truth, nothing is applied after an error, one
source cannot delay another, and memory stays bounded."""

from __future__ import annotations

import json
import threading

import pytest
from support import wait_until

from companion.devices.events import DeviceNoise, DieState, TagTapped
from companion.games.abracadawhat.sim import stone_tags
from companion.lights import STORAGE_RED, Layout
from companion.rules import HOST, TABLE
from companion.table.inbox import DEVICE_BACKLOG, REQUEST_BACKLOG
from companion.table.runtime import BUSY, CANNOT_RECORD, HOUSEKEEPING, Table
from companion.table.store import Store

PLAYERS = ["Elena", "Denise", "Marta"]


@pytest.fixture
def table(tmp_path):
    store = Store(tmp_path / "t.db")
    table = Table(store, layout=Layout(seats=5))
    box = stone_tags(1)
    table.tags.import_(
        {
            "format": "companion-tags/1",
            "tags": [
                {"uid": uid, "game": "abracadawhat", "component": f"stone {n}"}
                for uid, n in box.items()
            ],
        }
    )
    table.box = box
    table.start()
    yield table
    table.close()
    store.close()


def start(table: Table) -> None:
    assert table.call("new_game", "host", game="abracadawhat", players=PLAYERS, seed=3)["ok"]


def hold_the_loop(table: Table) -> threading.Event:
    """Make the loop wait inside a request until the returned event is set."""
    gate = threading.Event()
    table._op_sync = lambda source: (gate.wait(10), {"ok": True})[1]
    table.submit("sync", "test")
    wait_until(lambda: table.inbox.pending() == 0)
    return gate


def test_a_request_nobody_waits_for_any_more_is_never_applied(table):
    start(table)
    gate = hold_the_loop(table)
    answer = table.call("pause", "host", timeout=0.2)  # the loop is busy: the caller gives up
    assert answer["ok"] is False and answer["rule"] == BUSY
    gate.set()
    table.sync()
    assert table.paused is False  # cancelled before the loop began it: never applied
    assert table.call("pause", "host")["ok"] and table.paused


def test_a_request_begun_is_waited_for_until_it_is_done(table):
    """A caller that times out while the loop is already handling its request gets the real
    answer, not an error followed by the request landing later."""
    start(table)
    gate = threading.Event()
    real_pause = table._op_pause
    table._op_pause = lambda source: (gate.wait(10), real_pause(source))[1]
    threading.Timer(0.5, gate.set).start()
    answer = table.call("pause", "host", timeout=0.1)
    assert answer == {"ok": True} and table.paused


def test_a_source_with_a_full_queue_is_told_the_table_is_busy(table):
    start(table)
    gate = hold_the_loop(table)
    futures = [table.submit("note", "phone:Elena", text=str(n)) for n in range(REQUEST_BACKLOG)]
    refused = table.submit("pause", "phone:Elena")
    assert refused.done() and refused.result()["rule"] == BUSY
    other = table.submit("pause", "host")  # another source still gets in
    assert not other.done()
    gate.set()
    assert other.result(5)["ok"] and all(f.result(5)["ok"] for f in futures)


def test_sync_waits_for_everything_queued_before_it(table):
    """``sync`` is a barrier across every source's queue, not just its own."""
    start(table)
    gate = hold_the_loop(table)
    for _ in range(3):
        table.emit(TagTapped("board", "04AABBCCDDEEFF"))
    table.emit(TagTapped("seat1", "04AABBCCDDEEFF"))
    handled = table.inputs_handled
    waiter = threading.Thread(target=table.sync)
    waiter.start()
    gate.set()
    waiter.join(5)
    assert len(table.outcomes_since(handled)) == 4  # all handled before sync answered


def test_a_flooding_device_does_not_delay_a_phone(table):
    """Ten thousand taps of an unknown sticker from one reader: its queue holds DEVICE_BACKLOG,
    the rest are counted as noise; a phone's request queued after them is handled after at most
    one of them (the sources take turns)."""
    start(table)
    gate = hold_the_loop(table)
    for _ in range(10_000):
        table.emit(TagTapped("board", "04AABBCCDDEEFF"))
    assert table.inbox.pending() == DEVICE_BACKLOG + 1  # the taps, and one report of the flood
    handled = table.inputs_handled
    answer = table.submit(
        "action", "phone:Elena", player="Elena", action={"type": "end_turn", "player": "Elena"}
    )
    gate.set()
    answer.result(5)
    table.sync()
    order = [j["source"] for j in table.outcomes_since(handled)]
    assert order.count("TagTapped") == DEVICE_BACKLOG  # every queued tap was handled
    assert order.index("phone:Elena") <= 2, order[:10]  # after a tap and the flood's report
    assert table.reports.public()["nfc:board"]["noise"] == 10_000 - DEVICE_BACKLOG
    flood = [r for r in table.refusals if r["rule"] == "TABLE-DEVICE-1"]
    assert flood and flood[0]["count"] == 10_000 - DEVICE_BACKLOG  # told once, with its count


def test_noise_is_counted_not_queued(table):
    start(table)
    gate = hold_the_loop(table)
    for n in range(50_000):
        table.emit(DeviceNoise("dice", f"rejected line {n}"))
    assert table.inbox.pending() == 1  # one report waits, whatever the flood
    gate.set()
    table.sync()
    wait_until(
        lambda: (
            sum(r["count"] for r in table.store.refusals() if r["rule"] == "TABLE-DICE-1") == 50_000
        )
    )
    assert len([r for r in table.store.refusals() if r["rule"] == "TABLE-DICE-1"]) <= 2
    snapshot = json.dumps(table.snapshot(TABLE))
    assert "rejected line" not in snapshot and table.reports.public()["dice"]["noise"] == 50_000


def test_die_reports_only_for_dice_a_reader_can_have(table):
    for die in range(0, 30_000, 7):
        table.emit(DieState(die, "moving", "dice"))
    table.sync()
    assert set(table.snapshot(TABLE)["dice"]["dice"]) <= {str(n) for n in range(8)}
    assert len(json.dumps(table.snapshot(TABLE))) < 10_000


def test_a_tapped_stickers_uid_reaches_no_page(table):
    start(table)
    uid = next(iter(table.box))
    table.emit(TagTapped("board", uid))
    table.sync()
    for viewer in [*PLAYERS, TABLE, HOST]:
        assert uid not in json.dumps(table.snapshot(viewer)), viewer
    assert table.devices["nfc:board"]["last"] == "an enrolled sticker was read"


# -- a full or failing disk -----------------------------------------------------------------------


def break_storage(table: Table) -> None:
    table.store._db.execute("PRAGMA query_only = 1")  # every write refused, like a read-only card


def mend_storage(table: Table) -> None:
    table.store._db.execute("PRAGMA query_only = 0")


def test_a_failing_disk_refuses_every_input_says_so_and_recovers(table):
    start(table)
    before = table.referee_view()
    break_storage(table)
    uid = next(iter(table.box))
    table.emit(TagTapped("board", uid))  # a stone dealt: it cannot be recorded
    table.sync()
    assert table.referee_view() == before  # nothing applied
    assert table.refusals[-1]["rule"] == CANNOT_RECORD
    assert table.storage_problem() is not None
    public, host = table.snapshot("Elena"), table.snapshot(HOST)
    assert public["storage"]["ok"] is False and "problem" not in public["storage"]
    assert host["storage"]["problem"] == table.storage_problem()
    frame = table.frames(0.0)
    status_lights = frame["table"][:: table.layout.seat_pixels][: table.layout.seats]
    assert set(status_lights) <= {STORAGE_RED, (255, 255, 255)}
    assert table.frames(0.26)["table"][0] != frame["table"][0]  # it blinks
    answer = table.call("action", "phone:Elena", action={"type": "end_turn", "player": "Elena"})
    assert answer["rule"] == CANNOT_RECORD and table.referee_view() == before
    mend_storage(table)
    wait_until(lambda: table.storage_problem() is None, timeout=HOUSEKEEPING * 10)
    assert table.snapshot(TABLE)["storage"] is None
    assert any(e["event"].get("type") == "storage_ok" for e in table.events)
    table.emit(TagTapped("board", uid))
    table.sync()
    assert table.referee_view() != before  # the same tap, recorded now
