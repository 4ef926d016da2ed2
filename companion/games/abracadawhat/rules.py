"""Abracada...What? (Gary Kim, 2014): the rules core.

Specification: ``shared/rules/abracadawhat.md``; rule IDs ABR-* are cited where each rule is
enforced. The racks are sensed (every stone is tapped at the reader when it is dealt or drawn), so
the core verifies every cast itself (ABR-CAST-1) without anyone being asked.

Seats are numbered clockwise; ``left(i) = i + 1`` and ``right(i) = i - 1`` (section 0 of the spec).

Phases of a round (section 4.2 of the spec, with the automatic states folded into the transitions):

``deal``      stones are dealt (one ``deal`` action, or one ``deal_stone`` per tapped stone)
``declare``   the active player declares a spell (``cast``) or, after a success, ``end_turn``
``objection`` an out-of-order declaration waits for an ``object`` or ``allow`` (only when the
              option ``order_violation`` is ``require_objection``, ABR-AMB-3)
``remove``    the right neighbour removes the stone (only when the option ``removal`` is ``tap``)
``roll``      the die is rolled for Ancient Dragon, Sweet Dreams or a failed Ancient Dragon
``secret``    Night Singer: the caster takes one secret stone (``take_secret``) or declines
``refill``    the turn has ended; the player draws stones back to five (``refill``)
``over``      the game has ended
"""

from __future__ import annotations

import random
from collections import Counter
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
    State,
)
from companion.rules.common import Refuse as _Refuse
from companion.rules.common import event as _event
from companion.rules.common import name_of as _name
from companion.rules.common import player_of as _player
from companion.rules.common import seat_of as _seat

#: The spells' names, translatable inside the sentences that name them.
SPELLS = {
    1: t("Ancient Dragon"),
    2: t("Dark Wanderer"),
    3: t("Sweet Dreams"),
    4: t("Night Singer"),
    5: t("Lightning Storm"),
    6: t("Blizzard"),
    7: t("Fireball"),
    8: t("Magic Potion"),
}
NUMBERS = range(1, 9)
STONE_SET = tuple(
    n for n in NUMBERS for _ in range(n)
)  # ABR-COMP-1: n stones of spell n, 36 in all
RACK_SIZE = 5  # ABR-SETUP-5, ABR-ENDT-4
SECRET_STONES = 4  # ABR-SETUP-8
REMOVED_FOR = {2: 12, 3: 6, 4: 0, 5: 0}  # ABR-SETUP-7
WINNING_SCORE = 8  # ABR-SCORE-1, ABR-GAME-1
DIE_SPELLS = (1, 3)  # spells whose effect needs the die (ABR-SPELL-1, ABR-SPELL-3)


def spell_name(n: int) -> str:
    """A spell's number and name, e.g. "3 Sweet Dreams" (English; sentences name a spell through
    their own ``{n} {spell}`` placeholders, so that they translate)."""
    return f"{n} {SPELLS[n]}"


def _and(names: list[str]) -> str:
    """Names joined with "and" ("Ann and Ben and Cid"), translatable: one name stays as it is."""
    if not names:
        return ""
    joined: str = names[0]
    for name in names[1:]:
        joined = t("{list} and {name}", list=joined, name=name)
    return joined


