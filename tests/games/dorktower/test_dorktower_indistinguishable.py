"""``indistinguishable`` in Dork Tower: what the secrets harness deals anew keeps a trade's offer
where its parties saw it (the game-independent checks are in
``tests/rules/test_indistinguishable.py``)."""

from __future__ import annotations

import random

from companion.games import get_game
from companion.rules import HOST, TABLE, Accepted


def test_scrolls_offered_in_a_trade_stay_where_the_parties_saw_them():
    """DT-AMB-30: an offer's scrolls are seen by the two parties only. For the partner they stay
    in the giver's hand; for anyone else the giver's hand is dealt anew and the offer names the
    new cards in the same places, so the trade can still be accepted."""
    game = get_game("dorktower")
    state = game.new(
        ["Ann", "Bob", "Cid"],
        {
            "scenario": {
                "heroes": {
                    "Ann": {
                        "character": "topdeck",
                        "home": "rv-city",
                        "space": "rv-moor",
                        "scrolls": ["aegis", "hex"],
                    },
                    "Bob": {
                        "character": "lumpin",
                        "home": "th-city",
                        "space": "rv-moor",
                        "scrolls": ["rewind"],
                    },
                    "Cid": {"character": "grimnir", "home": "cd-city"},
                }
            }
        },
        seed=7,
    )
    state = game.apply(state, {"type": "stop", "player": "Ann"}).state
    state = game.apply(
        state,
        {
            "type": "offer",
            "player": "Ann",
            "with": "Bob",
            "give": {"scrolls": ["hex"]},
            "take": {"scrolls": 1},
        },
    ).state
    rng = random.Random(3)
    moved = 0
    for _ in range(40):
        for_bob = game.indistinguishable(state, "Bob", rng)
        assert "hex" in for_bob["heroes"][0]["scrolls"]
        assert for_bob["offer"]["give"]["scrolls"] == ["hex"]
        for viewer in ("Cid", TABLE, HOST):
            other = game.indistinguishable(state, viewer, rng)
            hand = other["heroes"][0]["scrolls"]
            (given,) = other["offer"]["give"]["scrolls"]
            assert given == hand[1] and len(hand) == 2
            moved += given != "hex"
            assert game.view(other, viewer) == game.view(state, viewer)
            accepted = game.apply(
                other, {"type": "accept", "player": "Bob", "scrolls": other["heroes"][1]["scrolls"]}
            )
            assert isinstance(accepted, Accepted), accepted
    assert moved >= 60
