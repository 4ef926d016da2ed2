"""Race to Ten's rules: pure, like every game's (state in, action in, new state and events out)."""

from __future__ import annotations

import random
from typing import Any

from companion.i18n import t
from companion.rules import (
    Accepted,
    Action,
    Chance,
    Game,
    Option,
    Outcome,
    Refusal,
    Result,
    State,
)

FACES = (1, 2, 3, 4, 5, 6)
BONUS = 2


class RaceToTen(Game):
    id = "toy"
    title = "Race to Ten"
    spec = ""
    min_players = 2
    max_players = 4
    options = (Option("goal", 10, t("The space to reach."), "TOY-1", choices=(10, 20)),)
    components = {"bonus card": 1}

    def new(
        self, players: list[str], options: dict[str, Any] | None = None, seed: int = 0
    ) -> State:
        names = self.check_players(players)
        return {
            "game": self.id,
            "players": names,
            "options": self.resolve_options(options),
            "seed": seed,
            "turn": 0,
            "active": 0,
            "phase": "roll",
            "positions": [0] * len(names),
            "bonus": None,
            "winner": None,
        }

    def apply(self, state: State, action: Action) -> Result:
        kind = action.get("type") if isinstance(action, dict) else None
        active = state["players"][state["active"]]
        if kind == "roll" and state["phase"] == "roll":
            value = action.get("value")
            if value not in FACES:
                return Refusal("TOY-2", t("A roll is a face of the die, 1 to 6."))
            return self._moved(
                state,
                value,
                {
                    "type": "rolled",
                    "player": active,
                    "value": value,
                    "text": t("{player} rolls {value}.", player=active, value=value),
                },
            )
        if kind == "bonus" and state["phase"] == "decide":
            if state["bonus"] is not None:
                return Refusal("TOY-3", t("The bonus card was played already."))
            moved = self._moved(
                state,
                BONUS,
                {
                    "type": "bonus",
                    "player": active,
                    "text": t("{player} plays the bonus card.", player=active),
                },
            )
            moved.state["bonus"] = active
            return moved
        if kind == "end_turn" and state["phase"] == "decide":
            if action.get("player") != active:
                return Refusal("TOY-4", t("It is {player}'s turn.", player=active))
            new = dict(
                state,
                turn=state["turn"] + 1,
                phase="roll",
                active=(state["active"] + 1) % len(state["players"]),
            )
            return Accepted(
                new,
                (
                    {
                        "type": "turn_ended",
                        "player": active,
                        "text": t("{player} ends the turn.", player=active),
                    },
                ),
            )
        return Refusal("TOY-5", t("That is not possible now: {prompt}", prompt=self._prompt(state)))

    def _moved(self, state: State, spaces: int, event: dict[str, Any]) -> Accepted:
        positions = list(state["positions"])
        positions[state["active"]] += spaces
        new = dict(state, positions=positions, phase="decide")
        if positions[state["active"]] >= state["options"]["goal"]:
            new.update(phase="over", winner=state["players"][state["active"]])
        return Accepted(new, (event,))

    def legal_actions(self, state: State) -> list[Action]:
        if state["phase"] != "decide":
            return []
        active = state["players"][state["active"]]
        return [{"type": "end_turn", "player": active}]

    def chance(self, state: State) -> Chance | None:
        if state["phase"] != "roll":
            return None
        return Chance(
            "die", "TOY-2", player=state["players"][state["active"]], profile="d6", faces=FACES
        )

    def sample(self, state: State) -> Action:
        return {
            "type": "roll",
            "value": random.Random(f"{state['seed']}/{state['turn']}").choice(FACES),
        }

    def _prompt(self, state: State) -> str:
        active = state["players"][state["active"]]
        if state["phase"] == "roll":
            return t("{player} rolls the die.", player=active)
        if state["phase"] == "decide":
            return t("{player} ends the turn (or plays the bonus card).", player=active)
        return t("{player} has won.", player=state["winner"])

    def view(self, state: State, viewer: str) -> dict[str, Any]:
        over = state["phase"] == "over"
        active = state["players"][state["active"]]
        return {
            "game": self.id,
            "phase": state["phase"],
            "prompt": self._prompt(state),
            "order": list(state["players"]),
            "active": active,
            "waiting_for": [] if over else [active],
            "finished": over,
            "winners": [state["winner"]] if over else [],
            "goal": state["options"]["goal"],
            "bonus": state["bonus"],
            "players": {
                name: {"position": state["positions"][seat]}
                for seat, name in enumerate(state["players"])
            },
        }

    def indistinguishable(self, state: State, viewer: str, rng: random.Random) -> State:
        return dict(state)  # nothing is hidden from anyone

    def outcome(self, state: State) -> Outcome:
        scores = dict(zip(state["players"], state["positions"]))
        winners = (state["winner"],) if state["winner"] else ()
        return Outcome(state["phase"] == "over", winners, scores)
