"""Dork Tower: components, setup, the start roll, choosing heroes (spec sections 1 and 2.3).

The example data set is invented (``docs/dork-tower-data.md``); these tests use its ids.
"""

from __future__ import annotations

import copy
import json

import pytest
from dt_support import DATA, GAME, act, arrange, hero, play_out, refused, roll, view

from companion.games.dorktower.rules import DorkTower
from companion.rules import EVERYTHING, HOST, TABLE, Accepted, SetupError

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
KINGDOM_CITIES = {
    "rv": "rv-city",
    "th": "th-city",
    "cd": "cd-city",
    "sm": "sm-city",
    "bh": "bh-city",
    "iv": "iv-city",
}
CHARACTERS = ["topdeck", "lumpin", "laeoretha", "grimnir", "mirella", "brannock"]


def choosing(n: int) -> dict:
    """A game of ``n`` players past the start roll: the first listed player chooses first."""
    return GAME.new(NAMES[:n], {"start_roll": False}, seed=11)


def choose_all(state: dict, picks: list[tuple[str, str]]) -> dict:
    """Every player chooses, clockwise from the one whose turn it is to choose."""
    for character, city in picks:
        who = state["players"][state["choosing"]]
        state, _ = act(state, type="choose", player=who, character=character, city=city)
    return state


def standard(n: int) -> dict:
    """``n`` players have chosen; the starting scrolls are still to be drawn."""
    cities = list(KINGDOM_CITIES.values())
    return choose_all(choosing(n), list(zip(CHARACTERS[:n], cities[:n])))


# -- components ----------------------------------------------------------------------------


def test_encounter_tokens_are_data_and_fill_the_bowl():
    """DT-COMP-3, DT-SETUP-4: the token mix is not in the text, so it comes from the data set:
    every kind is a component with its count, the bowl starts with exactly those tokens, and the
    non-monster kinds the text names (Merchant, Enchanter, Tombs, Lairs) are among them."""
    state = GAME.new(NAMES[:2], seed=1)
    counts = {t["id"]: t["count"] for t in DATA["tokens"].values()}
    assert state["bowl"] == counts
    for ident, count in counts.items():
        assert GAME.components[f"token {ident}"] == count
    names = {t["name"]: t for t in DATA["tokens"].values()}
    for kind in ("Merchant", "Enchanter", "Tombs", "Lairs"):
        assert not names[kind]["monster"]
    monsters = sum(t["count"] for t in DATA["tokens"].values() if t["monster"])
    assert monsters > sum(counts.values()) / 2  # "most are monsters"


def test_a_token_the_set_does_not_have_cannot_be_drawn():
    """DT-COMP-3: only the data set's encounter tokens exist."""
    state = arrange(
        {"Ann": hero("topdeck", "rv-city", space="rv-moor"), "Bob": hero("lumpin", "th-city")}
    )
    state, _ = act(state, type="stop", player="Ann")
    refused(state, "DT-COMP-3", type="draw_token", token="beholder")


def test_the_bowl_is_drawn_blind_and_a_spent_kind_is_refused():
    """DT-SETUP-4: tokens are drawn blind from the bowl: the world says which came out; a kind
    with none left in the bowl cannot come out, and nobody but the referee sees what is in it."""
    state = arrange(
        {"Ann": hero("topdeck", "rv-city", space="rv-moor"), "Bob": hero("lumpin", "th-city")}
    )
    state, _ = act(state, type="stop", player="Ann")  # a field by night: 2 tokens
    state["bowl"]["elder-dragon"] = 0
    refused(state, "DT-SETUP-4", type="draw_token", token="elder-dragon")
    before = sum(state["bowl"].values())
    state, _ = act(state, type="draw_token", token="mummy")
    assert sum(state["bowl"].values()) == before - 1
    for viewer in (TABLE, HOST, "Ann", "Bob"):
        v = view(state, viewer)
        assert "bowl" not in v and v["decks"]["bowl"] == before - 1
    assert view(state, EVERYTHING)["bowl"]["mummy"] == DATA["tokens"]["mummy"]["count"] - 1


