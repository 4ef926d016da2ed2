"""How the secrets harness plays: random legal games through the server, as people and the table's
devices would (``tests/secrets_harness.py`` checks every role at every step; ``docs/secrets.md``).

* A player's decision goes through that player's phone (``/p/<token>/api/action``).
* Anything else the game needs (the awaited deal, draw or roll, a removal...) is reported by the
  table's devices where one can report it, generically for any registered game: a sticker of the
  table's tag registry whose tap the game's input mapping (``inputs_for(game).tag``) turns into
  that action, tapped on the board's reader (a private draw the board's reader refuses, at the
  drawer's own seat reader); the dice reader's rolls that the mapping
  (``inputs.die``/``dice``) turns into the awaited roll. Only when no device can, or the table
  refuses what one reported, does the action go straight to the table.
* Now and then the devices say something besides the game (a status, a power report, a raw line
  of noise, a sticker nobody enrolled, a press at an empty seat), so the host's status page
  always has diagnostics, and the swap always has something to scramble.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from typing import Any

from support import join_all, post

from companion.devices.events import ButtonPressed, DeviceNoise, DeviceStatus, DieRolled, TagTapped
from companion.rules import Game, Refusal
from companion.table.inputs import GameInputs, inputs_for

BOARD_READER = "board"  # the NFC reader of the board (not a seat's own)
CHATTER = 1 / 3  # the chance, at each step, that a device reports something besides the game
MID_DEAL = 1 / 6  # the chance that a deal tapped stone by stone pauses for a check
MAX_DICE_FACES = 4096  # faces tried for a roll of several dice together


def random_options(game: Game, rng: random.Random) -> dict[str, Any]:
    """Options for a random game: each option with choices or a yes/no picked at random."""
    out: dict[str, Any] = {}
    for opt in game.options:
        if opt.choices:
            out[opt.name] = rng.choice(opt.choices)
        elif isinstance(opt.default, bool):
            out[opt.name] = rng.random() < 0.5
    return out


def choices(game: Game, state: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """What could happen next, in a random order: the players' legal actions and the awaited
    chance step (sampled from the state's seed). The order is random by type first, so that a
    type with many variants (a spell for every number, a card for every card) does not crowd
    out the others."""
    options = list(game.legal_actions(state))
    if game.chance(state) is not None:
        options.append(game.sample(state))
    kinds = sorted({a["type"] for a in options})
    rng.shuffle(kinds)
    out = []
    for kind in kinds:
        of_kind = [a for a in options if a["type"] == kind]
        rng.shuffle(of_kind)
        out += of_kind
    return out


class TablePlay:
    """The playing half of :class:`secrets_harness.Harness` (mixed into it): it uses the
    harness's ``server``, ``game``, ``players``, ``options``, ``seed``, ``rng`` and ``report``,
    and keeps the seats' ``links`` and ``tokens``."""

    _seq = 0  # the dice reader's message numbers

    def start(self) -> None:
        status, answer = post(
            f"{self.server.host}/api/new_game",
            {
                "confirm": True,
                "game": self.game.id,
                "players": self.players,
                "options": self.options,
                "seed": self.seed,
            },
        )
        assert status == 200 and answer.get("ok"), answer

    def claim_seats(self) -> None:
        self.links = join_all(self.server.host)
        self.tokens = {p: url.rsplit("/", 1)[1] for p, url in self.links.items()}

    def state(self) -> dict[str, Any]:
        return self.server.table.history.state

    def step(self) -> bool:
        """One thing happens (a random choice of what may); False when nothing can. A player's
        decision comes from their phone; anything else (the awaited chance step, a removal...)
        from the table's devices when one can report it, else straight to the table."""
        state = self.state()
        if self.game.outcome(state).finished:
            self.report.finished = True
            return False
        mapper = inputs_for(self.game)
        chance = self.game.chance(state)
        sampled = self.game.sample(state) if chance is not None else None
        for action in choices(self.game, state, self.rng):
            player = action.get("player")
            if (
                player in self.links
                and action["type"] in mapper.phone_actions
                and action != sampled
            ):
                body = {k: v for k, v in action.items() if k != "player"}
                ok = post(f"{self.links[player]}/api/action", body)[0] == 200
            else:
                ok = self.through_devices(
                    state, action, mapper, chance if action == sampled else None
                )
                if not ok:  # no device reports this, or the table refused what one reported
                    ok = self.server.table.call("action", "test", action=action)["ok"]
                    self.report.direct[action["type"]] += ok
            if ok:
                self.report.steps += 1
                self.report.actions[action["type"]] += 1
                if self.rng.random() < CHATTER:
                    self.chatter()
                return True
        return False

    # -- the devices -----------------------------------------------------------------------------

    def through_devices(
        self, state: dict[str, Any], action: dict[str, Any], mapper: GameInputs, chance: Any
    ) -> bool:
        """Report ``action`` as the table's devices would: the awaited die roll on the dice
        reader, or a sticker tapped on the board's reader; whether the table accepted it. A deal
        or a draw is tapped stone by stone until the game awaits something else (or, now and
        then, earlier: the pages are checked mid-deal too), as one step of the game."""
        if chance is not None and chance.kind == "die":
            rolls = self.die_rolls(state, action, chance, mapper)
            return rolls is not None and self.sensed(rolls, "rolls")
        reader = BOARD_READER
        uid = self.sticker_for(state, action, mapper, chance is not None, reader)
        if uid is None and chance is not None and chance.player in self.links:
            # a private draw: tapped at the drawer's own seat reader, where the game takes it
            reader = f"seat{state['players'].index(chance.player) + 1}"
            uid = self.sticker_for(state, action, mapper, True, reader)
        if uid is None or not self.sensed([TagTapped(reader, uid)], "taps"):
            return False
        while chance is not None and self.rng.random() > MID_DEAL:
            state = self.state()
            awaited = self.game.chance(state)
            if awaited is None or (awaited.kind, awaited.rule, awaited.player) != (
                chance.kind,
                chance.rule,
                chance.player,
            ):
                break
            uid = self.sticker_for(state, self.game.sample(state), mapper, True, reader)
            if uid is None or not self.sensed([TagTapped(reader, uid)], "taps"):
                break
        return True

    def sticker_for(
        self,
        state: dict[str, Any],
        action: dict[str, Any],
        mapper: GameInputs,
        chance: bool,
        reader: str = BOARD_READER,
    ) -> str | None:
        """An enrolled sticker whose tap the game's input mapping turns into ``action`` (it
        says all the action says; the mapping may add the ``tag`` and whose draw it is), one the
        rules accept now, at random. While the game awaits a deal or a draw that no one sticker
        makes (a whole round dealt at once, several stones drawn together), the world supplies
        it one tap at a time: any sticker whose tap the rules accept as that kind of step. None
        when no sticker will do."""
        fits, steps = [], []
        for uid, component in sorted(self.server.table.tags._tags.items()):
            if component.game != self.game.id:
                continue
            mapped = mapper.tag(state, component, uid, reader)
            if isinstance(mapped, Refusal):
                continue
            said = {k: v for k, v in mapped.items() if k != "tag"}
            if all(said.get(k) == v for k, v in action.items()):
                fits.append((uid, mapped))
            elif chance and (
                said["type"] == action["type"] or said["type"] in mapper.sensor_actions
            ):
                steps.append((uid, mapped))
        for candidates in (fits, steps):
            accepted = [
                uid
                for uid, mapped in candidates
                if not isinstance(self.game.apply(state, mapped), Refusal)
            ]
            if accepted:
                return self.rng.choice(accepted)
        return None

    def die_rolls(
        self, state: dict[str, Any], action: dict[str, Any], chance: Any, mapper: GameInputs
    ) -> list[DieRolled] | None:
        """The dice reader's rolls that the input mapping turns into the awaited roll
        ``action`` (``Table._die``: one die, or several rolled together), or into an action the
        rules take the same way (a game may sample ``values: [4]`` and read ``value: 4``)."""
        reader = getattr(self.server.table.dice, "name", None)
        if reader is None:
            return None
        faces = []
        for face in chance.faces:
            try:
                faces.append(DieRolled(0, face, 0, reader, profile=chance.profile))
            except (TypeError, ValueError):  # a face the reader's protocol cannot name
                continue
        wanted = self.game.apply(state, action)
        for combo in itertools.islice(itertools.product(faces, repeat=chance.dice), MAX_DICE_FACES):
            rolls = [dataclasses.replace(roll, die=die) for die, roll in enumerate(combo)]
            mapped = mapper.die(state, rolls[0]) if chance.dice == 1 else mapper.dice(state, rolls)
            if isinstance(mapped, Refusal):
                continue
            if mapped == action or (
                not isinstance(wanted, Refusal)
                and _same_result(self.game.apply(state, mapped), wanted)
            ):
                return [dataclasses.replace(roll, seq=self.next_seq()) for roll in rolls]
        return None

    def next_seq(self) -> int:
        self._seq = (self._seq + 1) % 0x10000
        return self._seq

    def sensed(self, events: list[Any], kind: str) -> bool:
        """Emit device events, wait for the table to handle them; whether one became an action
        the rules accepted."""
        table = self.server.table
        before = table.inputs_handled
        for event in events:
            table.emit(event)
        self.settle()
        ok = any(o.get("ok") and "action" in o for o in table.outcomes_since(before))
        if ok:
            setattr(self.report, kind, getattr(self.report, kind) + 1)
        else:
            self.report.refused += 1
        return ok

    def chatter(self, every_kind: bool = False) -> None:
        """The devices report something besides the game (every kind, when asked): the board's
        reader says what it is, the dice reader its power, a raw line of noise (naming an
        enrolled sticker, as a garbled reader answer can), a sticker nobody enrolled, a press
        at an empty seat. So the host's status page always has diagnostics to show (and the
        swap something to scramble)."""
        table, rng = self.server.table, self.rng
        dice = getattr(table.dice, "name", None)
        stickers = sorted(uid for uid, c in table.tags._tags.items() if c.game == self.game.id)
        seats = len(self.state()["players"])
        unknown = "04" + "".join(f"{rng.randrange(256):02X}" for _ in range(6))
        kinds: dict[str, list[Any]] = {
            "status": [
                DeviceStatus(BOARD_READER, True, f"PN532 firmware 1.6 on uart{rng.randrange(4)}")
            ],
            "power": [DeviceStatus(dice, True, f"power: usb {4.7 + rng.random() / 2:.2f} V")]
            if dice
            else [],
            "noise": [
                DeviceNoise(
                    rng.choice([BOARD_READER, dice or BOARD_READER]),
                    f"corrupt frame D5 4B 01 01 {rng.choice(stickers)} "
                    f"crc={rng.getrandbits(16):04x}",
                )
            ]
            if stickers
            else [],
            "unknown sticker": []
            if table.tags.lookup(unknown)
            else [TagTapped(BOARD_READER, unknown)],
            "empty seat": [ButtonPressed(rng.randrange(seats, table.layout.seats))]
            if seats < table.layout.seats
            else [],
        }
        chosen = sorted(kinds) if every_kind else [rng.choice(sorted(kinds))]
        for kind in chosen:
            for event in kinds[kind]:
                table.emit(event)
                self.report.chatter[kind] += 1
        self.settle()

    def settle(self, tries: int = 100) -> None:
        """Wait until the table has handled every input queued so far. (``Table.sync`` alone
        does not: its inbox serves each source in turn, so a sync may be handled before the
        second of two events a device queued.) Once nothing waits, one more sync outlasts the
        input the loop may still be handling."""
        table = self.server.table
        for _ in range(tries):
            table.sync()
            if table.inbox.pending() == 0:
                table.sync()
                return
        raise AssertionError("the table never caught up with its inputs")


def _same_result(result: Any, wanted: Any) -> bool:
    """Whether the rules took an action as they take another: the same state, the same events."""
    return (
        not isinstance(result, Refusal)
        and result.state == wanted.state
        and result.events == wanted.events
    )
