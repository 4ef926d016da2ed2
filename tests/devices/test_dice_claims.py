"""What a dice reader claims, and what the host driver believes: only the dice the reader
declared, only the faces of the profile asked for each die, only roll numbers that are new.

The test plays the reader on a pty (``dice_pty``), writing well-formed lines with valid
checksums that no real reader would send; the simulated reader (the real firmware) shows that
what a reader does send is still believed.
"""

from __future__ import annotations

import time

import pytest
from dice_pty import (  # noqa: F401 (connect, open_readers, pty and ready are fixtures)
    FIRMWARE,
    connect,
    hello,
    open_readers,
    pty,
    ready,
    roll,
)

from companion.devices.dice import DEFAULT_DICE, MAX_DICE, ROLL_WINDOW
from companion.devices.dice_protocol import Message, encode
from companion.devices.dice_sim import start_simulated_dice
from companion.devices.events import DeviceNoise, DeviceStatus, DieRolled, DieState

FORGED = 999_999_999  # the largest roll number a line can carry

# -- dice the reader declared --------------------------------------------------------------


@pytest.mark.parametrize("die", [2, 30_000])
@pytest.mark.parametrize(
    ("verb", "fields"),
    [
        ("MOVING", {}),
        ("ROLLING", {"roll": 1}),
        ("CROOKED", {"roll": 1}),
        ("PLACED", {"face": 3}),
        ("DIE", {"state": "rest", "profile": "d6", "faces": "1,2,3,4,5,6", "face": 3, "led": 0}),
        ("DIE", {"state": "unknown", "profile": "d6", "led": 0}),
        ("ROLL", {"roll": 1, "face": 3, "profile": "d6", "value": 3}),
        ("ERR", {"code": "sensor", "msg": "no-answer"}),
    ],
)
def test_a_die_the_reader_did_not_declare_is_noise(pty, ready, events, die, verb, fields) -> None:
    reader = ready()  # its HELLO declared 2 dice: 0 and 1
    line = encode(verb, 2, die=die, **fields)
    pty.write(line + roll(3, 1, 1, 6))
    assert events.get() == DeviceNoise(
        "dice", f"{verb} 2 ignored: die {die} is not one of the 2 dice the reader declared"
    )
    assert events.get() == DieRolled(1, "6", 3, roll=1, profile="d6")
    assert events.pending() == []
    totals = reader.noise_totals()
    assert (totals.lines, totals.bytes, totals.kinds) == (1, len(line) - 1, {"undeclared die": 1})


def test_many_undeclared_dice_leave_no_trace(pty, ready, events) -> None:
    """Each line for another undeclared die, up to die 30,000: counted, never an event."""
    reader = ready(noise_interval=60)
    lines = [encode("MOVING", 2 + index, die=MAX_DICE + 20 * index) for index in range(1_500)]
    pty.write(b"".join(lines) + roll(2 + len(lines), 0, 1, 2))
    before, rolled = events.until(lambda event: isinstance(event, DieRolled))
    assert rolled == DieRolled(0, "2", 2 + len(lines), roll=1, profile="d6")
    assert [type(event) for event in before] == [DeviceNoise]  # the first; the rest summed up
    totals = reader.noise_totals()
    assert (totals.lines, totals.bytes) == (len(lines), sum(len(line) - 1 for line in lines))
    assert totals.kinds == {"undeclared die": len(lines)}


def test_the_dice_count_is_the_last_hellos(pty, connect, events) -> None:
    reader = connect(noise_interval=0.2)
    assert reader.dice_count == DEFAULT_DICE  # before any HELLO: the standard build
    for seq, declared, count in [(0, 4, 4), (3, 30_000, MAX_DICE), (6, 1, 1)]:
        pty.write(hello(seq, dice=declared))
        assert events.get() == DeviceStatus("dice", True, FIRMWARE)
        assert pty.read_message().verb == "STATUS"
        assert reader.dice_count == count
        pty.write(encode("MOVING", seq + 1, die=count - 1) + encode("MOVING", seq + 2, die=count))
        assert events.get() == DieState(count - 1, "moving")
        assert events.get().detail.startswith(f"MOVING {seq + 2} ignored: die {count} is not")
        time.sleep(0.3)  # the next noise is told at once
    # A HELLO that says nothing of its dice: the standard build.
    pty.write(encode("HELLO", 9, proto=1, fw="1.0.0", boot="b00t", why="host"))
    assert events.get() == DeviceStatus("dice", True, FIRMWARE)
    assert pty.read_message().verb == "STATUS"
    assert reader.dice_count == DEFAULT_DICE


