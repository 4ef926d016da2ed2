"""Abracada...What?: components, setup and the deal (spec sections 1 and 2.1)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from abr_support import (
    FULL_SET,
    GAME,
    REMOVED,
    RESERVE_AT_START,
    arrange,
    assert_stone_invariant,
    cast,
    census,
    deal_action,
    names,
    new_round,
    play,
    refused,
    standard_deal,
    step,
)

from companion.games import games, get_game
from companion.rules import EVERYTHING, HOST, TABLE, SetupError

PLAYER_COUNTS = [2, 3, 4, 5]


def tap_order(seed: int = 0) -> list[int]:
    """The 36 stones shuffled; the deal taps them from the front."""
    pool = list(FULL_SET.elements())
    random.Random(seed).shuffle(pool)
    return pool


def test_registry_finds_the_game():
    """ABR-COMP-4: the registered game is for 2 to 5 players and points at its specification."""
    game = get_game("abracadawhat")
    assert game in games()
    assert game.spec == "abracadawhat.md"
    assert (game.min_players, game.max_players) == (2, 5)
    with pytest.raises(SetupError):
        get_game("no-such-game")


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_two_to_five_players_can_sit_down(n):
    """ABR-COMP-4: every count from 2 to 5 players sets up a game."""
    state = GAME.new(names(n))
    assert state["players"] == names(n)
    assert state["phase"] == "deal"


@pytest.mark.parametrize("players", [["Solo"], ["A", "B", "C", "D", "E", "F"]])
def test_one_or_six_players_are_refused(players):
    """ABR-COMP-4, ABR-COMP-3: 2 to 5 players; the box has 5 score markers and 5 reference cards,
    so a sixth player cannot join."""
    with pytest.raises(SetupError):
        GAME.new(players)


def test_components_are_n_stones_of_spell_n():
    """ABR-COMP-1: exactly n stones of spell n, 36 in all; the box census is what the tag registry
    uses."""
    assert GAME.components == {f"stone {n}": n for n in range(1, 9)}
    assert sum(GAME.components.values()) == 36


def test_a_deal_with_two_ancient_dragons_is_refused():
    """ABR-COMP-1: there is only one stone of spell 1, so a deal naming two is impossible."""
    state = GAME.new(names(4))
    bad = standard_deal(names(4))
    bad["racks"]["Ann"] = [1, 1, 8, 8, 8]
    refused(state, bad, "ABR-COMP-1")


@pytest.mark.parametrize("spell", [0, 9, -1, "3", 3.0, True, None])
def test_a_spell_outside_one_to_eight_is_refused(spell):
    """ABR-COMP-1: spells are numbered 1 to 8; anything else is refused (spec 4.3)."""
    state = new_round(names(3))
    refused(state, cast("Ann", spell), "ABR-COMP-1")


def test_thirty_life_tokens_mean_six_each():
    """ABR-COMP-2, ABR-AMB-2: 30 tokens in 5 colours = 6 per player; by default every player
    starts with 6 and can never hold more than 6."""
    state = GAME.new(names(5))
    assert state["options"]["start_life"] == 6
    assert state["options"]["life_cap"] == 6
    assert state["life"] == [6] * 5
    assert sum(state["life"]) == 30


def test_one_die_whose_faces_come_from_the_options():
    """ABR-COMP-3, ABR-SETUP-9: there is one die, placed by the reserve; the software has no table
    positions, so what it models is the die itself: every roll it asks for is one roll of the
    configured faces, made by the active player (ABR-AMB-1)."""
    state = play(
        new_round(names(3), {"die_faces": [2, 4, 6]}), {"type": "cast", "player": "Ann", "spell": 1}
    )
    chance = GAME.chance(state)
    assert chance.kind == "die"
    assert chance.faces == (2, 4, 6)
    assert chance.player == "Ann"
    refused(state, {"type": "roll", "value": 4, "player": "Ben"}, "ABR-TURN-1")
    refused(state, {"type": "roll", "value": 3}, "ABR-AMB-1")


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_the_board_has_one_area_per_spell(n):
    """ABR-SETUP-1: the board is physical; what the software keeps of it is one area per spell
    number (cast and removed stones), empty before the deal and shown to every viewer."""
    state = GAME.new(names(n))
    for viewer in (*names(n), TABLE, HOST):
        board = GAME.view(state, viewer)["board"]
        assert board == {"cast": [0] * 8, "removed": [0] * 8}


def test_the_rules_need_no_board_layout():
    """ABR-AMB-15: the board's layout is not described and the rules core does not need it: the
    board is kept only as stones per spell number, and no option of the game describes positions
    (the hardware layout is configured elsewhere)."""
    state = play(new_round(names(3)), cast("Ann", 5))  # Ann holds 1 5 6 7 7
    board = GAME.view(state, TABLE)["board"]
    assert set(board) == {"cast", "removed"}
    assert all(len(v) == 8 and all(isinstance(x, int) for x in v) for v in board.values())
    assert board["cast"][4] == 1
    assert not [
        o.name
        for o in GAME.options
        if any(word in o.name for word in ("layout", "position", "area", "reader"))
    ]


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_each_player_has_his_own_life_tokens(n):
    """ABR-SETUP-2, ABR-SETUP-4: one set of life tokens per seated player (unused colours stay in
    the box): exactly n life counters, each at the starting life."""
    state = GAME.new(names(n), {"start_life": 5})
    assert state["life"] == [5] * n
    view = GAME.view(state, TABLE)
    assert set(view["players"]) == set(names(n))
    assert all(p["life"] == 5 for p in view["players"].values())


def test_players_need_distinct_names():
    """ABR-SETUP-2: each player takes his own colour, so two players cannot share a name."""
    with pytest.raises(SetupError):
        GAME.new(["Ann", "Ann", "Ben"])
    with pytest.raises(SetupError):
        GAME.new(["Ann", "@table"])


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_scores_start_below_space_one(n):
    """ABR-SETUP-3, ABR-SCORE-1: every score marker starts below space 1, i.e. at 0 points."""
    state = new_round(names(n))
    assert state["score"] == [0] * n
    assert GAME.outcome(state).scores == {p: 0 for p in names(n)}
    assert not GAME.outcome(state).finished


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_setup_counts_follow_the_table_of_section_1_2(n):
    """ABR-SETUP-5, ABR-SETUP-6, ABR-SETUP-7, ABR-SETUP-8: 5 stones each, 6/12 removed face up
    with 3/2 players, 4 secret stones, the rest in the reserve (7, 12, 11, 10 for 5, 4, 3, 2)."""
    state = new_round(names(n))
    assert [len(r) for r in state["racks"]] == [5] * n
    assert sum(state["removed"]) == REMOVED[n]
    assert len(state["secret"]) == 4 and None not in state["secret"]
    assert len(state["reserve"]) == RESERVE_AT_START[n]
    assert GAME.view(state, TABLE)["reserve_size"] == RESERVE_AT_START[n]
    assert 5 * n + REMOVED[n] + 4 + RESERVE_AT_START[n] == 36
    assert_stone_invariant(state)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_the_sampled_deal_follows_the_same_counts(n):
    """ABR-SETUP-5, ABR-SETUP-7, ABR-SETUP-8: the deal the game samples itself is a valid deal."""
    state = GAME.new(names(n), seed=7)
    deal = GAME.sample(state)
    assert deal["type"] == "deal"
    assert all(len(r) == 5 for r in deal["racks"].values())
    assert len(deal["removed"]) == REMOVED[n] and len(deal["secret"]) == 4
    assert_stone_invariant(play(state, deal))


@pytest.mark.parametrize("size", [4, 6])
def test_a_rack_must_have_five_stones(size):
    """ABR-SETUP-5: each player is dealt exactly 5 stones."""
    state = GAME.new(names(4))
    deal = standard_deal(names(4))
    pool = list(FULL_SET.elements())
    deal["racks"]["Ann"] = sorted(pool)[-size:]
    refused(state, deal, "ABR-SETUP-5")


def test_every_player_needs_a_rack():
    """ABR-SETUP-5: a deal that forgets a player is refused."""
    state = GAME.new(names(3))
    deal = standard_deal(names(3))
    del deal["racks"]["Cid"]
    refused(state, deal, "ABR-SETUP-5")


def test_a_rack_for_a_stranger_is_refused():
    """ABR-SETUP-5: racks are dealt only to the players at the table."""
    state = GAME.new(names(2))
    deal = standard_deal(names(2))
    deal["racks"]["Zed"] = deal["racks"].pop("Ben")
    refused(state, deal, "INPUT-3")


@pytest.mark.parametrize("n,wrong", [(3, 5), (3, 12), (2, 6), (2, 11), (4, 1), (5, 2)])
def test_the_removed_stones_must_be_six_or_twelve(n, wrong):
    """ABR-SETUP-7: 6 stones are removed with 3 players, 12 with 2, none with 4 or 5."""
    state = GAME.new(names(n))
    deal = standard_deal(names(n))
    used = [s for r in deal["racks"].values() for s in r] + deal["secret"]
    left = list((FULL_SET - Counter(used)).elements())
    deal["removed"] = left[:wrong]
    refused(state, deal, "ABR-SETUP-7")


@pytest.mark.parametrize("n", [2, 3])
def test_removed_stones_lie_face_up_on_their_number(n):
    """ABR-SETUP-7, ABR-HID-5: the removed stones are laid on the board area of their number and
    every viewer sees them."""
    deal = standard_deal(names(n), seed=3)
    state = play(GAME.new(names(n)), deal)
    expected = [deal["removed"].count(k) for k in range(1, 9)]
    assert state["removed"] == expected
    for viewer in (*names(n), TABLE, HOST):
        assert GAME.view(state, viewer)["board"]["removed"] == expected


@pytest.mark.parametrize("n", [2, 3])
def test_unobserved_removed_stones_stay_out_of_play(n):
    """ABR-SETUP-7: an empty ``removed`` list means the removed stones were not scanned; they are
    still out of play, so the reserve the players can draw from has the table's size."""
    deal = standard_deal(names(n))
    deal["removed"] = []
    state = play(GAME.new(names(n)), deal)
    assert GAME.view(state, TABLE)["reserve_size"] == RESERVE_AT_START[n]
    assert state["unseen_removed"] == REMOVED[n]
    assert_stone_invariant(state)


