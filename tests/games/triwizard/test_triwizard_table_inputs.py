"""TriwizardInputs: every sticker, seat button and die face becomes the action the phone would
send, decided from the public view alone; what is drawn is private and refused at the board's
reader without being named (spec section 7, TW-AMB-31). The rules core is a stand-in here
(``tw_table_support``): the mapping is tested on exactly the view it is given."""

from __future__ import annotations

import pytest
from tw_table_support import CUPS, NAMES, StandInGame, state

from companion.devices.events import DieRolled
from companion.games.triwizard.inputs import TriwizardInputs
from companion.rules import TABLE, Refusal
from companion.table.inputs import NOTHING_TO_TAP, WRONG_KIND
from companion.table.tags import Component

GAME = StandInGame()
INPUTS = TriwizardInputs(GAME)


def tap(s: dict, name: str, reader: str = "board"):
    return INPUTS.tag(s, Component("triwizard", name), "04A1B2C3D4E5F6", reader)


def refused(result, rule: str) -> str:
    assert isinstance(result, Refusal), result
    assert result.rule == rule, (result.rule, result.reason)
    return result.reason


# -- the split between phones and sensors ------------------------------------------------------

DESIGN_ACTIONS = (
    "placed draw_card draw_tile reveal_obstacle first tie roll swap_hand remove_cloak "
    "place_cloak move battle play_card no_match play_tile decline counter close_window peek "
    "steal take discard_tile flip_cup advance push_back choose end_turn"
).split()


def test_every_action_of_the_design_comes_from_a_phone_or_the_table():
    """The die and the end of the Dumbledore window (TW-RES-DUMB-2) come from the table only;
    every other action, draws included, may be told on a phone (a table without stickers)."""
    assert INPUTS.sensor_actions == {"roll", "close_window"}
    for kind in DESIGN_ACTIONS:
        assert (kind in INPUTS.sensor_actions) != INPUTS.from_phone(kind), kind
    assert not INPUTS.from_phone("undo")
    assert set(DESIGN_ACTIONS) == INPUTS.phone_actions | INPUTS.sensor_actions


def test_a_tag_of_another_game_or_an_unknown_kind_is_refused():
    result = INPUTS.tag(state(), Component("dorktower", "tower"), "04AA", "board")
    assert "another game" in refused(result, WRONG_KIND)
    assert "no such piece" in refused(tap(state(), "wand 3"), WRONG_KIND)


# -- Obstacle Cards and Battle Cards -------------------------------------------------------------


def test_an_obstacle_card_is_laid_out_only_while_the_lineup_waits_for_one():
    """TW-SETUP-9, TW-OCARD-4: the Lineup is public; at any other moment the prompt says what
    the table waits for."""
    s = state(phase="deal", pending=[{"kind": "obstacle"}])
    assert tap(s, "obstacle o-red-orange-8-2") == {
        "type": "reveal_obstacle",
        "card": "o-red-orange-8-2",
    }
    reason = refused(tap(state(), "obstacle o-red-orange-8-2"), NOTHING_TO_TAP)
    assert "Lineup" in reason and reason.endswith("PROMPT(open)")


def test_a_battle_card_drawn_is_refused_at_the_board_reader_without_naming_it():
    """TW-BCARD-2, TW-TURN-1: a card drawn is private; at the board's reader everyone would see
    it. The refusal names the drawer, never the card; at the drawer's own reader it is the draw."""
    s = state(phase="draw", pending=[{"kind": "card", "why": "refill", "player": 1}])
    for card in ("battle red-5-3", "battle b07"):
        reason = refused(tap(s, card), "TW-BCARD-2")
        assert "Bo" in reason and "phone" in reason
        assert "red" not in reason.lower() and "b07" not in reason
    assert tap(s, "battle red-5-3", reader="seat2") == {
        "type": "draw_card",
        "player": "Bo",
        "card": "red-5-3",
    }
    assert INPUTS.tag_owner(s, tap(s, "battle b07", reader="seat2")) == "Bo"


def test_a_battle_card_tapped_in_a_battle_is_played_face_up():
    """TW-BATTLE-1: in battle_select the active player's card goes face up; elsewhere no card is
    tapped."""
    s = state(phase="battle_select")
    assert tap(s, "battle red-5-3") == {"type": "play_card", "player": "Ann", "card": "red-5-3"}
    reason = refused(tap(state(phase="post"), "battle red-5-3"), NOTHING_TO_TAP)
    assert "played in a battle" in reason and reason.endswith("PROMPT(post)")


# -- Resource Tiles ------------------------------------------------------------------------------


