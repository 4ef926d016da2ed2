"""Abracada...What?: hidden information (spec sections 2.10 and 7.2): views and events."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest
from abr_support import (
    FULL_SET,
    GAME,
    active,
    assert_stone_invariant,
    cast,
    events,
    names,
    new_round,
    play,
    playout,
    rack,
    seated,
    standard_deal,
    step,
    take_secret,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import EVERYTHING, HOST, TABLE

PLAYER_COUNTS = [2, 3, 4, 5]
PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

options_strategy = st.fixed_dictionaries(
    {},
    optional={
        "easy": st.booleans(),
        "last_wizard_standing": st.booleans(),
        "order_violation": st.sampled_from(["auto_penalty", "require_objection"]),
        "resolve_last_effect": st.booleans(),
        "removal": st.sampled_from(["auto", "tap"]),
    },
)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_a_player_sees_every_rack_but_his_own(n):
    """ABR-HID-1, ABR-SETUP-5: a player sees the stones of all other players but never his own;
    he still knows how many stones he has."""
    state = new_round(names(n))
    for me in names(n):
        players = GAME.view(state, me)["players"]
        for p in names(n):
            if p == me:
                assert players[p]["rack"] is None
            else:
                assert players[p]["rack"] == rack(state, p)
            assert players[p]["rack_size"] == 5


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_the_table_and_the_host_see_no_rack(n):
    """ABR-HID-1: the shared display and the host (usually a player too) see no rack at all."""
    state = new_round(names(n))
    for viewer in (TABLE, HOST):
        view = GAME.view(state, viewer)
        assert all(p["rack"] is None and p["secret"] is None for p in view["players"].values())
        assert "reserve" not in view and "secret" not in view and "tags" not in view


def test_a_half_dealt_rack_is_hidden_from_its_owner():
    """ABR-HID-1, ABR-HID-8: while the stones are tapped one by one, the player being dealt does not
    see them either, and the deal events never name them."""
    state = GAME.new(names(3))
    for stone in (8, 7, 6):
        result = step(state, {"type": "deal_stone", "stone": stone})
        (dealt,) = events(result, "stone_dealt")
        assert dealt["to"] == "rack" and dealt["player"] == "Ann" and "stone" not in dealt
        state = result.state
    assert GAME.view(state, "Ann")["players"]["Ann"]["rack"] is None
    assert GAME.view(state, "Ben")["players"]["Ann"]["rack"] == [6, 7, 8]


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_secret_stones_are_seen_by_nobody(n):
    """ABR-HID-2: the secret stones lie face down: no player, table or host view shows them,
    only which slots still hold one."""
    state = new_round(names(n))
    for viewer in (*names(n), TABLE, HOST):
        view = GAME.view(state, viewer)
        assert "secret" not in view
        assert view["secret_slots"] == [True] * 4
    assert GAME.view(state, EVERYTHING)["secret"] == state["secret"]


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_an_acquired_stone_is_seen_by_its_owner_only(n):
    """ABR-HID-3: the owner may look at his acquired stone at any time; the others see only that he
    has one."""
    state = play(
        seated(n, {"Ann": [4, 5, 6, 7, 8]}, secret=[2, 3, 3, 3]),
        cast("Ann", 4),
        take_secret("Ann", 0),
    )
    assert GAME.view(state, "Ann")["players"]["Ann"]["secret"] == [2]
    for viewer in (*names(n)[1:], TABLE, HOST):
        mine = GAME.view(state, viewer)["players"]["Ann"]
        assert mine["secret"] is None and mine["secret_stones"] == 1


def test_the_secret_taken_event_is_private_to_the_caster():
    """ABR-HID-3, ABR-SPELL-4: the event of taking a secret stone carries its number only for the
    caster; ``view_event`` strips it for everyone else."""
    state = play(seated(3, {"Ann": [4, 5, 6, 7, 8]}, secret=[2, 3, 3, 3]), cast("Ann", 4))
    (taken,) = events(step(state, take_secret("Ann", 0)), "secret_taken")
    assert GAME.view_event(taken, "Ann") == taken
    assert GAME.view_event(taken, EVERYTHING) == taken
    for viewer in ("Ben", "Cid", TABLE, HOST):
        public = GAME.view_event(taken, viewer)
        assert "private" not in public and "audience" not in public
        assert public["slot"] == 0 and public["player"] == "Ann"
        assert "2" not in public["text"].replace("slot 0", "")
    plain = {"type": "turn", "text": "x"}
    assert GAME.view_event(plain, "Ben") is plain


def test_the_reserve_is_unknown_to_everyone():
    """ABR-HID-4: nobody at the table sees the reserve, only its size."""
    state = new_round(names(2))
    for viewer in ("Ann", "Ben", TABLE, HOST):
        view = GAME.view(state, viewer)
        assert "reserve" not in view and view["reserve_size"] == 10


@pytest.mark.parametrize("n", [2, 3])
def test_removed_and_cast_stones_are_public(n):
    """ABR-HID-5: the stones removed for 2/3 players and the cast stones are public: they are on
    every view's board, and tapping a removed stone announces its number."""
    state = GAME.new(names(n))
    pool = [8] * 8 + [7] * 7 + [6] * 6 + [5] * 5 + [4] * 4 + [3] * 3 + [2] * 2 + [1]
    first_removed = 5 * n
    for i in range(first_removed):
        state = play(state, {"type": "deal_stone", "stone": pool[i]})
    result = step(state, {"type": "deal_stone", "stone": pool[first_removed]})
    (dealt,) = events(result, "stone_dealt")
    assert dealt["to"] == "removed" and dealt["stone"] == pool[first_removed]
    assert str(pool[first_removed]) in dealt["text"]
    assert GAME.view_event(dealt, TABLE) == dealt
    state = play(new_round(names(n)), cast("Ann", 8))
    for viewer in (*names(n), TABLE, HOST):
        assert GAME.view(state, viewer)["board"] == {
            "cast": state["cast"],
            "removed": state["removed"],
        }