class AbracadaWhat(Game):
    id = "abracadawhat"
    title = "Abracada...What?"
    spec = "abracadawhat.md"
    min_players = 2
    max_players = 5
    components = {f"stone {n}": n for n in NUMBERS}
    options = (
        Option(
            "easy",
            False,
            t("Easy version: later casts in a turn may be any spell."),
            "ABR-VAR-1",
            aliases=("easy_version", "variant_easy", "ABR-VAR-1"),
        ),
        Option(
            "last_wizard_standing",
            False,
            t(
                "The round ends only when a rack is empty or one wizard survives; the winner "
                "scores 2 plus the secret-stone bonus, everyone else nothing."
            ),
            "ABR-VAR-2",
            aliases=("last_standing", "variant_last_standing", "ABR-VAR-2"),
        ),
        Option(
            "order_violation",
            "auto_penalty",
            t(
                "A lower spell after a success: the companion applies the penalty itself "
                "(auto_penalty) or waits for another player to object (require_objection)."
            ),
            "ABR-AMB-3",
            choices=("auto_penalty", "require_objection"),
        ),
        Option(
            "resolve_last_effect",
            True,
            t("When the last stone of a rack is cast, resolve its effect before the round ends."),
            "ABR-AMB-4",
        ),
        Option("die_faces", [1, 2, 3, 4, 5, 6], t("The faces of the die."), "ABR-AMB-1"),
        Option("start_life", 6, t("Life at the start of every round."), "ABR-AMB-2"),
        Option("life_cap", 6, t("Nobody may have more life than this."), "ABR-AMB-2"),
        Option(
            "removal",
            "auto",
            t(
                "How the right neighbour's removal of a cast stone is known: at once from the "
                "declaration (auto), or when the stone is tapped at the board reader (tap)."
            ),
            "ABR-CAST-4",
            choices=("auto", "tap"),
        ),
    )

    # ------------------------------------------------------------------------------------------
    # Setting up

    def new(
        self, players: list[str], options: dict[str, Any] | None = None, seed: int = 0
    ) -> State:
        names = self.check_players(players)
        opts = self.resolve_options(options)
        self._check_option_values(opts)
        n = len(names)
        state: State = {
            "game": self.id,
            "players": names,
            "options": opts,
            "seed": int(seed),
            "chance_n": 0,
            "round": 1,
            "phase": "deal",
            "starter": 0,  # ABR-SETUP-10: the first player listed (the oldest) starts
            "active": 0,
            "last_cast": None,
            "successes": 0,
            "pending": None,
            "life": [opts["start_life"]] * n,  # ABR-SETUP-4, ABR-AMB-2
            "score": [0] * n,  # ABR-SETUP-3
            "gained": [0] * n,
            "last_round": None,
            "winners": [],
        }
        _clear_stones(state)
        return state

    @staticmethod
    def _check_option_values(opts: dict[str, Any]) -> None:
        from companion.rules.api import SetupError

        if opts["life_cap"] < 1 or not 1 <= opts["start_life"] <= opts["life_cap"]:
            raise SetupError(t("start_life must be between 1 and life_cap"))
        faces = opts["die_faces"]
        if any(not isinstance(f, int) or isinstance(f, bool) or f < 0 for f in faces):
            raise SetupError(t("die_faces must be whole numbers of zero or more"))

    # ------------------------------------------------------------------------------------------
    # Applying actions

    def apply(self, state: State, action: Action) -> Result:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return Refusal(MALFORMED, t("An action needs a type."))
        handler = self._handlers.get(action["type"])
        if handler is None:
            return Refusal(
                UNKNOWN_ACTION,
                t("{game} has no action {action}.", game=self.title, action=repr(action["type"])),
            )
        s = _copy_state(state)
        events: list[Event] = []
        try:
            handler(self, s, action, events)
        except _Refuse as refused:
            return refused.refusal
        return Accepted(s, tuple(events))

    # -- deal --------------------------------------------------------------------------------

    def _deal(self, s: State, a: Action, ev: list[Event]) -> None:
        """The observed deal of a whole round: racks, the removed stones and the secret stones."""
        self._expect_deal(s)
        if s["dealt"]:
            raise _Refuse(
                "ABR-SETUP-5",
                t(
                    "The deal is already under way stone by stone; "
                    "finish it by tapping the remaining stones."
                ),
            )
        n = len(s["players"])
        racks = a.get("racks")
        if not isinstance(racks, dict):
            raise _Refuse(MALFORMED, t("A deal needs racks: each player's five stones."))
        for name in racks:
            _seat(s, name)
        missing = [p for p in s["players"] if p not in racks]
        if missing:
            raise _Refuse(
                "ABR-SETUP-5", t("The deal has no rack for {players}.", players=", ".join(missing))
            )
        dealt_racks = [
            _stones(
                racks[p],
                t("{player}'s rack must be a list of stone numbers.", player=p[:1].upper() + p[1:]),
            )
            for p in s["players"]
        ]
        for p, rack in zip(s["players"], dealt_racks):
            if len(rack) != RACK_SIZE:
                raise _Refuse(
                    "ABR-SETUP-5",
                    t(
                        "Each player is dealt {n} stones; {player} has {count}.",
                        n=RACK_SIZE,
                        player=p,
                        count=len(rack),
                    ),
                )
        secret = _stones(a.get("secret"), t("The secret stones must be a list of stone numbers."))
        if len(secret) != SECRET_STONES:
            raise _Refuse(
                "ABR-SETUP-8",
                t("There are {n} secret stones, not {count}.", n=SECRET_STONES, count=len(secret)),
            )
        removed = _stones(
            a.get("removed", []), t("The removed stones must be a list of stone numbers.")
        )
        must_remove = REMOVED_FOR[n]
        if removed and len(removed) != must_remove:
            raise _Refuse(
                "ABR-SETUP-7",
                t(
                    "With {players} players {n} stones are removed face up, not {count}.",
                    players=n,
                    n=must_remove,
                    count=len(removed),
                ),
            )
        used = Counter(removed) + Counter(secret)
        for rack in dealt_racks:
            used.update(rack)
        _check_counts(used)
        s["racks"] = [sorted(r) for r in dealt_racks]
        s["secret"] = list(secret)
        for stone in removed:
            s["removed"][stone - 1] += 1
        # Removed stones that were not observed are still out of play (ABR-SETUP-7): the reserve
        # holds them, unknown, and they are never drawn.
        s["unseen_removed"] = must_remove - len(removed)
        s["reserve"] = _minus(s["reserve"], used)
        s["chance_n"] += 1
        ev.append(_event("dealt", t("Round {round} is dealt.", round=s["round"]), round=s["round"]))
        self._begin_round(s, ev)

    def _deal_stone(self, s: State, a: Action, ev: list[Event]) -> None:
        """One stone tapped at the reader during the deal; it goes where the companion says."""
        self._expect_deal(s)
        stone = _stone(a.get("stone"))
        tag = _tag(a)
        if tag is not None and tag in s["tags"]:
            raise _Refuse("ABR-SETUP-5", t("That stone has already been dealt this round."))
        if stone not in s["reserve"]:
            raise _Refuse(
                "ABR-COMP-1",
                t(
                    "That stone cannot be dealt: every stone of its number "
                    "is already dealt (check the tag registry)."
                ),
            )
        target, seat, index, of = _deal_target(s)
        s["reserve"].remove(stone)
        if target == "rack":
            _insort(s["racks"][seat], stone)
            where = f"rack:{seat}"
            text = t(
                "A stone is dealt to {player} ({index} of {of}).",
                player=s["players"][seat],
                index=index,
                of=of,
            )
        elif target == "removed":
            s["removed"][stone - 1] += 1
            where = "removed"
            text = t(
                "Stone {stone} is removed face up ({index} of {of}).",  # public (ABR-HID-5)
                stone=stone,
                index=index,
                of=of,
            )
        else:
            s["secret"].append(stone)
            where = f"secret:{len(s['secret']) - 1}"
            text = t("A secret stone is placed face down ({index} of {of}).", index=index, of=of)
        if tag is not None:
            s["tags"][tag] = [where, stone]
        s["dealt"] += 1
        s["chance_n"] += 1
        fields: dict[str, Any] = {"to": target, "index": index, "of": of}
        if target == "rack":
            fields["player"] = s["players"][seat]
        if target == "removed":
            fields["stone"] = stone
        ev.append(_event("stone_dealt", text, **fields))
        if _deal_target(s)[0] == "done":
            ev.append(
                _event("dealt", t("Round {round} is dealt.", round=s["round"]), round=s["round"])
            )
            self._begin_round(s, ev)

    def _expect_deal(self, s: State) -> None:
        if s["phase"] == "over":
            raise _Refuse("ABR-GAME-1", t("The game is over."))
        if s["phase"] != "deal":
            raise _Refuse(
                "ABR-ROUND-1",
                t("Stones are dealt only when a round begins; this round is still being played."),
            )

    def _begin_round(self, s: State, ev: list[Event]) -> None:
        s["life"] = [s["options"]["start_life"]] * len(s["players"])  # ABR-NEXT-4
        s["phase"] = "declare"
        s["active"] = s["starter"]
        s["last_cast"] = None
        s["successes"] = 0
        s["dealt"] = 0
        ev.append(
            _event(
                "turn",
                t("{player} begins round {round}.", player=_name(s, s["active"]), round=s["round"]),
                player=_name(s, s["active"]),
                round=s["round"],
            )
        )

    # -- cast --------------------------------------------------------------------------------

    def _cast(self, s: State, a: Action, ev: list[Event]) -> None:
        self._implicit_decline(s, a, ev)
        seat = self._expect_turn(s, a, "declare", "declare a spell")
        spell = a.get("spell")
        if not isinstance(spell, int) or isinstance(spell, bool) or spell not in NUMBERS:
            raise _Refuse("ABR-COMP-1", t("Spells are numbered 1 to 8."))
        who = _name(s, seat)
        ev.append(
            _event(
                "declared",
                t("{player} declares {n} {spell}.", player=who, n=spell, spell=SPELLS[spell]),
                player=who,
                spell=spell,
            )
        )
        last = s["last_cast"]
        if last is not None and spell < last and not s["options"]["easy"]:
            # ABR-CAST-7/-8: no possession check at all, so nothing can hint (ABR-HID-7).
            if s["options"]["order_violation"] == "require_objection":
                s["phase"] = "objection"
                s["pending"] = {"spell": spell}
                return
            self._order_penalty(s, seat, spell, ev)
            return
        self._verify(s, seat, spell, ev)

    def _verify(self, s: State, seat: int, spell: int, ev: list[Event]) -> None:
        """ABR-CAST-1: only the rack counts, never the acquired secret stones (ABR-SPELL-4)."""
        who = _name(s, seat)
        if spell not in s["racks"][seat]:
            ev.append(
                _event(
                    "cast_failed",
                    t(
                        "{player} does not hold {n} {spell}.",
                        player=who,
                        n=spell,
                        spell=SPELLS[spell],
                    ),
                    player=who,
                    spell=spell,
                )
            )
            if spell == 1:  # ABR-CAST-3: the dragon turns on its summoner
                s["phase"] = "roll"
                s["pending"] = {"spell": 1, "for": "failure"}
                return
            self._lose(s, seat, 1, t("failed cast"), ev)  # ABR-CAST-2
            self._end_turn_after_penalty(s, seat, ev)
            return
        remover = self._right(s, seat)
        ev.append(
            _event(
                "cast_succeeded",
                t(
                    "{player} holds {n} {spell}; {remover} removes it.",
                    player=who,
                    n=spell,
                    spell=SPELLS[spell],
                    remover=_name(s, remover),
                ),
                player=who,
                spell=spell,
                remover=_name(s, remover),
            )
        )
        if s["options"]["removal"] == "tap":
            s["phase"] = "remove"
            s["pending"] = {"spell": spell, "remover": remover}
            return
        self._remove_stone(s, seat, spell, None, ev)
        self._start_effect(s, seat, spell, ev)

    def _remove(self, s: State, a: Action, ev: list[Event]) -> None:
        """ABR-CAST-4: the right neighbour lays one stone of the declared number on the board."""
        if s["phase"] != "remove":
            raise _Refuse(
                "ABR-CAST-4",
                t(
                    "No stone is to be removed now: a stone leaves a rack "
                    "only after a successful cast."
                ),
            )
        pending = s["pending"]
        spell, remover, caster = pending["spell"], pending["remover"], s["active"]
        if a.get("player") is not None and _seat(s, a["player"]) != remover:
            raise _Refuse(
                "ABR-CAST-4",
                t(
                    "Only {remover}, on {player}'s right, removes the stone.",
                    remover=_name(s, remover),
                    player=_name(s, caster),
                ),
            )
        stone = _stone(a.get("stone"))
        tag = _tag(a)
        if tag is not None and tag in s["tags"] and s["tags"][tag][1] != stone:
            raise _Refuse(
                MALFORMED, t("That sticker was dealt as another stone; check the tag registry.")
            )
        if tag is not None and tag in s["tags"] and s["tags"][tag][0] != f"rack:{caster}":
            if s["tags"][tag][0].startswith("acquired:"):  # spec 4.3: never counted as the stone
                raise _Refuse(
                    "ABR-SPELL-4",
                    t(
                        "A secret stone taken with {night_singer} is "
                        "never cast; take a {n} from {player}'s rack.",
                        night_singer=SPELLS[4],
                        n=spell,
                        player=_name(s, caster),
                    ),
                )
            raise _Refuse(
                "ABR-CAST-4",
                t(
                    "That stone is not from {player}'s rack; take a {n} from it.",
                    player=_name(s, caster),
                    n=spell,
                ),
            )
        if stone != spell:
            raise _Refuse(
                "ABR-CAST-4",
                t(
                    "That stone is not a {n}; {remover}, take a {n} from {player}'s rack.",
                    n=spell,
                    remover=_name(s, remover),
                    player=_name(s, caster),
                ),
            )
        self._remove_stone(s, caster, spell, tag, ev)
        self._start_effect(s, caster, spell, ev)

    def _remove_stone(
        self, s: State, seat: int, spell: int, tag: str | None, ev: list[Event]
    ) -> None:
        s["racks"][seat].remove(spell)
        s["cast"][spell - 1] += 1
        if tag is None:  # the stone was not tapped: one of that number's tags in the rack moved
            tag = next(
                (
                    uid
                    for uid, (where, n) in sorted(s["tags"].items())
                    if where == f"rack:{seat}" and n == spell
                ),
                None,
            )
        if tag is not None:
            s["tags"][tag] = ["board", spell]
        s["pending"] = None
        ev.append(
            _event(
                "stone_removed",
                t("Stone {n} is laid on the board.", n=spell),
                player=_name(s, seat),
                spell=spell,
            )
        )

    def _start_effect(self, s: State, seat: int, spell: int, ev: list[Event]) -> None:
        """ABR-CAST-5: the effect follows the removal."""
        if not s["racks"][seat] and not s["options"]["resolve_last_effect"]:
            self._round_over(s, "stones_out", seat, ev)  # ABR-AMB-4 with the switch off
            return
        if spell in DIE_SPELLS:
            s["phase"] = "roll"
            s["pending"] = {"spell": spell, "for": "effect"}
            return
        if spell == 4:
            s["phase"] = "secret"
            s["pending"] = {"spell": 4}
            return
        self._effect(s, seat, spell, None, ev)

    def _effect(self, s: State, seat: int, spell: int, roll: int | None, ev: list[Event]) -> None:
        """Section 3: apply all damage of the effect, then the caster's healing (ABR-AMB-17)."""
        if spell == 1:  # ABR-SPELL-1
            for other in self._others(s, seat):
                self._lose(s, other, roll, SPELLS[1], ev)
        elif spell == 2:  # ABR-SPELL-2
            for other in self._others(s, seat):
                self._lose(s, other, 1, SPELLS[2], ev)
            self._gain(s, seat, 1, SPELLS[2], ev)
        elif spell == 3:  # ABR-SPELL-3
            self._gain(s, seat, roll, SPELLS[3], ev)
        elif spell == 5:  # ABR-SPELL-5: with two players the opponent loses 1 in total
            for target in dict.fromkeys((self._right(s, seat), self._left(s, seat))):
                if target != seat:
                    self._lose(s, target, 1, SPELLS[5], ev)
        elif spell == 6:  # ABR-SPELL-6
            self._lose(s, self._left(s, seat), 1, SPELLS[6], ev)
        elif spell == 7:  # ABR-SPELL-7
            self._lose(s, self._right(s, seat), 1, SPELLS[7], ev)
        elif spell == 8:  # ABR-SPELL-8
            self._gain(s, seat, 1, SPELLS[8], ev)
        self._after_success(s, seat, spell, ev)

    def _after_success(self, s: State, seat: int, spell: int, ev: list[Event]) -> None:
        """POST_EFFECT: an empty rack wins first (ABR-ENDT-3, ABR-AMB-4), then knock-outs."""
        s["phase"] = "declare"
        s["pending"] = None
        s["last_cast"] = spell
        s["successes"] += 1
        if not s["racks"][seat]:
            self._round_over(s, "stones_out", seat, ev)
            return
        if self._var2(s):
            if len(self._alive(s)) == 1:
                self._round_over(s, "last_standing", seat, ev)
            return
        if any(life == 0 for life in s["life"]):
            self._round_over(s, "knockout", seat, ev)  # ABR-ROUND-3

    def _order_penalty(self, s: State, seat: int, spell: int, ev: list[Event]) -> None:
        """ABR-CAST-8: 1 life (always exactly 1, ABR-AMB-3), no removal, no effect, no hint."""
        who = _name(s, seat)
        last = s["last_cast"]
        ev.append(
            _event(
                "out_of_order",
                t(
                    "{n} {spell} is lower than the {last_n} {last_spell} "
                    "just cast: {player} loses 1 life and the turn ends.",
                    n=spell,
                    spell=SPELLS[spell],
                    last_n=last,
                    last_spell=SPELLS[last],
                    player=who,
                ),
                player=who,
                spell=spell,
                last=last,
            )
        )
        self._lose(s, seat, 1, t("out-of-order cast"), ev)
        self._end_turn_after_penalty(s, seat, ev)

    def _object(self, s: State, a: Action, ev: list[Event]) -> None:
        """ABR-CAST-8 with ``require_objection``: another player points out the error."""
        seat = self._expect_objector(s, a)
        spell = self._settle_objection(
            s,
            "objection",
            t("{player} points out the out-of-order cast.", player=_name(s, seat)),
            seat,
            ev,
        )
        self._order_penalty(s, s["active"], spell, ev)

    def _allow(self, s: State, a: Action, ev: list[Event]) -> None:
        """Nobody objects to an out-of-order cast: it is verified like any other (ABR-AMB-3)."""
        seat = self._expect_objector(s, a)
        spell = self._settle_objection(
            s, "no_objection", t("{player} lets the cast stand.", player=_name(s, seat)), seat, ev
        )
        self._verify(s, s["active"], spell, ev)

    def _settle_objection(self, s: State, kind: str, text: Text, seat: int, ev: list[Event]) -> int:
        """Close the objection window (``seat`` settled it, ``text`` says how); returns the spell
        that was declared."""
        ev.append(_event(kind, text, player=_name(s, seat)))
        spell = s["pending"]["spell"]
        s["phase"] = "declare"
        s["pending"] = None
        return spell

    def _expect_objector(self, s: State, a: Action) -> int:
        if s["phase"] != "objection":
            raise _Refuse("ABR-CAST-8", t("There is no out-of-order cast to object to."))
        seat = _seat(s, _player(a))
        if seat == s["active"]:
            raise _Refuse(
                "ABR-CAST-8",
                t("The caster cannot object to his own cast; another player points out the error."),
            )
        return seat

    # -- die ---------------------------------------------------------------------------------

    def _roll(self, s: State, a: Action, ev: list[Event]) -> None:
        if s["phase"] != "roll":
            raise _Refuse(
                "ABR-SPELL-1",
                t(
                    "No die roll is expected now: the die is rolled only "
                    "for {dragon}, {dreams}, or a failed {dragon}.",
                    dragon=SPELLS[1],
                    dreams=SPELLS[3],
                ),
            )
        value = a.get("value")
        faces = s["options"]["die_faces"]
        if type(value) is not int or value not in faces:  # 3.0 or True are not faces
            raise _Refuse(
                "ABR-AMB-1",
                t(
                    "The die has no face {value}; its faces are {faces}.",
                    value=repr(value),
                    faces=", ".join(map(str, faces)),
                ),
            )
        seat = s["active"]
        if a.get("player") is not None and _seat(s, a["player"]) != seat:
            raise _Refuse("ABR-TURN-1", t("{player} rolls the die.", player=_name(s, seat)))
        s["chance_n"] += 1
        pending = s["pending"]
        s["pending"] = None
        ev.append(
            _event(
                "rolled",
                t("{player} rolls {value}.", player=_name(s, seat), value=value),
                player=_name(s, seat),
                value=value,
            )
        )
        if pending["for"] == "failure":  # ABR-CAST-3
            self._lose(s, seat, value, t("failed {spell}", spell=SPELLS[1]), ev)
            s["phase"] = "declare"
            self._end_turn_after_penalty(s, seat, ev)
            return
        self._effect(s, seat, pending["spell"], value, ev)

    # -- Night Singer ------------------------------------------------------------------------

    def _take_secret(self, s: State, a: Action, ev: list[Event]) -> None:
        """ABR-SPELL-4: look at one secret stone and keep it face down (ABR-HID-3)."""
        seat = self._expect_secret(s, a)
        tag = _tag(a)
        slot = a.get("slot")
        if slot is None and tag is not None:
            where = s["tags"].get(tag, [""])[0]
            if not where.startswith("secret:"):
                raise _Refuse("ABR-SPELL-4", t("That stone is not one of the secret stones."))
            slot = int(where.split(":")[1])
        if not isinstance(slot, int) or isinstance(slot, bool):
            raise _Refuse(MALFORMED, t("Say which secret stone to take: slot 0 to 3."))
        if not 0 <= slot < len(s["secret"]) or s["secret"][slot] is None:
            free = [i for i, x in enumerate(s["secret"]) if x is not None]
            raise _Refuse(
                "ABR-SPELL-4",
                t(
                    "There is no secret stone in slot {slot}; the slots "
                    "still holding one are {slots}.",
                    slot=slot,
                    slots=", ".join(map(str, free)),
                ),
            )
        stone = s["secret"][slot]
        s["secret"][slot] = None
        s["acquired"][seat].append(stone)
        for uid, (where, n) in s["tags"].items():
            if where == f"secret:{slot}":
                s["tags"][uid] = [f"acquired:{seat}", n]
        who = _name(s, seat)
        ev.append(
            _event(
                "secret_taken",
                t("{player} takes the secret stone in slot {slot}.", player=who, slot=slot),
                player=who,
                slot=slot,
                private={"stone": stone},
                audience=[who],
            )
        )
        self._after_success(s, seat, 4, ev)

    def _decline_secret(self, s: State, a: Action, ev: list[Event]) -> None:
        """ABR-AMB-10: looking at a secret stone is optional."""
        seat = self._expect_secret(s, a)
        ev.append(
            _event(
                "secret_declined",
                t("{player} leaves the secret stones alone.", player=_name(s, seat)),
                player=_name(s, seat),
            )
        )
        self._after_success(s, seat, 4, ev)

    def _implicit_decline(self, s: State, a: Action, ev: list[Event]) -> None:
        """ABR-AMB-10: the caster who goes on after Night Singer has chosen not to look."""
        if s["phase"] == "secret" and a.get("player") == _name(s, s["active"]):
            self._decline_secret(s, {"player": a["player"]}, ev)

    def _expect_secret(self, s: State, a: Action) -> int:
        if s["phase"] != "secret":
            raise _Refuse(
                "ABR-HID-2",
                t(
                    "Secret stones stay face down; only a successful "
                    "{night_singer} lets the caster take one.",
                    night_singer=SPELLS[4],
                ),
            )
        return self._expect_turn(s, a, "secret", "take a secret stone")

    # -- end of the turn ---------------------------------------------------------------------

    def _end_turn(self, s: State, a: Action, ev: list[Event]) -> None:
        self._implicit_decline(s, a, ev)
        seat = self._expect_turn(s, a, "declare", "end the turn")
        if s["successes"] < 1:
            raise _Refuse(
                "ABR-ENDT-1",
                t("A turn can be ended only after a successful cast; declare a spell."),
            )
        ev.append(
            _event(
                "turn_ended",
                t("{player} ends the turn.", player=_name(s, seat)),
                player=_name(s, seat),
            )
        )
        self._finish_turn(s, seat, ev)

    def _end_turn_after_penalty(self, s: State, seat: int, ev: list[Event]) -> None:
        """ABR-ENDT-2: a failure ends the turn; a lost last life ends the round instead."""
        if s["life"][seat] == 0:
            if self._var2(s):
                alive = self._alive(s)
                if len(alive) == 1:
                    self._round_over(s, "last_standing", alive[0], ev)
                    return
            else:
                self._round_over(s, "self_knockout", seat, ev)  # ABR-ROUND-4
                return
        self._finish_turn(s, seat, ev)

    def _finish_turn(self, s: State, seat: int, ev: list[Event]) -> None:
        """ABR-ENDT-4..6: refill to five from the reserve if it has stones, then pass left."""
        s["phase"] = "refill"
        s["pending"] = None
        s["refill_left"] = 0
        if s["life"][seat] > 0:  # an eliminated wizard's rack is out of play (ABR-AMB-14)
            s["refill_left"] = min(RACK_SIZE - len(s["racks"][seat]), _reserve_size(s))
        if s["refill_left"] == 0:
            self._pass_turn(s, ev)

    def _refill(self, s: State, a: Action, ev: list[Event]) -> None:
        if s["phase"] != "refill":
            raise _Refuse("ABR-ENDT-4", t("Racks are refilled only at the end of a turn."))
        seat = s["active"]
        if a.get("player") is not None and _seat(s, a["player"]) != seat:
            raise _Refuse(
                "ABR-ENDT-4",
                t("It is {player}'s rack that is refilled now.", player=_name(s, seat)),
            )
        raw = a.get("stones", [a["stone"]] if "stone" in a else None)
        stones = _stones(raw, t("The refill must be a list of stone numbers."))
        if not stones:
            raise _Refuse(MALFORMED, t("A refill names the stones drawn."))
        if len(stones) > s["refill_left"]:
            raise _Refuse(
                "ABR-ENDT-4",
                t(
                    "{player} draws back to {n} stones: {left} more, not {count}.",
                    player=_name(s, seat),
                    n=RACK_SIZE,
                    left=s["refill_left"],
                    count=len(stones),
                ),
            )
        tag = _tag(a)
        if tag is not None and len(stones) != 1:
            raise _Refuse(
                MALFORMED, t("A tag identifies one stone; refill tagged stones one by one.")
            )
        if tag is not None and tag in s["tags"]:
            raise _Refuse(
                "ABR-ENDT-5", t("That stone is already in play this round; draw from the reserve.")
            )
        try:
            s["reserve"] = _minus(s["reserve"], Counter(stones))
        except _Refuse:
            raise _Refuse(
                "ABR-ENDT-5",
                t(
                    "Those stones are not in the reserve: secret stones and "
                    "cast stones are never reused."
                ),
            ) from None
        for stone in stones:
            _insort(s["racks"][seat], stone)
        if tag is not None:
            s["tags"][tag] = [f"rack:{seat}", stones[0]]
        s["refill_left"] -= len(stones)
        s["chance_n"] += 1
        if len(stones) > 1:
            text = t("{player} draws {n} stones.", player=_name(s, seat), n=len(stones))
        else:
            text = t("{player} draws 1 stone.", player=_name(s, seat))
        ev.append(_event("refilled", text, player=_name(s, seat), count=len(stones)))
        if s["refill_left"] == 0:
            self._pass_turn(s, ev)

    def _pass_turn(self, s: State, ev: list[Event]) -> None:
        s["active"] = self._left(s, s["active"])  # ABR-ENDT-6
        s["phase"] = "declare"
        s["last_cast"] = None
        s["successes"] = 0
        s["refill_left"] = 0
        ev.append(
            _event(
                "turn",
                t("It is {player}'s turn.", player=_name(s, s["active"])),
                player=_name(s, s["active"]),
            )
        )

    # -- end of the round and of the game ----------------------------------------------------

    def _round_over(self, s: State, kind: str, seat: int, ev: list[Event]) -> None:
        """ABR-ROUND-*, ABR-SCORE-*, then ABR-GAME-* or the next round (ABR-NEXT-*)."""
        n = len(s["players"])
        life = s["life"]
        var2 = self._var2(s)
        if kind == "stones_out":  # ABR-ROUND-2: everybody else drops to 0
            for other in range(n):
                if other != seat:
                    life[other] = 0
        winner = None if kind == "self_knockout" else seat
        losers = [i for i in range(n) if life[i] == 0 and i != winner]
        gained = [0] * n
        for i in range(n):
            bonus = len(s["acquired"][i]) if life[i] >= 1 else 0  # ABR-SCORE-6
            if i == winner:
                gained[i] = (2 if var2 else 3) + bonus  # ABR-SCORE-2..4, ABR-VAR-2
            elif life[i] == 0 or var2:
                gained[i] = 0
            else:
                gained[i] = 1 + bonus  # ABR-SCORE-4, ABR-SCORE-5
        for i in range(n):
            s["score"][i] += gained[i]
        s["gained"] = gained
        names = s["players"]
        s["last_round"] = {
            "round": s["round"],
            "end": kind,
            "winner": None if winner is None else names[winner],
            "losers": [names[i] for i in losers],
            "gained": {names[i]: gained[i] for i in range(n)},
            "bonus": {names[i]: len(s["acquired"][i]) if life[i] >= 1 else 0 for i in range(n)},
            "life": {names[i]: life[i] for i in range(n)},
        }
        who = _name(s, seat)
        if kind == "stones_out":
            text = t("{player} has cast every stone and wins the round.", player=who)
        elif kind == "knockout":
            text = t(
                "{player} knocks out {losers} and wins the round.",
                player=who,
                losers=", ".join(names[i] for i in losers),
            )
        elif kind == "self_knockout":
            text = t("{player} loses the last life: nobody wins the round.", player=who)
        else:
            text = t("{player} is the last wizard standing and wins the round.", player=who)
        ev.append(
            _event(
                "round_over",
                text,
                round=s["round"],
                end=kind,
                winner=s["last_round"]["winner"],
                losers=s["last_round"]["losers"],
                gained=s["last_round"]["gained"],
            )
        )
        ended_by = s["active"]
        s["pending"] = None
        s["refill_left"] = 0
        if max(s["score"]) >= WINNING_SCORE:  # ABR-GAME-1, ABR-AMB-7
            s["phase"] = "over"
            s["winners"] = [names[i] for i in self._game_winners(s)]
            if len(s["winners"]) == 1:
                text = t("{player} wins the game.", player=s["winners"][0])
            else:
                text = t("{players} win the game.", players=_and(s["winners"]))
            ev.append(_event("game_over", text, winners=s["winners"]))
            return
        # ABR-NEXT-1..5: the stones are collected and the next round is dealt.
        s["round"] += 1
        s["starter"] = (ended_by + 1) % n
        s["active"] = s["starter"]
        s["phase"] = "deal"
        s["last_cast"] = None
        s["successes"] = 0
        _clear_stones(s)

    @staticmethod
    def _game_winners(s: State) -> list[int]:
        """ABR-GAME-2: most points gained in the last round, then most life, then shared."""
        at_goal = [i for i, score in enumerate(s["score"]) if score >= WINNING_SCORE]
        best = max(at_goal, key=lambda i: (s["gained"][i], s["life"][i]))
        key = (s["gained"][best], s["life"][best])
        return [i for i in at_goal if (s["gained"][i], s["life"][i]) == key]

    # -- life --------------------------------------------------------------------------------

    def _lose(self, s: State, seat: int, amount: int, cause: Text, ev: list[Event]) -> None:
        """``cause``: what took the life, a spell's name or ``t("failed cast")`` and the like
        (the event's ``cause`` field keeps its English)."""
        before = s["life"][seat]
        after = max(0, before - amount)  # ABR-LIFE-5, ABR-AMB-17
        s["life"][seat] = after
        who, lost = _name(s, seat), before - after
        if lost == 1:
            text = t("{player} loses 1 life ({cause}).", player=who, cause=cause)
        else:
            text = t("{player} loses {n} life ({cause}).", player=who, n=lost, cause=cause)
        ev.append(
            _event("life", text, player=who, delta=after - before, life=after, cause=str(cause))
        )
        if after == 0 < before and self._var2(s):  # ABR-AMB-14: out of the round, not the game
            ev.append(
                _event("eliminated", t("{player} is out of the round.", player=who), player=who)
            )

    def _gain(self, s: State, seat: int, amount: int, cause: Text, ev: list[Event]) -> None:
        before = s["life"][seat]
        after = min(s["options"]["life_cap"], before + amount)  # ABR-LIFE-4
        s["life"][seat] = after
        who, gained = _name(s, seat), after - before
        if gained == 1:
            text = t("{player} gains 1 life ({cause}).", player=who, cause=cause)
        else:
            text = t("{player} gains {n} life ({cause}).", player=who, n=gained, cause=cause)
        ev.append(
            _event("life", text, player=who, delta=after - before, life=after, cause=str(cause))
        )

    # -- seats -------------------------------------------------------------------------------

    def _var2(self, s: State) -> bool:
        return s["options"]["last_wizard_standing"]

    def _alive(self, s: State) -> list[int]:
        return [i for i, life in enumerate(s["life"]) if life > 0]

    def _step(self, s: State, seat: int, direction: int) -> int:
        """The nearest seat in a direction; with ABR-VAR-2 only surviving wizards (ABR-AMB-14)."""
        n = len(s["players"])
        other = (seat + direction) % n
        if self._var2(s):
            while other != seat and s["life"][other] == 0:
                other = (other + direction) % n
        return other

    def _left(self, s: State, seat: int) -> int:
        return self._step(s, seat, +1)

    def _right(self, s: State, seat: int) -> int:
        return self._step(s, seat, -1)

    def _others(self, s: State, seat: int) -> list[int]:
        return [i for i in range(len(s["players"])) if i != seat and s["life"][i] > 0]

    def _expect_turn(self, s: State, a: Action, phase: str, what: str) -> int:
        """The seat of the active player making ``a`` in ``phase``; ``what`` the action wants:
        ``declare a spell``, ``take a secret stone`` or ``end the turn``."""
        seat = _seat(s, _player(a))
        if s["phase"] == "over":  # spec 4.3: no cast input after the game (ABR-ROUND-1)
            raise _Refuse("ABR-ROUND-1", t("The game is over."))
        if s["phase"] == "deal":
            raise _Refuse(
                "ABR-SETUP-5", t("The round has not begun: the stones are still being dealt.")
            )
        if seat != s["active"]:
            who = _name(s, s["active"])
            if what == "declare a spell":
                reason = t(
                    "It is {player}'s turn; only the active player can declare a spell.", player=who
                )
            elif what == "take a secret stone":
                reason = t(
                    "It is {player}'s turn; only the active player can take a secret stone.",
                    player=who,
                )
            else:
                reason = t(
                    "It is {player}'s turn; only the active player can end the turn.", player=who
                )
            raise _Refuse("ABR-TURN-1", reason)
        if s["phase"] != phase:
            raise _Refuse(*self._waiting_for(s))
        return seat

    def _waiting_for(self, s: State) -> tuple[str, Text]:
        """The rule and sentence for "something else must happen first"."""
        phase, pending = s["phase"], s["pending"]
        who = _name(s, s["active"])
        if phase == "roll":
            rule = "ABR-CAST-3" if pending["for"] == "failure" else f"ABR-SPELL-{pending['spell']}"
            return rule, t("{player} must roll the die first.", player=who)
        if phase == "remove":
            return "ABR-CAST-4", t(
                "{remover} must first remove the {n} from {player}'s rack.",
                remover=_name(s, pending["remover"]),
                n=pending["spell"],
                player=who,
            )
        if phase == "secret":
            return "ABR-SPELL-4", t(
                "{player} must first take a secret stone or leave them.", player=who
            )
        if phase == "objection":
            return "ABR-CAST-8", t(
                "The other players must first object to the cast or let it stand."
            )
        if phase == "refill":
            return "ABR-ENDT-4", t(
                "{player} must first draw stones back to {n}.", player=who, n=RACK_SIZE
            )
        return "ABR-TURN-1", t("It is {player}'s turn to declare a spell.", player=who)

    _handlers = {
        "deal": _deal,
        "deal_stone": _deal_stone,
        "cast": _cast,
        "remove": _remove,
        "roll": _roll,
        "take_secret": _take_secret,
        "decline_secret": _decline_secret,
        "object": _object,
        "allow": _allow,
        "end_turn": _end_turn,
        "refill": _refill,
    }

    # ------------------------------------------------------------------------------------------
    # Choices and chance

    def legal_actions(self, state: State) -> list[Action]:
        s = state
        phase = s["phase"]
        if self.chance(s) is not None or phase == "over":
            return []
        active = _name(s, s["active"])
        if phase == "declare":
            actions: list[Action] = [
                {"type": "cast", "player": active, "spell": n} for n in NUMBERS
            ]
            if s["successes"] >= 1:
                actions.append({"type": "end_turn", "player": active})
            return actions
        if phase == "remove":
            return [{"type": "remove", "stone": s["pending"]["spell"]}]
        if phase == "secret":
            return [
                {"type": "take_secret", "player": active, "slot": i}
                for i, x in enumerate(s["secret"])
                if x is not None
            ] + [{"type": "decline_secret", "player": active}]
        if phase == "objection":
            return [
                {"type": kind, "player": p}
                for p in s["players"]
                if p != active
                for kind in ("object", "allow")
            ]
        return []

    def chance(self, state: State) -> Chance | None:
        s = state
        phase = s["phase"]
        if phase == "deal":
            return Chance("deal", "ABR-SETUP-5")
        if phase == "roll":
            rule = (
                "ABR-CAST-3"
                if s["pending"]["for"] == "failure"
                else f"ABR-SPELL-{s['pending']['spell']}"
            )
            faces = tuple(s["options"]["die_faces"])
            return Chance(
                "die",
                rule,
                player=_name(s, s["active"]),
                profile="d6" if faces == (1, 2, 3, 4, 5, 6) else "custom",
                faces=faces,
            )
        if phase == "refill":
            return Chance("draw", "ABR-ENDT-4", player=_name(s, s["active"]))
        return None

    def sample(self, state: State) -> Action:
        s = state
        rng = random.Random(f"{s['seed']}/{s['chance_n']}")
        kind = self.chance(s)
        if kind is None:
            raise ValueError("the game is not waiting for chance")
        if kind.kind == "die":
            return {"type": "roll", "value": rng.choice(s["options"]["die_faces"])}
        if kind.kind == "draw":
            return {
                "type": "refill",
                "player": kind.player,
                "stones": sorted(rng.sample(s["reserve"], s["refill_left"])),
            }
        if s["dealt"]:
            return {"type": "deal_stone", "stone": rng.choice(s["reserve"])}
        pool = list(STONE_SET)
        rng.shuffle(pool)
        racks = {}
        for p in s["players"]:
            racks[p], pool = sorted(pool[:RACK_SIZE]), pool[RACK_SIZE:]
        k = REMOVED_FOR[len(s["players"])]
        return {
            "type": "deal",
            "racks": racks,
            "removed": sorted(pool[:k]),
            "secret": pool[k : k + SECRET_STONES],
        }

    # ------------------------------------------------------------------------------------------
    # Views

    def view(self, state: State, viewer: str) -> dict[str, Any]:
        """ABR-HID-*: a player never sees his own rack, the reserve or untaken secret stones, and
        sees only the secret stones he took himself; the table display and the host see no rack."""
        s = state
        names = s["players"]
        if viewer not in (TABLE, HOST, EVERYTHING) and viewer not in names:
            raise ValueError(f"unknown viewer {viewer!r}")
        everything = viewer == EVERYTHING
        players = {}
        for i, name in enumerate(names):
            sees_rack = everything or (viewer in names and viewer != name)
            sees_secret = everything or viewer == name
            players[name] = {
                "seat": i,
                "life": s["life"][i],
                "score": s["score"][i],
                "rack": list(s["racks"][i]) if sees_rack else None,
                "rack_size": len(s["racks"][i]),
                "secret_stones": len(s["acquired"][i]),
                "secret": list(s["acquired"][i]) if sees_secret else None,
            }
        phase = s["phase"]
        active = _name(s, s["active"])
        pending = s["pending"]
        public_pending = None
        if pending is not None:
            public_pending = {"spell": pending["spell"]}
            if "remover" in pending:
                public_pending["remover"] = _name(s, pending["remover"])
            if "for" in pending:
                public_pending["for"] = pending["for"]
        v: dict[str, Any] = {
            "game": self.id,
            "viewer": viewer,
            "round": s["round"],
            "phase": phase,
            "active": active,
            "starter": _name(s, s["starter"]),
            "finished": phase == "over",
            "winners": list(s["winners"]),
            "players": players,
            "order": list(names),
            "last_cast": s["last_cast"],
            "successes": s["successes"],
            "pending": public_pending,
            "board": {"cast": list(s["cast"]), "removed": list(s["removed"])},
            "reserve_size": _reserve_size(s),
            "secret_slots": [x is not None for x in s["secret"]],
            "refill_left": s["refill_left"],
            "deal": None,
            "last_round": s["last_round"],
            "options": dict(s["options"]),
            "waiting_for": self._waiting_names(s),
            "prompt": self._prompt(s),
        }
        if phase == "deal":
            target, seat, index, of = _deal_target(s)
            v["deal"] = {
                "to": target,
                "player": None if seat is None else _name(s, seat),
                "index": index,
                "of": of,
                "dealt": s["dealt"],
                "total": _deal_total(s),
            }
        if everything:
            v["reserve"] = list(s["reserve"])
            v["secret"] = list(s["secret"])
            v["unseen_removed"] = s["unseen_removed"]
            v["tags"] = {uid: list(w) for uid, w in s["tags"].items()}
        return v

    def _waiting_names(self, s: State) -> list[str]:
        phase = s["phase"]
        if phase in ("over", "deal"):
            return []
        if phase == "remove":
            return [_name(s, s["pending"]["remover"])]
        if phase == "objection":
            return [p for i, p in enumerate(s["players"]) if i != s["active"]]
        return [_name(s, s["active"])]

    def _prompt(self, s: State) -> Text:
        """What the table is waiting for, in one public sentence."""
        phase, pending = s["phase"], s["pending"]
        who = _name(s, s["active"])
        if phase == "over":
            return t("The game is over: {players} won.", players=_and(s["winners"]))
        if phase == "deal":
            target, seat, index, of = _deal_target(s)
            if target == "rack":
                return t(
                    "Tap a stone for {player}'s rack ({index} of {of}).",
                    player=_name(s, seat),
                    index=index,
                    of=of,
                )
            if target == "removed":
                return t("Tap a stone to remove face up ({index} of {of}).", index=index, of=of)
            return t(
                "Tap a secret stone and lay it face down ({index} of {of}).", index=index, of=of
            )
        if phase == "declare":
            if s["successes"]:
                return t(
                    "{player}: cast {n} or higher, or end the turn.", player=who, n=s["last_cast"]
                )
            return t("{player}: declare a spell.", player=who)
        if phase == "objection":
            return t("{player} declared a lower spell: object, or let it stand.", player=who)
        if phase == "remove":
            return t(
                "{remover}: take a {n} from {player}'s rack and tap it on the reader.",
                remover=_name(s, pending["remover"]),
                n=pending["spell"],
                player=who,
            )
        if phase == "roll":
            return t("{player}: roll the die.", player=who)
        if phase == "secret":
            return t("{player}: take a secret stone, or leave them.", player=who)
        n = s["refill_left"]
        if n > 1:
            return t("{player}: draw {n} stones from the reserve and tap them.", player=who, n=n)
        return t("{player}: draw {n} stone from the reserve and tap them.", player=who, n=n)

    def indistinguishable(self, state: State, viewer: str, rng: random.Random) -> State:
        """ABR-HID-1..4: ``state`` with the stones ``viewer`` may not see dealt anew.

        The viewer's own rack (every rack, for the table display and the host), the reserve, the
        secret stones still face down and the other players' acquired secret stones are pooled,
        shuffled and dealt back into the same places with the same sizes, so the 36-stone
        accounting holds. The stone being removed after a successful cast stays in the caster's
        rack (everyone saw the cast succeed); the stickers' recorded places follow their stones
        where a stone of that number is still in a hidden place (otherwise the sticker is back in
        the reserve, untapped)."""
        s = _copy_state(state)
        names = s["players"]
        if viewer == EVERYTHING:
            return s
        if viewer not in (TABLE, HOST) and viewer not in names:
            raise ValueError(f"unknown viewer {viewer!r}")
        seats = range(len(names))
        racks = [i for i in seats if viewer not in names or names[i] == viewer]
        acquired = [i for i in seats if names[i] != viewer]
        held = {i: list(s["racks"][i]) for i in racks}
        known = None  # (seat, stone): a stone the viewer knows is in a hidden rack
        if s["phase"] == "remove" and s["active"] in held:
            known = (s["active"], s["pending"]["spell"])
            held[known[0]].remove(known[1])
        pool = (
            list(s["reserve"])
            + [x for i in racks for x in held[i]]
            + [x for i in acquired for x in s["acquired"][i]]
            + [x for x in s["secret"] if x is not None]
        )
        rng.shuffle(pool)
        take = iter(pool)
        s["reserve"] = sorted(next(take) for _ in s["reserve"])
        for i in racks:
            s["racks"][i] = sorted(
                [next(take) for _ in held[i]] + ([known[1]] if known and known[0] == i else [])
            )
        for i in acquired:
            s["acquired"][i] = [next(take) for _ in s["acquired"][i]]
        s["secret"] = [None if x is None else next(take) for x in s["secret"]]
        hidden = (
            [f"rack:{i}" for i in racks]
            + [f"acquired:{i}" for i in acquired]
            + [f"secret:{j}" for j in range(len(s["secret"]))]
        )
        s["tags"] = _follow_tags(s, state["tags"], hidden, rng)
        return s

    def outcome(self, state: State) -> Outcome:
        return Outcome(
            finished=state["phase"] == "over",
            winners=tuple(state["winners"]),
            scores=dict(zip(state["players"], state["score"])),
        )


