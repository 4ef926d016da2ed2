"""Triwizard's rules core, pinned where a mutation run found it unguarded: the exact rule IDs,
refusal sentences with their parameters filled in, event texts, private fields and audiences of
the chance steps, the scenario's setup errors and one data-file error."""

from __future__ import annotations

from pathlib import Path

import pytest
from tw_data_support import error, mymaze  # noqa: F401 (mymaze is a fixture)
from tw_support import (
    ANN,
    BLUE_2_4,
    BOB,
    GAME,
    GREEN_1_5,
    GREEN_4_2,
    NAMES,
    O_RED_ORANGE_8_2,
    RED_5_3,
    K,
    act,
    arrange,
    battle_cards,
    default_lineup,
    draw_tiles,
    move,
    refused,
    roll,
    start,
    tile_of,
    view,
)

from companion.rules import Accepted, Refusal, SetupError
from companion.rules.api import MALFORMED

A_HAND = [RED_5_3, BLUE_2_4, GREEN_4_2, GREEN_1_5]


def _accepted(state, **action) -> Accepted:
    result = GAME.apply(state, action)
    assert isinstance(result, Accepted), result
    return result


def _scenario_error(scenario: dict) -> str:
    with pytest.raises(SetupError) as caught:
        GAME.new(NAMES[:2], {"data_set": K, "scenario": scenario}, seed=1)
    return str(caught.value)


# -- chance ------------------------------------------------------------------------------------


def test_the_movement_roll_is_a_die_for_the_dice_reader():
    """TW-TURN-2: the movement roll awaited is a chance step of kind "die" with the die's faces."""
    state = start(arrange())
    step = GAME.chance(state)
    assert step is not None
    assert (step.kind, step.player) == ("die", ANN)
    assert step.faces == tuple(GAME.datasets[K]["die"]["faces"])


def test_sample_without_a_chance_step_says_why():
    """TW-TURN-6: sampling when no chance step is awaited is a programming error that says so."""
    state = roll(start(arrange()), 2)
    assert GAME.chance(state) is None
    with pytest.raises(ValueError) as caught:
        GAME.sample(state)
    assert str(caught.value) == "the game is not waiting for chance"


# -- draws -------------------------------------------------------------------------------------


def _overflowing():
    """Ann with 7 tiles after a reward of 2 (EX-TW-9): the overflow interrupt is open."""
    five = [tile_of(k) for k in ("four_point", "cloak", "red_sparks", "summon_hedge")]
    five.append(tile_of("veritaserum"))
    s = start(
        arrange(
            pieces={ANN: "K4"},
            hands={ANN: A_HAND},
            tiles={ANN: five},
            lineup=default_lineup(O_RED_ORANGE_8_2),
        )
    )
    s = move(roll(s, 1), ANN, ["K5"])
    s = roll(act(s, type="play_card", player=ANN, card=RED_5_3), 5)
    s = act(s, type="advance", player=ANN, path=["K6"])
    s = draw_tiles(s, ANN, 2)
    assert view(s)["interrupt"]["kind"] == "overflow"
    return s


def test_a_draw_during_the_overflow_names_what_comes_first():
    """TW-RES-2: with the overflow open, a draw is refused and the reason names the prompt."""
    from companion.games.triwizard.rules.prompts import prompt

    s = _overflowing()
    refusal = refused(s, "TW-RES-2", type="draw_card", player=ANN, card=battle_cards()[0])
    text = str(refusal.reason)
    assert text == f"First: {prompt({}, s)}"
    assert "{prompt}" not in text and len(text) > len("First: ")


def test_the_wrong_player_drawing_is_told_who_draws():
    """TW-TURN-6: a refill draw named for another player names both players."""
    state = arrange(hands={ANN: [RED_5_3]})
    card = GAME.sample(state)["card"]
    refusal = refused(state, "TW-TURN-6", type="draw_card", player=BOB, card=card)
    assert str(refusal.reason) == "Ann draws now, not Bob."


def test_a_card_not_in_the_draw_pile_is_named_with_its_pile():
    """TW-BCARD-4: a Battle Card that is not in the draw pile is refused, naming the pile."""
    state = arrange(hands={ANN: [RED_5_3]})
    refusal = refused(state, "TW-BCARD-4", type="draw_card", player=ANN, card="no-such-card")
    assert str(refusal.reason) == "'no-such-card' is not in the Battle Card draw pile."


def test_a_battle_card_draw_is_seen_by_the_drawer_only():
    """TW-TURN-1: a refill draw is told to all; the card is private to the drawer (audience, field)."""
    state = arrange(hands={ANN: [RED_5_3]})
    card = GAME.sample(state)["card"]
    (drawn,) = _accepted(state, type="draw_card", player=ANN, card=card).events
    assert drawn["type"] == "draw_card"
    assert drawn["audience"] == [ANN] and drawn["private"] == {"card": card}
    assert str(drawn["text"]) == "Ann draws a Battle Card."


def _tile_draw():
    """Ann on K4 with a tile draw awaited after a won battle (EX-TW-9's start, fewer tiles)."""
    s = start(
        arrange(pieces={ANN: "K4"}, hands={ANN: A_HAND}, lineup=default_lineup(O_RED_ORANGE_8_2))
    )
    s = move(roll(s, 1), ANN, ["K5"])
    s = roll(act(s, type="play_card", player=ANN, card=RED_5_3), 5)
    s = act(s, type="advance", player=ANN, path=["K6"])
    assert view(s)["awaiting"]["kind"] == "tile"
    return s


