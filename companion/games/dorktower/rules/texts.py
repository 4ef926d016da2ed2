"""Small helpers that build Dork Tower's sentences and keep them translatable."""

from __future__ import annotations

from companion.i18n import Text, t


def named(name: str) -> Text:
    """A data set's name or text (an item, a space, a scroll's text) as the rules show it: English
    here, made again in the page's language from the data set's translations where one is given
    (its English is its template; ``docs/languages.md``)."""
    return Text(name)


def takes_an(noun: str) -> bool:
    """Whether English writes "an" before ``noun``."""
    return noun[:1].lower() in "aeiou"


def slot_number(where: str) -> int:
    """The slot's number (1 to 4) in ``heroes.gain_item``'s "slot 2"."""
    return int(where.split()[1])


def tie_text(names: list[str], total: int) -> Text:
    """DT-SETUP-6: the players who tie for the start, a sentence for each number of them."""
    if len(names) == 2:
        return t(
            "{a} and {b} tie on {total}: they roll again.", a=names[0], b=names[1], total=total
        )
    if len(names) == 3:
        return t(
            "{a} and {b} and {c} tie on {total}: they roll again.",
            a=names[0],
            b=names[1],
            c=names[2],
            total=total,
        )
    if len(names) == 4:
        return t(
            "{a} and {b} and {c} and {d} tie on {total}: they roll again.",
            a=names[0],
            b=names[1],
            c=names[2],
            d=names[3],
            total=total,
        )
    if len(names) == 5:
        return t(
            "{a} and {b} and {c} and {d} and {e} tie on {total}: they roll again.",
            a=names[0],
            b=names[1],
            c=names[2],
            d=names[3],
            e=names[4],
            total=total,
        )
    return t(
        "{a} and {b} and {c} and {d} and {e} and {f} tie on {total}: they roll again.",
        a=names[0],
        b=names[1],
        c=names[2],
        d=names[3],
        e=names[4],
        f=names[5],
        total=total,
    )


def listing(parts: list[Text]) -> Text:
    """Texts as one comma-separated list that stays translatable ("a scroll, 5 XP")."""
    out = parts[0]
    for part in parts[1:]:
        out = t("{list}, {item}", list=out, item=part)
    return out


def either(words: list[str]) -> str:
    """Words as alternatives, "weapon or shield", translatable."""
    out = words[0]
    for word in words[1:]:
        out = t("{list} or {item}", list=out, item=word)
    return out