# ----------------------------------------------------------------------------------------------
# Helpers over the state


def _clear_stones(s: State) -> None:
    """ABR-NEXT-1: every stone back in the box, ready to be dealt."""
    n = len(s["players"])
    s["racks"] = [[] for _ in range(n)]
    s["reserve"] = list(STONE_SET)
    s["unseen_removed"] = 0
    s["secret"] = []
    s["acquired"] = [[] for _ in range(n)]
    s["cast"] = [0] * 8
    s["removed"] = [0] * 8
    s["dealt"] = 0
    s["refill_left"] = 0
    s["tags"] = {}


def _copy_state(s: State) -> State:
    c = dict(s)
    for key in ("life", "score", "gained", "reserve", "secret", "cast", "removed", "winners"):
        c[key] = list(s[key])
    c["racks"] = [list(r) for r in s["racks"]]
    c["acquired"] = [list(r) for r in s["acquired"]]
    if s["tags"]:
        c["tags"] = dict(s["tags"])
    else:
        c["tags"] = {}
    return c


def _follow_tags(
    s: State, tags: dict[str, list], hidden: list[str], rng: random.Random
) -> dict[str, list]:
    """The stickers' places after the stones in the ``hidden`` places were dealt anew: a sticker
    stays where a stone of its number still is, or moves to another hidden place holding one;
    with none left, its stone is in the reserve, untapped, and the sticker is forgotten."""
    free: Counter = Counter()
    for where in hidden:
        kind, i = where.split(":")
        stones = (
            [s["secret"][int(i)]]
            if kind == "secret"
            else s["racks" if kind == "rack" else "acquired"][int(i)]
        )
        free.update((where, n) for n in stones if n is not None)
    out: dict[str, list] = {}
    moving = []
    for uid, (where, n) in sorted(tags.items()):
        if where not in hidden:
            out[uid] = [where, n]
        elif free[(where, n)] > 0:
            free[(where, n)] -= 1
            out[uid] = [where, n]
        else:
            moving.append((uid, n))
    for uid, n in moving:
        spots = sorted(w for (w, m), left in free.items() if m == n and left > 0)
        if spots:
            where = rng.choice(spots)
            free[(where, n)] -= 1
            out[uid] = [where, n]
    return out


