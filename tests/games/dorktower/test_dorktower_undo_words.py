"""Dork Tower's undo in words (``Game.describe``, ``Game.put_back``): what was undone, and what
goes back by hand; never the card, token or scroll drawn (a scroll is its holder's secret)."""

from __future__ import annotations

from dt_support import GAME, NAMES

from companion.table.history import History

UNDO = {"type": "undo"}


def game_under_way() -> History:
    """Two players past the start roll, chance from the game's own seed."""
    h = History(GAME, NAMES[:2], {}, seed=3)
    for _ in range(200):
        chance = GAME.chance(h.state)
        if chance is None:
            break
        h.submit(GAME.sample(h.state))
    return h


def test_the_start_roll_is_undone_in_words():
    h = History(GAME, NAMES[:2], {}, seed=3)
    roll = GAME.sample(h.state)
    h.submit(roll)
    (undone,) = h.submit(UNDO).events
    values = ", ".join(map(str, roll.get("values", [roll.get("value")])))
    assert "player" not in roll or roll["player"] is None
    assert undone["text"] == f"Undone: the roll of {values}."
    assert undone["put_back"] is None


def test_every_action_type_has_words():
    """Every action the game knows is described (no raw type such as "end_turn" in the undo)."""
    from companion.games.dorktower.rules.actions import HANDLERS
    from companion.games.dorktower.rules.undoing import describe

    h = game_under_way()
    for kind in HANDLERS:
        words = describe(h.state, {"type": kind, "player": "Ann", "values": [3]})
        assert words is not None and "_" not in str(words), kind


def test_a_drawn_token_goes_back_in_the_bowl_unnamed():
    from companion.games.dorktower.rules.undoing import describe, put_back

    h = game_under_way()
    action = {"type": "draw_token", "player": "Ann", "token": "orc"}
    assert str(describe(h.state, action)) == "Ann drawing an encounter token"
    assert str(put_back(h.state, action, h.state)) == "Ann puts the token drawn back in the bowl."
    assert "orc" not in str(put_back(h.state, action, h.state))
