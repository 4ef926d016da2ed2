"""The actions Dork Tower accepts, by type: each is handled by a function
``(data, state, action, events)`` that changes ``state`` (a copy ``apply`` made), appends the
events it causes, or raises a refusal."""

from __future__ import annotations

from . import city, combat, draws, encounters, equipment, movement, routes, setup, trade, turns

HANDLERS = {
    "roll": draws.roll,
    "draw_token": draws.draw_token,
    "draw_item": draws.draw_item,
    "draw_scroll": draws.draw_scroll,
    "choose": setup.choose,
    "step": movement.step,
    "travel": routes.travel,
    "stop": movement.stop,
    "enter_tower": movement.enter_tower,
    "resolve": encounters.resolve,
    "play_scroll": combat.play_scroll,
    "take_back": combat.take_back,
    "done": turns.done,
    "pass": combat.pass_window,
    "close_window": combat.close_window,
    "buy_six": combat.buy_six,
    "flee": combat.flee,
    "die": combat.die,
    "shop": city.shop,
    "shop_more": city.shop_more,
    "buy": city.buy,
    "buy_scroll": city.buy_scroll,
    "sell": city.sell,
    "work": city.work,
    "offer": trade.offer,
    "accept": trade.accept,
    "decline": trade.decline,
    "equip": equipment.equip,
    "unequip": equipment.unequip,
    "discard": equipment.discard,
    "level_up": equipment.level_up,
    "end_turn": turns.end_turn,
}
