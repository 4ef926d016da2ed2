"""The pieces' files: encounter tokens (``tokens.json``), item cards (``items.json``), scrolls
(``scrolls.json``), the character sheets (``characters.json``) and the XP reference sheet
(``xp_costs.json``)."""

from __future__ import annotations

import json
from typing import Any

from .checks import (
    ID_PATTERN,
    as_object,
    choice,
    count_is,
    entries,
    expect,
    field,
    number,
    only,
    short_id,
    show,
    top_level,
    unknown,
)
from .reading import DataFile

#: DT-AMB-3: the reference sheet's XP costs known from the text (section 3.3)
DEFAULT_XP = {
    "extra_step": 1,
    "cross_border": 2,
    "die_to_six": 4,
    "extra_shop_card": 1,
    "level_up": 10,
}
REPEATABLE = ("extra_step", "cross_border", "die_to_six", "extra_shop_card")
ITEM_CARDS = 36  # DT-COMP-1
SCROLL_CARDS = 20  # DT-COMP-2
SLOTS = 4  # DT-CHAR-2
CROSSABLE = ("lake", "mountain")
#: DT-AMB-27, DT-COMBAT-8, DT-WIZ-4: when a scroll may be played, and by whom
WHEN = ("before_roll", "after_roll", "movement", "any")
BY = ("fighter", "rivals", "anyone")
#: the moment each effect acts in (a scroll whose ``when`` is "any" acts when its effect can)
EFFECT_MOMENT = {
    "fighter": "before_roll",
    "monsters": "before_roll",
    "remove_monster": "before_roll",
    "reroll": "after_roll",
    "set_die": "after_roll",
    "cross": "movement",
}
#: the old single ``window`` field, still read: its ``when`` and ``by``
WINDOWS = {
    "own_pre_roll": ("before_roll", "fighter"),
    "opponent_pre_roll": ("before_roll", "rivals"),
    "post_roll": ("after_roll", "fighter"),
    "movement": ("movement", "fighter"),
    "any": ("any", "anyone"),
}
ABILITIES = ("cross_lake", "cross_mountain", "avoid_monsters")
TREASURE_WORDS = ("scroll", "equipment", "magic", "nothing")  # DT-REWARD-2
EFFECTS = ("draw_tokens", "draw_scroll", "draw_item", "gold", "xp")  # non-monster tokens
SCROLL_EFFECTS = ("fighter", "monsters", "remove_monster", "reroll", "set_die", "cross")


def check_tokens(file: DataFile, tower_draw: int) -> dict[str, dict[str, Any]]:
    """DT-COMP-3, DT-TOK-2, DT-AMB-26: encounter tokens and how many of each are in the bowl."""
    root = top_level(file)
    only(file, root, "top level", ("tokens",))
    tokens: dict[str, dict[str, Any]] = {}
    for ident, place, entry in entries(file, root, "tokens", "token"):
        name = field(file, entry, place, "name", "text")
        kind = short_id(file, entry, place, "kind")
        count = number(file, entry, place, "count", 1)
        if kind == "monster":
            only(
                file,
                entry,
                place,
                ("id", "name", "kind", "count", "strength", "types", "xp", "treasure", "friendly"),
            )
            if field(file, entry, place, "friendly", "bool", default=False):
                file.fail(
                    place,
                    "a monster cannot be friendly (the flag marks the non-monster "
                    "results Z'Mindrik draws again, DT-WIZ-2)",
                )
            types = field(file, entry, place, "types", "list", default=[])
            for position, item_type in enumerate(types):
                expect(file, f"{place}.types[{position}]", item_type, "text", "each type")
            treasure = field(file, entry, place, "treasure", "object", null=True, default=None)
            token = {
                "strength": number(file, entry, place, "strength", 0),
                "types": list(types),
                "xp": number(file, entry, place, "xp", 0),
                "treasure": None
                if treasure is None
                else _treasure(file, f"{place}.treasure", treasure),
                "friendly": False,
                "effect": {},
            }
        else:
            only(file, entry, place, ("id", "name", "kind", "count", "friendly", "effect"))
            friendly = field(file, entry, place, "friendly", "bool", default=kind == "friendly")
            if kind == "friendly" and not friendly:
                file.fail(place, "a token of kind 'friendly' must have \"friendly\": true")
            effect = field(file, entry, place, "effect", "object", default={})
            token = {
                "strength": 0,
                "types": [],
                "xp": 0,
                "treasure": None,
                "friendly": friendly,
                "effect": _token_effect(file, f"{place}.effect", effect),
            }
        tokens[ident] = {
            "id": ident,
            "name": name,
            "kind": kind,
            "monster": kind == "monster",
            **token,
            "count": count,
        }
    if not any(token["monster"] for token in tokens.values()):
        file.fail("tokens", "there is no token of kind 'monster'")
    summonable = sum(token["count"] for token in tokens.values() if not token["friendly"])
    if summonable < tower_draw:
        file.fail(
            "tokens",
            f"Z'Mindrik summons {tower_draw} tokens that are not friendly "
            f"(DT-WIZ-1, DT-WIZ-2), but there are only {summonable}",
        )
    return tokens