def test_the_deal_announces_no_stone():
    """ABR-HID-8, ABR-NEXT-3: stones are dealt without looking: two different deals produce the
    same events and the same public view."""
    players = names(4)
    one = step(GAME.new(players), standard_deal(players, seed=1))
    other = step(GAME.new(players), standard_deal(players, seed=2))
    assert one.state["racks"] != other.state["racks"]
    assert one.events == other.events
    assert GAME.view(one.state, TABLE) == GAME.view(other.state, TABLE)


def test_unknown_viewers_are_refused():
    """ABR-HID-1: a view is only for a player at the table, the table display, the host, or the
    referee; anyone else gets nothing."""
    with pytest.raises(ValueError):
        GAME.view(new_round(names(2)), "Stranger")


# -- non-interference: what a viewer may not see cannot change his view --------------------------


def hidden_places(state: dict, viewer: str) -> list[tuple[str, int]]:
    """The places whose stones ``viewer`` may not see: (kind, seat) pairs, reserve and secret."""
    players = state["players"]
    if viewer in players:
        me = players.index(viewer)
        places = [("rack", me)] + [("acquired", i) for i in range(len(players)) if i != me]
    else:
        places = [("rack", i) for i in range(len(players))]
        places += [("acquired", i) for i in range(len(players))]
    return places + [("reserve", -1), ("secret", -1)]


def _slots(state: dict, kind: str, i: int) -> list:
    if kind == "rack":
        return state["racks"][i]
    if kind == "acquired":
        return state["acquired"][i]
    return state[kind]


def perturb(state: dict, viewer: str, rng: random.Random) -> dict:
    """A state that differs from ``state`` only in what ``viewer`` may not see: the stones of his
    hidden places exchanged among themselves, sizes kept, with his (or every) rack changed when
    the hidden stones allow it."""
    other = copy.deepcopy(state)
    places = hidden_places(state, viewer)
    keep = None  # a stone the caster provably holds: the one being removed
    if state["phase"] == "remove":
        keep = (state["active"], state["pending"]["spell"])
    pool, holes = [], []
    for kind, i in places:
        stones = _slots(other, kind, i)
        for j, stone in enumerate(stones):
            if stone is None:
                continue
            if keep and kind == "rack" and i == keep[0] and stone == keep[1]:
                keep = None
                continue
            pool.append(stone)
            holes.append((kind, i, j))
    rng.shuffle(pool)
    for (kind, i, j), stone in zip(holes, pool):
        _slots(other, kind, i)[j] = stone
    racks = [i for kind, i in places if kind == "rack"]
    for i in racks:  # make the hidden racks differ as multisets where possible
        if sorted(other["racks"][i]) != sorted(state["racks"][i]):
            continue
        for a, (kind, k, j) in enumerate(holes):
            if kind != "rack" or k != i:
                continue
            swap = next(
                (
                    b
                    for b, h in enumerate(holes)
                    if h[0] != "rack" or h[1] != i
                    if _slots(other, h[0], h[1])[h[2]] != _slots(other, kind, k)[j]
                ),
                None,
            )
            if swap is not None:
                kb, ib, jb = holes[swap]
                sa, sb = _slots(other, kind, k), _slots(other, kb, ib)
                sa[j], sb[jb] = sb[jb], sa[j]
                break
    for r in other["racks"]:
        r.sort()
    other["reserve"].sort()
    assert_stone_invariant(other)
    return other


