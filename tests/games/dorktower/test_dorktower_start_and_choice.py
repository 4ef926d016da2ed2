"""Dork Tower's start: the start roll's ties among six, the first player, refused choices and the
game's progress line (DT-SETUP-6, DT-SETUP-7, DT-SETUP-8)."""

from __future__ import annotations

from babel.support import Translations
from dt_support import GAME, NAMES, act, refused, roll, two, view

from companion.games import plugin
from companion.i18n import Text, translate

IT = Translations.load(str(plugin("dorktower").translations), ["it"], "dorktower")


def test_six_players_tied_on_the_start_roll_are_all_named():
    """DT-SETUP-6: a tie of six names all six players and their total, then all roll again."""
    state = GAME.new(NAMES, seed=1)
    for _ in NAMES:
        state, events = roll(state, 4, 3)
    tie = events[-1]
    assert tie["type"] == "start_tie" and tie["players"] == NAMES
    assert isinstance(tie["text"], Text)
    assert tie["text"].params == dict(zip("abcdef", NAMES), total=7)
    assert state["phase"] == "start_roll" and state["start"]["rolling"] == list(range(6))


def test_the_first_player_event_names_the_starting_player():
    """DT-SETUP-7: the highest roll starts; the event says who, in its field and its sentence."""
    state = GAME.new(NAMES[:2], seed=1)
    state, _ = roll(state, 1, 2)
    state, events = roll(state, 6, 6)
    first = next(e for e in events if e["type"] == "first_player")
    assert first["player"] == "Bob"
    assert first["text"].params == {"player": "Bob"}
    assert "Bob" in first["text"]


def test_choosing_outside_the_start_says_what_the_table_waits_for():
    """DT-SETUP-7: a choice during the game is refused; the reason carries the current prompt."""
    state = two()
    refusal = refused(state, "DT-SETUP-7", type="choose", player="Ann", character="grimnir")
    assert refusal.reason.params["prompt"] == view(state)["prompt"]


def test_a_home_that_is_not_a_city_is_refused_with_a_translatable_reason():
    """DT-SETUP-8: a hero starts in a city; the refusal's reason is a sentence in either
    language."""
    state = GAME.new(NAMES[:2], {"start_roll": False}, seed=11)
    refusal = refused(
        state, "DT-SETUP-8", type="choose", player="Ann", character="topdeck", city="rv-wood"
    )
    assert refusal.reason.msgid is not None
    italian = translate(refusal.reason, IT.gettext)
    assert isinstance(italian, str) and italian and italian != str(refusal.reason)


def test_progress_counts_turns_once_the_game_is_under_way():
    """The table's progress line: before the first turn, then the turn's number."""
    state = GAME.new(NAMES[:2], seed=1)
    assert GAME.progress(state) == "before the first turn"
    state = two()
    assert GAME.progress(state) == "turn 1"
    state, _ = act(state, type="stop", player="Ann")
    assert GAME.progress(state).params == {"n": state["turn"]}
