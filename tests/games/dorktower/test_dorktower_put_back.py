"""Dork Tower's undo in things and places (``Game.placement``, ``Game.put_back_steps``,
``rules/putting_back.py``): for every action type, the steps followed by hand on the table after
the action give the table before it; the table is the same for every state the table display
cannot tell apart; each step's sentence is public and in Italian too.

Seeded random games (``legal_actions`` and ``sample``) reach most action types; the few a random
game rarely meets (the table's ``close_window``, ``buy_six``, ``shop_more``) start from arranged
positions."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from dt_support import (
    DAGGER_AND_MAIL,
    DATA,
    GAME,
    act,
    ann,
    arrange,
    bo,
    fight,
    in_city,
    roll,
    topdeck_example,
)
from put_back_support import checked_steps, italian, sentences_of
from test_dorktower_scroll_windows import three
from test_dorktower_trading import together

from companion.games.dorktower.rules import putting_back
from companion.games.dorktower.rules.actions import HANDLERS
from companion.games.dorktower.rules.putting_back import BANK
from companion.rules import TABLE, Accepted
from companion.rules.putting_back import Thing

IT = italian("dorktower")
CHECKED: Counter = Counter()
DATA_NAMES = {
    entry["name"] for table in ("characters", "spaces", "tokens") for entry in DATA[table].values()
} | {card[face]["name"] for card in DATA["items"].values() for face in ("equipment", "magic")}
MET: set[str] = set()  #: the sentences and phrases of the steps met so far
SENTENCES = sentences_of(putting_back)  # every t("...") of the module


def check_undo(before: dict[str, Any], action: dict[str, Any], after: dict[str, Any]) -> list:
    """The steps of undoing ``action`` put the table back; their texts are public and Italian."""
    steps, was = checked_steps(GAME, before, action, after, IT, MET, DATA_NAMES)
    tokens = sum(n for (thing, _place), n in was.items() if thing.kind == "token")
    assert tokens == sum(token["count"] for token in DATA["tokens"].values())
    for kind in ("gold", "xp"):  # DT-COMP-4: what the heroes hold comes from the bank
        assert sum(n for (thing, _p), n in was.items() if thing == Thing(kind)) == BANK
    for step in steps:
        if step.thing.kind == "scroll":  # DT-CARD-6: a scroll is never named nor tapped
            assert step.thing.name is None and step.confirm is None
        if step.confirm is not None:
            assert step.confirm.seat is None  # the board's reader: only public things
            assert step.confirm.component == f"{step.thing.kind} {step.thing.name}"
    CHECKED[action["type"]] += 1
    return steps


def the_same_for_the_table(state: dict[str, Any], rng: random.Random) -> None:
    """The table display's indistinguishable states have the same placement."""
    other = GAME.indistinguishable(state, TABLE, rng)
    assert GAME.placement(other) == GAME.placement(state)


def random_games(seeds: range, players: int, limit: int) -> None:
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.new(["Ann", "Bob", "Cid", "Dee"][:players], {}, seed=seed)
        for _ in range(limit):
            if GAME.outcome(state).finished:
                break
            chance = GAME.chance(state) is not None
            action = GAME.sample(state) if chance else rng.choice(GAME.legal_actions(state))
            result = GAME.apply(state, action)
            assert isinstance(result, Accepted), (action, result)
            if CHECKED[action["type"]] < 25:
                check_undo(state, action, result.state)
                the_same_for_the_table(result.state, random.Random(seed))  # (not the game's rng)
            state = result.state


def test_every_action_type_is_put_back():
    random_games(range(3), 3, 260)
    random_games(range(3, 5), 4, 200)
    arranged_actions()
    piles_turned_over()
    assert set(CHECKED) == set(HANDLERS), set(HANDLERS) - set(CHECKED)
    assert len(SENTENCES) > 20 and SENTENCES <= MET, sorted(SENTENCES - MET)  # no sentence unused


