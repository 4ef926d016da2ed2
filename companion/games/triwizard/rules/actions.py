"""The actions the Triwizard Maze accepts, by type: each is handled by a function
``(data, state, action, events)`` that changes ``state`` (a copy ``apply`` made), appends the
events it causes, or raises a refusal."""

from __future__ import annotations

from . import battles, cloak, draws, movement, setup, tiles, turns

HANDLERS = {
    "placed": setup.placed,
    "first": setup.first,
    "tie": setup.tie,
    "draw_card": draws.draw_card,
    "draw_tile": draws.draw_tile,
    "reveal_obstacle": draws.reveal_obstacle,
    "roll": draws.roll,
    "flip_cup": draws.flip_cup,
    "peek": draws.peek,
    "steal": draws.steal,
    "swap_hand": turns.swap_hand,
    "end_turn": turns.end_turn,
    "remove_cloak": cloak.remove_cloak,
    "place_cloak": cloak.place_cloak,
    "move": movement.move,
    "battle": battles.battle,
    "play_card": battles.play_card,
    "no_match": battles.no_match,
    "advance": battles.advance,
    "push_back": battles.push_back,
    "play_tile": tiles.play_tile,
    "decline": tiles.decline,
    "counter": tiles.counter,
    "close_window": tiles.close_window,
    "take": tiles.take,
    "discard_tile": tiles.discard_tile,
    "choose": tiles.choose,
}