@PROPERTY
@given(
    n=st.integers(2, 5),
    options=options_strategy,
    seed=st.integers(0, 10**6),
    where=st.floats(0, 1),
    shuffle_seed=st.integers(0, 10**6),
)
def test_views_do_not_depend_on_hidden_stones(n, options, seed, where, shuffle_seed):
    """ABR-HID-1, ABR-HID-2, ABR-HID-3, ABR-HID-4: for a reachable state and every viewer, a state
    that differs only in what he may not see (his own rack, the reserve, the untaken secret
    stones, other players' acquired stones; every rack for the table and the host) gives him the
    same view."""
    trail = playout(n, options, seed)
    state = trail[min(len(trail) - 1, int(where * len(trail)))][0]
    rng = random.Random(shuffle_seed)
    for viewer in (*state["players"], TABLE, HOST):
        other = perturb(state, viewer, rng)
        if viewer in state["players"] and can_change_rack(state, viewer):
            me = state["players"].index(viewer)
            assert sorted(other["racks"][me]) != sorted(state["racks"][me])
        assert GAME.view(state, viewer) == GAME.view(other, viewer)


def can_change_rack(state: dict, player: str) -> bool:
    """Whether the stones hidden from ``player`` allow a different rack of the same size."""
    me = state["players"].index(player)
    mine = list(state["racks"][me])
    if state["phase"] == "remove" and state["active"] == me:
        mine.remove(state["pending"]["spell"])
    elsewhere = {
        x
        for kind, i in hidden_places(state, player)
        if (kind, i) != ("rack", me)
        for x in _slots(state, kind, i)
        if x is not None
    }
    return any(a != b for a in mine for b in elsewhere)


def test_perturb_really_changes_the_hidden_rack():
    """ABR-HID-1: the non-interference check is not vacuous: the perturbed state has a different
    rack for the viewer, and the referee's view tells the two states apart."""
    state = new_round(names(3))
    other = perturb(state, "Ann", random.Random(1))
    assert sorted(other["racks"][0]) != sorted(state["racks"][0])
    assert other["racks"][1:] == state["racks"][1:]
    assert GAME.view(state, EVERYTHING) != GAME.view(other, EVERYTHING)
    assert GAME.view(state, "Ben") != GAME.view(other, "Ben")
    assert GAME.view(state, "Ann") == GAME.view(other, "Ann")


def redeal(deal: dict, rng: random.Random) -> dict:
    """The same deal with the face-down stones (racks, secret, reserve) shuffled anew; the
    stones removed face up stay as they are, since they are public."""
    pool = list((FULL_SET - Counter(deal["removed"])).elements())
    rng.shuffle(pool)
    racks = {}
    for p in deal["racks"]:
        racks[p], pool = sorted(pool[:5]), pool[5:]
    return dict(deal, racks=racks, secret=pool[:4])


SECRET_KEYS = {"stone", "stones", "rack", "racks", "reserve", "secret", "private", "audience"}


@PROPERTY
@given(n=st.integers(2, 5), options=options_strategy, seed=st.integers(0, 10**6))
def test_no_public_event_names_a_hidden_stone(n, options, seed):
    """ABR-HID-1, ABR-HID-4, ABR-HID-5, ABR-HID-8: in a whole random game, once ``private`` is
    stripped, no event carries a stone number except a stone removed face up; the events of a
    deal or a refill are the same whichever stones are drawn."""
    rng = random.Random(seed)
    for state, action, result in playout(n, options, seed):
        for event in result.events:
            public = GAME.view_event(event, TABLE)
            allowed = (
                {"stone"}
                if (event["type"], event.get("to")) == ("stone_dealt", "removed")
                else set()
            )
            assert not (set(public) & SECRET_KEYS) - allowed, event
            for p in state["players"]:
                if "private" in event and p not in event["audience"]:
                    assert "private" not in GAME.view_event(event, p)
        alternative = None
        if action["type"] == "refill":
            alternative = dict(
                action, stones=sorted(rng.sample(state["reserve"], len(action["stones"])))
            )
        elif action["type"] == "deal":
            alternative = redeal(action, rng)
        if alternative is not None:
            other = step(state, alternative)
            assert other.events == result.events
            viewer = active(state) if action["type"] == "refill" else TABLE
            assert GAME.view(other.state, viewer) == GAME.view(result.state, viewer)
