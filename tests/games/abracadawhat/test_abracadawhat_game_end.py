"""Abracada...What?: the next round and the end of the game (spec sections 2.7 and 2.8)."""

from __future__ import annotations

import pytest
from abr_support import (
    FULL_SET,
    GAME,
    REMOVED,
    active,
    assert_stone_invariant,
    cast,
    census,
    end_turn,
    events,
    life,
    names,
    play,
    refused,
    roll,
    scores,
    seated,
    standard_deal,
    step,
    take_secret,
)

from companion.rules import TABLE


def knock_out_round(n: int = 3, **kw) -> dict:
    """Ann's Fireball takes the last token of her right neighbour: the round is over."""
    right = names(n)[-1]
    life_of = {right: 1, **kw.pop("life", {})}
    return play(seated(n, {"Ann": [7, 6, 5, 8, 8]}, life=life_of, **kw), cast("Ann", 7))


def test_all_stones_are_collected_after_a_round():
    """ABR-NEXT-1: every stone, including the secret and the acquired ones, goes back into the box
    to be shuffled."""
    state = seated(3, {"Ann": [4, 7, 6, 8, 8]}, life={"Cid": 1})
    state = play(state, cast("Ann", 4), take_secret("Ann", 0), cast("Ann", 7))
    assert state["phase"] == "deal" and state["round"] == 2
    assert state["racks"] == [[], [], []]
    assert state["acquired"] == [[], [], []]
    assert state["secret"] == []
    assert state["cast"] == [0] * 8 and state["removed"] == [0] * 8
    assert census(state) == FULL_SET
    assert GAME.chance(state).kind == "deal"


@pytest.mark.parametrize("n", [2, 3])
def test_the_next_round_removes_stones_again(n):
    """ABR-NEXT-2: with 2 or 3 players the next round again removes 12 or 6 stones face up."""
    state = knock_out_round(n)
    deal = GAME.sample(state)
    assert len(deal["removed"]) == REMOVED[n]
    wrong = standard_deal(names(n))
    wrong["removed"] = wrong["removed"][:-1]
    refused(state, wrong, "ABR-SETUP-7")
    after = play(state, deal)
    assert sum(after["removed"]) == REMOVED[n]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_next_round_is_dealt_like_the_first(n):
    """ABR-NEXT-3: five stones to each player again, without looking, and 4 new secret stones."""
    state = knock_out_round(n)
    deal_events = step(state, standard_deal(names(n), seed=9))
    after = deal_events.state
    assert [len(r) for r in after["racks"]] == [5] * n
    assert len(after["secret"]) == 4 and None not in after["secret"]
    assert_stone_invariant(after)
    assert [e["type"] for e in deal_events.events] == ["dealt", "turn"]


def test_life_resets_as_the_next_round_is_dealt():
    """ABR-NEXT-4: every player starts the new round with 6 life, shown from the moment the
    round ends, while the next one is dealt (not 0 for everyone until the deal ends); the life at
    the moment the round ended (ABR-AMB-8) is kept in the last round's result."""
    state = knock_out_round(3, life={"Ann": 2, "Ben": 4})
    assert state["phase"] == "deal"
    assert life(state) == {"Ann": 6, "Ben": 6, "Cid": 6}
    assert GAME.view(state, "Ann")["players"]["Cid"]["life"] == 6
    assert state["last_round"]["life"] == {"Ann": 2, "Ben": 4, "Cid": 0}
    after = play(state, standard_deal(names(3)))
    assert life(after) == {"Ann": 6, "Ben": 6, "Cid": 6}


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_next_round_starts_left_of_the_last_active_player(n):
    """ABR-NEXT-5: play continues with the player who would have played next: the left neighbour
    of the player who was active when the round ended, whoever else lost."""
    players = names(n)
    for c in range(n):
        me = players[c]
        victim = players[(c + 1) % n]  # Blizzard: the left neighbour loses his last life
        state = seated(n, {me: [6, 5, 7, 8, 8]}, active=me, life={victim: 1})
        state = play(state, cast(me, 6))
        assert state["phase"] == "deal"
        assert GAME.view(state, TABLE)["starter"] == players[(c + 1) % n]
        state = play(state, standard_deal(players))
        assert active(state) == players[(c + 1) % n]
        refused(state, cast(me, 8), "ABR-TURN-1")


