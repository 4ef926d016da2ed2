"""The requests that play the game (a part of :class:`~.runtime.Table`): a new game, an action
from a phone or the host, an undo, a roll the server makes when no dice reader is connected, and
a request the web layer refused before it reached the rules. An action, an undo and a virtual
roll take the one path of every game action (:meth:`~.runtime.Table._act`). Every method runs on
the table loop.
"""

from __future__ import annotations

import secrets
from typing import Any

from ..games import plugin
from ..i18n import reason_of, t
from ..lights import PALETTE
from ..rules import SetupError
from ..rules.api import MALFORMED
from . import inputs as rules_inputs
from .history import History
from .inputs import inputs_for
from .seats import new_join_code, new_token

BAD_SETUP = "TABLE-GAME-2"


def colours_problem(colours: Any, players: Any) -> str | None:
    """Why ``colours`` cannot be the players' colours (one each, from the colour-blind-safe
    palette, no two alike), or None."""
    if (
        not isinstance(colours, list)
        or not isinstance(players, list)
        or len(colours) != len(players)
    ):
        return t("give one colour for each player")
    unknown = [c for c in colours if c not in PALETTE]
    if unknown:
        return t(
            "{colour} is not a colour of the palette ({palette})",
            colour=repr(str(unknown[0])[:20]),
            palette=", ".join(PALETTE),
        )
    if len(set(colours)) != len(colours):
        return t("two players have the same colour")
    return None


class GameRequests:
    """The requests that play: a new game, an action, an undo, a virtual roll; mixed into
    :class:`~.runtime.Table`."""

    def _op_action(self, source: str, action: Any, player: str | None = None) -> dict[str, Any]:
        raw = {"kind": "request", "action": action}
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return self._refuse(raw, source, MALFORMED, t("A request needs an action with a type."))
        if self.history is None:
            return self._refuse(raw, source, rules_inputs.NO_GAME, t("No game is being played."))
        seat = None
        if player is not None:
            seat = self.history.state["players"].index(player)
        return self._seen_by(player, self._act(action, source, raw, seat=seat))

    def _op_virtual_roll(self, source: str, player: str | None = None) -> dict[str, Any]:
        """A roll made by the server when no dice reader is connected, so a game never stalls."""
        raw = {"kind": "request", "virtual_roll": True}
        if self.history is None:
            return self._refuse(raw, source, rules_inputs.NO_GAME, t("No game is being played."))
        chance = self.awaited_roll()
        seat = (
            self.history.state["players"].index(player)
            if player in self.history.state["players"]
            else None
        )
        if chance is None:
            return self._refuse(
                raw, source, rules_inputs.UNASKED_ROLL, t("Nobody is asked to roll now."), seat
            )
        if self.reader_can_roll(chance):
            return self._refuse(
                raw,
                source,
                rules_inputs.READER_CONNECTED,
                t("The dice reader is connected: roll the real die."),
                seat,
            )
        if player is not None and chance.player is not None and player != chance.player:
            return self._refuse(
                raw,
                source,
                rules_inputs.NOT_YOUR_ROLL,
                t("{roller} rolls now, not {player}.", roller=chance.player, player=player),
                seat,
            )
        mapped = inputs_for(self.history.game).virtual_roll(
            self.history.state, chance, self._random
        )
        result = self._act(mapped, source, raw | {"action": mapped}, seat=seat)
        if result.get("ok"):  # kept for the virtual dice, apart from the read rolls
            self._tally_virtual(chance, mapped)
        return self._seen_by(player, result)

    def _seen_by(self, player: str | None, result: dict[str, Any]) -> dict[str, Any]:
        """The answer to a player's own action, with what it caused as that player sees it
        (``seen``: the events, each through the game's ``view_event``), so the phone that acted
        says at once what happened and why (a penalty and its rule), beside its buttons. The
        table's journal keeps the answer without them."""
        if player is None or not result.get("ok") or self.history is None:
            return result
        caused = list(self.events)[-result.get("events", 0) :] if result.get("events") else []
        game = self.history.game
        return result | {"seen": [game.view_event(e["event"], player) for e in caused]}

    def _op_refuse(
        self, source: str, rule: str, reason: str, raw: dict[str, Any]
    ) -> dict[str, Any]:
        """A request the web layer refused before it reached the rules: logged and shown too."""
        return self._refuse(raw, source, rule, reason)

    def _op_undo(self, source: str) -> dict[str, Any]:
        raw = {"kind": "request", "action": {"type": "undo"}}
        if self.history is None:
            return self._refuse(raw, source, rules_inputs.NO_GAME, t("No game is being played."))
        return self._act({"type": "undo"}, source, raw)

    def _op_new_game(
        self,
        source: str,
        game: str,
        players: list[str],
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        colours: list[str] | None = None,
        confirm: Any = False,
    ) -> dict[str, Any]:
        """A new game at the table. A game being played is set aside (kept, resumable), but only
        with ``confirm=True``: without it the request is refused (``TABLE-GAME-4``, naming the
        running game and where it stands) and nothing changes."""
        raw = {
            "kind": "request",
            "new_game": {  # as asked, cut short: it is only a record
                "game": str(game)[:40],
                "players": [str(p)[:40] for p in players[:10]]
                if isinstance(players, list)
                else str(players)[:40],
            },
        }
        if colours is not None:
            problem = colours_problem(colours, players)
            if problem:
                return self._refuse(
                    raw, source, BAD_SETUP, t("The game cannot start: {problem}.", problem=problem)
                )
        seed = secrets.randbelow(2**31) if seed is None else seed
        try:
            found = plugin(game)
            rules = found.game
            options = {} if options is None else options
            if not isinstance(options, dict):
                raise SetupError("options must be an object")
            defaults = inputs_for(rules).option_defaults
            history = History(rules, players, defaults | options, seed)
        except (ValueError, TypeError) as exc:  # SetupError is a ValueError
            return self._refuse(
                raw,
                source,
                BAD_SETUP,
                t("The game cannot start: {problem}.", problem=reason_of(exc)),
            )
        names = history.state["players"]
        if len(names) > self.layout.seats:
            return self._refuse(
                raw,
                source,
                BAD_SETUP,
                t("This table has {seats} seats, not {n}.", seats=self.layout.seats, n=len(names)),
            )
        refused = self._unconfirmed(source, raw, confirm, resuming=False)
        if refused is not None:
            return refused
        aside = self.running_game()
        tokens = {p: new_token() for p in names}
        joins = {p: new_join_code() for p in names}
        record = self.store.start_game(
            rules.id,
            names,
            history.state["options"],
            seed,
            tokens,
            joins,
            list(colours) if colours else None,
            progress=rules.progress(history.state),
            aside_paused=self.paused and aside is not None,
        )
        self.store.drop_setting("paused")
        with self._lock:
            self.record, self.history = record, history
            self.paused = False
            self.put_back_list = None
            self._seq = 0
            self.events.clear()
            self.cues.clear()
            self.refusal_log.show_game(record.id)  # none yet: the last game's stay with it
            if aside is not None:
                self._note(
                    {
                        "type": "game_set_aside",
                        "text": t(
                            "The game of {game} was set aside ({progress}): the host can "
                            "resume it.",
                            game=aside["title"],
                            progress=aside["progress"] or "—",
                        ),
                    }
                )
            self._note(
                {
                    "type": "game_started",
                    "text": t(
                        "A game of {game} begins: {players}.",
                        game=rules.title,
                        players=", ".join(names),
                    ),
                }
            )
        self._follow_actuators()
        return {"ok": True, "game_id": record.id, "set_aside": aside["id"] if aside else None}
