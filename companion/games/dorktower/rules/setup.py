"""Setting a game of Dork Tower up: the state before anything happened, an arranged start (the
option ``scenario``), the roll for who starts (DT-SETUP-6) and the choice of characters and home
cities (DT-SETUP-7, DT-SETUP-8)."""

from __future__ import annotations

from typing import Any

from companion.i18n import Text, t
from companion.rules.api import Action, Event, SetupError, State
from companion.rules.common import Refuse as _Refuse
from companion.rules.common import event as _event
from companion.rules.common import name_of as _name
from companion.rules.common import player_of as _player
from companion.rules.common import seat_of as _seat

from .board import space_type, wedge_by_id
from .constants import GAME_ID, SLOTS, START_GOLD, START_SCROLLS
from .flow import flow, start_turn
from .heroes import fits, gain_item, level_of
from .prompts import prompt
from .state import draw_step, new_hero
from .texts import named, tie_text


def new_state(
    datasets: dict[str, dict[str, Any]], names: list[str], options: dict[str, Any], seed: int
) -> State:
    """A new game for the players ``names`` (checked, in seat order) with every option resolved
    (``options``): the start roll, the character choice or, from a scenario, the first turn."""
    data = datasets.get(options["data_set"])
    if data is None:
        raise SetupError(
            t(
                "no Dork Tower data set {name} (known: {known})",
                name=repr(options["data_set"]),
                known=", ".join(sorted(datasets)),
            )
        )
    count = len(names)
    if count > len(data["characters"]):
        raise SetupError(
            t(
                "the data set has {count} characters for {n} players",
                count=len(data["characters"]),
                n=count,
            )
        )
    kingdoms = [wedge for wedge in data["wedges"] if wedge["kind"] == "kingdom"]
    if count > len(kingdoms):  # DT-SETUP-8: a different kingdom each
        raise SetupError(
            t("the map has {count} kingdoms for {n} players", count=len(kingdoms), n=count)
        )
    state: State = {
        "game": GAME_ID,
        "players": names,
        "options": options,
        "seed": int(seed),
        "chance_n": 0,
        "data_set": data["name"],
        "data_fingerprint": data["fingerprint"],
        "phase": "start_roll",
        "start": {"rolling": list(range(count)), "rolls": {}},
        "first": 0,
        "choosing": 0,
        "active": 0,
        "turn": 0,
        "tower_step": 0,  # DT-SETUP-1: the door faces the wild area of the data's tower
        "heroes": [new_hero() for _player_name in names],
        "quests": [],
        "monsters": {},
        "bowl": {
            token["id"]: token["count"]  # DT-SETUP-4
            for token in data["tokens"].values()
        },
        "items": {"deck": sorted(data["items"]), "discard": []},  # DT-SETUP-2, DT-CARD-3
        "scrolls": {"deck": sorted(data["scrolls"]), "discard": []},
        "pending": [],
        "t": None,  # this turn's bookkeeping
        "encounter": None,
        "combat": None,
        "shop": None,
        "offer": None,
        "last_combat": None,
        "winners": [],
    }
    if options["scenario"]:
        _arrange(datasets[state["data_set"]], state, options["scenario"])
    elif not options["start_roll"]:
        _to_choose(state, 0, [])
    return state


