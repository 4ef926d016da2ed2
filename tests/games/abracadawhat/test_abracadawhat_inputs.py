"""AbracadaInputs: tags, seat buttons and dice become the very actions the phone would send.

Each mapped action is also handed to the real rules core, which proves it is the right action for
the phase and not merely one of the right shape.
"""

from __future__ import annotations

import pytest
from table_support import (
    ANN,
    ANN_RACK,
    BEN,
    BEN_RACK,
    GAME,
    SECRET,
    new_game,
    play,
    tag_at,
    tapped_deal,
    uid,
)

from companion.devices.events import DieRolled
from companion.games.abracadawhat.inputs import AbracadaInputs
from companion.rules import Refusal
from companion.table.inputs import NOTHING_TO_TAP, WRONG_KIND, inputs_for
from companion.table.tags import Component

INPUTS = AbracadaInputs(GAME)
SENSED = {"deal", "deal_stone", "remove", "refill", "roll"}  # chance steps and the board reader


def stone(n: int) -> Component:
    return Component("abracadawhat", f"stone {n}")


def tap(state: dict, n: int, tag: str) -> dict:
    """What tapping tag ``tag`` (stone ``n``) at the board reader means; must be an action."""
    action = INPUTS.tag(state, stone(n), tag, "board")
    assert not isinstance(action, Refusal), action
    return action


def cast(player: str, spell: int) -> dict:
    return {"type": "cast", "player": player, "spell": spell}


# States of the game, each reached with the real rules core (removal by tap at the reader).


def at_remove() -> dict:
    """Ann has cast her 4 (Night Singer); Ben must remove it."""
    return play(tapped_deal(removal="tap"), cast(ANN, 4))


def at_secret() -> dict:
    state = at_remove()
    return play(state, tap(state, 4, tag_at(state, "rack:0", 4)))


def at_refill() -> dict:
    """Ann took the secret stone in slot 1 and ended her turn; she draws one stone."""
    state = at_secret()
    state = play(state, tap(state, SECRET[1], tag_at(state, "secret:1")))
    return play(state, INPUTS.button(state, ANN, long=False))


def at_roll() -> dict:
    """It is Ben's turn; he cast his 3 (Sweet Dreams), Ann removed it, the die is awaited."""
    state = at_refill()
    state = play(state, tap(state, 8, uid(100)), cast(BEN, 3))
    return play(state, tap(state, 3, tag_at(state, "rack:1", 3)))


def at_objection() -> dict:
    """Ann cast 7 successfully, then the lower 2: the table waits for an objection."""
    return play(tapped_deal(order_violation="require_objection"), cast(ANN, 7), cast(ANN, 2))


# -- tags ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "component", [Component("othergame", "stone 5"), Component("abracadawhat", "wand 1")]
)
def test_a_tag_of_another_game_or_kind_is_refused(component):
    result = INPUTS.tag(tapped_deal(), component, uid(500), "board")
    assert isinstance(result, Refusal) and result.rule == WRONG_KIND == "TABLE-TAG-2"


def test_a_tap_while_dealing_deals_the_stone():
    state = new_game()
    action = tap(state, 5, uid(1))
    assert action == {"type": "deal_stone", "stone": 5, "tag": uid(1)}
    after = play(state, action)
    assert after["racks"][0] == [5] and after["tags"][uid(1)] == ["rack:0", 5]


def test_a_tap_during_removal_removes_the_stone():
    state = at_remove()
    tag = tag_at(state, "rack:0", 4)
    assert tap(state, 4, tag) == {"type": "remove", "stone": 4, "tag": tag}
    after = play(state, tap(state, 4, tag))
    assert after["phase"] == "secret" and 4 not in after["racks"][0]


def test_a_tap_during_the_secret_phase_takes_that_secret_stone():
    """The tag, not a number, says which secret stone the active player takes."""
    state = at_secret()
    tag = tag_at(state, "secret:1")
    action = tap(state, SECRET[1], tag)
    assert action == {"type": "take_secret", "player": ANN, "tag": tag}
    after = play(state, action)
    assert after["acquired"][0] == [SECRET[1]] and after["secret"][1] is None


def test_a_tap_during_refill_refills_the_active_players_rack():
    state = at_refill()
    assert (state["phase"], state["refill_left"]) == ("refill", 1)
    action = tap(state, 8, uid(100))
    assert action == {"type": "refill", "player": ANN, "stone": 8, "tag": uid(100)}
    after = play(state, action)
    assert sorted(after["racks"][0]) == sorted([*ANN_RACK[:1], *ANN_RACK[2:], 8])
    assert after["players"][after["active"]] == BEN


