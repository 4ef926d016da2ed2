"""Dork Tower: the Combat Table and the roll, victory and rewards, and where tokens go (spec
sections 2.9, 2.10, 5; combat arithmetic is in ``test_dorktower_combat_strength.py``).

Most positions put Ann (Topdeck, low level, strength 7) in Ravensteel Keep with monsters waiting
next door in Ravenwood: her first step ends there and the fight begins (DT-ENC-2). Bo plays
Lumpin Lightfingers in Thunderhawk. All names and numbers are the invented example data set's,
except those of the rulebook's own example (DT-EX-1).
"""

from __future__ import annotations

import json
import shutil
from typing import Any

import pytest
from dt_support import (
    DAGGER_AND_MAIL,
    DATA,
    GAME,
    act,
    ann,
    arrange,
    bo,
    draw_tokens,
    fight,
    hero,
    hero_of,
    kinds,
    play_out,
    refused,
    roll,
    topdeck_example,
    totals,
    view,
)

from companion.games.dorktower.rules import DorkTower, load_dataset
from companion.games.dorktower.rules.data import example_directory
from companion.rules import Refusal

# ----------------------------------------------------------------------------------------------
# DT-COMBAT-5, -6, -7 and the Combat Table


@pytest.mark.parametrize(
    ("monsters", "difference", "target"),
    [
        (["mummy", "wolf"], 0, 7),  # equal totals: row 0
        (["ogre", "wolf"], +1, 6),
        (["mummy", "giant-rat"], +2, 6),  # +1 and +2 share a row
        (["mummy", "orc-shaman"], -1, 8),
        (["mummy", "giant-spider"], -2, 8),  # the rulebook's row "-1 or -2"
        (["mummy", "troll"], -3, 9),
    ],
)
def test_the_combat_table_row(monsters, difference, target):
    """DT-COMBAT-5, DT-AMB-2: the difference of the totals picks a band of two; equal totals are
    row 0; "-1 or -2" needs 8 (the one value the rulebook gives; the others are the data's)."""
    t = totals(fight(monsters, {"items": DAGGER_AND_MAIL}))
    assert (t["difference"], t["target"]) == (difference, target)


def test_the_combat_table_ends_are_open():
    """DT-AMB-2: differences beyond the example table's last bands use those bands."""
    weak = totals(fight(["elder-dragon", "young-dragon", "mummy"]))
    strong = totals(
        fight(
            ["giant-rat"],
            {
                "items": DAGGER_AND_MAIL
                + [
                    {"card": "round-shield", "face": "magic"},
                    {"card": "ring-of-protection", "face": "magic"},
                ]
            },
        )
    )
    assert (weak["difference"], weak["target"]) == (7 - 29, 12)
    assert (strong["difference"], strong["target"]) == (7 + 1 + 3 + 4 + 3 - 1, 2)


def test_the_combat_table_is_clamped(tmp_path):
    """DT-AMB-2: a data set whose Combat Table stops at -2 and +2 clamps beyond its last rows:
    -14 uses the "-1 or -2" row, +10 the "+1 or +2" row."""
    folder = tmp_path / "bounded"
    shutil.copytree(example_directory(), folder)
    (folder / "combat_table.json").write_text(
        json.dumps(
            {
                "rows": [
                    {"min": -2, "max": -1, "target": 8},
                    {"min": 0, "max": 0, "target": 7},
                    {"min": 1, "max": 2, "target": 6},
                ]
            }
        ),
        encoding="utf-8",
    )
    manifest = json.loads((folder / "dataset.json").read_text(encoding="utf-8"))
    (folder / "dataset.json").write_text(
        json.dumps({**manifest, "name": "bounded"}), encoding="utf-8"
    )
    game = DorkTower({"bounded": load_dataset(folder)})

    def target(monsters: list[str]) -> tuple[int, int]:
        state = game.new(
            ["Ann", "Bo"],
            {"scenario": {"heroes": {"Ann": ann(), "Bo": bo()}, "monsters": {"rv-wood": monsters}}},
        )
        state = game.apply(state, {"type": "step", "player": "Ann", "to": "rv-wood"}).state
        t = game.totals(state)
        return t["difference"], t["target"]

    assert target(["elder-dragon", "young-dragon"]) == (-14, 8)
    assert target(["mummy"]) == (-1, 8)
    assert target(["giant-rat"]) == (6, 6)