def test_a_tile_not_in_the_draw_pile_is_named_with_its_pile():
    """TW-RES-3: a Resource Tile that is not in the draw pile is refused, naming the pile."""
    s = _tile_draw()
    refusal = refused(s, "TW-RES-3", type="draw_tile", player=ANN, tile="no-such-tile")
    assert str(refusal.reason) == "'no-such-tile' is not in the Resource Tile draw pile."


def test_a_cloaked_player_collects_no_tiles():
    """TW-CLOAK-3: an unawaited tile draw for a cloaked player is refused by that rule."""
    state = start(arrange(pieces={ANN: "K4"}, cloak=ANN))
    refusal = refused(state, "TW-CLOAK-3", type="draw_tile", player=ANN, tile=tile_of("cloak"))
    assert str(refusal.reason) == "While cloaked, a player collects no Resource Tiles."


# -- peeks and steals --------------------------------------------------------------------------


def _peeking(slot: str = "3"):
    four = tile_of("four_point")
    s = start(arrange(tiles={ANN: [four]}))
    return act(s, type="play_tile", player=ANN, tile=four, slot=slot)


def test_a_peek_at_another_space_names_the_space():
    """TW-RES-4PT-1: the peek must be at the space the spell named; the reason names it."""
    s = _peeking("3")
    refusal = refused(s, "TW-RES-4PT-1", type="peek", player=ANN, slot="2", tile="cup")
    assert str(refusal.reason) == "The tile to look at is on space 3."


def test_a_peek_at_no_cup_tile_names_it():
    """TW-RES-4PT-1: what was seen must be a Cup Tile; the reason names what was given."""
    s = _peeking("3")
    refusal = refused(s, MALFORMED, type="peek", player=ANN, slot="3", tile="dragon")
    assert str(refusal.reason) == "'dragon' is not a Cup Tile."


def test_a_peek_is_told_to_the_table_and_shown_to_the_caster_only():
    """TW-RES-4PT-1, TW-RES-4PT-2, TW-AMB-31: the event names caster and space; the tile is
    private to the caster."""
    s = _peeking("3")
    (seen,) = _accepted(s, type="peek", player=ANN, slot="3", tile="headstone-1").events
    assert seen["type"] == "peek" and seen["player"] == ANN
    assert str(seen["text"]) == "Ann looks at the Cup Tile on space 3."
    assert seen["private"] == {"slot": "3", "tile": "headstone-1"}
    assert seen["audience"] == [ANN]


def test_a_steal_is_shown_to_thief_and_victim_only():
    """TW-RES-SPARK-1: the stolen tile is private to the thief and the victim."""
    sparks, loot = tile_of("red_sparks"), tile_of("veritaserum")
    s = start(arrange(tiles={ANN: [sparks], BOB: [loot, tile_of("cloak")]}))
    s = act(s, type="play_tile", player=ANN, tile=sparks, target=BOB)
    (stolen,) = _accepted(s, type="steal", player=ANN, tile=loot).events
    assert stolen["type"] == "steal"
    assert str(stolen["text"]) == "Ann takes a Resource Tile from Bob."
    assert stolen["private"] == {"tile": loot}
    assert stolen["audience"] == [ANN, BOB]


# -- the game front, setup and the scenario ----------------------------------------------------


def test_an_action_without_a_type_is_malformed_and_says_so():
    """An action needs a type: refused as malformed, with the reason in words."""
    result = GAME.apply(arrange(), {"player": ANN})
    assert isinstance(result, Refusal)
    assert str(result.reason) == "An action needs a type."


def test_a_tie_outside_the_choice_of_the_first_player_is_refused_in_words():
    """TW-SETUP-10: a tie is declared only while the first player is chosen."""
    refusal = refused(start(arrange()), "TW-SETUP-10", type="tie", players=[ANN, BOB])
    assert str(refusal.reason) == "The first player is not being chosen now."


def test_scenario_unknown_keys_are_listed():
    """A scenario with unknown keys names them all, sorted, comma-separated."""
    text = _scenario_error({"zany": 1, "bogus": 2})
    assert "(scenario: unknown keys bogus, zany)" in text


def test_scenario_hedge_off_the_board_is_a_setup_error():
    """TW-HEDGE-1: the arranged Wandering Hedge must stand on a space of the board."""
    text = _scenario_error({"hedge": "Z99"})
    assert "(scenario: 'Z99' is not a Path space)" in text


def test_scenario_lineup_card_not_free_names_the_obstacle_card():
    """TW-SETUP-9: an arranged Lineup card must be a free Obstacle Card."""
    text = _scenario_error({"lineup": ["nope", None, None, None]})
    assert "(scenario: 'nope' is not a free Obstacle Card)" in text


# -- data --------------------------------------------------------------------------------------


def test_a_feature_object_with_its_key_twice_names_the_feature(mymaze: Path):  # noqa: F811
    """TW-AMB-1: a cell's feature object giving its key twice is an error naming 'feature'."""
    board = mymaze / "board.json"
    text = board.read_text(encoding="utf-8")
    once = '"feature": {"portkey": "A"}'
    assert once in text
    board.write_text(text.replace(once, '"feature": {"portkey": "A", "portkey": "A"}', 1))
    err = error(mymaze)
    assert err.file.endswith("board.json")
    assert err.problem == "'feature' has the key 'portkey' twice"