def test_the_refill_goes_to_the_active_player_whoever_it_is():
    """In Ben's refill a tap names Ben, not the first player."""
    state = at_roll()
    state = play(
        state, INPUTS.die(state, DieRolled(0, 2, 0)), INPUTS.button(state, BEN, long=False)
    )
    assert state["phase"] == "refill"
    assert tap(state, 7, uid(101))["player"] == BEN


@pytest.mark.parametrize(
    "reach", [tapped_deal, at_roll, at_objection], ids=["declare", "roll", "objection"]
)
def test_a_tap_when_no_stone_is_expected_is_refused_with_the_prompt(reach):
    state = reach()
    result = INPUTS.tag(state, stone(BEN_RACK[0]), uid(300), "board")
    assert isinstance(result, Refusal) and result.rule == NOTHING_TO_TAP == "TABLE-TAG-3"
    assert result.reason.endswith(GAME.view(state, "@table")["prompt"])


# -- buttons and dice ------------------------------------------------------------------------------


def test_a_short_press_ends_the_turn():
    state = play(tapped_deal(), cast(ANN, 8))
    action = INPUTS.button(state, ANN, long=False)
    assert action == {"type": "end_turn", "player": ANN}
    assert play(state, action)["phase"] == "refill"  # Ann now draws back to five


def test_a_short_press_of_another_seat_during_an_objection_objects():
    state = at_objection()
    action = INPUTS.button(state, BEN, long=False)
    assert action == {"type": "object", "player": BEN}
    after = play(state, action)
    assert after["life"][0] == 5  # the caster pays for the out-of-order cast


def test_the_casters_own_press_during_an_objection_is_still_end_turn():
    assert INPUTS.button(at_objection(), ANN, long=False) == {"type": "end_turn", "player": ANN}


@pytest.mark.parametrize("reach", [new_game, tapped_deal, at_remove, at_objection])
@pytest.mark.parametrize("player", [ANN, BEN])
def test_a_long_press_undoes_in_every_phase_from_every_seat(reach, player):
    assert INPUTS.button(reach(), player, long=True) == {"type": "undo"}


def test_a_die_roll_is_a_roll_action_the_rules_accept():
    state = at_roll()
    action = INPUTS.die(state, DieRolled(0, "4", 0, roll=1, profile="d6"))
    assert action == {"type": "roll", "value": 4}
    assert play(state, action)["phase"] == "declare"


def test_a_die_value_is_passed_on_for_the_rules_to_judge():
    """The mapping does not filter faces; the rules refuse a face the die does not have."""
    state = at_roll()
    action = INPUTS.die(state, DieRolled(1, 9, 0))
    assert action == {"type": "roll", "value": 9}
    assert GAME.apply(state, action).rule == "ABR-AMB-1"
    label = INPUTS.die(state, DieRolled(0, "CLOAK", 0, value=None))
    assert label == {"type": "roll", "value": "CLOAK"}  # a face without a number: its label
    assert GAME.apply(state, label).rule == "ABR-AMB-1"


def test_a_virtual_roll_is_a_fair_face_of_the_awaited_die():
    """With no dice reader, the server rolls: always one of the faces the chance step names."""
    import random

    state = at_roll()
    chance = GAME.chance(state)
    rng = random.Random(5)
    values = {INPUTS.virtual_roll(state, chance, rng)["value"] for _ in range(200)}
    assert values == set(chance.faces) == {1, 2, 3, 4, 5, 6}
    assert play(state, INPUTS.virtual_roll(state, chance, rng))["phase"] == "declare"


# -- what the phone may send, and the table's option defaults --------------------------------------


def test_every_choice_a_player_makes_can_be_sent_from_the_phone():
    """All legal choices outside removal are phone actions; the sensed steps are not."""
    chosen = set()
    for state in (tapped_deal(), at_secret(), at_objection()):
        chosen |= {a["type"] for a in GAME.legal_actions(state)}
    assert chosen <= AbracadaInputs.phone_actions
    assert not SENSED & AbracadaInputs.phone_actions


def test_every_phone_action_is_an_action_of_the_game():
    state = tapped_deal()
    for kind in AbracadaInputs.phone_actions:
        result = GAME.apply(state, {"type": kind, "player": ANN})
        assert getattr(result, "rule", None) != "INPUT-2", kind


def test_the_option_defaults_are_valid_options_with_removal_by_tap():
    """The table suggests removal by tap, because its board reader senses the removal."""
    defaults = AbracadaInputs.option_defaults
    assert GAME.resolve_options(defaults)["removal"] == "tap"
    assert GAME.new([ANN, BEN], defaults)["options"]["removal"] == "tap"


def test_inputs_for_finds_the_games_mapping():
    mapping = inputs_for(GAME)
    assert isinstance(mapping, AbracadaInputs) and mapping.game is GAME