@pytest.mark.parametrize(
    ("dice", "won"),
    [((4, 4), True), ((6, 2), True), ((3, 4), False), ((1, 1), False), ((6, 6), True)],
)
def test_at_least_the_target_wins(dice, won):
    """DT-COMBAT-7: two dice; a total at least the row's number wins (8 here), less loses."""
    after, _ = roll(topdeck_example(), *dice)
    assert view(after)["last_combat"]["won"] is won


def test_sixes_are_bought_only_before_the_roll():
    """DT-COMBAT-6: a six costs 4 XP, before the roll, for the fighter alone: refused with 3 XP,
    for Bo, and after a failed roll."""
    refused(topdeck_example(xp=3), "DT-COMBAT-6", type="buy_six", player="Ann")
    state = topdeck_example(xp=8)
    refused(state, "DT-COMBAT-6", type="buy_six", player="Bo")
    lost, _ = roll(state, 1, 2)
    assert lost["phase"] == "defeat"
    refused(lost, "DT-COMBAT-6", type="buy_six", player="Ann")


def test_two_sixes_need_no_roll():
    """DT-COMBAT-6, DT-COMBAT-7: 8 XP make both dice sixes: 12 is judged at once, no roll."""
    state = topdeck_example(xp=8)
    state, _ = act(state, type="buy_six", player="Ann")
    state, events = act(state, type="buy_six", player="Ann")
    assert "victory" in kinds(events)
    assert view(state)["last_combat"]["dice"] == [6, 6]
    assert hero_of(state)["xp"] == 0 + 6  # 8 spent, 6 earned
    refused(state, "DT-COMBAT-6", type="buy_six", player="Ann")


# ----------------------------------------------------------------------------------------------
# DT-COMBAT-9, -10: all or nothing, and one's own battles


def test_no_partial_victory():
    """DT-COMBAT-9, DT-DEFEAT-1: losing to a Troll and a Giant Rat leaves both on the board, even
    the rat alone would be easy; winning kills both and pays both."""
    state = fight(["troll", "giant-rat"], {"items": DAGGER_AND_MAIL})
    lost, _ = roll(state, 1, 1)
    lost, _ = act(lost, type="flee", player="Ann", to="rv-port")
    assert lost["monsters"]["rv-wood"] == ["troll", "giant-rat"]
    assert hero_of(lost)["xp"] == 0
    won, events = roll(state, 6, 6)
    killed = next(e for e in events if e["type"] == "monsters_killed")
    assert killed["tokens"] == ["troll", "giant-rat"] and killed["xp"] == 3 + 1
    assert "rv-wood" not in won["monsters"] and hero_of(won)["xp"] == 4


def test_a_removal_scroll_takes_a_monster_out_before_the_fight():
    """DT-COMBAT-9: Banishment removes the Mummy before the roll: Ann fights the Orc Shaman alone
    (11 against 4) and takes only its XP; the last monster cannot be removed."""
    state = topdeck_example(scrolls=["banishment", "dismissal"])
    state, _ = act(state, type="play_scroll", player="Ann", scroll="banishment", token="mummy")
    t = totals(state)
    assert (t["monsters"], t["difference"]) == (4, 7)
    refused(
        state,
        "DT-COMBAT-9",
        type="play_scroll",
        player="Ann",
        scroll="dismissal",
        token="orc-shaman",
    )
    state, _ = act(state, type="done", player="Ann")
    won, events = roll(state, 2, 1)
    killed = next(e for e in events if e["type"] == "monsters_killed")
    assert killed["tokens"] == ["orc-shaman"] and hero_of(won)["xp"] == 2