def test_a_tile_drawn_or_stolen_is_refused_at_the_board_reader():
    """TW-RES-1, TW-RES-SPARK-1: a tile drawn (Gold Mist, a reward) or taken with Red Sparks is
    told on the drawer's phone; the same refusal whatever the tile is."""
    s = state(phase="reward", pending=[{"kind": "tile", "why": "reward", "player": 0}])
    reasons = {refused(tap(s, f"tile {tile}"), "TW-RES-1") for tile in ("r01", "r02", "r03")}
    assert len(reasons) == 1 and "Ann" in reasons.pop()
    assert tap(s, "tile r02", reader="seat1") == {
        "type": "draw_tile",
        "player": "Ann",
        "tile": "r02",
    }
    steal = state(phase="post", pending=[{"kind": "steal", "player": 0, "from": 1}])
    assert "Red Sparks" in refused(tap(steal, "tile r01"), "TW-RES-SPARK-1")
    assert tap(steal, "tile r01", reader="seat1") == {
        "type": "steal",
        "player": "Ann",
        "tile": "r01",
    }


def test_a_tile_with_one_way_to_play_it_is_played():
    """TW-RES-4: the Dumbledore tile has one target, the cloaked piece (TW-RES-DUMB-1)."""
    play = {"type": "play_tile", "player": "Ann", "tile": "r01", "target": "Bo"}
    s = state(cloak=1, _legal=[play, {"type": "end_turn", "player": "Ann"}])
    assert tap(s, "tile r01") == play


def test_a_tile_that_leaves_a_choice_open_is_played_on_the_phone():
    """TW-RES-SPARK-1 with two opponents: whom it is aimed at is chosen on the phone."""
    plays = [
        {"type": "play_tile", "player": "Ann", "tile": "r02", "target": name} for name in NAMES[1:]
    ]
    reason = refused(tap(state(_legal=plays), "tile r02"), "TW-RES-4")
    assert "Ann" in reason and "whom" in reason


def test_the_reductor_curse_is_played_with_the_move():
    """TW-RES-REDUCT-1/3: while moving, the Reductor goes with the move's path, entered on the
    phone; before the roll the rules say why not (TW-RES-REDUCT-3)."""
    moves = [{"type": "move", "player": "Ann", "path": ["K4", "G4", "H4"], "reductor": "r03"}]
    reason = refused(tap(state(phase="moving", _legal=moves), "tile r03"), "TW-RES-REDUCT-1")
    assert "move" in reason and "Ann" in reason
    assert tap(state(phase="open"), "tile r03") == {
        "type": "play_tile",
        "player": "Ann",
        "tile": "r03",
    }


def test_a_tile_not_playable_now_goes_to_the_rules_to_say_why():
    """TW-TURN-4, TW-RES-5: no legal play of it: the rules' refusal names the rule."""
    assert tap(state(phase="post"), "tile r04") == {
        "type": "play_tile",
        "player": "Ann",
        "tile": "r04",
    }
    reason = refused(tap(state(phase="setup"), "tile r04"), NOTHING_TO_TAP)
    assert reason.endswith("PROMPT(setup)")


def test_tiles_in_the_interrupts():
    """TW-RES-DUMB-2: the target's Dumbledore tile in the window is the counter; TW-RES-2: over
    the limit, a tile tapped is the discard; Veritaserum's pick is made on the caster's phone
    (TW-AMB-21)."""
    window = state(phase="post", cloak=1, _interrupt={"kind": "dumbledore", "player": "Bo"})
    assert tap(window, "tile r01") == {"type": "counter", "player": "Bo", "tile": "r01"}
    over = state(phase="post", _interrupt={"kind": "overflow", "player": "Cy"})
    assert tap(over, "tile r03") == {"type": "discard_tile", "player": "Cy", "tile": "r03"}
    veritaserum = state(phase="post", _interrupt={"kind": "veritaserum", "player": "Ann"})
    assert refused(tap(veritaserum, "tile r02"), NOTHING_TO_TAP).endswith("PROMPT(post)")


# -- Cup Tiles -----------------------------------------------------------------------------------


@pytest.mark.parametrize("phase", ["setup", "deal", "open", "moving", "post"])
def test_a_cup_tile_is_refused_outside_a_flip_alike_whatever_it_is(phase):
    """TW-AMB-31, TW-CUP-2: Cup Tiles are never tapped at set-up or any time but their flip;
    the refusal is the same for the Cup and each Headstone Tile (nothing tells them apart)."""
    reasons = {refused(tap(state(phase=phase), f"cup {cup}"), "TW-CUP-2") for cup in CUPS}
    assert len(reasons) == 1
    reason = reasons.pop()
    assert "flipped" in reason and "headstone" not in reason.lower()