def test_gold_and_xp_come_from_a_bank_everyone_takes_from():
    """DT-COMP-4, DT-SETUP-3: gold and XP are counts the companion keeps for each hero; the bank
    is shared and never runs dry (no denominations or quantities are given): a hero who already
    owns a fortune still earns his full pay, and every view shows every hero's gold and XP."""
    state = arrange(
        {"Ann": hero("topdeck", "rv-city", gold=100000, xp=500), "Bob": hero("lumpin", "th-city")}
    )
    assert "bank" not in state
    state, _ = act(state, type="stop", player="Ann")
    state, _ = act(state, type="work", player="Ann")
    assert state["heroes"][0]["gold"] == 100060
    for viewer in (TABLE, HOST, "Bob"):
        assert view(state, viewer)["players"]["Ann"]["gold"] == 100060
        assert view(state, viewer)["players"]["Ann"]["xp"] == 500


def test_two_quest_tokens():
    """DT-COMP-5: the game has two quest tokens, both on the board once the game starts."""
    state = play_out(standard(3))
    assert len(state["quests"]) == 2 and len(set(state["quests"])) == 2
    assert len(view(state, TABLE)["quests"]) == 2


def test_each_character_has_a_two_sided_sheet_and_a_position():
    """DT-COMP-8, DT-AMB-28: every character of the data set has a low- and a high-level side;
    a hero shows his side's strength and movement and stands on one space (his token); the
    reference sheet's XP uses are the data set's XP costs (DT-AMB-3 defaults)."""
    assert DATA["xp"] == {
        "extra_step": 1,
        "cross_border": 2,
        "die_to_six": 4,
        "extra_shop_card": 1,
        "level_up": 10,
    }
    state = play_out(standard(6))
    v = view(state, TABLE)
    for name, char in zip(NAMES, CHARACTERS):
        sheet = DATA["characters"][char]
        assert set(sheet) >= {"low", "high"}
        p = v["players"][name]
        assert p["character"] == char and p["hero"] == sheet["name"]
        assert p["level"] == "low"
        assert p["strength"] == sheet["low"]["strength"]
        assert p["movement"] == sheet["low"]["movement"]
        assert [s["accepts"] for s in p["slots"]] == [s["types"] for s in sheet["low"]["slots"]]
        assert p["space"] in DATA["spaces"]


def test_the_start_roll_takes_two_six_sided_dice():
    """DT-COMP-9, DT-SETUP-6: two six-sided dice are rolled together; one die, three dice or a
    face outside 1..6 is refused."""
    state = GAME.new(NAMES[:3], seed=1)
    chance = GAME.chance(state)
    assert (chance.kind, chance.rule, chance.dice, chance.profile) == ("die", "DT-SETUP-6", 2, "d6")
    assert tuple(chance.faces) == (1, 2, 3, 4, 5, 6)
    refused(state, "DT-COMP-9", type="roll", values=[4])
    refused(state, "DT-COMP-9", type="roll", values=[4, 4, 4])
    refused(state, "DT-COMP-9", type="roll", values=[7, 1])
    refused(state, "DT-COMP-9", type="roll", values=[0, 3])


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_two_to_six_players(n):
    """DT-COMP-10, DT-AMB-20: the text gives no player count; each player needs a kingdom of his
    own and there are six, so 2 to 6 players set up and can all choose different kingdoms."""
    assert (GAME.min_players, GAME.max_players) == (2, 6)
    state = play_out(standard(n))
    assert state["phase"] == "move"
    homes = {DATA["spaces"][h["home"]]["wedge"] for h in state["heroes"]}
    assert len(homes) == n


@pytest.mark.parametrize("players", [["Solo"], NAMES + ["Gus"]])
def test_one_or_seven_players_are_refused(players):
    """DT-COMP-10, DT-AMB-20: fewer than 2 or more than 6 players cannot sit down."""
    with pytest.raises(SetupError):
        GAME.new(players)


def test_the_only_options_are_resolutions_and_conveniences():
    """DT-VAR-1: the rulebook has no variants, so no option is a variant: every option resolves
    an ambiguity of section 6 (DT-AMB-*) or is a setup convenience (data set, start roll,
    arranged position), and none is called a variant."""
    for opt in GAME.options:
        assert opt.rule.startswith(("DT-AMB-", "DT-SETUP-")), opt.name
        assert "variant" not in opt.name.lower() and "variant" not in opt.doc.lower()
        assert not any("VAR" in alias for alias in opt.aliases)


# -- decks ---------------------------------------------------------------------------------


