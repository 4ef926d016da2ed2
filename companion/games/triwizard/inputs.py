"""How The Triwizard Maze Game reads the table (spec section 7): what is tapped at the board's
reader is public, what is drawn is private.

At the board's reader (everyone sees what is tapped there):

* an Obstacle Card laid out in the Lineup (``reveal_obstacle``, TW-SETUP-9, TW-OCARD-4);
* a Battle Card played in a battle: it goes face up (``play_card``, TW-BATTLE-1);
* a Resource Tile played (``play_tile``, TW-RES-4): when the tile leaves a choice open (whom it is
  aimed at, which Cup Tile, which piece, which space) the player makes it on the phone; the
  Albus Dumbledore tile of the player the Dumbledore window waits for is the counter
  (``counter``, TW-RES-DUMB-2), a tile of a player over the limit the discard (``discard_tile``,
  TW-RES-2);
* a Cup Tile flipped, only while a flip is awaited (``flip_cup``, TW-CUP-2): Cup Tiles are never
  tapped at set-up, so the table does not know where the real Cup is (TW-AMB-31);
* a playing piece, the one the Cloak is put on (``place_cloak``, TW-TURN-3, TW-CLOAK-5/7), or
  the Cloak itself, put beside the board after it is taken off (TW-CLOAK-7);
* a board space's sticker (a stickered board): the mover's move there by the shortest legal route
  the rules offer (``move``), or the space chosen when the rules ask for one (``choose``).

Private: the Battle Cards and Resource Tiles drawn, the Cup Tile a Four Point Spell peeks at and
the tile Red Sparks takes are told on the drawer's own phone (or tapped at the reader of the
drawer's own seat, when the table has one); tapped at the board's reader they are refused, with
a sentence that does not name them.

The die is read with the dice reader's ``triwizard`` profile: the Cloak face is ``"cloak"``, a
number its value (TW-AMB-2). A seat button's short press answers the prompt that waits for that
player (``decline``: no Double Die, let Dumbledore stand), confirms the set-up, says who shouted
first (TW-AMB-25) or ends the turn; a long press undoes (the base class).

Every decision is taken from the public view of the table (the phase, the turn, what is
awaited), never from where a hidden card lies, so a refusal tells nothing a player may not see.
"""

from __future__ import annotations

from typing import Any

from companion.devices.events import DieRolled
from companion.devices.nfc import reader_seat
from companion.i18n import t
from companion.rules import TABLE, Action, Refusal, State
from companion.table.inputs import NOTHING_TO_TAP, WRONG_KIND, GameInputs
from companion.table.tags import Component

from .rules.numbers import PHASES
from .rules.stickers import ids_by_name

#: the phases a move, a tile or a battle card belongs to (spec section 3.2)
TURN_PHASES = PHASES[PHASES.index("open") : PHASES.index("post") + 1]
#: what a draw awaited is told with, at a seat's own reader: pending kind -> (sticker kind)
PRIVATE_DRAWS = {"card": "battle", "tile": "tile", "peek": "cup", "steal": "tile"}
#: the words for the choice a tile leaves open (the key its action takes)
CHOICE_KEYS = ("target", "slot", "on", "space")


