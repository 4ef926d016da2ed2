"""``indistinguishable`` in Abracada...What?: what the secrets harness deals anew keeps the stones
a table can see (the game-independent checks are in ``tests/rules/test_indistinguishable.py``)."""

from __future__ import annotations

import random

from abr_support import assert_stone_invariant, names, tap_deal

from companion.games import get_game
from companion.rules import HOST, TABLE, Accepted


def test_stones_keep_their_count_and_stickers_follow_them():
    """ABR-COMP-1, ABR-HID-1..4: dealt anew, the 36 stones are still all there; a sticker's
    recorded place holds a stone of its number; the stone being removed after a successful cast
    stays in the caster's rack (everyone saw it succeed)."""
    game = get_game("abracadawhat")
    state = tap_deal(
        game.new(names(3), {"removal": "tap"}),
        {"Ann": [8, 8, 7, 6, 1], "Ben": [8, 7, 5, 4, 3], "Cid": [8, 6, 6, 5, 2]},
        [7, 7, 6, 5, 4, 4],
        [8, 3, 6, 7],
    )
    state = game.apply(state, {"type": "cast", "player": "Ann", "spell": 6}).state
    assert state["phase"] == "remove"
    rng = random.Random(5)
    for _ in range(30):
        for viewer in [*state["players"], TABLE, HOST]:
            other = game.indistinguishable(state, viewer, rng)
            assert_stone_invariant(other)
            if viewer in ("Ann", TABLE, HOST):
                assert 6 in other["racks"][0]
                assert isinstance(game.apply(other, {"type": "remove", "stone": 6}), Accepted)
            for uid, (where, n) in other["tags"].items():
                kind, i = where.split(":") if ":" in where else (where, "0")
                place = (
                    other["secret"][int(i) : int(i) + 1]
                    if kind == "secret"
                    else other["racks" if kind == "rack" else "acquired"][int(i)]
                    if kind in ("rack", "acquired")
                    else [n]
                )
                assert n in place, (viewer, uid, where, n)
            assert len(other["tags"]) <= len(state["tags"])
