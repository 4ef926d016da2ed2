"""Dork Tower (John Kovalic, 2003): the rules core.

Specification: ``shared/rules/dork-tower.md``; rule IDs DT-* are cited where each rule is
enforced. Everything the rulebook prints elsewhere (map, tower, Combat Table, Encounter chart,
Quest Location table, tokens, cards, characters, the XP reference sheet) comes from a data set
(``data.py``, ``docs/dork-tower-data.md``); the state names its data set and fingerprint, so a
recorded game is always replayed against the data it was played with.

Seats are numbered clockwise; turn order, character choice and the tower all go clockwise.

Phases (section 4.2 of the spec, with the automatic states folded into the transitions):

``start_roll``  every player rolls two dice; the highest starts, ties roll again (DT-SETUP-6)
``choose``      from the starting player clockwise, each picks a character and a home city
``move``        the active player steps, stops, or enters the tower (DT-MOVE, DT-BORDER, DT-TOWER)
``trade``       the active player may trade with characters on his space (DT-TRADE, DT-AMB-7)
``encounter``   encounter tokens are being drawn (DT-ENC-3), or rewards and relocations resolved
``resolve``     non-monster tokens are resolved first, in any order (DT-ENC-4)
``scrolls_own`` the fighter may play scrolls (DT-COMBAT-2)
``scrolls_others`` the other players may play scrolls against him, or pass (DT-COMBAT-4)
``pre_roll``    the fighter may buy sixes (DT-COMBAT-6); the two dice are awaited (DT-COMBAT-7)
``defeat``      a failed roll: re-roll by scroll, flee or die (DT-DEFEAT)
``city``        Shop or Work (DT-CITY)
``cleanup``     discard down to the limits, then end the turn: the tower turns (DT-LIMIT)
``over``        Z'Mindrik is defeated (DT-GAME-1)

Chance steps (dice and blind draws) wait in ``state["pending"]``, first in first out; while one
waits, the phase says what the turn is doing and ``chance()`` says what the world must supply.
"""

from __future__ import annotations

import random
from typing import Any

from companion.i18n import Text, t
from companion.rules.api import (
    EVERYTHING,
    HOST,
    MALFORMED,
    TABLE,
    UNKNOWN_ACTION,
    Accepted,
    Action,
    Chance,
    Event,
    Game,
    Option,
    Outcome,
    Refusal,
    Result,
    SetupError,
    State,
)
from companion.rules.common import Refuse as _Refuse
from companion.rules.common import event as _event
from companion.rules.common import name_of as _name
from companion.rules.common import player_of as _player
from companion.rules.common import seat_of as _seat

START_GOLD = 60  # DT-SETUP-5
START_SCROLLS = 1  # DT-SETUP-5
SCROLL_PRICE = 50  # DT-CITY-5, DT-CITY-6
RESURRECTION_GOLD = 50  # DT-DEATH-2
WORK_PAY = {"low": 60, "high": 120}  # DT-CITY-7, DT-LVL-3
QUEST_XP = 5  # DT-QUEST-4
SHOP_CARDS = 2  # DT-CITY-2
SCROLL_LIMIT = 3  # DT-CARD-8, DT-LIMIT-1
BACKPACK_LIMIT = 2  # DT-CHAR-4, DT-LIMIT-2
SLOTS = 4  # DT-CHAR-2
MAX_SIXES = 2  # two dice
DIE = (1, 2, 3, 4, 5, 6)

PHASES = (
    "start_roll",
    "choose",
    "move",
    "trade",
    "encounter",
    "resolve",
    "scrolls_own",
    "scrolls_others",
    "pre_roll",
    "defeat",
    "city",
    "cleanup",
    "over",
)
TRADE_WINDOWS = ("both", "before", "after", "none")