def test_other_characters_are_not_involved():
    """DT-COMBAT-10, DT-TRADE-2: Bo stands in Ravenwood with his Battle Axe when Ann fights there:
    his strength and items do not count, he gains nothing and he stays put when she flees."""
    state = arrange(
        {
            "Ann": ann(items=DAGGER_AND_MAIL),
            "Bo": bo(space="rv-wood", items=[{"card": "battle-axe"}]),
        },
        options={"trade_windows": "none"},
    )
    state, _ = act(state, type="step", player="Ann", to="rv-wood")
    state, _ = act(state, type="stop", player="Ann")
    state = draw_tokens(state, "goblin", "orc", "wolf")
    assert totals(state)["player"] == 11 and totals(state)["monsters"] == 8
    won, _ = roll(state, 3, 3)
    assert hero_of(won, "Bo")["xp"] == 0 and hero_of(won, "Ann")["xp"] == 4
    lost, _ = roll(state, 1, 1)
    lost, _ = act(lost, type="flee", player="Ann", to="rv-port")
    assert hero_of(lost, "Bo")["space"] == "rv-wood" and not hero_of(lost, "Bo")["dead"]
    assert hero_of(lost, "Bo")["slots"][0]["card"] == "battle-axe"


# ----------------------------------------------------------------------------------------------
# DT-REWARD, DT-TOK-2: XP, treasure tables, the dungeon's prize


def test_every_monster_gives_xp_even_without_treasure():
    """DT-TOK-2, DT-REWARD-1: the Giant Rat has no treasure table: its XP is taken and no
    treasure die is rolled; the Goblin's table asks for one."""
    won, _ = roll(fight(["giant-rat"]), 3, 3)
    assert hero_of(won)["xp"] == 1 and won["pending"] == []
    won, _ = roll(fight(["goblin", "giant-rat"]), 4, 4)
    assert hero_of(won)["xp"] == 2
    assert [(p["why"], p["token"]) for p in won["pending"]] == [("treasure", "goblin")]
    assert GAME.chance(won).rule == "DT-REWARD-2"


@pytest.mark.parametrize(
    ("token", "die", "gold", "awaits"),
    [
        ("orc", 1, 0, None),  # "nothing"
        ("orc", 3, 10, None),
        ("orc", 5, 0, ("item", "equipment")),
        ("orc", 6, 0, ("scroll", None)),
        ("orc-shaman", 6, 0, ("item", "magic")),
    ],
)
def test_treasure_roll_results(token, die, gold, awaits):
    """DT-REWARD-2, DT-TOK-2: one die on the token's table: gold is taken, a scroll is drawn into
    the hand, equipment or a magic item is an item card drawn with that face up."""
    won, _ = roll(fight([token]), 6, 5)
    after, events = roll(won, die)
    assert next(e for e in events if e["type"] == "treasure")["value"] == die
    assert hero_of(after)["gold"] == 60 + gold
    waiting = GAME.awaited(after)
    if awaits is None:
        assert waiting is None
    else:
        assert (waiting["kind"], waiting.get("face")) == awaits
        assert waiting["why"] == "treasure"


def test_treasure_cards_are_free_and_kept():
    """DT-REWARD-2: the Orc Shaman's 6 is a magic item: the drawn card goes on the sheet with its
    magic face up, for no gold; a scroll result goes into the hand."""
    won, _ = roll(fight(["orc-shaman", "orc"]), 6, 6)
    won, _ = roll(won, 6)  # Orc Shaman: a magic item
    won, _ = act(won, type="draw_item", card="war-hammer")
    won, _ = roll(won, 6)  # Orc: a scroll
    won, _ = act(won, type="draw_scroll", scroll="rewind")
    me = hero_of(won)
    assert me["slots"][0]["card"] == "war-hammer" and me["slots"][0]["face"] == "magic"
    assert me["slots"][0]["name"] == "Thunder Hammer"
    assert [s["scroll"] for s in me["scrolls"]] == ["rewind"]
    assert me["gold"] == 60 and me["xp"] == 4


def test_one_treasure_die_per_token_even_for_twins():
    """DT-AMB-29: two Goblins are two tokens: two treasure dice, each on the Goblin's table."""
    won, _ = roll(fight(["goblin", "goblin"]), 5, 5)
    assert [(p["why"], p["token"], p["dice"]) for p in won["pending"]] == [
        ("treasure", "goblin", 1),
        ("treasure", "goblin", 1),
    ]
    won, _ = roll(won, 4)
    won, _ = roll(won, 3)
    assert hero_of(won)["gold"] == 60 + 10 + 5


