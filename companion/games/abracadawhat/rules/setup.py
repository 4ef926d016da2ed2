"""Setting up: the options, a new game's state, and the deal of every round, observed whole or
stone by stone as the stones are tapped at the reader (ABR-SETUP-*)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.i18n import t
from companion.rules.api import MALFORMED, Action, Event, Option, SetupError, State
from companion.rules.common import Refuse, event, name_of, seat_of

from .stones import (
    RACK_SIZE,
    REMOVED_FOR,
    SECRET_STONES,
    check_counts,
    clear_stones,
    deal_target,
    insort,
    minus,
    stone_of,
    stones_of,
    tag_of,
)

OPTIONS = (
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


def check_option_values(options: dict[str, Any]) -> None:
    if options["life_cap"] < 1 or not 1 <= options["start_life"] <= options["life_cap"]:
        raise SetupError(
            t("The life at the start (start_life) must be from 1 to the most life (life_cap).")
        )
    faces = options["die_faces"]
    if any(not isinstance(face, int) or isinstance(face, bool) or face < 0 for face in faces):
        raise SetupError(t("The die's faces (die_faces) must be whole numbers, 0 or more."))


def new_state(game: str, names: list[str], options: dict[str, Any], seed: int) -> State:
    """A new game of ``game`` (its id) for the players ``names``, waiting for the first deal."""
    count = len(names)
    state: State = {
        "game": game,
        "players": names,
        "options": options,
        "seed": int(seed),
        "chance_n": 0,
        "round": 1,
        "phase": "deal",
        "starter": 0,  # ABR-SETUP-10: the first player listed (the oldest) starts
        "active": 0,
        "last_cast": None,
        "successes": 0,
        "pending": None,
        "life": [options["start_life"]] * count,  # ABR-SETUP-4, ABR-AMB-2
        "score": [0] * count,  # ABR-SETUP-3
        "gained": [0] * count,
        "last_round": None,
        "winners": [],
    }
    clear_stones(state)
    return state


def deal(state: State, action: Action, events: list[Event]) -> None:
    """The observed deal of a whole round: racks, the removed stones and the secret stones."""
    expect_deal(state)
    if state["dealt"]:
        raise Refuse(
            "ABR-SETUP-5",
            t(
                "The deal is already under way stone by stone; "
                "finish it by tapping the remaining stones."
            ),
        )
    count = len(state["players"])
    racks = action.get("racks")
    if not isinstance(racks, dict):
        raise Refuse(MALFORMED, t("A deal needs racks: each player's five stones."))
    for name in racks:
        seat_of(state, name)
    missing = [player for player in state["players"] if player not in racks]
    if missing:
        raise Refuse(
            "ABR-SETUP-5", t("The deal has no rack for {players}.", players=", ".join(missing))
        )
    dealt_racks = [
        stones_of(
            racks[player],
            t(
                "{player}'s rack must be a list of stone numbers.",
                player=player[:1].upper() + player[1:],
            ),
        )
        for player in state["players"]
    ]
    for player, rack in zip(state["players"], dealt_racks):
        if len(rack) != RACK_SIZE:
            raise Refuse(
                "ABR-SETUP-5",
                t(
                    "Each player is dealt {n} stones; {player} has {count}.",
                    n=RACK_SIZE,
                    player=player,
                    count=len(rack),
                ),
            )
    secret = stones_of(
        action.get("secret"), t("The secret stones must be a list of stone numbers.")
    )
    if len(secret) != SECRET_STONES:
        raise Refuse(
            "ABR-SETUP-8",
            t("There are {n} secret stones, not {count}.", n=SECRET_STONES, count=len(secret)),
        )
    removed = stones_of(
        action.get("removed", []), t("The removed stones must be a list of stone numbers.")
    )
    must_remove = REMOVED_FOR[count]
    if removed and len(removed) != must_remove:
        raise Refuse(
            "ABR-SETUP-7",
            t(
                "With {players} players {n} stones are removed face up, not {count}.",
                players=count,
                n=must_remove,
                count=len(removed),
            ),
        )
    used = Counter(removed) + Counter(secret)
    for rack in dealt_racks:
        used.update(rack)
    check_counts(used)
    state["racks"] = [sorted(rack) for rack in dealt_racks]
    state["secret"] = list(secret)
    for stone in removed:
        state["removed"][stone - 1] += 1
    # Removed stones that were not observed are still out of play (ABR-SETUP-7): the reserve
    # holds them, unknown, and they are never drawn.
    state["unseen_removed"] = must_remove - len(removed)
    state["reserve"] = minus(state["reserve"], used)
    state["chance_n"] += 1
    events.append(
        event("dealt", t("Round {round} is dealt.", round=state["round"]), round=state["round"])
    )
    begin_round(state, events)


def deal_stone(state: State, action: Action, events: list[Event]) -> None:
    """One stone tapped at the reader during the deal; it goes where the companion says."""
    expect_deal(state)
    stone = stone_of(action.get("stone"))
    tag = tag_of(action)
    if tag is not None and tag in state["tags"]:
        raise Refuse("ABR-SETUP-5", t("That stone has already been dealt this round."))
    if stone not in state["reserve"]:
        raise Refuse(
            "ABR-COMP-1",
            t(
                "That stone cannot be dealt: every stone of its number "
                "is already dealt (check the tag registry)."
            ),
        )
    target, seat, index, of = deal_target(state)
    state["reserve"].remove(stone)
    if target == "rack":
        insort(state["racks"][seat], stone)
        where = f"rack:{seat}"
        text = t(
            "A stone is dealt to {player} ({index} of {of}).",
            player=state["players"][seat],
            index=index,
            of=of,
        )
    elif target == "removed":
        state["removed"][stone - 1] += 1
        where = "removed"
        text = t(
            "Stone {stone} is removed face up ({index} of {of}).",  # public (ABR-HID-5)
            stone=stone,
            index=index,
            of=of,
        )
    else:
        state["secret"].append(stone)
        where = f"secret:{len(state['secret']) - 1}"
        text = t("A secret stone is placed face down ({index} of {of}).", index=index, of=of)
    if tag is not None:
        state["tags"][tag] = [where, stone]
    state["dealt"] += 1
    state["chance_n"] += 1
    fields: dict[str, Any] = {"to": target, "index": index, "of": of}
    if target == "rack":
        fields["player"] = state["players"][seat]
    if target == "removed":
        fields["stone"] = stone
    events.append(event("stone_dealt", text, **fields))
    if deal_target(state)[0] == "done":
        events.append(
            event("dealt", t("Round {round} is dealt.", round=state["round"]), round=state["round"])
        )
        begin_round(state, events)


def expect_deal(state: State) -> None:
    if state["phase"] == "over":
        raise Refuse("ABR-GAME-1", t("The game is over."))
    if state["phase"] != "deal":
        raise Refuse(
            "ABR-ROUND-1",
            t("Stones are dealt only when a round begins; this round is still being played."),
        )


def begin_round(state: State, events: list[Event]) -> None:
    state["life"] = [state["options"]["start_life"]] * len(state["players"])  # ABR-NEXT-4
    state["phase"] = "declare"
    state["active"] = state["starter"]
    state["last_cast"] = None
    state["successes"] = 0
    state["dealt"] = 0
    who = name_of(state, state["active"])
    events.append(
        event(
            "turn",
            t("{player} begins round {round}.", player=who, round=state["round"]),
            player=who,
            round=state["round"],
        )
    )
