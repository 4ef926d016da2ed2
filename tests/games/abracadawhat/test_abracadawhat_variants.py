"""Abracada...What?: the variants (ABR-VAR-*) and the switches for the rulebook's gaps
(ABR-AMB-1, -3, -4, -14)."""

from __future__ import annotations

import pytest
from abr_support import (
    GAME,
    active,
    cast,
    end_turn,
    events,
    kinds,
    life,
    names,
    play,
    rack,
    refused,
    remove,
    roll,
    scores,
    seated,
    standard_deal,
    step,
    take_secret,
)

from companion.rules import TABLE

EASY = {"easy": True}
LAST = {"last_wizard_standing": True}


def test_variants_are_off_by_default():
    """ABR-VAR-1, ABR-VAR-2: both variants are optional and off unless chosen."""
    options = GAME.new(names(3))["options"]
    assert options["easy"] is False and options["last_wizard_standing"] is False
    assert options["order_violation"] == "auto_penalty"
    assert options["resolve_last_effect"] is True
    assert options["die_faces"] == [1, 2, 3, 4, 5, 6]


# -- ABR-VAR-1 -----------------------------------------------------------------------------------


@pytest.mark.parametrize("order_violation", ["auto_penalty", "require_objection"])
def test_easy_version_allows_any_later_spell(order_violation):
    """ABR-VAR-1: in the easy version a later cast may be any spell; a lower one held succeeds,
    a lower one not held fails normally; no order penalty and no objection."""
    options = {**EASY, "order_violation": order_violation}
    state = play(seated(4, {"Ann": [8, 6, 5, 7, 7]}, options=options), cast("Ann", 8))
    held = step(state, cast("Ann", 6))
    assert "out_of_order" not in kinds(held) and "cast_succeeded" in kinds(held)
    assert held.state["phase"] == "declare" and life(held.state)["Ben"] == 5
    missing = step(state, cast("Ann", 2))
    assert "out_of_order" not in kinds(missing) and "cast_failed" in kinds(missing)
    dragon = step(state, cast("Ann", 1))
    assert dragon.state["phase"] == "roll"  # a failed dragon still costs a roll


# -- ABR-VAR-2 and ABR-AMB-14 --------------------------------------------------------------------


def test_last_wizard_standing_keeps_playing_after_a_knock_out():
    """ABR-VAR-2, ABR-AMB-14: a knocked-out wizard only leaves the round; it goes on while two
    or more survive, and his turns are skipped."""
    state = seated(4, {"Ann": [6, 5, 7, 8, 8]}, life={"Ben": 1}, options=LAST, reserve=0)
    result = step(state, cast("Ann", 6))  # Blizzard: Ben, on Ann's left, is out
    assert events(result, "eliminated")[0]["player"] == "Ben"
    assert "round_over" not in kinds(result)
    state = play(result.state, end_turn("Ann"))
    assert active(state) == "Cid"


def test_neighbours_skip_eliminated_wizards():
    """ABR-AMB-14: left and right mean the nearest surviving wizard in that direction, for the
    spells 5, 6 and 7 and for the removal of stones."""
    state = seated(
        5,
        {"Cid": [5, 6, 7, 8, 8]},
        active="Cid",
        life={"Ben": 0, "Dee": 0},
        options={**LAST, "removal": "tap"},
    )
    # Cid (seat 2): raw right is Ben, raw left Dee; both are out, so Ann and Eve stand in.
    state = play(state, cast("Cid", 5))
    assert GAME.view(state, TABLE)["pending"]["remover"] == "Ann"
    refused(state, remove(5, "Ben"), "ABR-CAST-4")
    state = play(state, remove(5, "Ann"))
    assert life(state) == {"Ann": 5, "Ben": 0, "Cid": 6, "Dee": 0, "Eve": 5}
    state = play(state, cast("Cid", 6), remove(6, "Ann"))
    assert life(state)["Eve"] == 4
    state = play(state, cast("Cid", 7), remove(7, "Ann"))
    assert life(state)["Ann"] == 4


def test_eliminated_wizards_are_not_attacked_again():
    """ABR-AMB-14: Ancient Dragon and Dark Wanderer hit only the surviving wizards."""
    state = seated(4, {"Ann": [1, 2, 6, 7, 8]}, life={"Ben": 0}, options=LAST)
    result = step(play(state, cast("Ann", 1)), roll(2))
    assert [e["player"] for e in events(result, "life")] == ["Cid", "Dee"]
    result = step(result.state, cast("Ann", 2))
    assert [e["player"] for e in events(result, "life")] == ["Cid", "Dee", "Ann"]
    assert life(result.state)["Ben"] == 0


def test_lightning_storm_between_two_survivors_costs_one():
    """ABR-AMB-14, ABR-SPELL-5: when the only other survivor is both neighbours he loses 1."""
    state = seated(3, {"Ann": [5, 6, 7, 8, 8]}, life={"Ben": 0}, options=LAST)
    after = play(state, cast("Ann", 5))
    assert life(after) == {"Ann": 6, "Ben": 0, "Cid": 5}


