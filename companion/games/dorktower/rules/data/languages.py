"""A data set's names and texts in other languages: the optional file ``<lang>.json`` (``it.json``)
beside the English files, keyed by file and id, checked like the rest of the set.

A translation file names, per English file, the ids it translates (see ``docs/dork-tower-data.md``)::

    {"items": {"types": {"weapon": "arma"}, "cards": {"dagger": {"equipment": "Pugnale"}}},
     "scrolls": {"scrolls": {"rewind": {"name": "Riavvolgi", "text": "..."}}}, ...}

Everything in it is optional: what it leaves out stays English. An id the set does not have, a
key the schema does not know or an empty text is an error naming the file, the place and the
problem. The normalised result (``translations[lang]``) has one shape for every set::

    {"title": str | None, "wedges": {id: name}, "spaces": {id: name}, "tokens": {id: name},
     "characters": {id: name}, "items": {card: {face: name}}, "scrolls": {id: {"name", "text"}},
     "item_types": {type: word}, "monster_types": {type: word}, "space_types": {type: word},
     "token_kinds": {kind: word}}

and ``words(data, lang)`` makes of it the table "English name -> translation" that the texts the
rules write (an event naming an item) are translated with.
"""

from __future__ import annotations

from typing import Any

from .checks import expect, only, top_level, unknown
from .reading import DataFile

#: what a translation file may translate: file -> section -> the normalised key it fills
SECTIONS: dict[str, dict[str, str]] = {
    "dataset": {"title": "title"},
    "map": {"wedges": "wedges", "spaces": "spaces"},
    "encounter_chart": {"space_types": "space_types"},
    "tokens": {"tokens": "tokens", "types": "monster_types", "kinds": "token_kinds"},
    "items": {"types": "item_types", "cards": "items"},
    "scrolls": {"scrolls": "scrolls"},
    "characters": {"characters": "characters"},
}
FACES = ("equipment", "magic")


def empty() -> dict[str, Any]:
    """A language that translates nothing (every name stays English)."""
    out: dict[str, Any] = {"title": None}
    for section in SECTIONS.values():
        for key in section.values():
            if key != "title":
                out[key] = {}
    return out


def _known(data: dict[str, Any], key: str) -> set[str]:
    """The ids (or words) of the set that ``key`` translates."""
    if key == "wedges":
        return {wedge["id"] for wedge in data["wedges"]}
    if key in ("spaces", "tokens", "characters", "items", "scrolls", "space_types", "item_types"):
        return set(data[key])
    if key == "monster_types":
        return {kind for token in data["tokens"].values() for kind in token.get("types", [])}
    if key == "token_kinds":
        return {token["kind"] for token in data["tokens"].values()}
    return set()


def _text(file: DataFile, place: str, value: Any) -> str:
    return expect(file, place, value, "text", "a translation").strip()


def check_translation(file: DataFile, data: dict[str, Any]) -> dict[str, Any]:
    """The translations in ``file`` of the (already checked) set ``data``, normalised."""
    root = top_level(file)
    only(file, root, "top level", tuple(SECTIONS))
    out = empty()
    for name, sections in SECTIONS.items():
        if name not in root:
            continue
        part = expect(file, name, root[name], "object", f"{name!r}")
        only(file, part, name, tuple(sections))
        for section, key in sections.items():
            if section not in part:
                continue
            place = f"{name}.{section}"
            if key == "title":
                out["title"] = _text(file, place, part[section])
                continue
            entries = expect(file, place, part[section], "object", f"{place!r}")
            known = _known(data, key)
            for ident, value in entries.items():
                if ident.startswith("_"):
                    continue
                here = f"{place}.{ident}"
                if ident not in known:
                    file.fail(
                        here, unknown(_WHAT[key], ident, known, f"{name}.json has", f"{name}.json")
                    )
                out[key][ident] = _entry(file, here, key, value)
    return out


_WHAT = {
    "wedges": "wedge",
    "spaces": "space",
    "tokens": "token",
    "characters": "character",
    "items": "item card",
    "scrolls": "scroll",
    "item_types": "item type",
    "monster_types": "monster type",
    "space_types": "space type",
    "token_kinds": "token kind",
}


def _entry(file: DataFile, place: str, key: str, value: Any) -> Any:
    """One translated entry: a name, a card's faces, a scroll's name and text."""
    if key == "items":
        faces = expect(file, place, value, "object", "an item card's translation")
        only(file, faces, place, FACES)
        return {
            face: _text(file, f"{place}.{face}", faces[face]) for face in FACES if face in faces
        }
    if key == "scrolls":
        scroll = expect(file, place, value, "object", "a scroll's translation")
        only(file, scroll, place, ("name", "text"))
        return {
            part: _text(file, f"{place}.{part}", scroll[part])
            for part in ("name", "text")
            if part in scroll
        }
    return _text(file, place, value)


