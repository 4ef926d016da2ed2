"""Abracada...What?'s table in public terms (``placement``) and the steps an undo gives
(``put_back_steps``), with the sentence (``put_back``) made from them: a stone is named only where
everyone saw it (ABR-HID-1..5)."""

from __future__ import annotations

from abr_support import GAME, cast, names, play, seated, take_secret

from companion.rules.putting_back import Confirm, Place, Thing, follow

STONE = Thing("stone")


def undo(before: dict, action: dict) -> tuple[dict, list]:
    after = play(before, action)
    steps = GAME.put_back_steps(before, action, after)
    assert follow(GAME.placement(after), steps) == GAME.placement(before)
    return after, steps


def test_the_placement_names_only_the_stones_everyone_saw():
    """Racks, the reserve and the secret stones are counted, never named; the board's and the
    removed stones are named; each player's life tokens lie in front of them, the rest beside."""
    state = seated(3, {"Ann": [5, 6, 7, 8, 8]}, removed=[1, 2, 2, 3, 3, 3], life={"Ben": 4})
    layout = GAME.placement(state)
    assert layout[(STONE, Place("rack", "Ann"))] == 5
    assert not any(thing.name for thing, place in layout if place.kind in ("rack", "reserve"))
    assert layout[(Thing("stone", "2"), Place("removed"))] == 2
    assert layout[(Thing("token", "life"), Place("life", "Ben"))] == 4
    assert layout[(Thing("token", "life"), Place("supply", "Ben"))] == 2
    assert sum(n for (thing, _), n in layout.items() if thing.kind == "stone") == 36


def test_undoing_a_cast_puts_the_stone_from_the_board_back_on_the_rack():
    """ABR-CAST-4: the 8 laid on the board goes back to Ann's rack, nameless there, confirmed by
    tapping it on the board's reader; Fireball's lost life comes back to Cid (ABR-SPELL-7)."""
    before = seated(3, {"Ann": [5, 6, 7, 8, 8]})
    after, steps = undo(before, cast("Ann", 7))
    assert [(s.thing, s.source, s.target, s.becomes, s.confirm) for s in steps] == [
        (Thing("stone", "7"), Place("board"), Place("rack", "Ann"), STONE, Confirm("stone 7")),
        (Thing("token", "life"), Place("supply", "Cid"), Place("life", "Cid"), None, None),
    ]
    assert [str(s.text) for s in steps] == [
        "Put the 7 from the board back on Ann's rack.",
        "Set Cid's life tokens back to 6.",
    ]
    assert GAME.put_back(before, cast("Ann", 7), after) == (
        "Put the 7 from the board back on Ann's rack. Set the life tokens back: Cid to 6."
    )


def test_undoing_a_taken_secret_stone_lays_it_back_in_its_slot():
    """ABR-SPELL-4: the stone Ann took from slot 2 goes back face down, nameless, by hand."""
    before = play(seated(3, {"Ann": [4, 6, 7, 8, 8]}, secret=[5, 5, 6, 6]), cast("Ann", 4))
    assert before["phase"] == "secret"
    _, steps = undo(before, take_secret("Ann", 2))
    assert [(s.thing, s.source, s.target, s.confirm) for s in steps] == [
        (STONE, Place("secret", "Ann"), Place("secret", None, "2"), None)
    ]


def test_undoing_a_stone_removed_face_up_at_the_deal():
    """ABR-SETUP-7: a stone removed face up was seen by everyone: named, and tapped back."""
    state = GAME.new(names(3))
    for stone in [1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 5]:  # the racks
        state = play(state, {"type": "deal_stone", "stone": stone})
    action = {"type": "deal_stone", "stone": 8}
    _, steps = undo(state, action)
    assert [(s.thing, s.source, s.target, s.becomes, s.confirm, str(s.text)) for s in steps] == [
        (
            Thing("stone", "8"),
            Place("removed"),
            Place("reserve"),
            STONE,
            Confirm("stone 8"),
            "Put the 8 laid face up back in the reserve.",
        )
    ]


def test_undoing_the_end_of_a_round_lays_every_stone_back():
    """ABR-ROUND-2, ABR-NEXT-1: the round's end gathered every stone; undoing it lays each back
    from the reserve: the racks and the secret stones by count, the board's by number."""
    before = seated(3, {"Ann": [8]}, secret=[None, 5, 5, 5], acquired={"Ben": [4]}, reserve=0)
    after, steps = undo(before, cast("Ann", 8))
    assert after["round"] == 2
    texts = [str(s.text) for s in steps]
    assert "Lay 1 stone back on Ann's rack, as it was." in texts
    assert "Lay 5 stones back on Ben's rack, as it was." in texts
    assert "Ben takes back the secret stones they had taken (1), face down." in texts
    assert all(s.source == Place("reserve") for s in steps if s.thing.kind == "stone")
    assert GAME.put_back(before, cast("Ann", 8), after).startswith("The end of the round is undone")
