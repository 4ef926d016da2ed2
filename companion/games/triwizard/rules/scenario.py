"""An arranged start (the ``scenario`` option, docs/replay.md): the set-up, the deal and the
first player are skipped and the table starts as arranged. Keys (all optional):

``pieces``   {player: space}          ``cloak``    player | None
``hedge``    space                    ``hands``    {player: [battle card ids]} (drawn from the pile)
``tiles``    {player: [tile ids]}     ``lineup``   [obstacle id | {"card", "up"} | None] * 4
``cups``     {slot: identity}  (face up)          ``active``  player (default: the first seat)
``uncleared`` [players]

Hands not given are empty, so the first turn starts with its refill draws (TW-TURN-1)."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.rules.api import SetupError, State

from .numbers import CUP_TILES, HAND, LINEUP, SLOTS, TILE_LIMIT

KEYS = ("pieces", "cloak", "hedge", "hands", "tiles", "lineup", "cups", "active", "uncleared")


def _seat(state: State, name: Any) -> int:
    if name not in state["players"]:
        raise SetupError(t("scenario: nobody called {name} is playing", name=repr(name)))
    return state["players"].index(name)


def _take(pile: list[str], item: Any, what: str) -> None:
    if item not in pile:
        raise SetupError(t("scenario: {item} is not a free {what}", item=repr(item), what=what))
    pile.remove(item)


def _label(place: Any) -> str:
    """A declared maze's place (``path``, ``cup:2``, ``headstone:1`` ...)."""
    from companion.rules.common import Refuse

    from .declared import label

    kind, _colon, number = str(place).partition(":")
    try:
        return label({"end": kind, "slot": number, "number": number})
    except Refuse as refused:
        raise SetupError(t("scenario: {place} is no place", place=repr(place))) from refused


def arrange(data: dict[str, Any], state: State, scenario: dict[str, Any]) -> None:
    unknown = sorted(set(scenario) - set(KEYS))
    if unknown:
        raise SetupError(t("scenario: unknown keys {keys}", keys=", ".join(unknown)))
    spaces = data["board"]["spaces"]
    labels = state["options"].get("maze") == "declared"
    for name, space in dict(scenario.get("pieces", {})).items():
        if labels:
            state["pieces"][_seat(state, name)] = _label(space)
            continue
        if space not in spaces or spaces[space]["kind"] != "path":
            raise SetupError(t("scenario: {space} is not a Path space", space=repr(space)))
        state["pieces"][_seat(state, name)] = space
    if scenario.get("cloak") is not None:
        state["cloak"] = _seat(state, scenario["cloak"])
    if "hedge" in scenario:
        if scenario["hedge"] not in spaces:
            raise SetupError(
                t("scenario: {space} is not a Path space", space=repr(scenario["hedge"]))
            )
        state["hedge"] = scenario["hedge"]
    for name, cards in dict(scenario.get("hands", {})).items():
        seat = _seat(state, name)
        if not isinstance(cards, list) or len(cards) > HAND:
            raise SetupError(t("scenario: a hand holds at most 4 Battle Cards"))
        for card in cards:
            _take(state["battle_pile"]["deck"], card, "Battle Card")
        state["hands"][seat] = list(cards)
    for name, tiles in dict(scenario.get("tiles", {})).items():
        seat = _seat(state, name)
        if not isinstance(tiles, list) or len(tiles) > TILE_LIMIT:
            raise SetupError(t("scenario: a player holds at most 6 Resource Tiles"))
        for tile in tiles:
            _take(state["tile_pile"]["deck"], tile, "Resource Tile")
        state["tiles"][seat] = list(tiles)
    pile = state["obstacle_pile"]
    lineup = scenario.get("lineup")
    if lineup is None:
        lineup = sorted(pile["deck"])[:LINEUP]
    if not isinstance(lineup, list) or len(lineup) != LINEUP:
        raise SetupError(t("scenario: the Lineup has 4 positions"))
    for index, card in enumerate(lineup):
        up = True
        if isinstance(card, dict):  # {"card": id, "up": false}: a defeated card, face down
            card, up = card.get("card"), bool(card.get("up", True))
        if card is None:
            pile["lineup"][index] = {"card": None, "up": False}
            continue
        _take(pile["deck"], card, "Obstacle Card")
        pile["lineup"][index] = {"card": card, "up": up}
    for slot, tile in dict(scenario.get("cups", {})).items():
        if slot not in SLOTS or tile not in CUP_TILES or tile in state["cups"].values():
            raise SetupError(
                t("scenario: Cup Tile {slot} cannot be {tile}", slot=repr(slot), tile=repr(tile))
            )
        state["cups"][slot] = tile
    state["uncleared"] = [_seat(state, name) for name in scenario.get("uncleared", [])]
    first = _seat(state, scenario["active"]) if "active" in scenario else 0
    from .turns import start_turn

    state["first"] = first
    start_turn(state, first)
