"""Dork Tower data sets: the tables, the map and the cards the rulebook prints elsewhere.

Specification: ``shared/rules/dork-tower.md``, sections 6 and 8. The rules text refers to a map, a
tower, a Combat Table, an Encounter chart, a Quest Location table, encounter tokens, 36 item
cards, 20 scrolls, the character sheets and an XP reference sheet, none of which it gives. A data
set is one directory of JSON files describing them (``docs/dork-tower-data.md`` has the schema):

``dataset.json``  the manifest: name, title, whether it is an invented example, a note
``encounter_chart.json``  tokens drawn per space type by day and night (DT-AMB-4)
``map.json``      wedges, spaces, edges with their borders, quest start spaces (DT-AMB-5)
``tower.json``    the wedges clockwise, the 8 walls, the door (DT-AMB-1)
``combat_table.json``  difference bands and their 2-dice targets (DT-AMB-2)
``quest_table.json``   the Quest Location table (DT-AMB-6)
``tokens.json``   encounter tokens, with the ``friendly`` flag (DT-AMB-26)
``items.json``    the 36 two-faced item cards (DT-COMP-1)
``scrolls.json``  the 20 scrolls, with their timing windows (DT-AMB-27)
``characters.json``  both levels of every character sheet (DT-AMB-28)
``xp_costs.json``  the XP reference sheet (DT-AMB-3)

``load_dataset`` reads and validates a directory and returns one normalised dict of plain JSON
types, which is what the rules core uses. The first mistake found raises :class:`DataError`,
which names the file, the place in it and the problem. The bundled set (``example_dataset``) is
an invented example for trying the companion, not the printed game.

The modules: ``reading`` (the files' JSON and :class:`DataError`), ``checks`` (the small checks
every file shares), ``board`` (manifest, Encounter chart, map, tower), ``tables`` (Combat Table,
Quest Location table), ``pieces`` (tokens, items, scrolls, characters, XP costs) and ``loading``
(the whole set, its fingerprint, the bundled example).
"""

from __future__ import annotations

from .loading import FILES, example_dataset, example_directory, fingerprint, load_dataset
from .reading import DataError

__all__ = [
    "FILES",
    "DataError",
    "example_dataset",
    "example_directory",
    "fingerprint",
    "load_dataset",
]
