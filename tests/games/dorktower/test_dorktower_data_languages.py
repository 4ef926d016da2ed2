"""Dork Tower data sets in other languages: the optional ``it.json`` beside the English files
(``docs/dork-tower-data.md``, "Other languages"), checked like the rest of the set.

A set without it stays English; a set with it gives its Italian names and texts to the pages
(``localised``) and to the rules' texts (``words``); a mistake in it names the file, the place and
the problem, and a name it leaves out falls back to English (``missing`` lists them).
"""

from __future__ import annotations

from dt_data_support import (  # noqa: F401 (mygame is a fixture)
    DATA,
    assert_error,
    edit,
    mygame,
)

from companion.games.dorktower.rules.data import load_dataset
from companion.games.dorktower.rules.data.languages import localised, missing, words


def test_the_example_speaks_italian():
    """The example translates every name: slot types, items' two faces, scrolls, tokens,
    characters, spaces, wedges; the same English name has one Italian name everywhere."""
    italian = localised(DATA, "it")
    assert italian["items"]["dagger"]["equipment"]["name"] == "Pugnale"
    assert italian["items"]["dagger"]["magic"]["name"] == "Pugnale Velenoso"
    assert italian["items"]["dagger"]["equipment"]["type"] == "weapon"
    assert italian["scrolls"]["levitation"] == {
        **DATA["scrolls"]["levitation"],
        "name": "Levitazione",
        "text": "Durante il movimento: attraversa un confine di lago o di montagna.",
    }
    assert italian["tokens"]["mummy"]["name"] == "Mummia"
    assert italian["characters"]["brannock"]["name"] == "Ser Brannock"
    assert italian["wedges"][1]["name"] == "Landa Ululante"
    assert italian["spaces"]["cd-city"]["name"] == "Valramata" == italian["wedges"][3]["name"]
    assert italian["words"]["helmet"] == "elmo" and italian["words"]["Copperdell"] == "Valramata"
    assert italian["fingerprint"] == DATA["fingerprint"]
    assert missing(DATA, "it") == []
    english = localised(DATA, "en")
    assert english["words"] == {} and english["items"] == DATA["items"]


def test_a_set_without_translations_stays_english(mygame):
    (mygame / "it.json").unlink()
    data = load_dataset(mygame)
    assert data["translations"] == {} and data["fingerprint"] == DATA["fingerprint"]
    assert words(data, "it") == {}
    assert localised(data, "it")["spaces"]["rv-city"]["name"] == "Ravensteel Keep"
    assert "map.spaces.rv-city" in missing(data, "it")


def test_a_missing_translation_falls_back_to_english(mygame):
    edit(mygame, "it.json", lambda tr: tr["scrolls"]["scrolls"]["rewind"].pop("text"))
    edit(mygame, "it.json", lambda tr: tr["items"]["types"].pop("boots"))
    data = load_dataset(mygame)
    italian = localised(data, "it")
    assert italian["scrolls"]["rewind"]["name"] == "Riavvolgi"
    assert italian["scrolls"]["rewind"]["text"] == DATA["scrolls"]["rewind"]["text"]
    assert "boots" not in italian["words"]
    assert missing(data, "it") == ["scrolls.scrolls.rewind.text", "items.types.boots"]


def test_an_unknown_id_is_an_error(mygame):
    edit(mygame, "it.json", lambda tr: tr["tokens"]["tokens"].update(dragon="Drago"))
    assert_error(
        mygame,
        "mygame/it.json",
        "tokens.tokens.dragon",
        "unknown token 'dragon' (tokens.json has 19 tokens, none with this id; "
        "did you mean 'young-dragon' or 'elder-dragon'?)",
    )


def test_an_unknown_slot_type_and_file_are_errors(mygame):
    edit(mygame, "it.json", lambda tr: tr["items"]["types"].update(gloves="guanti"))
    assert_error(
        mygame,
        "mygame/it.json",
        "items.types.gloves",
        "unknown item type 'gloves' (items.json has: amulet, armour, boots, cloak, helmet, "
        "ring, shield, weapon)",
    )
    edit(mygame, "it.json", lambda tr: tr["items"]["types"].pop("gloves"))
    edit(mygame, "it.json", lambda tr: tr.update(monsters={}))
    assert_error(
        mygame,
        "mygame/it.json",
        "top level",
        "unknown key 'monsters' (expected: dataset, map, encounter_chart, tokens, items, "
        "scrolls, characters; keys starting with '_' are comments)",
    )


def test_an_empty_translation_and_a_wrong_face_are_errors(mygame):
    edit(mygame, "it.json", lambda tr: tr["map"]["spaces"].update({"rv-moor": " "}))
    assert_error(
        mygame,
        "mygame/it.json",
        "map.spaces.rv-moor",
        'a translation must be non-empty text, not text " "',
    )
    edit(mygame, "it.json", lambda tr: tr["map"]["spaces"].update({"rv-moor": "Brughiera"}))
    edit(mygame, "it.json", lambda tr: tr["items"]["cards"]["dagger"].update(cursed="Maledetto"))
    assert_error(
        mygame,
        "mygame/it.json",
        "items.cards.dagger",
        "unknown key 'cursed' (expected: equipment, magic; keys starting with '_' are comments)",
    )


def test_one_english_name_translated_two_ways_is_an_error(mygame):
    """Texts are translated by their English words: Copperdell the city and Copperdell the
    kingdom need one Italian name."""
    edit(mygame, "it.json", lambda tr: tr["map"]["spaces"].update({"cd-city": "Ramavalle"}))
    assert_error(
        mygame,
        "mygame/it.json",
        "map.spaces.cd-city",
        "'Copperdell' is translated 'Ramavalle' here but 'Valramata' at map.wedges.cd; "
        "one English name needs one translation",
    )
