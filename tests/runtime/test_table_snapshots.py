"""Snapshots: what every viewer shares is built once per version, each logged event is viewed
once per viewer, and none of it changes what a viewer sees."""

from __future__ import annotations

import random

from test_table_runtime import PLAYERS, deal, start, table  # noqa: F401 (the fixture)

from companion.rules import HOST, TABLE
from companion.table import outputs

VIEWERS = [*PLAYERS, HOST, TABLE]


def play(table, moves: int, seed: int = 5) -> None:  # noqa: F811
    """``moves`` legal decisions of the players (deals from the box when the round asks, the
    die rolled by the server when it is awaited)."""
    rng = random.Random(seed)
    for _ in range(moves):
        deal(table)
        if table.history.game.outcome(table.history.state).finished:
            return
        legal = table.history.game.legal_actions(table.history.state)
        chance = table.awaited_roll()
        if not legal and chance is not None:  # the die: rolled by the server for the roller
            roller = chance.player or PLAYERS[0]
            assert table.call("virtual_roll", f"phone:{roller}", player=roller)["ok"]
            continue
        if not legal:
            return
        action = rng.choice(legal)
        player = action.get("player")  # none: the table's sensors would see it (a removal)
        answer = table.call(
            "action", f"phone:{player}" if player else "host", action=action, player=player
        )
        assert answer["ok"], answer


def fresh_events(table, viewer: str) -> list[dict]:  # noqa: F811
    """The snapshot's events as they would be viewed from scratch."""
    game = table.history.game
    recent = list(table.events)[-outputs.SNAPSHOT_EVENTS :]
    return [{"n": e["n"], "at": e["at"], **game.view_event(e["event"], viewer)} for e in recent]


def test_viewers_share_what_is_common_and_see_only_their_own(table):  # noqa: F811
    start(table)
    play(table, 12)
    snaps = {viewer: table.snapshot(viewer) for viewer in VIEWERS}
    first = snaps[PLAYERS[0]]
    for viewer, snap in snaps.items():
        assert snap["viewer"] == viewer and snap["version"] == table.version
        assert snap["game"] is first["game"] and snap["devices"] is first["devices"]
        assert snap["refusals"] is first["refusals"]
        assert snap["view"] == table.history.game.view(table.history.state, viewer)
        assert snap["events"] == fresh_events(table, viewer)
        assert ("joins" in snap) == (viewer in (HOST, TABLE))
        everyone = table.history.game.legal_actions(table.history.state)
        assert snap["legal"] == [a for a in everyone if a["player"] == viewer]
        assert set(snap["dice"]) == {"awaited", "reader", "dice", "rolled", "virtual"}
    assert table.snapshot(PLAYERS[1]) is snaps[PLAYERS[1]]  # the same version: the same snapshot
    assert [list(snap) for snap in snaps.values()][0][:8] == [
        "version",
        "viewer",
        "game",
        "view",
        "legal",
        "events",
        "refusals",
        "devices",
    ]


def test_event_views_are_kept_per_viewer_and_stay_bounded(table, monkeypatch):  # noqa: F811
    bound = len(VIEWERS) * outputs.SNAPSHOT_EVENTS + 10
    monkeypatch.setattr(outputs, "EVENT_VIEWS_KEPT", bound)
    start(table)
    for round_ in range(40):
        if len(table.events) > 3 * outputs.SNAPSHOT_EVENTS:
            break
        play(table, 3, seed=round_)
        for viewer in VIEWERS:
            assert table.snapshot(viewer)["events"] == fresh_events(table, viewer)
            assert len(table._event_views) <= bound
    assert len(table.events) > 2 * outputs.SNAPSHOT_EVENTS
    viewed = {n for n, _ in table._event_views}
    assert min(viewed) >= list(table.events)[-outputs.SNAPSHOT_EVENTS - 10]["n"]


def test_forgetting_the_caches_views_everything_again(table):  # noqa: F811
    start(table)
    play(table, 8)
    before = table.snapshot(PLAYERS[0])["events"]
    table.forget_cached()
    assert table._event_views == {} and table._cache == {}
    again = table.snapshot(PLAYERS[0])["events"]
    assert again == before and again[-1] is not before[-1]
