"""DorkTowerInputs: the tower's sticker, seat buttons, token, card and space stickers and the dice
become the very actions the phone sends; each mapped action is then judged by the real core."""

from __future__ import annotations

from companion.devices.events import DieRolled
from companion.games import get_game
from companion.rules import Accepted, Refusal
from companion.table.inputs import NOTHING_TO_TAP, WRONG_KIND, inputs_for
from companion.table.tags import Component

GAME = get_game("dorktower")
INPUTS = inputs_for(GAME)
HEROES = {
    "Ann": {
        "character": "topdeck",
        "home": "rv-city",
        "space": "rv-moor",
        "items": [{"card": "dagger"}],
    },
    "Bo": {"character": "lumpin", "home": "th-city"},
}


def arranged(**more) -> dict:
    return GAME.new(list(HEROES), {"scenario": {"heroes": HEROES, **more}}, seed=3)


def sticker(name: str) -> Component:
    return Component("dorktower", name)


def accept(state: dict, action) -> dict:
    assert not isinstance(action, Refusal), action
    result = GAME.apply(state, action)
    assert isinstance(result, Accepted), (action, result)
    return result.state


def test_the_towers_sticker_and_the_seat_button_end_the_turn():
    """DT-TIME-2, DT-LIMIT-4: the tower's sticker (tapped when it is turned) and the active
    seat's short press both end the turn; a long press is undo."""
    state = arranged(quests=["hw-flats", "mf-reeds"])
    state = accept(state, {"type": "step", "player": "Ann", "to": "rv-crypt"})
    state = accept(state, {"type": "step", "player": "Ann", "to": "rv-moor"})
    state = accept(state, {"type": "step", "player": "Ann", "to": "rv-shadow"})
    state = accept(state, {"type": "stop", "player": "Ann"})
    while GAME.chance(state) is not None:  # the shadowland's two tokens and whatever follows
        state = accept(state, GAME.sample(state))
        for action in GAME.legal_actions(state):
            if action["type"] in ("resolve", "done", "pass", "flee"):
                state = accept(state, action)
                break
    if state["phase"] == "defeat":
        state = accept(
            state, next(a for a in GAME.legal_actions(state) if a["type"] in ("flee", "die"))
        )
    assert state["phase"] == "cleanup", GAME.view(state, "@all")["prompt"]
    action = INPUTS.tag(state, sticker("tower"), "04AA", "board")
    assert action == {"type": "end_turn", "player": "Ann"}
    after = accept(state, action)
    assert after["tower_step"] == 1 and after["active"] == 1
    assert INPUTS.button(after, "Bo", long=False) == {"type": "end_turn", "player": "Bo"}
    assert INPUTS.button(after, "Bo", long=True) == {"type": "undo"}
    # a press from the wrong seat is mapped, and the rules refuse it
    refused = GAME.apply(after, INPUTS.button(after, "Ann", long=False))
    assert isinstance(refused, Refusal) and refused.rule == "DT-TURN-1"


def test_token_and_card_stickers_are_draws_only_while_one_is_awaited():
    """DT-ENC-3, DT-CARD-6: a token's sticker is the awaited draw; a scroll's goes to the drawer;
    at any other moment a sticker is refused with the prompt."""
    state = arranged()
    refused = INPUTS.tag(state, sticker("token goblin"), "04AB", "board")
    assert isinstance(refused, Refusal) and refused.rule == NOTHING_TO_TAP
    state = accept(state, {"type": "stop", "player": "Ann"})  # a field by day or night
    assert GAME.awaited(state)["kind"] == "token"
    assert not GAME.wedge_days(state)[0]  # Ravensteel is in night: a field draws two
    state = accept(state, INPUTS.tag(state, sticker("token enchanter"), "04AC", "board"))
    state = accept(state, INPUTS.tag(state, sticker("token enchanter"), "04AC", "board"))
    assert state["phase"] == "resolve"
    state = accept(state, {"type": "resolve", "player": "Ann", "token": "enchanter"})
    assert GAME.awaited(state)["kind"] == "scroll"
    action = INPUTS.tag(state, sticker("scroll hex"), "04AD", "board")
    assert action == {"type": "draw_scroll", "scroll": "hex", "player": "Ann"}
    item = INPUTS.tag(state, sticker("item dagger"), "04AE", "board")
    assert isinstance(item, Refusal) and item.rule == NOTHING_TO_TAP


