"""replay(): JSON Lines in (a header, then one action per line), the resulting state out."""

from __future__ import annotations

import json

import pytest
from table_support import ANN, BEN, GAME, PLAYERS, new_game

from companion.table.replay import ReplayError, replay

HEADER = {"game": "abracadawhat", "players": PLAYERS, "seed": 4}


def jsonl(*items) -> list[str]:
    """Lines of a replay file; a str item is written as it is (blank or broken lines)."""
    return [item if isinstance(item, str) else json.dumps(item) for item in items]


def deal_action() -> dict:
    """A valid deal of round 1, as the core samples it."""
    return GAME.sample(new_game())


def cast(player: str, spell: int) -> dict:
    return {"type": "cast", "player": player, "spell": spell}


def replay_error(lines: list[str], view: str | None = None) -> str:
    with pytest.raises(ReplayError) as info:
        replay(lines, view=view)
    return str(info.value)


def test_a_header_alone_is_the_new_game():
    """The output has round, active, finished, winners, players with life and score, and no
    rejections."""
    out = replay(jsonl(HEADER))
    assert (out["round"], out["active"], out["finished"], out["winners"]) == (1, ANN, False, [])
    assert {name: (p["life"], p["score"]) for name, p in out["players"].items()} == {
        ANN: (6, 0),
        BEN: (6, 0),
    }
    assert out["rejections"] == [] and out["phase"] == "deal"


def test_actions_are_replayed_in_order():
    """A deal and a cast of a held spell leave Ann's rack one stone shorter and the stone cast."""
    deal = deal_action()
    spell = deal["racks"][ANN][0]
    out = replay(jsonl(HEADER, deal, cast(ANN, spell)))
    assert out["rejections"] == []
    assert out["players"][ANN]["rack_size"] == 4
    assert out["board"]["cast"][spell - 1] == 1 and out["last_cast"] == spell


def test_options_and_seed_of_the_header_are_used():
    out = replay(jsonl(HEADER | {"options": {"start_life": 4, "life_cap": 5}, "seed": 9}))
    assert out["players"][ANN]["life"] == 4 and out["options"]["life_cap"] == 5


def test_a_refused_line_is_reported_with_its_line_number_and_the_replay_goes_on():
    deal = deal_action()
    spell = deal["racks"][ANN][0]
    out = replay(jsonl(HEADER, deal, cast(BEN, 3), cast(ANN, spell)))
    assert [(r["line"], r["rule"]) for r in out["rejections"]] == [(3, "ABR-TURN-1")]
    assert out["rejections"][0]["reason"]
    assert out["last_cast"] == spell


def test_invalid_json_is_an_input_1_rejection_and_blank_lines_still_count():
    """Blank lines are skipped but numbered, so a broken line's number matches the file."""
    out = replay(jsonl(HEADER, "", "{not json", "   ", "[1, 2", deal_action()))
    assert [(r["line"], r["rule"]) for r in out["rejections"]] == [(3, "INPUT-1"), (5, "INPUT-1")]
    assert "not valid JSON" in out["rejections"][0]["reason"]
    assert out["phase"] == "declare"  # the deal on line 6 was still replayed


def test_json_that_is_not_an_action_is_rejected():
    out = replay(jsonl(HEADER, [1], 7, {"type": "fly"}))
    assert [(r["line"], r["rule"]) for r in out["rejections"]] == [
        (2, "INPUT-1"),
        (3, "INPUT-1"),
        (4, "INPUT-2"),
    ]


def test_undo_lines_walk_back_and_an_undo_of_nothing_is_rejected():
    deal = deal_action()
    spell = deal["racks"][ANN][0]
    undo = {"type": "undo"}
    out = replay(jsonl(HEADER, undo, deal, cast(ANN, spell), undo, undo))
    assert [(r["line"], r["rule"]) for r in out["rejections"]] == [(2, "TABLE-UNDO-1")]
    assert out == replay(jsonl(HEADER)) | {"rejections": out["rejections"]}


def test_the_default_view_sees_everything_and_a_players_view_hides_his_rack():
    deal = deal_action()
    lines = jsonl(HEADER, deal)
    everything = replay(lines)
    assert everything["players"][ANN]["rack"] == deal["racks"][ANN]
    assert "reserve" in everything
    ann = replay(lines, view=ANN)
    assert ann["viewer"] == ANN and ann["players"][ANN]["rack"] is None
    assert ann["players"][BEN]["rack"] == deal["racks"][BEN] and "reserve" not in ann


@pytest.mark.parametrize("view", ["Zed", "ann", ""])
def test_a_view_of_someone_not_playing_is_an_error(view):
    assert "nobody of that name" in replay_error(jsonl(HEADER), view=view)


def test_an_empty_file_is_an_error():
    assert "empty" in replay_error([])
    assert "empty" in replay_error(["", "  "])


@pytest.mark.parametrize(
    "header",
    [
        "{not json",
        "[]",
        json.dumps({"players": PLAYERS}),
        json.dumps({"game": "abracadawhat"}),
        json.dumps({"game": "chess", "players": PLAYERS}),
        json.dumps({"game": "abracadawhat", "players": ["Ann"]}),
        json.dumps({"game": "abracadawhat", "players": "Ann, Ben"}),
        json.dumps({"game": "abracadawhat", "players": PLAYERS, "seed": "4"}),
        json.dumps({"game": "abracadawhat", "players": PLAYERS, "seed": True}),
        json.dumps({"game": "abracadawhat", "players": PLAYERS, "options": {"colour": "red"}}),
        json.dumps({"game": "abracadawhat", "players": PLAYERS, "options": {"start_life": 9}}),
        json.dumps({"game": "abracadawhat", "players": PLAYERS, "options": ["easy"]}),
        json.dumps({"game": "abracadawhat", "players": PLAYERS, "options": "easy"}),
    ],
)
def test_a_bad_header_is_an_error_naming_its_line(header):
    """Every kind of unusable header raises ReplayError (never another exception) with the line."""
    assert replay_error([header, json.dumps(deal_action())]).startswith("line 1:")
    assert replay_error(["", "", header]).startswith("line 3:")