def _arrange(data: dict[str, Any], state: State, scenario: Any) -> None:
    """A scenario: the position after setup, as the option ``scenario`` describes it."""

    def fail(where: str, problem: Text) -> None:
        raise SetupError(t("scenario {where}: {problem}", where=where, problem=problem))

    if not isinstance(scenario, dict):
        fail("", t("must be an object"))
    unknown = set(scenario) - {"heroes", "monsters", "quests", "tower_step", "first"}
    if unknown:
        fail(
            ", ".join(sorted(unknown)),
            t("unknown key (known: heroes, monsters, quests, tower_step, first)"),
        )
    heroes = scenario.get("heroes")
    if not isinstance(heroes, dict) or set(heroes) != set(state["players"]):
        fail("heroes", t("must describe every player, by name"))
    for seat, name in enumerate(state["players"]):
        spec = heroes[name]
        where = f"heroes.{name}"
        if not isinstance(spec, dict):
            fail(where, t("must be an object"))
        character = spec.get("character")
        if character not in data["characters"]:
            fail(where, t("unknown character {character}", character=repr(character)))
        if any(hero["character"] == character for hero in state["heroes"]):
            fail(where, t("{character} is played by two heroes", character=repr(character)))
        home = spec.get("home")
        if home not in data["spaces"] or not space_type(data, home)["city"]:
            fail(where, t("home {home} is not a city", home=repr(home)))
        space = spec.get("space", home)
        if space not in data["spaces"]:
            fail(where, t("unknown space {space}", space=repr(space)))
        level = spec.get("level", "low")
        if level not in ("low", "high"):
            fail(where, t("level is low or high"))
        hero = state["heroes"][seat]
        hero.update(
            character=character,
            home=home,
            space=space,
            level=level,
            gold=spec.get("gold", START_GOLD),
            xp=spec.get("xp", 0),
        )
        for key in ("gold", "xp"):
            if not isinstance(hero[key], int) or isinstance(hero[key], bool) or hero[key] < 0:
                fail(where, t("{key} must be a whole number", key=key))
        for index, item in enumerate(spec.get("items", [])):
            card = item.get("card") if isinstance(item, dict) else None
            face = item.get("face", "equipment") if isinstance(item, dict) else None
            if card not in state["items"]["deck"] or face not in ("equipment", "magic"):
                fail(
                    f"{where}.items[{index}]",
                    t(
                        "{card} is not an item card left in the deck "
                        "(or its face is not equipment or magic)",
                        card=repr(card),
                    ),
                )
            state["items"]["deck"].remove(card)
            slot = item.get("slot")
            if slot is None:
                gain_item(data, state, seat, card, face)
            elif slot == "backpack":
                hero["backpack"].append({"card": card, "face": face})
            else:
                slots = level_of(data, state, seat)["slots"]
                if (
                    not isinstance(slot, int)
                    or not 0 <= slot < SLOTS
                    or hero["slots"][slot]
                    or not fits(state, slots[slot], data["items"][card][face])
                ):
                    fail(
                        f"{where}.items[{index}]",
                        t("{card} does not fit slot {slot}", card=repr(card), slot=repr(slot)),
                    )
                hero["slots"][slot] = {"card": card, "face": face}
        for card in spec.get("scrolls", []):
            if card not in state["scrolls"]["deck"]:
                fail(
                    f"{where}.scrolls",
                    t("{card} is not a scroll card left in the deck", card=repr(card)),
                )
            state["scrolls"]["deck"].remove(card)
            hero["scrolls"].append(card)
    monsters = scenario.get("monsters", {})
    if not isinstance(monsters, dict):
        fail("monsters", t("must map spaces to lists of tokens"))
    for space, tokens in monsters.items():
        if space not in data["spaces"] or not isinstance(tokens, list) or not tokens:
            fail(f"monsters.{space}", t("must be a space of the map with a list of tokens"))
        for token in tokens:
            if state["bowl"].get(token, 0) < 1 or not data["tokens"][token]["monster"]:
                fail(
                    f"monsters.{space}",
                    t("{token} is not a monster token left in the bowl", token=repr(token)),
                )
            state["bowl"][token] -= 1
        state["monsters"][space] = list(tokens)
    quests = scenario.get("quests", data["quest_starts"])
    if (
        not isinstance(quests, list)
        or len(quests) != 2
        or len(set(quests)) != 2
        or any(quest not in data["spaces"] for quest in quests)
    ):
        fail("quests", t("must be two different spaces of the map"))
    state["quests"] = list(quests)
    step = scenario.get("tower_step", 0)
    if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step < 8:
        fail("tower_step", t("must be a whole number from 0 to 7"))  # DT-TIME-2
    state["tower_step"] = step
    first = scenario.get("first", state["players"][0])
    if first not in state["players"]:
        fail("first", t("{player} is not playing", player=repr(first)))
    state["first"] = state["active"] = state["players"].index(first)
    start_turn(data, state, [])


