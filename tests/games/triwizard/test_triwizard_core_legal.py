"""``legal_actions`` is sound and complete: over random playouts, every action offered is
accepted, and every action of a type the players make, tried with the parameters the state
suggests, is refused unless it is offered (walks: unless a walk to the same end is offered)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from core_support import DATA, GAME, PLAYERS, new

from companion.rules.api import Accepted

SIMPLE = [
    "placed",
    "first",
    "swap_hand",
    "remove_cloak",
    "battle",
    "no_match",
    "decline",
    "end_turn",
]
WALKS = ("move", "advance", "push_back")


def key(action):
    return repr(sorted(action.items()))


def candidates(state):
    names = state["players"]
    out = [{"type": "close_window"}]
    out += [{"type": "tie", "players": list(g)} for g in combinations(names, 2)]
    spaces = ["K3", "M172", "M171", state["hedge"]]
    for seat, name in enumerate(names):
        out += [{"type": kind, "player": name} for kind in SIMPLE]
        out += [{"type": "place_cloak", "player": name, "on": on} for on in [None, *names]]
        out += [{"type": "play_card", "player": name, "card": c} for c in state["hands"][seat]]
        for tile in state["tiles"][seat]:
            base = {"type": "play_tile", "player": name, "tile": tile}
            out.append(base)
            out += [{**base, "target": other} for other in names]
            out += [{**base, "on": other} for other in names]
            out += [{**base, "slot": slot} for slot in "1234"]
            out += [{**base, "space": space} for space in spaces]
            out.append({"type": "counter", "player": name, "tile": tile})
            out.append({"type": "discard_tile", "player": name, "tile": tile})
        for other in range(len(names)):
            out += [{"type": "take", "player": name, "tile": x} for x in state["tiles"][other]]
        for entry in state["interrupts"]:
            if entry["kind"] == "choose":
                out += [{"type": "choose", "player": name, "space": s} for s in entry["options"]]
    return out


def walk_end(state, action):
    result = GAME.apply(state, action)
    if not isinstance(result, Accepted):
        return None
    return key({k: v for k, v in action.items() if k != "path"}), result


@pytest.mark.parametrize("seed", range(3))
def test_offered_is_accepted_and_nothing_else_is(seed):
    rng = random.Random(seed)
    state = new(PLAYERS[: 2 + seed], seed=seed)
    steps = 0
    while not GAME.outcome(state).finished and steps < 900:
        steps += 1
        legal = GAME.legal_actions(state)
        offered = {key(a) for a in legal}
        for action in legal:
            assert isinstance(GAME.apply(state, action), Accepted), action
        for action in candidates(state):
            if key(action) not in offered:
                result = GAME.apply(state, action)
                assert not isinstance(result, Accepted), (action, state["phase"])
        if state["phase"] in ("moving", "advance", "push_back") and not state["interrupts"]:
            ends = set()
            for action in legal:
                if action["type"] in WALKS:
                    ends.add(GAME.apply(state, action).state["pieces"][state["active"]])
            seat = state["active"]
            here = state["pieces"][seat]
            kind = {"moving": "move"}.get(state["phase"], state["phase"])
            mover = legal[0]["player"] if legal else None
            for there in DATA["board"]["neighbours"].get(here, []):
                for beyond in [[], *[[n] for n in DATA["board"]["neighbours"].get(there, [])]]:
                    action = {"type": kind, "player": mover, "path": [there, *beyond]}
                    result = GAME.apply(state, action)
                    if isinstance(result, Accepted):
                        assert result.state["pieces"][seat] in ends, (action, ends)
        if GAME.chance(state) is not None and (not legal or rng.random() < 0.7):
            action = GAME.sample(state)
        else:
            action = rng.choice(legal)
        state = GAME.apply(state, action).state