def test_item_and_scroll_decks_are_shuffled_separately():
    """DT-SETUP-2, DT-COMP-1, DT-COMP-2: two separate decks, 36 item cards and 20 scrolls; a draw
    is blind (any card still in the deck may come out, the world says which) and an item card
    cannot come out of the scroll deck."""
    state = standard(2)
    assert sorted(state["items"]["deck"]) == sorted(DATA["items"])
    assert sorted(state["scrolls"]["deck"]) == sorted(DATA["scrolls"])
    assert len(state["items"]["deck"]) == 36 and len(state["scrolls"]["deck"]) == 20
    refused(state, "DT-COMP-2", type="draw_scroll", scroll="dagger")
    last = max(DATA["scrolls"])
    state, _ = act(state, type="draw_scroll", scroll=last)
    assert state["heroes"][0]["scrolls"] == [last]
    assert len(state["items"]["deck"]) == 36


def test_the_item_deck_shows_only_equipment_faces_and_no_order():
    """DT-CARD-3, DT-SETUP-2: the item deck lies with the white faces up: no view but the
    referee's lists the deck (so no purple face and no order leaks); its size is public."""
    state = play_out(standard(3))
    for viewer in (TABLE, HOST, "Ann", "Bob"):
        v = view(state, viewer)
        assert "item_deck" not in v and "scroll_deck" not in v
        assert v["decks"]["items"] == 36 and v["decks"]["scrolls"] == 17
    assert len(view(state, EVERYTHING)["item_deck"]) == 36


def test_each_deck_has_its_own_discard_pile_and_is_reshuffled_from_it():
    """DT-CARD-2: items and scrolls are discarded onto separate piles; when the item deck is
    empty, its discard pile becomes the new deck."""
    state = arrange(
        {
            "Ann": hero(
                "topdeck",
                "rv-city",
                xp=0,
                scrolls=["hex"],
                items=[{"card": "wool-cloak", "slot": "backpack"}],
            ),
            "Bob": hero("lumpin", "th-city"),
        }
    )
    state, _ = act(state, type="discard", player="Ann", scroll="hex")
    state, _ = act(state, type="discard", player="Ann", card="wool-cloak")
    assert state["scrolls"]["discard"] == ["hex"]
    assert state["items"]["discard"] == ["wool-cloak"]
    state["items"]["discard"] += state["items"]["deck"][:3]
    state["items"]["deck"] = []
    state, _ = act(state, type="stop", player="Ann")
    state, _ = act(state, type="shop", player="Ann")
    state, events = act(state, type="draw_item", card="wool-cloak")
    assert any(e["type"] == "reshuffled" for e in events)
    assert state["items"]["discard"] == [] and len(state["items"]["deck"]) == 3
    assert state["scrolls"]["discard"] == ["hex"]
    state, _ = act(state, type="draw_item", card=state["items"]["deck"][0])
    state["scrolls"]["discard"] += state["scrolls"]["deck"]
    state["scrolls"]["deck"] = []
    state, _ = act(state, type="buy_scroll", player="Ann")
    state, events = act(state, type="draw_scroll", scroll="hex")
    assert [e["deck"] for e in events if e["type"] == "reshuffled"] == ["scrolls"]
    assert state["scrolls"]["discard"] == [] and len(state["scrolls"]["deck"]) == 19


# -- the start roll ------------------------------------------------------------------------


def test_the_highest_start_roll_starts():
    """DT-SETUP-6: every player rolls two dice; the highest total starts and chooses first."""
    state = GAME.new(NAMES[:3], seed=1)
    for total in ([2, 3], [6, 5], [4, 4]):
        state, _ = roll(state, *total)
    assert state["phase"] == "choose"
    assert state["first"] == 1 and state["choosing"] == 1
    assert view(state, TABLE)["start_rolls"] == {"Ann": 5, "Bob": 11, "Cid": 8}


def test_a_tie_for_highest_rolls_again_among_the_tied():
    """DT-AMB-19, DT-SETUP-6: "(must re-roll)": only the players tied for the highest roll
    again; a lower player does not."""
    state = GAME.new(NAMES[:4], seed=1)
    for total in ([6, 3], [1, 1], [5, 4], [4, 5]):
        state, events = roll(state, *total)
    assert state["phase"] == "start_roll"
    assert events[-1]["type"] == "start_tie" and events[-1]["players"] == ["Ann", "Cid", "Dee"]
    assert GAME.chance(state).player == "Ann"
    refused(state, "DT-TURN-1", type="roll", player="Bob", values=[6, 6])
    for total in ([3, 3], [6, 6], [6, 6]):
        state, _ = roll(state, *total)
    assert state["phase"] == "start_roll"
    assert state["start"]["rolling"] == [2, 3]
    state, _ = roll(state, 2, 2)
    state, _ = roll(state, 2, 1)
    assert state["phase"] == "choose" and state["first"] == 2


