"""``Game.start_player`` for every registered game (``docs/plays.md``): who played first, as the
rules decided it. Over random playouts it is None or a player, and once decided it never changes;
where the rules announce who starts (an event naming the player), it is that player."""

from __future__ import annotations

import pytest
from test_plugins import GAMES, playout

from companion.games import plugin

#: the events by which a game's rules announce who starts (Dork Tower's start roll, the
#: Triwizard Maze Game's shout); a game without one starts with its first seat
ANNOUNCED = {"first_player", "first"}


@pytest.mark.parametrize("game_id", GAMES)
def test_the_start_player_is_decided_once(game_id):
    game = plugin(game_id).game
    decided_in = 0
    for seed in range(6):
        decided = announced = None
        told = False  # the rules said who starts (a tie roll's winner is said in words only)
        for state, _action, events in playout(game, seed):
            start = game.start_player(state)
            assert start is None or start in game.players(state)
            if decided is not None:
                assert start == decided, (seed, start, decided)
            decided = start if start is not None else decided
            for event in events:
                told = told or event.get("type") in ANNOUNCED
                if event.get("type") in ANNOUNCED and isinstance(event.get("player"), str):
                    announced = announced or event["player"]
        decided_in += decided is not None
        if announced is not None:
            assert decided == announced, (seed, decided, announced)
        elif decided is not None and not told:  # not announced: the first seat starts
            assert decided == game.players(state)[0], (seed, decided)
    assert decided_in >= 4  # most playouts get past the choice of who starts
