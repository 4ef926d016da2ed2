"""Abracada...What? (Gary Kim, 2014): the rules core.

Specification: ``shared/rules/abracadawhat.md``; rule IDs ABR-* are cited where each rule is
enforced. The racks are sensed (every stone is tapped at the reader when it is dealt or drawn), so
the core verifies every cast itself (ABR-CAST-1) without anyone being asked.

Seats are numbered clockwise; ``left(i) = i + 1`` and ``right(i) = i - 1`` (section 0 of the spec).

Phases of a round (section 4.2 of the spec, with the automatic states folded into the transitions):

``deal``      stones are dealt (one ``deal`` action, or one ``deal_stone`` per tapped stone)
``declare``   the active player declares a spell (``cast``) or, after a success, ``end_turn``
``objection`` an out-of-order declaration waits for an ``object`` or ``allow`` (only when the
              option ``order_violation`` is ``require_objection``, ABR-AMB-3)
``remove``    the right neighbour removes the stone (only when the option ``removal`` is ``tap``)
``roll``      the die is rolled for Ancient Dragon, Sweet Dreams or a failed Ancient Dragon
``secret``    Night Singer: the caster takes one secret stone (``take_secret``) or declines
``refill``    the turn has ended; the player draws stones back to five (``refill``)
``over``      the game has ended

The modules, each of plain functions over the state (a JSON dict, changed in place on the copy
that ``apply`` makes):

``game``      the :class:`AbracadaWhat` front implementing the ``Game`` contract, and the table
              of actions
``stones``    the box's numbers, the state's copy and reset, the deal's order, stone arguments
``seats``     neighbours, the survivors of ABR-VAR-2, whose turn it is and what must come first
``setup``     the options, a new game, the deal (whole or stone by stone) and a round's start
``casting``   declaring, the objection window, the removal of the stone, the die
``spells``    the spell table, each spell's effect, what follows a success, Night Singer
``turns``     ending a turn, the refill, passing the turn to the left
``rounds``    lives lost and gained, the end of a round and its scoring, the end of the game
``views``     what each viewer sees, the table's prompt, ``indistinguishable``
``choices``   the legal actions, the chance step and its seeded sample
"""

from __future__ import annotations

from .game import AbracadaWhat
from .spells import DIE_SPELLS, SPELLS, spell_name
from .stones import (
    NUMBERS,
    RACK_SIZE,
    REMOVED_FOR,
    SECRET_STONES,
    STONE_SET,
    WINNING_SCORE,
)

__all__ = [
    "DIE_SPELLS",
    "NUMBERS",
    "RACK_SIZE",
    "REMOVED_FOR",
    "SECRET_STONES",
    "SPELLS",
    "STONE_SET",
    "WINNING_SCORE",
    "AbracadaWhat",
    "spell_name",
]
