"""Dork Tower (John Kovalic, 2003): the rules core, and its data sets' loading and validation.

Specification: ``shared/rules/dork-tower.md``; rule IDs DT-* are cited where each rule is
enforced. The rulebook leaves the map, the tower, the tables, the tokens, the cards and the
characters to what is printed on them; they come from a data set (the subpackage ``data``,
``docs/dork-tower-data.md``), validated when it is loaded. The bundled set is an invented example.
The state names its data set and fingerprint, so a recorded game is always replayed against the
data it was played with.

Seats are numbered clockwise; turn order, character choice and the tower all go clockwise.

Phases (section 4.2 of the spec, with the automatic states folded into the transitions):

``start_roll``  every player rolls two dice; the highest starts, ties roll again (DT-SETUP-6)
``choose``      from the starting player clockwise, each picks a character and a home city
``move``        the active player steps, stops, or enters the tower (DT-MOVE, DT-BORDER, DT-TOWER)
``trade``       the active player may trade with characters on his space (DT-TRADE, DT-AMB-7)
``encounter``   encounter tokens are being drawn (DT-ENC-3), or rewards and relocations resolved
``resolve``     non-monster tokens are resolved first, in any order (DT-ENC-4)
``scrolls_own`` the fighter may play scrolls (DT-COMBAT-2)
``scrolls_others`` the other players may play scrolls against him, or pass (DT-COMBAT-4)
``pre_roll``    the fighter may buy sixes (DT-COMBAT-6); the two dice are awaited (DT-COMBAT-7)
``scrolls_after`` a winning roll: the other players may answer it with scrolls that re-roll or
                change a die, or pass (DT-COMBAT-8, DT-WIZ-4); then the roll stands
``defeat``      a failed roll: re-roll by scroll, flee or die (DT-DEFEAT)
``city``        Shop or Work (DT-CITY)
``cleanup``     discard down to the limits, then end the turn: the tower turns (DT-LIMIT)
``over``        Z'Mindrik is defeated (DT-GAME-1)

Chance steps (dice and blind draws) wait in ``state["pending"]``, first in first out; while one
waits, the phase says what the turn is doing and ``chance()`` says what the world must supply.

The modules are plain functions of the state (and the data set it names), from the bottom up:

``constants``, ``options``  the rulebook's numbers, the phases, the game's options
``state``, ``texts``     the pieces of a state; helpers for translatable sentences
``board``, ``heroes``    the map, day and night and the door; a hero's sheet, items and scrolls
``chance``, ``prompts``, ``checks``  what the world must supply; what the table waits for; who
                         may act now
``windows``              when and by whom a scroll is played; the rivals' windows' countdown
``fights``, ``flow``     a fight's mechanics and rewards; where a turn goes next
``setup``, ``draws``, ``encounters``, ``movement``, ``combat``, ``city``, ``trade``,
``equipment``, ``turns``  the players' actions (``actions.HANDLERS`` names them by type)
``legal``, ``views``     the choices now; what each viewer sees, and the outcome
``datasets``, ``game``   the data sets the front keeps; the front, :class:`DorkTower`
"""

from __future__ import annotations

from .data import DataError, load_dataset
from .game import DorkTower

__all__ = ["DataError", "DorkTower", "load_dataset"]
