"""An undone action in words, for the table's undo: what it was (``describe``) and, where the
table's steps (``putting_back``) move nothing, what goes back by hand (``put_back``). Public
sentences: a drawn card, token or scroll is never named here (a scroll is its holder's secret;
the steps name the tokens and item cards, which everyone saw)."""

from __future__ import annotations

from companion.i18n import Text, t
from companion.rules.api import Action, State


def _actor(state: State, action: Action) -> str | None:
    """The player the action names, or the active player; None before anyone's turn."""
    who = action.get("player")
    if isinstance(who, str):
        return who
    active = state.get("active")
    return state["players"][active] if isinstance(active, int) else None


def describe(state: State, action: Action) -> Text | None:
    """``action``, made in ``state``, in a few words ("Ann's roll of 5", "Ben turning the
    tower")."""
    kind = action.get("type")
    who = _actor(state, action)
    if kind == "roll":
        values = action.get("values", action.get("value"))
        if isinstance(values, list):
            values = ", ".join(map(str, values))
        if not isinstance(action.get("player"), str):  # a roll names its roller, or nobody
            return t("the roll of {value}", value=values)
        return t("{player}'s roll of {value}", player=who, value=values)
    if kind == "close_window":  # the table's countdown, or the host
        return t("the end of a scroll window")
    if who is None:
        return None
    words = {
        "draw_token": t("{player} drawing an encounter token", player=who),
        "draw_item": t("{player} drawing an item card", player=who),
        "draw_scroll": t("{player} drawing a scroll", player=who),
        "choose": t("{player} choosing a hero", player=who),
        "step": t("{player}'s step", player=who),
        "travel": t("{player}'s move", player=who),
        "stop": t("{player} stopping", player=who),
        "enter_tower": t("{player} entering the tower", player=who),
        "resolve": t("{player} resolving a token", player=who),
        "play_scroll": t("{player} playing a scroll", player=who),
        "take_back": t("{player} taking back a scroll", player=who),
        "done": t("{player} carrying on", player=who),
        "pass": t("{player} passing", player=who),
        "buy_six": t("{player} buying a 6", player=who),
        "flee": t("{player} fleeing", player=who),
        "die": t("{player} giving up the fight", player=who),
        "shop": t("{player} shopping", player=who),
        "shop_more": t("{player} shopping for more", player=who),
        "buy": t("{player} buying an item", player=who),
        "buy_scroll": t("{player} buying a scroll", player=who),
        "sell": t("{player} selling", player=who),
        "work": t("{player} working", player=who),
        "offer": t("{player}'s trade offer", player=who),
        "accept": t("{player} accepting the trade", player=who),
        "decline": t("{player} declining the trade", player=who),
        "equip": t("{player} equipping an item", player=who),
        "unequip": t("{player} unequipping an item", player=who),
        "discard": t("{player} discarding", player=who),
        "level_up": t("{player} levelling up", player=who),
        "end_turn": t("{player} turning the tower", player=who),
    }
    return words.get(kind)


def put_back(before: State, action: Action, after: State) -> Text | None:
    """What the players put back by hand when the steps say nothing (``Game.put_back`` says
    the steps where there are some): what was drawn goes back where it came from."""
    kind = action.get("type")
    who = _actor(before, action) or t("the player")
    if kind == "draw_token":
        return t("{player} puts the token drawn back in the bowl.", player=who)
    if kind == "draw_item":
        return t("{player} puts the item card drawn back on its pile.", player=who)
    if kind == "draw_scroll":
        return t("{player} puts the scroll drawn back on its pile.", player=who)
    return None
