"""Abracada...What?: life tokens (spec section 2.3) and the life options (ABR-AMB-2)."""

from __future__ import annotations

import pytest
from abr_support import (
    GAME,
    cast,
    events,
    life,
    names,
    new_round,
    play,
    roll,
    seated,
    standard_deal,
    step,
)

from companion.rules import HOST, TABLE

ANN = [2, 3, 6, 7, 8]


def test_losing_a_life_removes_exactly_one_token():
    """ABR-LIFE-1: a lost life point is one token from the player's supply, announced publicly with
    the new life."""
    state = seated(4, {"Ann": ANN})
    result = step(state, cast("Ann", 5))  # a failure
    (lost,) = events(result, "life")
    assert (lost["player"], lost["delta"], lost["life"]) == ("Ann", -1, 5)
    assert life(result.state)["Ann"] == 5


def test_gaining_a_life_takes_one_token_back():
    """ABR-LIFE-2: a gained life point is one token back in front of the player."""
    state = seated(4, {"Ann": ANN}, life={"Ann": 3})
    result = step(state, cast("Ann", 8))
    (gained,) = events(result, "life")
    assert (gained["player"], gained["delta"], gained["life"]) == ("Ann", 1, 4)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_life_is_public(n):
    """ABR-LIFE-3, ABR-HID-6: every viewer sees every player's life and score."""
    state = seated(n, {"Ann": ANN}, life={"Ann": 2}, score={"Ann": 4})
    for viewer in (*names(n), TABLE, HOST):
        players = GAME.view(state, viewer)["players"]
        assert {p: v["life"] for p, v in players.items()} == life(state)
        assert players["Ann"]["score"] == 4


@pytest.mark.parametrize("start,value", [(4, 3), (6, 6), (5, 2), (2, 6)])
def test_nobody_ever_has_more_than_six(start, value):
    """ABR-LIFE-4: healing beyond 6 is lost (rolling 3 at 4 life gives only +2)."""
    state = play(seated(3, {"Ann": ANN}, life={"Ann": start}), cast("Ann", 3), roll(value))
    assert life(state)["Ann"] == min(6, start + value)


@pytest.mark.parametrize("start,value", [(3, 5), (1, 6), (2, 2)])
def test_life_never_goes_below_zero(start, value):
    """ABR-LIFE-5: a loss larger than the current life removes only the remaining tokens."""
    state = play(
        seated(3, {"Ann": [1, 3, 6, 7, 8]}, life={"Ben": start}), cast("Ann", 1), roll(value)
    )
    assert state["last_round"]["life"]["Ben"] == max(0, start - value)


def test_losing_the_last_token_ends_the_round():
    """ABR-LIFE-6: the player whose last token is taken is out, and the round ends."""
    state = seated(3, {"Ann": ANN}, life={"Cid": 1})
    result = step(state, cast("Ann", 7))  # Fireball: Cid is on Ann's right
    assert result.state["last_round"]["end"] == "knockout"
    assert result.state["last_round"]["losers"] == ["Cid"]
    assert result.state["phase"] == "deal" and result.state["round"] == 2


@pytest.mark.parametrize("start_life,life_cap", [(4, 6), (3, 3), (8, 10)])
def test_start_life_and_life_cap_come_from_the_options(start_life, life_cap):
    """ABR-AMB-2, ABR-SETUP-4: the starting life and the cap are configuration, not hard-coded:
    every round starts at start_life and healing stops at life_cap."""
    options = {"start_life": start_life, "life_cap": life_cap}
    state = new_round(names(3), options)
    assert state["life"] == [start_life] * 3
    state = seated(3, {"Ann": ANN}, life={"Ann": life_cap - 1}, options=options)
    state = play(state, cast("Ann", 3), roll(6))
    assert life(state)["Ann"] == life_cap
    assert GAME.view(state, TABLE)["options"]["life_cap"] == life_cap


def test_every_round_starts_at_start_life_again():
    """ABR-AMB-2, ABR-NEXT-4: the next round starts everyone at start_life, whatever they had."""
    options = {"start_life": 5}
    state = seated(3, {"Ann": ANN}, life={"Ann": 2, "Ben": 1, "Cid": 5}, options=options)
    state = play(state, cast("Ann", 2))  # Dark Wanderer knocks Ben out
    assert state["phase"] == "deal" and state["round"] == 2
    assert life(state) == {"Ann": 5, "Ben": 5, "Cid": 5}  # from the round's end, for the deal
    assert state["last_round"]["life"] == {"Ann": 3, "Ben": 0, "Cid": 4}
    state = play(state, standard_deal(names(3)))
    assert life(state) == {"Ann": 5, "Ben": 5, "Cid": 5}


def test_healing_at_the_most_life_says_nothing_was_gained():
    """ABR-LIFE-4: at 6 life a healing spell gains nothing, and the log says so (never "gains 0
    life")."""
    state = seated(4, {"Ann": ANN})  # 6 life
    result = step(state, cast("Ann", 8))
    (healed,) = events(result, "life")
    assert (healed["player"], healed["delta"], healed["life"]) == ("Ann", 0, 6)
    assert healed["text"].startswith("Ann has the most life already: nothing gained (")
    result = step(seated(4, {"Ann": ANN}, life={"Ann": 5}), cast("Ann", 8))
    assert events(result, "life")[0]["text"].startswith("Ann gains 1 life (")
