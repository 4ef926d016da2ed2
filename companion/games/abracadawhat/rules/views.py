"""What each viewer may see (ABR-HID-*): a player never sees his own rack; the table's prompt; and
a state a viewer cannot tell apart from the real one, for the secrets harness."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from companion.i18n import Text, t
from companion.rules.api import EVERYTHING, HOST, TABLE, State
from companion.rules.common import name_of

from .rounds import tie_break
from .seats import and_names
from .spells import SPELLS
from .stones import copy_state, deal_target, deal_total, reserve_size


def view(state: State, viewer: str, game: str) -> dict[str, Any]:
    """ABR-HID-*: a player never sees his own rack, the reserve or untaken secret stones, and
    sees only the secret stones he took himself; the table display and the host see no rack.
    ``game``: the game's id, named in the view."""
    names = state["players"]
    if viewer not in (TABLE, HOST, EVERYTHING) and viewer not in names:
        raise ValueError(f"unknown viewer {viewer!r}")
    everything = viewer == EVERYTHING
    players = {}
    for seat, name in enumerate(names):
        sees_rack = everything or (viewer in names and viewer != name)
        sees_secret = everything or viewer == name
        players[name] = {
            "seat": seat,
            "life": state["life"][seat],
            "score": state["score"][seat],
            "rack": list(state["racks"][seat]) if sees_rack else None,
            "rack_size": len(state["racks"][seat]),
            "secret_stones": len(state["acquired"][seat]),
            "secret": list(state["acquired"][seat]) if sees_secret else None,
        }
    phase = state["phase"]
    active = name_of(state, state["active"])
    pending = state["pending"]
    public_pending = None
    if pending is not None:
        public_pending = {"spell": pending["spell"]}
        if "remover" in pending:
            public_pending["remover"] = name_of(state, pending["remover"])
        if "for" in pending:
            public_pending["for"] = pending["for"]
    seen: dict[str, Any] = {
        "game": game,
        "viewer": viewer,
        "round": state["round"],
        "phase": phase,
        "active": active,
        "starter": name_of(state, state["starter"]),
        "finished": phase == "over",
        "winners": list(state["winners"]),
        "players": players,
        "order": list(names),
        "last_cast": state["last_cast"],
        "successes": state["successes"],
        "pending": public_pending,
        "board": {"cast": list(state["cast"]), "removed": list(state["removed"])},
        "reserve_size": reserve_size(state),
        "secret_slots": [stone is not None for stone in state["secret"]],
        "refill_left": state["refill_left"],
        "deal": None,
        "last_round": state["last_round"],
        "options": dict(state["options"]),
        "waiting_for": waiting_names(state),
        "prompt": prompt(state),
    }
    if phase == "deal":
        target, seat, index, of = deal_target(state)
        seen["deal"] = {
            "to": target,
            "player": None if seat is None else name_of(state, seat),
            "index": index,
            "of": of,
            "dealt": state["dealt"],
            "total": deal_total(state),
        }
    if everything:
        seen["reserve"] = list(state["reserve"])
        seen["secret"] = list(state["secret"])
        seen["unseen_removed"] = state["unseen_removed"]
        seen["tags"] = {uid: list(where) for uid, where in state["tags"].items()}
    return seen


def waiting_names(state: State) -> list[str]:
    phase = state["phase"]
    if phase in ("over", "deal"):
        return []
    if phase == "remove":
        return [name_of(state, state["pending"]["remover"])]
    if phase == "objection":
        return [player for seat, player in enumerate(state["players"]) if seat != state["active"]]
    return [name_of(state, state["active"])]


def prompt(state: State) -> Text:
    """What the table is waiting for, in one public sentence."""
    phase, pending = state["phase"], state["pending"]
    who = name_of(state, state["active"])
    if phase == "over":
        decided = tie_break(state)
        if decided is not None:
            return t(
                "The game is over: {players} won ({tie_break}).",
                players=and_names(state["winners"]),
                tie_break=decided,
            )
        return t("The game is over: {players} won.", players=and_names(state["winners"]))
    if phase == "deal":
        target, seat, index, of = deal_target(state)
        if target == "rack":
            return t(
                "Tap a stone for {player}'s rack ({index} of {of}).",
                player=name_of(state, seat),
                index=index,
                of=of,
            )
        if target == "removed":
            return t("Tap a stone to remove face up ({index} of {of}).", index=index, of=of)
        return t("Tap a secret stone and lay it face down ({index} of {of}).", index=index, of=of)
    if phase == "declare":
        if state["successes"]:
            return t(
                "{player}: cast {n} or higher, or end the turn.",
                player=who,
                n=state["last_cast"],
            )
        return t("{player}: declare a spell.", player=who)
    if phase == "objection":
        return t("{player} declared a lower spell: object, or let it stand.", player=who)
    if phase == "remove":
        return t(
            "{remover}: take a {n} from {player}'s rack and tap it on the reader.",
            remover=name_of(state, pending["remover"]),
            n=pending["spell"],
            player=who,
        )
    if phase == "roll":
        if pending["for"] == "failure":  # ABR-CAST-3
            return t(
                "{player} does not hold {dragon}: roll the die; {player} loses as much life as "
                "it shows (ABR-CAST-3).",
                player=who,
                dragon=SPELLS[1],
            )
        return t("{player}: roll the die.", player=who)
    if phase == "secret":
        return t("{player}: take a secret stone, or leave them.", player=who)
    count = state["refill_left"]
    if count > 1:
        return t("{player}: draw {n} stones from the reserve and tap them.", player=who, n=count)
    return t("{player}: draw 1 stone from the reserve and tap it.", player=who)


