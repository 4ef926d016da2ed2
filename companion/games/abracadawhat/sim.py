"""Abracada...What? on the simulated table: a box of 36 stones with stickers, and the hands that
deal them from the face-down pile, remove the declared stone from the caster's rack and take a
secret stone. The hands know where each stone lies from what the table has sensed.

For a host who plays a seat the panel is blind for that player: their own rack, the face-down
pile and secret stones and the others' acquired secret stones are counted, never named (and no
sticker's UID is shown at all); the hands deal, draw and tap a stone of that rack unseen."""

from __future__ import annotations

import random
from typing import Any

from companion.i18n import t
from companion.table.sim import GameHands


def stone_tags(seed: int) -> dict[str, int]:
    """The simulated box: UID -> stone number, 7-byte NTAG-style UIDs fixed by ``seed``."""
    rng = random.Random(f"stickers/{seed}")
    tags: dict[str, int] = {}
    for n in range(1, 9):
        for _ in range(n):
            uid = "04" + "".join(f"{rng.randrange(256):02X}" for _ in range(6))
            tags[uid] = n
    return tags


class AbracadaHands(GameHands):
    acts = {
        "draw": {},
        "draw_all": {},
        "remove": {},
        "take_secret": {"slot": (int, "take_secret needs a slot")},
        "tap_rack": {
            "player": (str, "tap_rack needs a player"),
            "stone": (int, "tap_rack needs a stone number"),
        },
    }
    controls = (
        ("draw", t("Tap a stone from the pile"), False),
        ("draw_all", t("Deal / draw all asked for"), True),
        ("remove", t("Right neighbour removes the stone"), False),
        ("roll", t("Roll the die"), False),
    )
    blind_acts = {"tap_own": {}}
    blind_controls = (
        ("draw", t("Draw a random stone from the reserve, unseen"), False),
        ("draw_all", t("Deal / draw all asked for, unseen"), True),
        ("tap_own", t("Tap a stone of my rack, unseen"), False),
        ("remove", t("Right neighbour removes the stone"), False),
        ("roll", t("Roll the die"), False),
    )

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.box = stone_tags(self.seed)

    def stickers(self) -> dict[str, str]:
        return {uid: f"stone {n}" for uid, n in self.box.items()}

    # -- where the stones are ----------------------------------------------------------------

    def world(self, viewer: str | None = None) -> dict[str, Any]:
        """Every stone and where it lies, for the simulation panel; for ``viewer`` (a host who
        plays that seat) only the stones that player sees, by number, and how many lie in each
        place they cannot look at (``hidden``: place -> count), all from that player's view."""
        if viewer is None:
            return self._sensed()
        history = self.table.history
        if history is None or history.game.id != self.game.id:
            return {"places": {}, "hidden": {}, "secret": [], "phase": None}
        # what the player sees, from their own view (not from the stickers: a UID names a stone)
        view = history.game.view(history.state, viewer)
        players = view["players"]

        def stones(counts: list[int]) -> list[dict[str, int]]:
            return [{"stone": n} for n in range(1, 9) for _ in range(counts[n - 1])]

        places = {
            f"rack:{p}": [{"stone": n} for n in sorted(players[p]["rack"] or [])]
            for p in view["order"]
            if p != viewer
        }
        places[f"acquired:{viewer}"] = [
            {"stone": n} for n in sorted(players[viewer]["secret"] or [])
        ]
        places["board"] = stones(view["board"]["cast"])
        places["removed"] = stones(view["board"]["removed"])
        hidden = {"pile": view["reserve_size"], f"rack:{viewer}": players[viewer]["rack_size"]}
        hidden |= {f"acquired:{p}": players[p]["secret_stones"] for p in players if p != viewer}
        return {
            "places": places,
            "hidden": hidden,
            "secret": list(view["secret_slots"]),
            "phase": view["phase"],
        }

    def _sensed(self) -> dict[str, Any]:
        """Every stone and where the table sensed it (with its sticker's UID)."""
        view = self.state()
        sensed = view["tags"] if view else {}
        players = view["order"] if view else []
        places: dict[str, list[dict[str, Any]]] = {"pile": [], "board": [], "removed": []}
        for p in players:
            places[f"rack:{p}"] = []
            places[f"acquired:{p}"] = []
        secret: dict[int, dict[str, Any]] = {}
        for uid, n in self.box.items():
            where = sensed.get(uid, ["pile"])[0]
            stone = {"uid": uid, "stone": n}
            if where.startswith(("rack:", "acquired:")):
                kind, seat = where.split(":")
                places[f"{kind}:{players[int(seat)]}"].append(stone)
            elif where.startswith("secret:"):
                secret[int(where.split(":")[1])] = stone
            else:
                places.setdefault(where, []).append(stone)
        for stones in places.values():
            stones.sort(key=lambda s: (s["stone"], s["uid"]))
        return {
            "places": places,
            "secret": [secret.get(i) for i in range(4)],
            "phase": view["phase"] if view else None,
        }

    def _pile(self) -> list[str]:
        return [s["uid"] for s in self._sensed()["places"]["pile"]]

    # -- hands --------------------------------------------------------------------------------

    def draw(self) -> list[dict[str, Any]]:
        """Draw a face-down stone from the pile and tap it (dealing or refilling)."""
        pile = self._pile()
        return self.tap(self.rng.choice(pile)) if pile else []

    def draw_all(self) -> list[dict[str, Any]]:
        """Keep drawing while the table asks for stones (the whole deal, or a whole refill)."""
        outcomes: list[dict[str, Any]] = []
        while (view := self.state()) is not None and view["phase"] in ("deal", "refill"):
            got = self.draw()
            outcomes += got
            if not got or not all(o["ok"] for o in got):
                break  # nothing to draw, or refused: stop rather than loop
        return outcomes

    def remove(self) -> list[dict[str, Any]]:
        """The right neighbour takes a stone of the declared number from the caster's rack."""
        view = self.state()
        if view is None or view["phase"] != "remove":
            return []
        caster = view["active"]
        spell = view["pending"]["spell"]
        for stone in self._sensed()["places"][f"rack:{caster}"]:
            if stone["stone"] == spell:
                return self.tap(stone["uid"])
        return []

    def take_secret(self, slot: int) -> list[dict[str, Any]]:
        stone = self._sensed()["secret"][slot] if 0 <= slot < 4 else None
        return self.tap(stone["uid"]) if stone is not None else []

    def tap_rack(self, player: str, stone: int) -> list[dict[str, Any]]:
        """Tap a stone numbered ``stone`` of ``player``'s rack (any of them: they look alike)."""
        rack = self._sensed()["places"].get(f"rack:{player}")
        if rack is None:
            raise ValueError(f"{player!r} has no rack in this game")
        uids = [s["uid"] for s in rack if s["stone"] == stone]
        if not uids:
            raise ValueError(f"{player}'s rack holds no stone {stone}")
        return self.tap(uids[0])

    def tap_own(self, viewer: str) -> list[dict[str, Any]]:
        """The player ``viewer`` taps a stone of their own rack without looking at it: the hand
        takes one whose tap the game accepts now (the declared stone, when a neighbour removes
        it); none when no tap of it would be (nothing is tapped: a refusal could name it)."""
        rack = [s["uid"] for s in self._sensed()["places"].get(f"rack:{viewer}", [])]
        allowed = self.accepted_taps(rack)
        return self.tap(self.rng.choice(allowed)) if allowed else []

    def refuse_blind(self, act: str, arguments: dict[str, Any], viewer: str) -> str | None:
        """A host who plays ``viewer`` cannot tap their own rack's stones by number."""
        if act == "tap_rack" and arguments.get("player") == viewer:
            return "your own rack is hidden from you: tap a stone of it unseen (tap_own)"
        return None