# -- choosing ------------------------------------------------------------------------------


def test_the_starting_player_chooses_first_then_clockwise():
    """DT-SETUP-7: the starting player chooses a character, low-level side up, then the others
    in clockwise order; nobody chooses out of turn, and a character is taken only once."""
    state = GAME.new(NAMES[:3], seed=1)
    for total in ([2, 3], [6, 5], [4, 4]):
        state, _ = roll(state, *total)
    refused(state, "DT-SETUP-7", type="choose", player="Ann", character="topdeck", city="rv-city")
    state, _ = act(state, type="choose", player="Bob", character="topdeck", city="rv-city")
    assert state["choosing"] == 2
    refused(state, "DT-SETUP-7", type="choose", player="Cid", character="topdeck", city="th-city")
    state, _ = act(state, type="choose", player="Cid", character="lumpin", city="th-city")
    state, _ = act(state, type="choose", player="Ann", character="mirella", city="sm-city")
    assert [h["character"] for h in state["heroes"]] == ["mirella", "topdeck", "lumpin"]
    assert all(h["level"] == "low" for h in state["heroes"])


def test_each_hero_starts_in_a_city_of_a_kingdom_of_his_own():
    """DT-SETUP-8, DT-AMB-21: the player names his home city (a kingdom may have several); it
    must be a city, and no two players share a kingdom, even through different cities. The hero
    stands in his home city."""
    state = choosing(3)
    refused(state, "DT-SETUP-8", type="choose", player="Ann", character="topdeck", city="rv-moor")
    refused(state, "DT-SETUP-8", type="choose", player="Ann", character="topdeck", city="nowhere")
    state, _ = act(state, type="choose", player="Ann", character="topdeck", city="rv-port")
    refused(state, "DT-SETUP-8", type="choose", player="Bob", character="lumpin", city="rv-city")
    offered = {a["city"] for a in GAME.legal_actions(state)}
    assert "rv-city" not in offered and "rv-port" not in offered
    assert offered == {"th-city", "cd-city", "sm-city", "bh-city", "iv-city"}
    state, _ = act(state, type="choose", player="Bob", character="lumpin", city="iv-city")
    assert state["heroes"][0]["home"] == state["heroes"][0]["space"] == "rv-port"
    assert state["heroes"][1]["home"] == state["heroes"][1]["space"] == "iv-city"


def test_the_choices_offered_are_free_characters_and_kingdoms():
    """DT-AMB-21, DT-SETUP-7: the phone UI is offered every free character with every city of a
    kingdom nobody has taken."""
    state = choosing(2)
    actions = GAME.legal_actions(state)
    assert {a["character"] for a in actions} == set(CHARACTERS)
    assert all(a["player"] == "Ann" for a in actions)
    state, _ = act(state, type="choose", player="Ann", character="grimnir", city="bh-city")
    actions = GAME.legal_actions(state)
    assert "grimnir" not in {a["character"] for a in actions}
    assert "bh-city" not in {a["city"] for a in actions}


def test_everyone_starts_with_sixty_gold_and_one_scroll_drawn_clockwise():
    """DT-SETUP-5: 60 gold and one scroll each; the scrolls are drawn blind, one per player,
    clockwise from the starting player, before the first turn."""
    state = GAME.new(NAMES[:3], seed=1)
    for total in ([2, 3], [6, 5], [4, 4]):
        state, _ = roll(state, *total)
    state = choose_all(
        state, [("topdeck", "rv-city"), ("lumpin", "th-city"), ("laeoretha", "cd-city")]
    )
    drawers = []
    while GAME.chance(state) is not None:
        chance = GAME.chance(state)
        assert (chance.kind, chance.rule) == ("draw", "DT-SETUP-5")
        drawers.append(chance.player)
        state, _ = act(state, **GAME.sample(state))
    assert drawers == ["Bob", "Cid", "Ann"]
    assert [h["gold"] for h in state["heroes"]] == [60, 60, 60]
    assert [len(h["scrolls"]) for h in state["heroes"]] == [1, 1, 1]
    assert [h["xp"] for h in state["heroes"]] == [0, 0, 0]
    assert len(state["scrolls"]["deck"]) == 17


