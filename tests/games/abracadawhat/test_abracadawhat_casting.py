"""Abracada...What?: turns, casting, order and removal (spec section 2.2 and the table of 4.3)."""

from __future__ import annotations

import pytest
from abr_support import (
    GAME,
    active,
    cast,
    decline_secret,
    end_turn,
    events,
    kinds,
    life,
    names,
    play,
    rack,
    refill,
    refused,
    remove,
    roll,
    seated,
    step,
    take_secret,
    tap_deal,
)

from companion.rules import HOST, TABLE

PLAYER_COUNTS = [2, 3, 4, 5]
ANN = [3, 5, 6, 7, 8]  # Ann's usual rack: no 1, 2 or 4


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_only_the_active_player_casts_or_ends_the_turn(n):
    """ABR-TURN-1: every turn action by a player who is not active is refused, before and after a
    success."""
    state = seated(n, {"Ann": ANN})
    after_success = play(state, cast("Ann", 8))
    for other in names(n)[1:]:
        for s in (state, after_success):
            refused(s, cast(other, 8), "ABR-TURN-1")
            refused(s, end_turn(other), "ABR-TURN-1")


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_a_turn_begins_with_a_cast_attempt(n):
    """ABR-TURN-1, ABR-ENDT-1: there is no pass before the first success: ending the turn is not
    offered and is refused until a cast has succeeded."""
    state = seated(n, {"Ann": ANN})
    assert end_turn("Ann") not in GAME.legal_actions(state)
    assert {a["spell"] for a in GAME.legal_actions(state)} == set(range(1, 9))
    refused(state, end_turn("Ann"), "ABR-ENDT-1")


def test_a_cast_attempt_is_a_public_declaration():
    """ABR-TURN-2: a cast attempt is the spoken name and number of the spell; the companion
    announces it to everyone."""
    state = seated(4, {"Ann": ANN})
    for spell, name in [(6, "Blizzard"), (2, "Dark Wanderer")]:
        declared = events(step(state, cast("Ann", spell)), "declared")
        assert len(declared) == 1
        assert declared[0]["spell"] == spell and declared[0]["player"] == "Ann"
        assert name in declared[0]["text"]
        assert "private" not in declared[0]


def test_the_rack_decides_whether_a_cast_succeeds():
    """ABR-CAST-1, ABR-AMB-9: the racks are sensed, so the companion checks the caster's rack
    itself: one action resolves the attempt, with no verification step to answer."""
    state = seated(4, {"Ann": ANN})
    held = step(state, cast("Ann", 6))
    assert "cast_succeeded" in kinds(held) and "cast_failed" not in kinds(held)
    missing = step(state, cast("Ann", 2))
    assert "cast_failed" in kinds(missing) and "cast_succeeded" not in kinds(missing)
    assert events(missing, "cast_failed")[0]["rule"] == "ABR-CAST-2"
    refused(state, {"type": "verify", "player": "Ben", "has": True}, "INPUT-2")


def test_an_acquired_secret_stone_never_counts():
    """ABR-CAST-1, ABR-SPELL-4: only rack stones count; a 5 taken with Night Singer does not make
    a cast of 5 succeed."""
    state = seated(4, {"Ann": [3, 4, 6, 7, 8]}, acquired={"Ann": [5]})
    result = step(state, cast("Ann", 5))
    assert "cast_failed" in kinds(result)
    assert life(result.state)["Ann"] == 5
    assert result.state["acquired"][0] == [5]


def test_tapping_an_acquired_stone_as_the_cast_stone_is_refused():
    """ABR-SPELL-4, ABR-CAST-4: with tagged stones, the right neighbour cannot lay the caster's
    acquired secret stone on the board in place of a rack stone (section 4.3: counting an acquired
    secret stone as the matching stone is refused under ABR-SPELL-4)."""
    players = ["Ann", "Ben"]
    state = GAME.new(players, {"removal": "tap"})
    state = tap_deal(
        state,
        {"Ann": [4, 5, 6, 7, 8], "Ben": [2, 3, 8, 8, 8]},
        removed=[1, 2, 3, 3, 4, 6, 6, 6, 6, 7, 7, 7],
        secret=[5, 4, 4, 5],
    )
    state = play(
        state, cast("Ann", 4), remove(4, "Ben", tag="Ann#0"), take_secret("Ann", 0), cast("Ann", 5)
    )
    assert state["phase"] == "remove"
    refused(state, remove(5, "Ben", tag="S0"), "ABR-SPELL-4")
    refused(state, remove(5, "Ben", tag="S3"), "ABR-CAST-4")  # still on the board, not his
    state = play(state, remove(5, "Ben", tag="Ann#1"))
    assert rack(state, "Ann") == [6, 7, 8]
    assert state["tags"]["S0"] == ["acquired:0", 5]