def test_a_profile_for_a_die_the_reader_lacks_is_kept_and_sent_once_it_is_declared(
    pty, ready, events
) -> None:
    reader = ready()  # 2 dice
    reader.set_profile(5, "battle")
    pty.assert_silent(0.2)
    assert reader.profile(5) == ("battle", None)
    reader.set_profile(1, "rotation")
    assert pty.read_message() == Message("PROFILE", 2, {"die": "1", "name": "rotation"})
    pty.write(hello(2, dice=6))  # the same reader, with more dice
    assert events.get() == DeviceStatus("dice", True, FIRMWARE)
    assert [pty.read_message() for _ in range(3)] == [
        Message("PROFILE", 3, {"die": "1", "name": "rotation"}),
        Message("PROFILE", 4, {"die": "5", "name": "battle"}),
        Message("STATUS", 5, {}),
    ]


# -- faces of the asked profile ------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "why"),
    [
        pytest.param(
            roll(2, 0, 1, 6, "battle", value=6),
            "reads profile battle, which has no face '6'",
            id="a face the profile lacks",
        ),
        pytest.param(
            roll(2, 0, 1, "ice", "battle"),
            "reads profile battle, which has no face 'ice'",
            id="a face of another profile",
        ),
        pytest.param(
            roll(2, 0, 1, 4, "d6"),
            ": it was read with profile d6, not battle",
            id="read with another profile",
        ),
        pytest.param(
            roll(2, 0, 1, 4, "battle", value=5),
            ": value 5 is not the value of face '4' (4)",
            id="another face's value",
        ),
        pytest.param(
            roll(2, 0, 1, "2P", "battle", value=3),
            ": value 3 is not the value of face '2P' (2)",
            id="the purple 2 worth 3",
        ),
        pytest.param(
            roll(2, 0, 1, 3, "battle", again=1),
            ": again=1 does not fit face '3'",
            id="roll again on a plain face",
        ),
        pytest.param(
            roll(2, 0, 1, "2P", "battle", value=2, again=0),
            ": again=0 does not fit face '2P'",
            id="the purple 2 without roll again",
        ),
        pytest.param(
            encode("PLACED", 2, die=0, face=6),
            "reads profile battle, which has no face '6'",
            id="PLACED",
        ),
        pytest.param(
            encode(
                "DIE", 2, die=0, state="rest", profile="battle", faces="1,2,2P,3,4,5", face=6, led=1
            ),
            "reads profile battle, which has no face '6'",
            id="DIE",
        ),
    ],
)
def test_a_face_outside_the_asked_profile_is_noise(pty, ready, events, line, why) -> None:
    reader = ready()
    reader.set_profile(0, "battle")
    verb = line.split(b" ")[0].decode()
    separator = "" if why.startswith(":") else " "
    pty.write(line + roll(3, 0, 1, "2P", "battle", value=2, again=1))
    assert events.get() == DeviceNoise("dice", f"{verb} 2 ignored: die 0{separator}{why}")
    # It changed nothing: the same roll number, read right, is delivered.
    assert events.get() == DieRolled(0, "2P", 3, roll=1, profile="battle", value=2, again=True)
    assert events.pending() == []
    assert reader.noise_totals().kinds == {"wrong face": 1}


