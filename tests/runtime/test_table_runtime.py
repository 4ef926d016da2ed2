"""The running table without the web: one queue, durable before visible, bad input changes nothing."""

from __future__ import annotations

import json

import pytest
from support import wait_until

from companion.devices.events import ButtonPressed, DeviceNoise, DieRolled, TagTapped
from companion.devices.leds import SimStrip
from companion.games import register, unregister
from companion.games.abracadawhat.sim import stone_tags
from companion.lights import Layout
from companion.rules import TABLE, Game
from companion.table.runtime import Table
from companion.table.store import Store

PLAYERS = ["Elena", "Denise", "Marta"]


class DurabilityCheckingStrip(SimStrip):
    """A strip that, whenever it is shown a frame, checks the log already holds every entry the
    table's state reflects: nothing reaches the LEDs before it is durable."""

    def __init__(self, name, length, table_ref, path):
        super().__init__(name, length)
        self.table_ref, self.path, self.checked = table_ref, path, 0

    def show(self, pixels):
        table = self.table_ref()
        if table is not None and table.record is not None:
            # What this frame can reflect is at most what the state holds now; read that first,
            # then the log through a separate connection (as after a crash): it must hold as much.
            reflected = len(table.history.actions)
            other = Store(self.path)
            try:
                in_log = len(other.entries(table.record.id))
            finally:
                other.close()
            assert in_log >= reflected, "shown before committed"
            self.checked += 1
        super().show(pixels)


@pytest.fixture
def table(tmp_path):
    store = Store(tmp_path / "t.db")
    holder: list[Table] = []
    layout = Layout(seats=5)
    strips = {
        name: DurabilityCheckingStrip(
            name, n, lambda: holder[0] if holder else None, tmp_path / "t.db"
        )
        for name, n in layout.strips().items()
    }
    t = Table(store, layout=layout, strips=strips)
    holder.append(t)
    box = stone_tags(1)
    t.tags.import_(
        {
            "format": "companion-tags/1",
            "tags": [
                {"uid": uid, "game": "abracadawhat", "component": f"stone {n}"}
                for uid, n in box.items()
            ],
        }
    )
    t.start()
    t.box = box
    yield t
    t.close()
    store.close()


def start(table: Table, seed: int = 3) -> None:
    result = table.call("new_game", "host", game="abracadawhat", players=PLAYERS, seed=seed)
    assert result["ok"], result


def deal(table: Table) -> None:
    """Tap stones from the box until the round is dealt."""
    for uid in table.box:
        if table.referee_view()["phase"] != "deal":
            return
        if uid not in table.referee_view()["tags"]:
            table.emit(TagTapped("board", uid))
            table.sync()


def test_every_frame_follows_the_commit(table):
    """Principle 3: an accepted action is durable before any LED shows it."""
    start(table)
    deal(table)
    table.call("action", "phone:Elena", action={"type": "cast", "player": "Elena", "spell": 8})
    assert table.strips["table"].checked > 20


def test_the_table_resumes_exactly_after_a_restart(table, tmp_path):
    start(table)
    deal(table)
    table.call("action", "phone:Elena", action={"type": "cast", "player": "Elena", "spell": 2})
    before = table.referee_view()
    events = [e["event"] for e in table.events]
    table.close()
    again = Table(table.store)
    try:
        assert again.referee_view() == before
        assert [e["event"] for e in again.events] == events[-len(again.events) :]
        assert again.record.tokens == table.record.tokens  # the join links still work
    finally:
        again.close()


def unchanged_refusal(table: Table, feed, rule: str, seat=None) -> dict:
    """Feed a bad input; the state must not change, and the refusal must be logged, shown on the
    pages, and signalled on the LEDs."""
    before = table.referee_view()
    version = table.version
    logged = len(table.store.refusals())
    feed()
    table.sync()
    assert table.referee_view() == before
    assert table.version > version  # pages are told
    assert table.refusals[-1]["rule"] == rule
    assert table.snapshot(TABLE)["refusals"][-1]["rule"] == rule
    assert len(table.store.refusals()) > logged and table.store.refusals()[-1]["rule"] == rule
    cue = table.cues[-1]
    assert cue.kind == "refused" and cue.seat == seat
    return table.refusals[-1]


def test_an_unknown_tag(table):
    start(table)
    refusal = unchanged_refusal(
        table, lambda: table.emit(TagTapped("board", "04AABBCCDDEEFF")), "TABLE-TAG-1"
    )
    assert "not enrolled" in refusal["reason"]


def test_a_tag_of_another_game(table, monkeypatch):
    class Other(Game):
        id, title, spec, min_players, max_players = "other", "Other", "", 2, 2
        components = {"card 1": 1}
        new = apply = legal_actions = chance = sample = view = outcome = None

    register(Other())
    try:
        table.tags.enrol("04112233445566", "other", "card 1")
        start(table)
        unchanged_refusal(
            table, lambda: table.emit(TagTapped("board", "04112233445566")), "TABLE-TAG-2"
        )
    finally:
        unregister("other")


def test_a_stone_tapped_when_none_is_expected(table):
    start(table)
    deal(table)
    uid = next(u for u in table.box if u not in table.referee_view()["tags"])
    unchanged_refusal(table, lambda: table.emit(TagTapped("board", uid)), "TABLE-TAG-3")


