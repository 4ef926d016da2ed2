"""History: a game as the sequence of its accepted actions, with undo as an entry of its own."""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from table_support import ANN, BEN, GAME, PLAYERS

from companion.rules import Accepted, Refusal
from companion.table.history import NOTHING_TO_UNDO, History

UNDO = {"type": "undo"}


def history(**options) -> History:
    return History(GAME, PLAYERS, options, seed=5)


def dealt_history(**options) -> History:
    """A history whose first accepted entry is the sampled deal of round 1."""
    h = history(**options)
    assert isinstance(h.submit(GAME.sample(h.state)), Accepted)
    return h


def held_spell(h: History, seat: int) -> int:
    """A spell the player at ``seat`` holds, so casting it succeeds."""
    return h.state["racks"][seat][0]


def next_step(h: History, rng: random.Random) -> dict:
    """A chance step if the game waits for one, else one of the legal choices."""
    if GAME.chance(h.state) is not None:
        return GAME.sample(h.state)
    return rng.choice(GAME.legal_actions(h.state))


def test_a_new_history_is_the_new_game():
    h = history()
    assert h.state == GAME.new(PLAYERS, {}, 5) and h.actions == []


def test_an_accepted_action_becomes_the_state_and_is_recorded():
    h = dealt_history()
    cast = {"type": "cast", "player": ANN, "spell": held_spell(h, 0)}
    result = h.submit(cast)
    assert isinstance(result, Accepted) and h.state == result.state
    assert h.actions[-1] == cast and len(h.actions) == 2


def test_a_refused_action_changes_nothing():
    h = dealt_history()
    before, actions = copy.deepcopy(h.state), h.actions
    result = h.submit({"type": "cast", "player": BEN, "spell": 3})  # not Ben's turn
    assert isinstance(result, Refusal) and result.rule == "ABR-TURN-1"
    assert h.state == before and h.actions == actions


def test_undo_restores_the_exact_previous_state():
    """After an action and its undo, state and action list equal the snapshot before the action."""
    h = dealt_history()
    before, actions = copy.deepcopy(h.state), h.actions
    assert isinstance(
        h.submit({"type": "cast", "player": ANN, "spell": held_spell(h, 0)}), Accepted
    )
    assert h.state != before
    result = h.submit(UNDO)
    assert isinstance(result, Accepted) and result.state == before
    assert h.state == before and h.actions == actions


def test_repeated_undo_walks_back_to_the_start_then_is_refused():
    """Each undo withdraws the next most recent action; past the first one there is nothing."""
    h = history()
    snapshots = [copy.deepcopy(h.state)]
    rng = random.Random(3)
    for _ in range(6):
        assert isinstance(h.submit(next_step(h, rng)), Accepted)
        snapshots.append(copy.deepcopy(h.state))
    for expected in reversed(snapshots[:-1]):
        assert isinstance(h.submit(UNDO), Accepted)
        assert h.state == expected
    refusal = h.submit(UNDO)
    assert isinstance(refusal, Refusal) and refusal.rule == NOTHING_TO_UNDO == "TABLE-UNDO-1"
    assert h.state == snapshots[0] and h.actions == []


def test_undo_of_a_new_game_is_refused():
    h = history()
    result = h.submit(UNDO)
    assert result == Refusal("TABLE-UNDO-1", result.reason) and result.reason
    assert h.state == GAME.new(PLAYERS, {}, 5)


def test_an_undone_action_can_be_played_again():
    h = dealt_history()
    cast = {"type": "cast", "player": ANN, "spell": held_spell(h, 0)}
    first = h.submit(cast).state
    h.submit(UNDO)
    assert h.submit(cast).state == first


def test_the_undone_event_says_in_words_what_was_undone_and_what_goes_back():
    """Undoing a tapped removal, a cast and a deal says what was undone in the game's words
    (``Game.describe``) and what the players put back by hand (``Game.put_back``): the removed
    stone goes back from the board to the caster's rack (it is on the board: the prompt that
    follows asks the neighbour to take it from the rack again). Only numbers everyone saw are
    named (the cast and removed stone), never a stone dealt to a rack."""
    h = history(removal="tap")
    deal = GAME.sample(h.state)
    h.submit(deal)
    spell = held_spell(h, 0)
    h.submit({"type": "cast", "player": ANN, "spell": spell})
    h.submit({"type": "remove", "stone": spell, "tag": "04000007"})
    seen = []
    for undone_type, player in [("remove", None), ("cast", ANN), ("deal", None)]:
        result = h.submit(UNDO)
        (event,) = result.events
        assert event["type"] == "undone" and event["undone"] == undone_type
        assert event["player"] == player
        if undone_type != "deal":
            assert {ch for ch in event["text"] if ch.isdigit()} <= {str(spell)}, event["text"]
        assert not {"stone", "stones", "spell", "tag", "racks"} & set(event)
        seen.append(event["text"])
    assert seen[0] == (
        f"Undone: {BEN} laying {ANN}'s {spell} on the board. "
        f"Put the {spell} from the board back on {ANN}'s rack."
    )
    assert seen[1].startswith(f"Undone: {ANN} casting {spell} ")
    assert seen[2] == (
        "Undone: the deal of round 1. Gather every stone of the deal back into the reserve."
    )
    assert h.state["phase"] == "deal"