def _treasure(file: DataFile, place: str, table: dict[str, Any]) -> dict[str, dict[str, int]]:
    """DT-REWARD-2: one result for every face of a die."""
    faces = [str(face) for face in range(1, 7)]
    for key in table:
        if key not in faces:
            file.fail(
                place, f'{key!r} is not a face of a die (a treasure table has the faces "1" to "6")'
            )
    missing = [face for face in faces if face not in table]
    if missing:
        word = "face" if len(missing) == 1 else "faces"
        file.fail(
            place,
            f"no result for die {word} {', '.join(missing)} (a treasure table "
            f"covers every face from 1 to 6, DT-REWARD-2)",
        )
    return {face: _treasure_result(file, f'{place}["{face}"]', table[face]) for face in faces}


def _treasure_result(file: DataFile, place: str, result: Any) -> dict[str, int]:
    expected = 'a treasure result is "scroll", "equipment", "magic", "nothing" or {"gold": amount}'
    if isinstance(result, str):
        if result not in TREASURE_WORDS:
            file.fail(place, f"{expected}, not {show(result)}")
        return {result: 1}
    if not isinstance(result, dict) or len(result) != 1:
        file.fail(place, f"{expected}, not {show(result)}")
    ((word, value),) = result.items()
    if word == "gold":
        return {"gold": number(file, result, place, "gold", 1)}
    if word not in TREASURE_WORDS or value != 1:
        file.fail(
            place, f'{expected} (or {{"{word}": 1}}), not {json.dumps(result, ensure_ascii=False)}'
        )
    return {word: 1}


def _token_effect(file: DataFile, place: str, effect: dict[str, Any]) -> dict[str, Any]:
    """DT-ENC-4: what a non-monster token does when it is resolved."""
    only(file, effect, place, EFFECTS)
    out: dict[str, Any] = {}
    for key in EFFECTS:
        if key == "draw_item" and key in effect:
            out[key] = choice(
                file,
                place,
                effect[key],
                "'draw_item'",
                ("equipment", "magic"),
                "item face",
                "faces are",
            )
        elif key in effect:
            out[key] = number(file, effect, place, key, 1)
    return out


def check_items(file: DataFile) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """DT-COMP-1, DT-CHAR-2: the 36 item cards, each with an equipment and a magic face."""
    root = top_level(file)
    only(file, root, "top level", ("types", "cards"))
    types = field(file, root, "top level", "types", "list")
    if not types:
        file.fail("types", "no item types are declared (weapon, armour, ring, ...)")
    for index, item_type in enumerate(types):
        place = f"types[{index}]"
        expect(file, place, item_type, "text", "each type")
        if not ID_PATTERN.fullmatch(item_type):
            file.fail(place, f"an item type must be a short lowercase id, not {item_type!r}")
        if item_type in types[:index]:
            file.fail(
                place,
                f"the type {item_type!r} is declared twice (also types[{types.index(item_type)}])",
            )
    cards: dict[str, dict[str, Any]] = {}
    for ident, place, card in entries(file, root, "cards", "card"):
        only(file, card, place, ("id", "equipment", "magic"))
        faces = {
            side: _face(file, f"{place}.{side}", field(file, card, place, side, "object"), types)
            for side in ("equipment", "magic")
        }
        cards[ident] = {"id": ident, **faces}
    count_is(file, "cards", len(cards), ITEM_CARDS, "item cards", "DT-COMP-1")
    return cards, list(types)


