"""The plug-in's DataSets for Triwizard (``data_sets.py``): load, use, names, default, get,
localised, words and check_default, on a stand-in for the game that keeps the sets."""

from __future__ import annotations

import pytest
from tw_data_support import CORRIDOR, EXAMPLE, edit, mymaze  # noqa: F401 (mymaze is a fixture)

from companion.games.triwizard.data_sets import TriwizardDataSets
from companion.games.triwizard.rules.data import DataError
from companion.games.triwizard.rules.datasets import bundled, default_name


class Keeper:
    """What the data sets ask of the game: ``datasets``, ``default_set``, ``add_dataset``."""

    def __init__(self):
        self.datasets = dict(bundled())
        self.default_set = default_name(self.datasets)

    def add_dataset(self, data, default=False):
        self.datasets[data["name"]] = data
        if default:
            self.default_set = data["name"]


class Sets(TriwizardDataSets):
    def __init__(self):
        self.keeper = Keeper()

    def _game(self):
        return self.keeper


def test_error_and_load(mymaze):
    sets = Sets()
    assert sets.error is DataError
    assert sets.load(mymaze)["fingerprint"] == EXAMPLE["fingerprint"]
    (mymaze / "die.json").unlink()
    with pytest.raises(sets.error):
        sets.load(mymaze)


def test_names_default_get():
    sets = Sets()
    assert sets.names() == ["corridor-k", "example"]
    assert sets.default() == "example"
    assert sets.get("corridor-k") is CORRIDOR
    assert sets.get("nothing") is None


def test_use_makes_a_set_the_default(mymaze):
    sets = Sets()
    edit(mymaze, "dataset.json", lambda d: d.update(name="mymaze", example=False))
    data = sets.use(mymaze)
    assert data["example"] is False
    assert sets.default() == "mymaze"
    assert sets.names() == ["corridor-k", "example", "mymaze"]


def test_localised_and_words():
    sets = Sets()
    page = sets.localised("example", "it")
    assert page["labels"]["tile_kinds"]["reductor"] == "Maledizione Reductor"
    assert sets.localised("nothing", "it") is None
    assert sets.words("it")["Four Point Spell"] == "Incantesimo Quattro Punti"
    assert sets.words("en") == {}
    sets.check_default()