def test_faces_of_a_custom_profile_are_its_own(pty, ready, events) -> None:
    reader = ready()
    reader.set_profile(1, "custom", ("red", "red", "blue", "blue", "gold", "7"))
    pty.write(
        roll(2, 1, 1, "gold", "custom")
        + roll(3, 1, 2, "7", "custom")
        + roll(4, 1, 3, "green", "custom")
        + roll(5, 1, 3, "red", "custom")
    )
    assert [events.get() for _ in range(4)] == [
        DieRolled(1, "gold", 2, roll=1, profile="custom"),
        DieRolled(1, "7", 3, roll=2, profile="custom", value=7),
        DeviceNoise(
            "dice", "ROLL 4 ignored: die 1 reads profile custom, which has no face 'green'"
        ),
        DieRolled(1, "red", 5, roll=3, profile="custom"),
    ]


def test_a_die_report_of_another_profile_keeps_its_state_but_not_its_face(
    pty, ready, events
) -> None:
    """The reader reports a die before it got the host's PROFILE (after a restart, say): its
    face means nothing for the asked profile, but the die is still at rest."""
    reader = ready()
    reader.set_profile(0, "rotation")
    reader.set_profile(1, "custom", ("a", "b", "c", "d", "e", "f"))
    pty.write(
        encode("DIE", 2, die=0, state="rest", profile="d6", faces="1,2,3,4,5,6", face=4, led=1)
        + encode(
            "DIE",
            3,
            die=0,
            state="rest",
            profile="rotation",
            faces="ice,forest,desert,lake,mountain,meadow",
            face="lake",
            led=1,
        )
        + encode(
            "DIE", 4, die=1, state="rest", profile="custom", faces="a,b,c,d,e,x", face="x", led=1
        )
        + encode(
            "DIE", 5, die=1, state="rest", profile="custom", faces="a,b,c,d,e,f", face="e", led=1
        )
    )
    assert [events.get() for _ in range(4)] == [
        DieState(0, "rest", detail="profile d6"),
        DieState(0, "rest", face="lake", detail="profile rotation"),
        DieState(1, "rest", detail="profile custom"),
        DieState(1, "rest", face="e", detail="profile custom"),
    ]
    assert events.pending() == [] and reader.noise_lines == 0


def test_what_the_firmware_sends_is_believed(events, no_leaked_fds) -> None:
    """The simulated reader runs the real firmware: every die's every kind of report, with every
    kind of profile, is an event, and none of it is noise."""
    simulator, reader = start_simulated_dice(events.emit, seed=11)
    try:
        reader.set_profile(0, "custom", ("red", "red", "blue", "blue", "gold", "7"))
        reader.set_profile(1, "battle")
        assert reader.request("STATUS").verb == "OK"  # after both PROFILEs: sent in order
        before = reader.noise_totals()
        simulator.throw({0: "gold", 1: "2P"})
        simulator.crooked(1)
        simulator.place(0, "7")
        simulator.roll(1, "5")
        time.sleep(0.15)
        assert reader.ping(5.0)
        got = events.pending()
    finally:
        reader.close()
        simulator.close()
    rolls = [
        (event.die, event.face, event.value, event.again, event.roll)
        for event in got
        if isinstance(event, DieRolled)
    ]
    assert sorted(rolls) == [
        (0, "gold", None, False, 1),
        (1, "2P", 2, True, 1),
        (1, "5", 5, False, 3),
    ]
    states = [
        (event.die, event.state, event.face)
        for event in got
        if isinstance(event, DieState) and event.state in ("crooked", "placed")
    ]
    assert states == [(1, "crooked", None), (0, "placed", "7")]
    assert reader.noise_totals() == before


# -- roll numbers ----------------------------------------------------------------------------


def test_a_forged_roll_number_does_not_hide_the_next_genuine_rolls(pty, ready, events) -> None:
    reader = ready()
    pty.write(
        roll(2, 0, 1, 3)
        + roll(3, 0, FORGED, 6)
        + roll(4, 0, 2, 4)
        + encode("ROLLING", 5, die=0, roll=3)
        + roll(6, 0, 3, 5)
    )
    assert [events.get() for _ in range(5)] == [
        DieRolled(0, "3", 2, roll=1, profile="d6"),
        DeviceNoise(
            "dice",
            f"ROLL 3 ignored: die 0 roll {FORGED} is neither within "
            f"{ROLL_WINDOW} after roll 1, the last delivered, nor the roll its "
            f"latest ROLLING announced (none)",
        ),
        DieRolled(0, "4", 4, roll=2, profile="d6"),
        DieState(0, "rolling", roll=3),
        DieRolled(0, "5", 6, roll=3, profile="d6"),
    ]
    assert reader.noise_totals().kinds == {"stale roll": 1}


