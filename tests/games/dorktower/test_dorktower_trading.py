"""Dork Tower: trading and hidden information (spec sections 2.1, 2.12, 2.13 and 7.2, with
``test_dorktower_city_cards.py``), with a property test over random games."""

from __future__ import annotations

import json
import random

import pytest
from dt_support import (
    GAME,
    NAMES,
    act,
    arrange,
    draw_tokens,
    hero,
    in_city,
    refused,
    totals,
    two,
    view,
)

from companion.rules import EVERYTHING, HOST, TABLE, Accepted


def together(
    ann: dict | None = None, bob: dict | None = None, space: str = "rv-moor", **scenario
) -> dict:
    """Ann and Bob on one space; Ann has stopped there: the first trade window is open."""
    state = two({"space": space, **(ann or {})}, {"space": space, **(bob or {})}, **scenario)
    state, _ = act(state, type="stop", player="Ann")
    assert state["phase"] == "trade"
    return state


# -- trading ---------------------------------------------------------------------------------


def test_trade_only_with_characters_on_ones_space():
    """DT-TRADE-1: a hero who ends on a space with other characters may buy or sell items and
    scrolls with them; alone, no trade window opens, and nobody elsewhere can be a partner."""
    alone, _ = act(two({"space": "sm-dunes"}), type="stop", player="Ann")
    assert alone["phase"] == "encounter"
    state = arrange(
        {
            "Ann": hero("topdeck", "rv-city", space="rv-moor"),
            "Bob": hero(
                "lumpin", "th-city", space="rv-moor", items=[{"card": "dagger"}], scrolls=["hex"]
            ),
            "Cid": hero("grimnir", "cd-city"),
        }
    )
    state, _ = act(state, type="stop", player="Ann")
    refused(state, "DT-TRADE-1", type="offer", player="Ann", **{"with": "Cid"}, give={"gold": 5})
    refused(state, "DT-TRADE-1", type="offer", player="Ann", **{"with": "Bob"}, give={"gold": 500})
    refused(
        state, "DT-TRADE-1", type="offer", player="Ann", **{"with": "Bob"}, take={"items": ["bow"]}
    )
    state, _ = act(
        state,
        type="offer",
        player="Ann",
        **{"with": "Bob"},
        give={"gold": 45, "scrolls": []},  # see test_an_offer_without_scrolls...
        take={"items": ["dagger"], "scrolls": 1},
    )
    refused(state, "DT-TRADE-1", type="accept", player="Bob", scrolls=[])
    state, _ = act(state, type="accept", player="Bob", scrolls=["hex"])
    ann, bob = state["heroes"][0], state["heroes"][1]
    assert (ann["gold"], bob["gold"]) == (15, 105)
    assert ann["scrolls"] == ["hex"] and ann["slots"][0]["card"] == "dagger"
    assert bob["scrolls"] == [] and bob["slots"][0] is None


def test_trading_comes_before_the_fight_and_the_partner_stays_out_of_it():
    """DT-TRADE-2, DT-AMB-7: the trade window opens as the movement ends, before any token is
    drawn; the other character takes no part in the fight (his items add nothing)."""
    state = together(bob={"items": [{"card": "war-hammer"}]})
    assert state["pending"] == [] and state["encounter"] is None
    state, _ = act(state, type="done", player="Ann")
    assert GAME.chance(state).rule == "DT-ENC-3"
    state = draw_tokens(state, "goblin", "wolf")
    assert totals(state)["items"] == 0 and totals(state)["player"] == 7


@pytest.mark.parametrize(
    "windows, before, after",
    [("both", True, True), ("before", True, False), ("after", False, True), ("none", False, False)],
)
def test_the_trade_windows_are_configurable(windows, before, after):
    """DT-AMB-7: one window right after the movement, one after the encounter (or the city),
    both, or neither."""
    state = two(bob={"space": "rv-city"}, options={"trade_windows": windows})
    state, _ = act(state, type="stop", player="Ann")
    assert (state["phase"] == "trade") is before
    if before:
        state, _ = act(state, type="done", player="Ann")
    assert state["phase"] == "city"
    state, _ = act(state, type="done", player="Ann")
    assert (state["phase"] == "trade") is after


