"""Dork Tower: a hero's own sheet in his turn: taking an item out of its slot (DT-CHAR-4) and
who may touch a sheet when (DT-TURN-1, DT-TURN-2, DT-AMB-15)."""

from __future__ import annotations

from dt_support import DAGGER_AND_MAIL, GAME, act, arrange, hero, kinds, refused, two, view

from companion.rules import TABLE


def test_an_item_taken_out_of_its_slot_goes_to_the_backpack():
    """DT-CHAR-4: Ann takes her dagger out of slot 1: the slot is empty (everyone sees it), the
    dagger (its face kept) is in her backpack, and she may put it back."""
    state = two({"items": DAGGER_AND_MAIL})
    state, events = act(state, type="unequip", player="Ann", card="dagger")
    hero = state["heroes"][0]
    assert hero["slots"] == [None, {"card": "chain-mail", "face": "equipment"}, None, None]
    assert hero["backpack"] == [{"card": "dagger", "face": "equipment"}]
    assert kinds(events) == ["unequipped"]
    assert (events[0]["player"], events[0]["card"]) == ("Ann", "dagger")
    seen = view(state, TABLE)["players"]["Ann"]
    assert seen["slots"][0]["card"] is None and seen["slots"][0]["accepts"] == ["weapon"]
    assert [entry["card"] for entry in seen["backpack"]] == ["dagger"]
    refused(state, "DT-CARD-5", type="unequip", player="Ann", card="dagger")
    state, events = act(state, type="equip", player="Ann", card="dagger", slot=0)
    assert state["heroes"][0]["slots"][0] == {"card": "dagger", "face": "equipment"}
    assert state["heroes"][0]["backpack"] == [] and events[0]["slot"] == 0


def test_only_the_hero_whose_turn_it_is_touches_his_sheet():
    """DT-TURN-1: Bob may not take his item out in Ann's turn; an item nobody holds in a slot
    is refused (DT-CARD-5)."""
    state = two({"items": DAGGER_AND_MAIL}, {"items": [{"card": "club"}]})
    refused(state, "DT-TURN-1", type="unequip", player="Bob", card="club")
    refused(state, "DT-TURN-1", type="equip", player="Bob", card="club", slot=1)
    refused(state, "DT-CARD-5", type="unequip", player="Ann", card="club")


def test_no_sheet_changes_before_the_game_has_begun():
    """DT-TURN-2: while heroes are chosen nobody equips, unequips or levels up."""
    state = GAME.new(["Ann", "Bob"], {"start_roll": False}, seed=11)
    assert state["phase"] == "choose"
    for action in (
        {"type": "unequip", "card": "dagger"},
        {"type": "equip", "card": "dagger", "slot": 0},
        {"type": "level_up"},
    ):
        refused(state, "DT-TURN-2", player="Ann", **action)


def test_refusals_about_a_sheet_name_the_hero():
    """DT-CARD-5, DT-CARD-6: Ann has no dagger to equip and no Hex to discard."""
    reason = refused(two(), "DT-CARD-5", type="equip", player="Ann", card="dagger", slot=0).reason
    assert str(reason) == "Ann does not have that item."
    reason = refused(two(), "DT-CARD-6", type="discard", player="Ann", scroll="hex").reason
    assert str(reason) == "That scroll is not in Ann's hand."


def test_laeoretha_over_her_own_backpack_limit_is_held_to_it():
    """DT-LIMIT-3: with five items in her backpack (her limit is 4) Laeoretha cannot end her
    turn; the refusal cites her own limit, not the general one."""
    pack = [{"card": c, "slot": "backpack"} for c in ("dagger", "club", "sling", "bow", "spear")]
    state = arrange(
        {"Ann": hero("laeoretha", "rv-city", items=pack), "Bob": hero("lumpin", "th-city")}
    )
    reason = refused(state, "DT-LIMIT-3", type="end_turn", player="Ann").reason
    assert str(reason) == (
        "Ann has 5 items in the backpack: discard down to 4 before the tower turns."
    )