def _face(file: DataFile, place: str, face: dict[str, Any], types: list[str]) -> dict[str, Any]:
    only(file, face, place, ("name", "type", "bonus", "vs", "price", "crosses"))
    name = field(file, face, place, "name", "text")
    kind = field(file, face, place, "type", "text")
    if kind not in types:
        file.fail(place, unknown("item type", kind, types, "items.json declares"))
    vs = field(file, face, place, "vs", "object", default={})
    for enemy in vs:  # DT-COMBAT-1: a bonus against a type of enemy; any type name
        expect(file, f"{place}.vs[{json.dumps(enemy)}]", vs[enemy], "int", "a bonus")
    return {
        "name": name,
        "type": kind,
        "bonus": number(file, face, place, "bonus"),
        "vs": dict(vs),
        "price": number(file, face, place, "price", 0),
        "crosses": _borders(file, place, face, "crosses", allow_empty=True),
    }


def _borders(
    file: DataFile, place: str, obj: dict[str, Any], key: str, allow_empty: bool
) -> list[str]:
    """A list of crossable borders: "lake", "mountain", each at most once."""
    borders = field(file, obj, place, key, "list", default=[])
    if not borders and not allow_empty:
        file.fail(place, f'{key!r} must name at least one border ("lake", "mountain")')
    for position, border in enumerate(borders):
        choice(
            file,
            f"{place}.{key}[{position}]",
            border,
            "each border",
            CROSSABLE,
            "border",
            "crossable borders are",
        )
        if border in borders[:position]:
            file.fail(f"{place}.{key}[{position}]", f"{border!r} is listed twice")
    return list(borders)


def check_scrolls(file: DataFile) -> dict[str, dict[str, Any]]:
    """DT-COMP-2, DT-AMB-27: the 20 scrolls, when and by whom each is played, and its effect."""
    root = top_level(file)
    only(file, root, "top level", ("scrolls",))
    scrolls: dict[str, dict[str, Any]] = {}
    for ident, place, card in entries(file, root, "scrolls", "scroll"):
        only(file, card, place, ("id", "name", "text", "when", "by", "window", "effect"))
        name = field(file, card, place, "name", "text")
        text = field(file, card, place, "text", "text")
        effect = _scroll_effect(
            file, f"{place}.effect", field(file, card, place, "effect", "object")
        )
        when, by = _timing(file, place, card, next(iter(effect)))
        scrolls[ident] = {
            "id": ident,
            "name": name,
            "text": text,
            "when": when,
            "by": by,
            "effect": effect,
        }
    count_is(file, "scrolls", len(scrolls), SCROLL_CARDS, "scroll cards", "DT-COMP-2")
    return scrolls


def _timing(file: DataFile, place: str, card: dict[str, Any], effect: str) -> tuple[str, str]:
    """A scroll's ``when`` and ``by`` (or the old ``window``, read as both), fitting its effect."""
    if "window" in card:
        if "when" in card or "by" in card:
            file.fail(place, "give either 'window' (the old form) or 'when' and 'by', not both")
        window = choice(
            file,
            f"{place}.window",
            card["window"],
            "'window'",
            tuple(WINDOWS),
            "scroll window",
            "scroll windows are",
        )
        when, by = WINDOWS[window]
    else:
        for key in ("when", "by"):
            if key not in card:
                file.fail(place, f"a scroll says when it is played and by whom: {key!r} is missing")
        when = choice(
            file, f"{place}.when", card["when"], "'when'", WHEN, "scroll moment", "moments are"
        )
        by = choice(file, f"{place}.by", card["by"], "'by'", BY, "scroll player", "players are")
    moment = EFFECT_MOMENT[effect]
    if when not in (moment, "any"):
        file.fail(
            place,
            f"a {effect!r} scroll acts {moment.replace('_', ' ')}: 'when' must be "
            f"{moment!r} or 'any', not {when!r}",
        )
    if moment == "movement" and by != "fighter":
        file.fail(
            place,
            f"a crossing scroll is played by the moving hero: 'by' must be 'fighter', not {by!r}",
        )
    return when, by


def _scroll_effect(file: DataFile, place: str, effect: dict[str, Any]) -> dict[str, Any]:
    if len(effect) != 1 or next(iter(effect)) not in SCROLL_EFFECTS:
        file.fail(
            place,
            f"an effect has exactly one of the keys {', '.join(SCROLL_EFFECTS)}, not "
            f"{json.dumps(effect, ensure_ascii=False)}",
        )
    key = next(iter(effect))
    if key in ("fighter", "monsters"):  # a bonus, or a malus played by a rival (-2)
        value = number(file, effect, place, key, -99, 99)
        if value == 0:
            file.fail(place, f"{key!r} changes a total: it cannot be 0")
        return {key: value}
    if key == "set_die":
        return {key: number(file, effect, place, key, 1, 6)}
    if key == "cross":
        return {key: _borders(file, place, effect, key, allow_empty=False)}
    if effect[key] != 1:
        file.fail(place, f"{key!r} takes the value 1, not {show(effect[key])}")
    return {key: 1}