def rolled_start(
    data: dict[str, Any], state: State, chance_step: dict, values: list[int], events: list[Event]
) -> None:
    """DT-SETUP-6: each player's two dice; the highest starts, ties roll again."""
    seat = chance_step["player"]
    state["start"]["rolls"][str(seat)] = sum(values)
    events.append(
        _event(
            "start_roll",
            t("{player} rolls {total}.", player=_name(state, seat), total=sum(values)),
            player=_name(state, seat),
            values=values,
        )
    )
    rolling = state["start"]["rolling"]
    if len(state["start"]["rolls"]) < len(rolling):
        return
    best = max(state["start"]["rolls"].values())
    top = [other for other in rolling if state["start"]["rolls"][str(other)] == best]
    if len(top) > 1:  # DT-SETUP-6, DT-AMB-19: ties roll again among themselves
        state["start"] = {"rolling": top, "rolls": {}}
        events.append(
            _event(
                "start_tie",
                tie_text([_name(state, tied) for tied in top], best),
                players=[_name(state, tied) for tied in top],
            )
        )
        return
    _to_choose(state, top[0], events)


def _to_choose(state: State, first: int, events: list[Event]) -> None:
    """The starting player is known: he chooses a character first (DT-SETUP-7)."""
    state["first"] = state["choosing"] = state["active"] = first
    state["phase"] = "choose"
    events.append(
        _event(
            "first_player",
            t("{player} starts and chooses a character first.", player=_name(state, first)),
            player=_name(state, first),
        )
    )


def choose(data: dict[str, Any], state: State, action: Action, events: list[Event]) -> None:
    """DT-SETUP-7, DT-SETUP-8, DT-AMB-21: a character and a home city in a kingdom of one's
    own, chosen clockwise from the starting player."""
    if state["phase"] != "choose":
        raise _Refuse(
            "DT-SETUP-7",
            t("Characters are chosen at the start; {prompt}", prompt=prompt(data, state)),
        )
    seat = _seat(state, _player(action))
    if seat != state["choosing"]:
        raise _Refuse(
            "DT-SETUP-7",
            t(
                "{player} chooses now, not {other}.",
                player=_name(state, state["choosing"]),
                other=_name(state, seat),
            ),
        )
    character = action.get("character")
    if character not in data["characters"]:
        raise _Refuse(
            "DT-CHAR-7",
            t(
                "There is no character {character} (characters: {known}).",
                character=repr(character),
                known=", ".join(sorted(data["characters"])),
            ),
        )
    if any(hero["character"] == character for hero in state["heroes"]):
        raise _Refuse(
            "DT-SETUP-7",
            t(
                "{character} is already taken.",
                character=named(data["characters"][character]["name"]),
            ),
        )
    city = action.get("city")
    space = data["spaces"].get(city) if isinstance(city, str) else None
    if space is None or not space_type(data, city)["city"]:
        raise _Refuse("DT-SETUP-8", t("A hero starts in a city; that is not a city."))
    wedge = space["wedge"]
    if wedge_by_id(data, wedge)["kind"] != "kingdom":
        raise _Refuse("DT-SETUP-8", t("A hero starts in a city of a kingdom."))
    taken = {data["spaces"][hero["home"]]["wedge"] for hero in state["heroes"] if hero["home"]}
    if wedge in taken:
        raise _Refuse(
            "DT-SETUP-8",
            t(
                "Each player starts in a different kingdom; {kingdom} is taken.",
                kingdom=named(wedge_by_id(data, wedge)["name"]),
            ),
        )
    hero = state["heroes"][seat]
    hero.update(character=character, home=city, space=city, gold=START_GOLD)  # DT-SETUP-5
    events.append(
        _event(
            "chosen",
            t(
                "{player} plays {character}, from {city}.",
                player=_name(state, seat),
                character=named(data["characters"][character]["name"]),
                city=named(space["name"]),
            ),
            player=_name(state, seat),
            character=character,
            city=city,
        )
    )
    count = len(state["players"])
    state["choosing"] = (seat + 1) % count
    if state["choosing"] != state["first"]:
        return
    # DT-SETUP-5: one scroll each, drawn blind, clockwise from the starting player
    for offset in range(count):
        for _scroll in range(START_SCROLLS):
            state["pending"].append(draw_step("scroll", (state["first"] + offset) % count, "setup"))
    # DT-SETUP-9, DT-QUEST-1: the first two quests, one in each wild area
    state["quests"] = list(data["quest_starts"])
    events.append(
        _event(
            "quests_placed",
            t("The two quest tokens are placed in the wild areas."),
            quests=list(state["quests"]),
        )
    )
    state["phase"] = "setup"
    flow(data, state, events)
