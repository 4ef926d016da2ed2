"""Abracada...What?: ending the turn, refilling and passing the turn (spec section 2.4)."""

from __future__ import annotations

import pytest
from abr_support import (
    GAME,
    active,
    assert_stone_invariant,
    cast,
    end_turn,
    events,
    names,
    play,
    rack,
    refill,
    refused,
    seated,
    step,
    tap_deal,
)

from companion.rules import HOST, TABLE

ANN = [3, 5, 6, 7, 8]


def ended(n: int = 4, casts=(5, 6), **kw) -> dict:
    """Ann's turn ended after successful casts: she is waiting to refill."""
    state = seated(n, {"Ann": ANN}, **kw)
    return play(state, *[cast("Ann", s) for s in casts], end_turn("Ann"))


def test_the_turn_can_be_ended_after_a_success():
    """ABR-ENDT-1: once a cast has succeeded the caster may end his turn."""
    state = play(seated(4, {"Ann": ANN}), cast("Ann", 6))
    result = step(state, end_turn("Ann"))
    assert events(result, "turn_ended")[0]["player"] == "Ann"
    assert result.state["phase"] == "refill"


def test_every_kind_of_failure_ends_the_turn_by_itself():
    """ABR-ENDT-2: a failed cast (ABR-CAST-2), a failed dragon (ABR-CAST-3) and a lower cast
    (ABR-CAST-8) all end the turn without an end_turn."""
    base = play(seated(4, {"Ann": ANN}), cast("Ann", 5))
    failed = play(base, cast("Ann", 8), cast("Ann", 8))  # only one 8
    dragon = play(seated(4, {"Ann": ANN}), cast("Ann", 1), {"type": "roll", "value": 2})
    lower = play(base, cast("Ann", 3))
    assert (failed["phase"], active(failed), failed["refill_left"]) == ("refill", "Ann", 2)
    assert (lower["phase"], active(lower), lower["refill_left"]) == ("refill", "Ann", 1)
    assert (dragon["phase"], active(dragon), dragon["successes"]) == ("declare", "Ben", 0)
    refused(failed, cast("Ann", 8), "ABR-ENDT-4")
    refused(lower, end_turn("Ann"), "ABR-ENDT-4")
    refused(dragon, end_turn("Ann"), "ABR-TURN-1")


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_casting_the_last_stone_wins_the_round_at_once(n):
    """ABR-ENDT-3: a player whose rack is empty wins the round immediately, without ending the
    turn or refilling."""
    state = seated(n, {"Ann": [6]}, reserve=3)
    result = step(state, cast("Ann", 6))
    assert result.state["last_round"]["end"] == "stones_out"
    assert result.state["last_round"]["winner"] == "Ann"
    assert result.state["phase"] == "deal"


@pytest.mark.parametrize("casts,expected", [((5,), 1), ((5, 6), 2), ((3, 5, 6, 7), 4)])
def test_the_rack_is_refilled_back_to_five(casts, expected):
    """ABR-ENDT-4: at the end of the turn the rack is refilled to 5 from the reserve."""
    state = seated(4, {"Ann": ANN})
    for spell in casts:
        state = play(state, cast("Ann", spell))
        if spell == 3:
            state = play(state, {"type": "roll", "value": 1})
    state = play(state, end_turn("Ann"))
    assert state["refill_left"] == expected
    chance = GAME.chance(state)
    assert (chance.kind, chance.rule, chance.player) == ("draw", "ABR-ENDT-4", "Ann")
    drawn = GAME.sample(state)
    assert drawn["type"] == "refill" and len(drawn["stones"]) == expected
    after = play(state, drawn)
    assert len(rack(after, "Ann")) == 5
    assert active(after) == "Ben"
    assert_stone_invariant(after)


def test_a_refill_may_come_stone_by_stone():
    """ABR-ENDT-4: a partial refill is allowed; the turn passes once the rack is full again."""
    state = ended(reserve=[8, 8, 7, 7, 2])
    assert state["refill_left"] == 2
    state = play(state, {"type": "refill", "player": "Ann", "stone": 7, "tag": "r1"})
    assert state["phase"] == "refill" and state["refill_left"] == 1
    assert state["tags"]["r1"] == ["rack:0", 7]
    state = play(state, refill("Ann", 2))
    assert rack(state, "Ann") == [2, 3, 7, 7, 8]
    assert sorted(state["reserve"]) == [7, 8, 8]
    assert active(state) == "Ben"


def test_refilling_above_five_is_refused():
    """ABR-ENDT-4: a player never draws above 5 stones."""
    state = ended(reserve=[8, 8, 7, 7, 2])
    refused(state, refill("Ann", 8, 8, 7), "ABR-ENDT-4")
    state = play(state, refill("Ann", 8))
    refused(state, refill("Ann", 8, 7), "ABR-ENDT-4")