def test_a_failed_cast_costs_one_life_and_ends_the_turn():
    """ABR-CAST-2, ABR-ENDT-2: without the stone the caster loses 1 life and the turn ends at once,
    even after an earlier success in the same turn."""
    state = seated(4, {"Ann": ANN})
    result = step(state, cast("Ann", 2))
    assert life(result.state)["Ann"] == 5
    assert active(result.state) == "Ben"  # full rack: nothing to refill
    after_success = play(state, cast("Ann", 6))
    result = step(after_success, cast("Ann", 6))  # her only 6 is on the board now
    assert life(result.state)["Ann"] == 5
    assert result.state["phase"] == "refill" and result.state["refill_left"] == 1
    refused(result.state, cast("Ann", 7), "ABR-ENDT-4")


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5])
def test_a_failed_ancient_dragon_costs_a_die_roll(value):
    """ABR-CAST-3: a failed spell 1 makes the caster roll and lose the result instead of 1."""
    state = seated(4, {"Ann": ANN})
    failed = step(state, cast("Ann", 1))
    assert events(failed, "cast_failed")[0]["rule"] == "ABR-CAST-3"
    state = failed.state
    assert state["phase"] == "roll"
    assert life(state)["Ann"] == 6
    # the prompt says why the die is rolled and what it does, not only "roll the die"
    assert GAME.view(state, "Ben")["prompt"] == (
        "Ann does not hold Ancient Dragon: roll the die; Ann loses as much life as it shows "
        "(ABR-CAST-3)."
    )
    chance = GAME.chance(state)
    assert (chance.kind, chance.rule, chance.player) == ("die", "ABR-CAST-3", "Ann")
    refused(state, cast("Ann", 8), "ABR-CAST-3")
    result = step(state, roll(value, "Ann"))
    assert life(result.state)["Ann"] == 6 - value
    assert active(result.state) == "Ben"


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@pytest.mark.parametrize("caster", [0, 1])
def test_the_right_neighbour_removes_the_stone(n, caster):
    """ABR-CAST-4: the player on the caster's right (the previous seat clockwise) removes one stone
    of the declared number from the caster's rack and lays it on the board."""
    players = names(n)
    me = players[caster]
    right = players[(caster - 1) % n]
    state = seated(n, {me: [6, 6, 7, 7, 8]}, active=me)
    result = step(state, cast(me, 6))
    assert events(result, "cast_succeeded")[0]["remover"] == right
    assert rack(result.state, me) == [6, 7, 7, 8]  # one 6 only
    assert result.state["cast"][5] == state["cast"][5] + 1


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_with_tap_removal_the_game_waits_for_the_right_neighbour(n):
    """ABR-CAST-4, ABR-CAST-5: with ``removal="tap"`` the cast waits until the right neighbour taps
    the stone; no effect happens before the removal."""
    players = names(n)
    right = players[-1]
    state = seated(n, {"Ann": ANN}, options={"removal": "tap"})
    state = play(state, cast("Ann", 6))
    assert state["phase"] == "remove"
    view = GAME.view(state, TABLE)
    assert view["pending"] == {"spell": 6, "remover": right}
    assert view["waiting_for"] == [right]
    assert right in view["prompt"]
    assert life(state) == {p: 6 for p in players}
    assert rack(state, "Ann") == ANN
    assert GAME.legal_actions(state) == [remove(6)]
    result = step(state, remove(6, right))
    assert rack(result.state, "Ann") == [3, 5, 7, 8]
    assert kinds(result).index("stone_removed") < kinds(result).index("life")


