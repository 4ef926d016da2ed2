"""The Triwizard Maze Game: four champions race through a hedge maze of Portkeys, Gold Mist and
Obstacle Spaces, battle obstacles with Battle Cards and the die, play Resource Tiles, pass the
Invisibility Cloak around, and flip the Cup Tiles in the centre until one is the real Triwizard
Cup (``../shared/rules/triwizard-maze.md``; its data sets: ``docs/triwizard-data.md``).

The package: ``rules`` (pure, with its data sets' loading and validation and the maze's
geometry), ``data`` (the bundled example and the spec's Corridor K), ``data_sets`` (the data sets
as the plug-in offers them), ``inputs`` (cards, tiles, Cup Tiles, pieces and spaces tapped, the
die, the seat buttons), ``lights`` (whose turn, the Cloak, hands and tiles held, a battle's
result), ``sim`` (the box of stickers and the hands that draw, flip, peek and steal),
``option_texts`` (the options in the new-game wizard's words), ``static`` (the page module) and
``translations``.
"""

from companion.plugin import Catalogs, GamePlugin

PLUGIN = GamePlugin(
    id="triwizard",
    title="The Triwizard Maze Game",
    package=__name__,
    rules="rules:Triwizard",
    inputs="inputs:TriwizardInputs",
    lights="lights",
    option_texts="option_texts:OPTION_TEXTS",
    sim="sim:TriwizardHands",
    data_sets="data_sets:TriwizardDataSets",
    catalogs=Catalogs(server=("triwizard",), pages=("js_triwizard",)),
)