def test_there_are_four_secret_stones():
    """ABR-SETUP-8: exactly 4 secret stones are set aside each round."""
    state = GAME.new(names(4))
    deal = standard_deal(names(4))
    deal["secret"] = deal["secret"][:3]
    refused(state, deal, "ABR-SETUP-8")


def test_the_reserve_is_face_down():
    """ABR-SETUP-6, ABR-HID-4: the reserve is known only by its size to everybody at the table."""
    state = new_round(names(4))
    for viewer in (*names(4), TABLE, HOST):
        view = GAME.view(state, viewer)
        assert "reserve" not in view
        assert view["reserve_size"] == 12
    assert sorted(GAME.view(state, EVERYTHING)["reserve"]) == sorted(state["reserve"])


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_the_first_listed_player_starts(n):
    """ABR-SETUP-10: the oldest player (listed first) starts the first round."""
    state = new_round(names(n))
    assert state["active"] == 0
    assert GAME.view(state, TABLE)["active"] == "Ann"
    assert GAME.legal_actions(state)[0]["player"] == "Ann"
    refused(state, cast("Ben", 8), "ABR-TURN-1")


def test_nothing_is_cast_before_the_deal():
    """ABR-SETUP-5: the round begins only when the stones are dealt."""
    refused(GAME.new(names(3)), cast("Ann", 8), "ABR-SETUP-5")


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_tap_by_tap_deal_order(n):
    """ABR-AMB-13, ABR-SETUP-5: the tap-by-tap deal fills the racks clockwise from the round's first
    player, five each, then the stones removed face up, then the four secret stones; the rulebook's
    removal order (before or after dealing) does not matter, and the software removes after."""
    state = GAME.new(names(n))
    pool = tap_order()
    targets = []
    total = 5 * n + REMOVED[n] + 4
    for i in range(total):
        deal = GAME.view(state, TABLE)["deal"]
        targets.append((deal["to"], deal["player"]))
        assert deal["dealt"] == i and deal["total"] == total
        result = step(state, {"type": "deal_stone", "stone": pool[i]})
        state = result.state
        assert_stone_invariant(state)
    expected = [("rack", p) for p in names(n) for _ in range(5)]
    expected += [("removed", None)] * REMOVED[n] + [("secret", None)] * 4
    assert targets == expected
    assert state["phase"] == "declare"
    assert [sorted(r) for r in state["racks"]] == [
        sorted(pool[5 * i : 5 * i + 5]) for i in range(n)
    ]
    k = 5 * n + REMOVED[n]
    assert state["secret"] == pool[k : k + 4]
    assert len(state["reserve"]) == RESERVE_AT_START[n]