def dungeon_fight(*tokens: str) -> dict[str, Any]:
    """Ann (high level) stands in Smugglers' Grotto, a dungeon in daylight: three tokens."""
    state = arrange(
        {"Ann": hero("topdeck", "sm-city", space="sm-grotto", level="high"), "Bo": bo()}
    )
    state, _ = act(state, type="stop", player="Ann")
    assert GAME.draw_count(state, "sm-grotto") == 3
    return draw_tokens(state, *tokens)


def test_a_dungeon_win_draws_an_extra_magic_item():
    """DT-SPACE-8, DT-REWARD-3: after the treasure rolls a dungeon victory draws one more item
    card, magic face up."""
    won, _ = roll(dungeon_fight("giant-rat", "giant-rat", "wolf"), 5, 5)
    assert won["pending"] == [{"kind": "item", "player": 0, "why": "dungeon", "face": "magic"}]
    won, events = act(won, type="draw_item", card="bow")
    gained = next(e for e in events if e["type"] == "item_gained")
    assert (gained["card"], gained["face"]) == ("bow", "magic")
    assert hero_of(won)["slots"][0]["name"] == "Elven Bow"
    assert won["phase"] == "cleanup"


def test_no_extra_item_outside_a_dungeon():
    """DT-SPACE-8, DT-REWARD-3: a forest victory gives the monsters' rewards and nothing more."""
    won, _ = roll(fight(["giant-rat", "wolf"]), 5, 5)
    assert won["pending"] == [] and won["phase"] == "cleanup"


def test_a_quest_win_adds_a_scroll_and_five_xp():
    """DT-REWARD-3, DT-QUEST-4: a quest victory adds a scroll and 5 XP to the monsters' XP."""
    won, events = roll(fight(["giant-rat"], quests=["rv-wood", "mf-reeds"]), 4, 4)
    assert "quest_won" in kinds(events)
    assert hero_of(won)["xp"] == 1 + 5
    assert GAME.awaited(won)["kind"] == "scroll" and GAME.awaited(won)["why"] == "quest"


# ----------------------------------------------------------------------------------------------
# DT-AMB-14: where tokens go


def test_killed_and_resolved_tokens_go_back_into_the_bowl():
    """DT-AMB-14: after the rewards the killed monsters, and a resolved Merchant, are back in the
    bowl; with ``killed_tokens_return: false`` they leave the game."""

    def bowl_after(**options: Any) -> dict[str, int]:
        state = arrange({"Ann": ann(space="rv-wood"), "Bo": bo()}, options=options)
        state, _ = act(state, type="stop", player="Ann")
        state = draw_tokens(state, "merchant", "goblin", "orc")
        state, _ = act(state, type="resolve", player="Ann", token="merchant")
        state, _ = act(state, type="draw_item", card="buckler")
        state, _ = roll(state, 6, 6)
        return view(play_out(state))["bowl"]

    full = {t: DATA["tokens"][t]["count"] for t in ("merchant", "goblin", "orc")}
    assert {t: bowl_after()[t] for t in full} == full
    kept = bowl_after(killed_tokens_return=False)
    assert {t: kept[t] for t in full} == {t: n - 1 for t, n in full.items()}


def test_an_empty_bowl_gives_what_is_left():
    """DT-AMB-14: a night forest asks for three tokens; with one Goblin left in the bowl only it
    is drawn, and the fight begins."""
    state = arrange({"Ann": ann(space="rv-wood"), "Bo": bo()})
    state["bowl"] = {token: 0 for token in state["bowl"]} | {"goblin": 1}
    state, _ = act(state, type="stop", player="Ann")
    assert len(state["pending"]) == 3
    state, events = act(state, type="draw_token", token="goblin")
    assert "nothing_to_draw" in kinds(events)
    assert state["phase"] == "pre_roll" and totals(state)["monsters"] == 2
    assert isinstance(GAME.apply(state, {"type": "draw_token", "token": "goblin"}), Refusal)