def test_tap_removal_refusals():
    """ABR-CAST-4: the stone removed must carry the declared number, come from the caster's rack,
    and be removed by the caster's right neighbour; only after a successful cast."""
    players = ["Ann", "Ben", "Cid"]
    state = GAME.new(players, {"removal": "tap"})
    racks = {"Ann": [3, 5, 6, 7, 8], "Ben": [6, 6, 7, 8, 8], "Cid": [2, 4, 5, 7, 8]}
    state = tap_deal(state, racks, removed=[1, 2, 3, 4, 4, 5], secret=[8, 8, 7, 7])
    refused(state, remove(6, "Cid"), "ABR-CAST-4")  # nothing cast yet
    state = play(state, cast("Ann", 6))
    refused(state, remove(7, "Cid"), "ABR-CAST-4")  # wrong number
    refused(state, remove(6, "Ben"), "ABR-CAST-4")  # Ben is on Ann's left
    refused(state, remove(6, "Ann"), "ABR-CAST-4")  # the caster cannot see his rack
    refused(state, remove(6, "Cid", tag="Ben#0"), "ABR-CAST-4")  # a 6 from Ben's rack
    refused(state, cast("Ann", 7), "ABR-CAST-4")  # the removal comes first
    state = play(state, remove(6, "Cid", tag="Ann#2"))
    assert state["tags"]["Ann#2"] == ["board", 6]
    assert life(state)["Ben"] == 5  # Blizzard hits Ann's left


def test_the_effect_follows_the_removal():
    """ABR-CAST-5: the stone leaves the rack first, then the spell's effect is resolved."""
    state = seated(3, {"Ann": ANN})
    result = step(state, cast("Ann", 7))
    order = kinds(result)
    assert order.index("cast_succeeded") < order.index("stone_removed") < order.index("life")


def test_after_a_success_the_caster_may_cast_again_or_end():
    """ABR-CAST-6: after a successful cast the caster chooses between another attempt and ending
    the turn."""
    state = play(seated(4, {"Ann": ANN}), cast("Ann", 5))
    legal = GAME.legal_actions(state)
    assert end_turn("Ann") in legal
    assert cast("Ann", 6) in legal
    again = play(state, cast("Ann", 6))
    assert again["successes"] == 2 and active(again) == "Ann"
    ended = play(state, end_turn("Ann"))
    assert ended["phase"] == "refill"


@pytest.mark.parametrize("first,second", [(5, 5), (5, 6), (3, 8), (6, 7), (7, 7)])
def test_equal_or_higher_casts_are_checked_normally(first, second):
    """ABR-CAST-7: a further cast of an equal or higher number is a normal attempt."""
    state = seated(3, {"Ann": [3, 5, 5, 6, 7]}, secret=[7, 7, 8, 8])
    state = play(state, cast("Ann", first))
    if first == 3:
        state = play(state, roll(2))
    result = step(state, cast("Ann", second))
    assert "out_of_order" not in kinds(result)
    held = second in rack(state, "Ann")
    assert ("cast_succeeded" if held else "cast_failed") in kinds(result)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@pytest.mark.parametrize("me", [[8, 6, 8, 8, 7], [5, 4, 8, 8, 7], [7, 1, 8, 8, 8], [6, 3, 8, 8, 7]])
def test_a_lower_cast_costs_one_life_and_ends_the_turn(n, me):
    """ABR-CAST-8: a lower number after a success costs exactly 1 life and ends the turn; no stone
    is removed and no effect happens (Ann casts her first stone, then the lower second one)."""
    first, lower = me[0], me[1]
    state = play(seated(n, {"Ann": me}), cast("Ann", first))
    result = step(state, cast("Ann", lower))
    assert kinds(result)[:3] == ["declared", "out_of_order", "life"]
    assert events(result, "out_of_order")[0]["rule"] == "ABR-CAST-8"  # the phone shows it
    assert "stone_removed" not in kinds(result) and "cast_succeeded" not in kinds(result)
    after = result.state
    assert life(after)["Ann"] == life(state)["Ann"] - 1
    assert {p: v for p, v in life(after).items() if p != "Ann"} == {
        p: v for p, v in life(state).items() if p != "Ann"
    }
    assert rack(after, "Ann") == rack(state, "Ann")  # he keeps the lower stone
    assert after["cast"] == state["cast"] and after["acquired"] == state["acquired"]
    assert after["phase"] == "refill" and after["refill_left"] == 1


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_a_lower_cast_gives_no_hint(n):
    """ABR-CAST-8, ABR-HID-7: the response to a lower cast is the same whether or not the caster
    holds the stone: no possession check happens."""
    with_4 = play(seated(n, {"Ann": [4, 5, 6, 7, 8]}, secret=[7, 7, 7, 7]), cast("Ann", 5))
    without = play(seated(n, {"Ann": [7, 5, 6, 7, 8]}, secret=[4, 7, 7, 7]), cast("Ann", 5))
    a, b = step(with_4, cast("Ann", 4)), step(without, cast("Ann", 4))
    assert a.events == b.events
    for viewer in ("Ann", TABLE, HOST):
        assert GAME.view(a.state, viewer) == GAME.view(b.state, viewer)


