"""The card and die files of a Triwizard data set: ``cards.json`` (the 40 Battle Cards, 20
Obstacle Cards and 36 Resource Tiles, TW-COMP-4/6/8, TW-AMB-3) and ``die.json`` (TW-COMP-7,
TW-AMB-2), checked and turned into the loaded form."""

from __future__ import annotations

from typing import Any

from .constants import (
    BATTLE_CARDS,
    CLOAK_FACE,
    COLOURS,
    DIE_FACES,
    OBSTACLE_CARDS,
    RESOURCE_TILES,
    TILE_KINDS,
)
from .data_checks import (
    CARD_ID,
    DataFile,
    expect,
    field,
    is_int,
    number,
    one_of,
    only,
    show,
    top_level,
)

MAX_STRENGTH = 99  # bounded: a Spell or Obstacle Strength
MAX_RATING = 20  # bounded: a Movement Rating, a Resource Reward
#: list -> (how many the game has, its rule, the fields of one entry besides the id)
DECKS = {
    "battle": (BATTLE_CARDS, "TW-COMP-4", ("colour", "strength", "movement")),
    "obstacles": (OBSTACLE_CARDS, "TW-COMP-6", ("colours", "strength", "reward")),
    "tiles": (RESOURCE_TILES, "TW-COMP-8", ("kind",)),
}


def _entry(file: DataFile, deck: str, place: str, card: dict[str, Any]) -> dict[str, Any]:
    """One card or tile, checked (the id already is)."""
    out: dict[str, Any] = {"id": card["id"]}
    if deck == "battle":
        colour = field(file, card, place, "colour", "text")
        out["colour"] = one_of(file, place, colour, "'colour'", COLOURS)
        out["strength"] = number(file, card, place, "strength", 0, MAX_STRENGTH)
        out["movement"] = number(file, card, place, "movement", 0, MAX_RATING)
    elif deck == "obstacles":
        colours = field(file, card, place, "colours", "list")
        if not colours:
            file.fail(place, "'colours' must name at least 1 colour (TW-OCARD-1)")
        for colour in colours:
            one_of(file, place, colour, "each of 'colours'", COLOURS)
        if len(set(colours)) != len(colours):
            file.fail(place, "'colours' names a colour twice")
        out["colours"] = [colour for colour in COLOURS if colour in colours]
        out["strength"] = number(file, card, place, "strength", 0, MAX_STRENGTH)
        out["reward"] = number(file, card, place, "reward", 0, MAX_RATING)
    else:
        out["kind"] = one_of(
            file, place, field(file, card, place, "kind", "text"), "'kind'", TILE_KINDS
        )
    return out


def check_cards(file: DataFile) -> dict[str, dict[str, dict[str, Any]]]:
    """``cards.json`` checked: ``{"battle": {id: card}, "obstacles": {...}, "tiles": {...}}``;
    ids are unique across the file and the totals are the game's (TW-COMP-4/6/8)."""
    root = top_level(file)
    only(file, root, "top level", tuple(DECKS))
    seen: dict[str, str] = {}
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for deck, (total, rule, keys) in DECKS.items():
        items = field(file, root, "top level", deck, "list")
        out[deck] = {}
        for index, raw in enumerate(items):
            place = f"{deck}[{index}]"
            card = expect(file, place, raw, "object", f"each entry of {deck!r}")
            ident = field(file, card, place, "id", "text")
            if not CARD_ID.fullmatch(ident):
                file.fail(
                    place,
                    f"'id' must be a short lowercase id (letters a-z, digits, '-' and '_'), "
                    f"not {ident!r}",
                )
            place = f"{deck}[{index}] (id {ident!r})"
            only(file, card, place, ("id", *keys))
            if ident in seen:
                file.fail(place, f"the id {ident!r} is used twice (also {seen[ident]})")
            seen[ident] = f"{deck}[{index}]"
            out[deck][ident] = _entry(file, deck, place, card)
        if len(items) != total:
            file.fail(
                deck, f"there are {len(items)} entries; the game has exactly {total} ({rule})"
            )
    return out


def check_die(file: DataFile) -> dict[str, Any]:
    """``die.json`` checked: 6 faces, each ``"cloak"`` or a whole number 1..6, at least one
    Cloak face (TW-COMP-7, TW-AMB-2), and the dice reader's profile."""
    root = top_level(file)
    only(file, root, "top level", ("faces", "profile"))
    faces = field(file, root, "top level", "faces", "list")
    if len(faces) != DIE_FACES:
        file.fail(
            "faces", f"the die has {len(faces)} faces; it has exactly {DIE_FACES} (TW-COMP-7)"
        )
    for index, face in enumerate(faces):
        if face != CLOAK_FACE and not (is_int(face) and 1 <= face <= DIE_FACES):
            file.fail(
                f"faces[{index}]",
                f'a face is "cloak" or a whole number from 1 to {DIE_FACES}, not {show(face)}',
            )
    if CLOAK_FACE not in faces:
        file.fail("faces", 'no face is "cloak"; the die has at least one (TW-COMP-7, TW-AMB-2)')
    profile = field(file, root, "top level", "profile", "text", default="triwizard")
    return {"faces": list(faces), "profile": profile}