def test_the_tap_by_tap_deal_and_the_whole_deal_agree():
    """ABR-AMB-13: dealing stone by stone or in one action gives the same round."""
    n = 3
    pool = tap_order(seed=5)
    tapped = GAME.new(names(n))
    for stone in pool[: 5 * n + 6 + 4]:
        tapped = play(tapped, {"type": "deal_stone", "stone": stone})
    racks = {p: pool[5 * i : 5 * i + 5] for i, p in enumerate(names(n))}
    whole = play(GAME.new(names(n)), deal_action(racks, pool[21:25], pool[15:21]))
    for key in ("racks", "reserve", "secret", "removed", "life", "active", "phase"):
        assert tapped[key] == whole[key], key


def test_a_dealt_tag_cannot_be_dealt_again():
    """ABR-SETUP-5: every stone is dealt once; a tag seen twice is refused."""
    state = play(GAME.new(names(2)), {"type": "deal_stone", "stone": 8, "tag": "t1"})
    refused(state, {"type": "deal_stone", "stone": 8, "tag": "t1"}, "ABR-SETUP-5")


def test_a_number_cannot_be_dealt_more_often_than_it_exists():
    """ABR-COMP-1: after the one Ancient Dragon is dealt, another 1 cannot be."""
    state = play(GAME.new(names(2)), {"type": "deal_stone", "stone": 1})
    refused(state, {"type": "deal_stone", "stone": 1}, "ABR-COMP-1")


