"""Abracada...What?: the end of a round and its scoring (spec sections 2.5 and 2.6)."""

from __future__ import annotations

import pytest
from abr_support import (
    GAME,
    cast,
    events,
    names,
    play,
    roll,
    scores,
    seated,
    step,
)

from companion.rules import HOST, TABLE


def gained(state: dict) -> dict[str, int]:
    return state["last_round"]["gained"]


def test_the_round_goes_on_while_nobody_is_out():
    """ABR-ROUND-1: neither an empty rack nor a lost last life: the round continues."""
    state = play(seated(3, {"Ann": [5, 6, 7, 8, 8]}, life={"Ben": 2, "Cid": 2}), cast("Ann", 5))
    assert state["last_round"] is None and state["round"] == 1
    assert state["phase"] == "declare"


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_stones_out_sets_everyone_else_to_zero(n):
    """ABR-ROUND-2, ABR-SCORE-3, ABR-SCORE-6: the player who used all his stones wins 3 plus his
    secret stones; everyone else drops to 0 life and scores nothing, secret stones or not."""
    acquired = {"Ann": [4], names(n)[1]: [4, 4]}
    state = seated(n, {"Ann": [8]}, acquired=acquired, secret=[None, None, None, 4], reserve=0)
    result = step(state, cast("Ann", 8))
    after = result.state
    assert after["last_round"]["end"] == "stones_out"
    assert after["last_round"]["life"] == {p: (6 if p == "Ann" else 0) for p in names(n)}
    assert gained(after) == {p: (4 if p == "Ann" else 0) for p in names(n)}
    assert scores(after) == gained(after)
    assert after["last_round"]["bonus"] == {p: (1 if p == "Ann" else 0) for p in names(n)}
    (over,) = events(result, "round_over")
    assert over["winner"] == "Ann" and over["end"] == "stones_out"


@pytest.mark.parametrize("n", [3, 4, 5])
def test_knock_out_by_attack(n):
    """ABR-ROUND-3, ABR-SCORE-4, ABR-SCORE-6: the attacker who took the last token wins 3 plus his
    secret stones; the eliminated player scores 0 (his secret stones do not count); every other
    survivor scores 1 plus his secret stones."""
    players = names(n)
    right = players[-1]
    survivor = players[1]
    acquired = {"Ann": [4], right: [4], survivor: [4, 4]}
    state = seated(
        n, {"Ann": [7, 6, 5, 8, 8]}, life={right: 1}, acquired=acquired, secret=[None] * 4
    )
    after = play(state, cast("Ann", 7))  # Fireball: the right neighbour loses his last life
    assert after["last_round"]["end"] == "knockout"
    assert after["last_round"]["winner"] == "Ann"
    assert after["last_round"]["losers"] == [right]
    expected = {p: 1 for p in players}
    expected.update({"Ann": 4, right: 0, survivor: 3})
    assert gained(after) == expected
    assert scores(after) == expected


def test_knock_out_with_two_players():
    """ABR-ROUND-3, ABR-SCORE-2: with two players the attacker scores 3 and the loser 0."""
    state = seated(2, {"Ann": [6, 5, 7, 8, 8]}, life={"Ben": 1})
    after = play(state, cast("Ann", 6))
    assert gained(after) == {"Ann": 3, "Ben": 0}


@pytest.mark.parametrize("how", ["failed cast", "failed dragon", "lower cast"])
def test_self_knock_out(how):
    """ABR-ROUND-4, ABR-SCORE-5, ABR-SCORE-6: a player who loses his own last token is the only
    loser; nobody wins; every other survivor scores 1 plus his secret stones."""
    state = seated(
        4,
        {"Ann": [3, 5, 6, 7, 8]},
        life={"Ann": 1},
        acquired={"Ann": [4], "Cid": [4]},
        secret=[None, None, 4, 4],
    )
    if how == "failed cast":
        result = step(state, cast("Ann", 2))
    elif how == "failed dragon":
        result = step(play(state, cast("Ann", 1)), roll(1))
    else:
        result = step(play(state, cast("Ann", 6)), cast("Ann", 5))
    after = result.state
    assert after["last_round"]["end"] == "self_knockout"
    assert after["last_round"]["winner"] is None
    assert after["last_round"]["losers"] == ["Ann"]
    assert gained(after) == {"Ann": 0, "Ben": 1, "Cid": 2, "Dee": 1}
    assert events(result, "round_over")[0]["winner"] is None