def test_the_starting_scroll_is_seen_only_by_its_owner():
    """DT-SETUP-5, DT-AMB-30: the starting scroll's identity goes to its drawer alone; the
    others see that he holds one."""
    state = standard(2)
    state, events = act(state, type="draw_scroll", scroll="aegis")
    drawn = events[0]
    assert GAME.view_event(drawn, "Ann")["private"]["scroll"] == "aegis"
    for viewer in ("Bob", TABLE, HOST):
        assert "aegis" not in json.dumps(GAME.view_event(drawn, viewer))
    state, _ = act(state, type="draw_scroll", scroll="hex")
    seen = view(state, "Bob")["players"]["Ann"]
    assert seen["scrolls"] is None and seen["scroll_count"] == 1


def test_the_first_quests_go_one_to_each_wild_area():
    """DT-SETUP-9, DT-TOK-6, DT-AMB-5: once everyone has chosen, the two quest tokens are placed
    on the data set's start spaces, one in each of the two wild areas; every view shows where."""
    state = standard(2)
    assert state["quests"] == DATA["quest_starts"]
    wedges = [DATA["spaces"][q]["wedge"] for q in state["quests"]]
    assert len(set(wedges)) == 2
    assert all(next(w for w in DATA["wedges"] if w["id"] == wd)["kind"] == "wild" for wd in wedges)
    state = play_out(state)
    for viewer in (TABLE, HOST, "Ann", "Bob"):
        assert view(state, viewer)["quests"] == DATA["quest_starts"]


def test_the_first_turn_belongs_to_the_player_who_chose_first():
    """DT-TURN-1, DT-SETUP-7: after the starting scrolls, the player who chose first moves."""
    state = GAME.new(NAMES[:3], seed=1)
    for total in ([2, 3], [4, 4], [6, 5]):
        state, _ = roll(state, *total)
    state = choose_all(
        state, [("topdeck", "cd-city"), ("lumpin", "th-city"), ("laeoretha", "rv-city")]
    )
    state = play_out(state)
    assert state["phase"] == "move" and state["active"] == 2 and state["turn"] == 1
    assert state["t"]["moves_left"] == DATA["characters"]["topdeck"]["low"]["movement"]


def test_a_card_does_what_its_data_says():
    """DT-CARD-1: a card's own text wins over the rules; the core has no built-in card effects,
    it applies what the data set says a card or token does: edit the Enchanter's effect and the
    price of the Dagger in a copy of the set, and the core applies the edited values."""
    data = copy.deepcopy(DATA)
    data["name"] = "edited"
    data["tokens"]["enchanter"]["effect"] = {"gold": 7}
    data["items"]["dagger"]["equipment"]["price"] = 3
    game = DorkTower({"edited": data})
    heroes = {"Ann": hero("topdeck", "rv-city", space="rv-moor"), "Bob": hero("lumpin", "th-city")}
    state = game.new(["Ann", "Bob"], {"scenario": {"heroes": heroes}})

    def ok(state, **a):
        result = game.apply(state, a)
        assert isinstance(result, Accepted), result
        return result.state

    state = ok(state, type="stop", player="Ann")
    state = ok(state, type="draw_token", token="enchanter")
    state = ok(state, type="draw_token", token="merchant")
    state = ok(state, type="resolve", player="Ann", token="enchanter")
    assert state["heroes"][0]["gold"] == 67 and state["pending"] == []
    state = ok(state, type="resolve", player="Ann", token="merchant")
    state = ok(state, type="draw_item", card="dagger")
    assert state["heroes"][0]["slots"][0] == {"card": "dagger", "face": "equipment"}
    assert game.view(state, TABLE)["players"]["Ann"]["slots"][0]["price"] == 3


def test_a_scenario_starts_at_a_turn_with_the_data_sets_quests():
    """DT-SETUP-9, DT-SETUP-5: an arranged position gets the quest start spaces and the
    starting gold unless it says otherwise."""
    state = arrange({"Ann": hero("topdeck", "rv-city"), "Bob": hero("lumpin", "th-city")})
    assert state["quests"] == DATA["quest_starts"]
    assert [h["gold"] for h in state["heroes"]] == [60, 60]
    with pytest.raises(SetupError):
        arrange({"Ann": hero("topdeck", "rv-moor"), "Bob": hero("lumpin", "th-city")})
