"""Casting a spell: the declaration and its check against the rack (ABR-CAST-*), the out-of-order
penalty and the objection window (ABR-AMB-3), the right neighbour's removal of the stone, and the
die rolled for a spell's effect or a failed Ancient Dragon."""

from __future__ import annotations

from companion.i18n import Text, t
from companion.rules.api import MALFORMED, Action, Event, State
from companion.rules.common import Refuse, event, name_of, player_of, seat_of

from .rounds import lose
from .seats import expect_turn, right
from .spells import SPELLS, effect, implicit_decline, start_effect
from .stones import NUMBERS, stone_of, tag_of
from .turns import end_turn_after_penalty


def cast(state: State, action: Action, events: list[Event]) -> None:
    implicit_decline(state, action, events)
    seat = expect_turn(state, action, "declare", "declare a spell")
    spell = action.get("spell")
    if not isinstance(spell, int) or isinstance(spell, bool) or spell not in NUMBERS:
        raise Refuse("ABR-COMP-1", t("Spells are numbered 1 to 8."))
    who = name_of(state, seat)
    events.append(
        event(
            "declared",
            t("{player} declares {n} {spell}.", player=who, n=spell, spell=SPELLS[spell]),
            player=who,
            spell=spell,
        )
    )
    last = state["last_cast"]
    if last is not None and spell < last and not state["options"]["easy"]:
        # ABR-CAST-7/-8: no possession check at all, so nothing can hint (ABR-HID-7).
        if state["options"]["order_violation"] == "require_objection":
            state["phase"] = "objection"
            state["pending"] = {"spell": spell}
            return
        order_penalty(state, seat, spell, events)
        return
    verify(state, seat, spell, events)


def verify(state: State, seat: int, spell: int, events: list[Event]) -> None:
    """ABR-CAST-1: only the rack counts, never the acquired secret stones (ABR-SPELL-4)."""
    who = name_of(state, seat)
    if spell not in state["racks"][seat]:
        events.append(
            event(
                "cast_failed",
                t(
                    "{player} does not hold {n} {spell}.",
                    player=who,
                    n=spell,
                    spell=SPELLS[spell],
                ),
                player=who,
                spell=spell,
                rule="ABR-CAST-3" if spell == 1 else "ABR-CAST-2",
            )
        )
        if spell == 1:  # ABR-CAST-3: the dragon turns on its summoner
            state["phase"] = "roll"
            state["pending"] = {"spell": 1, "for": "failure"}
            return
        lose(state, seat, 1, t("failed cast"), events)  # ABR-CAST-2
        end_turn_after_penalty(state, seat, events)
        return
    remover = right(state, seat)
    events.append(
        event(
            "cast_succeeded",
            t(
                "{player} holds {n} {spell}; {remover} removes it.",
                player=who,
                n=spell,
                spell=SPELLS[spell],
                remover=name_of(state, remover),
            ),
            player=who,
            spell=spell,
            remover=name_of(state, remover),
        )
    )
    if state["options"]["removal"] == "tap":
        state["phase"] = "remove"
        state["pending"] = {"spell": spell, "remover": remover}
        return
    remove_stone(state, seat, spell, None, events)
    start_effect(state, seat, spell, events)


def remove(state: State, action: Action, events: list[Event]) -> None:
    """ABR-CAST-4: the right neighbour lays one stone of the declared number on the board."""
    if state["phase"] != "remove":
        raise Refuse(
            "ABR-CAST-4",
            t("No stone is to be removed now: a stone leaves a rack only after a successful cast."),
        )
    pending = state["pending"]
    spell, remover, caster = pending["spell"], pending["remover"], state["active"]
    if action.get("player") is not None and seat_of(state, action["player"]) != remover:
        raise Refuse(
            "ABR-CAST-4",
            t(
                "Only {remover}, on {player}'s right, removes the stone.",
                remover=name_of(state, remover),
                player=name_of(state, caster),
            ),
        )
    stone = stone_of(action.get("stone"))
    tag = tag_of(action)
    tags = state["tags"]
    if tag is not None and tag in tags and tags[tag][1] != stone:
        raise Refuse(
            MALFORMED, t("That sticker was dealt as another stone; check the tag registry.")
        )
    if tag is not None and tag in tags and tags[tag][0] != f"rack:{caster}":
        if tags[tag][0].startswith("acquired:"):  # spec 4.3: never counted as the stone
            raise Refuse(
                "ABR-SPELL-4",
                t(
                    "A secret stone taken with {night_singer} is "
                    "never cast; take a {n} from {player}'s rack.",
                    night_singer=SPELLS[4],
                    n=spell,
                    player=name_of(state, caster),
                ),
            )
        raise Refuse(
            "ABR-CAST-4",
            t(
                "That stone is not from {player}'s rack; take a {n} from it.",
                player=name_of(state, caster),
                n=spell,
            ),
        )
    if stone != spell:
        raise Refuse(
            "ABR-CAST-4",
            t(
                "That stone is not a {n}; {remover}, take a {n} from {player}'s rack.",
                n=spell,
                remover=name_of(state, remover),
                player=name_of(state, caster),
            ),
        )
    remove_stone(state, caster, spell, tag, events)
    start_effect(state, caster, spell, events)


