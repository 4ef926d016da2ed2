"""The error of a game that cannot be set up as asked, shared by the rules' contract
(:mod:`.api`) and the players' names (:mod:`.names`), so that neither imports the other to raise
it."""

from __future__ import annotations


class SetupError(ValueError):
    """A new game cannot be set up as asked (player count, names, options)."""