def arranged_actions() -> None:
    # DT-COMBAT-6: a six bought with XP; both sixes put two dice on the tray
    state = topdeck_example(xp=8)
    after, _ = act(state, type="buy_six", player="Ann")
    (step,) = check_undo(state, {"type": "buy_six", "player": "Ann"}, after)
    assert (step.count, step.text) == (4, "Move 4 XP from the bank back to Ann.")
    last, _ = act(after, type="buy_six", player="Ann")  # two sixes: the fight is won at once
    steps = check_undo(after, {"type": "buy_six", "player": "Ann"}, last)
    assert [s.text for s in steps] == [
        "Move the Mummy token from the bowl back to Ravenwood.",
        "Move the Orc Shaman token from the bowl back to Ravenwood.",
        "Move 2 XP from Ann back to the bank.",  # 4 paid back, 6 for the monsters taken back
    ]
    # DT-COMBAT-4: the table closes the rivals' window
    state = three(["twist-of-fate"], ["hex"])
    after, _ = act(state, type="close_window")
    assert check_undo(state, {"type": "close_window"}, after) == []
    # DT-CITY-2, DT-CITY-3: the shop's cards, and one more for XP
    state = in_city({"xp": 3})
    state, _ = act(state, type="shop", player="Ann")
    for card in ("dagger", "chain-mail"):
        after, _ = act(state, type="draw_item", card=card)
        (step,) = check_undo(state, {"type": "draw_item", "card": card}, after)
        assert step.confirm.component == f"item {card}" and step.target.name == "items"
        state = after
    after, _ = act(state, type="shop_more", player="Ann")
    (step,) = check_undo(state, {"type": "shop_more", "player": "Ann"}, after)
    assert step.text == f"Move {DATA['xp']['extra_shop_card']} XP from the bank back to Ann."
    buy = {"type": "buy", "player": "Ann", "card": "dagger", "face": "equipment"}
    after, _ = act(state, **buy)
    item, gold = check_undo(state, buy, after)  # DT-CITY-4: the card and its price go back
    assert (item.source.kind, item.target.kind, item.confirm.component) == (
        "slot",
        "shop",
        "item dagger",
    )
    assert gold.text == "Move 10 gold from the bank back to Ann."
    # DT-TRADE-1: 45 gold for Bob's dagger and a scroll
    state = together(bob={"items": [{"card": "dagger"}], "scrolls": ["hex"]})
    offer = {"type": "offer", "player": "Ann", "with": "Bob", "give": {"gold": 45, "scrolls": []}}
    offer["take"] = {"items": ["dagger"], "scrolls": 1}
    state, _ = act(state, **offer)
    accept = {"type": "accept", "player": "Bob", "scrolls": ["hex"]}
    after, _ = act(state, **accept)
    texts = [step.text for step in check_undo(state, accept, after)]
    assert texts == [
        "Move the item card Dagger from Ann's slot 1 back to Bob's slot 1.",
        "Move a scroll from Ann's hand back into Bob's hand.",
        "Move 45 gold from Bob back to Ann.",
    ]
    # DT-TOWER-2: into the tower from the shadowland by the door
    state = arrange({"Ann": ann(space="hw-shadow"), "Bo": bo()})
    enter = {"type": "enter_tower", "player": "Ann"}
    after, _ = act(state, **enter)
    check_undo(state, enter, after)
    # DT-LVL-1: 10 XP turn the character card to its high-level side
    state = arrange({"Ann": ann(xp=12), "Bo": bo()})
    after, _ = act(state, type="level_up", player="Ann")
    card, xp = check_undo(state, {"type": "level_up", "player": "Ann"}, after)
    assert card.text == "Turn Topdeck's character card back to its low-level side."
    assert xp.text == f"Move {DATA['xp']['level_up']} XP from the bank back to Ann."


def emptied(state: dict[str, Any], deck: str) -> dict[str, Any]:
    """``state`` with the ``deck`` ("items", "scrolls") empty, its cards on the discard pile, as
    after many draws (a draw then turns the discard pile over, DT-CARD-3)."""
    state = copy.deepcopy(state)
    cards = state[deck]["deck"] + state[deck]["discard"]
    state[deck]["deck"], state[deck]["discard"] = [], sorted(cards)
    return state


