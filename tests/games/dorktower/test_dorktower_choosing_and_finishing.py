"""Dork Tower: the actions offered while heroes are chosen (DT-SETUP-6), and whom a refused
"done" names when there is nothing to finish (DT-TURN-2)."""

from __future__ import annotations

from dt_support import GAME, act, refused, two


def test_while_heroes_are_chosen_every_offer_is_a_choice():
    """DT-SETUP-6: the first chooser is offered every character with every kingdom city."""
    state = GAME.new(["Ann", "Bob"], {"start_roll": False}, seed=11)
    offers = GAME.legal_actions(state)
    assert offers and all(offer["type"] == "choose" for offer in offers)
    assert {offer["player"] for offer in offers} == {"Ann"}
    state, _ = act(state, **offers[0])
    assert state["choosing"] == 1


def test_done_by_a_player_with_nothing_to_finish_names_him():
    """DT-TURN-2: Bob cannot close anything in Ann's move; the refusal names Bob, then the
    prompt."""
    reason = refused(two(), "DT-TURN-2", type="done", player="Bob").reason
    assert str(reason) == (
        "Nothing for Bob to finish now; Ann: move (4 left), stop, or enter the tower."
    )
