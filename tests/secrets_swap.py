"""The secrets harness's swap: the server changed in exactly what one role may not see, for as long
as a ``with`` lasts (``tests/secrets_harness.py`` uses it; ``docs/secrets.md`` explains it).

What a role may not see, and so what the swap deals anew or renames:

* the game's hidden facts: the state becomes ``game.indistinguishable(state, viewer, rng)``, and
  the private part of every kept event whose audience leaves the role out is replaced;
* the stickers' UIDs, for every role (the host included): a UID and the tag registry name a
  piece, so no page may show an enrolled sticker's UID. Every enrolled UID is renamed by one
  random bijection to fresh UIDs of the same length, wherever the server holds it: the tag
  registry, the devices' reports, the game state (keys and values, so the game stays
  consistent), the kept events, the journal of handled inputs and the refusals;
* what the devices reported, for every role but the host: each diagnostic field (what a device
  sensed last and when, its detail, power, errors, raw noise, ...) is scrambled, keeping only what
  the table may see (whether it is connected, its noise count, each die's state and face). The
  host's status page shows diagnostics on purpose, so for the host only the UIDs change.

Anything a role then receives that differs from what it received before is a leak.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterable
from typing import Any

from support import forget_served

from companion.i18n import Text
from companion.rules import EVERYTHING, HOST

#: What the table may see of a device's report (``DeviceReports.public``): everything else in a
#: report is a diagnostic, for the host's status page only.
PUBLIC_REPORT_FIELDS = frozenset({"connected", "noise"})
#: What every page may see of a die on the tray (``DeviceReports.dice``).
PUBLIC_DIE_FIELDS = frozenset({"state", "face"})
#: Report fields that count: what arrives while swapped is added to the real count.
COUNTERS = frozenset({"noise", "errors"})


class UidRenaming:
    """A random bijection from enrolled sticker UIDs to fresh UIDs of the same length (none of
    them enrolled), applied to anything the server holds: strings that contain a UID, dict keys,
    lists, and translatable texts (their parameters are what a translation is made from)."""

    def __init__(self, uids: Iterable[str], rng: random.Random):
        known = sorted(set(uids))
        taken = set(known)
        self.forward: dict[str, str] = {}
        for uid in known:
            fresh = uid
            while fresh in taken:
                fresh = f"{rng.getrandbits(4 * len(uid)):0{len(uid)}X}"
            taken.add(fresh)
            self.forward[uid] = fresh
        self.backward = {fresh: uid for uid, fresh in self.forward.items()}
        self._pattern = _alternatives(tuple(known))

    def found_in(self, value: Any) -> int:
        """How many enrolled UIDs occur in ``value`` (for the report: a renaming that finds none
        proves nothing)."""
        if self._pattern is None:
            return 0
        return len({m.group(0) for m in self._pattern.finditer(repr(value))})

    def text(self, text: str) -> str:
        if self._pattern is None or not self._pattern.search(text):
            return text
        return self._pattern.sub(lambda m: self.forward[m.group(0)], text)

    def value(self, value: Any) -> Any:
        """``value`` with every enrolled UID renamed (a new structure; the input is untouched)."""
        if isinstance(value, Text):
            params = {k: self.value(v) for k, v in value.params.items()}
            return Text(self.text(value.msgid), params)
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.value(k): self.value(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, tuple):
            return tuple(self.value(v) for v in value)
        return value

    def undo(self, data: bytes) -> bytes:
        """A response read while renamed, with the fresh UIDs named as the real ones again (for
        an endpoint that may show UIDs: the sticker map export when no game is played)."""
        if not self.backward:
            return data
        pattern = re.compile("|".join(map(re.escape, self.backward)).encode())
        return pattern.sub(lambda m: self.backward[m.group(0).decode()].encode(), data)


@functools.lru_cache(maxsize=8)
def _alternatives(words: tuple[str, ...]) -> re.Pattern | None:
    """One pattern finding any of ``words`` (the longest first); made once per registry."""
    if not words:
        return None
    return re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)))


def scrambled_reports(
    entries: dict[str, dict[str, Any]], rng: random.Random
) -> dict[str, dict[str, Any]]:
    """The devices' reports with every diagnostic field given another value of its kind, and
    what the table may see kept (connected, noise; each die's state and face)."""
    out: dict[str, dict[str, Any]] = {}
    for device, entry in sorted(entries.items()):
        kept: dict[str, Any] = {}
        for key, value in entry.items():
            if key in PUBLIC_REPORT_FIELDS:
                kept[key] = value
            elif key == "dice" and isinstance(value, dict):
                kept[key] = {
                    die: {
                        k: v if k in PUBLIC_DIE_FIELDS else _scramble(v, rng)
                        for k, v in seen.items()
                    }
                    for die, seen in sorted(value.items())
                }
            else:
                kept[key] = _scramble(value, rng)
        out[device] = kept
    return out


def _scramble(value: Any, rng: random.Random) -> Any:
    """Another value of the same kind (None stays None: it says nothing)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.randrange(1, 10**6)
    if isinstance(value, float):
        return value + rng.random() + 0.5
    if isinstance(value, str):
        return f"scrambled diagnostic {rng.getrandbits(48):012x}"
    if isinstance(value, dict):
        return {k: _scramble(v, rng) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_scramble(v, rng) for v in value]
    return value


class Swap:
    """The server's state, kept events, tag registry, device reports, journal and refusals
    changed in exactly what ``viewer`` may not see, for as long as the ``with`` lasts (under the
    table's lock; restored afterwards); the same change every time it is entered. Every cache of
    what the server serves is emptied on the way in and out (``support.forget_served``).

    ``changed`` says whether the referee would tell the two game states apart (a swap that
    changes nothing proves nothing); ``uids`` how many enrolled UIDs the game state held;
    ``disturbed`` whether a device reported while swapped (the comparison is then made again)."""

    def __init__(self, harness: Any, viewer: str):
        game, table, rng = harness.game, harness.server.table, harness.rng
        self.table = table
        self.server = harness.server
        self.viewer = viewer
        self.disturbed = False
        self._seed = rng.getrandbits(64)  # the scrambled reports: the same at every entry
        with table._lock:
            self.history = table.history  # None: no game (then only the rest is changed)
            self.renaming = UidRenaming(table.tags._tags, rng)
            self.depth, self.real, self.other, self.changed, self.uids = 0, None, None, 0, 0
            if self.history is not None:
                self.depth = self.history.count
                self.real = self.history._states[-1]
                dealt = game.indistinguishable(self.real, viewer, rng)
                self.changed = int(game.view(dealt, EVERYTHING) != game.view(self.real, EVERYTHING))
                self.uids = self.renaming.found_in(self.real)
                self.other = self.renaming.value(dealt)
            self.private: dict[int, dict[str, Any]] = {}  # event number -> a private part
            for entry in table.events:
                event = entry["event"]
                if "private" in event and viewer not in event.get("audience", ()):
                    self.private[entry["n"]] = {"changed": rng.getrandbits(64)}
                    self.changed = 1
        self._kept: list[tuple[dict[str, Any], dict[str, Any]]] = []
        self._tags: dict[str, Any] | None = None
        self._reports: tuple[dict[str, Any], dict[str, Any], dict[str, Any]] | None = None

    # -- in and out ----------------------------------------------------------------------------

    def __enter__(self) -> Swap:
        table = self.table
        with table._lock:
            history = table.history
            assert history is self.history, "a game began or ended while it was compared"
            if history is not None:
                assert history.count == self.depth and history._states[-1] is self.real, (
                    "the game moved on while it was compared"
                )
                history._states[-1] = self.other
            for entry in table.events:
                hidden = self.renaming.value(entry["event"])
                if entry["n"] in self.private:
                    hidden["private"] = self.private[entry["n"]]
                self._replace(entry, entry | {"event": hidden})
            for record in [*table.journal, *table.refusal_log.shown, *table.refusal_log.quiet]:
                self._replace(record, self.renaming.value(record))
            registry = table.tags
            self._tags = registry._tags
            registry._tags = {
                self.renaming.forward.get(uid, uid): component
                for uid, component in self._tags.items()
            }
            self._swap_reports()
            forget_served(self.server)
        return self

    def __exit__(self, *exc: object) -> None:
        table = self.table
        with table._lock:
            history = self.history
            if history is not None:
                assert history.count == self.depth, (
                    "an action was applied while the state was swapped"
                )
                history._states[-1] = self.real
            for record, original in reversed(self._kept):
                record.clear()
                record.update(original)
            self._kept.clear()
            table.tags._tags = self._tags
            self._restore_reports()
            forget_served(self.server)

    def _replace(self, record: dict[str, Any], changed: dict[str, Any]) -> None:
        """Change a kept record in place (the deques that hold it may grow meanwhile)."""
        if changed != record:
            self._kept.append((record, dict(record)))
            record.clear()
            record.update(changed)

    # -- the devices' reports ------------------------------------------------------------------

    def _swap_reports(self) -> None:
        reports = self.table.reports
        with reports._lock:
            real = reports._entries
            shown = self.renaming.value(real)
            if self.viewer != HOST:
                shown = scrambled_reports(shown, random.Random(self._seed))
            self._reports = (real, shown, _deep_copy(shown))
            reports._entries = shown

    def _restore_reports(self) -> None:
        """The real reports back; what a device reported meanwhile (into the swapped copy) is
        carried over to them, and the comparison is made again."""
        reports = self.table.reports
        real, shown, entered = self._reports
        with reports._lock:
            reports._entries = real
            if shown == entered:
                return
            self.disturbed = True
            for device, entry in shown.items():
                before = entered.get(device, {})
                target = real.setdefault(device, {})
                for key, value in entry.items():
                    if before.get(key) == value:
                        continue
                    if key in COUNTERS and isinstance(before.get(key), int):
                        target[key] = target.get(key, 0) + value - before[key]
                    elif key == "dice" and isinstance(value, dict):
                        dice = target.setdefault("dice", {})
                        dice.update(
                            {
                                die: seen
                                for die, seen in value.items()
                                if before.get("dice", {}).get(die) != seen
                            }
                        )
                    else:
                        target[key] = value


def _deep_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _deep_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep_copy(v) for v in value]
    return value