def pairs(data: dict[str, Any], lang: str) -> list[tuple[str, str, str]]:
    """Every (English, translation, where) the set's ``lang`` translates."""
    tr = data.get("translations", {}).get(lang)
    if not tr:
        return []
    out: list[tuple[str, str, str]] = []
    if tr["title"]:
        out.append((data["title"], tr["title"], "dataset.title"))
    for wedge in data["wedges"]:
        if wedge["id"] in tr["wedges"]:
            out.append((wedge["name"], tr["wedges"][wedge["id"]], f"map.wedges.{wedge['id']}"))
    for key, file in (("spaces", "map"), ("tokens", "tokens"), ("characters", "characters")):
        for ident, name in tr[key].items():
            out.append((data[key][ident]["name"], name, f"{file}.{key}.{ident}"))
    for card, faces in tr["items"].items():
        for face, name in faces.items():
            out.append((data["items"][card][face]["name"], name, f"items.cards.{card}.{face}"))
    for ident, scroll in tr["scrolls"].items():
        for part, text in scroll.items():
            out.append((data["scrolls"][ident][part], text, f"scrolls.scrolls.{ident}.{part}"))
    for key, place in (
        ("item_types", "items.types"),
        ("monster_types", "tokens.types"),
        ("space_types", "encounter_chart.space_types"),
        ("token_kinds", "tokens.kinds"),
    ):
        for word, text in tr[key].items():
            out.append((word, text, f"{place}.{word}"))
    return out


def check_words(file: DataFile, data: dict[str, Any], lang: str) -> None:
    """One English name translated two ways is an error (texts are translated by their English
    words, so the two could not be told apart)."""
    seen: dict[str, tuple[str, str]] = {}
    for english, text, place in pairs(data, lang):
        if english in seen and seen[english][0] != text:
            other_text, other_place = seen[english]
            file.fail(
                place,
                f"{english!r} is translated {text!r} here but {other_text!r} at {other_place}; "
                "one English name needs one translation",
            )
        seen.setdefault(english, (text, place))


def words(data: dict[str, Any], lang: str) -> dict[str, str]:
    """English name or text -> its translation in ``lang``, for every one the set translates."""
    return {english: text for english, text, _ in pairs(data, lang)}


def missing(data: dict[str, Any], lang: str) -> list[str]:
    """Where the set leaves a name or a text in English in ``lang`` (``file.section.id``)."""
    tr = data.get("translations", {}).get(lang) or empty()
    out = [] if tr["title"] else ["dataset.title"]
    out += [f"map.wedges.{w['id']}" for w in data["wedges"] if w["id"] not in tr["wedges"]]
    for key, file in (("spaces", "map"), ("tokens", "tokens"), ("characters", "characters")):
        out += [f"{file}.{key}.{ident}" for ident in data[key] if ident not in tr[key]]
    for card in data["items"]:
        out += [
            f"items.cards.{card}.{face}" for face in FACES if face not in tr["items"].get(card, {})
        ]
    for ident in data["scrolls"]:
        have = tr["scrolls"].get(ident, {})
        out += [f"scrolls.scrolls.{ident}.{part}" for part in ("name", "text") if part not in have]
    for key, place in (
        ("item_types", "items.types"),
        ("monster_types", "tokens.types"),
        ("space_types", "encounter_chart.space_types"),
        ("token_kinds", "tokens.kinds"),
    ):
        out += [f"{place}.{word}" for word in sorted(_known(data, key)) if word not in tr[key]]
    return out


def localised(data: dict[str, Any], lang: str) -> dict[str, Any]:
    """A copy of ``data`` whose names and texts are in ``lang`` where the set translates them,
    with ``words`` (English -> translation) for the ids a page shows as words (slot types,
    monster types...). The ids, numbers and fingerprint stay as they are."""
    tr = data.get("translations", {}).get(lang) or empty()
    out = {key: value for key, value in data.items() if key != "translations"}
    out["language"] = lang
    out["words"] = words(data, lang)
    if tr["title"]:
        out["title"] = tr["title"]
    out["wedges"] = [{**w, "name": tr["wedges"].get(w["id"], w["name"])} for w in data["wedges"]]
    for key in ("spaces", "tokens", "characters"):
        out[key] = {
            ident: {**entry, "name": tr[key].get(ident, entry["name"])}
            for ident, entry in data[key].items()
        }
    out["items"] = {
        card: {
            **entry,
            **{
                face: {
                    **entry[face],
                    "name": tr["items"].get(card, {}).get(face, entry[face]["name"]),
                }
                for face in FACES
            },
        }
        for card, entry in data["items"].items()
    }
    out["scrolls"] = {
        ident: {**entry, **tr["scrolls"].get(ident, {})} for ident, entry in data["scrolls"].items()
    }
    return out
