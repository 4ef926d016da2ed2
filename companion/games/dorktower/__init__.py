"""Dork Tower: heroes on a map around a tower that turns day to night, quests, monsters, cities,
scrolls and Z'Mindrik at the top (``../shared/rules/dork-tower.md``).

The package: ``rules`` (pure, with its data sets' loading and validation), ``data`` (the bundled
example set), ``inputs`` (tokens, cards, spaces and the tower tapped, seat buttons), ``lights``
(the tower ring, experience gauges, the status lights), ``sim`` (the box of stickers and the hands
that draw and turn the tower), ``tower`` (the tower motor following the game), ``option_texts``
(the options in the new-game wizard's words), ``static`` (the page module) and ``translations``.
"""

from companion.plugin import Catalogs, GamePlugin

PLUGIN = GamePlugin(
    id="dorktower",
    title="Dork Tower",
    package=__name__,
    rules="rules:DorkTower",
    inputs="inputs:DorkTowerInputs",
    lights="lights",
    option_texts="option_texts:OPTION_TEXTS",
    sim="sim:DorkTowerHands",
    data_sets="data_sets:DorkTowerDataSets",
    actuators={"tower_motor": "tower:TowerFollower"},
    catalogs=Catalogs(server=("dorktower",), pages=("js_dorktower",)),
)