def test_a_cup_tile_flipped_is_public():
    """TW-CUP-2, TW-HEAD-1: the flip awaited names its slot; the tile tapped says what it is."""
    s = state(phase="flip", pending=[{"kind": "cup", "slot": "3"}])
    assert tap(s, "cup headstone-2") == {"type": "flip_cup", "slot": "3", "tile": "headstone-2"}
    assert tap(s, "cup cup") == {"type": "flip_cup", "slot": "3", "tile": "cup"}


def test_the_four_point_peek_is_never_told_at_the_board_reader():
    """TW-RES-4PT-2, TW-AMB-31: the peeked tile goes to the caster's phone only; at the board's
    reader it is refused alike for every tile; at the caster's own reader it is the peek."""
    s = state(phase="post", pending=[{"kind": "peek", "slot": "2", "player": 0}])
    reasons = {refused(tap(s, f"cup {cup}"), "TW-RES-4PT-2") for cup in CUPS}
    assert len(reasons) == 1 and "Ann" in next(iter(reasons))
    peek = tap(s, "cup headstone-3", reader="seat1")
    assert peek == {"type": "peek", "player": "Ann", "slot": "2", "tile": "headstone-3"}
    assert INPUTS.tag_owner(s, peek) == "Ann"


# -- pieces and spaces ---------------------------------------------------------------------------


@pytest.mark.parametrize("phase", ["cloak_place", "removal_place"])
def test_a_piece_tapped_is_where_the_cloak_goes(phase):
    """TW-TURN-3, TW-CLOAK-5/7: the piece's number is its seat's; a piece not in the game (3
    players: piece 4) is no target (TW-AMB-27)."""
    s = state(phase=phase)
    assert tap(s, "piece 2") == {"type": "place_cloak", "player": "Ann", "on": "Bo"}
    assert tap(s, "piece 1") == {"type": "place_cloak", "player": "Ann", "on": "Ann"}
    assert "Piece 4" in refused(tap(s, "piece 4"), "TW-CLOAK-5")


def test_the_cloak_tapped_goes_beside_the_board():
    """TW-CLOAK-7: after it is taken off, the Cloak's own sticker puts it beside the board; after
    a Cloak roll the rules refuse that (TW-TURN-3); at another time it is refused here."""
    for phase in ("removal_place", "cloak_place"):
        assert tap(state(phase=phase), "cloak") == {
            "type": "place_cloak",
            "player": "Ann",
            "on": None,
        }
    reason = refused(tap(state(phase="post"), "cloak"), NOTHING_TO_TAP)
    assert "beside the board" in reason and reason.endswith("PROMPT(post)")


def test_a_piece_tapped_at_another_time_is_refused():
    reason = refused(tap(state(phase="moving"), "piece 2"), NOTHING_TO_TAP)
    assert "Cloak" in reason and reason.endswith("PROMPT(moving)")


def test_a_space_tapped_while_moving_is_the_shortest_way_the_rules_offer():
    """TW-MOVE-1..9: the mover's reach (the rules') gives the path; a way without the Reductor
    is taken before one with it; the piece's own space is staying; a space out of reach goes to
    the rules (one step there), who say why."""
    reach = [
        {"space": "H4", "steps": 3, "path": ["K4", "G4", "H4"], "reductor": "r03"},
        {"space": "B2", "steps": 3, "path": ["K2", "B1", "B2"], "reductor": None},
        {"space": "B2", "steps": 2, "path": ["X", "B2"], "reductor": "r03"},
        {"space": "K5", "steps": 2, "path": ["K4", "K5"], "reductor": None, "stops": "obstacle"},
    ]
    s = state(phase="moving", _reach=reach)
    assert tap(s, "space b2") == {"type": "move", "player": "Ann", "path": ["K2", "B1", "B2"]}
    assert tap(s, "space h4") == {
        "type": "move",
        "player": "Ann",
        "path": ["K4", "G4", "H4"],
        "reductor": "r03",
    }
    assert tap(s, "space k3") == {"type": "move", "player": "Ann", "path": []}
    assert tap(s, "space k7") == {"type": "move", "player": "Ann", "path": ["K7"]}
    assert "Ann" in GAME.views  # the reach is the mover's own view


def test_a_space_tapped_when_one_is_asked_for_is_the_choice():
    """TW-AMB-5/6/32/34: the rules offer spaces; the one tapped is chosen by whom they ask."""
    s = state(phase="moving", _interrupt={"kind": "choose", "player": "Cy"})
    assert tap(s, "space k6") == {"type": "choose", "player": "Cy", "space": "K6"}
    assert refused(tap(state(phase="post"), "space k6"), NOTHING_TO_TAP).endswith("PROMPT(post)")


