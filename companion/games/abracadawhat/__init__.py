"""Abracada...What?: stones with stickers drawn into racks that only the others can see, spells
cast by declaration, lives and points kept by the companion (``../shared/rules/abracadawhat.md``).

The package: ``rules`` (pure), ``inputs`` (a stone tapped at the board reader, a seat button),
``lights`` (lives, the score track, the status lights), ``sim`` (the box of 36 stones and the
hands that deal, remove and draw them), ``option_texts`` (the options in the new-game wizard's
words), ``static`` (the page module) and ``translations``.
"""

from companion.plugin import Catalogs, GamePlugin

PLUGIN = GamePlugin(
    id="abracadawhat",
    title="Abracada...What?",
    package=__name__,
    rules="rules:AbracadaWhat",
    inputs="inputs:AbracadaInputs",
    lights="lights",
    option_texts="option_texts:OPTION_TEXTS",
    sim="sim:AbracadaHands",
    catalogs=Catalogs(server=("abracadawhat",), pages=("js_abracadawhat",)),
)
