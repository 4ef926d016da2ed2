"""An undone action in words, for the table's undo: what it was (``describe``) and, where the
table's steps (``putting_back``) move nothing, what goes back by hand (``put_back``). Public
sentences: a drawn card or tile and a peeked Cup Tile are never named."""

from __future__ import annotations

from companion.i18n import Text, t
from companion.rules.api import Action, State


def _actor(state: State, action: Action) -> str | None:
    who = action.get("player")
    if isinstance(who, str):
        return who
    active = state.get("active")
    return state["players"][active] if isinstance(active, int) else None


def describe(state: State, action: Action) -> Text | None:
    kind = action.get("type")
    who = _actor(state, action)
    if kind == "roll":
        if not isinstance(action.get("player"), str):
            return t("the roll of {value}", value=action.get("value"))
        return t("{player}'s roll of {value}", player=who, value=action.get("value"))
    if kind == "close_window":
        return t("the end of Albus Dumbledore's counter window")
    if kind == "reveal_obstacle":
        return t("laying out an Obstacle Card")
    if kind == "flip_cup":
        return t("flipping Cup Tile {slot}", slot=action.get("slot"))
    if kind == "tie":
        return t("the tie for the first turn")
    if who is None:
        return None
    words = {
        "placed": t("{player} confirming the set-up", player=who),
        "first": t("{player} starting", player=who),
        "draw_card": t("{player} drawing a Battle Card", player=who),
        "draw_tile": t("{player} drawing a Resource Tile", player=who),
        "peek": t("{player} looking at a Cup Tile", player=who),
        "steal": t("{player} drawing a tile blind", player=who),
        "swap_hand": t("{player} swapping the hand", player=who),
        "remove_cloak": t("{player} trying to take off the Cloak", player=who),
        "place_cloak": t("{player} placing the Cloak", player=who),
        "move": t("{player}'s move", player=who),
        "battle": t("{player} battling the obstacle", player=who),
        "play_card": t("{player} playing a Battle Card", player=who),
        "no_match": t("{player} showing no matching card", player=who),
        "play_tile": t("{player} playing a Resource Tile", player=who),
        "decline": t("{player} declining", player=who),
        "counter": t("{player} cancelling Albus Dumbledore", player=who),
        "take": t("{player} taking a tile", player=who),
        "discard_tile": t("{player} discarding a Resource Tile", player=who),
        "advance": t("{player} moving forward", player=who),
        "push_back": t("{player} moving a piece back", player=who),
        "choose": t("{player} choosing a space", player=who),
        "end_turn": t("{player} ending the turn", player=who),
    }
    return words.get(kind)


def put_back(before: State, action: Action, after: State) -> Text | None:
    kind = action.get("type")
    who = _actor(before, action) or t("the player")
    if kind == "draw_card":
        return t("{player} puts the Battle Card drawn back on its pile.", player=who)
    if kind == "draw_tile":
        return t("{player} puts the Resource Tile drawn back on its pile.", player=who)
    if kind == "reveal_obstacle":
        return t("Put the Obstacle Card just laid out back on its pile.")
    if kind == "flip_cup":
        return t("Turn Cup Tile {slot} face down again.", slot=action.get("slot"))
    if kind == "steal":
        return t("{player} gives the tile taken back.", player=who)
    if kind == "take":
        return t("{player} gives the tile taken back.", player=who)
    if kind in ("move", "advance", "push_back", "choose"):
        return t("Put the piece back where it stood.")
    if kind == "play_card":
        return t("{player} takes the Battle Card back into the hand.", player=who)
    if kind in ("play_tile", "counter", "discard_tile"):
        return t("{player} takes the Resource Tile back.", player=who)
    if kind == "place_cloak":
        return t("Put the Cloak back where it was.")
    if kind == "swap_hand":
        return t("{player} takes the discarded Battle Cards back.", player=who)
    return None
