"""Cards and tiles that look alike: a draw told by what is printed on it.

Two Battle Cards with the same colour, Spell Strength and Movement Rating are the same card to
everyone at the table, and so are two Resource Tiles of one kind and two Obstacle Cards with the
same colours, strength and reward. A phone that tells a draw by what is printed (a table without
stickers) names the first id of its group, since it cannot know which of them lie in the draw
pile (the others may be in other players' hands: only the pile's size is public). The rules take
the named card when it is in the pile, else the first alike one that is (pure, so a replay takes
the same one); when none is, the draw is refused as before, with the pile's rule."""

from __future__ import annotations

from typing import Any


def battle_print(data: dict[str, Any], card: str) -> tuple:
    info = data["battle"][card]
    return (info["colour"], info["strength"], info["movement"])


def obstacle_print(data: dict[str, Any], card: str) -> tuple:
    info = data["obstacles"][card]
    return (tuple(sorted(info["colours"])), info["strength"], info["reward"])


def tile_print(data: dict[str, Any], tile: str) -> str:
    return data["tiles"][tile]["kind"]


def _alike(named: Any, among: list[str], table: dict[str, Any], printed) -> Any:
    """``named`` when it is among ``among`` or unknown, else the first alike one among them."""
    if not isinstance(named, str) or named in among or named not in table:
        return named
    want = printed(named)
    for other in sorted(among):
        if other in table and printed(other) == want:
            return other
    return named


def _drawable(pile: dict[str, Any]) -> list[str]:
    return pile["deck"] or pile["discard"]  # an empty pile is its discard pile, shuffled


def battle_card(data: dict[str, Any], pile: dict[str, Any], card: Any) -> Any:
    return _alike(card, _drawable(pile), data["battle"], lambda c: battle_print(data, c))


def obstacle_card(data: dict[str, Any], pile: dict[str, Any], card: Any) -> Any:
    return _alike(card, _drawable(pile), data["obstacles"], lambda c: obstacle_print(data, c))


def resource_tile(data: dict[str, Any], among: list[str], tile: Any) -> Any:
    """A tile from ``among`` (a draw pile's drawable tiles, or the victim's tiles for Red
    Sparks' blind draw)."""
    return _alike(tile, among, data["tiles"], lambda x: tile_print(data, x))
