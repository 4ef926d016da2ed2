"""Abracada...What?: the eight spells (spec section 3)."""

from __future__ import annotations

import pytest
from abr_support import (
    GAME,
    cast,
    decline_secret,
    end_turn,
    events,
    kinds,
    life,
    names,
    play,
    rack,
    refused,
    roll,
    seated,
    step,
    take_secret,
)

from companion.rules import HOST, TABLE

PLAYER_COUNTS = [2, 3, 4, 5]
CASTER_RACK = [1, 2, 3, 4, 5]  # one stone of every strong spell


def table(n: int, caster: int, life_of: dict[str, int] | None = None, rack_of=None, **kw) -> dict:
    """An ``n``-player round in which seat ``caster`` is active and holds ``rack_of``."""
    me = names(n)[caster]
    return seated(n, {me: rack_of or CASTER_RACK}, active=me, life=life_of, **kw)


def neighbours(n: int, caster: int) -> tuple[str, str]:
    """(right, left) of a seat: right is the previous seat clockwise, left the next (section 0)."""
    players = names(n)
    return players[(caster - 1) % n], players[(caster + 1) % n]


def losses(before: dict, after: dict) -> dict[str, int]:
    return {p: life(before)[p] - life(after)[p] for p in before["players"]}


def casters(n: int) -> list[int]:
    return [0, n - 1]


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@pytest.mark.parametrize("value", [1, 3, 5])
def test_ancient_dragon_hits_every_other_player_with_one_roll(n, value):
    """ABR-SPELL-1: on success the caster rolls once and every other player loses the result."""
    for c in casters(n):
        me = names(n)[c]
        state = play(table(n, c), cast(me, 1))
        chance = GAME.chance(state)
        assert (chance.kind, chance.rule, chance.player) == ("die", "ABR-SPELL-1", me)
        after = play(state, roll(value))
        assert losses(state, after) == {p: (0 if p == me else value) for p in names(n)}


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@pytest.mark.parametrize("start", [4, 6])
def test_dark_wanderer_drains_everyone_and_heals_the_caster(n, start):
    """ABR-SPELL-2: every other player loses 1; the caster gains 1, never above 6."""
    for c in casters(n):
        me = names(n)[c]
        state = table(n, c, {me: start})
        after = play(state, cast(me, 2))
        assert life(after) == {p: min(6, start + 1) if p == me else 5 for p in names(n)}


@pytest.mark.parametrize("start,value,expected", [(4, 3, 6), (1, 2, 3), (5, 6, 6), (6, 1, 6)])
def test_sweet_dreams_heals_by_the_roll_up_to_six(start, value, expected):
    """ABR-SPELL-3, ABR-LIFE-4: the caster rolls and gains the result, capped at 6 (rolling 3 at 4
    life gives only 2)."""
    state = play(table(3, 0, {"Ann": start}), cast("Ann", 3))
    assert GAME.chance(state).rule == "ABR-SPELL-3"
    result = step(state, roll(value))
    assert life(result.state) == {"Ann": expected, "Ben": 6, "Cid": 6}
    gained = events(result, "life")
    assert [e["delta"] for e in gained] == [expected - start]


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_night_singer_takes_one_secret_stone(n):
    """ABR-SPELL-4, ABR-HID-3: the caster looks at one secret stone of his choice and keeps it
    face down in front of himself; only he learns what it is."""
    state = play(table(n, 0, secret=[5, 6, 7, 8]), cast("Ann", 4))
    assert state["phase"] == "secret"
    assert {a["type"] for a in GAME.legal_actions(state)} == {"take_secret", "decline_secret"}
    result = step(state, take_secret("Ann", 2))
    after = result.state
    assert after["acquired"][0] == [7]
    assert after["secret"] == [5, 6, None, 8]
    assert after["phase"] == "declare" and after["last_cast"] == 4
    taken = events(result, "secret_taken")[0]
    assert taken["private"] == {"stone": 7} and taken["audience"] == ["Ann"]
    assert GAME.view(after, "Ann")["players"]["Ann"]["secret"] == [7]
    for viewer in (*names(n)[1:], TABLE, HOST):
        assert GAME.view(after, viewer)["players"]["Ann"]["secret"] is None
        assert GAME.view(after, viewer)["players"]["Ann"]["secret_stones"] == 1
        assert GAME.view(after, viewer)["secret_slots"] == [True, True, False, True]


def test_night_singer_by_tag_and_bad_slots():
    """ABR-SPELL-4: a secret stone is chosen by slot (or by its tag); an empty or unknown slot is
    refused."""
    state = play(table(4, 0, secret=[None, 6, 7, 8], acquired={"Ann": [5]}), cast("Ann", 4))
    refused(state, take_secret("Ann", 0), "ABR-SPELL-4")
    refused(state, take_secret("Ann", 4), "ABR-SPELL-4")
    refused(state, take_secret("Ann", -1), "ABR-SPELL-4")
    refused(state, {"type": "take_secret", "player": "Ann"}, "INPUT-1")
    refused(state, {"type": "take_secret", "player": "Ann", "tag": "unknown"}, "ABR-SPELL-4")
    after = play(state, take_secret("Ann", 3))
    assert after["acquired"][0] == [5, 8]


def test_night_singer_may_be_declined():
    """ABR-AMB-10: looking at a secret stone is optional; declining still counts as the success."""
    state = play(table(4, 0, secret=[5, 6, 7, 8]), cast("Ann", 4))
    result = step(state, decline_secret("Ann"))
    assert result.state["acquired"][0] == []
    assert result.state["secret"] == [5, 6, 7, 8]
    assert result.state["successes"] == 1 and result.state["last_cast"] == 4
    assert "secret_declined" in kinds(result)