def test_a_cast_out_of_turn(table):
    start(table)
    deal(table)
    unchanged_refusal(
        table,
        lambda: table.submit(
            "action",
            "phone:Marta",
            action={"type": "cast", "player": "Marta", "spell": 3},
            player="Marta",
        ),
        "ABR-TURN-1",
        seat=2,
    )


def test_a_button_from_the_wrong_seat_and_an_empty_seat(table):
    start(table)
    deal(table)
    unchanged_refusal(table, lambda: table.emit(ButtonPressed(1)), "ABR-TURN-1", seat=1)
    unchanged_refusal(table, lambda: table.emit(ButtonPressed(4)), "TABLE-SEAT-1")


def test_a_die_nobody_asked_for(table):
    """A genuine roll while the game waits for no roll is logged and ignored (TABLE-DICE-2)."""
    start(table)
    deal(table)
    unchanged_refusal(table, lambda: table.emit(DieRolled(0, 4, 1)), "TABLE-DICE-2")
    assert table.store.refusals()[-1]["rule"] == "TABLE-DICE-2"


def test_garbage_on_the_serial_line(table):
    """Noise is counted where it comes in; the pages hear about a burst once, and the log keeps
    one row for it with its count (never one row per corrupt line)."""
    start(table)
    deal(table)
    logged = len(table.store.refusals())
    version = table.version
    unchanged_refusal(
        table,
        lambda: [table.emit(DeviceNoise("dice", f"bad checksum {i}")) for i in range(5)],
        "TABLE-DICE-1",
    )
    assert table.reports.public()["dice"]["noise"] == 5
    assert table.version - version <= 2  # the pages were woken once or twice, not five times
    wait_until(lambda: sum(r["count"] for r in table.store.refusals()[logged:]) == 5)
    rows = table.store.refusals()[logged:]
    assert [r["rule"] for r in rows] == ["TABLE-DICE-1"] * len(rows)
    assert len(rows) <= 2  # a burst is one row (two if it crossed a second)
    assert "bad checksum" in rows[0]["input"]["detail"]
    assert "bad checksum" not in json.dumps(table.snapshot("@table"))  # the raw line: host only
    assert sum(r["rule"] == "TABLE-DICE-1" for r in table.refusals) == 1
    assert sum(r["count"] for r in rows) == 5  # every corrupt line is counted


def test_a_malformed_request(table):
    start(table)
    unchanged_refusal(
        table, lambda: table.submit("action", "phone:Elena", action="cast 3"), "INPUT-1"
    )
    unchanged_refusal(table, lambda: table.submit("explode", "phone:Elena"), "TABLE-REQUEST-1")


def test_inputs_without_a_game(table):
    unchanged_refusal(table, lambda: table.emit(ButtonPressed(0)), "TABLE-GAME-1")
    unchanged_refusal(table, lambda: table.emit(DieRolled(0, 4, 1)), "TABLE-GAME-1")


def test_every_source_makes_the_same_action(table):
    """Principle 6: the seat button and the phone both end the turn with the same action."""
    start(table)
    deal(table)
    rack = table.referee_view()["players"]["Elena"]["rack"]
    table.call(
        "action", "phone:Elena", action={"type": "cast", "player": "Elena", "spell": rack[-1]}
    )
    caster = table.referee_view()
    # the right neighbour removes the stone at the reader
    uid = next(u for u, (where, n) in caster["tags"].items() if where == "rack:0" and n == rack[-1])
    table.emit(TagTapped("board", uid))
    table.sync()
    while table.referee_view()["phase"] in ("roll", "secret"):
        if table.referee_view()["phase"] == "roll":
            table.emit(DieRolled(0, 1, 9))
        else:
            table.call(
                "action", "phone:Elena", action={"type": "decline_secret", "player": "Elena"}
            )
        table.sync()
    if table.referee_view()["phase"] != "declare":
        pytest.skip("the seeded deal ended the round at once")
    table.emit(ButtonPressed(0))
    table.sync()
    by_button = [j for j in table.journal if j["source"] == "ButtonPressed"][-1]
    assert by_button["action"] == {"type": "end_turn", "player": "Elena"}
    assert table.store.entries(table.record.id)[-1].action == by_button["action"]


def test_a_seat_reader_makes_the_same_actions_as_the_board_reader(table):
    """A seat's own reader (``seat1`` ...) feeds the same mapping: while dealing, a stone
    tapped at any seat's reader is dealt as at the board's."""
    start(table)
    uid = next(iter(table.box))
    table.emit(TagTapped("seat2", uid))
    table.sync()
    assert uid in table.referee_view()["tags"]
    assert table.store.entries(table.record.id)[-1].source == "nfc:seat2"


def test_a_seat_reader_where_nobody_sits(table):
    """TABLE-SEAT-1: three players, and a tag at seat 5's reader."""
    start(table)
    uid = next(iter(table.box))
    refusal = unchanged_refusal(table, lambda: table.emit(TagTapped("seat5", uid)), "TABLE-SEAT-1")
    assert refusal["reason"] == "Nobody sits at seat 5; its reader is not in use."