class DorkTower(Game):
    id = "dorktower"
    title = "Dork Tower"
    spec = "dork-tower.md"
    min_players = 2  # DT-AMB-20: one kingdom each, six kingdoms
    max_players = 6
    options = (
        Option(
            "data_set",
            "example",
            t(
                "The data set (map, tower, tables, tokens, cards, "
                "characters) the game is played with; see "
                "docs/dork-tower-data.md."
            ),
            "DT-AMB-5",
        ),
        Option(
            "start_roll",
            True,
            t(
                "Roll two dice each to decide who starts (DT-SETUP-6); "
                "false: the first player listed starts."
            ),
            "DT-SETUP-6",
        ),
        Option(
            "trade_windows",
            "both",
            t(
                "When characters on the active player's space may "
                "trade: right after movement, after the encounter, "
                "both, or never."
            ),
            "DT-AMB-7",
            choices=TRADE_WINDOWS,
        ),
        Option(
            "resurrection_consumes_turn",
            False,
            t("A resurrected hero's turn is used up by the resurrection."),
            "DT-AMB-9",
        ),
        Option(
            "flee_across_mountains",
            False,
            t(
                "A fleeing hero may cross a mountain border "
                "(lakes always block unless the hero "
                "habitually crosses them)."
            ),
            "DT-AMB-11",
        ),
        Option(
            "death_only_without_escape",
            True,
            t("A defeated hero may choose to die only when there is nowhere to flee."),
            "DT-AMB-12",
        ),
        Option(
            "killed_tokens_return",
            True,
            t(
                "Killed monsters and resolved tokens go back "
                "into the bowl (false: they leave the game)."
            ),
            "DT-AMB-14",
        ),
        Option(
            "slot_max",
            "forbid",
            t(
                "An item above a slot's Max: cannot be placed in that "
                "slot (forbid), or its bonus is capped (cap)."
            ),
            "DT-AMB-16",
            choices=("forbid", "cap"),
        ),
        Option(
            "slot_max_special",
            False,
            t("A slot's Max also caps bonuses against a type of enemy."),
            "DT-AMB-16",
        ),
        Option(
            "work_allows_selling",
            False,
            t("A hero who works may still sell at the market."),
            "DT-AMB-17",
        ),
        Option(
            "encounter_before_entry",
            False,
            t("The encounter on the door's shadowland must be had before entering the tower."),
            "DT-AMB-18",
        ),
        Option(
            "scenario",
            {},
            t(
                "Start from an arranged position instead of the setup: heroes "
                "(character, home, space, level, gold, XP, items, scrolls), "
                "monsters on spaces, quests, the tower's step and whose turn it "
                "is; see docs/replay.md."
            ),
            "DT-SETUP-7",
        ),
        Option(
            "trust_positions",
            False,
            t(
                "Accept any reported step without checking "
                "adjacency and borders (for a map the data set does "
                "not describe)."
            ),
            "DT-AMB-5",
        ),
    )

    def __init__(self, datasets: dict[str, dict[str, Any]] | None = None):
        self._datasets: dict[str, dict[str, Any]] | None = dict(datasets) if datasets else None
        self._default: str | None = None

    @property
    def datasets(self) -> dict[str, dict[str, Any]]:
        """The data sets by name. The bundled example is loaded (and validated) on first use,
        not at import, so a mistake in it is reported like any data set's, not as a crash."""
        if self._datasets is None:
            from .data import example_dataset

            data = example_dataset()
            self._datasets = {data["name"]: data}
        return self._datasets

    @property
    def default_set(self) -> str:
        if self._default is None:
            sets = self.datasets
            self._default = "example" if "example" in sets else next(iter(sets))
        return self._default

    @property
    def components(self) -> dict[str, int]:  # type: ignore[override]
        data = self.datasets[self.default_set]
        if getattr(self, "_boxed", (None,))[0] is not data:
            self._boxed = (data, self._components(data))
        return self._boxed[1]

    def add_dataset(self, data: dict[str, Any], default: bool = False) -> None:
        """Make a data set (loaded and validated by ``data.load_dataset``) available by name;
        ``default``: new games use it unless told otherwise, and its stickers are the ones the
        tag registry expects."""
        if self._datasets is None:
            self._datasets = {}
        self._datasets[data["name"]] = data
        if default:
            self._default = data["name"]

    def resolve_options(self, given: dict[str, Any] | None) -> dict[str, Any]:
        resolved = super().resolve_options(given)
        if "data_set" not in (given or {}):
            resolved["data_set"] = self.default_set
        return resolved

    @staticmethod
    def _components(data: dict[str, Any]) -> dict[str, int]:
        """NFC stickers: the tower, every encounter token kind, item card and scroll card, and
        (where a maker stickers the board) every space."""
        comps = {"tower": 1}
        for space in data["spaces"]:
            comps[f"space {space}"] = 1
        for tok in data["tokens"].values():
            comps[f"token {tok['id']}"] = tok["count"]
        for c in data["items"]:
            comps[f"item {c}"] = 1
        for c in data["scrolls"]:
            comps[f"scroll {c}"] = 1
        return comps

    def data(self, state: State) -> dict[str, Any]:
        return self.datasets[state["data_set"]]

    # ------------------------------------------------------------------------------------------
    # Setting up

    def new(
        self, players: list[str], options: dict[str, Any] | None = None, seed: int = 0
    ) -> State:
        names = self.check_players(players)
        opts = self.resolve_options(options)
        data = self.datasets.get(opts["data_set"])
        if data is None:
            raise SetupError(
                t(
                    "no Dork Tower data set {name} (known: {known})",
                    name=repr(opts["data_set"]),
                    known=", ".join(sorted(self.datasets)),
                )
            )
        n = len(names)
        if n > len(data["characters"]):
            raise SetupError(
                t(
                    "the data set has {count} characters for {n} players",
                    count=len(data["characters"]),
                    n=n,
                )
            )
        kingdoms = [w for w in data["wedges"] if w["kind"] == "kingdom"]
        if n > len(kingdoms):  # DT-SETUP-8: a different kingdom each
            raise SetupError(
                t("the map has {count} kingdoms for {n} players", count=len(kingdoms), n=n)
            )
        s: State = {
            "game": self.id,
            "players": names,
            "options": opts,
            "seed": int(seed),
            "chance_n": 0,
            "data_set": data["name"],
            "data_fingerprint": data["fingerprint"],
            "phase": "start_roll",
            "start": {"rolling": list(range(n)), "rolls": {}},
            "first": 0,
            "choosing": 0,
            "active": 0,
            "turn": 0,
            "tower_step": 0,  # DT-SETUP-1: the door faces the wild area of the data's tower
            "heroes": [_new_hero() for _ in names],
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
        if opts["scenario"]:
            self._arrange(s, opts["scenario"])
        elif not opts["start_roll"]:
            self._to_choose(s, 0, [])
        return s

    def _arrange(self, s: State, sc: Any) -> None:
        """A scenario: the position after setup, as the option ``scenario`` describes it."""
        data = self.data(s)

        def fail(where: str, problem: Text) -> None:
            raise SetupError(t("scenario {where}: {problem}", where=where, problem=problem))

        if not isinstance(sc, dict):
            fail("", t("must be an object"))
        unknown = set(sc) - {"heroes", "monsters", "quests", "tower_step", "first"}
        if unknown:
            fail(
                ", ".join(sorted(unknown)),
                t("unknown key (known: heroes, monsters, quests, tower_step, first)"),
            )
        heroes = sc.get("heroes")
        if not isinstance(heroes, dict) or set(heroes) != set(s["players"]):
            fail("heroes", t("must describe every player, by name"))
        for i, name in enumerate(s["players"]):
            spec = heroes[name]
            where = f"heroes.{name}"
            if not isinstance(spec, dict):
                fail(where, t("must be an object"))
            char = spec.get("character")
            if char not in data["characters"]:
                fail(where, t("unknown character {character}", character=repr(char)))
            if any(h["character"] == char for h in s["heroes"]):
                fail(where, t("{character} is played by two heroes", character=repr(char)))
            home = spec.get("home")
            if home not in data["spaces"] or not self._type(s, home)["city"]:
                fail(where, t("home {home} is not a city", home=repr(home)))
            space = spec.get("space", home)
            if space not in data["spaces"]:
                fail(where, t("unknown space {space}", space=repr(space)))
            level = spec.get("level", "low")
            if level not in ("low", "high"):
                fail(where, t("level is low or high"))
            h = s["heroes"][i]
            h.update(
                character=char,
                home=home,
                space=space,
                level=level,
                gold=spec.get("gold", START_GOLD),
                xp=spec.get("xp", 0),
            )
            for key in ("gold", "xp"):
                if not isinstance(h[key], int) or isinstance(h[key], bool) or h[key] < 0:
                    fail(where, t("{key} must be a whole number", key=key))
            for n, item in enumerate(spec.get("items", [])):
                card = item.get("card") if isinstance(item, dict) else None
                face = item.get("face", "equipment") if isinstance(item, dict) else None
                if card not in s["items"]["deck"] or face not in ("equipment", "magic"):
                    fail(
                        f"{where}.items[{n}]",
                        t(
                            "{card} is not an item card left in the deck "
                            "(or its face is not equipment or magic)",
                            card=repr(card),
                        ),
                    )
                s["items"]["deck"].remove(card)
                slot = item.get("slot")
                if slot is None:
                    self._gain_item(s, i, card, face)
                elif slot == "backpack":
                    h["backpack"].append({"card": card, "face": face})
                else:
                    slots = self._level(s, i)["slots"]
                    if (
                        not isinstance(slot, int)
                        or not 0 <= slot < SLOTS
                        or h["slots"][slot]
                        or not self._fits(s, slots[slot], data["items"][card][face])
                    ):
                        fail(
                            f"{where}.items[{n}]",
                            t("{card} does not fit slot {slot}", card=repr(card), slot=repr(slot)),
                        )
                    h["slots"][slot] = {"card": card, "face": face}
            for card in spec.get("scrolls", []):
                if card not in s["scrolls"]["deck"]:
                    fail(
                        f"{where}.scrolls",
                        t("{card} is not a scroll card left in the deck", card=repr(card)),
                    )
                s["scrolls"]["deck"].remove(card)
                h["scrolls"].append(card)
        monsters = sc.get("monsters", {})
        if not isinstance(monsters, dict):
            fail("monsters", t("must map spaces to lists of tokens"))
        for space, tokens in monsters.items():
            if space not in data["spaces"] or not isinstance(tokens, list) or not tokens:
                fail(f"monsters.{space}", t("must be a space of the map with a list of tokens"))
            for tok in tokens:
                if s["bowl"].get(tok, 0) < 1 or not data["tokens"][tok]["monster"]:
                    fail(
                        f"monsters.{space}",
                        t("{token} is not a monster token left in the bowl", token=repr(tok)),
                    )
                s["bowl"][tok] -= 1
            s["monsters"][space] = list(tokens)
        quests = sc.get("quests", data["quest_starts"])
        if (
            not isinstance(quests, list)
            or len(quests) != 2
            or len(set(quests)) != 2
            or any(q not in data["spaces"] for q in quests)
        ):
            fail("quests", t("must be two different spaces of the map"))
        s["quests"] = list(quests)
        step = sc.get("tower_step", 0)
        if not isinstance(step, int) or isinstance(step, bool) or step < 0:
            fail("tower_step", t("must be a whole number"))
        s["tower_step"] = step
        first = sc.get("first", s["players"][0])
        if first not in s["players"]:
            fail("first", t("{player} is not playing", player=repr(first)))
        s["first"] = s["active"] = s["players"].index(first)
        self._start_turn(s, [])

    # ------------------------------------------------------------------------------------------
    # Applying actions

    def apply(self, state: State, action: Action) -> Result:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return Refusal(MALFORMED, t("An action needs a type."))
        handler = _HANDLERS.get(action["type"])
        if handler is None:
            return Refusal(
                UNKNOWN_ACTION,
                t("{game} has no action {action}.", game=self.title, action=repr(action["type"])),
            )
        if state["phase"] == "over":
            return Refusal(
                "DT-GAME-1",
                t("The game is over: {player} defeated Z'Mindrik.", player=state["winners"][0]),
            )
        s = _copy(state)
        events: list[Event] = []
        try:
            handler(self, s, action, events)
            self._flow(s, events)
        except _Refuse as refused:
            return refused.refusal
        return Accepted(s, tuple(events))

    # -- chance: dice and blind draws ----------------------------------------------------------

    def _expect_chance(self, s: State, kind: str, a: Action | None = None) -> dict[str, Any]:
        if not s["pending"] or s["pending"][0]["kind"] != kind:
            prompt = self._prompt(s)
            if kind == "die":
                reason = t("No roll is expected now; {prompt}", prompt=prompt)
            elif kind == "token":
                reason = t("No encounter token is expected now; {prompt}", prompt=prompt)
            elif kind == "item":
                reason = t("No item card is expected now; {prompt}", prompt=prompt)
            else:
                reason = t("No scroll is expected now; {prompt}", prompt=prompt)
            raise _Refuse("DT-TURN-2", reason)
        p = s["pending"][0]
        if a is not None and a.get("player") is not None and p.get("player") is not None:
            if _seat(s, a["player"]) != p["player"]:
                raise _Refuse(
                    "DT-TURN-1",
                    t(
                        "{player} draws now, not {other}.",
                        player=_name(s, p["player"]),
                        other=a["player"],
                    ),
                )
        return p

    def _roll(self, s: State, a: Action, ev: list[Event]) -> None:
        if s["phase"] == "start_roll":
            chance = self.chance(s)
            p = {"kind": "die", "why": "start", "player": _seat(s, chance.player), "dice": 2}
            s["pending"].insert(0, p)
        if s["phase"] == "resolve" and not s["pending"]:
            raise _Refuse(
                "DT-ENC-4", t("Resolve the tokens that are not monsters before the fight.")
            )
        p = self._expect_chance(s, "die")
        if "player" in a and a["player"] is not None:
            seat = _seat(s, a["player"])
            if p["player"] is not None and seat != p["player"]:
                raise _Refuse(
                    "DT-TURN-1",
                    t(
                        "{player} rolls now, not {other}.",
                        player=_name(s, p["player"]),
                        other=a["player"],
                    ),
                )
        values = _dice_values(a, p["dice"])
        _fulfilled(s)
        getattr(self, f"_rolled_{p['why']}")(s, p, values, ev)
        self._flow(s, ev)

    def _draw_token(self, s: State, a: Action, ev: list[Event]) -> None:
        if not s["pending"] or s["pending"][0]["kind"] != "token":
            turn = s["t"]
            here = s["heroes"][s["active"]]["space"] if turn else None
            if here and here in s["monsters"] and turn["encountered"]:
                raise _Refuse(
                    "DT-ENC-2", t("Monsters are already here: fight them; no token is drawn.")
                )
            if here and s["phase"] == "city":
                raise _Refuse("DT-ENC-1", t("No encounter token is drawn in a city."))
            if (
                turn
                and turn["encountered"]
                and s["phase"]
                in ("encounter", "resolve", "scrolls_own", "scrolls_others", "pre_roll")
            ):
                raise _Refuse(
                    "DT-ENC-3",
                    t("Every token this space asks for is drawn; {prompt}", prompt=self._prompt(s)),
                )
        self._expect_chance(s, "token", a)
        data = self.data(s)
        token = a.get("token")
        if token not in data["tokens"]:
            raise _Refuse(
                "DT-COMP-3",
                t("There is no encounter token {token} in this set.", token=repr(token)),
            )
        if s["bowl"].get(token, 0) <= 0:
            raise _Refuse(
                "DT-SETUP-4",
                t("No {token} token is left in the bowl.", token=data["tokens"][token]["name"]),
            )
        _fulfilled(s)
        s["bowl"][token] -= 1
        tok = data["tokens"][token]
        enc = s["encounter"]
        if enc["wizard"] and tok["friendly"]:  # DT-WIZ-2: ignored and drawn again
            enc["aside"].append(token)
            s["pending"].insert(0, _draw("token", s["active"], "wizard"))
            ev.append(
                _event(
                    "token_drawn",
                    t("{token} is friendly: Z'Mindrik ignores it; draw again.", token=tok["name"]),
                    token=token,
                    ignored=True,
                )
            )
            return
        enc["drawn"].append(token)
        if not tok["monster"]:
            enc["unresolved"].append(token)
        if _an(tok["name"]):
            text = t("{player} draws an {token}.", player=_name(s, s["active"]), token=tok["name"])
        else:
            text = t("{player} draws a {token}.", player=_name(s, s["active"]), token=tok["name"])
        ev.append(_event("token_drawn", text, token=token, monster=tok["monster"]))
        self._flow(s, ev)

    def _draw_item(self, s: State, a: Action, ev: list[Event]) -> None:
        p = self._expect_chance(s, "item", a)
        card = a.get("card")
        data = self.data(s)
        if card not in data["items"]:
            raise _Refuse(
                "DT-COMP-1", t("There is no item card {card} in this set.", card=repr(card))
            )
        self._from_deck(s, "items", card, ev)
        _fulfilled(s)
        seat = p["player"]
        if p["face"] == "shop":  # DT-CITY-2: both faces are shown
            s["shop"]["cards"].append({"card": card, "bought": None})
            c = data["items"][card]
            ev.append(
                _event(
                    "shop_card",
                    t(
                        "Shop card: {equipment} ({equipment_price} gold) or "
                        "{magic} ({magic_price} gold).",
                        equipment=c["equipment"]["name"],
                        equipment_price=c["equipment"]["price"],
                        magic=c["magic"]["name"],
                        magic_price=c["magic"]["price"],
                    ),
                    card=card,
                )
            )
        else:  # DT-REWARD-2, DT-REWARD-3, DT-AMB-22: that face, shown to all
            face = p["face"]
            where = self._gain_item(s, seat, card, face)
            item = data["items"][card][face]["name"]
            if where == "backpack":
                text = t("{player} gains {item} (backpack).", player=_name(s, seat), item=item)
            else:
                text = t(
                    "{player} gains {item} (slot {slot}).",
                    player=_name(s, seat),
                    item=item,
                    slot=_slot_number(where),
                )
            ev.append(
                _event(
                    "item_gained", text, player=_name(s, seat), card=card, face=face, where=where
                )
            )
        self._flow(s, ev)

    def _draw_scroll(self, s: State, a: Action, ev: list[Event]) -> None:
        p = self._expect_chance(s, "scroll", a)
        card = a.get("scroll")
        data = self.data(s)
        if card not in data["scrolls"]:
            raise _Refuse("DT-COMP-2", t("There is no such scroll card in this set."))
        card = self._same_scroll(s, card)
        self._from_deck(s, "scrolls", card, ev)
        _fulfilled(s)
        seat = p["player"]
        s["heroes"][seat]["scrolls"].append(card)
        name = _name(s, seat)
        ev.append(
            _event(
                "scroll_drawn",
                t("{player} draws a scroll.", player=name),
                player=name,
                private={"scroll": card, "name": data["scrolls"][card]["name"]},
                audience=[name],
            )
        )  # DT-CARD-6, DT-CITY-5: only the drawer sees it
        self._flow(s, ev)

    def _same_scroll(self, s: State, card: str) -> str:
        """Scroll cards with the same name are the same card: a drawn "Second Chance" is any
        copy still in the deck (so a phone's list of scrolls need not know who holds which)."""
        scrolls = self.data(s)["scrolls"]
        pile = s["scrolls"]["deck"] or s["scrolls"]["discard"]
        if card in pile:
            return card
        same = sorted(c for c in pile if scrolls[c]["name"] == scrolls[card]["name"])
        return same[0] if same else card

    def _from_deck(self, s: State, deck: str, card: str, ev: list[Event]) -> None:
        """DT-CARD-2: a card comes from its deck; an empty deck is its discard pile reshuffled."""
        pile = s[deck]
        if not pile["deck"] and pile["discard"]:
            pile["deck"], pile["discard"] = sorted(pile["discard"]), []
            if deck == "items":
                text = t("The item discard pile is shuffled into a new deck.")
            else:
                text = t("The scroll discard pile is shuffled into a new deck.")
            ev.append(_event("reshuffled", text, deck=deck))
        if card not in pile["deck"]:
            if deck == "items":
                raise _Refuse("DT-CARD-2", t("That item card is not in the deck."))
            raise _Refuse("DT-CARD-2", t("That scroll card is not in the deck."))
        pile["deck"].remove(card)

    # -- setup -----------------------------------------------------------------------------

    def _rolled_start(self, s: State, p: dict, values: list[int], ev: list[Event]) -> None:
        seat = p["player"]
        s["start"]["rolls"][str(seat)] = sum(values)
        ev.append(
            _event(
                "start_roll",
                t("{player} rolls {total}.", player=_name(s, seat), total=sum(values)),
                player=_name(s, seat),
                values=values,
            )
        )
        rolling = s["start"]["rolling"]
        if len(s["start"]["rolls"]) < len(rolling):
            return
        best = max(s["start"]["rolls"].values())
        top = [i for i in rolling if s["start"]["rolls"][str(i)] == best]
        if len(top) > 1:  # DT-SETUP-6, DT-AMB-19: ties roll again among themselves
            s["start"] = {"rolling": top, "rolls": {}}
            ev.append(
                _event(
                    "start_tie",
                    _tie_text([_name(s, i) for i in top], best),
                    players=[_name(s, i) for i in top],
                )
            )
            return
        self._to_choose(s, top[0], ev)

    def _to_choose(self, s: State, first: int, ev: list[Event]) -> None:
        s["first"] = s["choosing"] = s["active"] = first
        s["phase"] = "choose"
        ev.append(
            _event(
                "first_player",
                t("{player} starts and chooses a character first.", player=_name(s, first)),
                player=_name(s, first),
            )
        )

    def _choose(self, s: State, a: Action, ev: list[Event]) -> None:
        """DT-SETUP-7, DT-SETUP-8, DT-AMB-21: a character and a home city in a kingdom of one's
        own, chosen clockwise from the starting player."""
        if s["phase"] != "choose":
            raise _Refuse(
                "DT-SETUP-7",
                t("Characters are chosen at the start; {prompt}", prompt=self._prompt(s)),
            )
        seat = _seat(s, _player(a))
        if seat != s["choosing"]:
            raise _Refuse(
                "DT-SETUP-7",
                t(
                    "{player} chooses now, not {other}.",
                    player=_name(s, s["choosing"]),
                    other=_name(s, seat),
                ),
            )
        data = self.data(s)
        char = a.get("character")
        if char not in data["characters"]:
            raise _Refuse(
                "DT-CHAR-7",
                t(
                    "There is no character {character} (characters: {known}).",
                    character=repr(char),
                    known=", ".join(sorted(data["characters"])),
                ),
            )
        if any(h["character"] == char for h in s["heroes"]):
            raise _Refuse(
                "DT-SETUP-7",
                t("{character} is already taken.", character=data["characters"][char]["name"]),
            )
        city = a.get("city")
        space = data["spaces"].get(city) if isinstance(city, str) else None
        if space is None or not self._type(s, city)["city"]:
            raise _Refuse("DT-SETUP-8", t("A hero starts in a city; that is not a city."))
        wedge = space["wedge"]
        if _wedge(data, wedge)["kind"] != "kingdom":
            raise _Refuse("DT-SETUP-8", t("A hero starts in a city of a kingdom."))
        taken = {data["spaces"][h["home"]]["wedge"] for h in s["heroes"] if h["home"]}
        if wedge in taken:
            raise _Refuse(
                "DT-SETUP-8",
                t(
                    "Each player starts in a different kingdom; {kingdom} is taken.",
                    kingdom=_wedge(data, wedge)["name"],
                ),
            )
        h = s["heroes"][seat]
        h.update(character=char, home=city, space=city, gold=START_GOLD)  # DT-SETUP-5
        ev.append(
            _event(
                "chosen",
                t(
                    "{player} plays {character}, from {city}.",
                    player=_name(s, seat),
                    character=data["characters"][char]["name"],
                    city=space["name"],
                ),
                player=_name(s, seat),
                character=char,
                city=city,
            )
        )
        n = len(s["players"])
        s["choosing"] = (seat + 1) % n
        if s["choosing"] != s["first"]:
            return
        # DT-SETUP-5: one scroll each, drawn blind, clockwise from the starting player
        for k in range(n):
            for _ in range(START_SCROLLS):
                s["pending"].append(_draw("scroll", (s["first"] + k) % n, "setup"))
        # DT-SETUP-9, DT-QUEST-1: the first two quests, one in each wild area
        s["quests"] = list(data["quest_starts"])
        ev.append(
            _event(
                "quests_placed",
                t("The two quest tokens are placed in the wild areas."),
                quests=list(s["quests"]),
            )
        )
        s["phase"] = "setup"
        self._flow(s, ev)

    # -- the turn --------------------------------------------------------------------------

    def _start_turn(self, s: State, ev: list[Event]) -> None:
        """DT-TURN-1, DT-TURN-2; DT-DEATH-2 and DT-AMB-9 for a hero who died."""
        seat = s["active"]
        h = s["heroes"][seat]
        s["turn"] += 1
        s["encounter"] = s["combat"] = s["shop"] = s["offer"] = None
        level = self._level(s, seat)
        s["t"] = {
            "moves_left": level["movement"],
            "start": h["space"],
            "stepped": False,
            "ended": False,
            "whole": False,
            "paid": {},
            "fled": False,
            "died": False,
            "encountered": False,
            "business": None,
            "scroll_bought": False,
            "sold": False,
            "trade_window": None,
        }
        name = _name(s, seat)
        if h["dead"]:
            h["dead"] = False
            h["space"] = h["home"]
            h["gold"] += RESURRECTION_GOLD
            ev.append(
                _event(
                    "resurrected",
                    t(
                        "The citizens of {city} resurrect {player} and give him {gold} gold.",
                        city=self._space(s, h["home"])["name"],
                        player=name,
                        gold=RESURRECTION_GOLD,
                    ),
                    player=name,
                    gold=RESURRECTION_GOLD,
                )
            )
            if s["options"]["resurrection_consumes_turn"]:
                s["t"]["ended"] = "other"
                s["phase"] = "cleanup"
                return
        s["phase"] = "move"
        ev.append(
            _event(
                "turn",
                t("{player}'s turn: move up to {n} spaces.", player=name, n=level["movement"]),
                player=name,
                turn=s["turn"],
            )
        )

    def _step(self, s: State, a: Action, ev: list[Event]) -> None:
        seat = self._expect_turn(s, a, "move", "step")
        data, turn, h = self.data(s), s["t"], s["heroes"][seat]
        to = a.get("to")
        if to not in data["spaces"]:
            raise _Refuse("DT-MOVE-3", t("There is no space {space} on the map.", space=repr(to)))
        here = h["space"]
        border = data["adjacent"].get(here, {}).get(to)
        if s["options"]["trust_positions"]:
            border = border or "none"
        elif border is None:  # DT-MOVE-3: corner-touching spaces are not adjacent
            raise _Refuse(
                "DT-MOVE-3",
                t(
                    "{space} is not next to {here}.",
                    space=self._space(s, to)["name"],
                    here=self._space(s, here)["name"],
                ),
            )
        extra = a.get("extra", False)
        if not isinstance(extra, bool):
            raise _Refuse(MALFORMED, t("extra is true or false."))
        cross = a.get("cross")
        costs = dict(data["xp"])
        xp_needed = 0
        whole = False
        scroll = None
        if border != "none":
            mode = cross or self._habitual(s, seat, border)
            if mode in ("ability", "item"):
                if self._habitual(s, seat, border) is None:
                    if border == "lake":
                        reason = t(
                            "{player} cannot cross a lake without paying {xp} XP, a "
                            "scroll, or a whole turn's movement.",
                            player=_name(s, seat),
                            xp=costs["cross_border"],
                        )
                    else:
                        reason = t(
                            "{player} cannot cross a mountain without paying {xp} XP, a "
                            "scroll, or a whole turn's movement.",
                            player=_name(s, seat),
                            xp=costs["cross_border"],
                        )
                    raise _Refuse("DT-BORDER-2", reason)
            elif mode == "xp":  # DT-BORDER-2 (b)
                self._repeatable(s, "cross_border")
                xp_needed += costs["cross_border"]
            elif mode == "whole":  # DT-BORDER-2 (c)
                if (
                    turn["stepped"]
                    or here != turn["start"]
                    or turn["moves_left"] != self._level(s, seat)["movement"]
                ):
                    raise _Refuse(
                        "DT-BORDER-2",
                        t(
                            "Crossing with the whole movement is only "
                            "possible from the space the turn started "
                            "on, before any step."
                        ),
                    )
                whole = True
            elif mode == "scroll":  # DT-BORDER-2 (a)
                scroll = a.get("scroll")
                self._check_scroll(s, seat, scroll, "movement")
                if border not in self.data(s)["scrolls"][scroll]["effect"].get("cross", []):
                    raise _Refuse("DT-BORDER-2", t("That scroll cannot be used for this crossing."))
            elif border == "lake":
                raise _Refuse(
                    "DT-BORDER-2",
                    t(
                        "A lake is a border: cross it by ability, magic "
                        "item or scroll, for {xp} XP, or with the whole "
                        "movement from a space next to it (cross: "
                        "ability, item, scroll, xp or whole).",
                        xp=costs["cross_border"],
                    ),
                )
            else:
                raise _Refuse(
                    "DT-BORDER-2",
                    t(
                        "A mountain is a border: cross it by ability, "
                        "magic item or scroll, for {xp} XP, or with the "
                        "whole movement from a space next to it (cross: "
                        "ability, item, scroll, xp or whole).",
                        xp=costs["cross_border"],
                    ),
                )
        if extra:  # DT-MOVE-2
            self._repeatable(s, "extra_step")
            xp_needed += costs["extra_step"]
        elif not whole and turn["moves_left"] < 1:  # DT-MOVE-1
            raise _Refuse(
                "DT-MOVE-1",
                t(
                    "{player} has no movement left; an extra step costs {xp} XP (extra: true).",
                    player=_name(s, seat),
                    xp=costs["extra_step"],
                ),
            )
        if xp_needed > h["xp"]:
            raise _Refuse(
                "DT-TOK-5",
                t(
                    "{player} has {xp} XP, not {needed}.",
                    player=_name(s, seat),
                    xp=h["xp"],
                    needed=xp_needed,
                ),
            )
        h["xp"] -= xp_needed
        if extra:
            turn["paid"]["extra_step"] = turn["paid"].get("extra_step", 0) + 1
        if xp_needed and border != "none" and cross == "xp":
            turn["paid"]["cross_border"] = turn["paid"].get("cross_border", 0) + 1
        if whole:
            turn["moves_left"] = 0
            turn["whole"] = True
        elif not extra:
            turn["moves_left"] -= 1
        if scroll is not None:
            self._use_scroll(s, seat, scroll, ev)
        turn["stepped"] = True
        h["space"] = to
        name = _name(s, seat)
        where = self._space(s, to)["name"]
        if border == "none":
            text = t("{player} moves to {space}.", player=name, space=where)
        elif border == "lake":
            text = t("{player} moves to {space} across a lake.", player=name, space=where)
        else:
            text = t("{player} moves to {space} across a mountain.", player=name, space=where)
        ev.append(_event("step", text, player=name, to=to, border=border, xp=xp_needed))
        monsters = s["monsters"].get(to)
        if monsters and "avoid_monsters" not in self._level(s, seat)["abilities"]:
            ev.append(
                _event(
                    "stopped",
                    t(
                        "Monsters on {space}: {player} must stop and fight.",
                        space=where,
                        player=name,
                    ),
                    player=name,
                )
            )  # DT-MOVE-4, DT-GROUP-1
            self._move_ended(s, ev, "monsters")
        elif to in s["quests"]:  # DT-MOVE-5, DT-QUEST-2
            ev.append(
                _event(
                    "stopped",
                    t("A quest on {space}: {player}'s movement ends.", space=where, player=name),
                    player=name,
                )
            )
            self._move_ended(s, ev, "quest")

    def _habitual(self, s: State, seat: int, border: str) -> str | None:
        """How a hero crosses a border without paying: his ability or an equipped item
        (DT-BORDER-2 (a), DT-CHAR-1)."""
        if f"cross_{border}" in self._level(s, seat)["abilities"]:
            return "ability"
        for face in self._equipped(s, seat):
            if border in face.get("crosses", []):
                return "item"
        return None

    def _repeatable(self, s: State, use: str) -> None:
        """DT-AMB-3: an XP use may be repeated in one turn unless the data set says not."""
        if not self.data(s)["xp_repeat"].get(use, True) and s["t"]["paid"].get(use):
            if use == "cross_border":
                reason = t("This data set allows cross border for XP once per turn.")
            elif use == "extra_step":
                reason = t("This data set allows extra step for XP once per turn.")
            else:
                reason = t("This data set allows extra shop card for XP once per turn.")
            raise _Refuse("DT-AMB-3", reason)

    def _stop(self, s: State, a: Action, ev: list[Event]) -> None:
        """DT-MOVE-1: movement not used is lost."""
        self._expect_turn(s, a, "move", "stop")
        self._move_ended(s, ev)

    def _move_ended(self, s: State, ev: list[Event], why: str = "stop") -> None:
        s["t"]["ended"] = why
        if self._trade_window(s, "before"):
            return
        self._classify(s, ev)

    def _trade_window(self, s: State, which: str) -> bool:
        """DT-TRADE-1, DT-AMB-7: a trade window opens when others share the space."""
        if s["options"]["trade_windows"] not in ("both", which):
            return False
        if not self._others_here(s, s["active"]):
            return False
        s["phase"] = "trade"
        s["t"]["trade_window"] = which
        return True

    def _classify(self, s: State, ev: list[Event]) -> None:
        """MOVE_ENDED: a city, monsters to fight, or tokens to draw (DT-ENC-1..3, DT-MOVE-6)."""
        seat = s["active"]
        here = s["heroes"][seat]["space"]
        kind = self._type(s, here)
        s["t"]["encountered"] = True
        if here in s["monsters"]:  # DT-ENC-2, DT-GROUP-1: fight them; nothing is drawn
            s["encounter"] = _encounter(here, quest=here in s["quests"])
            self._start_combat(s, list(s["monsters"][here]), ev)
            return
        if kind["city"] and here not in s["quests"]:  # DT-ENC-1
            self._to_city(s, ev)
            return
        k = self._draw_count(s, here)
        s["encounter"] = _encounter(here, quest=here in s["quests"])
        name = _name(s, seat)
        where = self._space(s, here)["name"]
        if k == 1:
            text = t(
                "{player} draws {n} encounter token on {space}.", player=name, n=k, space=where
            )
        else:
            text = t(
                "{player} draws {n} encounter tokens on {space}.", player=name, n=k, space=where
            )
        ev.append(_event("encounter", text, player=name, count=k))
        s["phase"] = "encounter"
        s["pending"].extend(_draw("token", seat, "encounter") for _ in range(k))
        self._flow(s, ev)

    def draw_count(self, state: State, space: str) -> int:
        """Encounter tokens drawn on ``space`` now (DT-ENC-3, §3.1), ignoring monsters and
        quests there."""
        return self._draw_count(state, space)

    def _draw_count(self, s: State, space: str) -> int:
        kind = self._type(s, space)
        return kind["night"] if not self._is_day(s, space) else kind["day"]

    def _is_day(self, s: State, space: str) -> bool:
        """DT-TIME-1, DT-TIME-3: the wedge's wall decides; always-night spaces never see day."""
        if self._type(s, space)["always_night"]:
            return False
        data = self.data(s)
        wedge = [w["id"] for w in data["wedges"]].index(data["spaces"][space]["wedge"])
        return self.wedge_days(s)[wedge]

    def wedge_days(self, state: State) -> list[bool]:
        """DT-TIME-1, DT-AMB-1: for each wedge (clockwise), whether a sun wall faces it."""
        tower = self.data(state)["tower"]
        d0, step, door = tower["door_wedge"], state["tower_step"], tower["door_wall"]
        return [tower["walls"][(j - d0 - step + door) % 8] == "sun" for j in range(8)]

    def door_wedge(self, state: State) -> int:
        """DT-TIME-2: the door moves one wedge clockwise at every turn of the tower."""
        return (self.data(state)["tower"]["door_wedge"] + state["tower_step"]) % 8

    def door_space(self, state: State) -> str:
        """DT-TOWER-2: the shadowland next to the door."""
        data = self.data(state)
        return data["shadowlands"][data["wedges"][self.door_wedge(state)]["id"]]

    # -- encounter tokens ------------------------------------------------------------------

    def _resolve(self, s: State, a: Action, ev: list[Event]) -> None:
        """DT-ENC-4: non-monster tokens first, in any order, until none remain."""
        seat = self._expect_turn(s, a, "resolve", "resolve")
        token = a.get("token")
        enc = s["encounter"]
        if token not in enc["unresolved"]:
            raise _Refuse("DT-ENC-4", t("That token is not waiting to be resolved."))
        enc["unresolved"].remove(token)
        enc["drawn"].remove(token)
        tok = self.data(s)["tokens"][token]
        h = s["heroes"][seat]
        effect = tok.get("effect") or {}
        name = _name(s, seat)
        parts: list[Text] = []
        if effect.get("gold"):
            h["gold"] += effect["gold"]
            parts.append(t("{gold} gold", gold=effect["gold"]))
        if effect.get("xp"):
            h["xp"] += effect["xp"]
            parts.append(t("{xp} XP", xp=effect["xp"]))
        for _ in range(effect.get("draw_scroll", 0)):
            s["pending"].append(_draw("scroll", seat, "token"))
            parts.append(t("a scroll"))
        if effect.get("draw_item"):
            s["pending"].append(_draw("item", seat, "token", face=effect["draw_item"]))
            parts.append(
                t("an equipment item") if effect["draw_item"] == "equipment" else t("a magic item")
            )
        why = "wizard" if enc["wizard"] else "encounter"
        for _ in range(effect.get("draw_tokens", 0)):  # tombs and lairs (DT-COMP-3, DT-WIZ-3)
            s["pending"].append(_draw("token", seat, why))
        if effect.get("draw_tokens"):
            n = effect["draw_tokens"]
            parts.append(t("{n} more token", n=n) if n == 1 else t("{n} more tokens", n=n))
        self._return_tokens(s, [token])
        if parts:
            text = t(
                "{player} resolves {token}: {gains}.",
                player=name,
                token=tok["name"],
                gains=_listing(parts),
            )
        else:
            text = t("{player} resolves {token}.", player=name, token=tok["name"])
        ev.append(_event("resolved", text, player=name, token=token))
        s["phase"] = "encounter"
        self._flow(s, ev)

    def _return_tokens(self, s: State, tokens: list[str]) -> None:
        """DT-AMB-14: killed and resolved tokens go back into the bowl."""
        if s["options"]["killed_tokens_return"]:
            for tok in tokens:
                s["bowl"][tok] = s["bowl"].get(tok, 0) + 1

    # -- combat ----------------------------------------------------------------------------

    def _start_combat(self, s: State, monsters: list[str], ev: list[Event]) -> None:
        enc = s["encounter"]
        s["combat"] = {
            "monsters": monsters,
            "removed": [],
            "played": [],
            "passed": [],
            "sixes": 0,
            "dice": None,
            "rolls": 0,
            "quest": enc["quest"],
            "wizard": enc["wizard"],
            "space": enc["space"],
        }
        names = ", ".join(self.data(s)["tokens"][m]["name"] for m in monsters)
        ev.append(
            _event(
                "combat",
                t("{player} fights {monsters}.", player=_name(s, s["active"]), monsters=names),
                player=_name(s, s["active"]),
                monsters=list(monsters),
            )
        )
        s["phase"] = "scrolls_own"
        self._skip_empty_windows(s)

    def _skip_empty_windows(self, s: State) -> None:
        """A window nobody can use is skipped; how many scrolls each holds is public
        (DT-AMB-30), so skipping tells nothing."""
        if s["phase"] == "scrolls_own" and not s["heroes"][s["active"]]["scrolls"]:
            s["phase"] = "scrolls_others"
        if s["phase"] == "scrolls_others":
            c = s["combat"]
            if all(
                i in c["passed"] or not s["heroes"][i]["scrolls"]
                for i in self._others(s, s["active"])
            ):
                s["phase"] = "pre_roll"
                self._await_roll(s)

    def _await_roll(self, s: State) -> None:
        c = s["combat"]
        dice = MAX_SIXES - c["sixes"]
        s["pending"] = [p for p in s["pending"] if p.get("why") != "combat"]
        if dice:
            s["pending"].insert(
                0, {"kind": "die", "why": "combat", "player": s["active"], "dice": dice}
            )

    def totals(self, state: State) -> dict[str, Any] | None:
        """The combat's arithmetic (DT-COMBAT-1..5): both totals, the row and the target."""
        s, c = state, state["combat"]
        if c is None:
            return None
        data = self.data(s)
        seat = s["active"]
        fighting = _fighting(c)
        types = {ty for m in fighting for ty in data["tokens"][m]["types"]}
        hero = self._level(s, seat)["strength"]
        items = 0
        for slot, face in self._equipped_slots(s, seat):  # DT-COMBAT-1: slots only
            bonus = face["bonus"]
            cap = slot.get("max")
            if cap is not None and s["options"]["slot_max"] == "cap":
                bonus = min(bonus, cap)
            special = sum(v for ty, v in face.get("vs", {}).items() if ty in types)  # once each
            if cap is not None and s["options"]["slot_max_special"]:
                special = min(special, cap)
            items += bonus + special
        own = sum(p["effect"].get("fighter", 0) for p in c["played"])
        monsters = sum(data["tokens"][m]["strength"] for m in fighting)  # DT-COMBAT-3
        against = sum(p["effect"].get("monsters", 0) for p in c["played"])  # DT-COMBAT-4
        player_total = hero + items + own
        monster_total = monsters + against
        diff = player_total - monster_total
        row = _row(data["combat_rows"], diff)  # DT-COMBAT-5
        return {
            "strength": hero,
            "items": items,
            "scrolls": own,
            "player": player_total,
            "monsters": monster_total,
            "monster_strength": monsters,
            "against": against,
            "difference": diff,
            "row": row,
            "target": row["target"],
        }

    def _play_scroll(self, s: State, a: Action, ev: list[Event]) -> None:
        """DT-COMBAT-2, DT-COMBAT-4, DT-COMBAT-8, DT-DEFEAT-2, DT-WIZ-4, DT-WIZ-5, DT-AMB-27."""
        seat = _seat(s, _player(a))
        card = a.get("scroll")
        data = self.data(s)
        if card not in s["heroes"][seat]["scrolls"]:
            raise _Refuse(
                "DT-CARD-6", t("That scroll is not in {player}'s hand.", player=_name(s, seat))
            )
        scroll = data["scrolls"][card]
        effect, window = scroll["effect"], scroll["window"]
        phase, active = s["phase"], s["active"]
        if s["pending"] and s["pending"][0]["why"] != "combat":
            raise _Refuse(
                "DT-CARD-7",
                t("Scrolls wait until the draw is done; {prompt}", prompt=self._prompt(s)),
            )
        if "cross" in effect:
            raise _Refuse(
                "DT-AMB-27",
                t(
                    "A crossing scroll is played with the step it crosses "
                    "(step with cross: scroll)."
                ),
            )
        pre_roll = any(k in effect for k in ("fighter", "monsters", "remove_monster"))
        if pre_roll:
            if seat == active and phase == "scrolls_own":
                allowed = window in ("own_pre_roll", "any")
            elif seat != active and phase == "scrolls_others":
                allowed = window in ("opponent_pre_roll", "any")
                if seat in s["combat"]["passed"]:
                    raise _Refuse("DT-COMBAT-4", t("{player} has passed.", player=_name(s, seat)))
            else:
                allowed = False
            if not allowed:  # a refusal is public: it never names the scroll or its window
                raise _Refuse(
                    "DT-AMB-27",
                    t("That scroll cannot be played now; {prompt}", prompt=self._prompt(s)),
                )
            c = s["combat"]
            if "remove_monster" in effect:  # DT-COMBAT-9: removed before the fight
                target = a.get("token")
                left = _fighting(c)
                if target not in left:
                    raise _Refuse(
                        "DT-COMBAT-9", t("Name a monster of this fight to remove (token).")
                    )
                if len(left) == 1:
                    raise _Refuse("DT-COMBAT-9", t("The last monster cannot be removed; fight it."))
                c["removed"].append(target)
            c["played"].append(
                {
                    "player": _name(s, seat),
                    "scroll": card,
                    "effect": effect,
                    "token": a.get("token") if "remove_monster" in effect else None,
                }
            )
            if seat != active:  # a scroll against the fighter lets everyone answer again
                c["passed"] = []
            self._use_scroll(s, seat, card, ev, played=True)
            self._skip_empty_windows(s)
            return
        # after the roll: re-roll or change a die (DT-COMBAT-8, DT-DEFEAT-2)
        if phase != "defeat" or seat != active or window not in ("post_roll", "any"):
            raise _Refuse(
                "DT-COMBAT-8",
                t(
                    "That scroll is played by the fighter after a failed roll; {prompt}",
                    prompt=self._prompt(s),
                ),
            )
        c = s["combat"]
        self._use_scroll(s, seat, card, ev, played=True)
        c["played"].append({"player": _name(s, seat), "scroll": card, "effect": effect})
        if "reroll" in effect:
            s["phase"] = "pre_roll"
            c["dice"] = None
            self._await_roll(s)
            return
        die = a.get("die", 0)
        rolled = [i for i, d in enumerate(c["dice"]) if not d["six"]]
        if die not in rolled:
            raise _Refuse("DT-COMBAT-8", t("Name a rolled die (die: 0 or 1) to change."))
        c["dice"][die]["value"] = effect["set_die"]
        self._judge(s, ev)

    def _take_back(self, s: State, a: Action, ev: list[Event]) -> None:
        """DT-CARD-7: a scroll may be taken back until someone else plays another one."""
        seat = _seat(s, _player(a))
        c = s["combat"]
        if (
            c is None
            or s["phase"] not in ("scrolls_own", "scrolls_others", "pre_roll")
            or c["rolls"]
        ):
            raise _Refuse(
                "DT-CARD-7",
                t("Only a scroll played in this fight, before the roll, can be taken back."),
            )
        name = _name(s, seat)
        mine = [i for i, p in enumerate(c["played"]) if p["player"] == name]
        if not mine:
            raise _Refuse(
                "DT-CARD-7", t("{player} has played no scroll in this fight.", player=name)
            )
        last = mine[-1]
        if any(p["player"] != name for p in c["played"][last + 1 :]):
            raise _Refuse(
                "DT-CARD-7", t("Another scroll has been played since; it cannot be taken back.")
            )
        p = c["played"].pop(last)
        if p.get("token") in c["removed"]:
            c["removed"].remove(p["token"])
        s["scrolls"]["discard"].remove(p["scroll"])
        s["heroes"][seat]["scrolls"].append(p["scroll"])
        # the window it was played in opens again, so the scroll may be played anew
        if seat == s["active"]:
            s["phase"] = "scrolls_own"
            c["passed"] = []
        else:
            s["phase"] = "scrolls_others"
            if seat in c["passed"]:
                c["passed"].remove(seat)
        s["pending"] = [q for q in s["pending"] if q.get("why") != "combat"]
        scroll = self.data(s)["scrolls"][p["scroll"]]["name"]  # played: public
        ev.append(
            _event(
                "scroll_taken_back",
                t("{player} takes back {scroll}.", player=name, scroll=scroll),
                player=name,
                scroll=p["scroll"],
            )
        )

    def _done(self, s: State, a: Action, ev: list[Event]) -> None:
        """Close a window the active player controls: own scrolls, a trade window, the city."""
        seat = _seat(s, _player(a))
        phase = s["phase"]
        if phase == "scrolls_own" and seat == s["active"]:
            s["phase"] = "scrolls_others"
            self._skip_empty_windows(s)
            return
        if phase == "trade" and seat == s["active"] and not s["pending"]:
            self._close_trade(s, ev)
            return
        if phase == "city" and seat == s["active"] and not s["pending"]:
            self._leave_city(s, ev)
            return
        raise _Refuse(
            "DT-TURN-2",
            t(
                "Nothing for {player} to finish now; {prompt}",
                player=_name(s, seat),
                prompt=self._prompt(s),
            ),
        )

    def _pass(self, s: State, a: Action, ev: list[Event]) -> None:
        """DT-COMBAT-4: each other player plays scrolls against the fighter or passes."""
        seat = _seat(s, _player(a))
        if s["phase"] != "scrolls_others" or seat == s["active"]:
            raise _Refuse(
                "DT-COMBAT-4",
                t(
                    "Only the other players pass, before the fight's roll; {prompt}",
                    prompt=self._prompt(s),
                ),
            )
        if seat in s["combat"]["passed"]:
            raise _Refuse("DT-COMBAT-4", t("{player} has already passed.", player=_name(s, seat)))
        s["combat"]["passed"].append(seat)
        self._skip_empty_windows(s)

    def _buy_six(self, s: State, a: Action, ev: list[Event]) -> None:
        """DT-COMBAT-6: before rolling, 4 XP turn one die into an automatic 6."""
        seat = _seat(s, _player(a))
        c = s["combat"]
        if c is None or seat != s["active"] or s["phase"] != "pre_roll" or c["rolls"]:
            raise _Refuse("DT-COMBAT-6", t("XP buys a six only before the fight's roll."))
        if c["sixes"] >= MAX_SIXES:
            raise _Refuse("DT-COMBAT-6", t("Both dice are already sixes."))
        if c["sixes"] and not self.data(s)["xp_repeat"].get("die_to_six", True):
            raise _Refuse("DT-AMB-3", t("This data set allows one die bought as a six per fight."))
        cost = self.data(s)["xp"]["die_to_six"]
        h = s["heroes"][seat]
        if h["xp"] < cost:
            raise _Refuse(
                "DT-COMBAT-6",
                t(
                    "A six costs {cost} XP; {player} has {xp}.",
                    cost=cost,
                    player=_name(s, seat),
                    xp=h["xp"],
                ),
            )
        h["xp"] -= cost
        c["sixes"] += 1
        ev.append(
            _event(
                "six_bought",
                t("{player} pays {cost} XP: one die is a 6.", player=_name(s, seat), cost=cost),
                player=_name(s, seat),
                sixes=c["sixes"],
            )
        )
        if c["sixes"] == MAX_SIXES:
            s["pending"] = [p for p in s["pending"] if p.get("why") != "combat"]
            c["dice"] = [{"value": 6, "six": True}, {"value": 6, "six": True}]
            c["rolls"] += 1
            self._judge(s, ev)
            self._flow(s, ev)
        else:
            self._await_roll(s)

    def _rolled_combat(self, s: State, p: dict, values: list[int], ev: list[Event]) -> None:
        """DT-COMBAT-7: two dice (bought sixes included); at least the row's number wins."""
        c = s["combat"]
        c["dice"] = [{"value": 6, "six": True} for _ in range(c["sixes"])] + [
            {"value": v, "six": False} for v in values
        ]
        c["rolls"] += 1
        self._judge(s, ev)

    def _judge(self, s: State, ev: list[Event]) -> None:
        c = s["combat"]
        tot = self.totals(s)
        roll = sum(d["value"] for d in c["dice"])
        name = _name(s, s["active"])
        s["last_combat"] = {
            "player": name,
            "turn": s["turn"],
            "monsters": _fighting(c),
            "totals": tot,
            "dice": [d["value"] for d in c["dice"]],
            "roll": roll,
            "won": roll >= tot["target"],
        }
        if roll >= tot["target"]:
            ev.append(
                _event(
                    "victory",
                    t(
                        "{player} rolls {roll} against {target}: victory!",
                        player=name,
                        roll=roll,
                        target=tot["target"],
                    ),
                    player=name,
                    roll=roll,
                    target=tot["target"],
                )
            )
            self._victory(s, ev)
        else:
            ev.append(
                _event(
                    "defeat",
                    t(
                        "{player} rolls {roll} against {target}: the monsters win.",
                        player=name,
                        roll=roll,
                        target=tot["target"],
                    ),
                    player=name,
                    roll=roll,
                    target=tot["target"],
                )
            )
            s["phase"] = "defeat"  # DT-DEFEAT-1

    def _victory(self, s: State, ev: list[Event]) -> None:
        """DT-REWARD-1..3, DT-COMBAT-9, DT-QUEST-4, DT-SPACE-8, DT-GAME-1."""
        data = self.data(s)
        c, seat = s["combat"], s["active"]
        h = s["heroes"][seat]
        killed = _fighting(c)
        xp = sum(data["tokens"][m]["xp"] for m in killed)
        h["xp"] += xp  # DT-REWARD-1: always the XP of every monster
        name = _name(s, seat)
        ev.append(
            _event(
                "monsters_killed",
                t("{player} kills every monster and takes {xp} XP.", player=name, xp=xp),
                player=name,
                tokens=killed,
                xp=xp,
            )
        )
        space = c["space"]
        if space is not None:
            s["monsters"].pop(space, None)
        self._return_tokens(s, list(c["monsters"]))
        if c["wizard"]:  # DT-GAME-1
            s["phase"] = "over"
            s["winners"] = [name]
            s["pending"] = []
            ev.append(
                _event(
                    "game_over",
                    t("{player} defeats Z'Mindrik and saves Aurora!", player=name),
                    winners=[name],
                )
            )
            return
        for m in killed:  # DT-REWARD-2: one die per token with a treasure table (DT-AMB-29)
            if data["tokens"][m]["treasure"]:
                s["pending"].append(
                    {"kind": "die", "why": "treasure", "player": seat, "dice": 1, "token": m}
                )
        if space is not None and self._type(s, space)["extra_magic_item"]:  # DT-SPACE-8
            s["pending"].append(_draw("item", seat, "dungeon", face="magic"))
        if c["quest"]:
            self._quest_won(s, ev)
        s["combat"] = None
        s["phase"] = "encounter"
        s["encounter"]["done"] = True

    def _quest_won(self, s: State, ev: list[Event]) -> None:
        """DT-QUEST-4, DT-QUEST-6: a scroll and 5 XP, then the quest moves."""
        seat = s["active"]
        s["heroes"][seat]["xp"] += QUEST_XP
        s["pending"].append(_draw("scroll", seat, "quest"))
        name = _name(s, seat)
        ev.append(
            _event(
                "quest_won",
                t("{player} completes the quest: a scroll and {xp} XP.", player=name, xp=QUEST_XP),
                player=name,
            )
        )
        self._relocate(s, s["encounter"]["space"])

    def _relocate(self, s: State, space: str) -> None:
        i = s["quests"].index(space)
        s["pending"].append(
            {
                "kind": "die",
                "why": "quest",
                "player": s["active"],
                "dice": self.data(s)["quest_table"]["dice"],
                "quest": i,
            }
        )

    def _rolled_treasure(self, s: State, p: dict, values: list[int], ev: list[Event]) -> None:
        """DT-REWARD-2: gold, a scroll, equipment or a magic item, from the token's table."""
        data = self.data(s)
        token = data["tokens"][p["token"]]
        result = token["treasure"][str(values[0])]
        seat = p["player"]
        name = _name(s, seat)
        shown = {"token": token["name"], "value": values[0]}
        if "gold" in result:
            s["heroes"][seat]["gold"] += result["gold"]
            text = t("{token}'s treasure ({value}): {gold} gold.", gold=result["gold"], **shown)
        elif "scroll" in result:
            s["pending"].insert(0, _draw("scroll", seat, "treasure"))
            text = t("{token}'s treasure ({value}): a scroll.", **shown)
        elif "equipment" in result or "magic" in result:
            face = "equipment" if "equipment" in result else "magic"
            s["pending"].insert(0, _draw("item", seat, "treasure", face=face))
            if face == "equipment":
                text = t("{token}'s treasure ({value}): an equipment item.", **shown)
            else:
                text = t("{token}'s treasure ({value}): a magic item.", **shown)
        else:
            text = t("{token}'s treasure ({value}): nothing.", **shown)
        ev.append(
            _event("treasure", text, player=name, token=p["token"], value=values[0], result=result)
        )

    def _rolled_quest(self, s: State, p: dict, values: list[int], ev: list[Event]) -> None:
        """DT-QUEST-6, DT-AMB-6: the Quest Location table; a taken space is rolled again."""
        total = sum(values)
        space = self.data(s)["quest_table"]["results"][str(total)]
        other = s["quests"][1 - p["quest"]]
        busy = (
            space == other
            or space in s["monsters"]
            or any(h["space"] == space for h in s["heroes"])
        )
        if busy:
            s["pending"].insert(0, dict(p))
            ev.append(
                _event(
                    "quest_reroll",
                    t(
                        "The Quest Location table gives {space} ({total}), "
                        "which is taken: roll again.",
                        space=self._space(s, space)["name"],
                        total=total,
                    ),
                    value=total,
                    space=space,
                )
            )
            return
        s["quests"][p["quest"]] = space
        ev.append(
            _event(
                "quest_moved",
                t(
                    "A quest moves to {space} ({total}).",
                    space=self._space(s, space)["name"],
                    total=total,
                ),
                value=total,
                space=space,
                quests=list(s["quests"]),
            )
        )

    # -- defeat ----------------------------------------------------------------------------

    def _flee(self, s: State, a: Action, ev: list[Event]) -> None:
        """DT-DEFEAT-3, DT-DEFEAT-4, DT-SPACE-8, DT-WIZ-5, DT-AMB-11."""
        seat = self._expect_turn(s, a, "defeat", "flee")
        to = a.get("to")
        allowed = self.flee_spaces(s)
        if to not in allowed:
            c = s["combat"]
            if c["wizard"]:
                raise _Refuse("DT-WIZ-5", t("Nobody flees from Z'Mindrik."))
            if self._type(s, c["space"])["no_flee"]:
                raise _Refuse("DT-SPACE-8", t("Nobody flees from a dungeon: win or die."))
            raise _Refuse(
                "DT-DEFEAT-3",
                t(
                    "A hero flees only to a next space without monsters, "
                    "not across a lake (or a mountain) he cannot "
                    "habitually cross."
                ),
            )
        name = _name(s, seat)
        s["heroes"][seat]["space"] = to
        s["t"]["fled"] = True
        ev.append(
            _event(
                "fled",
                t(
                    "{player} flees to {space}; the monsters stay.",
                    player=name,
                    space=self._space(s, to)["name"],
                ),
                player=name,
                to=to,
            )
        )
        self._lost(s, ev)

    def flee_spaces(self, state: State) -> list[str]:
        """The spaces a defeated hero may flee to (empty: he cannot flee)."""
        s, c = state, state["combat"]
        if c is None or c["wizard"] or c["space"] is None:
            return []
        if self._type(s, c["space"])["no_flee"]:
            return []
        seat = s["active"]
        out = []
        for to, border in sorted(self.data(s)["adjacent"].get(c["space"], {}).items()):
            if to in s["monsters"]:
                continue
            if border == "lake" and self._habitual(s, seat, "lake") is None:
                continue
            if (
                border == "mountain"
                and not s["options"]["flee_across_mountains"]
                and self._habitual(s, seat, "mountain") is None
            ):
                continue
            out.append(to)
        return out

    def _die(self, s: State, a: Action, ev: list[Event]) -> None:
        """DT-DEFEAT-5, DT-DEATH-1..3, DT-TOWER-5, DT-WIZ-6, DT-AMB-10, DT-AMB-12."""
        seat = self._expect_turn(s, a, "defeat", "die")
        if s["options"]["death_only_without_escape"] and self.flee_spaces(s):
            raise _Refuse("DT-DEFEAT-5", t("A hero dies only with nowhere to flee; flee instead."))
        h = s["heroes"][seat]
        for slot in h["slots"]:
            if slot:
                s["items"]["discard"].append(slot["card"])
        s["items"]["discard"].extend(b["card"] for b in h["backpack"])
        s["scrolls"]["discard"].extend(h["scrolls"])
        lost_gold = h["gold"]
        h.update(slots=[None] * SLOTS, backpack=[], scrolls=[], gold=0, dead=True, space=h["home"])
        s["t"]["died"] = True
        name = _name(s, seat)
        ev.append(
            _event(
                "died",
                t(
                    "{player} dies and is carried home to {city}, losing every "
                    "card and {gold} gold; the XP stay.",
                    player=name,
                    city=self._space(s, h["home"])["name"],
                    gold=lost_gold,
                ),
                player=name,
            )
        )
        self._lost(s, ev)

    def _lost(self, s: State, ev: list[Event]) -> None:
        """The fight is lost for good: the monsters stay as a group (DT-GROUP-1), except
        Z'Mindrik's (DT-WIZ-7); a quest moves anyway (DT-QUEST-5, DT-QUEST-6)."""
        c = s["combat"]
        if c["wizard"]:
            self._return_tokens(s, list(c["monsters"]))
        else:
            group = _fighting(c)
            s["monsters"][c["space"]] = group
            self._return_tokens(s, list(c["removed"]))
            if c["quest"]:
                ev.append(_event("quest_lost", t("The quest is lost; it moves elsewhere.")))
                self._relocate(s, c["space"])
        s["combat"] = None
        s["encounter"] = None
        s["phase"] = "cleanup"  # DT-DEFEAT-4, DT-AMB-13
        self._flow(s, ev)

    # -- after the encounter ---------------------------------------------------------------

    def _flow(self, s: State, ev: list[Event]) -> None:
        """Move on when no chance step waits: the automatic transitions of section 4.2."""
        self._drop_impossible(s, ev)
        if s["pending"] or s["phase"] in ("over", "start_roll"):
            return
        phase = s["phase"]
        if phase == "setup":  # the starting scrolls are drawn: the first turn
            s["active"] = s["first"]
            self._start_turn(s, ev)
            return
        if phase == "encounter":
            enc = s["encounter"]
            if enc.get("done"):
                self._after_encounter(s, ev)
                return
            if enc["unresolved"]:
                s["phase"] = "resolve"
                return
            monsters = [m for m in enc["drawn"] if self.data(s)["tokens"][m]["monster"]]
            if enc["aside"]:  # DT-WIZ-2: the friendly tokens set aside go back into the bowl
                for tok in enc["aside"]:
                    s["bowl"][tok] = s["bowl"].get(tok, 0) + 1
                enc["aside"] = []
            if monsters:  # DT-ENC-5
                self._start_combat(s, monsters, ev)
                return
            if enc["quest"]:  # DT-AMB-8: no monster, the quest is won at once
                self._quest_won(s, ev)
                enc["done"] = True
                self._flow(s, ev)
                return
            self._after_encounter(s, ev)

    def _drop_impossible(self, s: State, ev: list[Event]) -> None:
        """DT-AMB-14: with the bowl empty, draw as many tokens as remain; with a deck and its
        discard pile both empty (every card is held), there is nothing to draw."""
        while s["pending"]:
            p = s["pending"][0]
            if p["kind"] == "token" and not any(s["bowl"].values()):
                what = t("The bowl is empty: no more encounter tokens to draw.")
            elif p["kind"] in ("item", "scroll"):
                deck = s["items" if p["kind"] == "item" else "scrolls"]
                if deck["deck"] or deck["discard"]:
                    return
                what = (
                    t("Every item card is in someone's hands: none to draw.")
                    if p["kind"] == "item"
                    else t("Every scroll card is in someone's hands: none to draw.")
                )
                if p.get("why") == "shop":
                    s["shop"]["drawn"] -= 1
            else:
                return
            s["pending"].pop(0)
            ev.append(_event("nothing_to_draw", what, what=p["kind"]))

    def _after_encounter(self, s: State, ev: list[Event]) -> None:
        """POST_ENCOUNTER: city business in a city, else the trade window, then cleanup."""
        s["encounter"] = None
        here = s["heroes"][s["active"]]["space"]
        if self._type(s, here)["city"]:
            self._to_city(s, ev)
            return
        if self._trade_window(s, "after"):
            return
        s["phase"] = "cleanup"

    def _to_city(self, s: State, ev: list[Event]) -> None:
        s["phase"] = "city"
        s["shop"] = {"cards": [], "drawn": 0}

    def _leave_city(self, s: State, ev: list[Event]) -> None:
        shop = s["shop"]
        if shop:
            for c in shop["cards"]:
                if c["bought"] is None:  # DT-CITY-4: a card nothing was bought from
                    s["items"]["discard"].append(c["card"])
        s["shop"] = None
        if self._trade_window(s, "after"):
            return
        s["phase"] = "cleanup"

    # -- city business ---------------------------------------------------------------------

    def _city_seat(self, s: State, a: Action, what: str) -> int:
        seat = self._expect_turn(s, a, "city", what)
        if s["pending"]:
            raise _Refuse("DT-CITY-2", t("Finish drawing first; {prompt}", prompt=self._prompt(s)))
        return seat

    def _shop(self, s: State, a: Action, ev: list[Event]) -> None:
        """DT-CITY-1, DT-CITY-2: draw the top two item cards and show both faces."""
        seat = self._city_seat(s, a, "shop")
        turn = s["t"]
        if turn["business"] == "work":
            raise _Refuse("DT-CITY-1", t("A hero who works cannot also shop."))
        if s["shop"]["drawn"]:
            raise _Refuse(
                "DT-CITY-2",
                t("The shop's cards are already drawn; buy, draw another for XP, or finish."),
            )
        turn["business"] = "shop"
        s["shop"]["drawn"] = SHOP_CARDS
        s["pending"].extend(_draw("item", seat, "shop", face="shop") for _ in range(SHOP_CARDS))
        ev.append(
            _event(
                "shopping",
                t("{player} goes shopping.", player=_name(s, seat)),
                player=_name(s, seat),
            )
        )

    def _shop_more(self, s: State, a: Action, ev: list[Event]) -> None:
        """DT-CITY-3: one more card for 1 XP."""
        seat = self._city_seat(s, a, "shop_more")
        if s["t"]["business"] != "shop" or not s["shop"]["drawn"]:
            raise _Refuse("DT-CITY-3", t("Shop first; then each extra card costs XP."))
        self._repeatable(s, "extra_shop_card")
        cost = self.data(s)["xp"]["extra_shop_card"]
        h = s["heroes"][seat]
        if h["xp"] < cost:
            raise _Refuse(
                "DT-CITY-3",
                t(
                    "Another card costs {cost} XP; {player} has {xp}.",
                    cost=cost,
                    player=_name(s, seat),
                    xp=h["xp"],
                ),
            )
        h["xp"] -= cost
        s["t"]["paid"]["extra_shop_card"] = s["t"]["paid"].get("extra_shop_card", 0) + 1
        s["shop"]["drawn"] += 1
        s["pending"].append(_draw("item", seat, "shop", face="shop"))

    def _buy(self, s: State, a: Action, ev: list[Event]) -> None:
        """DT-CITY-4, DT-CARD-4: one face per card, at its price."""
        seat = self._city_seat(s, a, "buy")
        card, face = a.get("card"), a.get("face")
        entry = next((c for c in s["shop"]["cards"] if c["card"] == card), None)
        if entry is None:
            raise _Refuse("DT-CITY-4", t("Only a card drawn in this shop can be bought."))
        if entry["bought"] is not None:
            raise _Refuse("DT-CITY-4", t("Only one item per card: this card is sold."))
        if face not in ("equipment", "magic"):
            raise _Refuse(MALFORMED, t("face is equipment (white) or magic (purple)."))
        item = self.data(s)["items"][card][face]
        h = s["heroes"][seat]
        if h["gold"] < item["price"]:
            raise _Refuse(
                "DT-CITY-4",
                t(
                    "{item} costs {price} gold; {player} has {gold}.",
                    item=item["name"],
                    price=item["price"],
                    player=_name(s, seat),
                    gold=h["gold"],
                ),
            )
        h["gold"] -= item["price"]
        entry["bought"] = face
        where = self._gain_item(s, seat, card, face)
        if where == "backpack":
            text = t(
                "{player} buys {item} for {price} gold (backpack).",
                player=_name(s, seat),
                item=item["name"],
                price=item["price"],
            )
        else:
            text = t(
                "{player} buys {item} for {price} gold (slot {slot}).",
                player=_name(s, seat),
                item=item["name"],
                price=item["price"],
                slot=_slot_number(where),
            )
        ev.append(_event("bought", text, player=_name(s, seat), card=card, face=face, where=where))

    def _buy_scroll(self, s: State, a: Action, ev: list[Event]) -> None:
        """DT-CITY-5: one scroll, 50 gold, paid before it is drawn."""
        seat = self._city_seat(s, a, "buy_scroll")
        turn, h = s["t"], s["heroes"][seat]
        if turn["business"] == "work":
            raise _Refuse("DT-CITY-1", t("A hero who works cannot also shop."))
        if turn["scroll_bought"]:
            raise _Refuse("DT-CITY-5", t("One scroll per visit to the city."))
        if h["gold"] < SCROLL_PRICE:
            raise _Refuse(
                "DT-CITY-5",
                t(
                    "A scroll costs {price} gold; {player} has {gold}.",
                    price=SCROLL_PRICE,
                    player=_name(s, seat),
                    gold=h["gold"],
                ),
            )
        h["gold"] -= SCROLL_PRICE
        turn["scroll_bought"] = True
        turn["business"] = "shop"
        s["pending"].append(_draw("scroll", seat, "bought"))
        ev.append(
            _event(
                "scroll_bought",
                t(
                    "{player} pays {price} gold for a scroll.",
                    player=_name(s, seat),
                    price=SCROLL_PRICE,
                ),
                player=_name(s, seat),
            )
        )

    def _sell(self, s: State, a: Action, ev: list[Event]) -> None:
        """DT-CITY-6: items at their price, scrolls at 50 gold."""
        seat = self._city_seat(s, a, "sell")
        turn, h = s["t"], s["heroes"][seat]
        if turn["business"] == "work" and not s["options"]["work_allows_selling"]:
            raise _Refuse("DT-AMB-17", t("A hero who works does not also sell at the market."))
        name = _name(s, seat)
        if a.get("scroll") is not None:
            card = a["scroll"]
            if card not in h["scrolls"]:
                raise _Refuse("DT-CARD-6", t("That scroll is not in {player}'s hand.", player=name))
            h["scrolls"].remove(card)
            s["scrolls"]["discard"].append(card)
            h["gold"] += SCROLL_PRICE
            turn["sold"] = True
            ev.append(
                _event(
                    "sold",
                    t("{player} sells a scroll for {gold} gold.", player=name, gold=SCROLL_PRICE),
                    player=name,
                    gold=SCROLL_PRICE,
                )
            )
            return
        card = a.get("card")
        held = self._take_item(s, seat, card)
        price = self.data(s)["items"][card][held["face"]]["price"]
        h["gold"] += price
        s["items"]["discard"].append(card)
        turn["sold"] = True
        ev.append(
            _event(
                "sold",
                t(
                    "{player} sells {item} for {gold} gold.",
                    player=name,
                    item=self.data(s)["items"][card][held["face"]]["name"],
                    gold=price,
                ),
                player=name,
                card=card,
                gold=price,
            )
        )

    def _work(self, s: State, a: Action, ev: list[Event]) -> None:
        """DT-CITY-1, DT-CITY-7, DT-LVL-3: 60 gold (120 at high level) instead of shopping."""
        seat = self._city_seat(s, a, "work")
        turn = s["t"]
        if turn["business"] is not None or (
            turn["sold"] and not s["options"]["work_allows_selling"]
        ):
            raise _Refuse("DT-CITY-1", t("Shop or work, not both."))
        h = s["heroes"][seat]
        pay = WORK_PAY[h["level"]]
        h["gold"] += pay
        turn["business"] = "work"
        ev.append(
            _event(
                "worked",
                t("{player} works and earns {gold} gold.", player=_name(s, seat), gold=pay),
                player=_name(s, seat),
                gold=pay,
            )
        )

    # -- trading ---------------------------------------------------------------------------

    def _offer(self, s: State, a: Action, ev: list[Event]) -> None:
        """DT-TRADE-1..3, DT-AMB-24: the active player proposes; the other accepts or not."""
        seat = self._expect_turn(s, a, "trade", "offer")
        if s["offer"] is not None:
            raise _Refuse("DT-TRADE-1", t("An offer is already waiting for an answer."))
        partner = _seat(s, a.get("with"))
        if partner not in self._others_here(s, seat):
            raise _Refuse(
                "DT-TRADE-1",
                t(
                    "{partner} is not on {player}'s space.",
                    partner=_name(s, partner),
                    player=_name(s, seat),
                ),
            )
        give, take = a.get("give") or {}, a.get("take") or {}
        if not isinstance(give, dict) or not isinstance(take, dict):
            raise _Refuse(MALFORMED, t("give and take are objects with gold, items and scrolls."))
        if "xp" in give or "xp" in take:
            raise _Refuse("DT-TRADE-3", t("XP can never be bought or sold."))
        self._check_side(s, seat, give, by_id=True)
        self._check_side(s, partner, take, by_id=False)
        s["offer"] = {
            "from": seat,
            "to": partner,
            "give": _side(give, by_id=True),
            "take": _side(take, by_id=False),
        }
        ev.append(
            _event(
                "offer",
                t(
                    "{player} makes {partner} an offer.",
                    player=_name(s, seat),
                    partner=_name(s, partner),
                ),
                player=_name(s, seat),
                to=_name(s, partner),
            )
        )

    def _check_side(self, s: State, seat: int, side: dict, by_id: bool) -> None:
        h = s["heroes"][seat]
        unknown = set(side) - {"gold", "items", "scrolls"}
        if unknown:
            raise _Refuse(
                MALFORMED,
                t(
                    "A side of a trade has gold, items and scrolls, not {keys}.",
                    keys=", ".join(sorted(unknown)),
                ),
            )
        gold = side.get("gold", 0)
        if not isinstance(gold, int) or isinstance(gold, bool) or gold < 0:
            raise _Refuse(MALFORMED, t("gold is a whole number."))
        if gold > h["gold"]:
            raise _Refuse(
                "DT-TRADE-1",
                t(
                    "{player} has {gold} gold, not {wanted}.",
                    player=_name(s, seat),
                    gold=h["gold"],
                    wanted=gold,
                ),
            )
        owned = {x["card"] for x in _held(h)}
        items = side.get("items", [])
        if not isinstance(items, list) or any(c not in owned for c in items):
            raise _Refuse(
                "DT-TRADE-1", t("{player} does not have those items.", player=_name(s, seat))
            )
        scrolls = side.get("scrolls", [] if by_id else 0)
        if by_id:
            if (
                not isinstance(scrolls, list)
                or any(c not in h["scrolls"] for c in scrolls)
                or len(set(scrolls)) != len(scrolls)
            ):
                raise _Refuse(
                    "DT-CARD-6",
                    t("Those scrolls are not in {player}'s hand.", player=_name(s, seat)),
                )
        elif (
            not isinstance(scrolls, int)
            or isinstance(scrolls, bool)
            or not 0 <= scrolls <= len(h["scrolls"])
        ):
            raise _Refuse(
                "DT-TRADE-1",
                t(
                    "Ask {player} for a number of scrolls, at most as many as he holds.",
                    player=_name(s, seat),
                ),
            )

    def _accept(self, s: State, a: Action, ev: list[Event]) -> None:
        seat = _seat(s, _player(a))
        o = s["offer"]
        if o is None or seat != o["to"]:
            raise _Refuse("DT-TRADE-1", t("There is no offer for you to accept."))
        chosen = a.get("scrolls", [])
        want = o["take"]["scrolls"]
        h = s["heroes"][seat]
        if (
            not isinstance(chosen, list)
            or len(chosen) != want
            or len(set(chosen)) != want
            or any(c not in h["scrolls"] for c in chosen)
        ):
            raise _Refuse(
                "DT-TRADE-1",
                t("Choose {n} scroll of your hand to hand over (scrolls).", n=want)
                if want == 1
                else t("Choose {n} scrolls of your hand to hand over (scrolls).", n=want),
            )
        giver, taker = o["from"], o["to"]
        for c in [] if o["give"]["items"] is None else o["give"]["items"]:
            self._check_still(s, giver, c)
        for c in o["take"]["items"]:
            self._check_still(s, taker, c)
        self._transfer(s, giver, taker, o["give"]["gold"], o["give"]["items"], o["give"]["scrolls"])
        self._transfer(s, taker, giver, o["take"]["gold"], o["take"]["items"], chosen)
        s["offer"] = None
        a_name, b_name = _name(s, giver), _name(s, taker)
        ev.append(
            _event(
                "traded",
                t("{player} and {partner} trade.", player=a_name, partner=b_name),
                players=[a_name, b_name],
                private={"gave": o["give"], "took": o["take"] | {"scrolls": chosen}},
                audience=[a_name, b_name],
            )
        )

    def _check_still(self, s: State, seat: int, card: str) -> None:
        if card not in {x["card"] for x in _held(s["heroes"][seat])}:
            raise _Refuse("DT-TRADE-1", t("An item of the offer is no longer there."))

    def _transfer(
        self, s: State, src: int, dst: int, gold: int, items: list[str], scrolls: list[str]
    ) -> None:
        a, b = s["heroes"][src], s["heroes"][dst]
        if gold > a["gold"]:
            raise _Refuse(
                "DT-TRADE-1",
                t("{player} no longer has {gold} gold.", player=_name(s, src), gold=gold),
            )
        a["gold"] -= gold
        b["gold"] += gold
        for card in items:
            held = self._take_item(s, src, card)
            self._gain_item(s, dst, card, held["face"])
        for card in scrolls:
            a["scrolls"].remove(card)
            b["scrolls"].append(card)

    def _decline(self, s: State, a: Action, ev: list[Event]) -> None:
        seat = _seat(s, _player(a))
        o = s["offer"]
        if o is None or seat not in (o["to"], o["from"]):
            raise _Refuse("DT-TRADE-1", t("There is no offer for you to decline."))
        s["offer"] = None
        if seat == o["to"]:
            text = t("The offer to {player} is declined.", player=_name(s, o["to"]))
        else:
            text = t("The offer to {player} is withdrawn.", player=_name(s, o["to"]))
        ev.append(_event("offer_declined", text, player=_name(s, seat)))

    def _close_trade(self, s: State, ev: list[Event]) -> None:
        s["offer"] = None
        window = s["t"]["trade_window"]
        s["t"]["trade_window"] = None
        if window == "before":
            self._classify(s, ev)
        else:
            s["phase"] = "cleanup"

    # -- items, scrolls, levels ------------------------------------------------------------

    def _gain_item(self, s: State, seat: int, card: str, face: str) -> str:
        """DT-CARD-4, DT-CHAR-2..4: into the first free slot that takes it, else the
        backpack (the limit is checked at the end of the turn, DT-LIMIT-2)."""
        h = s["heroes"][seat]
        item = self.data(s)["items"][card][face]
        for i, slot in enumerate(self._level(s, seat)["slots"]):
            if h["slots"][i] is None and self._fits(s, slot, item):
                h["slots"][i] = {"card": card, "face": face}
                return f"slot {i + 1}"
        h["backpack"].append({"card": card, "face": face})
        return "backpack"

    def _fits(self, s: State, slot: dict, item: dict) -> bool:
        """DT-CHAR-2, DT-CHAR-3, DT-AMB-16."""
        if item["type"] not in slot["types"]:
            return False
        cap = slot.get("max")
        return cap is None or s["options"]["slot_max"] == "cap" or item["bonus"] <= cap

    def _take_item(self, s: State, seat: int, card: Any) -> dict:
        h = s["heroes"][seat]
        for i, slot in enumerate(h["slots"]):
            if slot and slot["card"] == card:
                h["slots"][i] = None
                return slot
        for b in h["backpack"]:
            if b["card"] == card:
                h["backpack"].remove(b)
                return b
        raise _Refuse("DT-CARD-5", t("{player} does not have that item.", player=_name(s, seat)))

    def _equip(self, s: State, a: Action, ev: list[Event]) -> None:
        """DT-CHAR-2, DT-CHAR-3, DT-CHAR-5: a card into a slot it fits; whatever was there goes
        to the backpack."""
        seat = self._own_turn(s, a, "equip")
        h = s["heroes"][seat]
        card, i = a.get("card"), a.get("slot")
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < SLOTS:
            raise _Refuse("DT-CHAR-2", t("A character sheet has four slots, 0 to 3."))
        if card in h["scrolls"]:
            raise _Refuse(
                "DT-CHAR-6", t("A scroll is held in hand, never in a slot or the backpack.")
            )
        held = next((x for x in _held(h) if x["card"] == card), None)
        if held is None:
            raise _Refuse(
                "DT-CARD-5", t("{player} does not have that item.", player=_name(s, seat))
            )
        item = self.data(s)["items"][card][held["face"]]
        slot = self._level(s, seat)["slots"][i]
        if not self._fits(s, slot, item):
            if item["type"] in slot["types"]:
                raise _Refuse(
                    "DT-CHAR-3",
                    t(
                        "{item} (+{bonus}) is above this slot's Max +{max}.",
                        item=item["name"],
                        bonus=item["bonus"],
                        max=slot["max"],
                    ),
                )
            raise _Refuse(
                "DT-CHAR-2",
                t(
                    "Slot {slot} takes {types}, not {type}.",
                    slot=i + 1,
                    types=_either(slot["types"]),
                    type=item["type"],
                ),
            )
        self._take_item(s, seat, card)
        if h["slots"][i] is not None:
            h["backpack"].append(h["slots"][i])
        h["slots"][i] = held
        ev.append(
            _event(
                "equipped",
                t(
                    "{player} puts {item} in slot {slot}.",
                    player=_name(s, seat),
                    item=item["name"],
                    slot=i + 1,
                ),
                player=_name(s, seat),
                card=card,
                slot=i,
            )
        )

    def _unequip(self, s: State, a: Action, ev: list[Event]) -> None:
        """DT-CHAR-4: an item that cannot be used goes into the backpack."""
        seat = self._own_turn(s, a, "unequip")
        h = s["heroes"][seat]
        i = next((k for k, x in enumerate(h["slots"]) if x and x["card"] == a.get("card")), None)
        if i is None:
            raise _Refuse("DT-CARD-5", t("That item is not in a slot."))
        h["backpack"].append(h["slots"][i])
        h["slots"][i] = None
        ev.append(
            _event(
                "unequipped",
                t("{player} puts an item in the backpack.", player=_name(s, seat)),
                player=_name(s, seat),
                card=a["card"],
            )
        )

    def _discard(self, s: State, a: Action, ev: list[Event]) -> None:
        """DT-LIMIT-1, DT-LIMIT-2, DT-AMB-25: anyone may discard during a turn's cleanup; the
        active player any time in his turn."""
        seat = _seat(s, _player(a))
        if s["phase"] in ("start_roll", "choose") or (
            seat != s["active"] and s["phase"] != "cleanup"
        ):
            raise _Refuse(
                "DT-TURN-1",
                t(
                    "{player} may discard only in his own turn or at the end of a turn.",
                    player=_name(s, seat),
                ),
            )
        h = s["heroes"][seat]
        name = _name(s, seat)
        if a.get("scroll") is not None:
            if a["scroll"] not in h["scrolls"]:
                raise _Refuse("DT-CARD-6", t("That scroll is not in {player}'s hand.", player=name))
            h["scrolls"].remove(a["scroll"])
            s["scrolls"]["discard"].append(a["scroll"])
            ev.append(
                _event("discarded", t("{player} discards a scroll.", player=name), player=name)
            )
            return
        self._take_item(s, seat, a.get("card"))
        s["items"]["discard"].append(a["card"])
        ev.append(
            _event(
                "discarded",
                t("{player} discards an item.", player=name),
                player=name,
                card=a["card"],
            )
        )

    def _level_up(self, s: State, a: Action, ev: list[Event]) -> None:
        """DT-LVL-1, DT-LVL-3, DT-AMB-15: 10 XP, once, in one's own turn outside a roll."""
        seat = self._own_turn(s, a, "level_up")
        h = s["heroes"][seat]
        cost = self.data(s)["xp"]["level_up"]
        if h["level"] == "high":
            raise _Refuse("DT-LVL-1", t("{player} is already high level.", player=_name(s, seat)))
        if h["xp"] < cost:
            raise _Refuse(
                "DT-LVL-1",
                t(
                    "Levelling up takes {cost} XP; {player} has {xp}.",
                    cost=cost,
                    player=_name(s, seat),
                    xp=h["xp"],
                ),
            )
        h["xp"] -= cost
        h["level"] = "high"
        name = _name(s, seat)
        char = self.data(s)["characters"][h["character"]]
        ev.append(
            _event(
                "levelled_up",
                t(
                    "{player} discards {cost} XP: {character} is high level.",
                    player=name,
                    cost=cost,
                    character=char["name"],
                ),
                player=name,
            )
        )

    def _use_scroll(
        self, s: State, seat: int, card: str, ev: list[Event], played: bool = True
    ) -> None:
        """DT-CARD-6: a scroll is used once and discarded; once played it is public."""
        s["heroes"][seat]["scrolls"].remove(card)
        s["scrolls"]["discard"].append(card)
        name = _name(s, seat)
        sc = self.data(s)["scrolls"][card]
        ev.append(
            _event(
                "scroll_played",
                t(
                    "{player} plays {scroll}: {text}",
                    player=name,
                    scroll=sc["name"],
                    text=sc["text"],
                ),
                player=name,
                scroll=card,
            )
        )

    def _check_scroll(self, s: State, seat: int, card: Any, use: str) -> None:
        if card not in s["heroes"][seat]["scrolls"]:
            raise _Refuse(
                "DT-CARD-6", t("That scroll is not in {player}'s hand.", player=_name(s, seat))
            )
        window = self.data(s)["scrolls"][card]["window"]
        if window not in (use, "any"):
            raise _Refuse("DT-AMB-27", t("That scroll cannot be played while moving."))

    # -- the tower -------------------------------------------------------------------------

    def _enter_tower(self, s: State, a: Action, ev: list[Event]) -> None:
        """DT-TOWER-2..4, DT-AMB-18: declared on the door's shadowland; not a move."""
        seat = _seat(s, _player(a))
        if seat != s["active"] or s["pending"]:
            raise _Refuse(
                "DT-TURN-1", t("Only {player} may enter now.", player=_name(s, s["active"]))
            )
        before = s["options"]["encounter_before_entry"]
        if before:
            ok = (
                s["phase"] in ("trade", "cleanup")
                and s["t"]["encountered"]
                and not s["t"]["fled"]
                and not s["t"]["died"]
                and s["offer"] is None
            )
        else:
            ok = s["phase"] == "move"
        if not ok:
            raise _Refuse(
                "DT-AMB-18",
                t("The tower is entered after the encounter on the door's space.")
                if before
                else t("The tower is entered instead of the encounter, while moving."),
            )
        if s["heroes"][seat]["space"] != self.door_space(s):
            raise _Refuse(
                "DT-TOWER-2",
                t(
                    "The only way in is the shadowland by the door ({space}).",
                    space=self._space(s, self.door_space(s))["name"],
                ),
            )
        name = _name(s, seat)
        s["t"]["ended"] = "other"
        s["encounter"] = _encounter(None, wizard=True)
        s["phase"] = "encounter"
        n = self.data(s)["tower_draw"]
        s["pending"] = [_draw("token", seat, "wizard") for _ in range(n)]  # DT-WIZ-1
        ev.append(
            _event(
                "tower_entered",
                t(
                    "{player} enters the tower and climbs to Z'Mindrik, who summons {n} monsters.",
                    player=name,
                    n=n,
                ),
                player=name,
            )
        )

    def _end_turn(self, s: State, a: Action, ev: list[Event]) -> None:
        """DT-TURN-2 step 6, DT-LIMIT-1..4, DT-TIME-2, DT-AMB-13, DT-AMB-25: the tower turns one
        step clockwise and the next player's turn begins."""
        seat = self._expect_turn(s, a, None, "end_turn")
        steps = a.get("steps", 1)
        if steps != 1:
            raise _Refuse("DT-TIME-2", t("The tower turns exactly one step clockwise."))
        if s["pending"] or s["offer"] is not None:
            raise _Refuse("DT-TURN-2", t("Not yet: {prompt}", prompt=self._prompt(s)))
        phase = s["phase"]
        if phase == "move":
            self._move_ended(s, ev)
            phase = s["phase"]
            if s["pending"]:
                raise _Refuse(
                    "DT-MOVE-6",
                    t(
                        "{player} must have the encounter here first, moved or not.",
                        player=_name(s, seat),
                    ),
                )
        if phase == "trade":
            self._close_trade(s, ev)
            phase = s["phase"]
        if phase == "city":
            self._leave_city(s, ev)
            if s["phase"] == "trade":
                self._close_trade(s, ev)
            phase = s["phase"]
        if phase != "cleanup":
            raise _Refuse(
                "DT-MOVE-6" if phase in ("encounter", "resolve") else "DT-TURN-2",
                t("Not yet: {prompt}", prompt=self._prompt(s)),
            )
        over = self._over_limits(s)
        if over:
            raise _Refuse(over[0], over[1])
        data = self.data(s)
        s["tower_step"] += 1
        n = len(s["players"])
        s["active"] = (seat + 1) % n  # DT-TURN-1: clockwise
        s["t"] = None
        door = self.door_wedge(s)
        nxt = _name(s, s["active"])
        ev.append(
            _event(
                "tower_turned",
                t(
                    "The tower turns: the door faces {wedge}. {player}'s turn.",
                    wedge=data["wedges"][door]["name"],
                    player=nxt,
                ),
                step=s["tower_step"],
                next=nxt,
                door_wedge=door,
                days=[w["id"] for w, d in zip(data["wedges"], self.wedge_days(s)) if d],
            )
        )
        self._start_turn(s, ev)

    def _over_limits(self, s: State) -> tuple[str, Text, int] | None:
        """DT-LIMIT-1..3, DT-AMB-25: who holds too much to end a turn: (rule, reason, seat)."""
        for i, h in enumerate(s["heroes"]):
            level = self._level(s, i) if h["character"] else None
            if level is None:
                continue
            cap = level.get("scroll_limit")
            cap = SCROLL_LIMIT if cap is None else cap
            if len(h["scrolls"]) > cap:
                return (
                    "DT-LIMIT-3" if level.get("scroll_limit") is not None else "DT-LIMIT-1",
                    t(
                        "{player} holds {n} scrolls: play or discard down to {cap} before the "
                        "tower turns.",
                        player=_name(s, i),
                        n=len(h["scrolls"]),
                        cap=cap,
                    ),
                    i,
                )
            cap = level.get("backpack_limit")
            cap = BACKPACK_LIMIT if cap is None else cap
            if len(h["backpack"]) > cap:
                return (
                    "DT-LIMIT-3" if level.get("backpack_limit") is not None else "DT-LIMIT-2",
                    t(
                        "{player} has {n} items in the backpack: discard down to {cap} before "
                        "the tower turns.",
                        player=_name(s, i),
                        n=len(h["backpack"]),
                        cap=cap,
                    ),
                    i,
                )
        return None

    # -- who may act -----------------------------------------------------------------------

    def _expect_turn(self, s: State, a: Action, phase: str | None, what: str) -> int:
        seat = _seat(s, _player(a))
        turn = s["t"]
        if phase == "move" and seat == s["active"] and turn and s["phase"] != "move":
            stopped = {"monsters": "DT-MOVE-4", "quest": "DT-MOVE-5"}.get(turn["ended"])
            if turn["fled"]:
                stopped = "DT-DEFEAT-4"
            if stopped:
                raise _Refuse(
                    stopped,
                    t(
                        "{player}'s movement has ended; {prompt}",
                        player=_name(s, seat),
                        prompt=self._prompt(s),
                    ),
                )
        if s["phase"] in ("start_roll", "choose") or (s["pending"] and phase is not None):
            raise _Refuse("DT-TURN-2", t("Not now: {prompt}", prompt=self._prompt(s)))
        if seat != s["active"]:  # DT-TURN-1
            raise _Refuse(
                "DT-TURN-1",
                t(
                    "It is {player}'s turn, not {other}'s.",
                    player=_name(s, s["active"]),
                    other=_name(s, seat),
                ),
            )
        if phase is not None and s["phase"] != phase:
            rule = {"defeat": "DT-DEFEAT-1", "city": "DT-CITY-1"}.get(phase, "DT-TURN-2")
            if phase == "move" and s["t"]:
                rule = {"monsters": "DT-MOVE-4", "quest": "DT-MOVE-5"}.get(s["t"]["ended"], rule)
                if s["t"]["fled"]:
                    rule = "DT-DEFEAT-4"
            elif phase == "city" and s["t"] and s["t"]["fled"]:
                rule = "DT-DEFEAT-4"
            raise _Refuse(
                rule, t("Not now ({action}): {prompt}", action=what, prompt=self._prompt(s))
            )
        return seat

    def _own_turn(self, s: State, a: Action, what: str) -> int:
        """Level-up and slot changes: any time in one's own turn, but not in a pending roll."""
        seat = _seat(s, _player(a))
        if s["phase"] in ("start_roll", "choose"):
            raise _Refuse("DT-TURN-2", t("Not now: {prompt}", prompt=self._prompt(s)))
        if seat != s["active"]:
            raise _Refuse(
                "DT-TURN-1",
                t(
                    "It is {player}'s turn, not {other}'s.",
                    player=_name(s, s["active"]),
                    other=_name(s, seat),
                ),
            )
        if s["pending"] and s["pending"][0].get("why") == "combat" and s["combat"]["rolls"]:
            raise _Refuse("DT-AMB-15", t("Not between a roll and its outcome."))
        return seat

    def _others(self, s: State, seat: int) -> list[int]:
        n = len(s["players"])
        return [(seat + k) % n for k in range(1, n)]

    def _others_here(self, s: State, seat: int) -> list[int]:
        here = s["heroes"][seat]["space"]
        return [
            i
            for i in self._others(s, seat)
            if s["heroes"][i]["space"] == here and not s["heroes"][i]["dead"]
        ]

    # -- data helpers ----------------------------------------------------------------------

    def _space(self, s: State, space: str) -> dict[str, Any]:
        return self.data(s)["spaces"][space]

    def _type(self, s: State, space: str) -> dict[str, Any]:
        data = self.data(s)
        return data["space_types"][data["spaces"][space]["type"]]

    def _level(self, s: State, seat: int) -> dict[str, Any]:
        h = s["heroes"][seat]
        return self.data(s)["characters"][h["character"]][h["level"]]

    def _equipped_slots(self, s: State, seat: int) -> list[tuple[dict, dict]]:
        items = self.data(s)["items"]
        slots = self._level(s, seat)["slots"]
        return [
            (slots[i], items[x["card"]][x["face"]])
            for i, x in enumerate(s["heroes"][seat]["slots"])
            if x
        ]

    def _equipped(self, s: State, seat: int) -> list[dict]:
        return [face for _, face in self._equipped_slots(s, seat)]

    # ------------------------------------------------------------------------------------------
    # What the game waits for

    def legal_actions(self, state: State) -> list[Action]:
        """The choices players can make now (scrolls excepted: they depend on the hand); a
        pending chance step comes first, except that the fighter may still buy sixes."""
        s = state
        phase = s["phase"]
        if phase in ("over", "start_roll"):
            return []
        if phase == "choose":
            p = _name(s, s["choosing"])
            data = self.data(s)
            taken_chars = {h["character"] for h in s["heroes"]}
            taken = {data["spaces"][h["home"]]["wedge"] for h in s["heroes"] if h["home"]}
            cities = [
                sp["id"]
                for sp in data["spaces"].values()
                if self._type(s, sp["id"])["city"]
                and sp["wedge"] not in taken
                and _wedge(data, sp["wedge"])["kind"] == "kingdom"
            ]
            return [
                {"type": "choose", "player": p, "character": c, "city": city}
                for c in sorted(data["characters"])
                if c not in taken_chars
                for city in sorted(cities)
            ]
        active = _name(s, s["active"])
        out: list[Action] = []
        if phase == "pre_roll":
            c = s["combat"]
            if (
                not c["rolls"]
                and c["sixes"] < MAX_SIXES
                and s["heroes"][s["active"]]["xp"] >= self.data(s)["xp"]["die_to_six"]
            ):
                out.append({"type": "buy_six", "player": active})
            return out
        if phase == "scrolls_others":
            for i in self._others(s, s["active"]):
                if i not in s["combat"]["passed"] and s["heroes"][i]["scrolls"]:
                    out.append({"type": "pass", "player": _name(s, i)})
                    out += self._scroll_plays(s, i, ("opponent_pre_roll", "any"))
            return out
        if s["pending"]:
            return []
        if phase == "move":
            for to in sorted(self.data(s)["adjacent"].get(s["heroes"][s["active"]]["space"], {})):
                for act in self._step_options(s, to):
                    out.append(act)
            out.append({"type": "stop", "player": active})
            if not s["options"]["encounter_before_entry"] and s["heroes"][s["active"]][
                "space"
            ] == self.door_space(s):
                out.append({"type": "enter_tower", "player": active})
        elif phase == "resolve":
            out += [
                {"type": "resolve", "player": active, "token": t}
                for t in sorted(set(s["encounter"]["unresolved"]))
            ]
        elif phase == "scrolls_own":
            out.append({"type": "done", "player": active})
            out += self._scroll_plays(s, s["active"], ("own_pre_roll", "any"))
        elif phase == "defeat":
            out += self._scroll_plays(s, s["active"], ("post_roll", "any"))
            out += [{"type": "flee", "player": active, "to": to} for to in self.flee_spaces(s)]
            if not (s["options"]["death_only_without_escape"] and self.flee_spaces(s)):
                out.append({"type": "die", "player": active})
        elif phase == "city":
            turn, h = s["t"], s["heroes"][s["active"]]
            if turn["business"] is None and not (
                turn["sold"] and not s["options"]["work_allows_selling"]
            ):
                out.append({"type": "work", "player": active})
            if turn["business"] != "work":
                if not s["shop"]["drawn"]:
                    out.append({"type": "shop", "player": active})
                elif h["xp"] >= self.data(s)["xp"]["extra_shop_card"]:
                    out.append({"type": "shop_more", "player": active})
                for c in s["shop"]["cards"]:
                    if c["bought"] is None:
                        for face in ("equipment", "magic"):
                            if self.data(s)["items"][c["card"]][face]["price"] <= h["gold"]:
                                out.append(
                                    {
                                        "type": "buy",
                                        "player": active,
                                        "card": c["card"],
                                        "face": face,
                                    }
                                )
                if not turn["scroll_bought"] and h["gold"] >= SCROLL_PRICE:
                    out.append({"type": "buy_scroll", "player": active})
            if turn["business"] != "work" or s["options"]["work_allows_selling"]:
                out += [{"type": "sell", "player": active, "card": x["card"]} for x in _held(h)]
            out.append({"type": "done", "player": active})
            if not self._over_limits(s):
                out.append({"type": "end_turn", "player": active})
        elif phase == "trade":
            o = s["offer"]
            if o is not None:
                out += [{"type": "decline", "player": _name(s, o["to"])}]
            else:
                out += [{"type": "done", "player": active}]
        elif phase == "cleanup":
            if not self._over_limits(s):
                out.append({"type": "end_turn", "player": active})
            for i, h in enumerate(s["heroes"]):
                for x in h["backpack"]:
                    out.append({"type": "discard", "player": _name(s, i), "card": x["card"]})
                for card in h["scrolls"]:
                    out.append({"type": "discard", "player": _name(s, i), "scroll": card})
        if (
            s["heroes"][s["active"]]["level"] == "low"
            and s["heroes"][s["active"]]["xp"] >= self.data(s)["xp"]["level_up"]
        ):
            out.append({"type": "level_up", "player": active})
        return out

    def _scroll_plays(self, s: State, seat: int, windows: tuple[str, ...]) -> list[Action]:
        """The plays of a hero's scrolls that suit this moment (their owner alone sees them)."""
        scrolls = self.data(s)["scrolls"]
        c = s["combat"]
        out = []
        for card in s["heroes"][seat]["scrolls"]:
            sc = scrolls[card]
            effect = sc["effect"]
            if sc["window"] not in windows or "cross" in effect:
                continue
            post = "reroll" in effect or "set_die" in effect
            if post != (s["phase"] == "defeat"):
                continue
            base = {"type": "play_scroll", "player": _name(s, seat), "scroll": card}
            if "remove_monster" in effect:
                left = _fighting(c)
                if len(left) > 1:
                    out += [base | {"token": m} for m in sorted(set(left))]
            elif "set_die" in effect:
                out += [base | {"die": i} for i, d in enumerate(c["dice"] or []) if not d["six"]]
            else:
                out.append(base)
        return out

    def _step_options(self, s: State, to: str) -> list[Action]:
        """The ways the active player can step to a next space now."""
        seat, turn = s["active"], s["t"]
        h = s["heroes"][seat]
        border = self.data(s)["adjacent"][h["space"]][to]
        active = _name(s, seat)
        costs = self.data(s)["xp"]
        base = {"type": "step", "player": active, "to": to}
        modes: list[dict] = []
        if border == "none" or self._habitual(s, seat, border):
            modes.append({})
        else:
            if h["xp"] >= costs["cross_border"]:
                modes.append({"cross": "xp"})
            if (
                not turn["stepped"]
                and h["space"] == turn["start"]
                and turn["moves_left"] == self._level(s, seat)["movement"]
                and turn["moves_left"]
            ):
                modes.append({"cross": "whole"})
        out = []
        for m in modes:
            xp = costs["cross_border"] if m.get("cross") == "xp" else 0
            if turn["moves_left"] >= 1 or m.get("cross") == "whole":
                out.append(base | m)
            if h["xp"] >= xp + costs["extra_step"] and m.get("cross") != "whole":
                out.append(base | m | {"extra": True})
        return out

    def chance(self, state: State) -> Chance | None:
        s = state
        if s["phase"] == "over":
            return None
        if s["phase"] == "start_roll":  # DT-SETUP-6
            st = s["start"]
            seat = next(i for i in st["rolling"] if str(i) not in st["rolls"])
            return Chance(
                "die", "DT-SETUP-6", player=_name(s, seat), profile="d6", faces=DIE, dice=2
            )
        if not s["pending"]:
            return None
        p = s["pending"][0]
        who = _name(s, p["player"]) if p.get("player") is not None else None
        if p["kind"] == "die":
            rule = {"combat": "DT-COMBAT-7", "treasure": "DT-REWARD-2", "quest": "DT-QUEST-6"}[
                p["why"]
            ]
            return Chance("die", rule, player=who, profile="d6", faces=DIE, dice=p["dice"])
        rule = {"token": "DT-ENC-3", "item": "DT-CARD-5", "scroll": "DT-CARD-6"}[p["kind"]]
        if p["why"] == "wizard":
            rule = "DT-WIZ-1"
        elif p["why"] == "shop":
            rule = "DT-CITY-2"
        elif p["why"] == "setup":
            rule = "DT-SETUP-5"
        return Chance("draw", rule, player=who)

    def awaited(self, state: State) -> dict[str, Any] | None:
        """The pending chance step in full (what to draw, which face, for whom, why)."""
        s = state
        if s["phase"] == "start_roll":
            c = self.chance(s)
            return {"kind": "die", "why": "start", "player": c.player, "dice": 2}
        if not s["pending"]:
            return None
        p = dict(s["pending"][0])
        p["left"] = sum(
            1 for q in s["pending"] if q["kind"] == p["kind"] and q.get("player") == p.get("player")
        )  # draws of this kind in a row
        if p.get("player") is not None:
            p["player"] = _name(s, p["player"])
        return p

    def sample(self, state: State) -> Action:
        s = state
        rng = random.Random(f"{s['seed']}/{s['chance_n']}")
        a = self.awaited(s)
        if a is None:
            raise ValueError("the game is not waiting for chance")
        if a["kind"] == "die":
            return {"type": "roll", "values": [rng.choice(DIE) for _ in range(a["dice"])]}
        if a["kind"] == "token":
            pool = [t for t, n in sorted(s["bowl"].items()) for _ in range(n)]
            if not pool:
                raise ValueError("the bowl is empty")
            return {"type": "draw_token", "token": rng.choice(pool)}
        deck = "items" if a["kind"] == "item" else "scrolls"
        cards = s[deck]["deck"] or s[deck]["discard"]
        card = rng.choice(sorted(cards))
        if a["kind"] == "item":
            return {"type": "draw_item", "card": card}
        return {"type": "draw_scroll", "scroll": card}

    # ------------------------------------------------------------------------------------------
    # Views

    def view(self, state: State, viewer: str) -> dict[str, Any]:
        """DT-TOK-3, DT-CARD-3, DT-CARD-6, DT-AMB-30: scrolls in hand are seen only by their
        owner; gold, XP, the number of scrolls, items, tokens on the board and the tower are
        public; the decks' order and the bowl's contents are seen by nobody."""
        s = state
        names = s["players"]
        if viewer not in (TABLE, HOST, EVERYTHING) and viewer not in names:
            raise ValueError(f"unknown viewer {viewer!r}")
        data = self.data(s)
        everything = viewer == EVERYTHING
        players = {}
        for i, name in enumerate(names):
            h = s["heroes"][i]
            char = data["characters"].get(h["character"]) if h["character"] else None
            level = char[h["level"]] if char else None
            sees = everything or viewer == name
            players[name] = {
                "seat": i,
                "character": h["character"],
                "hero": char["name"] if char else None,
                "level": h["level"],
                "strength": level["strength"] if level else None,
                "movement": level["movement"] if level else None,
                "abilities": list(level["abilities"]) if level else [],
                "gold": h["gold"],
                "xp": h["xp"],
                "space": h["space"],
                "home": h["home"],
                "dead": h["dead"],
                "slots": [
                    self._item_view(s, x, level["slots"][k] if level else None)
                    for k, x in enumerate(h["slots"])
                ],
                "backpack": [self._item_view(s, x, None) for x in h["backpack"]],
                "scroll_count": len(h["scrolls"]),
                "scrolls": [self._scroll_view(s, c) for c in h["scrolls"]] if sees else None,
                "limits": self._limits(s, i) if level else None,
            }
        tower_days = self.wedge_days(s)
        door = self.door_wedge(s)
        c = s["combat"]
        combat = None
        if c is not None:
            combat = {
                "monsters": [self._token_view(s, m) for m in c["monsters"]],
                "removed": list(c["removed"]),
                "played": [
                    {"player": p["player"], **self._scroll_view(s, p["scroll"])}
                    for p in c["played"]
                ],
                "passed": [_name(s, i) for i in c["passed"]],
                "sixes": c["sixes"],
                "dice": c["dice"],
                "rolls": c["rolls"],
                "quest": c["quest"],
                "wizard": c["wizard"],
                "space": c["space"],
                "totals": self.totals(s),
                "flee": self.flee_spaces(s) if s["phase"] == "defeat" else [],
            }
        enc = s["encounter"]
        offer = None
        if s["offer"] is not None:
            o = s["offer"]
            parties = (_name(s, o["from"]), _name(s, o["to"]))
            shown = everything or viewer in parties
            give = dict(o["give"])
            if not shown:
                give["scrolls"] = len(give["scrolls"])
            offer = {"from": parties[0], "to": parties[1], "give": give, "take": dict(o["take"])}
        here = (
            s["heroes"][s["active"]]["space"]
            if s["phase"] not in ("start_roll", "choose")
            else None
        )
        v: dict[str, Any] = {
            "game": self.id,
            "viewer": viewer,
            "data_set": {"name": data["name"], "title": data["title"], "example": data["example"]},
            "phase": s["phase"],
            "turn": s["turn"],
            "active": _name(s, s["active"]) if s["phase"] != "start_roll" else None,
            "first": _name(s, s["first"]),
            "choosing": _name(s, s["choosing"]) if s["phase"] == "choose" else None,
            "finished": s["phase"] == "over",
            "winners": list(s["winners"]),
            "order": list(names),
            "players": players,
            "start_rolls": {_name(s, int(k)): v for k, v in s["start"]["rolls"].items()},
            "tower": {
                "step": s["tower_step"],
                "door_wedge": door,
                "door_space": data["shadowlands"][data["wedges"][door]["id"]],
                "wedges": [
                    {"id": w["id"], "name": w["name"], "kind": w["kind"], "day": d}
                    for w, d in zip(data["wedges"], tower_days)
                ],
            },
            "quests": list(s["quests"]),
            "monsters": {
                sp: [self._token_view(s, m) for m in ms] for sp, ms in sorted(s["monsters"].items())
            },
            "moves_left": s["t"]["moves_left"] if s["t"] else None,
            "here": {"space": here, "draw": self._draw_count(s, here), "day": self._is_day(s, here)}
            if here
            else None,
            "encounter": None
            if enc is None
            else {
                "space": enc["space"],
                "wizard": enc["wizard"],
                "quest": enc["quest"],
                "drawn": [self._token_view(s, m) for m in enc["drawn"]],
                "unresolved": list(enc["unresolved"]),
            },
            "combat": combat,
            "last_combat": s["last_combat"],
            "shop": None
            if s["shop"] is None
            else {
                "cards": [
                    {
                        "card": x["card"],
                        "bought": x["bought"],
                        "equipment": data["items"][x["card"]]["equipment"],
                        "magic": data["items"][x["card"]]["magic"],
                    }
                    for x in s["shop"]["cards"]
                ],
                "business": s["t"]["business"] if s["t"] else None,
                "scroll_bought": bool(s["t"] and s["t"]["scroll_bought"]),
            },
            "offer": offer,
            "awaiting": self.awaited(s),
            "prices": {
                "scroll": SCROLL_PRICE,
                "work": dict(WORK_PAY),
                "resurrection": RESURRECTION_GOLD,
                "quest_xp": QUEST_XP,
                "xp": dict(data["xp"]),
            },
            "decks": {
                "items": len(s["items"]["deck"]),
                "scrolls": len(s["scrolls"]["deck"]),
                "bowl": sum(s["bowl"].values()),
                "item_discard": len(s["items"]["discard"]),
                "scroll_discard": len(s["scrolls"]["discard"]),
            },
            # an arranged start names the hands it dealt: only the referee sees it
            "options": {k: v for k, v in s["options"].items() if k != "scenario" or everything},
            "waiting_for": self._waiting_names(s),
            "prompt": self._prompt(s),
        }
        if everything:
            v["bowl"] = dict(s["bowl"])
            v["item_deck"] = list(s["items"]["deck"])
            v["scroll_deck"] = list(s["scrolls"]["deck"])
            v["item_discard"] = list(s["items"]["discard"])
            v["scroll_discard"] = list(s["scrolls"]["discard"])
        return v

    def _limits(self, s: State, seat: int) -> dict[str, int]:
        level = self._level(s, seat)
        return {
            "scrolls": SCROLL_LIMIT if level["scroll_limit"] is None else level["scroll_limit"],
            "backpack": BACKPACK_LIMIT
            if level["backpack_limit"] is None
            else level["backpack_limit"],
        }

    def _item_view(self, s: State, held: dict | None, slot: dict | None) -> dict | None:
        if held is None:
            return (
                None
                if slot is None
                else {"card": None, "accepts": slot["types"], "max": slot.get("max")}
            )
        face = self.data(s)["items"][held["card"]][held["face"]]
        out = {"card": held["card"], "face": held["face"], **face}
        if slot is not None:
            out["accepts"], out["max"] = slot["types"], slot.get("max")
        return out

    def _scroll_view(self, s: State, card: str) -> dict[str, Any]:
        sc = self.data(s)["scrolls"][card]
        return {
            "scroll": card,
            "name": sc["name"],
            "text": sc["text"],
            "window": sc["window"],
            "effect": sc["effect"],
        }

    def _token_view(self, s: State, token: str) -> dict[str, Any]:
        entry = self.data(s)["tokens"][token]
        return {
            "token": token,
            "name": entry["name"],
            "monster": entry["monster"],
            "strength": entry["strength"],
            "types": entry["types"],
            "xp": entry["xp"],
            "treasure": entry["treasure"],
            "friendly": entry["friendly"],
        }

    def _waiting_names(self, s: State) -> list[str]:
        phase = s["phase"]
        if phase == "over":
            return []
        if phase == "start_roll":
            return [self.chance(s).player]
        if phase == "choose":
            return [_name(s, s["choosing"])]
        if s["pending"]:
            p = s["pending"][0]
            return [_name(s, p["player"])] if p.get("player") is not None else []
        if phase == "scrolls_others":
            return [
                _name(s, i)
                for i in self._others(s, s["active"])
                if i not in s["combat"]["passed"] and s["heroes"][i]["scrolls"]
            ]
        if phase == "trade" and s["offer"] is not None:
            return [_name(s, s["offer"]["to"])]
        over = self._over_limits(s) if phase == "cleanup" else None
        names = [_name(s, s["active"])]
        if over and _name(s, over[2]) not in names:
            names.append(_name(s, over[2]))
        return names

    def _prompt(self, s: State) -> Text:
        """What the table is waiting for, in one public sentence."""
        phase = s["phase"]
        if phase == "over":
            return t("The game is over: {player} defeated Z'Mindrik.", player=s["winners"][0])
        if phase == "start_roll":
            return t("{player}: roll two dice to see who starts.", player=self.chance(s).player)
        if phase == "choose":
            return t(
                "{player}: choose a character and a home city.", player=_name(s, s["choosing"])
            )
        who = _name(s, s["active"])
        if s["pending"]:
            p = s["pending"][0]
            by = _name(s, p["player"]) if p.get("player") is not None else who
            if p["kind"] == "die":
                n = p["dice"]
                if p["why"] == "combat":
                    if n == 1:
                        return t("{player}: roll one die for the fight.", player=by)
                    return t("{player}: roll {n} dice for the fight.", player=by, n=n)
                if p["why"] == "treasure":
                    return t(
                        "{player}: roll a die for the {token}'s treasure.",
                        player=by,
                        token=self.data(s)["tokens"][p["token"]]["name"],
                    )
                if n == 1:
                    return t("{player}: roll one die on the Quest Location table.", player=by)
                return t("{player}: roll {n} dice on the Quest Location table.", player=by, n=n)
            if p["kind"] == "token":
                left = sum(1 for q in s["pending"] if q["kind"] == "token")
                if left == 1:
                    return t("{player}: draw {n} encounter token from the bowl.", player=by, n=left)
                return t("{player}: draw {n} encounter tokens from the bowl.", player=by, n=left)
            if p["kind"] == "item":
                if p["face"] == "shop":
                    return t("{player}: draw the top item card.", player=by)
                if p["face"] == "magic":
                    return t("{player}: draw an item card (magic face).", player=by)
                return t("{player}: draw an item card (equipment face).", player=by)
            return t("{player}: draw a scroll.", player=by)
        if phase == "move":
            return t(
                "{player}: move ({n} left), stop, or enter the tower.",
                player=who,
                n=s["t"]["moves_left"],
            )
        if phase == "trade":
            if s["offer"] is not None:
                return t(
                    "{partner}: accept or decline {player}'s offer.",
                    partner=_name(s, s["offer"]["to"]),
                    player=who,
                )
            return t("{player}: trade with the characters here, or carry on.", player=who)
        if phase == "resolve":
            return t("{player}: resolve the tokens that are not monsters first.", player=who)
        if phase == "scrolls_own":
            return t("{player}: play scrolls for the fight, or go on.", player=who)
        if phase == "scrolls_others":
            return t("The other players: play scrolls against {player}, or pass.", player=who)
        if phase == "pre_roll":
            return t("{player}: roll the dice (or pay XP for a six first).", player=who)
        if phase == "defeat":
            return t("{player}: re-roll with a scroll, flee, or die.", player=who)
        if phase == "city":
            return t("{player}: shop or work in the city, then end the turn.", player=who)
        over = self._over_limits(s)
        if over:
            return over[1]
        return t("{player}: end the turn by turning the tower.", player=who)

    def indistinguishable(self, state: State, viewer: str, rng: random.Random) -> State:
        """DT-CARD-6: ``state`` with the scrolls ``viewer`` may not see dealt anew.

        The scrolls in the other players' hands (every hand, for the table display and the host)
        and the scroll deck are pooled, shuffled and dealt back with the same sizes. Scrolls
        offered in a trade the viewer is a party to are seen, so they stay in the giver's hand;
        for anyone else the offer names the new cards in the same places of that hand.

        Nothing else of Dork Tower is hidden: items, gold, XP, tokens on the board and the tower
        are public; the bowl holds what is not on the board or out of the game (every token drawn
        was shown), and the decks keep no order (a draw is any card left). The scroll discard pile
        mixes scrolls played openly with scrolls sold or discarded unseen, and the state does not
        say which are which, so it is left as it is."""
        s = _copy(state)
        names = s["players"]
        if viewer == EVERYTHING:
            return s
        if viewer not in (TABLE, HOST) and viewer not in names:
            raise ValueError(f"unknown viewer {viewer!r}")
        hidden = [i for i, p in enumerate(names) if p != viewer]
        offer = s["offer"]
        seen: dict[int, list[str]] = {}  # cards of a hidden hand the viewer was shown
        if offer is not None and viewer in (names[offer["from"]], names[offer["to"]]):
            seen[offer["from"]] = list(offer["give"]["scrolls"])
        pool = list(s["scrolls"]["deck"])
        places = []
        for i in hidden:
            shown = list(seen.get(i, []))
            for k, card in enumerate(s["heroes"][i]["scrolls"]):
                if card in shown:
                    shown.remove(card)
                else:
                    pool.append(card)
                    places.append((i, k))
        rng.shuffle(pool)
        take = iter(pool)
        s["scrolls"]["deck"] = sorted(next(take) for _ in s["scrolls"]["deck"])
        for i, k in places:
            s["heroes"][i]["scrolls"][k] = next(take)
        if offer is not None and offer["from"] in hidden and offer["from"] not in seen:
            old, new = (
                state["heroes"][offer["from"]]["scrolls"],
                s["heroes"][offer["from"]]["scrolls"],
            )
            offer["give"]["scrolls"] = [new[old.index(c)] for c in offer["give"]["scrolls"]]
        return s

    def outcome(self, state: State) -> Outcome:
        return Outcome(
            finished=state["phase"] == "over",
            winners=tuple(state["winners"]),
            scores={p: h["xp"] for p, h in zip(state["players"], state["heroes"])},
        )


_HANDLERS = {
    "roll": DorkTower._roll,
    "draw_token": DorkTower._draw_token,
    "draw_item": DorkTower._draw_item,
    "draw_scroll": DorkTower._draw_scroll,
    "choose": DorkTower._choose,
    "step": DorkTower._step,
    "stop": DorkTower._stop,
    "enter_tower": DorkTower._enter_tower,
    "resolve": DorkTower._resolve,
    "play_scroll": DorkTower._play_scroll,
    "take_back": DorkTower._take_back,
    "done": DorkTower._done,
    "pass": DorkTower._pass,
    "buy_six": DorkTower._buy_six,
    "flee": DorkTower._flee,
    "die": DorkTower._die,
    "shop": DorkTower._shop,
    "shop_more": DorkTower._shop_more,
    "buy": DorkTower._buy,
    "buy_scroll": DorkTower._buy_scroll,
    "sell": DorkTower._sell,
    "work": DorkTower._work,
    "offer": DorkTower._offer,
    "accept": DorkTower._accept,
    "decline": DorkTower._decline,
    "equip": DorkTower._equip,
    "unequip": DorkTower._unequip,
    "discard": DorkTower._discard,
    "level_up": DorkTower._level_up,
    "end_turn": DorkTower._end_turn,
}


# ----------------------------------------------------------------------------------------------


def _new_hero() -> dict[str, Any]:
    return {
        "character": None,
        "level": "low",
        "gold": 0,
        "xp": 0,
        "space": None,
        "home": None,
        "slots": [None] * SLOTS,
        "backpack": [],
        "scrolls": [],
        "dead": False,
    }


def _encounter(space: str | None, quest: bool = False, wizard: bool = False) -> dict[str, Any]:
    return {
        "space": space,
        "quest": quest,
        "wizard": wizard,
        "drawn": [],
        "unresolved": [],
        "aside": [],
        "summoned": 0,
        "done": False,
    }


def _draw(kind: str, seat: int, why: str, face: str | None = None) -> dict[str, Any]:
    d = {"kind": kind, "player": seat, "why": why}
    if face is not None:
        d["face"] = face
    return d


def _fulfilled(s: State) -> None:
    """The awaited chance step happened: the next one is awaited, and ``sample`` moves on."""
    s["pending"].pop(0)
    s["chance_n"] += 1


def _fighting(c: dict) -> list[str]:
    """The monsters still in the fight: a removal scroll takes away one token of its kind."""
    left = list(c["monsters"])
    for token in c["removed"]:
        left.remove(token)
    return left


def _held(h: dict) -> list[dict]:
    return [x for x in h["slots"] if x] + list(h["backpack"])


def _side(side: dict, by_id: bool) -> dict[str, Any]:
    """One side of an offer: the giver's scrolls by card, the scrolls asked for by number."""
    scrolls = side.get("scrolls", [] if by_id else 0)
    return {
        "gold": side.get("gold", 0),
        "items": list(side.get("items", [])),
        "scrolls": list(scrolls) if by_id else scrolls,
    }


def _row(rows: list[dict], diff: int) -> dict[str, Any]:
    """DT-COMBAT-5, DT-AMB-2: the band holding the difference, clamped at both ends."""
    for r in rows:
        if (r["min"] is None or diff >= r["min"]) and (r["max"] is None or diff <= r["max"]):
            return r
    return rows[0] if rows[0]["min"] is not None and diff < rows[0]["min"] else rows[-1]


def _wedge(data: dict, wedge: str) -> dict[str, Any]:
    return next(w for w in data["wedges"] if w["id"] == wedge)


def _dice_values(a: Action, n: int) -> list[int]:
    values = a.get("values")
    if values is None and "value" in a:
        values = [a["value"]]
    if not isinstance(values, list) or any(
        not isinstance(v, int) or isinstance(v, bool) for v in values
    ):
        raise _Refuse(MALFORMED, t("A roll gives its dice as values: a list of numbers."))
    if len(values) != n:
        if n == 1:
            raise _Refuse(
                "DT-COMP-9", t("This roll takes one die, not {given}.", given=len(values))
            )
        raise _Refuse(
            "DT-COMP-9", t("This roll takes {n} dice, not {given}.", n=n, given=len(values))
        )
    if any(v not in DIE for v in values):
        raise _Refuse("DT-COMP-9", t("The dice are six-sided: faces 1 to 6."))
    return values


def _an(noun: str) -> bool:
    """Whether English writes "an" before ``noun``."""
    return noun[:1].lower() in "aeiou"


def _slot_number(where: str) -> int:
    """The slot's number (1 to 4) in ``_gain_item``'s "slot 2"."""
    return int(where.split()[1])


def _tie_text(names: list[str], total: int) -> Text:
    """DT-SETUP-6: the players who tie for the start, a sentence for each number of them."""
    if len(names) == 2:
        return t(
            "{a} and {b} tie on {total}: they roll again.", a=names[0], b=names[1], total=total
        )
    if len(names) == 3:
        return t(
            "{a} and {b} and {c} tie on {total}: they roll again.",
            a=names[0],
            b=names[1],
            c=names[2],
            total=total,
        )
    if len(names) == 4:
        return t(
            "{a} and {b} and {c} and {d} tie on {total}: they roll again.",
            a=names[0],
            b=names[1],
            c=names[2],
            d=names[3],
            total=total,
        )
    if len(names) == 5:
        return t(
            "{a} and {b} and {c} and {d} and {e} tie on {total}: they roll again.",
            a=names[0],
            b=names[1],
            c=names[2],
            d=names[3],
            e=names[4],
            total=total,
        )
    return t(
        "{a} and {b} and {c} and {d} and {e} and {f} tie on {total}: they roll again.",
        a=names[0],
        b=names[1],
        c=names[2],
        d=names[3],
        e=names[4],
        f=names[5],
        total=total,
    )


def _listing(parts: list[Text]) -> Text:
    """Texts as one comma-separated list that stays translatable ("a scroll, 5 XP")."""
    out = parts[0]
    for part in parts[1:]:
        out = t("{list}, {item}", list=out, item=part)
    return out


def _either(words: list[str]) -> str:
    """Words as alternatives, "weapon or shield", translatable."""
    out = words[0]
    for word in words[1:]:
        out = t("{list} or {item}", list=out, item=word)
    return out


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