def _deal_total(s: State) -> int:
    n = len(s["players"])
    return RACK_SIZE * n + REMOVED_FOR[n] + SECRET_STONES


def _deal_target(s: State) -> tuple[str, int | None, int, int]:
    """Where the next tapped stone goes: (``rack``/``removed``/``secret``/``done``, seat, i, of).

    Racks first, five stones to each player clockwise from the round's first player; then the
    stones removed face up (ABR-SETUP-7); then the four secret stones (ABR-SETUP-8)."""
    n = len(s["players"])
    i = s["dealt"]
    if i < RACK_SIZE * n:
        seat = (s["starter"] + i // RACK_SIZE) % n
        return "rack", seat, i % RACK_SIZE + 1, RACK_SIZE
    i -= RACK_SIZE * n
    if i < REMOVED_FOR[n]:
        return "removed", None, i + 1, REMOVED_FOR[n]
    i -= REMOVED_FOR[n]
    if i < SECRET_STONES:
        return "secret", None, i + 1, SECRET_STONES
    return "done", None, 0, 0


def _reserve_size(s: State) -> int:
    return len(s["reserve"]) - s["unseen_removed"]


def _minus(pool: list[int], used: Counter) -> list[int]:
    have = Counter(pool)
    if any(have[k] < v for k, v in used.items()):
        raise _Refuse("ABR-COMP-1", t("There are not that many stones of that number."))
    return sorted((have - used).elements())


def _check_counts(used: Counter) -> None:
    for stone, count in used.items():
        if count > stone:
            raise _Refuse(
                "ABR-COMP-1",
                t("There are only {n} stones of spell {n}, not {count}.", n=stone, count=count),
            )


def _insort(rack: list[int], stone: int) -> None:
    rack.append(stone)
    rack.sort()


def _stone(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value not in NUMBERS:
        raise _Refuse("ABR-COMP-1", t("Stones are numbered 1 to 8."))
    return value


def _stones(value: Any, refusal: Text) -> list[int]:
    """``value``'s stone numbers; ``refusal``: the reason given when it is not a list."""
    if not isinstance(value, list):
        raise _Refuse(MALFORMED, refusal)
    return [_stone(v) for v in value]


def _tag(a: Action) -> str | None:
    tag = a.get("tag")
    if tag is None:
        return None
    if not isinstance(tag, str) or not tag:
        raise _Refuse(MALFORMED, t("A tag is a non-empty string."))
    return tag