def indistinguishable(state: State, viewer: str, rng: random.Random) -> State:
    """ABR-HID-1..4: ``state`` with the stones ``viewer`` may not see dealt anew.

    The viewer's own rack (every rack, for the table display and the host), the reserve, the
    secret stones still face down and the other players' acquired secret stones are pooled,
    shuffled and dealt back into the same places with the same sizes, so the 36-stone
    accounting holds. The stone being removed after a successful cast stays in the caster's
    rack (everyone saw the cast succeed); the stickers' recorded places follow their stones
    where a stone of that number is still in a hidden place (otherwise the sticker is back in
    the reserve, untapped)."""
    dealt = copy_state(state)
    names = dealt["players"]
    if viewer == EVERYTHING:
        return dealt
    if viewer not in (TABLE, HOST) and viewer not in names:
        raise ValueError(f"unknown viewer {viewer!r}")
    seats = range(len(names))
    racks = [seat for seat in seats if viewer not in names or names[seat] == viewer]
    acquired = [seat for seat in seats if names[seat] != viewer]
    held = {seat: list(dealt["racks"][seat]) for seat in racks}
    known = None  # (seat, stone): a stone the viewer knows is in a hidden rack
    if dealt["phase"] == "remove" and dealt["active"] in held:
        known = (dealt["active"], dealt["pending"]["spell"])
        held[known[0]].remove(known[1])
    pool = (
        list(dealt["reserve"])
        + [stone for seat in racks for stone in held[seat]]
        + [stone for seat in acquired for stone in dealt["acquired"][seat]]
        + [stone for stone in dealt["secret"] if stone is not None]
    )
    rng.shuffle(pool)
    take = iter(pool)
    dealt["reserve"] = sorted(next(take) for stone in dealt["reserve"])
    for seat in racks:
        dealt["racks"][seat] = sorted(
            [next(take) for stone in held[seat]]
            + ([known[1]] if known and known[0] == seat else [])
        )
    for seat in acquired:
        dealt["acquired"][seat] = [next(take) for stone in dealt["acquired"][seat]]
    dealt["secret"] = [None if stone is None else next(take) for stone in dealt["secret"]]
    hidden = (
        [f"rack:{seat}" for seat in racks]
        + [f"acquired:{seat}" for seat in acquired]
        + [f"secret:{slot}" for slot in range(len(dealt["secret"]))]
    )
    dealt["tags"] = follow_tags(dealt, state["tags"], hidden, rng)
    return dealt


def follow_tags(
    state: State, tags: dict[str, list], hidden: list[str], rng: random.Random
) -> dict[str, list]:
    """The stickers' places after the stones in the ``hidden`` places were dealt anew: a sticker
    stays where a stone of its number still is, or moves to another hidden place holding one;
    with none left, its stone is in the reserve, untapped, and the sticker is forgotten."""
    free: Counter = Counter()
    for where in hidden:
        kind, index = where.split(":")
        stones = (
            [state["secret"][int(index)]]
            if kind == "secret"
            else state["racks" if kind == "rack" else "acquired"][int(index)]
        )
        free.update((where, number) for number in stones if number is not None)
    out: dict[str, list] = {}
    moving = []
    for uid, (where, number) in sorted(tags.items()):
        if where not in hidden:
            out[uid] = [where, number]
        elif free[(where, number)] > 0:
            free[(where, number)] -= 1
            out[uid] = [where, number]
        else:
            moving.append((uid, number))
    for uid, number in moving:
        spots = sorted(spot for (spot, stone), left in free.items() if stone == number and left > 0)
        if spots:
            where = rng.choice(spots)
            free[(where, number)] -= 1
            out[uid] = [where, number]
    return out
