"""The eight spells: their names, each one's effect once its stone is laid on the board (section 3
of the spec), what follows a success, and Night Singer's secret stone."""

from __future__ import annotations

from companion.i18n import t
from companion.rules.api import MALFORMED, Action, Event, State
from companion.rules.common import Refuse, event, name_of

from .rounds import gain, lose, round_over
from .seats import alive, expect_turn, last_wizard_standing, left, others, right
from .stones import tag_of

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
DIE_SPELLS = (1, 3)  # spells whose effect needs the die (ABR-SPELL-1, ABR-SPELL-3)


def spell_name(spell: int) -> str:
    """A spell's number and name, e.g. "3 Sweet Dreams" (English; sentences name a spell through
    their own ``{n} {spell}`` placeholders, so that they translate)."""
    return f"{spell} {SPELLS[spell]}"


def start_effect(state: State, seat: int, spell: int, events: list[Event]) -> None:
    """ABR-CAST-5: the effect follows the removal."""
    if not state["racks"][seat] and not state["options"]["resolve_last_effect"]:
        round_over(state, "stones_out", seat, events)  # ABR-AMB-4 with the switch off
        return
    if spell in DIE_SPELLS:
        state["phase"] = "roll"
        state["pending"] = {"spell": spell, "for": "effect"}
        return
    if spell == 4:
        state["phase"] = "secret"
        state["pending"] = {"spell": 4}
        return
    effect(state, seat, spell, None, events)


def effect(state: State, seat: int, spell: int, roll: int | None, events: list[Event]) -> None:
    """Section 3: apply all damage of the effect, then the caster's healing (ABR-AMB-17)."""
    if spell == 1:  # ABR-SPELL-1
        for other in others(state, seat):
            lose(state, other, roll, SPELLS[1], events)
    elif spell == 2:  # ABR-SPELL-2
        for other in others(state, seat):
            lose(state, other, 1, SPELLS[2], events)
        gain(state, seat, 1, SPELLS[2], events)
    elif spell == 3:  # ABR-SPELL-3
        gain(state, seat, roll, SPELLS[3], events)
    elif spell == 5:  # ABR-SPELL-5: with two players the opponent loses 1 in total
        for target in dict.fromkeys((right(state, seat), left(state, seat))):
            if target != seat:
                lose(state, target, 1, SPELLS[5], events)
    elif spell == 6:  # ABR-SPELL-6
        lose(state, left(state, seat), 1, SPELLS[6], events)
    elif spell == 7:  # ABR-SPELL-7
        lose(state, right(state, seat), 1, SPELLS[7], events)
    elif spell == 8:  # ABR-SPELL-8
        gain(state, seat, 1, SPELLS[8], events)
    after_success(state, seat, spell, events)


def after_success(state: State, seat: int, spell: int, events: list[Event]) -> None:
    """POST_EFFECT: an empty rack wins first (ABR-ENDT-3, ABR-AMB-4), then knock-outs."""
    state["phase"] = "declare"
    state["pending"] = None
    state["last_cast"] = spell
    state["successes"] += 1
    if not state["racks"][seat]:
        round_over(state, "stones_out", seat, events)
        return
    if last_wizard_standing(state):
        if len(alive(state)) == 1:
            round_over(state, "last_standing", seat, events)
        return
    if any(life == 0 for life in state["life"]):
        round_over(state, "knockout", seat, events)  # ABR-ROUND-3


# -- Night Singer ----------------------------------------------------------------------------------


def take_secret(state: State, action: Action, events: list[Event]) -> None:
    """ABR-SPELL-4: look at one secret stone and keep it face down (ABR-HID-3)."""
    seat = expect_secret(state, action)
    tag = tag_of(action)
    slot = action.get("slot")
    if slot is None and tag is not None:
        where = state["tags"].get(tag, [""])[0]
        if not where.startswith("secret:"):
            raise Refuse("ABR-SPELL-4", t("That stone is not one of the secret stones."))
        slot = int(where.split(":")[1])
    if not isinstance(slot, int) or isinstance(slot, bool):
        raise Refuse(MALFORMED, t("Say which secret stone to take: slot 0 to 3."))
    if not 0 <= slot < len(state["secret"]) or state["secret"][slot] is None:
        free = [index for index, stone in enumerate(state["secret"]) if stone is not None]
        raise Refuse(
            "ABR-SPELL-4",
            t(
                "There is no secret stone in slot {slot}; the slots still holding one are {slots}.",
                slot=slot,
                slots=", ".join(map(str, free)),
            ),
        )
    stone = state["secret"][slot]
    state["secret"][slot] = None
    state["acquired"][seat].append(stone)
    for uid, (where, number) in state["tags"].items():
        if where == f"secret:{slot}":
            state["tags"][uid] = [f"acquired:{seat}", number]
    who = name_of(state, seat)
    events.append(
        event(
            "secret_taken",
            t("{player} takes the secret stone in slot {slot}.", player=who, slot=slot),
            player=who,
            slot=slot,
            private={"stone": stone},
            audience=[who],
        )
    )
    after_success(state, seat, 4, events)


def decline_secret(state: State, action: Action, events: list[Event]) -> None:
    """ABR-AMB-10: looking at a secret stone is optional."""
    seat = expect_secret(state, action)
    events.append(
        event(
            "secret_declined",
            t("{player} leaves the secret stones alone.", player=name_of(state, seat)),
            player=name_of(state, seat),
        )
    )
    after_success(state, seat, 4, events)


def implicit_decline(state: State, action: Action, events: list[Event]) -> None:
    """ABR-AMB-10: the caster who goes on after Night Singer has chosen not to look."""
    if state["phase"] == "secret" and action.get("player") == name_of(state, state["active"]):
        decline_secret(state, {"player": action["player"]}, events)


def expect_secret(state: State, action: Action) -> int:
    if state["phase"] != "secret":
        raise Refuse(
            "ABR-HID-2",
            t(
                "Secret stones stay face down; only a successful "
                "{night_singer} lets the caster take one.",
                night_singer=SPELLS[4],
            ),
        )
    return expect_turn(state, action, "secret", "take a secret stone")
