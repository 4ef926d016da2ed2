"""Dork Tower: what every screen is told of an encounter and a fight (the view's ``encounter``,
``combat.passed``, ``prompt``, ``data_set``): DT-ENC-4, DT-COMBAT-4."""

from __future__ import annotations

from dt_support import act, arrange, draw_tokens, hero, two, view

from companion.rules import TABLE


def test_the_encounter_lists_what_is_drawn_and_what_waits_to_be_resolved():
    """DT-ENC-4: a Merchant and an Orc on the moor: the Merchant waits to be resolved, first;
    the prompt says so to everyone."""
    state, _ = act(two({"space": "rv-moor"}), type="stop", player="Ann")
    state = draw_tokens(state, "merchant", "orc")
    for viewer in (TABLE, "Ann", "Bob"):
        seen = view(state, viewer)
        encounter = seen["encounter"]
        assert (encounter["space"], encounter["wizard"], encounter["quest"]) == (
            "rv-moor",
            False,
            False,
        )
        assert [token["token"] for token in encounter["drawn"]] == ["merchant", "orc"]
        assert encounter["unresolved"] == ["merchant"]
        assert seen["prompt"] == "Ann: resolve the tokens that are not monsters first."
    state, _ = act(state, type="resolve", player="Ann", token="merchant")
    assert view(state, TABLE)["encounter"]["unresolved"] == []


def test_the_fight_names_the_rivals_who_passed():
    """DT-COMBAT-4: Bob passes, Cid has not yet: only Bob is named."""
    state = arrange(
        {
            "Ann": hero("topdeck", "rv-city", space="rv-moor"),
            "Bob": hero("lumpin", "th-city", scrolls=["hex"]),
            "Cid": hero("grimnir", "cd-city", scrolls=["dark-pact"]),
        },
        monsters={"rv-moor": ["orc"]},
    )
    state, _ = act(state, type="stop", player="Ann")
    assert view(state, TABLE)["combat"]["passed"] == []
    state, _ = act(state, type="pass", player="Bob")
    assert view(state, "Cid")["combat"]["passed"] == ["Bob"]


def test_the_view_names_the_data_set():
    assert view(two(), TABLE)["data_set"] == {
        "name": "example",
        "title": "Invented example (not the printed Dork Tower board or cards)",
        "example": True,
    }
