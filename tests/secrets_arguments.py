"""The secrets harness's arguments: what each role puts in each endpoint's URL (a token of its
own, a copied one, a made-up one, the display's key, the join codes, a play, a step, a die), so
that every GET endpoint is fetched by every role (``secrets_harness.Harness``)."""

from __future__ import annotations

from typing import Any

from companion.rules import TABLE

#: A phone with no token, or a made-up one: it sees what the table display shows, no more.
NOBODY = "@nobody"
#: A phone with every player's link (copied, or read over a shoulder) and the seat cookie made
#: from it, but not the claim of the phone that took the seat: it too sees only the table's.
COPIED = "@copied-link"

#: A die's fairness page: the host's alone (a die's reader and index are device data). Each die
#: the table has kept is fetched; before any, a die id no die has (the host's answer is 404).
DIE_PAGE = "/host/<token>/dice/<int:die_id>"
NO_DIE = 0


class EndpointArguments:
    """The arguments of every endpoint, for each role; mixed into ``Harness``, whose table,
    tokens and made-up values it reads."""

    def arguments(self, rule: Any, role: str) -> list[dict[str, Any]]:
        """The values of a rule's arguments for ``role`` (several: one fetch each)."""
        args = set(rule.arguments)
        options: list[dict[str, Any]] = [{}]
        if "token" in args and role == COPIED:  # every seat's link, without its claim
            options = [{"token": token} for token in sorted(self.tokens.values())]
            if not options:
                return []
            args.discard("token")
        if "token" in args:
            token = self.token(role)
            if token is None:  # the table display has no token: NOBODY tries the wrong ones
                return []
            options = [{"token": token}]
            if role == NOBODY:  # a made-up token, and the dead links of seats handed over
                options += [{"token": old} for old in self.stale]
            args.discard("token")
        if "key" in args and rule.rule.startswith("/table/"):
            # the display link: the table display's screen has it; anyone else makes one up
            options = [
                o | {"key": self.access.display_key if role == TABLE else self.wrong}
                for o in options
            ]
            args.discard("key")
        if "code" in args and rule.rule.startswith("/join/"):
            # the seats' join codes are on the table display: anyone may scan them
            record = self.server.table.record
            codes = sorted(record.joins.values()) if record is not None and role != NOBODY else []
            options = [o | {"code": c} for o in options for c in (codes or [self.wrong])]
            args.discard("code")
        if "code" in args and rule.rule.startswith("/lang/"):  # the languages a phone can pick
            options = [o | {"code": c} for o in options for c in languages()]
            args.discard("code")
        if {"game", "name"} <= args:  # a game's printed data sets
            names = sorted(getattr(self.game, "datasets", None) or {}) or ["none"]
            options = [o | {"game": self.game.id, "name": n} for o in options for n in names]
            args -= {"game", "name"}
        if {"game", "filename"} <= args:  # a game's page module: the same files for everyone
            files = ["page.js", "page.css"]
            options = [o | {"game": self.game.id, "filename": f} for o in options for f in files]
            args -= {"game", "filename"}
        if "die_id" in args and rule.rule == DIE_PAGE:  # the dice the table has kept
            dice = [d.id for d in self.server.table.store.dice()] or [NO_DIE]
            options = [o | {"die_id": d} for o in options for d in dice]
            args.discard("die_id")
        if "play" in args:  # a play of the Plays pages: the one at the table (its own pages
            record = self.server.table.record  # must answer: made-up ids are tests/web's)
            options = [o | {"play": record.id if record is not None else 1} for o in options]
            args.discard("play")
        if "step" in args:  # the play's set-up, and where it stands now (its last step)
            history = self.server.table.history
            last = history.count if history is not None else 0
            options = [o | {"step": s} for o in options for s in sorted({0, last})]
            args.discard("step")
        if "play_id" in args:  # a play's chart: the one at the table and the newest finished
            record = self.server.table.record
            finished = [g.id for g in self.server.table.store.games() if g.finished]
            charted = sorted({*finished[-1:], *([record.id] if record is not None else [])})
            options = [o | {"play_id": play_id} for o in options for play_id in charted]
            args.discard("play_id")
        if args:
            raise AssertionError(
                f"the secrets harness does not know what to put for "
                f"{sorted(args)} in {rule.rule}: teach Harness.arguments, so "
                f"that the endpoint is checked for every role"
            )
        return options


def languages() -> list[str]:
    """The languages the pages speak (English first)."""
    try:
        from companion.i18n import DEFAULT, LANGUAGES
    except ImportError:
        return ["en"]
    return [DEFAULT, *sorted(set(LANGUAGES) - {DEFAULT})]
