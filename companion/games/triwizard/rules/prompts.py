"""What the table waits for, in one public sentence (the prompt every refusal ends with), and
who it waits for. Only public facts: never a hand, a tile's kind or a peeked Cup Tile; the
Dumbledore window reads the same whatever the target holds."""

from __future__ import annotations

from typing import Any

from companion.i18n import Text, t
from companion.rules.api import State

from .chance import awaited
from .state import interrupt, right_of

_ASK: Any = object()  # no awaited step given: ask ``awaited``


def prompt(data: dict[str, Any], state: State, step: Any = _ASK) -> Text:
    """The public sentence; ``step`` is ``awaited(state)`` when the caller has it already."""
    names = state["players"]
    phase = state["phase"]
    if phase == "over":
        return t(
            "The game is over: {player} found the Triwizard Cup.", player=names[state["winner"]]
        )
    current = interrupt(state)
    if current is not None:
        who = names[current["player"]]
        kind = current["kind"]
        if kind == "overflow":
            return t("{player}: discard Resource Tiles down to 6.", player=who)
        if kind == "dumbledore":
            return t(
                "{player}: answer Albus Dumbledore (cancel it with your own, or let it stand).",
                player=who,
            )
        if kind == "veritaserum":
            return t(
                "{player}: take one of {target}'s Resource Tiles.",
                player=who,
                target=names[current["target"]],
            )
        return t(
            "{player}: choose where the piece goes ({spaces}).",
            player=who,
            spaces=", ".join(current["options"]),
        )
    if phase == "setup":
        return t(
            "Put every piece on the Entrance, the Cup Tiles face down and the Wandering Hedge in the centre, then confirm."
        )
    if step is _ASK:
        step = awaited(state)
    if step is not None and state["pending"]:
        return _chance_prompt(state, step)
    if phase == "first_player":
        return t("Who shouted a Hogwarts spell first? That player starts.")
    who = names[state["active"]]
    if phase == "open":
        if state["active"] in state["uncleared"] and state["cloak"] != state["active"]:
            return t(
                "{player}: battle the obstacle your piece stands on (or swap the hand).", player=who
            )
        return t(
            "{player}: roll the die to move (or swap the hand, or play a tile first).", player=who
        )
    if phase == "cloak_place":
        return t("{player}: put the Cloak on a piece.", player=who)
    if phase == "removal_place":
        return t("{player}: put the Cloak beside the board or on another piece.", player=who)
    if phase == "moving":
        return t("{player}: move up to {n} spaces.", player=who, n=state["turn_state"]["allowance"])
    if phase == "battle_select":
        return t(
            "{player}: play a Battle Card of a matching colour, or show that none matches.",
            player=who,
        )
    if phase == "battle_short":
        return t("{player}: play the Double Die, or accept the loss.", player=who)
    if phase == "advance":
        card = state["fight"]["card"]
        n = data["battle"][card]["movement"] if data and card else 0
        return t("{player}: move forward up to {n} spaces.", player=who, n=n)
    if phase == "push_back":
        from .battles import push_limit

        n = push_limit(data, state) if data else 0
        return t(
            "{pusher}: move {player}'s piece back up to {n} spaces.",
            pusher=names[right_of(state, state["active"])],
            player=who,
            n=n,
        )
    return t("{player}: play a tile or end the turn.", player=who)


def _chance_prompt(state: State, step: dict[str, Any]) -> Text:
    who = step.get("player")
    kind = step["kind"]
    if kind == "die":
        return t("{player}: roll the die.", player=who)
    left = step.get("left", 1)
    if kind == "card":
        if left > 1:
            return t("{player}: draw {n} Battle Cards.", player=who, n=left)
        return t("{player}: draw a Battle Card.", player=who)
    if kind == "tile":
        if left > 1:
            return t("{player}: draw {n} Resource Tiles.", player=who, n=left)
        return t("{player}: draw a Resource Tile.", player=who)
    if kind == "obstacle":
        return t("Lay the next Obstacle Card face up in the Lineup.")
    if kind == "cup":
        return t("Flip the Cup Tile on space {slot} for everyone to see.", slot=step["slot"])
    if kind == "peek":
        return t(
            "{player}: look at the Cup Tile on space {slot} in secret.",
            player=who,
            slot=step["slot"],
        )
    return t(
        "{player}: draw one of {other}'s Resource Tiles blind.", player=who, other=step["from"]
    )


def waiting_names(state: State, step: Any = _ASK) -> list[str]:
    """Who the table waits for now, by name; ``step`` is ``awaited(state)`` when the caller has
    it already."""
    names = state["players"]
    if state["phase"] == "over":
        return []
    current = interrupt(state)
    if current is not None:
        return [names[current["player"]]]
    if step is _ASK:
        step = awaited(state)
    if step is not None and step.get("player"):
        return [step["player"]]
    if state["phase"] in ("setup", "first_player"):
        return list(names) if state["tie"] is None else []
    if state["phase"] == "push_back":
        return [names[right_of(state, state["active"])]]
    if step is not None:
        return []
    return [names[state["active"]]]
