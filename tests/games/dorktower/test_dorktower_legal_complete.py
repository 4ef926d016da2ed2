"""``legal_actions`` is complete and sound (DT-CHAR-2..5, DT-CARD-7, DT-TRADE-1, DT-CITY-6,
DT-BORDER-2 (a), DT-TURN-2): over random playouts from arranged positions rich in items,
scrolls, XP and neighbours, every action offered is accepted, and every action of a type the
rules know, tried with the parameters the state suggests, is refused unless it is offered."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest
from dt_support import DATA, GAME, act, arrange, hero, refused, two, view
from secrets_play import choices, random_options

from companion.rules import Accepted

ITEMS = sorted(DATA["items"])
SCROLLS = sorted(DATA["scrolls"])
HOMES = {"topdeck": "rv-city", "lumpin": "th-city", "laeoretha": "bh-city"}
SHEET = {"equip", "unequip", "discard", "level_up", "take_back"}
SPOTS = ["rv-city", "rv-moor", "rv-wood", "rv-mere", "rv-crypt", "rv-shadow"]


def rich_start(rng: random.Random) -> dict[str, Any]:
    """Three heroes near each other with random cards, XP and gold; monsters next door."""
    heroes = {}
    items, scrolls = rng.sample(ITEMS, 6), rng.sample(SCROLLS, 9)
    for name, character in zip(["Ann", "Bo", "Cy"], HOMES, strict=True):
        heroes[name] = hero(
            character,
            HOMES[character],
            space=rng.choice(SPOTS[:3]),
            xp=rng.choice([0, 1, 3, 5, 12]),
            gold=rng.choice([0, 40, 200]),
            level=rng.choice(["low", "low", "high"]),
            items=[{"card": items.pop(), "slot": "backpack"} for _ in range(2)],
            scrolls=[scrolls.pop() for _ in range(rng.randint(0, 3))],
        )
    options = random_options(GAME, rng)
    options.pop("data_set", None)
    options.pop("scenario", None)
    monsters = {"rv-wood": ["goblin"], "rv-crypt": ["orc"]}
    return arrange(heroes, monsters=monsters, options=options)


def key(action: dict[str, Any]) -> str:
    return repr(sorted(action.items()))


def candidates(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Actions of every type a player can make, with the parameters the state suggests."""
    out: list[dict[str, Any]] = []
    names = state["players"]
    simple = ["stop", "enter_tower", "done", "pass", "buy_six", "die", "shop", "shop_more"]
    simple += ["buy_scroll", "work", "end_turn", "level_up", "take_back", "decline"]
    for seat, name in enumerate(names):
        me = state["heroes"][seat]
        out += [{"type": kind, "player": name} for kind in simple]
        cards = sorted(
            {entry["card"] for entry in me["slots"] if entry}
            | {entry["card"] for entry in me["backpack"]}
        )
        for card in cards:
            out += [{"type": "equip", "player": name, "card": card, "slot": n} for n in range(4)]
            out.append({"type": "unequip", "player": name, "card": card})
            out.append({"type": "discard", "player": name, "card": card})
            out.append({"type": "sell", "player": name, "card": card})
        for card in sorted(set(me["scrolls"])):
            out.append({"type": "discard", "player": name, "scroll": card})
            out.append({"type": "sell", "player": name, "scroll": card})
            play = {"type": "play_scroll", "player": name, "scroll": card}
            effect = DATA["scrolls"][card]["effect"]
            if "set_die" in effect:  # the parameters a scroll's effect reads
                out += [play | {"die": n} for n in range(2)]
            elif "remove_monster" in effect and state["combat"]:
                monsters = sorted(set(state["combat"]["monsters"]))
                out += [play | {"token": token} for token in monsters]
            else:
                out.append(play)
        for chosen in range(len(me["scrolls"]) + 1):
            for pick in combinations(sorted(set(me["scrolls"])), chosen):
                out.append({"type": "accept", "player": name, "scrolls": list(pick)})
        for other in names:
            if other != name:
                out.append({"type": "offer", "player": name, "with": other, "give": {}, "take": {}})
        for to in sorted(DATA["adjacent"].get(me["space"], {})):
            out.append({"type": "flee", "player": name, "to": to})
            step = {"type": "step", "player": name, "to": to}
            ways: list[dict[str, Any]] = [{}]
            if DATA["adjacent"][me["space"]][to] != "none":  # else "cross" means nothing
                ways += [{"cross": "xp"}, {"cross": "whole"}]
                ways += [{"cross": "scroll", "scroll": card} for card in sorted(set(me["scrolls"]))]
            for way in ways:  # an extra step paid on top of the whole movement is no choice
                out += [step | way] + (
                    [] if way.get("cross") == "whole" else [step | way | {"extra": True}]
                )
        if state["encounter"]:
            for token in sorted(set(state["encounter"].get("unresolved", []))):
                out.append({"type": "resolve", "player": name, "token": token})
        if state["shop"]:
            for entry in state["shop"]["cards"]:
                for face in ("equipment", "magic"):
                    out.append({"type": "buy", "player": name, "card": entry["card"], "face": face})
    return out