def piles_turned_over() -> None:
    """Undone, a draw from a pile turned over puts the cards back on the discard pile; with
    the option that keeps killed monsters out of the game (DT-AMB-14), they come back from the
    box."""
    state = emptied(act(in_city({"gold": 200}), type="shop", player="Ann")[0], "items")
    draw = {"type": "draw_item", "card": "dagger"}
    steps = check_undo(state, draw, act(state, **draw)[0])
    assert {(step.source.kind, step.target.kind) for step in steps} == {
        ("pile", "discard"),
        ("shop", "discard"),
    }
    assert len(steps) == len(state["items"]["discard"])
    state = emptied(act(in_city({"gold": 200}), type="buy_scroll", player="Ann")[0], "scrolls")
    draw = {"type": "draw_scroll", "scroll": "hex"}
    steps = check_undo(state, draw, act(state, **draw)[0])
    assert [step.text for step in steps] == [
        "Move a scroll from Ann's hand back onto the scroll discard pile.",
        f"Move {len(DATA['scrolls']) - 1} scrolls from the scroll pile back onto the scroll "
        "discard pile.",
    ]
    state = fight(["mummy"], {"items": DAGGER_AND_MAIL}, options={"killed_tokens_return": False})
    after, _ = roll(state, 6, 6)
    token, xp = check_undo(state, {"type": "roll", "values": [6, 6]}, after)
    assert token.text == "Move the Mummy token from the box back to Ravenwood."
    assert token.confirm.component == "token mummy" and xp.thing == Thing("xp")


def test_a_move_goes_back_to_the_space_it_left():
    """DT-MOVE-1: the hero's figure goes back; nothing else moved."""
    state = arrange({"Ann": {"character": "topdeck", "home": "rv-city"}, "Bo": bo()})
    after, _ = act(state, type="step", player="Ann", to="rv-wood")
    (step,) = check_undo(state, {"type": "step", "player": "Ann", "to": "rv-wood"}, after)
    assert step.thing == Thing("hero", "topdeck") and step.confirm is None
    assert step.text == "Move Topdeck back to Ravensteel Keep."
    assert (step.source.name, step.target.name) == ("rv-wood", "rv-city")


def test_a_roll_takes_the_monsters_or_the_dice_back():
    """DT-COMBAT-7, DT-REWARD-1, DT-DEFEAT-1: undoing a winning roll brings the killed monsters
    back from the bowl to their space (each tapped at the board's reader) and takes the XP back;
    undoing a losing one takes both dice off the tray, where they wait for a re-roll or flight."""
    state = topdeck_example()
    assert GAME.chance(state).dice == 2
    after, _ = roll(state, 5, 3)
    steps = check_undo(state, {"type": "roll", "values": [5, 3]}, after)
    assert [step.confirm.component for step in steps[:2]] == ["token mummy", "token orc-shaman"]
    assert {(step.source.kind, step.target.name) for step in steps[:2]} == {("bowl", "rv-wood")}
    assert steps[2].text == "Move 6 XP from Ann back to the bank." and len(steps) == 3
    after, _ = roll(state, 1, 1)
    (step,) = check_undo(state, {"type": "roll", "values": [1, 1]}, after)
    assert (step.count, step.text) == (2, "Take the 2 dice showing 1 off the tray.")


def test_scrolls_are_never_named_on_the_table():
    """DT-CARD-6: a hand, the pile and the discard pile hold scrolls by count only."""
    state = topdeck_example(scrolls=["hex"])
    layout = GAME.placement(state)
    scrolls = {place: n for (thing, place), n in layout.items() if thing.kind == "scroll"}
    assert all(thing.name is None for (thing, _place) in layout if thing.kind == "scroll")
    hands = {place.owner: n for place, n in scrolls.items() if place.kind == "hand"}
    assert hands == {"Ann": 1}
    assert sum(scrolls.values()) == len(DATA["scrolls"])