def check_characters(file: DataFile, item_types: list[str]) -> dict[str, dict[str, Any]]:
    """DT-CHAR-1..4, DT-LIMIT-3, DT-AMB-28: both sides of every character sheet."""
    root = top_level(file)
    only(file, root, "top level", ("characters",))
    characters: dict[str, dict[str, Any]] = {}
    for ident, place, character in entries(file, root, "characters", "character"):
        only(file, character, place, ("id", "name", "low", "high"))
        name = field(file, character, place, "name", "text")
        levels = {
            side: _level(
                file, f"{place}.{side}", field(file, character, place, side, "object"), item_types
            )
            for side in ("low", "high")
        }
        characters[ident] = {"id": ident, "name": name, **levels}
    if not characters:
        file.fail("characters", "there are no characters")
    return characters


def _level(
    file: DataFile, place: str, level: dict[str, Any], item_types: list[str]
) -> dict[str, Any]:
    only(
        file,
        level,
        place,
        ("strength", "movement", "slots", "abilities", "scroll_limit", "backpack_limit"),
    )
    slots = field(file, level, place, "slots", "list")
    if len(slots) != SLOTS:
        file.fail(place, f"there are {len(slots)} slots; a character sheet has {SLOTS} (DT-CHAR-2)")
    abilities = field(file, level, place, "abilities", "list", default=[])
    for position, ability in enumerate(abilities):
        choice(
            file,
            f"{place}.abilities[{position}]",
            ability,
            "each ability",
            ABILITIES,
            "ability",
            "abilities are",
        )
        if ability in abilities[:position]:
            file.fail(f"{place}.abilities[{position}]", f"{ability!r} is listed twice")
    return {
        "strength": number(file, level, place, "strength", 0),
        "movement": number(file, level, place, "movement", 0),
        "slots": [
            _slot(file, f"{place}.slots[{position}]", raw, item_types)
            for position, raw in enumerate(slots)
        ],
        "abilities": list(abilities),
        # null: the general rule (3 scrolls, 2 backpack items); Laeoretha has her own (DT-LIMIT-3)
        "scroll_limit": number(file, level, place, "scroll_limit", 0, null=True, default=None),
        "backpack_limit": number(file, level, place, "backpack_limit", 0, null=True, default=None),
    }


def _slot(file: DataFile, place: str, raw: Any, item_types: list[str]) -> dict[str, Any]:
    slot = as_object(file, place, raw, "each slot")
    only(file, slot, place, ("types", "max"))
    types = field(file, slot, place, "types", "list")
    if not types:
        file.fail(place, "a slot accepts at least one item type")
    for position, item_type in enumerate(types):
        expect(file, f"{place}.types[{position}]", item_type, "text", "each type")
        if item_type not in item_types:
            file.fail(
                f"{place}.types[{position}]",
                unknown("item type", item_type, item_types, "items.json declares"),
            )
        if item_type in types[:position]:
            file.fail(f"{place}.types[{position}]", f"{item_type!r} is listed twice")
    # DT-CHAR-3: "armour (Max +4)"
    return {"types": list(types), "max": number(file, slot, place, "max", null=True, default=None)}


def check_xp_costs(file: DataFile) -> tuple[dict[str, int], dict[str, bool]]:
    """DT-TOK-5, DT-AMB-3: the XP reference sheet; defaults from section 3.3."""
    root = top_level(file)
    only(file, root, "top level", ("costs", "repeat"))
    costs = field(file, root, "top level", "costs", "object", default={})
    only(file, costs, "costs", tuple(DEFAULT_XP))
    repeat = field(file, root, "top level", "repeat", "object", default={})
    only(file, repeat, "repeat", REPEATABLE)
    return (
        {
            key: number(file, costs, "costs", key, 1, default=cost)
            for key, cost in DEFAULT_XP.items()
        },
        {key: field(file, repeat, "repeat", key, "bool", default=True) for key in REPEATABLE},
    )
