"""Every roll kept for the dice's fairness (a part of :class:`~.runtime.Table`).

The table loop calls these after it has handled a roll (the action applied and shown, or the roll
refused), so keeping it never delays what the roll does at the table: a read roll
(:class:`~companion.devices.events.DieRolled`, whether the game asked for it or not), a die set
down by hand (a ``placed`` :class:`~companion.devices.events.DieState` with its face) and a
virtual roll the game took. Each is kept for its die (the reader, the die's index, the profile it
was read with: :mod:`.dice_store`). Storage that fails here is logged and left to the table's
storage watch (the store remembers the failure); the roll itself is not refused for it.
"""

from __future__ import annotations

import logging
from typing import Any

from companion_dice import profiles as dice_profiles

from ..devices.events import DieRolled, DieState
from ..rules import Chance
from .dice_store import PLACED, READ, VIRTUAL, VIRTUAL_READER, Roll
from .storage import StorageError
from .store import now

log = logging.getLogger("companion.table.dice")


def profile_faces(name: str | None, faces: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """The six labels by position of profile ``name`` (``faces`` for a custom one), or None
    when they cannot be known."""
    if name is None:
        return None
    try:
        return dice_profiles.get(name, ",".join(faces) if faces else None).labels()
    except ValueError:
        return None


class DiceTally:
    """Keeping each roll for its die; mixed into :class:`~.runtime.Table`."""

    def _asked_profile(self, reader: str, die: int) -> tuple[str, tuple[str, ...] | None]:
        """The profile the table asked ``reader`` to read die ``die`` with (a reader reads
        ``d6`` until asked)."""
        dice = self.dice
        if dice is not None and getattr(dice, "name", None) == reader and hasattr(dice, "profile"):
            try:
                name, faces = dice.profile(die)
                return name, tuple(faces) if faces else None
            except (ValueError, OSError):
                pass
        return "d6", None

    def _tally_read(self, roll: DieRolled) -> None:
        asked, faces = self._asked_profile(roll.reader, roll.die)
        name = roll.profile or asked
        labels = profile_faces(name, faces if name == asked else None)
        if labels is not None:
            self._tally([Roll(roll.reader, roll.die, name, labels, roll.face, READ, self._game())])

    def _tally_placed(self, state: DieState) -> None:
        if state.state != "placed" or state.face is None:
            return
        name, faces = self._asked_profile(state.reader, state.die)
        labels = profile_faces(name, faces)
        if labels is not None:
            self._tally(
                [Roll(state.reader, state.die, name, labels, state.face, PLACED, self._game())]
            )

    def _tally_virtual(self, chance: Chance, action: Any) -> None:
        """The faces of a virtual roll the game took: a virtual die per index, with the rules'
        faces as its labels."""
        if not isinstance(action, dict):
            return
        values = action.get("values") if "values" in action else [action.get("value")]
        labels = tuple(str(f) for f in chance.faces)
        if not isinstance(values, list) or len(labels) != 6:
            return
        profile = chance.profile or "none"
        game = self._game()
        self._tally(
            [
                Roll(VIRTUAL_READER, die, profile, labels, str(value), VIRTUAL, game)
                for die, value in enumerate(values)
            ]
        )

    def _game(self) -> int | None:
        return self.record.id if self.record is not None else None

    def _tally(self, rolls: list[Roll]) -> None:
        try:
            self.store.keep_rolls(rolls, now())
        except ValueError as exc:  # a face its profile does not have: not a die we can count
            log.info("a roll was not kept for the fairness test: %s", exc)
        except StorageError as exc:  # the storage watch sees store.failure at its next look
            log.warning("a roll could not be kept for the fairness test: %s", exc)