@pytest.mark.parametrize(
    "end,winner,loser,other",
    [
        ("stones_out", 3, None, 0),
        ("knockout", 3, 0, 1),
        ("self_knockout", None, 0, 1),
    ],
)
@pytest.mark.parametrize("with_secrets", [False, True])
def test_scoring_table(end, winner, loser, other, with_secrets):
    """ABR-SCORE-2, ABR-SCORE-6: the table of section 2.6: winner 3, loser 0, other survivors 1;
    the secret-stone bonus goes to everyone who ends with life, never to a loser. Ann, Ben and
    Cid may hold one secret stone each, Dee never."""
    acquired = {"Ann": [4], "Ben": [4], "Cid": [4]} if with_secrets else {}
    bonus = {p: int(p in acquired) for p in ("Ann", "Ben", "Cid", "Dee")}
    life = {"Ann": 1 if end == "self_knockout" else 6, "Ben": 1 if end == "knockout" else 6}
    rack = [6] if end == "stones_out" else [5, 6, 7, 8, 8]
    state = seated(4, {"Ann": rack}, life=life, acquired=acquired, reserve=0)
    if end == "self_knockout":  # a failed Ancient Dragon, rolled 1, takes Ann's last token
        after = play(state, cast("Ann", 1), roll(1))
    else:  # Blizzard: Ben, on Ann's left, loses 1
        after = play(state, cast("Ann", 6))
    assert after["last_round"]["end"] == end
    loser_name = {"knockout": "Ben", "self_knockout": "Ann"}.get(end)
    for p in ("Ann", "Ben", "Cid", "Dee"):
        if p == "Ann" and winner is not None:
            expected = winner + bonus[p]
        elif p == loser_name:
            expected = loser
        else:
            expected = other + (bonus[p] if other else 0)
        assert after["last_round"]["gained"][p] == expected, p


@pytest.mark.parametrize("n", [3, 4, 5])
def test_several_players_knocked_out_at_once(n):
    """ABR-AMB-12: all players eliminated by one spell are losers (0, no bonus); the caster
    wins."""
    players = names(n)
    lives = {p: 2 for p in players[1:]}
    lives[players[1]] = 5  # one survivor
    acquired = {players[2]: [4], players[1]: [4]}
    state = seated(
        n, {"Ann": [1, 5, 6, 7, 8]}, life=lives, acquired=acquired, secret=[None, None, 4, 4]
    )
    after = play(state, cast("Ann", 1), roll(3))
    assert after["last_round"]["end"] == "knockout"
    assert after["last_round"]["losers"] == players[2:]
    expected = {p: 0 for p in players[2:]}
    expected.update({"Ann": 3, players[1]: 2})
    assert gained(after) == expected


def test_dark_wanderer_double_knock_out():
    """ABR-AMB-12, ABR-SCORE-4: Dark Wanderer knocking out two players at once: both lose."""
    state = seated(3, {"Ann": [2, 5, 6, 7, 8]}, life={"Ben": 1, "Cid": 1, "Ann": 2})
    after = play(state, cast("Ann", 2))
    assert after["last_round"]["losers"] == ["Ben", "Cid"]
    assert gained(after) == {"Ann": 3, "Ben": 0, "Cid": 0}


def test_lightning_storm_double_knock_out():
    """ABR-AMB-12: Lightning Storm knocking out both neighbours makes both losers."""
    state = seated(4, {"Ann": [5, 6, 7, 8, 8]}, life={"Ben": 1, "Dee": 1})
    after = play(state, cast("Ann", 5))
    assert sorted(after["last_round"]["losers"]) == ["Ben", "Dee"]
    assert gained(after) == {"Ann": 3, "Ben": 0, "Cid": 1, "Dee": 0}


def test_acquired_stones_are_not_revealed_at_round_end():
    """ABR-AMB-11, ABR-HID-2: scoring needs only the count of acquired secret stones: the round's
    result is the same whatever stones they were."""

    def finish(acquired):
        state = seated(
            3,
            {"Ann": [7, 6, 5, 8, 8]},
            life={"Cid": 1},
            acquired={"Ben": acquired},
            secret=[None, 3, 3, 3] if 4 not in acquired else [None, 4, 4, 4],
        )
        return step(state, cast("Ann", 7))

    a, b = finish([5]), finish([4])
    assert a.events == b.events
    assert a.state["last_round"] == b.state["last_round"]
    assert a.state["last_round"]["gained"]["Ben"] == 2
    for viewer in ("Ann", "Ben", "Cid", TABLE, HOST):
        assert GAME.view(a.state, viewer) == GAME.view(b.state, viewer)