def test_a_space_sticker_is_a_step_there():
    """DT-MOVE-3: on a stickered board, tapping a space while moving is the step there; the
    rules check that it is next to the hero."""
    state = arranged()
    action = INPUTS.tag(state, sticker("space rv-crypt"), "04AF", "board")
    assert action == {"type": "step", "player": "Ann", "to": "rv-crypt"}
    assert accept(state, action)["heroes"][0]["space"] == "rv-crypt"
    beyond = INPUTS.tag(state, sticker("space sm-city"), "04B0", "board")
    assert beyond == {"type": "step", "player": "Ann", "to": "sm-city"}  # out of reach
    far = GAME.apply(state, beyond)
    assert isinstance(far, Refusal) and far.rule == "DT-MOVE-3"


def test_a_farther_space_sticker_takes_the_maps_route():
    """A space a few steps away is reached as a tap on the map reaches it: the ``travel`` of its
    cheapest way, when that way costs only movement; one that costs XP, a scroll or the whole
    movement (DT-BORDER-2) is chosen on the phone, and the sticker says so."""
    state = arranged()
    action = INPUTS.tag(state, sticker("space rv-port"), "04B2", "board")
    assert action == {
        "type": "travel",
        "player": "Ann",
        "path": ["rv-crypt", "rv-mere", "rv-port"],
        "pay": [{}, {}, {}],
    }
    moved = accept(state, action)
    assert moved["heroes"][0]["space"] == "rv-port" and moved["t"]["moves_left"] == 1
    rich = GAME.new(
        list(HEROES),
        {"scenario": {"heroes": {**HEROES, "Ann": {**HEROES["Ann"], "xp": 3}}}},
        seed=3,
    )
    paid = INPUTS.tag(rich, sticker("space cd-mine"), "04B3", "board")  # 5 steps: 1 XP
    assert isinstance(paid, Refusal) and paid.rule == "DT-MOVE-2"
    assert "Old Copper Mine" in str(paid.reason) and "Ann" in str(paid.reason)
    assert "cd-mine" in {place["to"] for place in GAME.view(rich, "Ann")["reach"]}


def test_another_games_sticker_is_refused():
    wrong = INPUTS.tag(arranged(), Component("abracadawhat", "stone 3"), "04B1", "board")
    assert isinstance(wrong, Refusal) and wrong.rule == WRONG_KIND


def test_two_dice_from_the_reader_are_the_fights_roll():
    """DT-COMBAT-7, DT-COMP-9: the reader's two dice become one roll of both."""
    state = arranged(monsters={"rv-crypt": ["goblin"]})
    state = accept(state, {"type": "step", "player": "Ann", "to": "rv-crypt"})
    chance = GAME.chance(state)
    assert (chance.kind, chance.dice, chance.profile) == ("die", 2, "d6")
    rolls = [
        DieRolled(die=d, face=str(v), seq=d, reader="dice", value=v, roll=d + 1, profile="d6")
        for d, v in enumerate((4, 5))
    ]
    action = INPUTS.dice(state, rolls)
    assert action == {"type": "roll", "values": [4, 5]}
    assert accept(state, action)["last_combat"]["roll"] == 9


def test_the_phone_sends_decisions_and_draws_but_never_rolls():
    """Without stickers on tokens and cards, the drawer says on the phone what was drawn; rolls
    come only from the dice reader or the server's virtual roll."""
    assert "roll" in INPUTS.sensor_actions and "roll" not in INPUTS.phone_actions
    assert {
        "draw_token",
        "draw_item",
        "draw_scroll",
        "end_turn",
        "play_scroll",
    } <= INPUTS.phone_actions
    from companion.games.dorktower.rules.actions import HANDLERS as _HANDLERS

    # close_window comes from the table's countdown (or the host), never from a phone
    assert "close_window" not in INPUTS.phone_actions
    assert set(_HANDLERS) == INPUTS.phone_actions | INPUTS.sensor_actions | {"close_window"}