def test_a_space_tapped_after_a_battle_is_the_advance_or_the_push_back():
    """TW-BATTLE-WIN-1: forward, the first step not back where the piece came from (TW-AMB-9);
    TW-BATTLE-LOSE-1, TW-TURN-9: back, entered by the right-hand neighbour, first step to where
    it came from; farther than allowed is refused with the rule."""
    fight = {"seat": 0, "space": "K5", "entered_from": "K4"}
    won = state(phase="advance", pieces=["K5", "K1", "K0"], fight=fight, _advance={"max": 3})
    assert tap(won, "space k7") == {"type": "advance", "player": "Ann", "path": ["K6", "K7"]}
    assert "K2" in refused(tap(won, "space k2"), "TW-BATTLE-WIN-1")  # only back the way in
    lost = state(
        phase="push_back",
        pieces=["K5", "K1", "K0"],
        fight=fight,
        _push_back={"by": "Cy", "max": 3, "from": "K5"},
    )
    assert tap(lost, "space k2") == {
        "type": "push_back",
        "player": "Cy",
        "path": ["K4", "K3", "K2"],
    }
    assert "3" in refused(tap(lost, "space b2"), "TW-BATTLE-LOSE-1")  # 5 steps away


# -- seat buttons and the die ---------------------------------------------------------------------


def test_the_seat_buttons():
    """TW-RES-DUMB-2: the target's press lets Dumbledore stand; TW-BATTLE-5: after a short roll
    the fighter's press declines the Double Die; the mover's press ends a move where the piece
    stands (TW-MOVE-1, TW-BATTLE-WIN-1; TW-BATTLE-LOSE-1: the right-hand neighbour's);
    TW-SETUP-1..5 and TW-AMB-25 at the start; TW-TURN-6 otherwise; a long press undoes."""
    window = state(phase="post", cloak=1, _interrupt={"kind": "dumbledore", "player": "Bo"})
    assert INPUTS.button(window, "Bo", long=False) == {"type": "decline", "player": "Bo"}
    assert INPUTS.button(window, "Ann", long=False) == {"type": "end_turn", "player": "Ann"}
    short = state(phase="battle_short")
    assert INPUTS.button(short, "Ann", long=False) == {"type": "decline", "player": "Ann"}
    assert INPUTS.button(short, "Bo", long=False) == {"type": "end_turn", "player": "Bo"}
    moving = state(phase="moving")
    assert INPUTS.button(moving, "Ann", long=False) == {"type": "move", "player": "Ann", "path": []}
    assert INPUTS.button(moving, "Bo", long=False) == {"type": "end_turn", "player": "Bo"}
    won = state(phase="advance", _advance={"max": 3})
    assert INPUTS.button(won, "Ann", long=False) == {"type": "advance", "player": "Ann", "path": []}
    lost = state(phase="push_back", _push_back={"by": "Cy", "max": 4, "from": "K3"})
    assert INPUTS.button(lost, "Cy", long=False) == {
        "type": "push_back",
        "player": "Cy",
        "path": [],
    }
    assert INPUTS.button(lost, "Ann", long=False) == {"type": "end_turn", "player": "Ann"}
    setup = state(phase="setup", active=None)
    assert INPUTS.button(setup, "Cy", long=False) == {"type": "placed", "player": "Cy"}
    first = state(phase="first_player", active=None)
    assert INPUTS.button(first, "Bo", long=False) == {"type": "first", "player": "Bo"}
    tie = state(phase="first_player", active=None, pending=[{"kind": "die", "why": "tie"}])
    assert INPUTS.button(tie, "Bo", long=False) == {"type": "end_turn", "player": "Bo"}
    assert INPUTS.button(state(phase="post"), "Ann", long=False) == {
        "type": "end_turn",
        "player": "Ann",
    }
    assert INPUTS.button(state(phase="post"), "Ann", long=True) == {"type": "undo"}


def test_the_dice_readers_triwizard_profile():
    """TW-AMB-2: CLOAK is "cloak" (the profile values it 0 for battles, the rules say so
    themselves, TW-BATTLE-4); a number is its value."""
    cloak = DieRolled(die=0, face="CLOAK", seq=1, value=0, profile="triwizard")
    assert INPUTS.die(state(phase="roll"), cloak) == {"type": "roll", "value": "cloak"}
    for face in (1, 2, 3, 4, 5):
        rolled = DieRolled(die=0, face=str(face), seq=2, profile="triwizard")
        assert INPUTS.die(state(phase="roll"), rolled) == {"type": "roll", "value": face}


def test_the_mapping_reads_the_public_view():
    """Every decision above comes from the table's view (TABLE), the mover's reach aside."""
    GAME.views.clear()
    tap(state(phase="battle_select"), "battle b07")
    tap(state(phase="flip", pending=[{"kind": "cup", "slot": "1"}]), "cup cup")
    INPUTS.button(state(phase="post"), "Ann", long=False)
    assert GAME.views and set(GAME.views) == {TABLE}