def needed(state: dict[str, Any], action: dict[str, Any]) -> bool:
    """DT-LIMIT-1..3: a discard in the cleanup, or one that brings a hero down to a limit."""
    if state["phase"] == "cleanup":
        return True
    hero = view(state)["players"][action["player"]]
    if "scroll" in action:
        return hero["scroll_count"] > hero["limits"]["scrolls"]
    in_backpack = any(entry["card"] == action["card"] for entry in hero["backpack"])
    return in_backpack and len(hero["backpack"]) > hero["limits"]["backpack"]


def playouts(seeds, steps=90):
    for seed in seeds:
        rng = random.Random(seed)
        state = rich_start(rng)
        for _ in range(steps):
            yield state
            if GAME.outcome(state).finished:
                break
            for action in choices(GAME, state, rng):
                result = GAME.apply(state, action)
                if isinstance(result, Accepted):
                    state = result.state
                    break
            else:
                break


def test_every_offered_action_is_accepted_over_random_playouts():
    """Soundness: over random playouts, each action ``legal_actions`` offers is accepted."""
    seen: set[str] = set()
    for state in playouts(range(12)):
        for action in GAME.legal_actions(state):
            result = GAME.apply(state, action)
            assert isinstance(result, Accepted), (action, result, state["phase"])
            seen.add(action["type"])
    # the playouts reach the actions this test is about
    assert {"equip", "unequip", "discard", "offer", "sell", "end_turn"} <= seen, seen


def test_an_action_not_offered_is_refused_in_sample_states():
    """Completeness: in sample states, every candidate action the rules accept is offered."""
    seen: set[str] = set()
    for index, state in enumerate(playouts(range(100, 106), steps=60)):
        if index % 3:
            continue
        offered = {key(action) for action in GAME.legal_actions(state)}
        for action in candidates(state):
            if isinstance(GAME.apply(state, action), Accepted):
                free = {"type": "step", "player": action["player"], "to": action.get("to")}
                if action.get("cross") and key(free) in offered:
                    continue  # crossed freely (ability or item): paying anyway is not offered
                if GAME.chance(state) is not None and action["type"] in SHEET:
                    continue  # the pending chance step comes first (legal.py)
                if action["type"] == "discard" and not needed(state, action):
                    continue  # before the cleanup only discards down to a limit are offered
                seat = state["players"].index(action["player"])
                if action["type"] == "pass" and not state["heroes"][seat]["scrolls"]:
                    continue  # the window does not wait for a hero without scrolls
                assert key(action) in offered, (action, state["phase"])
                seen.add(action["type"])
    assert {"equip", "unequip", "discard", "step", "stop"} <= seen, seen


def test_equipping_and_unequipping_are_offered_and_accepted():
    """DT-CHAR-2, DT-CHAR-4, DT-CHAR-5: a dagger in the backpack is offered into each slot it
    fits (a weapon slot), a slotted item is offered back to the backpack."""
    state = two({"items": [{"card": "dagger", "slot": "backpack"}, {"card": "chain-mail"}]})
    legal = GAME.legal_actions(state)
    equips = {a["slot"] for a in legal if a["type"] == "equip" and a["card"] == "dagger"}
    slots = DATA["characters"]["topdeck"]["low"]["slots"]
    assert equips == {n for n, slot in enumerate(slots) if "weapon" in slot["types"]}
    assert {"type": "unequip", "player": "Ann", "card": "chain-mail"} in legal
    state, events = act(state, type="unequip", player="Ann", card="chain-mail")
    assert events[0]["type"] == "unequipped"
    assert state["heroes"][0]["backpack"][-1]["card"] == "chain-mail"
    back = [
        a for a in GAME.legal_actions(state) if a["type"] == "equip" and a["card"] == "chain-mail"
    ]
    assert back == [{"type": "equip", "player": "Ann", "card": "chain-mail", "slot": 1}]
    refused(state, "DT-CARD-5", type="unequip", player="Ann", card="chain-mail")
    assert not any(
        a["type"] in ("equip", "unequip") for a in GAME.legal_actions(state) if a["player"] == "Bob"
    )


def test_crossing_by_scroll_is_offered():
    """DT-BORDER-2 (a): a crossing scroll in hand offers the step across the border with it."""
    state = two({"scrolls": ["water-walking", "mountain-stride"]})
    steps = [
        a for a in GAME.legal_actions(state) if a["type"] == "step" and a.get("cross") == "scroll"
    ]
    lake = {(a["to"], a["scroll"]) for a in steps if not a.get("extra")}
    assert ("rv-mere", "water-walking") in lake
    assert ("rv-mere", "mountain-stride") not in lake
    assert all(DATA["adjacent"]["rv-city"][to] != "none" for to, _ in lake)
    state, _ = act(
        state, type="step", player="Ann", to="rv-mere", cross="scroll", scroll="water-walking"
    )
    assert "water-walking" not in state["heroes"][0]["scrolls"]