def test_the_next_round_starts_left_of_a_self_knocked_out_player():
    """ABR-NEXT-5: after a self knock-out the next round starts left of that player."""
    state = seated(4, {"Cid": [3, 5, 6, 7, 8]}, active="Cid", life={"Cid": 1})
    state = play(state, cast("Cid", 2))
    assert state["last_round"]["end"] == "self_knockout"
    state = play(state, standard_deal(names(4)))
    assert active(state) == "Dee"


def test_the_tap_by_tap_deal_starts_with_the_new_first_player():
    """ABR-NEXT-5, ABR-NEXT-3: in the next round the racks are dealt clockwise from the new first
    player."""
    state = knock_out_round(3)  # Ann was active: Ben starts round 2
    view = GAME.view(state, TABLE)
    assert view["deal"]["to"] == "rack" and view["deal"]["player"] == "Ben"
    state = play(state, *[{"type": "deal_stone", "stone": 8} for _ in range(5)])
    assert GAME.view(state, TABLE)["deal"]["player"] == "Cid"
    assert state["racks"][1] == [8] * 5


def test_reaching_eight_points_ends_the_game():
    """ABR-GAME-1, ABR-SCORE-1: at the end of a round a player with 8 points wins; the game is
    over and nothing more is played."""
    state = knock_out_round(3, score={"Ann": 5, "Ben": 6})
    assert state["phase"] == "over"
    assert state["winners"] == ["Ann"]
    assert scores(state) == {"Ann": 8, "Ben": 7, "Cid": 0}
    outcome = GAME.outcome(state)
    assert outcome.finished and outcome.winners == ("Ann",)
    assert GAME.view(state, TABLE)["finished"] is True
    assert GAME.legal_actions(state) == [] and GAME.chance(state) is None


def test_nothing_is_played_after_the_game():
    """ABR-ROUND-1, ABR-GAME-1: after the game is over every cast input is refused (section 4.3:
    ROUND_OVER/GAME_OVER reject casts under ABR-ROUND-1), and so is a new deal."""
    state = knock_out_round(3, score={"Ann": 5})
    assert state["phase"] == "over"
    refused(state, cast("Ann", 8), "ABR-ROUND-1")
    refused(state, cast("Ben", 8), "ABR-ROUND-1")
    refused(state, end_turn("Ann"), "ABR-ROUND-1")
    refused(state, roll(3), "ABR-SPELL-1")
    refused(state, standard_deal(names(3)), "ABR-GAME-1")


def test_below_eight_the_game_goes_on():
    """ABR-GAME-1: 7 points are not enough; the next round is dealt."""
    state = knock_out_round(3, score={"Ann": 4, "Ben": 5})
    assert scores(state) == {"Ann": 7, "Ben": 6, "Cid": 0}
    assert state["phase"] == "deal" and not GAME.outcome(state).finished


def test_the_most_points_in_the_last_round_break_a_tie():
    """ABR-GAME-2: several players reach 8 together: the one who gained more in the last round
    wins."""
    state = knock_out_round(3, score={"Ann": 5, "Ben": 7})
    assert scores(state) == {"Ann": 8, "Ben": 8, "Cid": 0}
    assert state["winners"] == ["Ann"]
    # the prompt says which tie-break decided (not only "Ann won.")
    assert GAME.view(state, TABLE)["prompt"] == (
        "The game is over: Ann won (Ann and Ben reached 8 points together: the most points "
        "gained in the last round decide, ABR-GAME-2)."
    )