def test_xp_can_never_be_traded():
    """DT-TRADE-3: XP are neither bought nor sold."""
    state = together({"xp": 5}, {"xp": 5})
    refused(
        state,
        "DT-TRADE-3",
        type="offer",
        player="Ann",
        **{"with": "Bob"},
        give={"xp": 2},
        take={"gold": 10},
    )
    refused(
        state,
        "DT-TRADE-3",
        type="offer",
        player="Ann",
        **{"with": "Bob"},
        give={"gold": 10},
        take={"xp": 1},
    )


def test_trades_are_free_offers_by_the_active_player():
    """DT-AMB-24: prices are free: gold and/or cards, swaps included; only the active player
    proposes; the partner accepts or declines, and either side may call it off."""
    state = together(
        {"items": [{"card": "dagger"}], "scrolls": ["aegis"]},
        {"items": [{"card": "club"}], "scrolls": ["hex"]},
    )
    refused(state, "DT-TURN-1", type="offer", player="Bob", **{"with": "Ann"}, give={"gold": 1})
    swap, _ = act(
        state,
        type="offer",
        player="Ann",
        **{"with": "Bob"},
        give={"items": ["dagger"], "scrolls": ["aegis"]},
        take={"items": ["club"]},
    )
    declined, _ = act(swap, type="decline", player="Bob")
    assert declined["offer"] is None and declined["heroes"] == state["heroes"]
    withdrawn, _ = act(swap, type="decline", player="Ann")
    assert withdrawn["offer"] is None
    done, _ = act(swap, type="accept", player="Bob")
    assert done["heroes"][0]["slots"][0]["card"] == "club"
    assert {"card": "dagger", "face": "equipment"} in done["heroes"][1]["backpack"]
    assert done["heroes"][1]["scrolls"] == ["hex", "aegis"]
    assert done["heroes"][0]["gold"] == done["heroes"][1]["gold"] == 60


def test_an_offer_without_scrolls_can_be_accepted():
    """DT-TRADE-1, DT-AMB-24: gold for an item, with no scrolls named: everyone can view the
    offer and the partner can accept it."""
    state = together(bob={"items": [{"card": "club"}]})
    state, _ = act(
        state,
        type="offer",
        player="Ann",
        **{"with": "Bob"},
        give={"gold": 5},
        take={"items": ["club"]},
    )
    assert view(state, TABLE)["offer"]["give"]["gold"] == 5
    state, _ = act(state, type="accept", player="Bob")
    assert state["heroes"][0]["slots"][0]["card"] == "club"


# -- hidden information ----------------------------------------------------------------------


def test_scrolls_in_hand_are_seen_only_by_their_owner():
    """DT-AMB-30, DT-CARD-6: gold, XP and the number of scrolls are public; which scrolls a
    hero holds is seen by him alone (and the referee), never by the table, the host or another
    player."""
    state = play_started(3)
    for i, owner in enumerate(state["players"]):
        hand = state["heroes"][i]["scrolls"]
        assert [s["scroll"] for s in view(state, owner)["players"][owner]["scrolls"]] == hand
        assert [s["scroll"] for s in view(state, EVERYTHING)["players"][owner]["scrolls"]] == hand
        for viewer in [TABLE, HOST] + [p for p in state["players"] if p != owner]:
            seen = view(state, viewer)["players"][owner]
            assert seen["scrolls"] is None and seen["scroll_count"] == len(hand)
            assert (seen["gold"], seen["xp"]) == (60, 0)
            for card in hand:
                assert json.dumps(card) not in json.dumps(view(state, viewer))