class TriwizardInputs(GameInputs):
    """Stickers on the pieces, the cards, the tiles, the Cup Tiles and (optionally) the board's
    spaces; the dice reader; the seat buttons."""

    #: only the table makes these: the die's faces, and the end of the Dumbledore window
    sensor_actions = frozenset({"roll", "close_window"})
    #: a table without stickers tells every draw, reveal and flip on the phone as well
    phone_actions = frozenset(
        {
            "placed",
            "draw_card",
            "draw_tile",
            "reveal_obstacle",
            "first",
            "tie",
            "swap_hand",
            "remove_cloak",
            "place_cloak",
            "move",
            "battle",
            "play_card",
            "no_match",
            "play_tile",
            "decline",
            "counter",
            "peek",
            "steal",
            "take",
            "discard_tile",
            "flip_cup",
            "advance",
            "push_back",
            "choose",
            "end_turn",
        }
    )

    # -- what the table shows ---------------------------------------------------------------

    def _public(self, state: State) -> dict[str, Any]:
        return self.game.view(state, TABLE)

    def _data(self, state: State) -> dict[str, Any]:
        """The loaded data set the game is played with."""
        data = getattr(self.game, "data", None)
        if callable(data):
            return data(state)
        return self.game.datasets[state["data_set"]]

    @staticmethod
    def _pending(state: State) -> dict[str, Any] | None:
        """The chance step awaited (which draw, which Cup Tile is flipped): public."""
        pending = state.get("pending") or []
        return pending[0] if pending else None

    @staticmethod
    def _player(state: State, seat: Any) -> str | None:
        """The player a pending step names (by seat, or by name)."""
        players = state["players"]
        if isinstance(seat, str):
            return seat if seat in players else None
        return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else None

    # -- stickers -----------------------------------------------------------------------------

    def tag(self, state: State, component: Component, uid: str, reader: str) -> Action | Refusal:
        if component.game != self.game.id:
            return Refusal(
                WRONG_KIND,
                t(
                    "That tag is {component} of another game, not a piece of {game}.",
                    component=component.name,
                    game=self.game.title,
                ),
            )
        kind = component.kind
        value = component.name.split(" ", 1)[1] if " " in component.name else ""
        view = self._public(state)
        if view["phase"] == "over":
            return Refusal(NOTHING_TO_TAP, view["prompt"])
        pending = self._pending(state)
        private = reader_seat(reader) is not None
        if pending is not None and PRIVATE_DRAWS.get(pending["kind"]) == kind:
            return self._private_draw(state, view, pending, kind, value, private)
        if kind == "piece":
            return self._piece(state, view, value)
        if kind == "cloak":
            return self._cloak_aside(view)
        if kind == "space":
            return self._space(state, view, value)
        if kind == "obstacle":
            if pending is None or pending["kind"] != "obstacle":
                return Refusal(
                    NOTHING_TO_TAP,
                    t(
                        "An Obstacle Card is tapped when it is laid out in the Lineup; {prompt}",
                        prompt=view["prompt"],
                    ),
                )
            return {"type": "reveal_obstacle", "card": self._id(state, "obstacle", value)}
        if kind == "cup":
            return self._cup(state, view, pending, value)
        if kind == "battle":
            return self._battle_card(state, view, value)
        if kind == "tile":
            return self._tile(state, view, value)
        return Refusal(
            WRONG_KIND,
            t(
                "That tag is {component}; {game} has no such piece.",
                component=component.name,
                game=self.game.title,
            ),
        )

    def _id(self, state: State, kind: str, value: str) -> str:
        """The data set's id of the component whose sticker names ``value``."""
        return ids_by_name(self._data(state))[kind].get(value, value)

    def _private_draw(
        self,
        state: State,
        view: dict[str, Any],
        pending: dict[str, Any],
        kind: str,
        value: str,
        private: bool,
    ) -> Action | Refusal:
        """A card, a tile or a Cup Tile drawn, stolen or peeked at: told privately; at the
        board's reader everyone would see it, so it is refused there (without naming it)."""
        drawer = self._player(state, pending.get("player"))
        if not private:
            if pending["kind"] == "peek":
                return Refusal(
                    "TW-RES-4PT-2",
                    t(
                        "The Cup Tile the Four Point Spell looks at is told on {player}'s own "
                        "phone, never at the table's reader: everyone would see it.",
                        player=drawer or "",
                    ),
                )
            if pending["kind"] == "steal":
                return Refusal(
                    "TW-RES-SPARK-1",
                    t(
                        "The tile Red Sparks takes is told on {player}'s own phone, not at the "
                        "table's reader: everyone would see it.",
                        player=drawer or "",
                    ),
                )
            if pending["kind"] == "card":
                return Refusal(
                    "TW-BCARD-2",
                    t(
                        "A Battle Card drawn is told on {player}'s own phone, not at the "
                        "table's reader: everyone would see it.",
                        player=drawer or "",
                    ),
                )
            return Refusal(
                "TW-RES-1",
                t(
                    "A Resource Tile drawn is told on {player}'s own phone, not at the "
                    "table's reader: everyone would see it.",
                    player=drawer or "",
                ),
            )
        found = self._id(state, kind, value)
        if pending["kind"] == "card":
            return {"type": "draw_card", "player": drawer, "card": found}
        if pending["kind"] == "tile":
            return {"type": "draw_tile", "player": drawer, "tile": found}
        if pending["kind"] == "steal":
            return {"type": "steal", "player": drawer, "tile": found}
        return {"type": "peek", "player": drawer, "slot": pending["slot"], "tile": found}

    def _piece(self, state: State, view: dict[str, Any], value: str) -> Action | Refusal:
        """The piece the Cloak is put on (TW-TURN-3, TW-CLOAK-5, TW-CLOAK-7)."""
        if view["phase"] not in ("cloak_place", "removal_place") or view.get("interrupt"):
            return Refusal(
                NOTHING_TO_TAP,
                t(
                    "A piece is tapped when the Cloak is put on it; {prompt}",
                    prompt=view["prompt"],
                ),
            )
        wearer = next(
            (name for name, p in view["players"].items() if str(p.get("piece")) == value), None
        )
        if wearer is None:
            return Refusal(
                "TW-CLOAK-5",
                t(
                    "Piece {piece} is not in this game: the Cloak goes on a piece on the board.",
                    piece=value,
                ),
            )
        return {"type": "place_cloak", "player": view["active"], "on": wearer}

    def _cloak_aside(self, view: dict[str, Any]) -> Action | Refusal:
        """The Cloak's own sticker after it is taken off: put beside the board (TW-CLOAK-7);
        after a Cloak roll it must go on a piece (TW-TURN-3: the rules refuse it)."""
        if view["phase"] not in ("cloak_place", "removal_place") or view.get("interrupt"):
            return Refusal(
                NOTHING_TO_TAP,
                t(
                    "The Cloak is tapped when it is put beside the board; {prompt}",
                    prompt=view["prompt"],
                ),
            )
        return {"type": "place_cloak", "player": view["active"], "on": None}

    def _cup(
        self, state: State, view: dict[str, Any], pending: dict[str, Any] | None, value: str
    ) -> Action | Refusal:
        """A Cup Tile: only its public flip (TW-CUP-2); never at set-up (TW-AMB-31). The refusal
        is the same whatever the tile is."""
        if pending is None or pending["kind"] != "cup":
            return Refusal(
                "TW-CUP-2",
                t(
                    "A Cup Tile is tapped only when it is flipped, when a piece stops on it; "
                    "{prompt}",
                    prompt=view["prompt"],
                ),
            )
        return {"type": "flip_cup", "slot": pending["slot"], "tile": self._id(state, "cup", value)}

    def _battle_card(self, state: State, view: dict[str, Any], value: str) -> Action | Refusal:
        """A Battle Card played in a battle goes face up (TW-BATTLE-1)."""
        if view["phase"] != "battle_select" or view.get("interrupt"):
            return Refusal(
                NOTHING_TO_TAP,
                t(
                    "A Battle Card is tapped when it is played in a battle; {prompt}",
                    prompt=view["prompt"],
                ),
            )
        return {
            "type": "play_card",
            "player": view["active"],
            "card": self._id(state, "battle", value),
        }

    def _tile(self, state: State, view: dict[str, Any], value: str) -> Action | Refusal:
        """A Resource Tile played: the counter in the Dumbledore window, a discard over the
        limit, else the active player's tile (TW-RES-4, TW-RES-5)."""
        tile = self._id(state, "tile", value)
        interrupt = view.get("interrupt")
        if interrupt:
            if interrupt["kind"] == "dumbledore":
                return {"type": "counter", "player": interrupt["player"], "tile": tile}
            if interrupt["kind"] == "overflow":
                return {"type": "discard_tile", "player": interrupt["player"], "tile": tile}
            return Refusal(
                NOTHING_TO_TAP,
                t("No tile is played now; {prompt}", prompt=view["prompt"]),
            )
        if view["phase"] not in TURN_PHASES or self._pending(state) is not None:
            return Refusal(
                NOTHING_TO_TAP,
                t("No tile is played now; {prompt}", prompt=view["prompt"]),
            )
        player = view["active"]
        kind = (self._data(state)["tiles"].get(tile) or {}).get("kind")
        if kind == "reductor" and view["phase"] == "moving":
            return Refusal(
                "TW-RES-REDUCT-1",
                t(
                    "The Reductor Curse is played with the move: {player} enters the move on "
                    "the phone's map.",
                    player=player,
                ),
            )
        plays = [
            action
            for action in self.game.legal_actions(state)
            if action["type"] == "play_tile"
            and action.get("player") == player
            and action.get("tile") == tile
        ]
        if len(plays) == 1:
            return plays[0]
        if plays:
            return Refusal("TW-RES-4", self._choice_words(player, plays))
        # not playable now: the rules say why (TW-TURN-4, TW-RES-5, TW-CLOAK-3 ...)
        return {"type": "play_tile", "player": player, "tile": tile}

    @staticmethod
    def _choice_words(player: str, plays: list[Action]) -> Any:
        varying = [
            key for key in CHOICE_KEYS if len({repr(action.get(key)) for action in plays}) > 1
        ]
        key = varying[0] if varying else "target"
        return {
            "target": t(
                "That tile is aimed at a player: {player} chooses whom on the phone.", player=player
            ),
            "slot": t(
                "That tile looks at a Cup Tile: {player} chooses which on the phone.", player=player
            ),
            "on": t(
                "That tile puts the Cloak on a piece: {player} chooses which on the phone.",
                player=player,
            ),
            "space": t(
                "That tile moves the Wandering Hedge: {player} chooses where on the phone.",
                player=player,
            ),
        }[key]

    def _space(self, state: State, view: dict[str, Any], value: str) -> Action | Refusal:
        """A board space's sticker: the space chosen when one is asked for, else the mover's
        move there by the shortest legal route (TW-MOVE-1..9)."""
        if state["options"].get("maze") == "declared":
            return Refusal(
                NOTHING_TO_TAP,
                t(
                    "This game's moves are declared on the phone (steps and the kind of space), "
                    "not tapped on the board; {prompt}",
                    prompt=view["prompt"],
                ),
            )
        space = self._id(state, "space", value)
        interrupt = view.get("interrupt")
        if interrupt and interrupt["kind"] == "choose":
            return {"type": "choose", "player": interrupt["player"], "space": space}
        if view["phase"] not in ("moving", "advance", "push_back") or interrupt:
            return Refusal(
                NOTHING_TO_TAP,
                t("A space is tapped while a piece moves; {prompt}", prompt=view["prompt"]),
            )
        if view["phase"] == "moving":
            return self._move_to(state, view, space)
        return self._battle_path(state, view, space)

    def _move_to(self, state: State, view: dict[str, Any], space: str) -> Action | Refusal:
        player = view["active"]
        here = view["players"][player]["space"]
        if space == here:
            return {"type": "move", "player": player, "path": []}
        reach = self.game.view(state, player).get("reach") or []
        ways = [entry for entry in reach if entry["space"] == space]
        if not ways:
            return {"type": "move", "player": player, "path": [space]}  # the rules say why not
        plain = [way for way in ways if not way.get("reductor")]
        way = min(plain or ways, key=lambda entry: (entry["steps"], len(entry["path"])))
        action = {"type": "move", "player": player, "path": list(way["path"])}
        if way.get("reductor"):
            action["reductor"] = way["reductor"]
        return action

    def _battle_path(self, state: State, view: dict[str, Any], space: str) -> Action | Refusal:
        """After a battle: the advance (the fighter) or the push-back (the right-hand
        neighbour), by the shortest route along the Path within the limit; a first step that
        must or must not be the space entered from is the rules' to check (TW-AMB-9)."""
        phase = view["phase"]
        fighter = view["active"]
        if phase == "advance":
            player, limit = fighter, (view.get("advance") or {}).get("max", 0)
        else:
            push = view.get("push_back") or {}
            player, limit = push.get("by") or fighter, push.get("max", 0)
        here = view["players"][fighter]["space"]
        path = self._route(state, view, here, space, avoid_first=phase == "advance")
        if path is None or len(path) > limit:
            return Refusal(
                "TW-BATTLE-WIN-1" if phase == "advance" else "TW-BATTLE-LOSE-1",
                t(
                    "{space} cannot be reached within {n} spaces along the Path: {player} "
                    "enters the path on the phone's map.",
                    space=space,
                    n=limit,
                    player=player,
                ),
            )
        return {"type": phase, "player": player, "path": path}

    def _route(
        self, state: State, view: dict[str, Any], start: str, goal: str, avoid_first: bool
    ) -> list[str] | None:
        """A shortest route over Path spaces from ``start`` to ``goal`` (breadth first; the
        Wandering Hedge blocks it), the first step avoiding the space the fighter entered from
        when advancing and taking it first when pushed back, when the fight says which."""
        data = self._data(state)
        spaces = data["board"]["spaces"]
        neighbours = data["board"]["neighbours"]
        entered = (state.get("fight") or {}).get("entered_from")
        blocked = {view.get("hedge")}
        if goal == start or goal not in spaces:
            return None if goal not in spaces else []
        firsts = [
            n for n in neighbours.get(start, []) if spaces[n]["kind"] == "path" and n not in blocked
        ]
        if entered is not None:
            firsts = (
                [n for n in firsts if n != entered]
                if avoid_first
                else [n for n in firsts if n == entered]
            )
        came = {n: start for n in firsts}
        frontier = list(firsts)
        while frontier:
            nxt = []
            for here in frontier:
                if here == goal:
                    path = [here]
                    while came[path[-1]] != start:
                        path.append(came[path[-1]])
                    return path[::-1]
                for n in neighbours.get(here, []):
                    if (
                        n not in came
                        and n != start
                        and spaces[n]["kind"] == "path"
                        and n not in blocked
                    ):
                        came[n] = here
                        nxt.append(n)
            frontier = nxt
        return None

    # -- buttons and the die ------------------------------------------------------------------

    def short_press(self, state: State, player: str) -> Action | Refusal:
        """The seat's answer to what waits for it: ``decline`` in the Dumbledore window or after
        a short battle roll; the end of a move where the piece stands (``END_MOVE`` with no step,
        spec 3.1: the mover's press while moving, TW-MOVE-1; no advance, TW-BATTLE-WIN-1; no
        push-back, the right-hand neighbour's press, TW-BATTLE-LOSE-1); the set-up confirmed,
        "I shouted first" (TW-AMB-25); else the end of the turn (TW-TURN-6). A long press undoes
        a press made by mistake."""
        view = self._public(state)
        interrupt = view.get("interrupt")
        phase, active = view["phase"], view["active"]
        if interrupt and interrupt["kind"] == "dumbledore" and interrupt["player"] == player:
            return {"type": "decline", "player": player}
        if not interrupt and player == active and phase == "battle_short":
            return {"type": "decline", "player": player}
        if not interrupt and player == active and phase in ("moving", "advance"):
            return {
                "type": "move" if phase == "moving" else "advance",
                "player": player,
                "path": [],
            }
        if (
            not interrupt
            and phase == "push_back"
            and player == (view.get("push_back") or {}).get("by")
        ):
            return {"type": "push_back", "player": player, "path": []}
        if view["phase"] == "setup":
            return {"type": "placed", "player": player}
        if view["phase"] == "first_player" and self._pending(state) is None:
            return {"type": "first", "player": player}
        return {"type": "end_turn", "player": player}

    def die(self, state: State, roll: DieRolled) -> Action | Refusal:
        """The ``triwizard`` profile: CLOAK is ``"cloak"`` (whatever value the profile gives
        it), a number is its value (TW-AMB-2)."""
        face = str(roll.face).strip()
        if face.upper() == "CLOAK":
            return {"type": "roll", "value": "cloak"}
        if roll.value is not None:
            return {"type": "roll", "value": roll.value}
        return {"type": "roll", "value": int(face) if face.isdigit() else face}