def test_only_the_player_whose_turn_ended_refills():
    """ABR-ENDT-4: it is the active player's rack that is refilled."""
    state = ended()
    refused(state, refill("Ben", 8), "ABR-ENDT-4")
    refused(state, refill("Zed", 8), "INPUT-3")
    refused(state, {"type": "refill", "player": "Ann", "stones": []}, "INPUT-1")


def test_refills_come_only_from_the_reserve():
    """ABR-ENDT-5: stones not in the reserve (cast, secret or in other racks) cannot be drawn."""
    state = ended(reserve=[8, 8, 7, 7, 2])
    refused(state, refill("Ann", 6), "ABR-ENDT-5")
    refused(state, refill("Ann", 2, 2), "ABR-ENDT-5")
    refused(state, refill("Ann", 1), "ABR-ENDT-5")


def test_a_tagged_stone_already_in_play_cannot_be_drawn():
    """ABR-ENDT-5: with tags, a stone dealt to a rack or set aside as secret is never drawn."""
    state = GAME.new(["Ann", "Ben"])
    state = tap_deal(
        state,
        {"Ann": [3, 5, 6, 7, 8], "Ben": [2, 3, 8, 8, 8]},
        removed=[1, 2, 3, 4, 4, 4, 6, 6, 6, 6, 7, 7],
        secret=[4, 5, 5, 5],
    )
    state = play(state, cast("Ann", 6), end_turn("Ann"))
    refused(state, {"type": "refill", "player": "Ann", "stone": 5, "tag": "S1"}, "ABR-ENDT-5")
    refused(state, {"type": "refill", "player": "Ann", "stone": 8, "tag": "Ben#4"}, "ABR-ENDT-5")
    state = play(state, {"type": "refill", "player": "Ann", "stone": 5, "tag": "new"})
    assert active(state) == "Ben"


def test_an_empty_reserve_means_no_refill():
    """ABR-ENDT-5: with the reserve empty the turn passes at once and the rack stays short."""
    state = ended(reserve=0)
    assert state["phase"] == "declare"
    assert active(state) == "Ben"
    assert len(rack(state, "Ann")) == 3


@pytest.mark.parametrize("reserve,expected", [(1, 1), (2, 2), (3, 2)])
def test_a_short_reserve_is_drawn_completely(reserve, expected):
    """ABR-AMB-6: with fewer stones in the reserve than needed, the player takes them all."""
    state = ended(reserve=reserve)
    assert state["refill_left"] == expected
    assert GAME.view(state, TABLE)["refill_left"] == expected
    state = play(state, GAME.sample(state))
    assert len(rack(state, "Ann")) == 3 + expected
    assert GAME.view(state, TABLE)["reserve_size"] == reserve - expected


def test_acquired_secret_stones_are_not_in_the_rack():
    """ABR-AMB-5: acquired secret stones do not count towards the five stones of the rack."""
    state = ended(acquired={"Ann": [4, 4]}, secret=[None, None, 5, 5])
    assert state["refill_left"] == 2


def test_acquired_secret_stones_do_not_prevent_going_out():
    """ABR-AMB-5, ABR-ENDT-3: a player with acquired secret stones but an empty rack has used all
    his stones and wins the round."""
    state = seated(3, {"Ann": [7]}, acquired={"Ann": [4]}, secret=[None, 5, 5, 5], reserve=0)
    state = play(state, cast("Ann", 7))
    assert state["last_round"]["end"] == "stones_out"
    assert state["last_round"]["gained"]["Ann"] == 4


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_turn_passes_to_the_left(n):
    """ABR-ENDT-6: after the refill the next seat clockwise (the left neighbour) is active."""
    players = names(n)
    for c in range(n):
        me = players[c]
        state = seated(n, {me: ANN}, active=me, reserve=0)
        state = play(state, cast(me, 5), end_turn(me))
        assert active(state) == players[(c + 1) % n]
        assert state["last_cast"] is None and state["successes"] == 0


def test_refills_announce_nothing():
    """ABR-AMB-16, ABR-HID-8: stones are drawn without looking: two refills with different stones
    produce the same public events and the same view for the drawer and the table."""
    state = ended(reserve=[8, 8, 7, 7, 2])
    one, other = step(state, refill("Ann", 8, 8)), step(state, refill("Ann", 7, 2))
    assert one.events == other.events
    assert all("stone" not in e and "stones" not in e for e in one.events)
    for viewer in ("Ann", TABLE, HOST):
        assert GAME.view(one.state, viewer) == GAME.view(other.state, viewer)