def remove_stone(state: State, seat: int, spell: int, tag: str | None, events: list[Event]) -> None:
    state["racks"][seat].remove(spell)
    state["cast"][spell - 1] += 1
    if tag is None:  # the stone was not tapped: one of that number's tags in the rack moved
        tag = next(
            (
                uid
                for uid, (where, number) in sorted(state["tags"].items())
                if where == f"rack:{seat}" and number == spell
            ),
            None,
        )
    if tag is not None:
        state["tags"][tag] = ["board", spell]
    state["pending"] = None
    events.append(
        event(
            "stone_removed",
            t("Stone {n} is laid on the board.", n=spell),
            player=name_of(state, seat),
            spell=spell,
        )
    )


def order_penalty(state: State, seat: int, spell: int, events: list[Event]) -> None:
    """ABR-CAST-8: 1 life (always exactly 1, ABR-AMB-3), no removal, no effect, no hint."""
    who = name_of(state, seat)
    last = state["last_cast"]
    events.append(
        event(
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
            rule="ABR-CAST-8",
        )
    )
    lose(state, seat, 1, t("out-of-order cast"), events)
    end_turn_after_penalty(state, seat, events)


def object_to_cast(state: State, action: Action, events: list[Event]) -> None:
    """ABR-CAST-8 with ``require_objection``: another player points out the error."""
    seat = expect_objector(state, action)
    spell = settle_objection(
        state,
        "objection",
        t("{player} points out the out-of-order cast.", player=name_of(state, seat)),
        seat,
        events,
    )
    order_penalty(state, state["active"], spell, events)


def allow_cast(state: State, action: Action, events: list[Event]) -> None:
    """Nobody objects to an out-of-order cast: it is verified like any other (ABR-AMB-3)."""
    seat = expect_objector(state, action)
    spell = settle_objection(
        state,
        "no_objection",
        t("{player} lets the cast stand.", player=name_of(state, seat)),
        seat,
        events,
    )
    verify(state, state["active"], spell, events)


def settle_objection(state: State, kind: str, text: Text, seat: int, events: list[Event]) -> int:
    """Close the objection window (``seat`` settled it, ``text`` says how); returns the spell
    that was declared."""
    events.append(event(kind, text, player=name_of(state, seat)))
    spell = state["pending"]["spell"]
    state["phase"] = "declare"
    state["pending"] = None
    return spell


def expect_objector(state: State, action: Action) -> int:
    if state["phase"] != "objection":
        raise Refuse("ABR-CAST-8", t("There is no out-of-order cast to object to."))
    seat = seat_of(state, player_of(action))
    if seat == state["active"]:
        raise Refuse(
            "ABR-CAST-8",
            t("The caster cannot object to his own cast; another player points out the error."),
        )
    return seat


def roll(state: State, action: Action, events: list[Event]) -> None:
    if state["phase"] != "roll":
        raise Refuse(
            "ABR-SPELL-1",
            t(
                "No die roll is expected now: the die is rolled only "
                "for {dragon}, {dreams}, or a failed {dragon}.",
                dragon=SPELLS[1],
                dreams=SPELLS[3],
            ),
        )
    value = action.get("value")
    faces = state["options"]["die_faces"]
    if type(value) is not int or value not in faces:  # 3.0 or True are not faces
        raise Refuse(
            "ABR-AMB-1",
            t(
                "The die has no face {value}; its faces are {faces}.",
                value=repr(value),
                faces=", ".join(map(str, faces)),
            ),
        )
    seat = state["active"]
    if action.get("player") is not None and seat_of(state, action["player"]) != seat:
        raise Refuse("ABR-TURN-1", t("{player} rolls the die.", player=name_of(state, seat)))
    state["chance_n"] += 1
    pending = state["pending"]
    state["pending"] = None
    events.append(
        event(
            "rolled",
            t("{player} rolls {value}.", player=name_of(state, seat), value=value),
            player=name_of(state, seat),
            value=value,
        )
    )
    if pending["for"] == "failure":  # ABR-CAST-3
        lose(state, seat, value, t("failed {spell}", spell=SPELLS[1]), events)
        state["phase"] = "declare"
        end_turn_after_penalty(state, seat, events)
        return
    effect(state, seat, pending["spell"], value, events)