def test_a_forged_roll_first_of_all_is_believed_but_wedges_nothing(pty, ready, events) -> None:
    """With nothing delivered yet, the driver cannot tell; the next roll's ROLLING vouches."""
    ready()
    pty.write(
        roll(2, 0, FORGED, 6)
        + encode("ROLLING", 3, die=0, roll=1)
        + roll(4, 0, 1, 2)
        + roll(5, 0, 2, 3)
    )
    assert [events.get() for _ in range(4)] == [
        DieRolled(0, "6", 2, roll=FORGED, profile="d6"),
        DieState(0, "rolling", roll=1),
        DieRolled(0, "2", 4, roll=1, profile="d6"),
        DieRolled(0, "3", 5, roll=2, profile="d6"),  # within the window after roll 1
    ]


def test_a_replayed_roll_is_dropped_even_with_its_rolling(pty, ready, events) -> None:
    reader = ready(noise_interval=60)
    genuine = encode("ROLLING", 2, die=1, roll=1) + roll(3, 1, 1, 5)
    pty.write(genuine + roll(4, 1, 2, 6) + genuine)  # both lines again, word for word
    assert [events.get() for _ in range(4)] == [
        DieState(1, "rolling", roll=1),
        DieRolled(1, "5", 3, roll=1, profile="d6"),
        DieRolled(1, "6", 4, roll=2, profile="d6"),
        DeviceNoise("dice", "sequence gap: 65533 message(s) missed before seq 2"),
    ]
    assert events.get() == DieState(1, "rolling", roll=1)  # a state, never a game action
    assert events.pending() == []
    assert reader.noise_totals().kinds == {"sequence gap": 1, "stale roll": 1}


def test_the_roll_window_after_the_last_delivered_roll(pty, ready, events) -> None:
    reader = ready(noise_interval=60)
    pty.write(
        roll(2, 0, 10, 1)
        + roll(3, 0, 10 + ROLL_WINDOW + 1, 2)
        + roll(4, 0, 10 + ROLL_WINDOW, 3)
        + roll(5, 0, 10 + ROLL_WINDOW - 1, 4)
    )
    assert [events.get() for _ in range(3)] == [
        DieRolled(0, "1", 2, roll=10, profile="d6"),
        DeviceNoise(
            "dice",
            f"ROLL 3 ignored: die 0 roll {10 + ROLL_WINDOW + 1} is neither "
            f"within {ROLL_WINDOW} after roll 10, the last delivered, nor the "
            f"roll its latest ROLLING announced (none)",
        ),
        DieRolled(0, "3", 4, roll=10 + ROLL_WINDOW, profile="d6"),
    ]
    time.sleep(0.2)
    assert events.pending() == []  # the older number after it: folded noise
    assert reader.noise_totals().kinds == {"stale roll": 2}


def test_a_reader_that_kept_counting_is_believed_when_its_rolling_vouches(
    pty, ready, events
) -> None:
    """The host was away for thousands of rolls (or restarted): the same boot, numbers far on."""
    ready()
    far = 3 + 5 * ROLL_WINDOW
    pty.write(
        roll(2, 0, 3, 1)
        + encode("ROLLING", 3, die=0, roll=far)
        + roll(4, 0, far, 2)
        + roll(5, 0, far + 1, 3)
    )
    assert [events.get() for _ in range(4)] == [
        DieRolled(0, "1", 2, roll=3, profile="d6"),
        DieState(0, "rolling", roll=far),
        DieRolled(0, "2", 4, roll=far, profile="d6"),
        DieRolled(0, "3", 5, roll=far + 1, profile="d6"),
    ]