def test_a_whole_deal_cannot_interrupt_a_tap_by_tap_deal():
    """ABR-SETUP-5: once stones are being tapped, the deal is finished stone by stone."""
    state = play(GAME.new(names(2)), {"type": "deal_stone", "stone": 8})
    refused(state, standard_deal(names(2)), "ABR-SETUP-5")


def test_no_deal_while_a_round_is_played():
    """ABR-ROUND-1: stones are dealt only when a round begins."""
    state = new_round(names(4))
    refused(state, standard_deal(names(4)), "ABR-ROUND-1")
    refused(state, {"type": "deal_stone", "stone": 8}, "ABR-ROUND-1")


def test_options_are_checked():
    """ABR-AMB-2: start life must lie between 1 and the life cap; unknown options are refused."""
    with pytest.raises(SetupError):
        GAME.new(names(2), {"start_life": 7})
    with pytest.raises(SetupError):
        GAME.new(names(2), {"start_life": 0})
    with pytest.raises(SetupError):
        GAME.new(names(2), {"die_faces": []})
    with pytest.raises(SetupError):
        GAME.new(names(2), {"die_faces": [1, "six"]})
    with pytest.raises(SetupError):
        GAME.new(names(2), {"no_such_option": True})
    with pytest.raises(SetupError):
        GAME.new(names(2), {"removal": "magic"})
    assert GAME.new(names(2), {"ABR-VAR-1": True})["options"]["easy"] is True
    with pytest.raises(SetupError):
        GAME.new(names(2), {"easy": True, "ABR-VAR-1": False})


def test_census_of_a_fresh_game_is_the_whole_box():
    """ABR-COMP-1: before the deal every stone is in the box (the reserve)."""
    state = GAME.new(names(5))
    assert census(state) == FULL_SET


def test_arranged_states_look_like_dealt_ones():
    """The test helper ``arrange`` builds the same state as a real deal of the same stones, so the
    scenarios built with it are states the game can reach."""
    deal = standard_deal(names(3), seed=4)
    dealt = play(GAME.new(names(3)), deal)
    arranged = arrange(deal["racks"], secret=deal["secret"], removed=deal["removed"])
    assert arranged == dealt