@pytest.mark.parametrize("go_on", ["cast", "end_turn"])
def test_going_on_after_night_singer_declines_the_secret_stone(go_on):
    """ABR-AMB-10, ABR-SPELL-4: a caster who casts again or ends the turn instead of taking a
    secret stone has chosen not to look; the new action then counts as usual."""
    state = play(table(4, 0, secret=[5, 6, 7, 8]), cast("Ann", 4))
    assert state["phase"] == "secret"
    action = cast("Ann", 5) if go_on == "cast" else end_turn("Ann")
    result = step(state, action)
    assert result.state["acquired"][0] == [] and result.state["secret"] == [5, 6, 7, 8]
    assert kinds(result)[:2] == ["secret_declined", "declared" if go_on == "cast" else "turn_ended"]
    # another player cannot end the caster's Night Singer that way
    refused(state, cast("Ben", 5), "ABR-TURN-1")


@pytest.mark.parametrize("n", [3, 4, 5])
def test_lightning_storm_hits_both_neighbours(n):
    """ABR-SPELL-5: the players on the caster's right and left each lose 1; nobody else."""
    for c in casters(n):
        me = names(n)[c]
        right, left = neighbours(n, c)
        state = table(n, c)
        after = play(state, cast(me, 5))
        assert losses(state, after) == {p: int(p in (right, left)) for p in names(n)}


def test_lightning_storm_with_two_players_costs_one_in_total():
    """ABR-SPELL-5, ABR-EX-3: with 2 players the opponent is both neighbours but loses only 1."""
    state = table(2, 0)
    result = step(state, cast("Ann", 5))
    assert life(result.state) == {"Ann": 6, "Ben": 5}
    assert len(events(result, "life")) == 1


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_blizzard_hits_the_left_neighbour(n):
    """ABR-SPELL-6: the player on the caster's left (next seat clockwise) loses 1."""
    for c in casters(n):
        me = names(n)[c]
        _, left = neighbours(n, c)
        state = table(n, c, rack_of=[6, 2, 3, 4, 5])
        after = play(state, cast(me, 6))
        assert losses(state, after) == {p: int(p == left) for p in names(n)}


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_fireball_hits_the_right_neighbour(n):
    """ABR-SPELL-7: the player on the caster's right (previous seat clockwise) loses 1."""
    for c in casters(n):
        me = names(n)[c]
        right, _ = neighbours(n, c)
        state = table(n, c, rack_of=[7, 2, 3, 4, 5])
        after = play(state, cast(me, 7))
        assert losses(state, after) == {p: int(p == right) for p in names(n)}


@pytest.mark.parametrize("start,expected", [(3, 4), (5, 6), (6, 6)])
def test_magic_potion_heals_one_up_to_six(start, expected):
    """ABR-SPELL-8: the caster gains 1, never above 6; afterwards only another 8 may follow."""
    state = table(4, 0, {"Ann": start}, rack_of=[8, 8, 3, 4, 5])
    after = play(state, cast("Ann", 8))
    assert life(after) == {"Ann": expected, "Ben": 6, "Cid": 6, "Dee": 6}
    again = step(after, cast("Ann", 8))
    assert "cast_succeeded" in kinds(again)
    assert "out_of_order" in kinds(step(after, cast("Ann", 7)))


def test_dark_wanderer_damages_first_then_heals_then_checks_once():
    """ABR-AMB-17: one effect applies all its damage, then the caster's healing, then the round-end
    check once: the caster heals even though the drain knocks two players out."""
    state = table(4, 0, {"Ann": 3, "Ben": 1, "Cid": 1, "Dee": 4})
    result = step(state, cast("Ann", 2))
    life_events = events(result, "life")
    assert [(e["player"], e["delta"]) for e in life_events] == [
        ("Ben", -1),
        ("Cid", -1),
        ("Dee", -1),
        ("Ann", 1),
    ]
    assert kinds(result).count("round_over") == 1
    assert kinds(result).index("round_over") > kinds(result).index("life")
    assert result.state["last_round"]["life"] == {"Ann": 4, "Ben": 0, "Cid": 0, "Dee": 3}


def test_the_dragon_never_takes_more_than_a_player_has():
    """ABR-AMB-17, ABR-LIFE-5: damage larger than the remaining life clamps at 0."""
    state = play(table(3, 0, {"Ben": 2, "Cid": 6}), cast("Ann", 1))
    result = step(state, roll(5))
    assert [(e["player"], e["delta"], e["life"]) for e in events(result, "life")] == [
        ("Ben", -2, 0),
        ("Cid", -5, 1),
    ]
    assert result.state["last_round"]["life"]["Ben"] == 0


def test_a_cast_stone_is_laid_on_its_board_area():
    """ABR-CAST-4: every successful spell puts exactly one stone on the area of its number."""
    state = table(4, 0, rack_of=[2, 3, 5, 6, 7])
    for spell in (2, 5, 6, 7):
        before = state["cast"][spell - 1]
        state = play(state, cast("Ann", spell))
        assert state["cast"][spell - 1] == before + 1
        assert spell not in rack(state, "Ann")


def test_a_roll_must_be_a_whole_face():
    """ABR-AMB-1: a die shows a whole face; 3.0, true or "3" are refused and change nothing."""
    state = seated(3, racks={names(3)[0]: [1, 4, 5, 7, 8]})
    state = play(state, cast(names(3)[0], 1))
    assert state["phase"] == "roll"
    for value in (3.0, True, "3"):
        refused(state, {"type": "roll", "value": value}, "ABR-AMB-1")
