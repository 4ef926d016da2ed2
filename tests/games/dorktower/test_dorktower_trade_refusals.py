"""Dork Tower: what a refused trade says (DT-TRADE-1, DT-CARD-6): a malformed side, gold, items or
scrolls the owner does not have, an offer that is gone, an item that left before the accept;
each refusal names its rule and the player it is about, and changes nothing."""

from __future__ import annotations

from dt_support import act, arrange, hero, kinds, refused

from companion.rules.api import MALFORMED


def met() -> dict:
    """Ann stops on the moor where Bob stands with a dagger and Hex; the trade window opens."""
    state = arrange(
        {
            "Ann": hero("topdeck", "rv-city", space="rv-moor", gold=60, scrolls=["aegis"]),
            "Bob": hero(
                "lumpin", "th-city", space="rv-moor", items=[{"card": "dagger"}], scrolls=["hex"]
            ),
        }
    )
    state, _ = act(state, type="stop", player="Ann")
    return state


def offer(state: dict, code: str, **sides) -> str:
    return str(refused(state, code, type="offer", player="Ann", **{"with": "Bob"}, **sides).reason)


def test_a_malformed_side_names_what_is_wrong():
    """A side has gold, items and scrolls only; gold is a whole number (MALFORMED)."""
    reason = offer(met(), MALFORMED, give={"silver": 1, "gems": 2})
    assert reason == "A side of a trade has gold, items and scrolls, not gems, silver."
    assert offer(met(), MALFORMED, give={"gold": -1}) == "gold is a whole number."
    assert offer(met(), MALFORMED, give={"gold": True}) == "gold is a whole number."


def test_what_a_side_lacks_is_named_with_its_owner():
    """DT-TRADE-1, DT-CARD-6: Ann has 60 gold, not 61; Bob has no bow; Ann's hand is Aegis once;
    Bob holds one scroll, so two cannot be asked for."""
    state = met()
    assert offer(state, "DT-TRADE-1", give={"gold": 61}) == "Ann has 60 gold, not 61."
    assert offer(state, "DT-TRADE-1", take={"items": ["bow"]}) == "Bob does not have those items."
    assert offer(state, "DT-TRADE-1", take={"items": "dagger"}) == "Bob does not have those items."
    for scrolls in (["hex"], ["aegis", "aegis"], "aegis"):
        reason = offer(state, "DT-CARD-6", give={"scrolls": scrolls})
        assert reason == "Those scrolls are not in Ann's hand."
    for asked in (2, -1, True, "1"):
        reason = offer(state, "DT-TRADE-1", give={"scrolls": []}, take={"scrolls": asked})
        assert reason == "Ask Bob for a number of scrolls, at most as many as he holds."


def test_accepting_without_an_offer_or_after_the_item_left():
    """DT-TRADE-1: nobody accepts an offer not made to him; an item offered that is no longer
    held when the offer is accepted refuses the accept; a done trade is public to both."""
    state = met()
    reason = refused(state, "DT-TRADE-1", type="accept", player="Bob", scrolls=[]).reason
    assert str(reason) == "There is no offer for you to accept."
    state, _ = act(
        state,
        type="offer",
        player="Ann",
        **{"with": "Bob"},
        give={"gold": 10, "scrolls": []},
        take={"items": ["dagger"], "scrolls": 0},
    )
    reason = refused(state, "DT-TRADE-1", type="accept", player="Ann", scrolls=[]).reason
    assert str(reason) == "There is no offer for you to accept."
    gone = {**state, "heroes": [dict(h) for h in state["heroes"]]}
    gone["heroes"][1]["slots"] = [None, None, None, None]
    reason = refused(gone, "DT-TRADE-1", type="accept", player="Bob", scrolls=[]).reason
    assert str(reason) == "An item of the offer is no longer there."
    state, events = act(state, type="accept", player="Bob", scrolls=[])
    traded = next(e for e in events if e["type"] == "traded")
    assert traded["players"] == ["Ann", "Bob"] and traded["audience"] == ["Ann", "Bob"]
    assert "traded" in kinds(events)