def test_a_drawn_scroll_is_told_only_to_its_drawer():
    """DT-CARD-6, DT-CITY-5: the event of a scroll draw names the scroll only for the drawer;
    everyone else learns that he drew one."""
    state = in_city()
    state, _ = act(state, type="buy_scroll", player="Ann")
    state, events = act(state, type="draw_scroll", scroll="fortunes-favour")
    drawn = next(e for e in events if e["type"] == "scroll_drawn")
    assert GAME.view_event(drawn, "Ann")["private"]["scroll"] == "fortunes-favour"
    assert GAME.view_event(drawn, EVERYTHING)["private"]["scroll"] == "fortunes-favour"
    for viewer in ("Bob", TABLE, HOST):
        public = GAME.view_event(drawn, viewer)
        assert "private" not in public and public["player"] == "Ann"
        assert "fortunes-favour" not in json.dumps(public)
        assert "Fortune" not in json.dumps(public)


def test_an_offer_and_a_trade_keep_the_scrolls_between_the_two_players():
    """DT-AMB-30, DT-AMB-24: others see that scrolls change hands, not which."""
    state = arrange(
        {
            "Ann": hero("topdeck", "rv-city", space="rv-moor", scrolls=["aegis"]),
            "Bob": hero("lumpin", "th-city", space="rv-moor", scrolls=["hex"]),
            "Cid": hero("grimnir", "cd-city"),
        }
    )
    state, _ = act(state, type="stop", player="Ann")
    state, _ = act(
        state,
        type="offer",
        player="Ann",
        **{"with": "Bob"},
        give={"scrolls": ["aegis"]},
        take={"scrolls": 1},
    )
    assert view(state, "Bob")["offer"]["give"]["scrolls"] == ["aegis"]
    assert view(state, "Cid")["offer"]["give"]["scrolls"] == 1
    assert view(state, TABLE)["offer"]["give"]["scrolls"] == 1
    state, events = act(state, type="accept", player="Bob", scrolls=["hex"])
    traded = next(e for e in events if e["type"] == "traded")
    assert GAME.view_event(traded, "Bob")["private"]["took"]["scrolls"] == ["hex"]
    for viewer in ("Cid", TABLE, HOST):
        seen = view(state, viewer)
        text = json.dumps(GAME.view_event(traded, viewer)) + json.dumps(seen)
        assert "aegis" not in text and '"hex"' not in text


def test_an_arranged_game_does_not_show_the_arranged_hands():
    """DT-AMB-30: a game started from an arranged position hides the hands it arranged."""
    state = two({"scrolls": ["aegis"]}, {"scrolls": ["hex"]})
    assert "aegis" not in json.dumps(view(state, "Bob"))
    assert '"hex"' not in json.dumps(view(state, TABLE))


# -- random games ----------------------------------------------------------------------------


def play_started(n: int, seed: int = 5) -> dict:
    """A game of ``n`` players after the start roll, the choices and the starting scrolls."""
    state = GAME.new(NAMES[:n], {"start_roll": False}, seed=seed)
    cities = ["rv-city", "th-city", "cd-city", "sm-city", "bh-city", "iv-city"]
    chars = ["topdeck", "lumpin", "laeoretha", "grimnir", "mirella", "brannock"]
    for char, city in zip(chars[:n], cities[:n]):
        state, _ = act(
            state,
            type="choose",
            player=state["players"][state["choosing"]],
            character=char,
            city=city,
        )
    while GAME.chance(state) is not None:
        state, _ = act(state, **GAME.sample(state))
    return state