def test_board_tallies_are_public():
    """ABR-CAST-9: the stone counts per number are public and the board shows what was used, so
    every viewer can reason from the same tally."""
    state = play(seated(3, {"Ann": ANN}), cast("Ann", 5), cast("Ann", 6), end_turn("Ann"))
    for viewer in ("Ann", "Ben", "Cid", TABLE, HOST):
        board = GAME.view(state, viewer)["board"]
        assert board["cast"] == state["cast"]
        assert board["removed"] == state["removed"]
    assert state["cast"][4] >= 1 and state["cast"][5] >= 1


# -- the refusal table of spec section 4.3, for every player count -------------------------------


def phases(n: int) -> dict[str, dict]:
    """One state per phase of Ann's turn at an ``n``-player table (Ann holds 3 4 5 6 8)."""
    base = seated(n, {"Ann": [3, 4, 5, 6, 8]})
    return {
        "start": base,
        "declare": play(base, cast("Ann", 5)),
        "roll": play(base, cast("Ann", 3)),
        "secret": play(base, cast("Ann", 4)),
        "refill": play(base, cast("Ann", 5), end_turn("Ann")),
    }


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_refusals_of_section_4_3(n):
    """ABR-TURN-1, ABR-COMP-1, ABR-ENDT-1, ABR-SPELL-1, ABR-HID-2, ABR-CAST-4, ABR-ENDT-4: the
    inputs the engine must reject, each refused under its rule and leaving the state unchanged."""
    s = phases(n)
    other = names(n)[1]
    refused(s["declare"], cast(other, 6), "ABR-TURN-1")
    refused(s["declare"], end_turn(other), "ABR-TURN-1")
    refused(s["secret"], take_secret(other, 0), "ABR-TURN-1")
    refused(s["secret"], decline_secret(other), "ABR-TURN-1")
    refused(s["start"], cast("Ann", 9), "ABR-COMP-1")
    refused(s["start"], end_turn("Ann"), "ABR-ENDT-1")
    for phase in ("start", "declare", "secret", "refill"):
        refused(s[phase], roll(3), "ABR-SPELL-1")
    for phase in ("start", "declare", "roll", "refill"):
        refused(s[phase], take_secret("Ann", 0), "ABR-HID-2")
        refused(s[phase], decline_secret("Ann"), "ABR-HID-2")
    for phase in ("start", "declare", "roll", "secret", "refill"):
        refused(s[phase], remove(5), "ABR-CAST-4")
    for phase in ("start", "declare", "roll", "secret"):
        refused(s[phase], refill("Ann", 8), "ABR-ENDT-4")
    refused(s["roll"], cast("Ann", 5), "ABR-SPELL-3")
    refused(s["secret"], cast(other, 5), "ABR-TURN-1")  # the caster going on declines instead
    refused(s["refill"], cast("Ann", 5), "ABR-ENDT-4")
    refused(s["refill"], end_turn("Ann"), "ABR-ENDT-4")
    refused(s["start"], cast("Zed", 5), "INPUT-3")
    refused(s["start"], {"type": "cast", "spell": 5}, "INPUT-1")
    refused(s["start"], {"type": "shout"}, "INPUT-2")
    refused(s["start"], {"no": "type"}, "INPUT-1")


def test_the_prompt_to_draw_one_stone_says_it_once():
    """ABR-CAST-2, ABR-ENDT-2: one stone to draw is asked for in the singular."""
    after_success = play(seated(4, {"Ann": ANN}), cast("Ann", 6))
    result = step(after_success, cast("Ann", 6))
    assert result.state["refill_left"] == 1
    assert GAME.view(result.state, TABLE)["prompt"] == (
        "Ann: draw 1 stone from the reserve and tap it."
    )
