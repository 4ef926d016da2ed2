"""The Triwizard plug-in's table parts load and keep the plug-in contract's form
(``companion/plugin.py``; ``tests/games/test_plugins.py`` checks them on every registered game):
the input mapping, the LEDs, the simulated hands and the options in the wizard's words, in
English and Italian."""

from __future__ import annotations

import inspect
import re

from babel.support import Translations

from companion.games.triwizard import PLUGIN
from companion.games.triwizard.inputs import TriwizardInputs
from companion.games.triwizard.sim import TriwizardHands
from companion.i18n import Text
from companion.lights import Layout
from companion.plugin import CONTROLS, OptionText
from companion.table.inputs import GameInputs
from companion.table.sim import GameHands

#: the options of the design (tw-design.md "Options"), each with the control the wizard shows
OPTIONS = {
    "data_set": "data_set",
    "maze": "choice",
    "allow_revisit": "switch",
    "cloak_blocks_steal": "switch",
    "counter_seconds": "choice",
    "scenario": "none",
}


def test_the_plugin_names_its_parts():
    assert (PLUGIN.id, PLUGIN.title) == ("triwizard", "The Triwizard Maze Game")
    assert PLUGIN.package == "companion.games.triwizard"
    assert PLUGIN.rules == "rules:Triwizard" and PLUGIN.data_sets == "data_sets:TriwizardDataSets"
    assert PLUGIN.catalogs.server == ("triwizard",) and PLUGIN.catalogs.pages == ("js_triwizard",)
    assert PLUGIN._load(PLUGIN.inputs) is TriwizardInputs and issubclass(
        TriwizardInputs, GameInputs
    )
    assert PLUGIN.hands is TriwizardHands and issubclass(TriwizardHands, GameHands)
    assert (PLUGIN.translations / "it" / "LC_MESSAGES" / "triwizard.mo").is_file()


def test_the_lights_module_has_the_drawers_functions():
    drawer = PLUGIN._load(PLUGIN.lights)
    for name in ("draw", "animating", "cues", "legend"):
        assert callable(getattr(drawer, name)), name
    assert set(drawer.legend(Layout())) == {"table"}


def test_the_hands_acts_and_buttons():
    for act, arguments in TriwizardHands.acts.items():
        assert callable(getattr(TriwizardHands, act)), act
        assert all(isinstance(kind, type) and message for kind, message in arguments.values())
    for act, label, primary in TriwizardHands.controls:
        assert act in TriwizardHands.acts or act == "throw", act
        assert isinstance(label, Text) and primary in (True, False)
    assert "viewer" in inspect.signature(TriwizardHands.world).parameters


def italian(text: str) -> str:
    found = Translations.load(str(PLUGIN.translations), ["it"], "triwizard")
    return found.gettext(text)


def test_every_option_of_the_design_is_told_in_words_in_both_languages():
    """The wizard's words for each option (the contract's form): a label and a sentence, never
    a raw key or a rule ID, each translated; the control fits the option's default."""
    told = PLUGIN._load(PLUGIN.option_texts)
    assert {name: text.control for name, text in told.items()} == OPTIONS
    for name, text in told.items():
        assert isinstance(text, OptionText) and text.control in CONTROLS
        assert text.sentence.endswith("."), name
        assert text.label.lower() != name.replace("_", " ")
        for words in (text.label, text.sentence, *(w for _, w in text.values)):
            assert isinstance(words, Text) and "_" not in words
            assert not re.search(r"[A-Z]+-[A-Z]+-\d", words)
            assert italian(words.msgid) != words.msgid, f"no Italian for {words!r}"
    assert [value for value, _ in told["maze"].values] == ["grid", "declared"]
    seconds = dict(told["counter_seconds"].values)
    assert seconds[10] == "10 seconds" and seconds[0] == "Until the player answers"
