"""The 36 stones and where they are: the box's numbers, the state's copy and reset, the order of
the deal, the reserve, and the stone numbers and stickers an action names."""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.i18n import Text, t
from companion.rules.api import MALFORMED, Action, State
from companion.rules.common import Refuse

NUMBERS = range(1, 9)
STONE_SET = tuple(
    number for number in NUMBERS for copy in range(number)
)  # ABR-COMP-1: n stones of spell n, 36 in all
RACK_SIZE = 5  # ABR-SETUP-5, ABR-ENDT-4
SECRET_STONES = 4  # ABR-SETUP-8
REMOVED_FOR = {2: 12, 3: 6, 4: 0, 5: 0}  # ABR-SETUP-7
WINNING_SCORE = 8  # ABR-SCORE-1, ABR-GAME-1


def clear_stones(state: State) -> None:
    """ABR-NEXT-1: every stone back in the box, ready to be dealt."""
    count = len(state["players"])
    state["racks"] = [[] for seat in range(count)]
    state["reserve"] = list(STONE_SET)
    state["unseen_removed"] = 0
    state["secret"] = []
    state["acquired"] = [[] for seat in range(count)]
    state["cast"] = [0] * 8
    state["removed"] = [0] * 8
    state["dealt"] = 0
    state["refill_left"] = 0
    state["tags"] = {}


def copy_state(state: State) -> State:
    """A copy of ``state`` that an action can change without touching ``state``."""
    copied = dict(state)
    for key in ("life", "score", "gained", "reserve", "secret", "cast", "removed", "winners"):
        copied[key] = list(state[key])
    copied["racks"] = [list(rack) for rack in state["racks"]]
    copied["acquired"] = [list(rack) for rack in state["acquired"]]
    if state["tags"]:
        copied["tags"] = dict(state["tags"])
    else:
        copied["tags"] = {}
    return copied


def deal_total(state: State) -> int:
    count = len(state["players"])
    return RACK_SIZE * count + REMOVED_FOR[count] + SECRET_STONES


def deal_target(state: State) -> tuple[str, int | None, int, int]:
    """Where the next tapped stone goes: (``rack``/``removed``/``secret``/``done``, seat, i, of).

    Racks first, five stones to each player clockwise from the round's first player; then the
    stones removed face up (ABR-SETUP-7); then the four secret stones (ABR-SETUP-8)."""
    count = len(state["players"])
    index = state["dealt"]
    if index < RACK_SIZE * count:
        seat = (state["starter"] + index // RACK_SIZE) % count
        return "rack", seat, index % RACK_SIZE + 1, RACK_SIZE
    index -= RACK_SIZE * count
    if index < REMOVED_FOR[count]:
        return "removed", None, index + 1, REMOVED_FOR[count]
    index -= REMOVED_FOR[count]
    if index < SECRET_STONES:
        return "secret", None, index + 1, SECRET_STONES
    return "done", None, 0, 0


def reserve_size(state: State) -> int:
    return len(state["reserve"]) - state["unseen_removed"]


def minus(pool: list[int], used: Counter) -> list[int]:
    have = Counter(pool)
    if any(have[stone] < count for stone, count in used.items()):
        raise Refuse("ABR-COMP-1", t("There are not that many stones of that number."))
    return sorted((have - used).elements())


def check_counts(used: Counter) -> None:
    for stone, count in used.items():
        if count > stone:
            raise Refuse(
                "ABR-COMP-1",
                t("There are only {n} stones of spell {n}, not {count}.", n=stone, count=count),
            )


def insort(rack: list[int], stone: int) -> None:
    rack.append(stone)
    rack.sort()


def stone_of(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value not in NUMBERS:
        raise Refuse("ABR-COMP-1", t("Stones are numbered 1 to 8."))
    return value


def stones_of(value: Any, refusal: Text) -> list[int]:
    """``value``'s stone numbers; ``refusal``: the reason given when it is not a list."""
    if not isinstance(value, list):
        raise Refuse(MALFORMED, refusal)
    return [stone_of(item) for item in value]


def tag_of(action: Action) -> str | None:
    tag = action.get("tag")
    if tag is None:
        return None
    if not isinstance(tag, str) or not tag:
        raise Refuse(MALFORMED, t("A tag is a non-empty string."))
    return tag