def trade_move(state: dict, rng: random.Random) -> dict | None:
    """Offers with contents (legal_actions lists an empty template) and acceptances now and
    then; an offer whose cards were discarded since is accepted only when legal_actions says."""
    if state["phase"] != "trade" or GAME.chance(state) is not None:
        return None
    active = state["active"]
    o = state["offer"]
    if o is None and rng.random() < 0.6:
        here = state["heroes"][active]["space"]
        partners = [
            i
            for i, h in enumerate(state["heroes"])
            if i != active and h["space"] == here and not h["dead"]
        ]
        partner = rng.choice(partners)
        mine = state["heroes"][active]["scrolls"]
        give = rng.sample(mine, rng.randint(0, len(mine)))
        want = rng.randint(0, min(1, len(state["heroes"][partner]["scrolls"])))
        return {
            "type": "offer",
            "player": state["players"][active],
            "with": state["players"][partner],
            "give": {"scrolls": give},
            "take": {"scrolls": want},
        }
    accepts = [a for a in GAME.legal_actions(state) if a["type"] == "accept"]
    if o is not None and rng.random() < 0.7 and accepts:
        hand = state["heroes"][o["to"]]["scrolls"]
        return {
            "type": "accept",
            "player": state["players"][o["to"]],
            "scrolls": hand[: o["take"]["scrolls"]],
        }
    return None


def check_views(state: dict) -> None:
    """Every viewer's view is JSON; nobody but the owner sees a scroll in someone's hand."""
    json.dumps(GAME.view(state, EVERYTHING))
    public = set(state["scrolls"]["discard"])
    if state["combat"]:
        public |= {p["scroll"] for p in state["combat"]["played"]}
    for viewer in state["players"] + [TABLE, HOST]:
        v = GAME.view(state, viewer)
        text = json.dumps(v)
        shown = set()
        o = state["offer"]
        if o is not None and viewer in (state["players"][o["from"]], state["players"][o["to"]]):
            shown = set(o["give"]["scrolls"])
        for i, owner in enumerate(state["players"]):
            hand = state["heroes"][i]["scrolls"]
            seen = v["players"][owner]
            assert seen["scroll_count"] == len(hand)
            if owner == viewer:
                assert [s["scroll"] for s in seen["scrolls"]] == hand
                continue
            assert seen["scrolls"] is None
            for card in set(hand) - public - shown:
                assert json.dumps(card) not in text, (viewer, owner, card)


def check_events(state: dict, events: list[dict]) -> None:
    for event in events:
        audience = event.get("audience", [])
        for viewer in state["players"] + [TABLE, HOST]:
            seen = GAME.view_event(event, viewer)
            json.dumps(seen)
            if viewer not in audience:
                assert "private" not in seen and "audience" not in seen
                if event["type"] == "scroll_drawn":
                    assert json.dumps(event["private"]["scroll"]) not in json.dumps(seen)


@pytest.mark.parametrize("seed", range(30))
def test_random_games_never_break_and_never_leak_a_hand(seed):
    """DT-AMB-30, DT-CARD-6, DT-AMB-20: 30 random games of 2 to 6 players, 400 steps
    each (chance resolved from the seed, choices from legal_actions, trades now and then): no
    legal action is refused or raises; every view of every viewer is JSON; no view of another
    player, the table or the host holds a scroll from someone's hand that has not been played
    or discarded; private event parts reach only their audience."""
    rng = random.Random(seed)
    n = 2 + seed % 5
    state = GAME.new(NAMES[:n], {}, seed=seed)
    for step in range(400):
        if state["phase"] == "over":
            break
        if GAME.chance(state) is not None:
            action = GAME.sample(state)
        else:
            actions = GAME.legal_actions(state)
            assert actions, state["phase"]
            action = trade_move(state, rng) or rng.choice(actions)
        result = GAME.apply(state, action)
        assert isinstance(result, Accepted), (action, result)
        state = result.state
        check_events(state, list(result.events))
        if step % 4 == 0 or action["type"] in (
            "draw_scroll",
            "offer",
            "accept",
            "play_scroll",
            "take_back",
            "discard",
            "sell",
        ):
            check_views(state)
    check_views(state)
    json.dumps(state)