def test_a_scroll_is_offered_for_sale_in_a_city():
    """DT-CITY-6: in a city a scroll sells for 50 gold; it is offered."""
    state, _ = act(two({"scrolls": ["hex"]}), type="stop", player="Ann")
    assert {"type": "sell", "player": "Ann", "scroll": "hex"} in GAME.legal_actions(state)


def test_taking_back_a_scroll_is_offered_until_another_is_played():
    """DT-CARD-7: the fighter's scroll is offered back until someone else plays one."""
    from dt_support import fight

    state = fight(["goblin"], {"scrolls": ["war-cry"]}, {"scrolls": ["hex", "dark-pact"]})
    assert {"type": "take_back", "player": "Ann"} not in GAME.legal_actions(state)
    state, _ = act(state, type="play_scroll", player="Ann", scroll="war-cry")
    assert {"type": "take_back", "player": "Ann"} in GAME.legal_actions(state)
    assert state["phase"] == "scrolls_others"  # her hand is empty: her window closed
    state, _ = act(state, type="play_scroll", player="Bo", scroll="hex")
    assert state["phase"] == "scrolls_others"
    legal = GAME.legal_actions(state)
    assert {"type": "take_back", "player": "Bo"} in legal
    assert {"type": "take_back", "player": "Ann"} not in legal
    refused(state, "DT-CARD-7", type="take_back", player="Ann")


@pytest.mark.parametrize("want", [0, 1, 2])
def test_an_offer_and_its_answers_are_offered(want):
    """DT-TRADE-1, DT-TRADE-2: Ann may offer Bob a trade on her space; Bob may accept (naming
    the scrolls asked for) or decline, Ann may withdraw it."""
    state = two(bob={"space": "rv-city", "scrolls": ["hex", "rewind", "aegis"][: max(want, 1)]})
    state, _ = act(state, type="stop", player="Ann")
    assert state["phase"] == "trade"
    offer = {"type": "offer", "player": "Ann", "with": "Bob", "give": {}, "take": {}}
    assert offer in GAME.legal_actions(state)
    state, _ = act(state, **(offer | {"take": {"scrolls": want}}))
    legal = GAME.legal_actions(state)
    accepts = [a for a in legal if a["type"] == "accept"]
    assert all(len(a["scrolls"]) == want and a["player"] == "Bob" for a in accepts)
    assert len(accepts) == {0: 1, 1: 1, 2: 1}[want]
    assert {"type": "decline", "player": "Bob"} in legal
    assert {"type": "decline", "player": "Ann"} in legal


def test_an_offer_whose_scroll_was_discarded_is_not_accepted():
    """DT-TRADE-1, DT-AMB-25: Ann offers Hex, then discards it: Bob's acceptance is refused
    (no crash) and no longer offered; declining still is."""
    state = two({"scrolls": ["hex"]}, {"space": "rv-city"})
    state, _ = act(state, type="stop", player="Ann")
    offer = {"type": "offer", "player": "Ann", "with": "Bob", "give": {"scrolls": ["hex"]}}
    state, _ = act(state, **offer)
    assert {"type": "accept", "player": "Bob", "scrolls": []} in GAME.legal_actions(state)
    state, _ = act(state, type="discard", player="Ann", scroll="hex")
    legal = GAME.legal_actions(state)
    assert not any(a["type"] == "accept" for a in legal)
    assert {"type": "decline", "player": "Bob"} in legal
    lost = refused(state, "DT-TRADE-1", type="accept", player="Bob", scrolls=[])
    assert lost.reason == "A scroll of the offer is no longer there."


def test_discards_down_to_the_limits_are_offered_before_the_cleanup():
    """DT-LIMIT-1, DT-AMB-25: with four scrolls (the limit is 3) Ann is offered each scroll's
    discard while she moves; with three she is not (the rules would still take one); in the
    cleanup every card may be discarded."""
    four = ["hex", "rewind", "aegis", "blessing"]
    state = two({"scrolls": four})
    offered = {a["scroll"] for a in GAME.legal_actions(state) if a["type"] == "discard"}
    assert offered == set(four)
    state, _ = act(state, type="discard", player="Ann", scroll="hex")
    assert not any(a["type"] == "discard" for a in GAME.legal_actions(state))
    state, _ = act(state, type="discard", player="Ann", scroll="rewind")  # still accepted
    state, _ = act(state, type="stop", player="Ann")
    while state["phase"] != "cleanup":  # the city's business and the trade windows, skipped
        state, _ = act(state, type="done", player="Ann")
    offered = {a.get("scroll") for a in GAME.legal_actions(state) if a["type"] == "discard"}
    assert offered == {"aegis", "blessing"}
