"""Abracada...What? through the table's History: undo and refusals."""

from __future__ import annotations

from abr_support import GAME, cast, deal_action, end_turn, names, refill

from companion.rules import Accepted, Refusal
from companion.table.history import NOTHING_TO_UNDO, History

UNDO = {"type": "undo"}
DEAL = deal_action(
    {"Ann": [5, 6, 7, 7, 8], "Ben": [2, 3, 6, 8, 8], "Cid": [4, 5, 6, 7, 8]},
    secret=[4, 5, 5, 5],
    removed=[1, 2, 3, 3, 4, 4],
)


def history() -> History:
    h = History(GAME, names(3))
    assert isinstance(h.submit(DEAL), Accepted)
    return h


def test_nothing_to_undo_is_refused():
    """A new game has no action to withdraw yet (the deal will be the first): an undo is refused
    under TABLE-UNDO-1 and changes nothing."""
    h = History(GAME, names(3))
    before = h.state
    result = h.submit(UNDO)
    assert isinstance(result, Refusal) and result.rule == NOTHING_TO_UNDO
    assert h.state == before and h.actions == []


def test_undo_withdraws_the_last_action_and_can_be_repeated():
    """Undo restores exactly the state before the last action in effect (a failed dragon's lost
    life comes back); repeated undos walk further back, down to before the deal."""
    h = history()
    states = [h.state]
    for action in (cast("Ann", 1), {"type": "roll", "value": 2}, cast("Ben", 8)):
        assert isinstance(h.submit(action), Accepted), action
        states.append(h.state)
    assert [s["life"][0] for s in states] == [6, 6, 4, 4]  # Ann fails a dragon and rolls 2
    for expected in reversed(states[:-1]):
        result = h.submit(UNDO)
        assert isinstance(result, Accepted)
        assert h.state == expected
        assert result.events[0]["type"] == "undone"
    assert isinstance(h.submit(UNDO), Accepted)  # the deal
    assert h.state["phase"] == "deal"
    assert h.submit(UNDO).rule == NOTHING_TO_UNDO


def test_a_refused_action_changes_nothing_in_the_history():
    """ABR-TURN-1: a refusal is not recorded: the next undo withdraws the last accepted action."""
    h = history()
    h.submit(cast("Ann", 8))
    state, actions = h.state, h.actions
    result = h.submit(cast("Cid", 8))
    assert isinstance(result, Refusal) and result.rule == "ABR-TURN-1"
    assert h.state == state and h.actions == actions
    h.submit(UNDO)
    assert h.state["successes"] == 0


def test_undoing_a_refill_names_no_stone():
    """ABR-HID-8: the undo of a refill says what was undone, never which stones were drawn."""
    h = history()
    h.submit(cast("Ann", 5))
    h.submit(end_turn("Ann"))
    assert isinstance(h.submit(refill("Ann", 6)), Accepted)  # the reserve holds 6s, 7s and 8s
    (undone,) = h.submit(UNDO).events
    back = "Put the stone last laid on Ann's rack back in the reserve."
    assert undone == {
        "type": "undone",
        "text": f"Undone: Ann drawing from the reserve. {back}",
        "undone": "refill",
        "player": "Ann",
        "put_back": back,
        "steps": [
            {
                "thing": {"kind": "stone", "name": None},
                "from": {"kind": "rack", "owner": "Ann", "name": None},
                "to": {"kind": "reserve", "owner": None, "name": None},
                "text": back,
                "count": 1,
                "confirm": None,
                "becomes": None,
            }
        ],
    }
    assert h.state["phase"] == "refill"


def test_undoing_a_penalty_gives_the_life_token_back():
    """ABR-CAST-8, ABR-LIFE-1: the undo of a lower cast names it (the spell was declared aloud)
    and asks for the life token back; no stone moved."""
    h = history()
    h.submit(cast("Ann", 8))
    h.submit(cast("Ann", 5))  # lower than 8: 1 life, the turn ends
    (undone,) = h.submit(UNDO).events
    assert undone["text"] == (
        "Undone: Ann casting 5 Lightning Storm. Set the life tokens back: Ann to 6."
    )
    assert undone["put_back"] == "Set the life tokens back: Ann to 6."


def test_undoing_a_declaration_without_consequence_puts_nothing_back():
    h = history()
    h.submit(cast("Ann", 8))
    h.submit(end_turn("Ann"))
    (undone,) = h.submit(UNDO).events
    assert undone["text"] == "Undone: Ann ending the turn."
    assert undone["put_back"] is None
