"""The Triwizard Maze Game (Fisher-Price H1314): the rules core.

Specification: ``shared/rules/triwizard-maze.md``; rule IDs TW-* are cited where each rule is
enforced, every proposal of its section 6 (TW-AMB-*) is the default. The maze, the cards, the
tiles and the die come from a data set (``data``, ``docs/triwizard-data.md``).

Seats are numbered clockwise; the turn passes to the left (the next seat) and "the player to
your right" is the previous seat (TW-TURN-9, TW-AMB-26).

Phases: ``setup`` (the table confirms pieces, face-down Cup Tiles and the Wandering Hedge,
TW-AMB-31) -> ``deal`` (4 Battle Cards and 2 Resource Tiles each, then the Lineup) ->
``first_player`` (who shouted first, or a tie roll, TW-AMB-25) -> each turn: ``draw`` (the refill,
TW-TURN-1) -> ``open`` (the movement roll is awaited; or swap the hand, try to remove the Cloak,
play a tile, or battle an uncleared obstacle) -> ``swap`` | ``removal_roll`` -> ``removal_place``
| ``cloak_place`` | ``moving`` -> ``flip`` | ``battle_select`` -> ``battle_roll`` ->
``battle_short`` -> ``battle_reroll`` -> ``advance`` -> ``reward`` | ``push_back`` -> ``post`` ->
the next turn; ``over``. Interrupts (overflow, dumbledore, veritaserum, choose) wait in
``state["interrupts"]`` without changing the phase.

The ``maze`` option: ``grid`` checks every move on the data set's board; ``declared`` is for a
table without the board's data (see ``declared``): the mover declares how many steps a move takes
and the kind of the space it ends on, and the rules apply that space's action.

Modules, from the bottom up: ``numbers``, ``options``; ``state``, ``geometry``; ``chance``,
``prompts``; ``walking`` (paths, next available spaces, reach); ``setup``, ``scenario``,
``turns``, ``draws``, ``movement``, ``spaces``, ``battles``, ``cloak``, ``tiles`` (the actions,
``actions.HANDLERS``); ``legal``, ``views``, ``undoing``; ``game`` (the front, :class:`Triwizard`).
"""

from __future__ import annotations

from .data import DataError, load_dataset
from .game import Triwizard

__all__ = ["DataError", "Triwizard", "load_dataset"]
