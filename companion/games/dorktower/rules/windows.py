"""When a scroll may be played and by whom (DT-AMB-27, DT-COMBAT-2, DT-COMBAT-4, DT-COMBAT-8,
DT-WIZ-4, DT-WIZ-5), the fight's scroll windows, and the countdown that closes the rivals' ones.

A scroll's data say ``when`` (``before_roll``, ``after_roll``, ``movement`` or ``any``) and ``by``
(``fighter``, ``rivals`` or ``anyone``); its effect says the moment it acts in. A fight has four
scroll windows, each a phase:

``scrolls_own``     before the roll, the fighter's (he closes it with ``done``)
``scrolls_others``  before the roll, the rivals' (DT-COMBAT-4)
``scrolls_after``   after a winning roll, the rivals' (DT-COMBAT-8, DT-WIZ-4)
``defeat``          after a failed roll, the fighter's (DT-DEFEAT-2, DT-WIZ-5)

The rivals' windows close when every rival holding a scroll has passed (how many scrolls each
holds is public, DT-AMB-30), or when the table's countdown ends (``close_window``). Nothing about
them depends on which scrolls anyone holds, so neither their opening nor their length tells
anything of a hand.
"""

from __future__ import annotations

from typing import Any

from companion.rules.api import State

from .board import other_seats
from .data.pieces import EFFECT_MOMENT

#: each fight window: the moment it is in and who plays in it
WINDOWS = {
    "scrolls_own": ("before_roll", "fighter"),
    "scrolls_others": ("before_roll", "rivals"),
    "scrolls_after": ("after_roll", "rivals"),
    "defeat": ("after_roll", "fighter"),
}
#: the windows the rivals play in, closed by their passes or by the countdown
RIVAL_WINDOWS = ("scrolls_others", "scrolls_after")
DEFAULT_SECONDS = 8


def moment_of(scroll: dict[str, Any]) -> str:
    """The moment a scroll's effect acts in: before_roll, after_roll or movement."""
    return EFFECT_MOMENT[next(iter(scroll["effect"]))]


def fits(scroll: dict[str, Any], moment: str, role: str) -> bool:
    """Whether ``scroll`` may be played at ``moment`` by a player in ``role`` (fighter or
    rivals; for movement, the moving hero is the "fighter")."""
    return (
        moment_of(scroll) == moment
        and scroll["when"] in (moment, "any")
        and scroll["by"] in (role, "anyone")
    )


def fits_window(scroll: dict[str, Any], phase: str) -> bool:
    """Whether ``scroll`` may be played in the fight window ``phase`` (by whoever plays there)."""
    window = WINDOWS.get(phase)
    return window is not None and fits(scroll, *window)


def rivals_answer_rolls(data: dict[str, Any]) -> bool:
    """Whether the data set has any scroll the rivals may play after a roll."""
    return any(fits(scroll, "after_roll", "rivals") for scroll in data["scrolls"].values())


def rivals_holding(state: State) -> list[int]:
    """The rivals of the fighter who hold at least one scroll (a public count, DT-AMB-30)."""
    return [
        seat for seat in other_seats(state, state["active"]) if state["heroes"][seat]["scrolls"]
    ]


def after_window_opens(data: dict[str, Any], state: State) -> bool:
    """A winning roll opens the rivals' after-roll window when the data set has scrolls for it,
    a rival holds a scroll, and a die was rolled (dice bought as sixes are not rolled)."""
    combat = state["combat"]
    return (
        rivals_answer_rolls(data)
        and any(not die["six"] for die in combat["dice"])
        and bool(rivals_holding(state))
    )


def all_passed(state: State) -> bool:
    """Every rival holding a scroll has passed in the open rivals' window."""
    passed = state["combat"]["passed"]
    return all(seat in passed for seat in rivals_holding(state))


def deadline(state: State) -> dict[str, Any] | None:
    """The countdown of an open rivals' window, from public facts only: the phase, the turn, the
    rolls made and the scrolls played (a scroll played restarts it; a pass does not). None when
    no such window is open or the game waits for every pass (``scroll_window_seconds`` 0)."""
    combat = state["combat"]
    seconds = state["options"].get("scroll_window_seconds", DEFAULT_SECONDS)
    if not seconds or combat is None or state["phase"] not in RIVAL_WINDOWS:
        return None
    key = f"{state['phase']}/{state['turn']}/{combat['rolls']}/{len(combat['played'])}"
    return {"key": key, "seconds": seconds, "action": {"type": "close_window"}}
