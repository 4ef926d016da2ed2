"""The tag registry: which NFC sticker is which component of which game ("stone 5").

A sticker is enrolled by tapping it and naming its component. The registry refuses a sticker that
is already enrolled and more stickers for a component than the box holds (``Game.components``).
It can be exported to a JSON file and imported on another table, so a second copy of a game is
taught in seconds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..games import get_game
from ..i18n import reason_of, t
from ..rules import SetupError
from .store import Store

EXPORT_FORMAT = "companion-tags/1"
_UID = re.compile(r"^(?:[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})$")


class TagError(ValueError):
    """A sticker cannot be enrolled or a tag file cannot be imported; the message says why."""


@dataclass(frozen=True)
class Component:
    game: str
    name: str  #: e.g. "stone 5"

    @property
    def kind(self) -> str:
        return self.name.split(" ", 1)[0]

    @property
    def value(self) -> int | str | None:
        parts = self.name.split(" ", 1)
        if len(parts) == 1:
            return None
        return int(parts[1]) if parts[1].isdigit() else parts[1]


def _normal(component: str) -> str:
    """A component's name as the registry keeps it: lower case, single spaces ("stone 5")."""
    return " ".join(component.lower().split())


class TagRegistry:
    def __init__(self, store: Store):
        self._store = store
        self._tags: dict[str, Component] = {
            uid: Component(game, comp) for uid, (game, comp) in store.tags().items()
        }

    def __len__(self) -> int:
        return len(self._tags)

    def lookup(self, uid: str) -> Component | None:
        return self._tags.get(uid)

    def count(self, game: str) -> dict[str, int]:
        """How many stickers each component of ``game`` has."""
        counts = {name: 0 for name in get_game(game).components}
        for comp in self._tags.values():
            if comp.game == game:
                counts[comp.name] = counts.get(comp.name, 0) + 1
        return counts

    def check(self, uid: str, game: str, component: str) -> Component:
        """The component to enrol, or TagError saying why it cannot be."""
        if not _UID.fullmatch(uid):
            raise TagError(t("{uid} is not a tag UID (4, 7 or 10 bytes in hex)", uid=repr(uid)))
        try:
            box = get_game(game).components
        except SetupError as exc:
            raise TagError(reason_of(exc)) from None
        name = _normal(component)
        if name not in box:
            raise TagError(
                t(
                    "{game} has no component {component} (it has: {components})",
                    game=get_game(game).title,
                    component=repr(component),
                    components=", ".join(box),
                )
            )
        existing = self._tags.get(uid)
        if existing is not None:
            raise TagError(
                t(
                    "that sticker is already enrolled as {component} of {game}",
                    component=existing.name,
                    game=get_game(existing.game).title,
                )
            )
        if self.count(game).get(name, 0) >= box[name]:
            raise TagError(
                t(
                    "the box holds {n} × {component}, and all are enrolled",
                    n=box[name],
                    component=name,
                )
            )
        return Component(game, name)

    def enrol(self, uid: str, game: str, component: str) -> Component:
        comp = self.check(uid, game, component)
        self._store.put_tags({uid: (comp.game, comp.name)})
        self._tags[uid] = comp
        return comp

    def forget_game(self, game: str) -> int:
        """Forget every sticker of ``game``; how many there were."""
        uids = [uid for uid, comp in self._tags.items() if comp.game == game]
        for uid in uids:
            self.forget(uid)
        return len(uids)

    def forget(self, uid: str) -> bool:
        self._tags.pop(uid, None)
        return self._store.forget_tag(uid)

    def export(self) -> dict[str, Any]:
        return {
            "format": EXPORT_FORMAT,
            "tags": [
                {"uid": uid, "game": c.game, "component": c.name}
                for uid, c in sorted(self._tags.items())
            ],
        }

    def import_(self, data: Any, replace: bool = False) -> int:
        """Import an exported file; all or nothing. Returns how many tags it holds."""
        if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
            raise TagError(
                t('not a tag file (expected "format": "{format}")', format=EXPORT_FORMAT)
            )
        rows = data.get("tags")
        if not isinstance(rows, list):
            raise TagError(t('a tag file needs a "tags" list'))
        trial = TagRegistry.__new__(TagRegistry)
        trial._store = self._store
        trial._tags = {} if replace else dict(self._tags)
        new: dict[str, tuple[str, str]] = {}
        for i, row in enumerate(rows, start=1):
            if not isinstance(row, dict) or not all(
                isinstance(row.get(k), str) for k in ("uid", "game", "component")
            ):
                raise TagError(t("tag {i}: needs uid, game and component", i=i))
            uid = row["uid"].upper()
            if trial._tags.get(uid) == Component(row["game"], _normal(row["component"])):
                continue  # already known as the same component: importing twice is harmless
            try:
                comp = trial.check(uid, row["game"], row["component"])
            except TagError as exc:
                raise TagError(
                    t("tag {i} ({uid}): {problem}", i=i, uid=uid, problem=reason_of(exc))
                ) from None
            trial._tags[uid] = comp
            new[uid] = (comp.game, comp.name)
        self._store.put_tags(
            new if not replace else {u: (c.game, c.name) for u, c in trial._tags.items()},
            replace=replace,
        )
        self._tags = trial._tags
        return len(rows)