def test_then_the_most_life_breaks_a_tie():
    """ABR-GAME-2, ABR-AMB-8: equal gains: the one with more life at the end of the round (before
    any reset) wins."""
    state = seated(
        3,
        {"Cid": [3, 5, 6, 7, 8]},
        active="Cid",
        life={"Cid": 1, "Ann": 3, "Ben": 5},
        score={"Ann": 7, "Ben": 7},
    )
    state = play(state, cast("Cid", 2))  # Cid knocks himself out: Ann and Ben +1 each
    assert scores(state) == {"Ann": 8, "Ben": 8, "Cid": 0}
    assert state["winners"] == ["Ben"]
    assert life(state) == {"Ann": 3, "Ben": 5, "Cid": 0}
    assert GAME.view(state, "Ann")["prompt"] == (
        "The game is over: Ben won (Ann and Ben reached 8 points together, and the most points "
        "gained in the last round are level: the most life left decides, ABR-GAME-2)."
    )


def test_a_full_tie_shares_the_victory():
    """ABR-GAME-2: equal gains and equal life: the tied players share the victory."""
    state = seated(
        4,
        {"Cid": [3, 5, 6, 7, 8]},
        active="Cid",
        life={"Cid": 1, "Ann": 4, "Ben": 4},
        score={"Ann": 7, "Ben": 7, "Dee": 6},
    )
    result = step(state, cast("Cid", 2))
    assert result.state["winners"] == ["Ann", "Ben"]
    assert GAME.outcome(result.state).winners == ("Ann", "Ben")
    (over,) = events(result, "game_over")
    assert over["winners"] == ["Ann", "Ben"] and over["rule"] == "ABR-GAME-2"
    assert over["text"].startswith("Ann and Ben win the game (Ann and Ben reached 8 points")
    assert "they share the victory, ABR-GAME-2)." in over["text"]


def test_a_single_winner_at_8_needs_no_tie_break():
    """ABR-GAME-1: one player alone at 8: the prompt and the event name no tie-break."""
    right = names(3)[-1]
    state = seated(3, {"Ann": [7, 6, 5, 8, 8]}, life={right: 1}, score={"Ann": 5})
    result = step(state, cast("Ann", 7))
    assert result.state["winners"] == ["Ann"]
    (over,) = events(result, "game_over")
    assert over["text"] == "Ann wins the game." and "rule" not in over
    assert GAME.view(result.state, TABLE)["prompt"] == "The game is over: Ann won."


def test_a_round_yields_at_most_seven_points():
    """ABR-GAME-3: the best possible round (going out with all 4 secret stones) gives 3 + 4 = 7,
    so nobody wins in the first round."""
    state = seated(3, {"Ann": [4]}, acquired={"Ann": [4, 4, 4]}, reserve=0)
    state = play(state, cast("Ann", 4), take_secret("Ann", 3))
    assert state["last_round"]["gained"]["Ann"] == 7
    assert state["phase"] == "deal" and state["round"] == 2


def test_scores_are_stored_uncapped():
    """ABR-AMB-7: the game ends at 8 or more; the stored score is not capped at 8."""
    state = knock_out_round(3, score={"Ann": 7})
    assert state["phase"] == "over"
    assert scores(state)["Ann"] == 10
    assert GAME.outcome(state).scores["Ann"] == 10


def test_a_dragon_roll_is_needed_before_the_game_can_end():
    """ABR-GAME-1: the game ends only at the end of a round, so a pending die roll comes first."""
    state = play(
        seated(3, {"Ann": [1, 5, 6, 7, 8]}, life={"Ben": 1}, score={"Ann": 6}), cast("Ann", 1)
    )
    assert state["phase"] == "roll" and not GAME.outcome(state).finished
    state = play(state, roll(2))
    assert state["phase"] == "over" and state["winners"] == ["Ann"]