def test_check_changes_nothing():
    """check answers what submit would, for actions, refusals and undo, without recording it."""
    h = dealt_history()
    before, actions = copy.deepcopy(h.state), h.actions
    cast = {"type": "cast", "player": ANN, "spell": held_spell(h, 0)}
    checked = h.check(cast)
    assert isinstance(h.check({"type": "end_turn", "player": ANN}), Refusal)
    assert isinstance(h.check(UNDO), Accepted)
    assert h.state == before and h.actions == actions
    assert h.submit(cast) == checked


def test_commit_records_what_check_accepted():
    """The table's two-step path (check, persist, commit) gives the same result as submit."""
    h, twin = dealt_history(), dealt_history()
    cast = {"type": "cast", "player": ANN, "spell": held_spell(h, 0)}
    result = h.check(cast)
    h.commit(cast, result)
    twin.submit(cast)
    assert h.state == twin.state and h.actions == twin.actions
    undo = h.check(UNDO)
    h.commit(UNDO, undo)
    assert h.state == undo.state and len(h.actions) == 1


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(1, 25))
def test_undoing_every_step_of_any_game_retraces_it(seed, steps):
    """Play random legal steps, then undo them all: each undo lands on the earlier state."""
    h = history()
    rng = random.Random(seed)
    snapshots = [copy.deepcopy(h.state)]
    for _ in range(steps):
        if h.state["phase"] == "over":
            break
        assert isinstance(h.submit(next_step(h, rng)), Accepted)
        snapshots.append(copy.deepcopy(h.state))
    for expected in reversed(snapshots[:-1]):
        h.submit(UNDO)
        assert h.state == expected
    assert h.actions == []


def small_windows(monkeypatch) -> tuple[int, int]:
    """Windows small enough for an Abracada...What? game to go well past them."""
    from companion.table import history as module

    monkeypatch.setattr(module, "KEEP_RECENT", 8)
    monkeypatch.setattr(module, "CHECKPOINT_EVERY", 16)
    return 8, 16


def test_a_long_game_keeps_few_states_and_undo_still_walks_back_exactly(monkeypatch):
    """However long the game, the history keeps KEEP_RECENT states and a checkpoint every
    CHECKPOINT_EVERY actions; undoing further back replays from a checkpoint, exactly."""
    KEEP_RECENT, CHECKPOINT_EVERY = small_windows(monkeypatch)
    h = history()
    rng = random.Random(11)
    snapshots = [copy.deepcopy(h.state)]
    while len(snapshots) <= CHECKPOINT_EVERY * 2 + 40 and not GAME.outcome(h.state).finished:
        assert isinstance(h.submit(next_step(h, rng)), Accepted)
        snapshots.append(copy.deepcopy(h.state))
    played = len(snapshots) - 1
    assert played > CHECKPOINT_EVERY + KEEP_RECENT, "the game ended too soon to test this"
    assert len(h._states) == KEEP_RECENT
    assert len(h._checkpoints) == 1 + played // CHECKPOINT_EVERY
    for back in range(played, 0, -1):  # undo everything, checking every state on the way
        result = h.submit(UNDO)
        assert isinstance(result, Accepted) and h.state == snapshots[back - 1], back
        assert h.count == back - 1
    assert h.submit(UNDO).rule == NOTHING_TO_UNDO


def test_undo_then_new_actions_keep_the_checkpoints_true(monkeypatch):
    _, CHECKPOINT_EVERY = small_windows(monkeypatch)
    h = history()
    rng = random.Random(4)
    for _ in range(CHECKPOINT_EVERY + 5):
        if GAME.outcome(h.state).finished:
            break
        h.submit(next_step(h, rng))
    for _ in range(10):  # back past the checkpoint
        h.submit(UNDO)
    other = random.Random(99)
    replay = History(GAME, PLAYERS, {}, seed=5)
    for action in h.actions:
        replay.submit(action)
    for _ in range(30):  # a different story from there
        if GAME.outcome(h.state).finished:
            break
        step = next_step(h, other)
        h.submit(step)
        replay.submit(step)
    assert h.state == replay.state
    for _ in range(25):
        h.submit(UNDO)
        replay.submit(UNDO)
        assert h.state == replay.state