def test_an_eliminated_wizard_is_not_refilled_and_his_turn_is_skipped():
    """ABR-AMB-14: a self knock-out in this variant only eliminates the wizard; his rack is out of
    play (no refill) and stays hidden from him; the next survivor plays."""
    state = seated(4, {"Ann": [5, 6, 7, 8, 8]}, life={"Ann": 1}, options=LAST)
    state = play(state, cast("Ann", 5), cast("Ann", 2))  # a failure: Ann's last life
    assert state["last_round"] is None
    assert active(state) == "Ben" and state["phase"] == "declare"
    assert len(rack(state, "Ann")) == 4
    assert GAME.view(state, "Ann")["players"]["Ann"]["rack"] is None
    assert GAME.view(state, "Ben")["players"]["Ann"]["rack"] == rack(state, "Ann")
    for p in ("Ben", "Cid", "Dee"):
        state = play(state, cast(p, 1), roll(1))  # every survivor fails a dragon
    assert active(state) == "Ben"


def test_the_last_wizard_standing_wins_two_plus_secret_stones():
    """ABR-VAR-2, ABR-SCORE-6: the round ends when one wizard survives; he scores 2 plus his
    secret stones and everyone else nothing, secret stones or not."""
    state = seated(
        3,
        {"Ann": [7, 5, 6, 8, 8]},
        life={"Ben": 0, "Cid": 1},
        acquired={"Ann": [4], "Cid": [4]},
        options=LAST,
    )
    after = play(state, cast("Ann", 7))  # Fireball: Cid, on Ann's right
    assert after["last_round"]["end"] == "last_standing"
    assert after["last_round"]["gained"] == {"Ann": 3, "Ben": 0, "Cid": 0}
    assert scores(after) == {"Ann": 3, "Ben": 0, "Cid": 0}


def test_stones_out_in_the_last_wizard_variant():
    """ABR-VAR-2: emptying a rack also ends the round: the winner scores 2 plus his secret stones,
    every other wizard nothing, even survivors with secret stones."""
    state = seated(4, {"Ann": [8]}, acquired={"Ann": [4], "Ben": [4]}, options=LAST, reserve=0)
    after = play(state, cast("Ann", 8))
    assert after["last_round"]["end"] == "stones_out"
    assert after["last_round"]["gained"] == {"Ann": 3, "Ben": 0, "Cid": 0, "Dee": 0}


def test_a_self_knock_out_can_leave_one_wizard_standing():
    """ABR-VAR-2, ABR-AMB-14: if a self knock-out leaves one survivor, he wins the round; the next
    round starts left of the wizard who was active."""
    state = seated(
        3,
        {"Cid": [5, 6, 7, 8, 8]},
        active="Cid",
        life={"Cid": 1, "Ann": 0},
        acquired={"Ben": [4]},
        options=LAST,
    )
    state = play(state, cast("Cid", 2))
    assert state["last_round"]["end"] == "last_standing"
    assert state["last_round"]["winner"] == "Ben"
    assert state["last_round"]["gained"] == {"Ann": 0, "Ben": 3, "Cid": 0}
    state = play(state, standard_deal(names(3)))
    assert active(state) == "Ann"
    assert life(state) == {"Ann": 6, "Ben": 6, "Cid": 6}


# -- ABR-AMB-3 -----------------------------------------------------------------------------------


def test_out_of_order_auto_penalty_is_always_one_life():
    """ABR-AMB-3 (auto_penalty, the default): the engine applies ABR-CAST-8 itself, and a lower
    Ancient Dragon costs exactly 1 life, not a die roll."""
    state = play(seated(4, {"Ann": [5, 6, 7, 8, 8]}), cast("Ann", 5))
    result = step(state, cast("Ann", 1))
    assert "out_of_order" in kinds(result)
    assert result.state["phase"] == "refill"
    assert life(result.state)["Ann"] == 5


def test_out_of_order_with_objection():
    """ABR-AMB-3 (require_objection), ABR-CAST-8: the engine waits; when another player objects,
    the caster loses 1 life, the turn ends and nothing is checked."""
    options = {"order_violation": "require_objection"}
    state = play(seated(4, {"Ann": [5, 6, 7, 8, 1]}, options=options), cast("Ann", 5))
    state = play(state, cast("Ann", 1))
    assert state["phase"] == "objection"
    assert life(state)["Ann"] == 6
    view = GAME.view(state, TABLE)
    assert view["waiting_for"] == ["Ben", "Cid", "Dee"]
    assert {(a["type"], a["player"]) for a in GAME.legal_actions(state)} == {
        (t, p) for p in ("Ben", "Cid", "Dee") for t in ("object", "allow")
    }
    refused(state, {"type": "object", "player": "Ann"}, "ABR-CAST-8")
    refused(state, cast("Ann", 6), "ABR-CAST-8")
    result = step(state, {"type": "object", "player": "Cid"})
    assert kinds(result)[:2] == ["objection", "out_of_order"]
    assert life(result.state)["Ann"] == 5
    assert rack(result.state, "Ann") == [1, 6, 7, 8]
    assert result.state["phase"] == "refill"


