"""The Triwizard undo in things and places (``Game.placement``, ``Game.put_back_steps``,
``rules/putting_back.py``): for every action type, the steps followed by hand on the table after
the action give the table before it; the table is the same for every state the table display
cannot tell apart; each step's sentence is public and in Italian too; a card or tile drawn is
never named nor tapped (section 7).

Seeded random games reach most action types; Albus Dumbledore's counter, a Resource Tile
discarded over the limit and an attempt to take the Cloak off start from the spec's examples
(EX-TW-7, EX-TW-8, EX-TW-9)."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from put_back_support import checked_steps, italian, sentences_of
from tw_support import (
    ANN,
    BLUE_2_4,
    BLUE_5_3,
    BOB,
    GAME,
    GREEN_1_5,
    GREEN_4_2,
    O_BLUE_9_1,
    O_RED_ORANGE_8_2,
    RED_5_3,
    act,
    arrange,
    awaiting,
    default_lineup,
    draw_tiles,
    move,
    refill,
    roll,
    start,
    tile_of,
    tiles_of,
)

from companion.games import get_game
from companion.games.triwizard.rules import putting_back
from companion.games.triwizard.rules.actions import HANDLERS
from companion.games.triwizard.rules.state import unseen_cups
from companion.rules import TABLE, Accepted
from companion.rules.putting_back import Thing

IT = italian("triwizard")
CHECKED: Counter = Counter()
MET: set[str] = set()  #: the sentences and phrases of the steps met so far
SENTENCES = sentences_of(putting_back)  # every t("...") of the module


A_HAND = [RED_5_3, BLUE_2_4, GREEN_4_2, GREEN_1_5]  # as in the spec's examples
HIDDEN = {"battle card", "resource tile", "cup tile"}


def check_undo(game: Any, before: dict, action: dict, after: dict) -> list:
    steps, was = checked_steps(game, before, action, after, IT, MET)
    data = game.data(before)
    kinds = Counter()
    for (thing, _place), n in was.items():
        kinds[thing.kind] += n
    assert (kinds["battle card"], kinds["resource tile"]) == (
        len(data["battle"]),
        len(data["tiles"]),
    )
    assert (kinds["obstacle"], kinds["cup tile"], kinds["piece"]) == (
        len(data["obstacles"]),
        4,
        len(before["players"]),
    )
    for step in steps:
        if step.thing.kind in HIDDEN:  # section 7: never named on the table
            assert step.thing.name is None
        if step.thing.kind in ("battle card", "resource tile"):
            assert step.confirm is None
        if step.confirm is not None:
            assert step.confirm.seat is None
    CHECKED[action["type"]] += 1
    return steps


def test_every_action_type_is_put_back():
    game = get_game("triwizard")
    for seed in range(10):  # (seed 9 reaches a choice of spaces)
        rng = random.Random(seed)
        state = game.new(["Ann", "Bob", "Cid", "Dee"][: 2 + seed % 3], {}, seed=seed)
        for _ in range(300):
            if game.outcome(state).finished:
                break
            chance = game.chance(state) is not None
            action = game.sample(state) if chance else rng.choice(game.legal_actions(state))
            result = game.apply(state, action)
            assert isinstance(result, Accepted), (action, result)
            if CHECKED[action["type"]] < 20:
                check_undo(game, state, action, result.state)
            if action["type"] == "flip_cup":  # TW-CUP-2: the tile may be any one unseen
                for tile in unseen_cups(state, action["slot"]):
                    flip = {**action, "tile": tile}
                    flipped = game.apply(state, flip)
                    if isinstance(flipped, Accepted):  # (a tile peeked at is that tile)
                        check_undo(game, state, flip, flipped.state)
                other = game.indistinguishable(result.state, TABLE, random.Random(seed))
                assert game.placement(other) == game.placement(result.state)
            state = result.state
    arranged()
    piles_turned_over()
    assert set(CHECKED) == set(HANDLERS), set(HANDLERS) - set(CHECKED)
    assert len(SENTENCES) > 20 and SENTENCES <= MET, sorted(SENTENCES - MET)  # no sentence unused


def arranged() -> None:
    # EX-TW-7, TW-CLOAK-6: trying to take the Cloak off moves nothing
    s = arrange(pieces={ANN: "K2"}, cloak=ANN, hands={ANN: A_HAND[:3]})
    s = refill(s, ANN, GREEN_1_5)
    after = act(s, type="remove_cloak", player=ANN)
    assert check_undo(GAME, s, {"type": "remove_cloak", "player": ANN}, after) == []
    # EX-TW-8, TW-RES-DUMB-2: the counter discards both Dumbledore tiles
    dumb_b, dumb_a = tiles_of("dumbledore")[:2]
    s = start(
        arrange(pieces={ANN: "K14"}, cloak=ANN, active=BOB, tiles={ANN: [dumb_a], BOB: [dumb_b]})
    )
    s = act(s, type="play_tile", player=BOB, tile=dumb_b, target=ANN)
    counter = {"type": "counter", "player": ANN, "tile": dumb_a}
    (step,) = check_undo(GAME, s, counter, act(s, **counter))
    assert step.text == "Move a Resource Tile from the Resource discard pile back to Ann's tiles."
    # EX-TW-3, TW-RES-DDIE-1: the Double Die's roll turns the die over again
    ddie = tile_of("double_die")
    s = start(
        arrange(
            4,
            pieces={ANN: "K4"},
            hands={ANN: [BLUE_5_3, RED_5_3, GREEN_4_2, GREEN_1_5]},
            tiles={ANN: [ddie]},
            lineup=[{"card": O_RED_ORANGE_8_2, "up": False}, *default_lineup(O_BLUE_9_1)[:3]],
        )
    )
    s = roll(
        act(move(roll(s, 1), ANN, ["K5"]), type="play_card", player=ANN, card=BLUE_5_3), "cloak"
    )
    s = act(s, type="play_tile", player=ANN, tile=ddie)
    again = {"type": "roll", "value": 2, "player": ANN}
    (step,) = check_undo(GAME, s, again, act(s, **again))
    assert step.text == "Turn the die back to the Cloak symbol."
    # EX-TW-9, TW-RES-2: a seventh tile, one discarded
    five = [tile_of(k) for k in ("four_point", "cloak", "red_sparks", "summon_hedge")]
    five.append(tile_of("veritaserum"))
    s = start(
        arrange(
            pieces={ANN: "K4"},
            hands={ANN: A_HAND},
            tiles={ANN: five},
            lineup=default_lineup(O_RED_ORANGE_8_2),
        )
    )
    s = move(roll(s, 1), ANN, ["K5"])
    s = roll(act(s, type="play_card", player=ANN, card=RED_5_3), 5)
    s = draw_tiles(act(s, type="advance", player=ANN, path=["K6"]), ANN, 2)
    discard = {"type": "discard_tile", "player": ANN, "tile": five[2]}
    (step,) = check_undo(GAME, s, discard, act(s, **discard))
    assert (step.source.kind, step.target.owner, step.thing) == (
        "discard",
        ANN,
        Thing("resource tile"),
    )


def emptied(state: dict, pile: str) -> dict:
    """``state`` with the draw pile ``pile`` empty, its cards on the discard pile (as after
    many draws; TW-BCARD-4, TW-RES-3 and TW-OCARD-4 turn it over at the next draw)."""
    state = copy.deepcopy(state)
    cards = state[pile]["deck"] + state[pile]["discard"]
    state[pile]["deck"], state[pile]["discard"] = [], sorted(cards)
    return state


def piles_turned_over() -> None:
    """A draw from an empty pile turns its discard pile over; beating the last face-up Obstacle
    Card discards the Lineup (TW-OCARD-4). Undone, the cards go back where they lay."""
    s = emptied(arrange(pieces={ANN: "K2"}, hands={ANN: A_HAND[:3]}), "battle_pile")
    draw = {"type": "draw_card", "player": ANN, "card": GREEN_1_5}
    steps = check_undo(GAME, s, draw, act(s, **draw))
    assert [(step.source.kind, step.target.kind, step.count) for step in steps] == [
        ("hand", "discard", 1),
        ("pile", "discard", len(s["battle_pile"]["discard"]) - 1),
    ]
    lineup = [O_RED_ORANGE_8_2] + [{"card": c, "up": False} for c in default_lineup()[1:]]
    s = start(arrange(pieces={ANN: "K4"}, hands={ANN: A_HAND}, lineup=lineup))
    s = roll(act(move(roll(s, 1), ANN, ["K5"]), type="play_card", player=ANN, card=RED_5_3), 5)
    advance = {"type": "advance", "player": ANN, "path": ["K6"]}
    after = act(s, **advance)
    steps = check_undo(GAME, s, advance, after)
    assert steps[0].text == "Move Ann's piece back to K5."
    lineup_back = {
        step.target.name: step.thing.name for step in steps if step.thing.kind == "obstacle"
    }
    assert lineup_back["1 face up"] == O_RED_ORANGE_8_2
    assert sorted(lineup_back) == ["1 face up", "2 face down", "3 face down", "4 face down"]
    assert (
        f"Move the Obstacle Card {O_RED_ORANGE_8_2} from the Obstacle discard pile back to "
        "Lineup position 1." in [step.text for step in steps]
    )
    s = emptied(after, "tile_pile")  # the reward, from a pile turned over
    draw = GAME.sample(s)
    steps = check_undo(GAME, s, draw, act(s, **draw))
    assert [(step.source.kind, step.target.kind) for step in steps] == [
        ("pile", "discard"),
        ("tiles", "discard"),
    ]
    s = draw_tiles(act(s, **draw), ANN, 1)
    assert awaiting(s)["kind"] == "obstacle"
    s = emptied(s, "obstacle_pile")
    reveal = GAME.sample(s)
    steps = check_undo(GAME, s, reveal, act(s, **reveal))
    assert {(step.source.kind, step.target.kind) for step in steps} == {
        ("lineup", "discard"),  # the card laid out came from the pile turned over
        ("pile", "discard"),
    }


def test_a_flipped_cup_tile_turns_face_down_and_a_piece_goes_back():
    """TW-CUP-2, TW-HEAD-1: flipping a Headstone sends the piece to its Headstone Space;
    undoing it turns the tile face down (its sticker tapped) and moves the piece back."""
    game = get_game("triwizard")
    for seed in range(30):
        rng = random.Random(seed)
        state = game.new(["Ann", "Bob"], {}, seed=seed)
        for _ in range(300):
            if game.outcome(state).finished:
                break
            chance = game.chance(state) is not None
            action = game.sample(state) if chance else rng.choice(game.legal_actions(state))
            after = game.apply(state, action).state
            if action["type"] == "flip_cup":
                steps = check_undo(game, state, action, after)
                cup = next(s for s in steps if s.thing == Thing("cup tile"))
                slot = action["slot"]
                assert (cup.source.name, cup.target.name) == (
                    f"{slot} face up",
                    f"{slot} face down",
                )
                assert cup.confirm.component == f"cup {action['tile']}"
                assert f"Cup Tile {action['slot']}" in cup.text
                return
            state = after
    raise AssertionError("no Cup Tile flipped in 30 games")