def test_out_of_order_without_objection_is_checked_like_any_cast():
    """ABR-AMB-3 (require_objection): if nobody objects, the lower cast is verified normally."""
    options = {"order_violation": "require_objection"}
    state = play(seated(4, {"Ann": [5, 6, 7, 8, 8]}, options=options), cast("Ann", 7))
    held = play(state, cast("Ann", 5), {"type": "allow", "player": "Ben"})
    assert life(held) == {"Ann": 6, "Ben": 5, "Cid": 6, "Dee": 4}  # Fireball, then the Storm
    assert held["last_cast"] == 5
    missing = play(state, cast("Ann", 2), {"type": "allow", "player": "Dee"})
    assert life(missing)["Ann"] == 5 and missing["phase"] == "refill"


def test_objections_need_an_out_of_order_cast():
    """ABR-AMB-3, ABR-CAST-8: nothing to object to, or the wrong mode: refused."""
    state = seated(4, {"Ann": [5, 6, 7, 8, 8]}, options={"order_violation": "require_objection"})
    refused(state, {"type": "object", "player": "Ben"}, "ABR-CAST-8")
    refused(state, {"type": "allow", "player": "Ben"}, "ABR-CAST-8")
    auto = play(seated(4, {"Ann": [5, 6, 7, 8, 8]}), cast("Ann", 7), cast("Ann", 5))
    refused(auto, {"type": "object", "player": "Ben"}, "ABR-CAST-8")


# -- ABR-AMB-4 -----------------------------------------------------------------------------------


def test_last_stone_effect_is_resolved_by_default():
    """ABR-AMB-4 (resolve_last_effect on): the last stone's Night Singer is resolved before the
    round ends as stones-out, so its secret stone scores."""
    state = seated(3, {"Ann": [4]}, reserve=0)
    state = play(state, cast("Ann", 4))
    assert state["phase"] == "secret"
    state = play(state, take_secret("Ann", 0))
    assert state["last_round"]["end"] == "stones_out"
    assert state["last_round"]["gained"] == {"Ann": 4, "Ben": 0, "Cid": 0}


def test_stones_out_beats_a_knock_out_by_the_last_stone():
    """ABR-AMB-4: if the last stone also knocks someone out, the round still ends as stones-out:
    every other player drops to 0 and scores nothing (not 1 for the survivors)."""
    state = seated(3, {"Ann": [2]}, life={"Ben": 1}, reserve=0)
    after = play(state, cast("Ann", 2))
    assert after["last_round"]["end"] == "stones_out"
    assert after["last_round"]["gained"] == {"Ann": 3, "Ben": 0, "Cid": 0}
    assert after["last_round"]["life"] == {"Ann": 6, "Ben": 0, "Cid": 0}


@pytest.mark.parametrize("spell", [1, 3, 4, 2])
def test_last_stone_effect_can_be_skipped(spell):
    """ABR-AMB-4 (resolve_last_effect off): the round ends the moment the last stone leaves the
    rack: no roll, no secret stone, no damage."""
    state = seated(
        3, {"Ann": [spell]}, life={"Ann": 3}, reserve=0, options={"resolve_last_effect": False}
    )
    result = step(state, cast("Ann", spell))
    after = result.state
    assert after["last_round"]["end"] == "stones_out"
    assert after["last_round"]["life"] == {"Ann": 3, "Ben": 0, "Cid": 0}
    assert after["last_round"]["gained"] == {"Ann": 3, "Ben": 0, "Cid": 0}
    assert "life" not in kinds(result) and "rolled" not in kinds(result)


# -- ABR-AMB-1 -----------------------------------------------------------------------------------


@pytest.mark.parametrize("faces", [[1, 2, 3, 4, 5, 6], [0, 1, 2], [2, 2, 4, 4, 6, 6]])
def test_die_faces_come_from_the_options(faces):
    """ABR-AMB-1: the die's faces are configuration: a roll must show one of them, and the sampled
    rolls use them."""
    state = play(
        seated(3, {"Ann": [3, 5, 6, 7, 8]}, life={"Ann": 1}, options={"die_faces": faces}),
        cast("Ann", 3),
    )
    assert GAME.chance(state).faces == tuple(faces)
    for bad in (7, -1, "3", True, None):
        if bad not in faces or isinstance(bad, bool):
            refused(state, roll(bad), "ABR-AMB-1")
    assert GAME.sample(state)["value"] in faces
    for face in set(faces):
        assert life(play(state, roll(face)))["Ann"] == min(6, 1 + face)
